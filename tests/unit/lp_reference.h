/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp_reference - an independent interpreter of tests/unit/parser-spec.md.
 *
 * It computes, for the events of one CPU, every record the latency parser's
 * state machine must emit, in the order it must emit them. It is written
 * from the spec and the paper only, and built differently from the parser:
 * a first pass finds the interrupts (their spans, the events they own), a
 * second pass runs the thread's model, and a window's interference is the
 * measure of the interrupt spans inside it rather than a running counter.
 */
#ifndef _LP_REFERENCE_H
#define _LP_REFERENCE_H

#include <linux/types.h>

#include "trace_latency_parser_sm.h"

/*
 * lp_ref_run - the records @n events of one CPU produce, from a fresh
 * parser. Writes at most @max to @out and returns how many there are (which
 * may be more than @max).
 */
unsigned int lp_ref_run(const struct lp_sm_event *ev, unsigned int n,
			struct lp_sm_record *out, unsigned int max);

/*
 * lp_ref_run_idx - the same, also telling in @at (may be NULL) the index of
 * the event that emits each record.
 */
unsigned int lp_ref_run_idx(const struct lp_sm_event *ev, unsigned int n,
			    struct lp_sm_record *out, unsigned int *at,
			    unsigned int max);

#endif /* _LP_REFERENCE_H */
