// SPDX-License-Identifier: GPL-2.0
/*
 * test_parser_random - the latency parser's state machine against the
 * reference interpreter (lp_reference.c) on random valid sequences from
 * lp_generator.c, plus tests of the generator and of the reference.
 *
 * On a mismatch it prints the seed, the events and both record lists (with
 * the index of the event that emitted each record), enough to turn it into
 * a named case of trace_latency_parser_sm_cases.h.
 *
 * The comparison runs on the classic mix, and on half as many seeds with
 * remote wakeups (LP_GEN_REMOTE): a post the CPU's next event takes, in
 * every state, which the reference reads from the spec on its own (about
 * ten a sequence; half keeps make check's time). Those seeds also sleep
 * as 6.3+ kernels do (LP_GEN_IDLE_PREP): ct_cpuidle_enter()'s traced
 * unmask before the sleep, so that the IRQ that wakes the CPU traces its
 * irq_disable and nothing traces the idle loop's unmask after it.
 *
 * LP_RANDOM_SEEDS=<n> changes how many seeds the comparison runs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_generator.h"
#include "lp_reference.h"
#include "lp_sm_run.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

#define MAX_EVENTS	1024
#define MAX_RECORDS	2048
#define MIN_LEN		50
#define MAX_LEN		400
#define CHUNKS		20
#define DEFAULT_SEEDS	200000

/* ---- names, for messages ---- */

static const char *type_name(u32 type)
{
	static const char * const names[] = {
		[LP_SM_PREEMPT_DISABLE]	= "PD",
		[LP_SM_PREEMPT_ENABLE]	= "PE",
		[LP_SM_IRQ_DISABLE]	= "ID",
		[LP_SM_IRQ_ENABLE]	= "IE",
		[LP_SM_SCHED_ENTRY]	= "SE",
		[LP_SM_SCHED_EXIT]	= "SX",
		[LP_SM_IDLE_ENTER]	= "IDLE_IN",
		[LP_SM_IDLE_EXIT]	= "IDLE_OUT",
		[LP_SM_IRQ_ENTRY]	= "IRQ_IN",
		[LP_SM_IRQ_EXIT]	= "IRQ_OUT",
		[LP_SM_NMI_ENTRY]	= "NMI_IN",
		[LP_SM_NMI_EXIT]	= "NMI_OUT",
		[LP_SM_CPU_OFFLINE]	= "OFFLINE",
		[LP_SM_CPU_ONLINE]	= "ONLINE",
		[LP_SM_REMOTE_RESCHED]	= "RR",
	};

	return type < ARRAY_LEN(names) ? names[type] : "?";
}

static const char *var_name(u32 var)
{
	static const char * const names[] = {
		[LP_POID] = "poid", [LP_PSD] = "psd", [LP_DST] = "dst",
		[LP_PAIE] = "paie", [LP_IRQ] = "irq", [LP_NMI] = "nmi",
		[LP_DROPPED] = "dropped",
	};

	return var <= LP_DROPPED ? names[var] : "?";
}

static void print_events(const struct lp_sm_event *ev, unsigned int n)
{
	unsigned int i;

	fprintf(stderr, "  events:\n");
	for (i = 0; i < n; i++) {
		const struct lp_sm_event *e = &ev[i];

		fprintf(stderr, "    [%3u] %10llu %-8s nmi %-7llu ip %#lx%s%s%s%s",
			i, (unsigned long long)e->time, type_name(e->type),
			(unsigned long long)e->nmi_time, e->ip,
			e->flags & LP_SM_HW_IRQS_OFF ? " HW_OFF" : "",
			e->flags & LP_SM_NEED_RESCHED ? " NR" : "",
			e->flags & LP_SM_IDLE_TASK ? " IDLE" : "",
			e->flags & LP_SM_PREEMPT ? " PREEMPT" : "");
		if (e->type == LP_SM_IRQ_ENTRY)
			fprintf(stderr, " kind %u id %u", e->kind, e->id);
		fprintf(stderr, "\n");
	}
}

static void print_records(const char *what, const struct lp_sm_record *r,
			  const unsigned int *at, unsigned int n)
{
	unsigned int i;

	fprintf(stderr, "  %s (%u):\n", what, n);
	for (i = 0; i < n && i < MAX_RECORDS; i++)
		fprintf(stderr, "    @%-3u %-7s start %llu duration %llu ip %#lx kind %u id %u\n",
			at[i], var_name(r[i].var),
			(unsigned long long)r[i].start,
			(unsigned long long)r[i].duration, r[i].ip, r[i].kind,
			r[i].id);
}

