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

/*
 * lp_sm_run_lazy - the same, the way the tracer feeds the parser: each
 * event goes in LP_SM_UNSTAMPED, with a time and NMI time that are not the
 * event's, and the parser gets the right ones from latency_parser_sm_stamp() when it
 * asks. A parser that used a time it did not ask for reports wrong values.
 * @clock_reads (if not NULL) gets, per event, how often it asked (0 or 1).
 */
/* lp_sm_event_lazy - one event through @sm as lp_sm_run_lazy() feeds it */
unsigned int lp_sm_event_lazy(struct lp_sm *sm, const struct lp_sm_event *ev,
			      struct lp_sm_record *out, unsigned int *clock_reads);

/* A way into the state machine: latency_parser_sm_event(), or a part of it. */
typedef unsigned int (*lp_sm_parse_fn)(struct lp_sm *sm, struct lp_sm_event *ev,
				       struct lp_sm_record *out);

/*
 * lp_sm_event_lazy_via - lp_sm_event_lazy() through @parse: the fast-path
 * test feeds the same event, the same way, to the dispatcher and to the
 * general path alone.
 */
unsigned int lp_sm_event_lazy_via(lp_sm_parse_fn parse, struct lp_sm *sm,
				  const struct lp_sm_event *ev,
				  struct lp_sm_record *out,
				  unsigned int *clock_reads);

unsigned int lp_sm_run_lazy(const struct lp_sm_event *ev, unsigned int n,
			    struct lp_sm_record *out, unsigned int max,
			    unsigned int *clock_reads);

/* lp_sm_type_name - an event's name, for messages */
const char *lp_sm_type_name(unsigned int type);

/* lp_sm_var_name - a record's variable, for messages */
const char *lp_sm_var_name(unsigned int var);

#endif /* _LP_SM_RUN_H */
