// SPDX-License-Identifier: GPL-2.0
/*
 * The bound engine of rtla sched-latency (src/sched_latency_bound.c):
 * cases computed by hand for each characterization of the interrupts, the
 * breakdown, the unbounded results and the system's bound; then random
 * streams of several CPUs against a brute force written from the
 * definitions of Documentation/tools/rtla/sched-latency-bound.rst, over
 * every window. The brute force holds the engine both ways: never below
 * the bound over the exact windows (soundness), and, where the grid rounds
 * windows, never above the bound over the windows rounded as that page
 * says the grid rounds them (tightness): a bound that only grows would
 * pass soundness alone.
 */

#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "../../src/sched_latency_bound.h"

/* one interrupt occurrence of a stream */
struct occ {
	int		source;
	uint64_t	start;
	uint64_t	exec;
};

/* add - one interrupt record, which must be accepted */
static void add(struct slb *slb, int cpu, int source, uint64_t start, uint64_t exec)
{
	ck_assert_int_eq(slb_add_interrupt(slb, cpu, source, start, exec), 0);
}

/* feed - a stream, in start-time order, to @cpu */
static void feed(struct slb *slb, int cpu, const struct occ *occ, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		add(slb, cpu, occ[i].source, occ[i].start, occ[i].exec);
}

/* set_vars - the four thread variables of @cpu */
static void set_vars(struct slb *slb, int cpu, uint64_t poid, uint64_t psd,
		     uint64_t st, uint64_t paie)
{
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_POID, poid), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_PSD, psd), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_ST, st), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_PAIE, paie), 0);
}

/* share - what @source adds to @b */
static uint64_t share(const struct slb_bound *b, int source)
{
	unsigned int i;

	for (i = 0; i < b->nr_shares; i++)
		if (b->shares[i].source == source)
			return b->shares[i].ns;
	return 0;
}

/* latency - the bound of @res under @m, which must be bounded */
static uint64_t latency(const struct slb_result *res, enum slb_model m)
{
	ck_assert_msg(!res->bound[m].unbounded, "%s unbounded (%s)",
		      slb_model_name(m), slb_why_name(res->bound[m].why));
	return res->bound[m].latency;
}

/* value - a bound as a number, UINT64_MAX when unbounded */
static uint64_t value(const struct slb_bound *b)
{
	return b->unbounded ? UINT64_MAX : b->latency;
}

/* sat_add - a + b, saturated as the engine saturates */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * compute_all - the result of each CPU, and under each characterization the
 * CPU of the system's bound: the first one no other CPU has a worse bound
 * than (slb_bound_worse()), as rtla picks it
 */
static void compute_all(struct slb *slb, int nr_cpus, struct slb_result *res,
			int worst[SLB_NR_MODELS])
{
	int c, m;

	for (c = 0; c < nr_cpus; c++)
		ck_assert_int_eq(slb_compute_cpu(slb, c, &res[c]), 0);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		worst[m] = 0;
		for (c = 1; c < nr_cpus; c++)
			if (slb_bound_worse(&res[c].bound[m], &res[worst[m]].bound[m]))
				worst[m] = c;
	}
}

/*
 * check_breakdown - each bound is its parts: the shares, by source with
 * the NMI first, add up to I_IRQ and I_NMI, L_IF is Lemma 7's sum of the
 * variables, a bounded latency is L_IF and the shares, and the dominant
 * term is the largest of them
 */
static void check_breakdown(const struct slb_result *res)
{
	int m, v;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res->bound[m];
		uint64_t all = 0, irq = 0, nmi = 0, blk;
		unsigned int i;

		for (i = 0; i < b->nr_shares; i++) {
			all = sat_add(all, b->shares[i].ns);
			if (b->shares[i].source == SLB_NMI)
				nmi = sat_add(nmi, b->shares[i].ns);
			else
				irq = sat_add(irq, b->shares[i].ns);
			ck_assert_uint_ge(b->dominant.ns, b->shares[i].ns);
			if (i)
				ck_assert_int_lt(b->shares[i - 1].source, b->shares[i].source);
		}
		ck_assert_uint_eq(b->irq, irq);
		ck_assert_uint_eq(b->nmi, nmi);
		blk = b->var[SLB_ST] > b->var[SLB_POID] ? b->var[SLB_ST] : b->var[SLB_POID];
		ck_assert_uint_eq(b->l_if, blk + b->var[SLB_PAIE] + b->var[SLB_PSD]);
		for (v = 0; v < SLB_NR_VARS; v++)
			ck_assert_uint_ge(b->dominant.ns, b->var[v]);
		if (!b->unbounded)
			ck_assert_msg(b->latency == b->l_if + all || (!b->latency && !b->l_if),
				      "%s: %llu != %llu + %llu", slb_model_name(m),
				      (unsigned long long)b->latency,
				      (unsigned long long)b->l_if, (unsigned long long)all);
	}
}

