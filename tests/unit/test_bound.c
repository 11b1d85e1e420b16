// SPDX-License-Identifier: GPL-2.0
/*
 * test_bound: unit tests of the sched-latency bound engine (libcheck).
 *
 * Hand-computed cases for each interrupt characterization, then properties
 * on random inputs checked against a brute-force computation written here
 * from the definitions, over every window, without any streaming. rtla's
 * own unit tests (tools/tracing/rtla/tests/unit/sched_latency_bound.c)
 * check soundness the same way; these also check tightness: with a coarse
 * grid, no bound above the brute force over windows rounded up as
 * Documentation/tools/rtla/sched-latency-bound.rst says the grid rounds
 * them (round_window()), and the system rule, slb_bound_worse(), against
 * the numbers it orders.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_bound.h"

#define NR_RANDOM	300
#define MAX_OCC		64
#define MAX_SRC		5
#define MAX_CPUS	3
#define SPAN		60000	/* random inputs start before this */
#define EXACT_HORIZON	65536	/* longer than any random source lasts */

/* new_slb - an analysis with the given grid, fine part, horizon and cap */
static struct slb *new_slb(uint64_t grid, uint64_t fine, uint64_t horizon,
			   uint64_t cap, unsigned int max_live, int cpus)
{
	struct slb_config cfg = {
		.grid_ns = grid,
		.fine_ns = fine,
		.horizon_ns = horizon,
		.cap_ns = cap,
		.max_live = max_live,
	};
	struct slb *slb = slb_alloc(&cfg, cpus);

	ck_assert_ptr_nonnull(slb);
	return slb;
}

/* set_vars - the four observed thread maxima of a CPU */
static void set_vars(struct slb *slb, int cpu, uint64_t poid, uint64_t psd,
		     uint64_t st, uint64_t paie)
{
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_POID, poid), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_PSD, psd), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_ST, st), 0);
	ck_assert_int_eq(slb_set_var(slb, cpu, SLB_PAIE, paie), 0);
}

/* add - one interrupt record, which must be accepted */
static void add(struct slb *slb, int cpu, int source, uint64_t start,
		uint64_t exec)
{
	ck_assert_int_eq(slb_add_interrupt(slb, cpu, source, start, exec), 0);
}

/* compute - the result of a CPU, which must succeed */
static void compute(struct slb *slb, int cpu, struct slb_result *res)
{
	ck_assert_int_eq(slb_compute_cpu(slb, cpu, res), 0);
}

/*
 * compute_all - the result of every CPU, and for each characterization the
 * CPU of the system's bound: the first one no other CPU has a worse bound
 * than (slb_bound_worse()), as rtla picks it
 */
static void compute_all(struct slb *slb, int nr_cpus, struct slb_result *res,
			int worst[SLB_NR_MODELS])
{
	int c, m;

	for (c = 0; c < nr_cpus; c++)
		compute(slb, c, &res[c]);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		worst[m] = 0;
		for (c = 1; c < nr_cpus; c++)
			if (slb_bound_worse(&res[c].bound[m],
					    &res[worst[m]].bound[m]))
				worst[m] = c;
	}
}

/* latency - the bound of a model, which must be bounded */
static uint64_t latency(const struct slb_result *res, enum slb_model m)
{
	ck_assert_msg(!res->bound[m].unbounded, "%s unbounded (%s)",
		      slb_model_name(m), slb_why_name(res->bound[m].why));
	return res->bound[m].latency;
}

/* share - the interference of one source under one model */
static uint64_t share(const struct slb_result *res, enum slb_model m, int source)
{
	const struct slb_bound *b = &res->bound[m];
	unsigned int i;

	for (i = 0; i < b->nr_shares; i++)
		if (b->shares[i].source == source)
			return b->shares[i].ns;
	ck_abort_msg("source %d is not in the breakdown", source);
	return 0;
}