static bool same_record(const struct lp_sm_record *a,
			const struct lp_sm_record *b)
{
	return a->var == b->var && a->start == b->start &&
	       a->duration == b->duration && a->ip == b->ip &&
	       a->kind == b->kind && a->id == b->id;
}

/* ---- the runs ---- */

/*
 * parser_run - the parser as the tracer drives it, event by event: each
 * event's time is given only when the parser asks for it (lp_sm_run.c)
 */
static unsigned int parser_run(const struct lp_sm_event *ev, unsigned int n,
			       struct lp_sm_record *out, unsigned int *at)
{
	struct lp_sm_record rec[LP_SM_MAX_RECORDS];
	struct lp_sm sm = {0};
	unsigned int i, j, k, total = 0;

	for (i = 0; i < n; i++) {
		k = lp_sm_event_lazy(&sm, &ev[i], rec, NULL);
		/* no ck_assert per event: each one talks to the runner */
		if (k > LP_SM_MAX_RECORDS)
			ck_abort_msg("event %u: %u records", i, k);
		for (j = 0; j < k && total < MAX_RECORDS; j++) {
			at[total] = i;
			out[total++] = rec[j];
		}
	}
	return total;
}

/* seq_len - the length a seed's sequence aims at: 50..400 */
static unsigned int seq_len(u64 seed)
{
	u64 s = seed ^ 0x5eed;

	return MIN_LEN + lp_gen_rand(&s) % (MAX_LEN - MIN_LEN + 1);
}

struct run {
	struct lp_sm_event	ev[MAX_EVENTS];
	struct lp_sm_record	ref[MAX_RECORDS];
	struct lp_sm_record	got[MAX_RECORDS];
	unsigned int		ref_at[MAX_RECORDS];
	unsigned int		got_at[MAX_RECORDS];
	unsigned int		n;
	unsigned int		nr_ref;
	unsigned int		nr_got;
};

static struct run run;

enum verdict { SAME, DIFFER };

/*
 * compare_seed - generate a sequence with the LP_GEN_* @features, run
 * both, compare every record
 */
static enum verdict compare_seed(u64 seed, unsigned int features)
{
	unsigned int i;

	run.n = lp_gen_sequence_truth(seed, seq_len(seed), run.ev, MAX_EVENTS,
				      features, NULL);
	run.nr_ref = lp_ref_run_idx(run.ev, run.n, run.ref, run.ref_at,
				    MAX_RECORDS);
	run.nr_got = parser_run(run.ev, run.n, run.got, run.got_at);
	if (run.nr_ref != run.nr_got)
		return DIFFER;
	for (i = 0; i < run.nr_ref; i++)
		if (run.ref_at[i] != run.got_at[i] ||
		    !same_record(&run.ref[i], &run.got[i]))
			return DIFFER;
	return SAME;
}

static void report(u64 seed)
{
	fprintf(stderr, "seed %llu: the parser and the reference differ\n",
		(unsigned long long)seed);
	print_events(run.ev, run.n);
	print_records("reference", run.ref, run.ref_at, run.nr_ref);
	print_records("parser", run.got, run.got_at, run.nr_got);
}

static unsigned long nr_seeds(void)
{
	const char *s = getenv("LP_RANDOM_SEEDS");
	unsigned long n = s ? strtoul(s, NULL, 0) : DEFAULT_SEEDS;

	return n ? n : DEFAULT_SEEDS;
}

/*
 * One chunk of the seeds per test: a failure names its first seed. The
 * first CHUNKS tests run the classic mix, the next CHUNKS remote wakeups
 * and the 6.3+ idle loop.
 */
START_TEST(test_random_chunk)
{
	unsigned int features = _i < CHUNKS ? 0 : LP_GEN_REMOTE | LP_GEN_IDLE_PREP;
	unsigned long seeds = features ? (nr_seeds() + 1) / 2 : nr_seeds();
	unsigned long per = (seeds + CHUNKS - 1) / CHUNKS;
	unsigned long first = 1 + _i % CHUNKS * per, last = first + per - 1;
	unsigned long bad = 0, bad_seed = 0, seed;

	if (last > seeds)
		last = seeds;
	for (seed = first; seed <= last; seed++) {
		if (compare_seed(seed, features) == SAME)
			continue;
		if (!bad++) {
			bad_seed = seed;
			report(seed);
		}
	}
	ck_assert_msg(!bad, "%s: %lu of seeds %lu..%lu differ, first %lu",
		      features ? "remote, 6.3+ idle" : "classic", bad, first, last,
		      bad_seed);
}
END_TEST