START_TEST(test_config)
{
	struct slb_config cfg, got;
	struct slb *slb;

	slb_config_default(&cfg);
	ck_assert_uint_eq(cfg.grid_ns, SLB_DEFAULT_GRID_NS);
	ck_assert_uint_eq(cfg.horizon_ns, SLB_DEFAULT_HORIZON_NS);

	/* NULL: the defaults (field by field: the struct has padding) */
	slb = slb_alloc(NULL, 2);
	ck_assert_ptr_nonnull(slb);
	slb_get_config(slb, &got);
	ck_assert_uint_eq(got.grid_ns, cfg.grid_ns);
	ck_assert_uint_eq(got.fine_ns, cfg.fine_ns);
	ck_assert_uint_eq(got.horizon_ns, cfg.horizon_ns);
	ck_assert_uint_eq(got.cap_ns, cfg.cap_ns);
	ck_assert_uint_eq(got.max_live, cfg.max_live);
	slb_free(slb);

	/* the grid and the bins per octave are rounded down to powers of two */
	cfg.grid_ns = 100;
	cfg.fine_ns = 100000;
	slb = slb_alloc(&cfg, 1);
	ck_assert_ptr_nonnull(slb);
	slb_get_config(slb, &got);
	ck_assert_uint_eq(got.grid_ns, 64);
	ck_assert_uint_eq(got.fine_ns, 65536);
	slb_free(slb);

	/* what the engine cannot honour */
	slb_config_default(&cfg);
	cfg.grid_ns = 0;
	errno = 0;
	ck_assert_ptr_null(slb_alloc(&cfg, 1));
	ck_assert_int_eq(errno, EINVAL);
	slb_config_default(&cfg);
	cfg.fine_ns = cfg.grid_ns;
	ck_assert_ptr_null(slb_alloc(&cfg, 1));
	slb_config_default(&cfg);
	cfg.cap_ns = SLB_MAX_NS;
	ck_assert_ptr_null(slb_alloc(&cfg, 1));
	slb_config_default(&cfg);
	cfg.max_live = 1;
	ck_assert_ptr_null(slb_alloc(&cfg, 1));
	ck_assert_ptr_null(slb_alloc(NULL, 0));
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct slb *slb = slb_alloc(NULL, 2);
	struct slb_result res;

	ck_assert_ptr_nonnull(slb);
	ck_assert_int_eq(slb_set_var(slb, 2, SLB_POID, 1), -EINVAL);
	ck_assert_int_eq(slb_set_var(slb, 0, SLB_NR_VARS, 1), -EINVAL);
	ck_assert_int_eq(slb_add_interrupt(slb, -1, 0, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_add_interrupt(slb, 2, 0, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_add_interrupt(slb, 0, SLB_NMI - 1, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_compute_cpu(slb, 2, &res), -EINVAL);
	slb_free(slb);
}
END_TEST

/*
 * No interrupt: every characterization is L_IF = max(D_ST, D_POID) +
 * D_PAIE + D_PSD, dominated by its largest variable
 */
START_TEST(test_no_interrupts)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;
	int m;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 3000, 2000, 7000, 1000);
	/* a variable keeps its largest value */
	ck_assert_int_eq(slb_set_var(slb, 0, SLB_ST, 5000), 0);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert_int_eq(res.cpu, 0);
	ck_assert_uint_eq(res.nr_sources, 0);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res.bound[m];

		ck_assert_int_eq(b->model, m);
		ck_assert(!b->unbounded);
		ck_assert_uint_eq(b->l_if, 10000);
		ck_assert_uint_eq(b->latency, 10000);
		ck_assert_uint_eq(b->irq + b->nmi, 0);
		ck_assert_uint_eq(b->nr_shares, 0);
		ck_assert(!b->dominant.is_source);
		ck_assert_int_eq(b->dominant.id, SLB_ST);
		ck_assert_uint_eq(b->dominant.ns, 7000);
	}
	check_breakdown(&res);
	slb_result_fini(&res);

	/* nothing at all: nothing to wait for */
	slb_free(slb);
	slb = slb_alloc(NULL, 1);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_uint_eq(latency(&res, m), 0);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * L_IF = 6000 + 1500 + 2500 = 10000. IRQ 11 fires in bursts of three,
 * 1024 ns apart, 500 ns each, one burst per ms; IRQ 24 once, 800 ns; one
 * NMI of 300 ns. By hand:
 *
 *   worst_single:  10000 + 800 (the longest IRQ) + 300          = 11100
 *   worst_each:    10000 + 500 + 800 + 300                      = 11600
 *   sporadic:      L = 11100 + ceil(L / 1024) * 500, from 11600:
 *                  17100, 19600, 21100, 21600, 22100, 22100     = 22100
 *   sliding:       a burst is all IRQ 11 does within a window    = 12600
 *   sliding_owcet: three occurrences at 500                      = 12600
 */
static const struct occ bursts[] = {
	{ 11, 0, 500 }, { 11, 1024, 500 }, { 11, 2048, 500 },
	{ 24, 500000, 800 },
	{ 11, 1000000, 500 }, { 11, 1001024, 500 }, { 11, 1002048, 500 },
	{ SLB_NMI, 1500000, 300 },
	{ 11, 2000000, 500 }, { 11, 2001024, 500 }, { 11, 2002048, 500 },
	{ 11, 3000000, 500 }, { 11, 3001024, 500 }, { 11, 3002048, 500 },
	{ 11, 4000000, 500 }, { 11, 4001024, 500 }, { 11, 4002048, 500 },
};

START_TEST(test_characterizations)
{
	static const uint64_t want[SLB_NR_MODELS] = {
		[SLB_NO_INTERRUPTS]		= 10000,
		[SLB_WORST_SINGLE]		= 11100,
		[SLB_WORST_EACH]		= 11600,
		[SLB_SPORADIC]			= 22100,
		[SLB_SLIDING_WINDOW]		= 12600,
		[SLB_SLIDING_WINDOW_OWCET]	= 12600,
	};
	struct slb *slb = slb_alloc(NULL, 2);
	const struct slb_bound *b;
	struct slb_result res;
	int m;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 1, 6000, 2500, 4000, 1500);
	feed(slb, 1, bursts, ARRAY_SIZE(bursts));
	ck_assert_int_eq(slb_compute_cpu(slb, 1, &res), 0);

	for (m = 0; m < SLB_NR_MODELS; m++) {
		b = &res.bound[m];
		ck_assert_msg(!b->unbounded && b->latency == want[m],
			      "%s: %llu, not %llu", slb_model_name(m),
			      (unsigned long long)b->latency, (unsigned long long)want[m]);
		ck_assert_int_eq(b->cpu, 1);
		ck_assert_uint_eq(b->l_if, 10000);
		/* the bound is L_IF and the shares, the NMI's in I_NMI */
		ck_assert_uint_eq(b->latency, b->l_if + b->irq + b->nmi);
		ck_assert_uint_eq(b->nmi, m == SLB_NO_INTERRUPTS ? 0 : 300);
	}
	check_breakdown(&res);

	b = &res.bound[SLB_SLIDING_WINDOW];
	ck_assert_uint_eq(share(b, 11), 1500);
	ck_assert_uint_eq(share(b, 24), 800);
	ck_assert_uint_eq(share(b, SLB_NMI), 300);
	ck_assert(!b->dominant.is_source);
	ck_assert_int_eq(b->dominant.id, SLB_POID);
	ck_assert_uint_eq(b->dominant.ns, 6000);

	/* under sporadic, IRQ 11 is the largest term */
	b = &res.bound[SLB_SPORADIC];
	ck_assert_uint_eq(share(b, 11), 11000);
	ck_assert(b->dominant.is_source);
	ck_assert_int_eq(b->dominant.id, 11);

	/* worst_single takes the longest IRQ only */
	ck_assert_uint_eq(share(&res.bound[SLB_WORST_SINGLE], 11), 0);
	ck_assert_uint_eq(share(&res.bound[SLB_WORST_SINGLE], 24), 800);

	/* what the stream told of each source, the NMI first */
	ck_assert_uint_eq(res.nr_sources, 3);
	ck_assert_int_eq(res.sources[0].source, SLB_NMI);
	ck_assert_int_eq(res.sources[1].source, 11);
	ck_assert_uint_eq(res.sources[1].count, 15);
	ck_assert_uint_eq(res.sources[1].owcet, 500);
	ck_assert_uint_eq(res.sources[1].min_gap, 1024);
	ck_assert_uint_eq(res.sources[1].total, 7500);
	ck_assert_int_eq(res.sources[2].source, 24);
	ck_assert_uint_eq(res.sources[2].min_gap, 0);
	slb_result_fini(&res);

	/* CPU 0 saw nothing of it */
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert_uint_eq(res.nr_sources, 0);
	ck_assert_uint_eq(res.bound[SLB_SPORADIC].latency, 0);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * One periodic IRQ, T = 1000, C = 100, L_IF = 2950: the sporadic fixed
 * point is 2950 + 4 * 100 = 3350 (3050, 3350, 3350), and a window of 3350 ns
 * holds four of the observed occurrences too: on a periodic source the
 * three window characterizations agree.
 */
START_TEST(test_periodic)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;
	int i, m;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 2950, 0, 0, 0);
	for (i = 0; i < 50; i++)
		add(slb, 0, 10, 1000 + 1000 * i, 100);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);

	ck_assert_uint_eq(latency(&res, SLB_NO_INTERRUPTS), 2950);
	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 3050);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 3050);
	for (m = SLB_SPORADIC; m < SLB_NR_MODELS; m++) {
		ck_assert_uint_eq(latency(&res, m), 3350);
		ck_assert_uint_eq(share(&res.bound[m], 10), 400);
	}
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Bursts of three (200, 100 and 100 ns at 0, 1000 and 2000) every 100 us,
 * L_IF = 3000. Sporadic sees C = 200, T = 1000: 3200, 3800, 3800. The
 * sliding window sees at most 400 ns in any window: 3400. With oWCET it
 * counts three occurrences of 200: 3600. Each characterization says less
 * than the one before it.
 */