/* sum - a + b, saturated as the engine saturates */
static uint64_t sum(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* check_breakdown - the terms of a bounded result add up to its latency */
static void check_breakdown(const struct slb_result *res)
{
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res->bound[m];
		uint64_t all = 0, irq = 0, nmi = 0, most;
		unsigned int i;

		for (i = 0; i < b->nr_shares; i++) {
			all = sum(all, b->shares[i].ns);
			if (b->shares[i].source == SLB_NMI)
				nmi = sum(nmi, b->shares[i].ns);
			else
				irq = sum(irq, b->shares[i].ns);
			ck_assert(b->dominant.ns >= b->shares[i].ns);
			if (i)
				ck_assert_int_lt(b->shares[i - 1].source,
						 b->shares[i].source);
		}
		ck_assert_uint_eq(b->irq, irq);
		ck_assert_uint_eq(b->nmi, nmi);
		ck_assert_uint_eq(b->l_if, (b->var[SLB_ST] > b->var[SLB_POID] ?
					    b->var[SLB_ST] : b->var[SLB_POID]) +
				  b->var[SLB_PAIE] + b->var[SLB_PSD]);
		most = b->var[SLB_POID];
		for (i = 0; i < SLB_NR_VARS; i++)
			if (b->var[i] > most)
				most = b->var[i];
		ck_assert(b->dominant.ns >= most || b->var[SLB_ST] == most ||
			  b->var[SLB_POID] == most);
		if (!b->unbounded)
			ck_assert_msg(b->latency == b->l_if + all ||
				      (!b->latency && !b->l_if),
				      "%s: %llu != %llu + %llu", slb_model_name(m),
				      (unsigned long long)b->latency,
				      (unsigned long long)b->l_if,
				      (unsigned long long)all);
	}
}

START_TEST(test_no_interrupts)
{
	struct slb *slb = new_slb(64, 65536, 2000000, 1000000000, 512, 2);
	struct slb_result res;
	int m;

	set_vars(slb, 0, 5000, 2000, 3000, 400);
	/* a lower value does not replace an observed maximum */
	ck_assert_int_eq(slb_set_var(slb, 0, SLB_POID, 10), 0);
	compute(slb, 0, &res);

	ck_assert_int_eq(res.cpu, 0);
	ck_assert_uint_eq(res.nr_sources, 0);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		ck_assert_uint_eq(latency(&res, m), 5000 + 400 + 2000);
		ck_assert_uint_eq(res.bound[m].l_if, 7400);
		ck_assert_uint_eq(res.bound[m].nr_shares, 0);
		ck_assert(!res.bound[m].dominant.is_source);
		ck_assert_int_eq(res.bound[m].dominant.id, SLB_POID);
	}
	check_breakdown(&res);
	slb_result_fini(&res);

	/* D_ST above D_POID takes its place in the max */
	set_vars(slb, 1, 1000, 100, 4000, 10);
	compute(slb, 1, &res);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 4110);
	ck_assert_int_eq(res.bound[SLB_NO_INTERRUPTS].dominant.id, SLB_ST);
	slb_result_fini(&res);

	/* nothing at all: nothing to wait for */
	slb_free(slb);
	slb = new_slb(64, 65536, 2000000, 1000000000, 512, 1);
	compute(slb, 0, &res);
	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_uint_eq(latency(&res, m), 0);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * One periodic IRQ, T = 1000, C = 100, L_IF = 2950: the sporadic fixed
 * point is 2950 + 4 * 100 = 3350 (3050 -> 3350 -> 3350), and a window of
 * 3350 ns holds 4 observed occurrences too, so all agree.
 */
START_TEST(test_periodic)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;
	int i;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 2950, 0, 0, 0);
	for (i = 0; i < 50; i++)
		add(slb, 0, 10, 1000 + 1000 * i, 100);
	compute(slb, 0, &res);

	ck_assert_uint_eq(latency(&res, SLB_NO_INTERRUPTS), 2950);
	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 3050);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 3050);
	ck_assert_uint_eq(latency(&res, SLB_SPORADIC), 3350);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 3350);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), 3350);
	ck_assert_uint_eq(share(&res, SLB_SPORADIC, 10), 400);
	ck_assert_uint_eq(res.bound[SLB_SPORADIC].irq, 400);
	ck_assert_uint_eq(res.bound[SLB_SPORADIC].nmi, 0);

	ck_assert_uint_eq(res.nr_sources, 1);
	ck_assert_int_eq(res.sources[0].source, 10);
	ck_assert_uint_eq(res.sources[0].count, 50);
	ck_assert_uint_eq(res.sources[0].owcet, 100);
	ck_assert_uint_eq(res.sources[0].min_gap, 1000);
	ck_assert_uint_eq(res.sources[0].total, 5000);
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Bursts of three (exec 200, 100, 100 at 0, 1000, 2000) every 100 us, with
 * L_IF = 3000. Sporadic sees C = 200, T = 1000: 3200 -> 3800 -> 3800. The
 * sliding window sees at most 400 ns in any window shorter than 2001 ns and
 * 400 in 3400: 3400. With oWCET it counts 3 * 200: 3600.
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
	compute(slb, 0, &res);

	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 3200);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 3200);
	ck_assert_uint_eq(latency(&res, SLB_SPORADIC), 3800);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 3400);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), 3600);
	ck_assert_uint_lt(latency(&res, SLB_SLIDING_WINDOW),
			  latency(&res, SLB_SPORADIC));
	ck_assert_uint_eq(share(&res, SLB_SLIDING_WINDOW, 20), 400);
	ck_assert_uint_eq(share(&res, SLB_SLIDING_WINDOW_OWCET, 20), 600);
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * oWCET 200 above the minimum inter-arrival 100: the sporadic source alone
 * needs more than the CPU, so sporadic is unbounded, while the two observed
 * occurrences only ever add 400 ns to any window.
 */
