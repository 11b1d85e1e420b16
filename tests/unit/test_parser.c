// SPDX-License-Identifier: GPL-2.0
/*
 * test_parser - the latency parser's state machine, built unchanged from the
 * kernel tree, fed the named event sequences of
 * kernel/trace/trace_latency_parser_sm_cases.h (the KUnit suite runs the
 * same table in the kernel). Each case's expected records come from the
 * paper's definitions; a failure prints both lists. The reference
 * interpreter (lp_reference.c), which the random comparison takes as the
 * spec, runs the same cases.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_reference.h"
#include "lp_sm_run.h"
#include "trace_latency_parser_sm_cases.h"

#define MAX_RECORDS 256
#define MAX_EVENTS 256

static void print_records(const char *what, const struct lp_sm_record *r,
			  unsigned int n)
{
	unsigned int i;

	fprintf(stderr, "  %s:\n", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, "    %-7s start %llu duration %llu kind %u id %u\n",
			lp_sm_var_name(r[i].var),
			(unsigned long long)r[i].start,
			(unsigned long long)r[i].duration, r[i].kind, r[i].id);
}

static bool same_record(const struct lp_sm_record *a,
			const struct lp_sm_record *b)
{
	return a->var == b->var && a->start == b->start &&
	       a->duration == b->duration && a->ip == b->ip &&
	       a->kind == b->kind && a->id == b->id;
}

/* case_events - a case's prefix, then its events; returns how many */
static unsigned int case_events(const struct lp_sm_case *tc,
				struct lp_sm_event *ev)
{
	const struct lp_sm_event *prefix;
	unsigned int nr_prefix;

	prefix = lpc_prefix_events(tc, &nr_prefix);
	ck_assert_uint_le(nr_prefix + tc->nr_events, MAX_EVENTS);
	memcpy(ev, prefix, nr_prefix * sizeof(*ev));
	memcpy(ev + nr_prefix, tc->events, tc->nr_events * sizeof(*ev));
	return nr_prefix + tc->nr_events;
}

/* run_case - a case through a fresh parser, stamped or @lazy as the tracer */
static unsigned int run_case(const struct lp_sm_case *tc,
			     struct lp_sm_record *out, bool lazy)
{
	struct lp_sm_event ev[MAX_EVENTS];
	unsigned int n = case_events(tc, ev);

	if (lazy)
		return lp_sm_run_lazy(ev, n, out, MAX_RECORDS, NULL);
	return lp_sm_run(ev, n, out, MAX_RECORDS);
}

/* check_records - @who's @n records for case @tc against the paper's */
static void check_records(const struct lp_sm_case *tc,
			  const struct lp_sm_record *got, unsigned int n,
			  const char *who)
{
	unsigned int i;
	bool same;

	same = n == tc->nr_expect;
	for (i = 0; same && i < n; i++)
		same = same_record(&got[i], &tc->expect[i]);
	if (!same) {
		fprintf(stderr, "case %s (%s):\n", tc->name, who);
		print_records("expected", tc->expect, tc->nr_expect);
		print_records(who, got, n);
	}
	ck_assert_msg(same, "case %s: the %s's records differ from the paper's",
		      tc->name, who);
}

static void check_case(const struct lp_sm_case *tc, bool lazy)
{
	struct lp_sm_record got[MAX_RECORDS];
	unsigned int n;

	n = run_case(tc, got, lazy);
	check_records(tc, got, n, lazy ? "parser, lazy clock" : "parser");
}

START_TEST(test_case)
{
	check_case(&lp_sm_cases[_i], false);
}
END_TEST

/* The same cases, each event's time given only when the parser asks. */
START_TEST(test_case_lazy)
{
	check_case(&lp_sm_cases[_i], true);
}
END_TEST

/*
 * The reference interpreter on the same cases, from the same prefix: the
 * random comparison (parser_random.t) holds the parser to it, so it must
 * hold to the paper's records too.
 */