START_TEST(test_bursts)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;
	int i;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 3000, 0, 0, 0);
	for (i = 0; i < 10; i++) {
		add(slb, 0, 20, 100000 * i, 200);
		add(slb, 0, 20, 100000 * i + 1000, 100);
		add(slb, 0, 20, 100000 * i + 2000, 100);
	}
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);

	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 3200);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 3200);
	ck_assert_uint_eq(latency(&res, SLB_SPORADIC), 3800);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 3400);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), 3600);
	ck_assert_uint_eq(share(&res.bound[SLB_SLIDING_WINDOW], 20), 400);
	ck_assert_uint_eq(share(&res.bound[SLB_SLIDING_WINDOW_OWCET], 20), 600);
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Two IRQs and the NMI, once each: a single occurrence has no inter-arrival
 * time, and every characterization but worst_single counts it once in any
 * window; worst_single takes the longer IRQ and the NMI. The NMI is listed
 * first, and here it is the largest term.
 */
START_TEST(test_single_occurrences)
{
	static const struct occ once[] = {
		{ 5, 10000, 300 }, { 7, 20000, 500 }, { SLB_NMI, 30000, 700 },
	};
	struct slb *slb = slb_alloc(NULL, 1);
	const struct slb_bound *b;
	struct slb_result res;
	int m;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 400, 300, 200, 300);
	feed(slb, 0, once, ARRAY_SIZE(once));
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);

	b = &res.bound[SLB_WORST_SINGLE];
	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 1000 + 500 + 700);
	ck_assert_uint_eq(share(b, 5), 0);
	ck_assert_uint_eq(b->irq, 500);
	ck_assert_uint_eq(b->nmi, 700);
	for (m = SLB_WORST_EACH; m < SLB_NR_MODELS; m++) {
		b = &res.bound[m];
		ck_assert_uint_eq(latency(&res, m), 2500);
		ck_assert_uint_eq(share(b, 5), 300);
		ck_assert_uint_eq(share(b, 7), 500);
		ck_assert_uint_eq(share(b, SLB_NMI), 700);
		ck_assert_int_eq(b->shares[0].source, SLB_NMI);
		ck_assert(b->dominant.is_source);
		ck_assert_int_eq(b->dominant.id, SLB_NMI);
	}
	ck_assert_uint_eq(res.sources[0].min_gap, 0);
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Sporadic has no bound when the interrupts would take the whole CPU: one
 * source alone (its oWCET at least its minimum inter-arrival), or all
 * together; the interference at the cap shows the IRQs run away. The
 * sliding windows are still bounded by what was observed.
 */
START_TEST(test_overload)
{
	static const struct occ alone[] = {
		{ 3, 0, 1200 }, { 3, 1000, 1200 }, { 3, 2000, 1200 },
	};
	static const struct occ together[] = {
		{ 3, 0, 600 }, { 4, 500, 500 }, { 3, 1000, 600 }, { 4, 1500, 500 },
	};
	struct slb *slb = slb_alloc(NULL, 2);
	struct slb_result res;
	const struct slb_bound *b;
	int cpu;

	ck_assert_ptr_nonnull(slb);
	feed(slb, 0, alone, 3);
	feed(slb, 1, together, 4);
	for (cpu = 0; cpu < 2; cpu++) {
		set_vars(slb, cpu, 5000, 0, 0, 0);
		ck_assert_int_eq(slb_compute_cpu(slb, cpu, &res), 0);
		b = &res.bound[SLB_SPORADIC];
		ck_assert(b->unbounded);
		ck_assert_int_eq(b->why, SLB_OVERLOAD);
		ck_assert_uint_eq(b->latency, 0);
		ck_assert(b->dominant.is_source);
		ck_assert_int_eq(b->dominant.id, 3);
		b = &res.bound[SLB_SLIDING_WINDOW];
		ck_assert(!b->unbounded);
		ck_assert_uint_eq(b->latency, cpu ? 5000 + 2200 : 5000 + 3600);
		ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), b->latency);
		slb_result_fini(&res);
	}
	slb_free(slb);
}
END_TEST

/*
 * Above the cap: no bound, and the shares are taken at the cap, which
 * shows what runs away. With a utilization of 0.9 the sporadic bound is
 * near L_IF / 0.1 = 100 us, above a 50 us cap.
 */
