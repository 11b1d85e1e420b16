/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lp_generator - random valid event sequences of one CPU, as a 6.12
 * PREEMPT_RT kernel emits them to the latency parser (see "How the kernel
 * emits them" in tests/unit/parser-spec.md).
 *
 * A simulated CPU runs tasks and the idle task: preempt_disable/enable
 * nesting, local_irq_disable/enable and irqsave sections, voluntary
 * schedule(), preemption at preempt_enable and at an IRQ's return, IRQs
 * (nested handlers, several handlers, the RT tail that wakes ksoftirqd),
 * NMIs anywhere, the idle loop, and CPU hotplug. The same seed always
 * gives the same sequence.
 */
#ifndef _LP_GENERATOR_H
#define _LP_GENERATOR_H

#include <linux/types.h>

#include "trace_latency_parser_sm.h"

/* lp_gen_rand - the generator's PRNG (splitmix64), exposed for tests */
u64 lp_gen_rand(u64 *state);

/*
 * lp_gen_sequence - fill @ev with a valid sequence for @seed, of about
 * @target events (at least @target unless @max stops it, never more than
 * @max). Returns the number of events.
 */
unsigned int lp_gen_sequence(u64 seed, unsigned int target,
			     struct lp_sm_event *ev, unsigned int max);

#endif /* _LP_GENERATOR_H */