START_TEST(test_overload)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 1000, 0, 0, 0);
	add(slb, 0, 30, 1000, 200);
	add(slb, 0, 30, 1100, 200);
	compute(slb, 0, &res);

	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVERLOAD);
	ck_assert_uint_eq(res.bound[SLB_SPORADIC].latency, 0);
	/* explained by the demand at the cap: the IRQ dominates */
	ck_assert(res.bound[SLB_SPORADIC].dominant.is_source);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].dominant.id, 30);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 1200);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 1400);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), 1400);
	slb_result_fini(&res);

	/* two sources below 1 each, together above: still no fixed point */
	slb_free(slb);
	slb = slb_alloc(NULL, 1);
	set_vars(slb, 0, 10, 0, 0, 0);
	add(slb, 0, 1, 0, 600);
	add(slb, 0, 1, 1000, 600);
	add(slb, 0, 2, 500, 600);
	add(slb, 0, 2, 1500, 600);
	compute(slb, 0, &res);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVERLOAD);
	ck_assert(!res.bound[SLB_SLIDING_WINDOW].unbounded);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * Two IRQs and the NMI, one occurrence each: a single occurrence gives no
 * inter-arrival time, and sporadic counts it once in any window.
 */
START_TEST(test_nmi_and_irq)
{
	struct slb *slb = slb_alloc(NULL, 1);
	struct slb_result res;
	int m;

	ck_assert_ptr_nonnull(slb);
	set_vars(slb, 0, 400, 300, 200, 300);
	add(slb, 0, 5, 10000, 300);
	add(slb, 0, 7, 20000, 500);
	add(slb, 0, SLB_NMI, 30000, 700);
	compute(slb, 0, &res);

	ck_assert_uint_eq(latency(&res, SLB_NO_INTERRUPTS), 1000);
	ck_assert_uint_eq(latency(&res, SLB_WORST_SINGLE), 1000 + 500 + 700);
	ck_assert_uint_eq(share(&res, SLB_WORST_SINGLE, 5), 0);
	ck_assert_uint_eq(share(&res, SLB_WORST_SINGLE, 7), 500);
	ck_assert_uint_eq(share(&res, SLB_WORST_SINGLE, SLB_NMI), 700);
	ck_assert_uint_eq(res.bound[SLB_WORST_SINGLE].irq, 500);
	ck_assert_uint_eq(res.bound[SLB_WORST_SINGLE].nmi, 700);
	for (m = SLB_WORST_EACH; m < SLB_NR_MODELS; m++) {
		ck_assert_uint_eq(latency(&res, m), 2500);
		ck_assert_uint_eq(share(&res, m, 5), 300);
		ck_assert_uint_eq(share(&res, m, 7), 500);
		ck_assert_uint_eq(share(&res, m, SLB_NMI), 700);
	}

	/* the NMI is listed first, and dominates */
	ck_assert_int_eq(res.bound[SLB_WORST_EACH].shares[0].source, SLB_NMI);
	ck_assert(res.bound[SLB_WORST_EACH].dominant.is_source);
	ck_assert_int_eq(res.bound[SLB_WORST_EACH].dominant.id, SLB_NMI);
	ck_assert_uint_eq(res.sources[0].min_gap, 0);
	check_breakdown(&res);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/* bounds above the cap are unbounded, and even U close to 1 terminates */
START_TEST(test_cap)
{
	struct slb *slb = new_slb(64, 65536, 2000000, 10000, 512, 2);
	struct slb_result res;
	int i;

	/* sporadic: C = 50, T = 100 doubles 9000, above the 10 us cap */
	set_vars(slb, 0, 9000, 0, 0, 0);
	add(slb, 0, 3, 0, 50);
	add(slb, 0, 3, 100, 50);
	compute(slb, 0, &res);
	ck_assert_uint_eq(latency(&res, SLB_NO_INTERRUPTS), 9000);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 9050);
	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVER_CAP);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 9100);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW_OWCET), 9100);
	slb_result_fini(&res);

	/* L_IF alone above the cap */
	set_vars(slb, 1, 20000, 0, 0, 0);
	compute(slb, 1, &res);
	ck_assert(res.bound[SLB_NO_INTERRUPTS].unbounded);
	ck_assert_int_eq(res.bound[SLB_NO_INTERRUPTS].why, SLB_OVER_CAP);
	slb_result_fini(&res);
	slb_free(slb);

	/*
	 * U = 0.999999 and L_IF = 5 us: the fixed point would be near
	 * L_IF / (1 - U) = 5 s. The iteration climbs about 1 ms per step and
	 * gives up at the default 1 s cap after about a thousand steps.
	 */
	slb = slb_alloc(NULL, 1);
	set_vars(slb, 0, 5000, 0, 0, 0);
	for (i = 0; i < 3; i++)
		add(slb, 0, 4, 1000000ULL * i, 999999);
	compute(slb, 0, &res);
	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_int_eq(res.bound[SLB_SPORADIC].why, SLB_OVER_CAP);
	ck_assert(!res.bound[SLB_SLIDING_WINDOW].unbounded);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 5000 + 3 * 999999);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/* feed_pattern - a source pattern that differs with its argument */