START_TEST(test_over_cap)
{
	struct slb_config cfg;
	struct slb_result res;
	const struct slb_bound *b;
	struct slb *slb;
	int i;

	slb_config_default(&cfg);
	cfg.cap_ns = 50000;
	slb = slb_alloc(&cfg, 1);
	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 10000, 0, 0, 0);
	for (i = 0; i < 10; i++)
		add(slb, 0, 7, i * 1000ULL, 900);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);

	b = &res.bound[SLB_SPORADIC];
	ck_assert(b->unbounded);
	ck_assert_int_eq(b->why, SLB_OVER_CAP);
	ck_assert_uint_eq(share(b, 7), 50 * 900);
	ck_assert(b->dominant.is_source);

	/* ten occurrences are all there is: 10000 + 9000 */
	b = &res.bound[SLB_SLIDING_WINDOW];
	ck_assert(!b->unbounded);
	ck_assert_uint_eq(b->latency, 19000);
	slb_result_fini(&res);

	/* the blocking alone above the cap */
	ck_assert_int_eq(slb_set_var(slb, 0, SLB_POID, 60000), 0);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert(res.bound[SLB_NO_INTERRUPTS].unbounded);
	ck_assert_int_eq(res.bound[SLB_NO_INTERRUPTS].why, SLB_OVER_CAP);
	ck_assert_str_eq(slb_why_name(res.bound[SLB_NO_INTERRUPTS].why), "over_cap");
	slb_result_fini(&res);
	slb_free(slb);

	/*
	 * U = 0.999999 and L_IF = 5 us: the fixed point would be near
	 * L_IF / (1 - U) = 5 s. The iteration climbs about 1 ms a step and
	 * gives up at the default 1 s cap after about a thousand steps.
	 */
	slb = slb_alloc(NULL, 1);
	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 5000, 0, 0, 0);
	for (i = 0; i < 3; i++)
		add(slb, 0, 4, 1000000ULL * i, 999999);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVER_CAP);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 5000 + 3 * 999999);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Windows are half-open: two occurrences 1000 ns apart fit in a window of
 * 1001 ns, not of 1000. With a 1 ns grid, L_IF = 900 stops at L = 1000
 * with one of them; L_IF = 901 starts at 1001, sees both: 1101.
 */
START_TEST(test_window_edges)
{
	static const struct occ two[] = { { 9, 0, 100 }, { 9, 1000, 100 } };
	struct slb_config cfg;
	struct slb_result res;
	struct slb *slb;
	int m;

	slb_config_default(&cfg);
	cfg.grid_ns = 1;
	cfg.horizon_ns = 4096;
	cfg.fine_ns = 2 * cfg.horizon_ns;
	slb = slb_alloc(&cfg, 2);
	ck_assert_ptr_nonnull(slb);
	feed(slb, 0, two, 2);
	feed(slb, 1, two, 2);
	set_vars(slb, 0, 900, 0, 0, 0);
	set_vars(slb, 1, 901, 0, 0, 0);
	for (m = SLB_SPORADIC; m < SLB_NR_MODELS; m++) {
		ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
		ck_assert_uint_eq(res.bound[m].latency, 1000);
		slb_result_fini(&res);
		ck_assert_int_eq(slb_compute_cpu(slb, 1, &res), 0);
		ck_assert_uint_eq(res.bound[m].latency, 1101);
		slb_result_fini(&res);
	}
	slb_free(slb);
}
END_TEST

/*
 * A record that starts before the previous one of its source is taken at
 * the previous one's start: two at the same time, so no minimum
 * inter-arrival (sporadic has no bound), and both in any window.
 */
START_TEST(test_out_of_order)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;

	ck_assert_ptr_nonnull(slb);
	add(slb, 0, 9, 5000, 10);
	add(slb, 0, 9, 4000, 10);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert_uint_eq(res.sources[0].count, 2);
	ck_assert_uint_eq(res.sources[0].min_gap, 0);
	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVERLOAD);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 20);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/* many sources on one CPU outgrow the first lookup table, none is lost */
START_TEST(test_many_sources)
{
	struct slb *slb = slb_alloc(NULL, 2);
	struct slb_result res;
	int i;

	ck_assert_ptr_nonnull(slb);
	for (i = 0; i < 300; i++)
		add(slb, 1, i * 7, 1000 * i, 1);
	/* each source again, so the one-entry cache misses every time */
	for (i = 0; i < 300; i++)
		add(slb, 1, i * 7, 1000000 + 1000 * i, 2);
	ck_assert_int_eq(slb_compute_cpu(slb, 1, &res), 0);
	ck_assert_uint_eq(res.nr_sources, 300);
	ck_assert_uint_eq(res.sources[299].count, 2);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 600);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

START_TEST(test_worse)
{
	struct slb_bound a = { .latency = 2000 }, b = { .latency = 1000 };
	struct slb_bound u = { .unbounded = true };

	ck_assert(slb_bound_worse(&a, &b));
	ck_assert(!slb_bound_worse(&b, &a));
	ck_assert(!slb_bound_worse(&a, &a));
	ck_assert(slb_bound_worse(&u, &a));
	ck_assert(!slb_bound_worse(&a, &u));
	ck_assert(!slb_bound_worse(&u, &u));
}
END_TEST

/*
 * The system's bound is its worst CPU's, characterization by
 * characterization: CPU 0 blocks longest, CPU 1 has a dense burst (no
 * sporadic bound: unbounded is worse than any bound), CPU 2 one long NMI.
 */
START_TEST(test_system)
{
	struct slb *slb = slb_alloc(NULL, 3);
	struct slb_result res[3];
	int worst[SLB_NR_MODELS];
	int c, i;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 9000, 0, 0, 0);
	set_vars(slb, 1, 1000, 0, 0, 0);
	for (i = 0; i < 100; i++)
		add(slb, 1, 11, 200 * i, 250);
	set_vars(slb, 2, 100, 0, 0, 0);
	add(slb, 2, SLB_NMI, 0, 20000);

	compute_all(slb, 3, res, worst);
	ck_assert_int_eq(worst[SLB_NO_INTERRUPTS], 0);
	ck_assert_uint_eq(latency(&res[0], SLB_NO_INTERRUPTS), 9000);
	ck_assert_int_eq(worst[SLB_WORST_EACH], 2);
	ck_assert_uint_eq(latency(&res[2], SLB_WORST_EACH), 20100);
	ck_assert_int_eq(worst[SLB_SPORADIC], 1);
	ck_assert(res[1].bound[SLB_SPORADIC].unbounded);
	ck_assert_uint_eq(latency(&res[2], SLB_SPORADIC), 20100);
	ck_assert_int_eq(worst[SLB_SLIDING_WINDOW], 1);
	ck_assert_uint_eq(latency(&res[1], SLB_SLIDING_WINDOW), 1000 + 100 * 250);
	ck_assert_uint_eq(res[1].bound[SLB_SLIDING_WINDOW].nr_shares, 1);
	ck_assert_int_eq(res[1].bound[SLB_SLIDING_WINDOW].shares[0].source, 11);
	for (c = 0; c < 3; c++) {
		check_breakdown(&res[c]);
		slb_result_fini(&res[c]);
	}
	slb_free(slb);
}
END_TEST