/* The comparison sees a difference of one field in one record. */
START_TEST(test_mismatch_detected)
{
	unsigned int i;

	ck_assert_int_eq(compare_seed(1, 0), SAME);
	ck_assert_uint_gt(run.nr_got, 0);
	for (i = 0; i < run.nr_got; i++) {
		struct lp_sm_record r = run.got[i];

		r.duration += 1;
		ck_assert(!same_record(&run.ref[i], &r));
		r = run.got[i];
		r.ip ^= 4;
		ck_assert(!same_record(&run.ref[i], &r));
	}
}
END_TEST

/* ---- the generator ---- */

/* GEN_SEEDS - how many of the generator's sequences the checks below read */
#define GEN_SEEDS	2000

static unsigned int gen(u64 seed)
{
	run.n = lp_gen_sequence(seed, seq_len(seed), run.ev, MAX_EVENTS);
	return run.n;
}

START_TEST(test_gen_length_and_time)
{
	u64 seed;
	unsigned int i, n;

	for (seed = 1; seed <= GEN_SEEDS; seed++) {
		n = gen(seed);
		ck_assert_uint_ge(n, seq_len(seed));
		ck_assert_uint_le(n, MAX_EVENTS);
		for (i = 1; i < n; i++) {
			u64 d = run.ev[i].time - run.ev[i - 1].time;

			ck_assert_msg(run.ev[i].time > run.ev[i - 1].time &&
				      d <= 100000,
				      "seed %llu event %u: gap %llu",
				      (unsigned long long)seed, i,
				      (unsigned long long)d);
		}
	}
}
END_TEST

START_TEST(test_gen_deterministic)
{
	static struct lp_sm_event a[MAX_EVENTS];
	unsigned int na, nb;

	na = lp_gen_sequence(42, 300, a, MAX_EVENTS);
	nb = lp_gen_sequence(42, 300, run.ev, MAX_EVENTS);
	ck_assert_uint_eq(na, nb);
	ck_assert(!memcmp(a, run.ev, na * sizeof(*a)));
	nb = lp_gen_sequence(43, 300, run.ev, MAX_EVENTS);
	ck_assert(na != nb || memcmp(a, run.ev, na * sizeof(*a)));
}
END_TEST

/* PD and PE alternate: preempt_count's 0->1 and 1->0 only */
START_TEST(test_gen_preempt_alternates)
{
	u64 seed;
	unsigned int i, n;
	int last;

	for (seed = 1; seed <= GEN_SEEDS; seed++) {
		n = gen(seed);
		last = -1;
		for (i = 0; i < n; i++) {
			u32 t = run.ev[i].type;

			if (t != LP_SM_PREEMPT_DISABLE &&
			    t != LP_SM_PREEMPT_ENABLE)
				continue;
			ck_assert_msg(last != (int)t, "seed %llu event %u: %s twice",
				      (unsigned long long)seed, i,
				      type_name(t));
			last = t;
		}
	}
}
END_TEST

/*
 * An interrupt starts only where the hardware takes IRQs: right after the
 * entry code's ID (only NMIs between), from a thread that had IRQs
 * enabled, or while the idle task sleeps. Handlers and NMIs are balanced,
 * no thread event comes inside a handler, and nmi_time is the sum of the
 * finished outer NMIs.
 */
