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
 *
 * The simulation also knows what no event shows, and can write it down as
 * the ground truth (struct lp_gen_truth): the true windows of each
 * variable as the paper defines them, every interrupt's true span, and the
 * true scheduling latency of every wakeup of the highest-priority thread.
 */
#ifndef _LP_GENERATOR_H
#define _LP_GENERATOR_H

#include <linux/types.h>

#include "trace_latency_parser_sm.h"

/*
 * What a sequence may contain beyond the classic mix (the parser-versus-
 * reference comparison runs without them, and once more with remote
 * wakeups alone; the ground truth and the fast path with all).
 */
#define LP_GEN_MID_START	0x01	/* tracing starts anywhere, as it does */
#define LP_GEN_SILENT_IRQ	0x02	/* IRQs after the idle's silent unmask */
#define LP_GEN_THREAD_OFFLINE	0x04	/* hotplug teardown from a task */
#define LP_GEN_LONG		0x08	/* rare stretches of up to 2 ms */
/*
 * Remote wakeups: a waker on another CPU sets need_resched here at any
 * moment (REMOTE_RESCHED), and its IPI (vector 253) lands after a flight,
 * once the hardware takes IRQs; a sleeping CPU is woken by the IPI (hlt)
 * or, polling in mwait, by the flag itself.
 */
#define LP_GEN_REMOTE		0x80
/*
 * The idle loop as 6.3+ kernels run it: ct_cpuidle_enter() tells the
 * tracing state IRQs are on (trace_hardirqs_on_prepare()) after IDLE_IN,
 * before the sleep's sti, in most sleeps (default_idle_call(), cpuidle's
 * states without their own ct_cpuidle_enter()): the IRQ that wakes the CPU
 * then traces its entry's irq_disable, and the idle loop's unmask after
 * IDLE_OUT is untraced even when no IRQ came.
 */
#define LP_GEN_IDLE_PREP	0x100
#define LP_GEN_ALL		(0x0f | LP_GEN_REMOTE | LP_GEN_IDLE_PREP)
/*
 * Not a valid stream: one section toggle or handler exit is lost, as a
 * probe that missed it would. The parser must then count a drop after it,
 * wherever it measured less.
 */
#define LP_GEN_LOSSY		0x10
/*
 * The realistic load (the classic mix above is a stress: interrupts take
 * 56% of the CPU's time there, and the sporadic bound is unbounded in 46%
 * of its sequences). Each sequence has two to four interrupt sources, each
 * with a minimum inter-arrival time of its own (a device, a timer: the
 * paper's sporadic characterization), and NMIs at most one per 500 us; an
 * interrupt fires only once its source may, a sleeping CPU waits for it,
 * and a handler runs for about a microsecond between its events. The
 * thread's stretches are the classic ones. Interrupts then take a few
 * percent of the CPU, at most 15%, and the sporadic bound is finite;
 * the scheduler is slower than the rest by a factor of its own (1 to 4),
 * so that in some sequences DST, not POID, is the larger of the two.
 */
#define LP_GEN_REALISTIC	0x20
/*
 * With LP_GEN_LOSSY: the lost event may also be one of the idle task's own
 * (its ID, IDLE_IN, IDLE_OUT or IE, or the unmask before its sleep). Its
 * own bit, so that a test can leave the idle task's probes alone.
 */
#define LP_GEN_IDLE_LOSS	0x40

/* A true window or interrupt span, in ns of the sequence's clock. */
struct lp_gen_span {
	u64		start;
	u64		end;
	u32		var;		/* enum lp_var */
	u32		silent;		/* a bound of it is an untraced change */
};

/*
 * One wakeup of the highest-priority thread (Definition 1): it becomes
 * ready at @ready, the scheduler returns to it at @run (EV7). @chain is
 * where the thread state that delays it began: the start of the thread's
 * state at @ready, or of the interrupt that ran then.
 */
struct lp_gen_wakeup {
	u64		ready;
	u64		run;
	u64		chain;
};

/*
 * A stretch the tracer cannot see, whatever the parser does: what the CPU
 * did before tracing started (or the CPU came back online) and what an
 * event a probe missed hides. It lasts until the tracer has been told
 * again everything the parser needs: a whole pass through the scheduler
 * (SE, its ID and IE, EV7: both the preemption and the IRQ state) and then
 * the thread's first traced entry into pe_ie, where the model's parser
 * syncs. Outside these, the parser must measure: no drop, no desync.
 */
enum lp_gen_blind_why {
	LP_BLIND_START,		/* before tracing started, and after */
	LP_BLIND_LOST,		/* an event lost (LP_GEN_LOSSY) */
	LP_BLIND_OFFLINE,	/* the CPU going down, dead, and back */
	LP_BLIND_NR_WHY,
};