START_TEST(test_names)
{
	static const char * const keys[SLB_NR_MODELS] = {
		"no_interrupts", "worst_single", "worst_each", "sporadic",
		"sliding_window", "sliding_window_owcet",
	};
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_str_eq(slb_model_name(m), keys[m]);
	ck_assert_str_eq(slb_model_name(SLB_NR_MODELS), "unknown");
	ck_assert_str_eq(slb_why_name(SLB_OVERLOAD), "overload");
}
END_TEST

/* feed_pattern - the @i-th record of one of two streams that differ */
static void feed_pattern(struct slb *slb, int which, int i)
{
	if (which)
		add(slb, 0, 7, 3000ULL * i + (i % 3) * 500, 100 + i % 50);
	else
		add(slb, 0, SLB_NMI, 7000ULL * i, 900 + (i % 7) * 10);
}

/* same_result - two results are the same, bound by bound and share by share */
static void same_result(const struct slb_result *a, const struct slb_result *b)
{
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *x = &a->bound[m], *y = &b->bound[m];
		unsigned int i;

		ck_assert_int_eq(x->unbounded, y->unbounded);
		ck_assert_uint_eq(x->latency, y->latency);
		ck_assert_uint_eq(x->nr_shares, y->nr_shares);
		for (i = 0; i < x->nr_shares; i++) {
			ck_assert_int_eq(x->shares[i].source, y->shares[i].source);
			ck_assert_uint_eq(x->shares[i].ns, y->shares[i].ns);
		}
	}
}

/* two analyses fed in turn give what each gives alone: they share nothing */
START_TEST(test_side_by_side)
{
	struct slb *slb[4];
	struct slb_result res[4];
	int i, k;

	for (k = 0; k < 4; k++) {
		slb[k] = slb_alloc(NULL, 1);
		ck_assert_ptr_nonnull(slb[k]);
		/* 0 and 2 see stream 0, 1 and 3 stream 1 */
		set_vars(slb[k], 0, k % 2 ? 5000 : 100, 0, 0, 0);
	}
	for (i = 0; i < 2000; i++) {
		feed_pattern(slb[0], 0, i);
		feed_pattern(slb[1], 1, i);
	}
	for (i = 0; i < 2000; i++)
		feed_pattern(slb[2], 0, i);
	for (i = 0; i < 2000; i++)
		feed_pattern(slb[3], 1, i);

	for (k = 0; k < 4; k++)
		ck_assert_int_eq(slb_compute_cpu(slb[k], 0, &res[k]), 0);
	same_result(&res[0], &res[2]);
	same_result(&res[1], &res[3]);
	ck_assert_uint_ne(latency(&res[0], SLB_SLIDING_WINDOW),
			  latency(&res[1], SLB_SLIDING_WINDOW));
	for (k = 0; k < 4; k++) {
		slb_result_fini(&res[k]);
		slb_free(slb[k]);
	}
}
END_TEST

/*
 * round_window - the window length the engine's curves use for a window of
 * @t ns, as sched-latency-bound.rst describes the grid: the end of the bin
 * that holds the spread t - 1. Bins are grid_ns wide up to fine_ns; beyond,
 * each octave [2^e, 2^(e+1)) of the spread is cut in S = fine_ns /
 * (2 * grid_ns) bins. @cfg is the engine's, after rounding.
 */
static uint64_t round_window(const struct slb_config *cfg, uint64_t t)
{
	uint64_t d, width = cfg->grid_ns, octave = 1;

	if (!t)
		return 0;
	d = t - 1;
	if (d >= cfg->fine_ns) {
		while (octave <= d / 2)
			octave *= 2;
		width = octave / (cfg->fine_ns / (2 * cfg->grid_ns));
	}
	return (d / width + 1) * width;
}

/* the model of the rounding: up, by less than one step of the grid */
START_TEST(test_round_window)
{
	struct slb_config cfg;
	uint64_t t, r, step;
	struct slb *slb;

	slb_config_default(&cfg);
	cfg.grid_ns = 16;
	cfg.fine_ns = 1024;
	cfg.horizon_ns = 1000000;
	slb = slb_alloc(&cfg, 1);
	ck_assert_ptr_nonnull(slb);
	slb_get_config(slb, &cfg);
	for (t = 1; t < 1000000; t += 1 + t / 64) {
		r = round_window(&cfg, t);
		/* 16 ns up to 1024 ns, then 1/32 of the window */
		step = t <= 1024 ? 16 : (t + 31) / 32;
		ck_assert_msg(r >= t && r - t < step, "t %llu r %llu",
			      (unsigned long long)t, (unsigned long long)r);
		/* the end of a bin is its own rounding */
		ck_assert_uint_eq(round_window(&cfg, r), r);
	}
	slb_free(slb);
}
END_TEST

/*
 * The brute force: every characterization from its definition, over
 * every window of the streams of up to three CPUs.
 */

#define BF_SEEDS	300
#define BF_MAX_CPUS	3
#define BF_MAX_SRC	5
#define BF_MAX_IDS	32	/* the NMI and IRQs 0 to 30 */
#define BF_MAX_OCC	64
#define BF_SPAN		60000	/* every random occurrence starts before this */
#define BF_HORIZON	65536	/* longer than any random source lasts */

struct bf_source {
	int		id;
	int		n;
	uint64_t	start[BF_MAX_OCC];
	uint64_t	exec[BF_MAX_OCC];
	uint64_t	owcet;
	uint64_t	min_gap;
	uint64_t	total;
};

struct bf_cpu {
	struct bf_source	src[BF_MAX_SRC];
	int			nr;
	uint64_t		var[SLB_NR_VARS];
	uint64_t		lif;
	int			single;		/* the longest IRQ, or -1 */
};

struct bf {
	struct bf_cpu		cpu[BF_MAX_CPUS];
	int			nr_cpus;
};

/*
 * bf_window - the most execution time (@count: occurrences) in a window of
 * @t: a window can always slide right to start at an occurrence
 */
