/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp_sm_run - feed a sequence of events to the latency parser's state
 * machine, as the tracer's probes would on one CPU, and collect what it
 * reports. Shared by the host tests of the parser.
 */
#ifndef _LP_SM_RUN_H
#define _LP_SM_RUN_H

#include "trace_latency_parser_sm.h"

/*
 * lp_sm_run - run @n events through a fresh parser; the thread events get
 * the NMI time the parser accumulated before them, as the probes sample
 * it. Returns the number of records written to @out (at most @max).
 */
unsigned int lp_sm_run(const struct lp_sm_event *ev, unsigned int n,
		       struct lp_sm_record *out, unsigned int max);

/* lp_sm_type_name - an event's name, for messages */
const char *lp_sm_type_name(unsigned int type);

/* lp_sm_var_name - a record's variable, for messages */
const char *lp_sm_var_name(unsigned int var);

#endif /* _LP_SM_RUN_H */
