// SPDX-License-Identifier: GPL-2.0
/*
 * test_parser - the latency parser's state machine, built unchanged from the
 * kernel tree, fed the named event sequences of
 * kernel/trace/trace_latency_parser_sm_cases.h (the KUnit suite runs the
 * same table in the kernel). Each case's expected records come from the
 * paper's definitions; a failure prints both lists.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* run_case - a case's prefix, then its events, through a fresh parser */
static unsigned int run_case(const struct lp_sm_case *tc,
			     struct lp_sm_record *out)
{
	struct lp_sm_event ev[MAX_EVENTS];
	const struct lp_sm_event *prefix;
	unsigned int nr_prefix;

	prefix = lpc_prefix_events(tc, &nr_prefix);
	ck_assert_uint_le(nr_prefix + tc->nr_events, MAX_EVENTS);
	memcpy(ev, prefix, nr_prefix * sizeof(*ev));
	memcpy(ev + nr_prefix, tc->events, tc->nr_events * sizeof(*ev));
	return lp_sm_run(ev, nr_prefix + tc->nr_events, out, MAX_RECORDS);
}

START_TEST(test_case)
{
	const struct lp_sm_case *tc = &lp_sm_cases[_i];
	struct lp_sm_record got[MAX_RECORDS];
	unsigned int n, i;
	bool same;

	n = run_case(tc, got);
	same = n == tc->nr_expect;
	for (i = 0; same && i < n; i++)
		same = same_record(&got[i], &tc->expect[i]);
	if (!same) {
		fprintf(stderr, "case %s:\n", tc->name);
		print_records("expected", tc->expect, tc->nr_expect);
		print_records("parsed", got, n);
	}
	ck_assert_msg(same, "case %s: the parser's records differ from the paper's",
		      tc->name);
}
END_TEST

/* The runner itself: a case with a wrong expectation must fail. */
START_TEST(test_mismatch_detected)
{
	struct lp_sm_record got[MAX_RECORDS];
	const struct lp_sm_case *tc = &lp_sm_cases[0];
	struct lp_sm_record wrong;
	unsigned int n;

	n = run_case(tc, got);
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
	tcase_add_test(tc, test_mismatch_detected);
	suite_add_tcase(s, tc);

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