static void feed_pattern(struct slb *slb, int cpu, int which, int i)
{
	if (which)
		add(slb, cpu, 7, 3000ULL * i + (i % 3) * 500, 100 + i % 50);
	else
		add(slb, cpu, SLB_NMI, 7000ULL * i, 900 + (i % 7) * 10);
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

/* two analyses fed in turn give what each gives alone */
START_TEST(test_side_by_side)
{
	struct slb *a = slb_alloc(NULL, 1), *b = slb_alloc(NULL, 1);
	struct slb *alone_a = slb_alloc(NULL, 1), *alone_b = slb_alloc(NULL, 1);
	struct slb_result ra, rb, rc, rd;
	int i;

	set_vars(a, 0, 100, 0, 0, 0);
	set_vars(alone_a, 0, 100, 0, 0, 0);
	set_vars(b, 0, 5000, 0, 0, 0);
	set_vars(alone_b, 0, 5000, 0, 0, 0);
	for (i = 0; i < 2000; i++) {
		feed_pattern(a, 0, 0, i);
		feed_pattern(b, 0, 1, i);
	}
	for (i = 0; i < 2000; i++)
		feed_pattern(alone_a, 0, 0, i);
	for (i = 0; i < 2000; i++)
		feed_pattern(alone_b, 0, 1, i);

	compute(a, 0, &ra);
	compute(b, 0, &rb);
	compute(alone_a, 0, &rc);
	compute(alone_b, 0, &rd);
	same_result(&ra, &rc);
	same_result(&rb, &rd);
	ck_assert_uint_ne(latency(&ra, SLB_SLIDING_WINDOW),
			  latency(&rb, SLB_SLIDING_WINDOW));
	slb_result_fini(&ra);
	slb_result_fini(&rb);
	slb_result_fini(&rc);
	slb_result_fini(&rd);
	slb_free(a);
	slb_free(b);
	slb_free(alone_a);
	slb_free(alone_b);
}
END_TEST

/* the system result is the worst CPU, model by model */
START_TEST(test_system)
{
	struct slb *slb = slb_alloc(NULL, 3);
	struct slb_result res[3];
	int worst[SLB_NR_MODELS];
	int c, i;

	set_vars(slb, 0, 9000, 0, 0, 0);	/* worst without interrupts */
	set_vars(slb, 1, 1000, 0, 0, 0);
	for (i = 0; i < 100; i++)		/* a dense burst on CPU 1 */
		add(slb, 1, 11, 200 * i, 250);
	set_vars(slb, 2, 100, 0, 0, 0);
	add(slb, 2, SLB_NMI, 0, 20000);		/* one long NMI on CPU 2 */

	compute_all(slb, 3, res, worst);
	ck_assert_int_eq(worst[SLB_NO_INTERRUPTS], 0);
	ck_assert_uint_eq(latency(&res[0], SLB_NO_INTERRUPTS), 9000);
	ck_assert_int_eq(worst[SLB_WORST_EACH], 2);
	ck_assert_uint_eq(latency(&res[2], SLB_WORST_EACH), 20100);
	/* unbounded is worse than any bound, however long */
	ck_assert_int_eq(worst[SLB_SPORADIC], 1);
	ck_assert(res[1].bound[SLB_SPORADIC].unbounded);
	ck_assert_uint_eq(latency(&res[2], SLB_SPORADIC), 20100);
	ck_assert_int_eq(worst[SLB_SLIDING_WINDOW], 1);
	ck_assert_uint_eq(latency(&res[1], SLB_SLIDING_WINDOW), 1000 + 100 * 250);
	ck_assert_uint_eq(res[1].bound[SLB_SLIDING_WINDOW].nr_shares, 1);
	ck_assert_int_eq(res[1].bound[SLB_SLIDING_WINDOW].shares[0].source, 11);
	/* a tie is no worse: the lowest CPU keeps it */
	ck_assert(!slb_bound_worse(&res[1].bound[SLB_WORST_EACH],
				   &res[1].bound[SLB_WORST_EACH]));
	for (c = 0; c < 3; c++) {
		check_breakdown(&res[c]);
		slb_result_fini(&res[c]);
	}
	slb_free(slb);
}
END_TEST

/* names, and the errors that must be reported rather than crash */
START_TEST(test_api)
{
	static const char * const keys[SLB_NR_MODELS] = {
		"no_interrupts", "worst_single", "worst_each", "sporadic",
		"sliding_window", "sliding_window_owcet",
	};
	struct slb_config cfg;
	struct slb_result res;
	struct slb *slb;
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_str_eq(slb_model_name(m), keys[m]);
	ck_assert_str_eq(slb_why_name(SLB_OVERLOAD), "overload");

	slb_config_default(&cfg);
	cfg.grid_ns = 0;
	errno = 0;
	ck_assert_ptr_null(slb_alloc(&cfg, 1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(slb_alloc(NULL, 0));

	/* the grid is rounded down to a power of two */
	slb_config_default(&cfg);
	cfg.grid_ns = 100;
	slb = slb_alloc(&cfg, 2);
	ck_assert_ptr_nonnull(slb);
	slb_get_config(slb, &cfg);
	ck_assert_uint_eq(cfg.grid_ns, 64);

	ck_assert_int_eq(slb_add_interrupt(slb, 2, 1, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_add_interrupt(slb, -1, 1, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_add_interrupt(slb, 0, -2, 0, 1), -EINVAL);
	ck_assert_int_eq(slb_set_var(slb, 0, SLB_NR_VARS, 1), -EINVAL);
	ck_assert_int_eq(slb_compute_cpu(slb, 5, &res), -EINVAL);

	/* a record earlier than the previous one is taken at its time */
	add(slb, 0, 9, 5000, 10);
	add(slb, 0, 9, 4000, 10);
	compute(slb, 0, &res);
	ck_assert_uint_eq(res.sources[0].min_gap, 0);
	ck_assert(res.bound[SLB_SPORADIC].unbounded);
	ck_assert_uint_eq(latency(&res, SLB_SLIDING_WINDOW), 20);
	slb_result_fini(&res);

	/* many sources on one CPU grow the lookup table */
	for (m = 0; m < 300; m++)
		add(slb, 1, m * 7, 1000 * m, 1);
	compute(slb, 1, &res);
	ck_assert_uint_eq(res.nr_sources, 300);
	ck_assert_uint_eq(latency(&res, SLB_WORST_EACH), 300);
	slb_result_fini(&res);
	slb_free(slb);
}
END_TEST

/*
 * round_window - the window length the engine's curves use for a window of
 * t ns, from the grid of Documentation/tools/rtla/sched-latency-bound.rst:
 * the end of the bin that holds the spread t - 1. Bins are grid_ns wide up
 * to fine_ns; beyond, each octave [2^e, 2^(e+1)) of the spread is cut into
 * S = fine_ns / (2 * grid_ns) bins. cfg is the engine's, after rounding.
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

/* the model of the rounding: up, by at most one step of the grid */
START_TEST(test_round_window)
{
	struct slb *slb = new_slb(16, 1024, 1000000, 1000000000, 512, 1);
	struct slb_config cfg;
	uint64_t t, r, step;

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
 * The random inputs and the brute force.
 */
struct occ {
	uint64_t start;
	uint64_t exec;
};

struct bsrc {
	int id;
	int n;
	struct occ occ[MAX_OCC];
};

struct bcpu {
	uint64_t var[SLB_NR_VARS];
	int nr;
	struct bsrc src[MAX_SRC];
};

struct input {
	int nr_cpus;
	struct bcpu cpu[MAX_CPUS];
};

static uint64_t seed_state;

/* rnd - a small deterministic generator (splitmix64) */
static uint64_t rnd(void)
{
	uint64_t z = (seed_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* below - a value in [0, n) */
static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

/* gen_source - a periodic, bursty or random source, in time order */
static void gen_source(struct bsrc *s, int id)
{
	int kind = below(3), want = 1 + below(MAX_OCC), burst = 0;
	uint64_t t = below(5000), period = 200 + below(4000);
	uint64_t longest = below(4) ? 800 : 4000;

	s->id = id;
	for (s->n = 0; s->n < want && t < SPAN; s->n++) {
		s->occ[s->n].start = t;
		s->occ[s->n].exec = 1 + below(longest);
		if (kind == 0) {
			/* periodic, released up to a quarter period late */
			t = (t / period + 1) * period + below(period / 4);
		} else if (kind == 1) {
			/* bursts of up to 6, 20-420 ns apart */
			if (burst-- > 0) {
				t += 20 + below(400);
			} else {
				burst = below(6);
				t += 2000 + below(15000);
			}
		} else {
			/* anything, simultaneous occurrences included */
			t += below(3000);
		}
	}
}

/* gen_input - random CPUs with random variables and sources */
static void gen_input(struct input *in, int seed)
{
	int c, i, k;

	seed_state = seed * 7919ULL + 1;
	memset(in, 0, sizeof(*in));
	in->nr_cpus = 1 + below(MAX_CPUS);
	for (c = 0; c < in->nr_cpus; c++) {
		struct bcpu *cpu = &in->cpu[c];
		int used[MAX_SRC + 2] = { 0 };

		for (k = 0; k < SLB_NR_VARS; k++)
			cpu->var[k] = below(4) ? below(5000) : 0;
		cpu->nr = below(MAX_SRC + 1);
		for (i = 0; i < cpu->nr; i++) {
			int id;

			/* distinct ids among the NMI and IRQs 0..5 */
			do {
				id = (int)below(MAX_SRC + 2) - 1;
			} while (used[id + 1]);
			used[id + 1] = 1;
			gen_source(&cpu->src[i], id);
		}
	}
}

struct rec {
	int source;
	int order;
	uint64_t start;
	uint64_t exec;
};

/* by_start - qsort order of the records of a CPU: time, then generation */
static int by_start(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order - y->order;
}

/* feed - all records of an input: in time order per CPU, CPUs interleaved */
static void feed(struct slb *slb, const struct input *in)
{
	static struct rec recs[MAX_CPUS][MAX_SRC * MAX_OCC];
	int nr[MAX_CPUS] = { 0 }, pos[MAX_CPUS] = { 0 };
	int c, i, k, left = 0;

	for (c = 0; c < in->nr_cpus; c++) {
		const struct bcpu *cpu = &in->cpu[c];

		for (k = 0; k < SLB_NR_VARS; k++)
			ck_assert_int_eq(slb_set_var(slb, c, k, cpu->var[k]), 0);
		for (i = 0; i < cpu->nr; i++)
			for (k = 0; k < cpu->src[i].n; k++) {
				struct rec *r = &recs[c][nr[c]];

				r->source = cpu->src[i].id;
				r->order = nr[c]++;
				r->start = cpu->src[i].occ[k].start;
				r->exec = cpu->src[i].occ[k].exec;
			}
		qsort(recs[c], nr[c], sizeof(struct rec), by_start);
		left += nr[c];
	}

	/* a random CPU at each step: the engine only needs per-CPU order */
	while (left) {
		c = below(in->nr_cpus);
		if (pos[c] == nr[c])
			continue;
		add(slb, c, recs[c][pos[c]].source, recs[c][pos[c]].start,
		    recs[c][pos[c]].exec);
		pos[c]++;
		left--;
	}
}

/* brute_curve - most execution time (or occurrences) in a window of t */
static uint64_t brute_curve(const struct bsrc *s, uint64_t t, bool count)
{
	uint64_t best = 0;
	int i, k;

	/* a window can always slide right to start at an occurrence */
	for (i = 0; i < s->n; i++) {
		uint64_t sum = 0;

		for (k = 0; k < s->n; k++)
			if (s->occ[k].start >= s->occ[i].start &&
			    s->occ[k].start < s->occ[i].start + t)
				sum += count ? 1 : s->occ[k].exec;
		if (sum > best)
			best = sum;
	}
	return best;
}

/* brute_owcet - the longest execution of a source */
static uint64_t brute_owcet(const struct bsrc *s)
{
	uint64_t c = 0;
	int k;

	for (k = 0; k < s->n; k++)
		if (s->occ[k].exec > c)
			c = s->occ[k].exec;
	return c;
}

/* brute_gap - the minimum inter-arrival time (n >= 2) */
static uint64_t brute_gap(const struct bsrc *s)
{
	uint64_t g = UINT64_MAX;
	int k;

	for (k = 1; k < s->n; k++)
		if (s->occ[k].start - s->occ[k - 1].start < g)
			g = s->occ[k].start - s->occ[k - 1].start;
	return g;
}

/*
 * brute_interference - I_s(t) from the definitions; with round set, the
 * sliding windows are stretched as the engine's grid stretches them
 */
static uint64_t brute_interference(const struct slb_config *round,
				   const struct bsrc *s, enum slb_model m,
				   uint64_t t)
{
	uint64_t w = round ? round_window(round, t) : t;

	switch (m) {
	case SLB_WORST_EACH:
		return brute_owcet(s);
	case SLB_SPORADIC:
		if (s->n == 1)
			return brute_owcet(s);
		return (t + brute_gap(s) - 1) / brute_gap(s) * brute_owcet(s);
	case SLB_SLIDING_WINDOW:
		return brute_curve(s, w, false);
	case SLB_SLIDING_WINDOW_OWCET:
		return brute_curve(s, w, true) * brute_owcet(s);
	default:
		return 0;
	}
}

/* brute_bound - the least positive fixed point, UINT64_MAX if unbounded */
static uint64_t brute_bound(const struct slb_config *round,
			    const struct bcpu *cpu, enum slb_model m, uint64_t cap)
{
	uint64_t blk = cpu->var[SLB_ST] > cpu->var[SLB_POID] ?
		       cpu->var[SLB_ST] : cpu->var[SLB_POID];
	uint64_t lif = blk + cpu->var[SLB_PAIE] + cpu->var[SLB_PSD];
	uint64_t l = lif, next, irq = 0, nmi = 0;
	int i, it;
	long double u = 0;

	if (m == SLB_NO_INTERRUPTS)
		return lif > cap ? UINT64_MAX : lif;
	if (m == SLB_WORST_SINGLE) {
		for (i = 0; i < cpu->nr; i++) {
			uint64_t c = brute_owcet(&cpu->src[i]);

			if (cpu->src[i].id == SLB_NMI)
				nmi = c;
			else if (c > irq)
				irq = c;
		}
		return lif + irq + nmi > cap ? UINT64_MAX : lif + irq + nmi;
	}
	if (m == SLB_SPORADIC) {
		for (i = 0; i < cpu->nr; i++) {
			const struct bsrc *s = &cpu->src[i];

			if (s->n < 2)
				continue;
			if (brute_owcet(s) >= brute_gap(s))
				return UINT64_MAX;
			u += (long double)brute_owcet(s) / brute_gap(s);
		}
		if (lif && u >= 1.0L)
			return UINT64_MAX;
	}

	for (i = 0; i < cpu->nr; i++)
		l += brute_interference(round, &cpu->src[i], m, 1);
	for (it = 0; it < 1000000; it++) {
		if (l > cap)
			return UINT64_MAX;
		if (!l)
			return 0;
		next = lif;
		for (i = 0; i < cpu->nr; i++)
			next += brute_interference(round, &cpu->src[i], m, l);
		if (next == l)
			return l;
		l = next;
	}
	return UINT64_MAX;
}

/* value - a bound as a number, UINT64_MAX when unbounded */
static uint64_t value(const struct slb_bound *b)
{
	return b->unbounded ? UINT64_MAX : b->latency;
}

/* check_order - the characterizations are ordered by pessimism */
static void check_order(const struct slb_result *res, int seed)
{
	const struct slb_bound *b = res->bound;
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		ck_assert_msg(value(&b[m]) >= b[m].l_if, "seed %d", seed);
	ck_assert_msg(value(&b[SLB_NO_INTERRUPTS]) <= value(&b[SLB_WORST_SINGLE]) &&
		      value(&b[SLB_WORST_SINGLE]) <= value(&b[SLB_WORST_EACH]) &&
		      value(&b[SLB_WORST_EACH]) <= value(&b[SLB_SLIDING_WINDOW]) &&
		      value(&b[SLB_SLIDING_WINDOW]) <= value(&b[SLB_SLIDING_WINDOW_OWCET]),
		      "seed %d: order", seed);
	ck_assert_msg(value(&b[SLB_SLIDING_WINDOW]) <= value(&b[SLB_SPORADIC]),
		      "seed %d: sliding_window above sporadic", seed);
}

/*
 * check_model - one bound of the engine against the brute force
 *
 * exact: every bound must equal the brute force. Otherwise the brute force
 * over exact windows must not exceed the engine (soundness), and, when round
 * is set, the brute force over windows rounded like the engine's grid must
 * not be below it (tightness). Only the sliding windows use the grid.
 */
static void check_model(const struct slb *slb, const struct bcpu *cpu,
			enum slb_model m, uint64_t got, bool exact, bool round,
			int seed, int c)
{
	const uint64_t cap = 1000000000;
	struct slb_config cfg;
	uint64_t lo, hi;
	bool gridded = m == SLB_SLIDING_WINDOW || m == SLB_SLIDING_WINDOW_OWCET;

	slb_get_config(slb, &cfg);
	lo = brute_bound(NULL, cpu, m, cap);
	hi = brute_bound(round ? &cfg : NULL, cpu, m, cap);
	ck_assert_msg(lo <= got, "seed %d cpu %d %s: brute %llu > %llu", seed, c,
		      slb_model_name(m), (unsigned long long)lo,
		      (unsigned long long)got);
	if (exact || !gridded)
		ck_assert_msg(got == lo, "seed %d cpu %d %s: %llu != brute %llu",
			      seed, c, slb_model_name(m),
			      (unsigned long long)got, (unsigned long long)lo);
	else if (round)
		ck_assert_msg(got <= hi, "seed %d cpu %d %s: %llu > rounded %llu",
			      seed, c, slb_model_name(m),
			      (unsigned long long)got, (unsigned long long)hi);
}

/*
 * check_worse - slb_bound_worse() orders two bounds as their values:
 * unbounded above any number, and never both ways
 */
static void check_worse(const struct slb_bound *a, const struct slb_bound *b,
			int seed)
{
	bool ab = slb_bound_worse(a, b), ba = slb_bound_worse(b, a);

	ck_assert_msg(!(ab && ba), "seed %d: worse both ways", seed);
	if (value(a) > value(b))
		ck_assert_msg(ab, "seed %d: %llu not worse than %llu", seed,
			      (unsigned long long)value(a),
			      (unsigned long long)value(b));
	if (ab)
		ck_assert_msg(value(a) >= value(b), "seed %d: %llu worse than %llu",
			      seed, (unsigned long long)value(a),
			      (unsigned long long)value(b));
}

/*
 * check_random - run every random input through one configuration
 *
 * exact means grid 1 ns, and horizon and max_live above any random input.
 */
static void check_random(uint64_t grid, uint64_t fine, uint64_t horizon,
			 unsigned int max_live, bool exact, bool round)
{
	static struct input in;
	int seed, c, d, m;

	for (seed = 0; seed < NR_RANDOM; seed++) {
		struct slb_result res[MAX_CPUS];
		int worst[SLB_NR_MODELS];
		struct slb *slb;

		gen_input(&in, seed);
		slb = new_slb(grid, fine, horizon, 1000000000, max_live, in.nr_cpus);
		feed(slb, &in);
		compute_all(slb, in.nr_cpus, res, worst);

		for (c = 0; c < in.nr_cpus; c++) {
			check_breakdown(&res[c]);
			check_order(&res[c], seed);
			for (m = 0; m < SLB_NR_MODELS; m++) {
				uint64_t got = value(&res[c].bound[m]);

				check_model(slb, &in.cpu[c], m, got, exact, round,
					    seed, c);
				/* the system takes the worst CPU */
				ck_assert(value(&res[worst[m]].bound[m]) >= got);
				for (d = 0; d < in.nr_cpus; d++)
					check_worse(&res[c].bound[m],
						    &res[d].bound[m], seed);
			}
		}
		for (c = 0; c < in.nr_cpus; c++)
			slb_result_fini(&res[c]);
		slb_free(slb);
	}
}

START_TEST(test_random_exact)
{
	check_random(1, 2 * EXACT_HORIZON, EXACT_HORIZON, MAX_OCC, true, false);
}
END_TEST

START_TEST(test_random_rounded)
{
	/* 16 ns steps up to 1 us, then 1/32 of the window */
	check_random(16, 1024, EXACT_HORIZON, MAX_OCC, false, true);
}
END_TEST

START_TEST(test_random_short_horizon)
{
	/* windows past 3 us and past 4 occurrences only through extension */
	check_random(64, 512, 3000, 4, false, false);
}
END_TEST

START_TEST(test_random_defaults)
{
	struct slb_config cfg;

	slb_config_default(&cfg);
	check_random(cfg.grid_ns, cfg.fine_ns, cfg.horizon_ns, cfg.max_live,
		     false, true);
}
END_TEST

/* bound_suite - every test above */
static Suite *bound_suite(void)
{
	Suite *s = suite_create("sched_latency_bound");
	TCase *tc = tcase_create("cases");
	TCase *tr = tcase_create("random");

	tcase_add_test(tc, test_no_interrupts);
	tcase_add_test(tc, test_periodic);
	tcase_add_test(tc, test_bursts);
	tcase_add_test(tc, test_overload);
	tcase_add_test(tc, test_nmi_and_irq);
	tcase_add_test(tc, test_cap);
	tcase_add_test(tc, test_side_by_side);
	tcase_add_test(tc, test_system);
	tcase_add_test(tc, test_api);
	tcase_add_test(tc, test_round_window);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tr, 300);
	tcase_add_test(tr, test_random_exact);
	tcase_add_test(tr, test_random_rounded);
	tcase_add_test(tr, test_random_short_horizon);
	tcase_add_test(tr, test_random_defaults);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bound_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