START_TEST(test_gen_irqs)
{
	u64 seed, nmi_total, nmi_start = 0;
	unsigned int i, n, handlers, nmis, prev;
	bool thread_off, sleeping, tail, offline;

	for (seed = 1; seed <= GEN_SEEDS; seed++) {
		n = gen(seed);
		handlers = nmis = 0;
		nmi_total = 0;
		thread_off = sleeping = tail = offline = false;
		/* the events before the ID of an IRQ, NMIs skipped */
		prev = ~0u;
		for (i = 0; i < n; i++) {
			const struct lp_sm_event *e = &run.ev[i];

			ck_assert_uint_eq(e->nmi_time, nmi_total);
			if (e->type == LP_SM_NMI_ENTRY) {
				if (!nmis++)
					nmi_start = e->time;
				continue;
			}
			if (e->type == LP_SM_NMI_EXIT) {
				ck_assert_uint_gt(nmis, 0);
				if (!--nmis)
					nmi_total += e->time - nmi_start;
				continue;
			}
			ck_assert_msg(!nmis, "seed %llu event %u inside an NMI",
				      (unsigned long long)seed, i);
			switch (e->type) {
			case LP_SM_IRQ_ENTRY:
				if (!handlers && !tail)
					ck_assert_msg(sleeping ||
						      (prev != ~0u &&
						       run.ev[prev].type == LP_SM_IRQ_DISABLE),
						      "seed %llu event %u: IRQ_IN with IRQs masked",
						      (unsigned long long)seed, i);
				handlers++;
				ck_assert(e->flags & LP_SM_HW_IRQS_OFF);
				break;
			case LP_SM_IRQ_EXIT:
				ck_assert_uint_gt(handlers, 0);
				if (!--handlers)
					tail = true;
				break;
			case LP_SM_IRQ_DISABLE:
				/* the entry code's, if an IRQ_IN follows */
				ck_assert(e->flags & LP_SM_HW_IRQS_OFF);
				if (!thread_off && i + 1 < n)
					thread_off = true;
				break;
			case LP_SM_IRQ_ENABLE:
				ck_assert(e->flags & LP_SM_HW_IRQS_OFF);
				thread_off = false;
				tail = false;
				break;
			case LP_SM_IDLE_ENTER:
				ck_assert(e->flags & LP_SM_IDLE_TASK);
				sleeping = true;
				break;
			case LP_SM_IDLE_EXIT:
				ck_assert(e->flags & LP_SM_HW_IRQS_OFF);
				sleeping = false;
				break;
			case LP_SM_CPU_OFFLINE:
				offline = true;
				break;
			case LP_SM_CPU_ONLINE:
				ck_assert(offline);
				offline = false;
				break;
			default:
				break;
			}
			if (e->type <= LP_SM_IDLE_EXIT)
				ck_assert_msg(!handlers,
					      "seed %llu event %u: a thread event in a handler",
					      (unsigned long long)seed, i);
			if (e->type == LP_SM_SCHED_ENTRY)
				ck_assert(!(e->flags & LP_SM_HW_IRQS_OFF));
			prev = i;
		}
	}
}
END_TEST

/* The generator covers what it claims to: every pattern shows up. */
START_TEST(test_gen_coverage)
{
	enum { C_TAIL_PD, C_IRQ_PREEMPT, C_WAKE_NO_ID, C_IDLE_SE_NO_IE,
	       C_NESTED_IRQ, C_NMI_BEFORE_IRQ_IN, C_HOTPLUG, C_SE_PREEMPT,
	       C_IDLE_SE, C_NESTED_NMI, C_NR };
	static const char * const what[C_NR] = {
		"tail PD", "preempting IRQ return", "wake IRQ without ID",
		"idle SE without IE", "nested IRQ", "NMI between ID and IRQ_IN",
		"hotplug", "SE(PREEMPT)", "idle SE", "nested NMI",
	};
	bool seen[C_NR] = { false };
	unsigned int i, n, c, handlers, nmis;
	u64 seed;

	for (seed = 1; seed <= GEN_SEEDS; seed++) {
		n = gen(seed);
		handlers = nmis = 0;
		for (i = 1; i < n; i++) {
			const struct lp_sm_event *e = &run.ev[i];
			const struct lp_sm_event *p = &run.ev[i - 1];

			if (e->type == LP_SM_NMI_ENTRY && nmis++)
				seen[C_NESTED_NMI] = true;
			if (e->type == LP_SM_NMI_EXIT)
				nmis--;
			if (e->type == LP_SM_IRQ_ENTRY && handlers++)
				seen[C_NESTED_IRQ] = true;
			if (e->type == LP_SM_IRQ_EXIT)
				handlers--;
			if (e->type == LP_SM_IRQ_ENTRY &&
			    p->type == LP_SM_NMI_EXIT)
				seen[C_NMI_BEFORE_IRQ_IN] = true;
			if (e->type == LP_SM_PREEMPT_DISABLE &&
			    p->type == LP_SM_IRQ_EXIT)
				seen[C_TAIL_PD] = true;
			if (e->type == LP_SM_SCHED_ENTRY &&
			    (e->flags & LP_SM_PREEMPT)) {
				seen[C_SE_PREEMPT] = true;
				if (i >= 2 && p->type == LP_SM_IRQ_ENABLE &&
				    run.ev[i - 2].type == LP_SM_PREEMPT_DISABLE &&
				    (run.ev[i - 2].flags & LP_SM_HW_IRQS_OFF))
					seen[C_IRQ_PREEMPT] = true;
			}
			if (e->type == LP_SM_IRQ_ENTRY &&
			    p->type == LP_SM_IDLE_ENTER)
				seen[C_WAKE_NO_ID] = true;
			if (e->type == LP_SM_SCHED_ENTRY &&
			    (e->flags & LP_SM_IDLE_TASK)) {
				seen[C_IDLE_SE] = true;
				if (p->type == LP_SM_IDLE_EXIT)
					seen[C_IDLE_SE_NO_IE] = true;
			}
			if (e->type == LP_SM_CPU_OFFLINE)
				seen[C_HOTPLUG] = true;
		}
	}
	for (c = 0; c < C_NR; c++)
		ck_assert_msg(seen[c], "the generator never makes: %s", what[c]);
}
END_TEST

