// SPDX-License-Identifier: GPL-2.0
/*
 * The bound engine of rtla sched-latency (src/sched_latency_bound.c):
 * cases computed by hand for each characterization of the interrupts, the
 * breakdown, the unbounded results, and random streams against a brute
 * force written from the definitions of Documentation/tools/rtla/
 * sched-latency-bound.rst, over every window.
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

/* feed - a stream, in start-time order, to @cpu */
static void feed(struct slb *slb, int cpu, const struct occ *occ, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		ck_assert_int_eq(slb_add_interrupt(slb, cpu, occ[i].source, occ[i].start,
						   occ[i].exec), 0);
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

START_TEST(test_config)
{
	struct slb_config cfg, got;
	struct slb *slb;

	slb_config_default(&cfg);
	ck_assert_uint_eq(cfg.grid_ns, SLB_DEFAULT_GRID_NS);
	ck_assert_uint_eq(cfg.horizon_ns, SLB_DEFAULT_HORIZON_NS);

	/* NULL: the defaults */
	slb = slb_alloc(NULL, 2);
	ck_assert_ptr_nonnull(slb);
	slb_get_config(slb, &got);
	ck_assert_mem_eq(&got, &cfg, sizeof(cfg));
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
		ck_assert(!b->dominant.is_source);
		ck_assert_int_eq(b->dominant.id, SLB_ST);
		ck_assert_uint_eq(b->dominant.ns, 7000);
	}
	slb_result_fini(&res);

	/* nothing at all: nothing to wait for */
	slb_free(slb);
	slb = slb_alloc(NULL, 1);
	ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
	ck_assert(!res.bound[SLB_SLIDING_WINDOW].unbounded);
	ck_assert_uint_eq(res.bound[SLB_SLIDING_WINDOW].latency, 0);
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
 * Sporadic has no bound when the interrupts would take the whole CPU: one
 * source alone (its oWCET at least its minimum inter-arrival), or all
 * together. The sliding windows are still bounded by what was observed.
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
		b = &res.bound[SLB_SLIDING_WINDOW];
		ck_assert(!b->unbounded);
		ck_assert_uint_eq(b->latency, cpu ? 5000 + 2200 : 5000 + 3600);
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
		ck_assert_int_eq(slb_add_interrupt(slb, 0, 7, i * 1000ULL, 900), 0);
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

START_TEST(test_names)
{
	ck_assert_str_eq(slb_model_name(SLB_NO_INTERRUPTS), "no_interrupts");
	ck_assert_str_eq(slb_model_name(SLB_SLIDING_WINDOW_OWCET), "sliding_window_owcet");
	ck_assert_str_eq(slb_model_name(SLB_NR_MODELS), "unknown");
	ck_assert_str_eq(slb_why_name(SLB_OVERLOAD), "overload");
}
END_TEST

/* two analyses side by side share nothing */
START_TEST(test_side_by_side)
{
	struct slb *a = slb_alloc(NULL, 1), *b = slb_alloc(NULL, 1);
	struct slb_result ra, rb;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	set_vars(a, 0, 1000, 0, 0, 0);
	set_vars(b, 0, 2000, 0, 0, 0);
	ck_assert_int_eq(slb_add_interrupt(a, 0, 5, 0, 100), 0);
	ck_assert_int_eq(slb_add_interrupt(b, 0, 5, 0, 300), 0);
	ck_assert_int_eq(slb_compute_cpu(a, 0, &ra), 0);
	ck_assert_int_eq(slb_compute_cpu(b, 0, &rb), 0);
	ck_assert_uint_eq(ra.bound[SLB_WORST_EACH].latency, 1100);
	ck_assert_uint_eq(rb.bound[SLB_WORST_EACH].latency, 2300);
	slb_result_fini(&ra);
	slb_result_fini(&rb);
	slb_free(a);
	slb_free(b);
}
END_TEST

/*
 * The brute force: every characterization from its definition, over
 * every window of the stream of one CPU.
 */

#define BF_MAX_SRC	4
#define BF_MAX_OCC	40

struct bf_source {
	int		id;
	int		n;
	uint64_t	start[BF_MAX_OCC];
	uint64_t	exec[BF_MAX_OCC];
	uint64_t	owcet;
	uint64_t	min_gap;
	uint64_t	total;
};

struct bf {
	struct bf_source	src[BF_MAX_SRC];
	int			nr;
	uint64_t		lif;
	int			single;		/* the longest IRQ, or -1 */
};

/* bf_window - the most execution time (@count: occurrences) in a window of t */
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

/* bf_sporadic - occurrences of a sporadic source in a window of t */
static uint64_t bf_sporadic(const struct bf_source *s, uint64_t t)
{
	if (s->n == 1)
		return 1;
	if (!s->min_gap)
		return UINT64_MAX / 4;
	return (t + s->min_gap - 1) / s->min_gap;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* bf_interference - I_s(t) of source i under @model */
static uint64_t bf_interference(const struct bf *bf, int i, int model, uint64_t t)
{
	const struct bf_source *s = &bf->src[i];

	switch (model) {
	case SLB_WORST_SINGLE:
		return i == bf->single || s->id == SLB_NMI ? s->owcet : 0;
	case SLB_WORST_EACH:
		return s->owcet;
	case SLB_SPORADIC:
		return bf_sporadic(s, t) * s->owcet;
	case SLB_SLIDING_WINDOW:
		return min3(bf_window(s, t, false), bf_sporadic(s, t) * s->owcet, s->total);
	case SLB_SLIDING_WINDOW_OWCET:
		return s->owcet * min3(bf_window(s, t, true), bf_sporadic(s, t), s->n);
	}
	return 0;
}

/* bf_overloaded - sporadic: the interrupts take the whole CPU */
static bool bf_overloaded(const struct bf *bf)
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
static bool bf_solve(const struct bf *bf, int model, uint64_t cap, uint64_t *latency)
{
	uint64_t l = bf->lif, next;
	int i;

	if (model == SLB_SPORADIC && bf_overloaded(bf))
		return false;
	for (i = 0; i < bf->nr; i++)
		l += bf_interference(bf, i, model, 1);
	for (;;) {
		if (l > cap)
			return false;
		if (!l)
			break;
		next = bf->lif;
		for (i = 0; i < bf->nr; i++)
			next += bf_interference(bf, i, model, l);
		if (next == l)
			break;
		l = next;
	}
	*latency = l;
	return true;
}

static uint64_t rnd_state;

static uint64_t rnd(uint64_t n)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rnd_state >> 33) % n;
}