struct lp_gen_blind {
	u64		start;
	u64		end;		/* ~0: to the end of the sequence */
	u32		why;		/* the first cause; later ones extend it */
};

#define LP_GEN_MAX_SPANS	4096
#define LP_GEN_MAX_BLIND	64
#define LP_GEN_MAX_WAKEUPS	1024
#define LP_GEN_MAX_LOST		64

/* Kernel paths a sequence went through, counted so tests can see them. */
enum lp_gen_path {
	LP_PATH_MID_START,	/* tracing began in the scheduler or a section */
	LP_PATH_SILENT_IRQ,	/* an IRQ after the idle's untraced unmask */
	LP_PATH_THREAD_OFFLINE,	/* OFFLINE from a task */
	LP_PATH_NESTED_NMI,	/* an NMI inside an NMI */
	LP_PATH_WOKEN_MASKED,	/* woken with IRQs masked, on in pe_ie */
	LP_PATH_PAIE_SECTION,	/* a woken thread's PAIE across a section */
	LP_PATH_EV7_MASKED,	/* EV7 with IRQs masked, need_resched set */
	LP_PATH_LONG,		/* a stretch longer than 100 us */
	/* remote wakeups (LP_GEN_REMOTE), by where the waker found the CPU */
	LP_PATH_REMOTE_PAIE,	/* the thread in pe_ie */
	LP_PATH_REMOTE_POID,	/* preemption or IRQs disabled by it */
	LP_PATH_REMOTE_SCHED,	/* EV1 to EV3: this pass serves it */
	LP_PATH_REMOTE_SCHED_TAIL,	/* EV3 to EV7: the next pass does */
	LP_PATH_REMOTE_IN_IRQ,	/* an IRQ running */
	LP_PATH_REMOTE_IDLE_HLT,	/* asleep in hlt: the IPI wakes it */
	LP_PATH_REMOTE_IDLE_POLL,	/* asleep in mwait: no IPI */
	LP_PATH_IDLE_PREP,	/* ct_cpuidle_enter()'s IE before the sleep */
	LP_GEN_NR_PATHS,
};

struct lp_gen_truth {
	struct lp_gen_span	span[LP_GEN_MAX_SPANS];
	unsigned int		nr_spans;
	struct lp_gen_wakeup	wakeup[LP_GEN_MAX_WAKEUPS];
	unsigned int		nr_wakeups;
	u64			trace_start;	/* the first recorded event */
	u64			begin;		/* the simulation's start */
	u64			end;		/* and its last event */
	unsigned int		nr_offline;	/* OFFLINE events recorded */
	unsigned int		nr_lost;	/* events lost (LP_GEN_LOSSY) */
	u64			lost[LP_GEN_MAX_LOST];	/* their times */
	struct lp_gen_blind	blind[LP_GEN_MAX_BLIND];	/* by start */
	unsigned int		nr_blind;
	unsigned int		path[LP_GEN_NR_PATHS];
	bool			overflow;	/* a table was full */
};

/* lp_gen_truth_features - what the ground-truth test asks for a seed */
static inline unsigned int lp_gen_truth_features(u64 seed)
{
	return LP_GEN_ALL | (seed % 4 ? 0 : LP_GEN_LOSSY | LP_GEN_IDLE_LOSS);
}

/* The load profiles the ground-truth test runs, each on the same seeds. */
enum lp_gen_profile {
	LP_PROFILE_CLASSIC,	/* the stress mix: lp_gen_truth_features() */
	LP_PROFILE_REALISTIC,	/* LP_GEN_REALISTIC */
	LP_NR_PROFILES,
};

/* lp_gen_profile_features - a seed's features under @profile */
static inline unsigned int lp_gen_profile_features(u64 seed,
						   enum lp_gen_profile profile)
{
	unsigned int f = lp_gen_truth_features(seed);

	if (profile == LP_PROFILE_REALISTIC)
		f |= LP_GEN_REALISTIC;
	return f;
}

/* lp_gen_rand - the generator's PRNG (splitmix64), exposed for tests */
u64 lp_gen_rand(u64 *state);

/*
 * lp_gen_sequence - fill @ev with a valid sequence for @seed, of about
 * @target events (at least @target unless @max stops it, never more than
 * @max). Returns the number of events.
 */
unsigned int lp_gen_sequence(u64 seed, unsigned int target,
			     struct lp_sm_event *ev, unsigned int max);

/*
 * lp_gen_sequence_truth - the same with the LP_GEN_* @features, and the
 * ground truth of the recorded events in @truth (may be NULL).
 */
unsigned int lp_gen_sequence_truth(u64 seed, unsigned int target,
				   struct lp_sm_event *ev, unsigned int max,
				   unsigned int features,
				   struct lp_gen_truth *truth);

#endif /* _LP_GENERATOR_H */