static uint64_t bf_window(const struct bf_source *s, uint64_t t, bool count)
{
	uint64_t best = 0, sum;
	int i, j;

	for (i = 0; i < s->n; i++) {
		sum = 0;
		for (j = i; j < s->n && s->start[j] - s->start[i] < t; j++)
			sum += count ? 1 : s->exec[j];
		if (sum > best)
			best = sum;
	}
	return best;
}

/* bf_mul - a * b, saturated as the engine saturates */
static uint64_t bf_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* bf_sporadic - occurrences of a sporadic source in a window of t */
static uint64_t bf_sporadic(const struct bf_source *s, uint64_t t)
{
	if (s->n == 1)
		return 1;
	if (!s->min_gap)
		return UINT64_MAX;
	return (t + s->min_gap - 1) / s->min_gap;
}

/* min3 - the least of three */
static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * bf_interference - I_s(t) of source i under @model; with @round, the
 * sliding windows' curves are read at the window stretched as the engine's
 * grid stretches it
 */
static uint64_t bf_interference(const struct bf_cpu *bf, int i, int model, uint64_t t,
				const struct slb_config *round)
{
	const struct bf_source *s = &bf->src[i];
	uint64_t w = round ? round_window(round, t) : t;

	switch (model) {
	case SLB_WORST_SINGLE:
		return i == bf->single || s->id == SLB_NMI ? s->owcet : 0;
	case SLB_WORST_EACH:
		return s->owcet;
	case SLB_SPORADIC:
		return bf_mul(bf_sporadic(s, t), s->owcet);
	case SLB_SLIDING_WINDOW:
		return min3(bf_window(s, w, false), bf_mul(bf_sporadic(s, t), s->owcet),
			    s->total);
	case SLB_SLIDING_WINDOW_OWCET:
		return bf_mul(s->owcet, min3(bf_window(s, w, true), bf_sporadic(s, t), s->n));
	}
	return 0;
}

/* bf_overloaded - sporadic: the interrupts take the whole CPU */
static bool bf_overloaded(const struct bf_cpu *bf)
{
	double u = 0;
	int i;

	for (i = 0; i < bf->nr; i++) {
		const struct bf_source *s = &bf->src[i];

		if (s->n < 2 || !s->owcet)
			continue;
		if (s->owcet >= s->min_gap)
			return true;
		u += (double)s->owcet / (double)s->min_gap;
	}
	return bf->lif && u >= 1.0;
}

/* bf_solve - the least L = L_IF + I(L); false when above @cap or overloaded */
static bool bf_solve(const struct bf_cpu *bf, int model, uint64_t cap,
		     const struct slb_config *round, uint64_t *latency)
{
	uint64_t l = bf->lif, next;
	int i;

	if (model == SLB_SPORADIC && bf_overloaded(bf))
		return false;
	for (i = 0; i < bf->nr; i++)
		l = sat_add(l, bf_interference(bf, i, model, 1, round));
	for (;;) {
		if (l > cap)
			return false;
		if (!l)
			break;
		next = bf->lif;
		for (i = 0; i < bf->nr; i++)
			next = sat_add(next, bf_interference(bf, i, model, l, round));
		if (next == l)
			break;
		l = next;
	}
	*latency = l;
	return true;
}

static uint64_t rnd_state;

/* rnd - a value in [0, n), from a small deterministic generator (splitmix64) */
static uint64_t rnd(uint64_t n)
{
	uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) % n;
}

/*
 * bf_source_gen - a random source @id in start-time order: periodic
 * (released up to a quarter period late), in bursts of up to six a few
 * hundred ns apart, with gaps of anything up to 3 us, or dense (gaps of up
 * to 2 us, one in four of up to 100 ns); one occurrence in 64 comes twice
 * at the same time. Executions of up to 200 ns, 800 ns or 4 us.
 */
static void bf_source_gen(struct bf_source *s, int id)
{
	static const uint64_t longest[] = { 200, 800, 800, 4000 };
	uint64_t t = rnd(5000), period = 200 + rnd(4000), most = longest[rnd(4)];
	int kind = rnd(4), want = 1 + rnd(BF_MAX_OCC), burst = 0;

	memset(s, 0, sizeof(*s));
	s->id = id;
	for (s->n = 0; s->n < want && t < BF_SPAN; s->n++) {
		s->start[s->n] = t;
		s->exec[s->n] = 1 + rnd(most);
		switch (kind) {
		case 0:
			t = (t / period + 1) * period + rnd(period / 4);
			break;
		case 1:
			if (burst-- > 0) {
				t += 20 + rnd(400);
			} else {
				burst = rnd(6);
				t += 2000 + rnd(15000);
			}
			break;
		case 2:
			t += rnd(3000);
			break;
		default:
			t += 1 + rnd(rnd(4) ? 2000 : 100);
			break;
		}
		/* one in 64 happens twice at once */
		if (!rnd(64))
			t = s->start[s->n];
	}
}

/* bf_stats - what the definitions need of each source, and L_IF */
static void bf_stats(struct bf_cpu *bf)
{
	uint64_t *var = bf->var;
	int i, k;

	for (k = 0; k < bf->nr; k++) {
		struct bf_source *s = &bf->src[k];

		s->min_gap = UINT64_MAX;
		for (i = 0; i < s->n; i++) {
			if (i && s->start[i] - s->start[i - 1] < s->min_gap)
				s->min_gap = s->start[i] - s->start[i - 1];
			if (s->exec[i] > s->owcet)
				s->owcet = s->exec[i];
			s->total += s->exec[i];
		}
	}
	bf->lif = (var[SLB_ST] > var[SLB_POID] ? var[SLB_ST] : var[SLB_POID]) +
		  var[SLB_PAIE] + var[SLB_PSD];

	/* worst_single: the longest IRQ, the lowest id on ties */
	bf->single = -1;
	for (k = 0; k < bf->nr; k++) {
		const struct bf_source *s = &bf->src[k];

		if (s->id == SLB_NMI)
			continue;
		if (bf->single < 0 || s->owcet > bf->src[bf->single].owcet ||
		    (s->owcet == bf->src[bf->single].owcet && s->id < bf->src[bf->single].id))
			bf->single = k;
	}
}

/*
 * bf_gen - random CPUs, each with up to five sources of distinct ids (the
 * NMI among them, sometimes) and thread variables of up to 5 or 20 us
 */