/*
 * With LP_GEN_REMOTE the generator posts remote wakeups in the states
 * that the parser tells apart: the post taken by a thread event, by an
 * IRQ's entry (after an ID the IRQ claims: RR between them) and by its
 * exit, the IPI (vector 253) waking a sleeping CPU, and mwait's wake-up
 * with no IRQ (RR, then IDLE_OUT).
 */
START_TEST(test_gen_remote)
{
	enum { C_BY_THREAD, C_BY_IRQ_IN, C_BY_IRQ_OUT, C_IPI_WAKES,
	       C_POLL_WAKES, C_NR };
	static const char * const what[C_NR] = {
		"RR taken by a thread event", "RR between ID and IRQ_IN",
		"RR taken by an IRQ_OUT", "the IPI waking hlt",
		"mwait woken by RR",
	};
	bool seen[C_NR] = { false };
	unsigned int i, n, c;
	u64 seed;

	for (seed = 1; seed <= GEN_SEEDS; seed++) {
		n = lp_gen_sequence_truth(seed, seq_len(seed), run.ev,
					  MAX_EVENTS, LP_GEN_REMOTE, NULL);
		for (i = 1; i + 1 < n; i++) {
			const struct lp_sm_event *p = &run.ev[i - 1];
			const struct lp_sm_event *e = &run.ev[i];
			const struct lp_sm_event *x = &run.ev[i + 1];

			if (e->type == LP_SM_IRQ_ENTRY && e->id == 253 &&
			    e->kind == LATENCY_PARSER_VECTOR &&
			    p->type == LP_SM_IDLE_ENTER)
				seen[C_IPI_WAKES] = true;
			if (e->type != LP_SM_REMOTE_RESCHED)
				continue;
			if (x->type <= LP_SM_IDLE_EXIT)
				seen[C_BY_THREAD] = true;
			if (x->type == LP_SM_IRQ_ENTRY &&
			    p->type == LP_SM_IRQ_DISABLE)
				seen[C_BY_IRQ_IN] = true;
			if (x->type == LP_SM_IRQ_EXIT)
				seen[C_BY_IRQ_OUT] = true;
			if (x->type == LP_SM_IDLE_EXIT &&
			    p->type == LP_SM_IDLE_ENTER)
				seen[C_POLL_WAKES] = true;
		}
	}
	for (c = 0; c < C_NR; c++)
		ck_assert_msg(seen[c], "the generator never makes: %s", what[c]);
}
END_TEST

/* ---- the reference on sequences from the paper ---- */

#define EV(t, ty, fl)	{ .time = (t), .type = LP_SM_##ty, .flags = (fl), \
			  .ip = 0x1000 + (t) }
#define HW		LP_SM_HW_IRQS_OFF
#define NR		LP_SM_NEED_RESCHED

static void expect(const struct lp_sm_event *ev, unsigned int n,
		   const struct lp_sm_record *want, unsigned int nr_want)
{
	struct lp_sm_record got[16];
	unsigned int at[16], nr, i;
	bool same;

	nr = lp_ref_run_idx(ev, n, got, at, 16);
	same = nr == nr_want;
	for (i = 0; same && i < nr; i++)
		same = same_record(&got[i], &want[i]);
	if (!same) {
		unsigned int none[16] = { 0 };

		print_events(ev, n);
		print_records("expected", want, none, nr_want);
		print_records("reference", got, at, nr);
	}
	ck_assert(same);
}