START_TEST(test_case_reference)
{
	const struct lp_sm_case *tc = &lp_sm_cases[_i];
	struct lp_sm_record got[MAX_RECORDS];
	struct lp_sm_event ev[MAX_EVENTS];
	unsigned int n = case_events(tc, ev);

	n = lp_ref_run(ev, n, got, MAX_RECORDS);
	ck_assert_uint_le(n, MAX_RECORDS);
	check_records(tc, got, n, "reference");
}
END_TEST

/*
 * Only the events that open or close something read the clock. The case
 * "lazy_clock" (trace_latency_parser_sm_cases.h) is a task that takes an
 * irqsave lock, a preempt_disable/enable nested in it, and a context switch.
 */
/*
 * clock_reads_of - run case @name lazily; @reads gets, per event after the
 * case's prefix, how often it read the clock. Returns how many events.
 */
static unsigned int clock_reads_of(const char *name, unsigned int *reads)
{
	unsigned int i, n, nr_prefix, all[MAX_EVENTS];
	struct lp_sm_record got[MAX_RECORDS];
	struct lp_sm_event ev[MAX_EVENTS];

	for (i = 0; i < ARRAY_SIZE(lp_sm_cases); i++) {
		if (!strcmp(lp_sm_cases[i].name, name))
			break;
	}
	ck_assert_msg(i < ARRAY_SIZE(lp_sm_cases), "no case %s", name);
	n = case_events(&lp_sm_cases[i], ev);
	lp_sm_run_lazy(ev, n, got, MAX_RECORDS, all);
	lpc_prefix_events(&lp_sm_cases[i], &nr_prefix);
	memcpy(reads, all + nr_prefix, (n - nr_prefix) * sizeof(*reads));
	return n - nr_prefix;
}

START_TEST(test_clock_reads)
{
	/* per event of the case, after its prefix: 1 if it read the clock */
	static const unsigned int expect[] = {
		1,	/* ID from pe_ie: a POID opens (or an IRQ starts) */
		1,	/* PD with IRQs off: maybe EV1, its time is kept */
		0,	/* PE with IRQs off: nothing opens or closes */
		1,	/* IE back into pe_ie: the POID closes */
		1,	/* PD from pe_ie: a POID opens, maybe EV1 */
		0,	/* SE of a task: its windows end at EV1's time */
		0,	/* SX of a task: EV7 is the PE after it */
		1,	/* PE, EV7: the PSD closes */
	};
	unsigned int reads[MAX_EVENTS], n, i;

	n = clock_reads_of("lazy_clock", reads);
	ck_assert_uint_eq(n, ARRAY_SIZE(expect));
	for (i = 0; i < n; i++)
		ck_assert_msg(reads[i] == expect[i],
			      "event %u: %u clock reads, expected %u", i,
			      reads[i], expect[i]);
}
END_TEST

/* The runner itself: a case with a wrong expectation must fail. */
START_TEST(test_mismatch_detected)
{
	struct lp_sm_record got[MAX_RECORDS];
	const struct lp_sm_case *tc = &lp_sm_cases[0];
	struct lp_sm_record wrong;
	unsigned int n;

	n = run_case(tc, got, false);
	ck_assert_uint_eq(n, tc->nr_expect);
	wrong = tc->expect[n - 1];
	wrong.duration -= 1;
	ck_assert(!same_record(&got[n - 1], &wrong));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("latency_parser_sm");
	TCase *tc = tcase_create("named sequences");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_case, 0, ARRAY_SIZE(lp_sm_cases));
	tcase_add_loop_test(tc, test_case_lazy, 0, ARRAY_SIZE(lp_sm_cases));
	tcase_add_loop_test(tc, test_case_reference, 0,
			    ARRAY_SIZE(lp_sm_cases));
	tcase_add_test(tc, test_clock_reads);
	tcase_add_test(tc, test_mismatch_detected);
	suite_add_tcase(s, tc);

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