static void bf_gen(struct bf *bf, int seed)
{
	int c, i, k;

	rnd_state = seed;
	memset(bf, 0, sizeof(*bf));
	bf->nr_cpus = 1 + rnd(BF_MAX_CPUS);
	for (c = 0; c < bf->nr_cpus; c++) {
		struct bf_cpu *cpu = &bf->cpu[c];
		bool used[BF_MAX_IDS] = { false };
		uint64_t most = rnd(2) ? 5000 : 20000;

		for (k = 0; k < SLB_NR_VARS; k++)
			cpu->var[k] = rnd(4) ? rnd(most) : 0;
		cpu->nr = rnd(BF_MAX_SRC + 1);
		for (i = 0; i < cpu->nr; i++) {
			do {
				k = rnd(BF_MAX_IDS);
			} while (used[k]);
			used[k] = true;
			bf_source_gen(&cpu->src[i], k - 1);
		}
		bf_stats(cpu);
	}
}

/* one record of bf_feed(): a source's occurrence, and its place in the stream */
struct bf_rec {
	struct occ	occ;
	int		order;
};

/* bf_by_start - the records of a CPU in time order, each source's in its own */
static int bf_by_start(const void *a, const void *b)
{
	const struct bf_rec *x = a, *y = b;

	if (x->occ.start != y->occ.start)
		return x->occ.start < y->occ.start ? -1 : 1;
	return x->order - y->order;
}

/*
 * bf_feed - the variables and records of every CPU: each CPU's in time
 * order, the CPUs interleaved at random (the engine needs only per-CPU order).
 * With @read, after about one record in @read, a random CPU's result is
 * computed and dropped, as rtla's top does between records.
 */
static void bf_feed(struct slb *slb, const struct bf *bf, int read)
{
	struct slb_result res;
	static struct bf_rec recs[BF_MAX_CPUS][BF_MAX_SRC * BF_MAX_OCC];
	int nr[BF_MAX_CPUS] = { 0 }, pos[BF_MAX_CPUS] = { 0 };
	int c, i, k, left = 0;

	for (c = 0; c < bf->nr_cpus; c++) {
		const struct bf_cpu *cpu = &bf->cpu[c];

		for (k = 0; k < SLB_NR_VARS; k++)
			ck_assert_int_eq(slb_set_var(slb, c, k, cpu->var[k]), 0);
		for (i = 0; i < cpu->nr; i++) {
			for (k = 0; k < cpu->src[i].n; k++) {
				struct bf_rec *r = &recs[c][nr[c]];

				r->occ.source = cpu->src[i].id;
				r->occ.start = cpu->src[i].start[k];
				r->occ.exec = cpu->src[i].exec[k];
				r->order = nr[c]++;
			}
		}
		qsort(recs[c], nr[c], sizeof(recs[c][0]), bf_by_start);
		left += nr[c];
	}

	while (left) {
		c = rnd(bf->nr_cpus);
		if (pos[c] == nr[c])
			continue;
		feed(slb, c, &recs[c][pos[c]++].occ, 1);
		left--;
		if (read && !rnd(read)) {
			ck_assert_int_eq(slb_compute_cpu(slb, rnd(bf->nr_cpus), &res), 0);
			slb_result_fini(&res);
		}
	}
}

/* how closely the engine must follow the brute force */
enum bf_mode {
	BF_EXACT,	/* equal, share by share */
	BF_TIGHT,	/* between the exact windows and the rounded ones */
	BF_SOUND,	/* never below the exact windows */
};

/*
 * bf_check - the engine's result of one CPU under each characterization
 * against the brute force: the sliding windows are the only ones the grid
 * and the horizon touch, the others are always exact
 */
static void bf_check(const struct bf_cpu *bf, const struct slb_result *res,
		     const struct slb_config *cfg, enum bf_mode mode, int seed)
{
	uint64_t want, hi;
	int m, k;

	ck_assert_uint_eq(res->nr_sources, bf->nr);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res->bound[m];
		bool grid = m == SLB_SLIDING_WINDOW || m == SLB_SLIDING_WINDOW_OWCET;

		ck_assert_uint_eq(b->l_if, bf->lif);
		if (!bf_solve(bf, m, cfg->cap_ns, NULL, &want)) {
			/* a rounded window never makes a bound vanish but above the cap */
			ck_assert_msg(b->unbounded, "seed %d cpu %d, %s: bounded at %llu",
				      seed, res->cpu, slb_model_name(m),
				      (unsigned long long)b->latency);
			continue;
		}
		if (mode == BF_EXACT || !grid) {
			ck_assert_msg(!b->unbounded && b->latency == want,
				      "seed %d cpu %d, %s: %llu%s, not %llu", seed, res->cpu,
				      slb_model_name(m), (unsigned long long)b->latency,
				      b->unbounded ? " (unbounded)" : "",
				      (unsigned long long)want);
			for (k = 0; k < bf->nr; k++)
				ck_assert_uint_eq(share(b, bf->src[k].id),
						  bf_interference(bf, k, m, want ? want : 1, NULL));
			continue;
		}
		/* a coarser grid rounds windows up: never below the exact bound */
		ck_assert_msg(b->unbounded || b->latency >= want,
			      "seed %d cpu %d, %s: %llu below the exact %llu", seed, res->cpu,
			      slb_model_name(m), (unsigned long long)b->latency,
			      (unsigned long long)want);
		/* and by no more than the grid: never above the rounded windows' */
		if (mode == BF_TIGHT && bf_solve(bf, m, cfg->cap_ns, cfg, &hi))
			ck_assert_msg(!b->unbounded && b->latency <= hi,
				      "seed %d cpu %d, %s: %llu%s above the rounded %llu",
				      seed, res->cpu, slb_model_name(m),
				      (unsigned long long)b->latency,
				      b->unbounded ? " (unbounded)" : "",
				      (unsigned long long)hi);
	}
}

/*
 * check_order - the characterizations are in increasing order of
 * pessimism, sliding_window below sporadic too, and none below L_IF
 */
static void check_order(const struct slb_result *res, int seed)
{
	const struct slb_bound *b = res->bound;
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_msg(value(&b[m]) >= b[m].l_if, "seed %d cpu %d: %s below L_IF",
			      seed, res->cpu, slb_model_name(m));
	for (m = SLB_WORST_SINGLE; m <= SLB_WORST_EACH; m++)
		ck_assert_msg(value(&b[m - 1]) <= value(&b[m]), "seed %d cpu %d: %s above %s",
			      seed, res->cpu, slb_model_name(m - 1), slb_model_name(m));
	ck_assert_msg(value(&b[SLB_WORST_EACH]) <= value(&b[SLB_SLIDING_WINDOW]) &&
		      value(&b[SLB_SLIDING_WINDOW]) <= value(&b[SLB_SLIDING_WINDOW_OWCET]) &&
		      value(&b[SLB_SLIDING_WINDOW]) <= value(&b[SLB_SPORADIC]),
		      "seed %d cpu %d: the sliding windows out of order", seed, res->cpu);
}

