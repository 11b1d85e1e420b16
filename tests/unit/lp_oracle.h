/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp_oracle - the latency parser and the bound engine, end to end, against
 * the ground truth of a simulated CPU (lp_generator.h).
 *
 * The parser is fed a sequence as the tracer feeds it; the oracle then
 * checks what it recorded against what really happened:
 *  1. no variable is measured below the truth: each true window of POID,
 *     PSD, DST and PAIE is at most the parser's maximum of that variable
 *     (and a PAIE, on a valid stream, at most the parser's PAIE record
 *     written at its EV1's SE: one wakeup's window cut short cannot hide
 *     behind another's), and each true interrupt has a record that starts
 *     no later and lasts no less;
 *  2. the paper's theorem, end to end: every true scheduling latency is at
 *     most the bound that the rtla engine computes from the parser's
 *     records, under each sound characterization (sporadic and both
 *     sliding windows: they are built from the interrupts observed, and
 *     cover every window of the observation; the other three are
 *     optimistic by design and are only counted).
 *  3. where the parser sees every bound of a window (an IRQ's, PSD's, DST's)
 *     on a valid stream, it measures exactly that: an IRQ record is its
 *     true span, and PSD and DST maxima are true ones (so that time taken
 *     from a window cannot hide in an interrupt, nor a sleep in a window).
 * What the parser declares it could not see is excused: a window or a
 * wakeup that overlaps a stretch where the parser is not synced, or holds
 * a dropped record. The parser cannot excuse itself: the generator writes
 * down where the tracer really is blind (struct lp_gen_blind: before the
 * start, after a lost event, around a hotplug), and
 *  4. every stretch where the parser is not synced, and every drop, lies
 *     in one of those; a desync or a drop anywhere else fails the seed,
 *     one that writes no drop too.
 * The windows left unchecked are counted by reason (enum lp_unchecked),
 * and the caller bounds each count.
 */
#ifndef _LP_ORACLE_H
#define _LP_ORACLE_H

#include <stdbool.h>

#include "lp_generator.h"
#include "sched_latency_bound.h"

enum lp_oracle_verdict {
	LP_ORACLE_SOUND,
	LP_ORACLE_UNDER_VAR,	/* a variable's maximum below a true window */
	LP_ORACLE_UNDER_INTR,	/* a true interrupt missed or cut short */
	LP_ORACLE_UNDER_BOUND,	/* a true latency above a sound bound */
	LP_ORACLE_DROP_SYNCED,	/* a drop where the tracer sees everything */
	LP_ORACLE_DESYNC,	/* not synced where the tracer sees everything */
	LP_ORACLE_OVER,		/* more than the truth, where exact is due */
	LP_ORACLE_BAD_INPUT,	/* the truth overflowed, or a record is odd */
};

/* Why a true window or wakeup went unchecked. */
enum lp_unchecked {
	LP_UNCHECKED_EXCUSED,	/* the parser said it could not see it */
	LP_UNCHECKED_SILENT_PAIE,	/* a PAIE from the idle's untraced unmask */
	LP_UNCHECKED_LOST_NO_SE,	/* after a lost event, no SE after it */
	LP_UNCHECKED_UNTRACED_END,	/* an untraced end, no event after it */
	LP_UNCHECKED_NR,
};

struct lp_oracle {
	enum lp_oracle_verdict	verdict;
	char			why[256];	/* the first violation */

	u64		rec_max[LP_NR_VARS];	/* what the parser recorded */
	u64		true_max[LP_NR_VARS];	/* over the windows checked */
	unsigned int	nr_records;
	unsigned int	drops;
	unsigned int	spans_checked;
	unsigned int	spans_excused;
	unsigned int	unchecked[LP_UNCHECKED_NR];	/* windows, by reason */
	unsigned int	desyncs;	/* the parser's, inside blind stretches */

	unsigned int	wakeups;
	unsigned int	wakeups_checked;
	unsigned int	wakeups_excused;
	u64		worst_latency;		/* of those checked */

	bool		unbounded[SLB_NR_MODELS];
	u64		bound[SLB_NR_MODELS];
	unsigned int	above[SLB_NR_MODELS];	/* latencies above it */

	/* the load: true interrupt time, and the time, of the whole sequence */
	u64		intr_ns;
	u64		seq_ns;
};

/*
 * The terms of Theorem 8's bound: the four variables, and the two classes
 * of interrupt sources (IRQs, NMIs).
 */
enum lp_term {
	LP_TERM_POID,
	LP_TERM_PSD,
	LP_TERM_DST,
	LP_TERM_PAIE,
	LP_TERM_IRQ,
	LP_TERM_NMI,
	LP_NR_TERMS,
};

/*
 * What each term carries: of the wakeups checked, how many have a true
 * latency above the bound the engine computes without that term (the
 * variable's maximum 0, or no record of that class), per characterization.
 * A term no latency needs is one the latency property cannot test: a
 * parser that measured it short would pass.
 */
struct lp_weight {
	unsigned int	uncovered[LP_NR_TERMS][SLB_NR_MODELS];
};

/*
 * Judge by property 2 alone (the latency), for experiments: the other
 * properties' failures are not reported. Never set by the tests' default.
 */
extern bool lp_oracle_latency_only;

/* lp_term_name - "poid", ..., "irq", "nmi" */
const char *lp_term_name(enum lp_term term);

/* lp_oracle_sound_model - the characterizations property 2 holds for */
bool lp_oracle_sound_model(enum slb_model model);

/*
 * lp_oracle_check - run the parser on @n events of @ev (generated with
 * @truth) and judge its records. Returns the verdict, also in @o.
 */
enum lp_oracle_verdict lp_oracle_check(const struct lp_sm_event *ev,
				       unsigned int n,
				       const struct lp_gen_truth *truth,
				       struct lp_oracle *o);

/*
 * lp_oracle_weigh - after lp_oracle_check() of the same sequence: what each
 * term carries (struct lp_weight), from the engine re-run without it.
 */
void lp_oracle_weigh(const struct lp_oracle *o, struct lp_weight *wt);

#endif /* _LP_ORACLE_H */