/*
 * bf_stream - a random stream of one CPU, fed to @slb: up to four sources
 * (the NMI among them, sometimes), starts in [0, 50 us), each a few ns to
 * a few us apart; and the thread variables
 */
static void bf_stream(struct slb *slb, struct bf *bf)
{
	uint64_t var[SLB_NR_VARS], t = 0;
	int i, k, nr_occ;

	memset(bf, 0, sizeof(*bf));
	bf->nr = 1 + rnd(BF_MAX_SRC);
	for (k = 0; k < bf->nr; k++)
		bf->src[k].id = k == 3 ? SLB_NMI : 10 * k + (int)rnd(10);
	nr_occ = 1 + rnd(BF_MAX_OCC * bf->nr / 2);
	for (i = 0; i < nr_occ && t < 50000; i++) {
		struct bf_source *s;

		k = rnd(bf->nr);
		s = &bf->src[k];
		if (s->n == BF_MAX_OCC)
			continue;
		s->start[s->n] = t;
		s->exec[s->n] = 1 + rnd(rnd(2) ? 200 : 3000);
		ck_assert_int_eq(slb_add_interrupt(slb, 0, s->id, t, s->exec[s->n]), 0);
		if (s->n && t - s->start[s->n - 1] < s->min_gap)
			s->min_gap = t - s->start[s->n - 1];
		if (s->n == 1)
			s->min_gap = t - s->start[0];
		if (s->exec[s->n] > s->owcet)
			s->owcet = s->exec[s->n];
		s->total += s->exec[s->n];
		s->n++;
		t += 1 + rnd(rnd(4) ? 2000 : 100);
	}

	/* the sources that never fired are not the engine's */
	for (k = 0; k < bf->nr; k++) {
		if (bf->src[k].n)
			continue;
		bf->src[k] = bf->src[--bf->nr];
		k--;
	}

	for (i = 0; i < SLB_NR_VARS; i++) {
		var[i] = rnd(4) ? rnd(20000) : 0;
		ck_assert_int_eq(slb_set_var(slb, 0, i, var[i]), 0);
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

/* bf_check - the engine's result of each characterization against the brute force */
static void bf_check(const struct bf *bf, const struct slb_result *res, uint64_t cap,
		     bool exact, int seed)
{
	uint64_t want;
	int m, k;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res->bound[m];
		bool grid = m == SLB_SLIDING_WINDOW || m == SLB_SLIDING_WINDOW_OWCET;

		ck_assert_uint_eq(b->l_if, bf->lif);
		if (!bf_solve(bf, m, cap, &want)) {
			/* a rounded window never makes a bound vanish but above the cap */
			ck_assert_msg(b->unbounded, "seed %d, %s: bounded at %llu", seed,
				      slb_model_name(m), (unsigned long long)b->latency);
			continue;
		}
		if (exact || !grid) {
			ck_assert_msg(!b->unbounded && b->latency == want,
				      "seed %d, %s: %llu%s, not %llu", seed, slb_model_name(m),
				      (unsigned long long)b->latency,
				      b->unbounded ? " (unbounded)" : "",
				      (unsigned long long)want);
			for (k = 0; k < bf->nr; k++)
				ck_assert_uint_eq(share(b, bf->src[k].id),
						  bf_interference(bf, k, m, want ? want : 1));
			continue;
		}
		/* a coarser grid rounds windows up: never below the exact bound */
		ck_assert_msg(b->unbounded || b->latency >= want,
			      "seed %d, %s: %llu below the exact %llu", seed, slb_model_name(m),
			      (unsigned long long)b->latency, (unsigned long long)want);
	}
}

/*
 * With a 1 ns grid and every occurrence inside the horizon, the observed
 * curves are exact: the engine's bounds are the brute force's.
 */
START_TEST(test_random_exact)
{
	struct slb_result res;
	struct slb_config cfg;
	struct slb *slb;
	struct bf bf;
	int seed;

	slb_config_default(&cfg);
	cfg.grid_ns = 1;
	cfg.horizon_ns = 65536;
	cfg.fine_ns = 2 * cfg.horizon_ns;
	cfg.max_live = 2 * BF_MAX_OCC;
	for (seed = 1; seed <= 300; seed++) {
		rnd_state = seed;
		slb = slb_alloc(&cfg, 1);
		ck_assert_ptr_nonnull(slb);
		bf_stream(slb, &bf);
		ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
		ck_assert_uint_eq(res.nr_sources, bf.nr);
		bf_check(&bf, &res, cfg.cap_ns, true, seed);
		slb_result_fini(&res);
		slb_free(slb);
	}
}
END_TEST

/*
 * With the default grid, and with a 3 us horizon and four live
 * occurrences a source, the sliding windows are rounded up or extended:
 * never below the exact bound; the other characterizations are exact.
 */
START_TEST(test_random_sound)
{
	struct slb_config cfg[2];
	struct slb_result res;
	struct slb *slb;
	struct bf bf;
	int seed, c;

	slb_config_default(&cfg[0]);
	slb_config_default(&cfg[1]);
	cfg[1].horizon_ns = 3000;
	cfg[1].max_live = 4;
	for (c = 0; c < 2; c++) {
		for (seed = 1; seed <= 300; seed++) {
			rnd_state = seed;
			slb = slb_alloc(&cfg[c], 1);
			ck_assert_ptr_nonnull(slb);
			bf_stream(slb, &bf);
			ck_assert_int_eq(slb_compute_cpu(slb, 0, &res), 0);
			bf_check(&bf, &res, cfg[c].cap_ns, false, seed);
			slb_result_fini(&res);
			slb_free(slb);
		}
	}
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
	tcase_add_test(tc, test_overload);
	tcase_add_test(tc, test_over_cap);
	tcase_add_test(tc, test_window_edges);
	tcase_add_test(tc, test_worse);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_side_by_side);
	suite_add_tcase(s, tc);

	tc = tcase_create("brute_force");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_exact);
	tcase_add_test(tc, test_random_sound);
	suite_add_tcase(s, tc);

	return s;
}