#define DROP(t)		{ .var = LP_DROPPED, .start = (t) }
#define WIN(v, s, d, at) { .var = LP_##v, .start = (s), .duration = (d), \
			   .ip = 0x1000 + (at) }

/* Sync (IE, PE: into pe_ie), then an ID at 100 and its IE at 600: POID */
START_TEST(test_ref_poid)
{
	static const struct lp_sm_event ev[] = {
		EV(5, IRQ_ENABLE, HW), EV(10, PREEMPT_ENABLE, 0),
		EV(100, IRQ_DISABLE, HW), EV(600, IRQ_ENABLE, HW),
	};
	static const struct lp_sm_record want[] = {
		DROP(10), WIN(POID, 100, 500, 100),
	};

	expect(ev, ARRAY_LEN(ev), want, ARRAY_LEN(want));
}
END_TEST

/* A preempt-off window with an IRQ of 2000 inside: POID net of it */
START_TEST(test_ref_poid_net_of_irq)
{
	static const struct lp_sm_event ev[] = {
		EV(5, IRQ_ENABLE, HW), EV(10, PREEMPT_ENABLE, 0),
		EV(1000, PREEMPT_DISABLE, 0),
		EV(1500, IRQ_DISABLE, HW),
		{ .time = 1600, .type = LP_SM_IRQ_ENTRY, .flags = HW,
		  .kind = LATENCY_PARSER_VECTOR, .id = 236 },
		EV(3000, IRQ_EXIT, HW), EV(3500, IRQ_ENABLE, HW),
		EV(5000, PREEMPT_ENABLE, 0),
	};
	static const struct lp_sm_record want[] = {
		DROP(10),
		{ .var = LP_IRQ, .start = 1500, .duration = 2000,
		  .kind = LATENCY_PARSER_VECTOR, .id = 236 },
		WIN(POID, 1000, 2000, 1000),
	};

	expect(ev, ARRAY_LEN(ev), want, ARRAY_LEN(want));
}
END_TEST

/* schedule(): PSD from EV1 (PD) to EV7 (PE), DST from EV3 (ID) */
START_TEST(test_ref_voluntary_schedule)
{
	static const struct lp_sm_event ev[] = {
		EV(5, IRQ_ENABLE, HW), EV(10, PREEMPT_ENABLE, 0),
		EV(100, PREEMPT_DISABLE, 0), EV(200, SCHED_ENTRY, 0),
		EV(300, IRQ_DISABLE, HW), EV(400, IRQ_ENABLE, HW),
		EV(500, SCHED_EXIT, 0), EV(600, PREEMPT_ENABLE, 0),
	};
	static const struct lp_sm_record want[] = {
		DROP(10), WIN(PSD, 100, 500, 100), WIN(DST, 300, 300, 300),
	};

	expect(ev, ARRAY_LEN(ev), want, ARRAY_LEN(want));
}
END_TEST

/*
 * Case (ii-b) of Lemma 6: a wakeup under preempt_disable, the preempt_enable
 * (PAIE begins with need_resched), an NMI in it, then EV1: PAIE net of the
 * NMI, and the preemption's PSD and DST.
 */
START_TEST(test_ref_paie_preemption)
{
	static const struct lp_sm_event ev[] = {
		EV(5, IRQ_ENABLE, HW), EV(10, PREEMPT_ENABLE, 0),
		EV(100, PREEMPT_DISABLE, 0), EV(200, PREEMPT_ENABLE, NR),
		EV(250, NMI_ENTRY, 0), EV(300, NMI_EXIT, 0),
		{ .time = 400, .nmi_time = 50, .type = LP_SM_PREEMPT_DISABLE,
		  .flags = NR, .ip = 0x1000 + 400 },
		{ .time = 450, .nmi_time = 50, .type = LP_SM_SCHED_ENTRY,
		  .flags = NR | LP_SM_PREEMPT, .ip = 0x1000 + 450 },
		{ .time = 500, .nmi_time = 50, .type = LP_SM_IRQ_DISABLE,
		  .flags = HW, .ip = 0x1000 + 500 },
		{ .time = 600, .nmi_time = 50, .type = LP_SM_IRQ_ENABLE,
		  .flags = HW, .ip = 0x1000 + 600 },
		{ .time = 700, .nmi_time = 50, .type = LP_SM_SCHED_EXIT,
		  .ip = 0x1000 + 700 },
		{ .time = 800, .nmi_time = 50, .type = LP_SM_PREEMPT_ENABLE,
		  .ip = 0x1000 + 800 },
	};
	static const struct lp_sm_record want[] = {
		DROP(10), WIN(POID, 100, 100, 100),
		{ .var = LP_NMI, .start = 250, .duration = 50,
		  .kind = LATENCY_PARSER_NMI },
		WIN(PAIE, 200, 150, 200),
		WIN(PSD, 400, 400, 400), WIN(DST, 500, 300, 500),
	};

	expect(ev, ARRAY_LEN(ev), want, ARRAY_LEN(want));
}
END_TEST