/*
 * check_worse - slb_bound_worse() orders two bounds as their values:
 * unbounded above any number, and never both ways
 */
static void check_worse(const struct slb_bound *a, const struct slb_bound *b, int seed)
{
	bool ab = slb_bound_worse(a, b), ba = slb_bound_worse(b, a);

	ck_assert_msg(!(ab && ba), "seed %d: worse both ways", seed);
	if (value(a) > value(b))
		ck_assert_msg(ab, "seed %d: %llu not worse than %llu", seed,
			      (unsigned long long)value(a), (unsigned long long)value(b));
	if (ab)
		ck_assert_msg(value(a) >= value(b), "seed %d: %llu worse than %llu", seed,
			      (unsigned long long)value(a), (unsigned long long)value(b));
}

/*
 * check_random - every random input through the engine configured as @cfg:
 * each CPU against the brute force, its breakdown and its order, and the
 * system's bound the worst of them
 */
static void check_random(const struct slb_config *cfg, enum bf_mode mode)
{
	static struct bf bf;
	struct slb_result res[BF_MAX_CPUS];
	int worst[SLB_NR_MODELS];
	struct slb_config got;
	int seed, c, d, m;
	struct slb *slb;

	for (seed = 1; seed <= BF_SEEDS; seed++) {
		bf_gen(&bf, seed);
		slb = slb_alloc(cfg, bf.nr_cpus);
		ck_assert_ptr_nonnull(slb);
		slb_get_config(slb, &got);
		bf_feed(slb, &bf, 0);
		compute_all(slb, bf.nr_cpus, res, worst);

		for (c = 0; c < bf.nr_cpus; c++) {
			bf_check(&bf.cpu[c], &res[c], &got, mode, seed);
			check_breakdown(&res[c]);
			check_order(&res[c], seed);
			for (m = 0; m < SLB_NR_MODELS; m++) {
				ck_assert_uint_ge(value(&res[worst[m]].bound[m]),
						  value(&res[c].bound[m]));
				for (d = 0; d < bf.nr_cpus; d++)
					check_worse(&res[c].bound[m], &res[d].bound[m], seed);
			}
		}
		for (c = 0; c < bf.nr_cpus; c++)
			slb_result_fini(&res[c]);
		slb_free(slb);
	}
}

/*
 * With a 1 ns grid and every occurrence inside the horizon, the observed
 * curves are exact: the engine's bounds are the brute force's.
 */
START_TEST(test_random_exact)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	cfg.grid_ns = 1;
	cfg.horizon_ns = BF_HORIZON;
	cfg.fine_ns = 2 * BF_HORIZON;
	cfg.max_live = BF_MAX_OCC;
	check_random(&cfg, BF_EXACT);
}
END_TEST

/*
 * A coarse grid, 16 ns up to 1 us and 1/32 of the window beyond, rounds
 * the windows up: the bound lies between the exact windows' and the
 * rounded ones'.
 */
START_TEST(test_random_rounded)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	cfg.grid_ns = 16;
	cfg.fine_ns = 1024;
	cfg.horizon_ns = BF_HORIZON;
	cfg.max_live = BF_MAX_OCC;
	check_random(&cfg, BF_TIGHT);
}
END_TEST

/* the defaults, as rtla runs the engine */
START_TEST(test_random_defaults)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	check_random(&cfg, BF_TIGHT);
}
END_TEST

/*
 * A 3 us horizon and four live occurrences a source, on the default grid
 * and on one coarse beyond 512 ns: longer windows only through the
 * extension, never below the exact bound.
 */
START_TEST(test_random_short_horizon)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	cfg.horizon_ns = 3000;
	cfg.max_live = 4;
	check_random(&cfg, BF_SOUND);
	cfg.fine_ns = 512;
	check_random(&cfg, BF_SOUND);
}
END_TEST

/*
 * Results may be computed while records keep coming (rtla's top does so at
 * every refresh): the results read in between must not change the last one.
 * The engine keeps the curves' prefix maxima from one read to the next, and
 * a record below them must make them stale.
 */
static void check_read_between(const struct slb_config *cfg)
{
	static struct bf bf;
	struct slb_result once, read;
	struct slb *a, *b;
	int seed, c;

	for (seed = 1; seed <= BF_SEEDS; seed++) {
		bf_gen(&bf, seed);
		a = slb_alloc(cfg, bf.nr_cpus);
		b = slb_alloc(cfg, bf.nr_cpus);
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		bf_feed(a, &bf, 0);
		bf_feed(b, &bf, 4);
		for (c = 0; c < bf.nr_cpus; c++) {
			ck_assert_int_eq(slb_compute_cpu(a, c, &once), 0);
			ck_assert_int_eq(slb_compute_cpu(b, c, &read), 0);
			same_result(&once, &read);
			slb_result_fini(&once);
			slb_result_fini(&read);
		}
		slb_free(a);
		slb_free(b);
	}
}

START_TEST(test_random_read_between)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	check_read_between(&cfg);
	cfg.grid_ns = 1;
	cfg.horizon_ns = BF_HORIZON;
	cfg.fine_ns = 2 * BF_HORIZON;
	cfg.max_live = BF_MAX_OCC;
	check_read_between(&cfg);
}
END_TEST

Suite *sched_latency_bound_suite(void)
{
	Suite *s = suite_create("sched_latency_bound");
	TCase *tc;

	tc = tcase_create("cases");
	tcase_add_test(tc, test_config);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_no_interrupts);
	tcase_add_test(tc, test_characterizations);
	tcase_add_test(tc, test_periodic);
	tcase_add_test(tc, test_bursts);
	tcase_add_test(tc, test_single_occurrences);
	tcase_add_test(tc, test_overload);
	tcase_add_test(tc, test_over_cap);
	tcase_add_test(tc, test_window_edges);
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_many_sources);
	tcase_add_test(tc, test_worse);
	tcase_add_test(tc, test_system);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_side_by_side);
	tcase_add_test(tc, test_round_window);
	suite_add_tcase(s, tc);

	tc = tcase_create("brute_force");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_exact);
	tcase_add_test(tc, test_random_rounded);
	tcase_add_test(tc, test_random_defaults);
	tcase_add_test(tc, test_random_short_horizon);
	tcase_add_test(tc, test_random_read_between);
	suite_add_tcase(s, tc);

	return s;
}