/*
 * The idle loop: ID (POID), IDLE_IN (POID ends), a wake IRQ without ID whose
 * return emits IE (the sleep ends there: the idle task is in pe_ie, and
 * need_resched is set, a PAIE to EV1), IDLE_OUT (POID from there), the idle
 * task's SE (R5: the POID ends, then the PAIE; PSD from the SE), SX into a
 * task, PE (EV7).
 */
START_TEST(test_ref_idle)
{
	static const struct lp_sm_event ev[] = {
		EV(5, IRQ_ENABLE, HW), EV(10, PREEMPT_ENABLE, 0),
		EV(100, PREEMPT_DISABLE, 0), EV(200, SCHED_ENTRY, 0),
		EV(300, IRQ_DISABLE, HW), EV(400, IRQ_ENABLE, HW),
		EV(500, SCHED_EXIT, LP_SM_IDLE_TASK),
		EV(1000, IRQ_DISABLE, HW | LP_SM_IDLE_TASK),
		EV(1100, IDLE_ENTER, HW | LP_SM_IDLE_TASK),
		{ .time = 5000, .type = LP_SM_IRQ_ENTRY,
		  .flags = HW | LP_SM_IDLE_TASK, .id = 9 },
		EV(5500, IRQ_EXIT, HW | NR | LP_SM_IDLE_TASK),
		EV(5600, IRQ_ENABLE, HW | NR | LP_SM_IDLE_TASK),
		EV(5700, IDLE_EXIT, HW | NR | LP_SM_IDLE_TASK),
		EV(6000, SCHED_ENTRY, NR | LP_SM_IDLE_TASK),
		EV(6100, IRQ_DISABLE, HW), EV(6200, IRQ_ENABLE, HW),
		EV(6300, SCHED_EXIT, 0), EV(6400, PREEMPT_ENABLE, 0),
	};
	static const struct lp_sm_record want[] = {
		DROP(10),
		WIN(PSD, 100, 400, 100), WIN(DST, 300, 200, 300),
		WIN(POID, 1000, 100, 1000),
		{ .var = LP_IRQ, .start = 5000, .duration = 600, .id = 9 },
		WIN(POID, 5700, 300, 5700), WIN(PAIE, 5600, 400, 5600),
		WIN(PSD, 6000, 400, 6000), WIN(DST, 6100, 300, 6100),
	};

	expect(ev, ARRAY_LEN(ev), want, ARRAY_LEN(want));
}
END_TEST

static Suite *random_suite(void)
{
	Suite *s = suite_create("latency_parser_random");
	TCase *tc;

	tc = tcase_create("reference");
	tcase_add_test(tc, test_ref_poid);
	tcase_add_test(tc, test_ref_poid_net_of_irq);
	tcase_add_test(tc, test_ref_voluntary_schedule);
	tcase_add_test(tc, test_ref_paie_preemption);
	tcase_add_test(tc, test_ref_idle);
	suite_add_tcase(s, tc);

	tc = tcase_create("generator");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_gen_length_and_time);
	tcase_add_test(tc, test_gen_deterministic);
	tcase_add_test(tc, test_gen_preempt_alternates);
	tcase_add_test(tc, test_gen_irqs);
	tcase_add_test(tc, test_gen_coverage);
	tcase_add_test(tc, test_gen_remote);
	suite_add_tcase(s, tc);

	tc = tcase_create("parser vs reference");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_mismatch_detected);
	tcase_add_loop_test(tc, test_random_chunk, 0, 2 * CHUNKS);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(random_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
