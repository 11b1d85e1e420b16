// SPDX-License-Identifier: GPL-2.0
/*
 * test_parser_truth - the latency parser (built unchanged from the kernel
 * tree) and the rtla bound engine, end to end, against the ground truth of
 * a simulated CPU: the paper's Theorem 8 as a property test (lp_oracle.h).
 *
 * Every seed's sequence goes through the parser as the tracer feeds it;
 * the oracle checks that no variable is measured below a true window, that
 * every true interrupt has its record, and that every true scheduling
 * latency is at most the bound under each sound characterization. A
 * failure prints the seed and the first violation; tests/unit/lp_show
 * (make -C tests/unit show) prints the seed's events, records and truth.
 *
 * LP_TRUTH_SEEDS=<n> sets how many seeds run (default 1 000 000),
 * LP_TRUTH_FIRST=<s> the first one (default 1): the soak splits a range.
 * LP_TRUTH_STOP=1 ends a chunk at its first unsound seed (the mutants).
 * Runs in one process (CK_FORK=no): the last tests read what the chunks
 * counted, and the tightness is printed at the end.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_oracle.h"

#define MAX_EVENTS	1024
#define MIN_LEN		50
#define MAX_LEN		400
#define CHUNKS		20
#define DEFAULT_SEEDS	1000000UL

/* tightness, bound / worst true latency, in hundredths up to 100x */
#define RATIO_SLOTS	10001

static struct {
	unsigned long	seeds;
	unsigned long	wakeups;
	unsigned long	wakeups_checked;
	unsigned long	wakeups_excused;
	unsigned long	spans_checked;
	unsigned long	spans_excused;
	unsigned long	unchecked[LP_UNCHECKED_NR];
	unsigned long	desyncs;	/* the parser's, where the tracer is blind */
	unsigned long	path[LP_GEN_NR_PATHS];
	unsigned long	above[SLB_NR_MODELS];
	unsigned long	unbounded[SLB_NR_MODELS];
	unsigned long	ratio[SLB_NR_MODELS][RATIO_SLOTS];
	unsigned long	rated[SLB_NR_MODELS];
} stats;

static struct lp_sm_event events[MAX_EVENTS];
static struct lp_gen_truth truth;

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	unsigned long v = s ? strtoul(s, NULL, 0) : 0;

	return v ? v : def;
}

/* seq_len - the length a seed's sequence aims at: 50..400 */
static unsigned int seq_len(u64 seed)
{
	u64 s = seed ^ 0x7457;

	return MIN_LEN + lp_gen_rand(&s) % (MAX_LEN - MIN_LEN + 1);
}

/* judge - one seed, through generator, parser, engine and oracle */
static enum lp_oracle_verdict judge(u64 seed, struct lp_oracle *o)
{
	unsigned int n;

	n = lp_gen_sequence_truth(seed, seq_len(seed), events, MAX_EVENTS,
				  lp_gen_truth_features(seed), &truth);
	return lp_oracle_check(events, n, &truth, o);
}

static void count(const struct lp_oracle *o)
{
	unsigned int i;
	int m;

	stats.seeds++;
	stats.wakeups += o->wakeups;
	stats.wakeups_checked += o->wakeups_checked;
	stats.wakeups_excused += o->wakeups_excused;
	stats.spans_checked += o->spans_checked;
	stats.spans_excused += o->spans_excused;
	for (i = 0; i < LP_UNCHECKED_NR; i++)
		stats.unchecked[i] += o->unchecked[i];
	stats.desyncs += o->desyncs;
	for (i = 0; i < LP_GEN_NR_PATHS; i++)
		stats.path[i] += truth.path[i] ? 1 : 0;
	for (m = 0; m < SLB_NR_MODELS; m++) {
		u64 r;

		stats.above[m] += o->above[m];
		if (o->unbounded[m]) {
			stats.unbounded[m]++;
			continue;
		}
		if (!o->worst_latency)
			continue;
		r = o->bound[m] * 100 / o->worst_latency;
		stats.ratio[m][r < RATIO_SLOTS ? r : RATIO_SLOTS - 1]++;
		stats.rated[m]++;
	}
}

/* One chunk of the seeds per test: a failure names its first seed. */
START_TEST(test_truth_chunk)
{
	unsigned long seeds = env_ulong("LP_TRUTH_SEEDS", DEFAULT_SEEDS);
	unsigned long first = env_ulong("LP_TRUTH_FIRST", 1);
	unsigned long per = (seeds + CHUNKS - 1) / CHUNKS;
	unsigned long lo = first + _i * per, hi = lo + per, seed;
	unsigned long bad = 0, bad_seed = 0;
	bool stop_at_first = getenv("LP_TRUTH_STOP");
	char why[sizeof(((struct lp_oracle *)0)->why)] = "";
	struct lp_oracle o;

	if (hi > first + seeds)
		hi = first + seeds;
	for (seed = lo; seed < hi; seed++) {
		if (judge(seed, &o) != LP_ORACLE_SOUND && !bad++) {
			bad_seed = seed;
			memcpy(why, o.why, sizeof(why));
		}
		count(&o);
		if (bad && stop_at_first)
			break;
	}
	ck_assert_msg(!bad, "%lu of seeds %lu..%lu unsound; seed %lu: %s",
		      bad, lo, hi - 1, bad_seed, why);
}
END_TEST

/*
 * What was excused (the parser not synced, or a drop) stays a small part,
 * and the property was checked on many wakeups and windows: a parser that
 * never synced, or dropped everything, would pass the chunks vacuously.
 */
START_TEST(test_truth_not_vacuous)
{
	ck_assert_uint_gt(stats.seeds, 0);
	ck_assert_uint_ge(stats.wakeups_checked, 4 * stats.seeds);
	ck_assert_msg(stats.wakeups_excused * 100 <= 15 * stats.wakeups,
		      "%lu of %lu wakeups excused", stats.wakeups_excused,
		      stats.wakeups);
	ck_assert_msg(stats.spans_excused * 100 <=
		      15 * (stats.spans_checked + stats.spans_excused),
		      "%lu of %lu windows excused", stats.spans_excused,
		      stats.spans_checked + stats.spans_excused);
}
END_TEST

static const char * const unchecked_name[] = {
	[LP_UNCHECKED_EXCUSED] = "excused (the parser blind, where the tracer is)",
	[LP_UNCHECKED_SILENT_PAIE] = "PAIE from the idle loop's untraced unmask",
	[LP_UNCHECKED_LOST_NO_SE] = "after a lost event, no SE after it",
	[LP_UNCHECKED_UNTRACED_END] = "untraced end, no event after it",
};

/*
 * Most that may go unchecked, in thousandths of the true windows after
 * tracing began, per reason: a parser or an oracle that starts skipping
 * more fails here even where each seed passes. Measured on seeds 1 to
 * 100 000: 5.28%, 0.32%, 0.28% and 0.20%; the limits leave room above
 * that for other seed ranges, not for a new way to skip.
 */
static const unsigned int unchecked_limit[] = {
	[LP_UNCHECKED_EXCUSED] = 65,
	[LP_UNCHECKED_SILENT_PAIE] = 5,
	[LP_UNCHECKED_LOST_NO_SE] = 4,
	[LP_UNCHECKED_UNTRACED_END] = 3,
};

/* windows - every true window or interrupt that the checks looked at */
static unsigned long windows(void)
{
	unsigned long n = stats.spans_checked;
	unsigned int i;

	for (i = 0; i < LP_UNCHECKED_NR; i++)
		n += stats.unchecked[i];
	return n;
}

/* Each reason a window goes unchecked stays under its limit. */
START_TEST(test_truth_unchecked)
{
	unsigned long all = windows();

	ck_assert_uint_gt(all, 0);
	ck_assert_msg(stats.unchecked[_i] * 1000 <= unchecked_limit[_i] * all,
		      "%s: %lu of %lu windows unchecked, over %u.%u%%",
		      unchecked_name[_i], stats.unchecked[_i], all,
		      unchecked_limit[_i] / 10, unchecked_limit[_i] % 10);
}
END_TEST

/* The generator went through each kernel path the property must cover. */
START_TEST(test_truth_paths)
{
	static const char * const names[] = {
		[LP_PATH_MID_START] = "tracing starts in an IRQ or the scheduler",
		[LP_PATH_SILENT_IRQ] = "IRQ after an untraced unmask",
		[LP_PATH_THREAD_OFFLINE] = "OFFLINE from a task",
		[LP_PATH_NESTED_NMI] = "nested NMI",
		[LP_PATH_WOKEN_MASKED] = "woken with IRQs masked",
		[LP_PATH_PAIE_SECTION] = "a woken thread's PAIE across a section",
		[LP_PATH_EV7_MASKED] = "EV7 with IRQs masked, need_resched set",
		[LP_PATH_LONG] = "a stretch of over 100 us",
	};
	unsigned int i;

	for (i = 0; i < LP_GEN_NR_PATHS; i++)
		ck_assert_msg(stats.path[i] * 1000 >= stats.seeds,
			      "%s: in %lu of %lu sequences", names[i],
			      stats.path[i], stats.seeds);
}
END_TEST

/* The first seeds, alone: a quick failure before the long run */
START_TEST(test_truth_first_seeds)
{
	struct lp_oracle o;
	u64 seed;

	for (seed = 1; seed <= 200; seed++)
		ck_assert_msg(judge(seed, &o) == LP_ORACLE_SOUND,
			      "seeds 1..200 unsound; seed %llu: %s",
			      (unsigned long long)seed, o.why);
	ck_assert_uint_gt(o.wakeups_checked, 0);
	ck_assert_uint_gt(o.spans_checked, 0);
}
END_TEST

static unsigned long percentile(const unsigned long *slot, unsigned long n,
				unsigned int pct)
{
	unsigned long want = (n * pct + 99) / 100, sum = 0;
	unsigned long r;

	for (r = 0; r < RATIO_SLOTS; r++) {
		sum += slot[r];
		if (sum >= want && sum)
			return r;
	}
	return RATIO_SLOTS - 1;
}

/* print_tightness - the distribution, as TAP comments */
static void print_tightness(void)
{
	int m;

	unsigned int i;

	printf("# %lu sequences, %lu wakeups checked (%lu excused), %lu windows checked (%lu excused)\n",
	       stats.seeds, stats.wakeups_checked, stats.wakeups_excused,
	       stats.spans_checked, stats.spans_excused);
	printf("# windows unchecked, of %lu (the parser's desyncs in blind stretches: %lu):\n",
	       windows(), stats.desyncs);
	for (i = 0; i < LP_UNCHECKED_NR; i++)
		printf("#   %-50s %9lu %6.2f%% (limit %u.%u%%)\n",
		       unchecked_name[i], stats.unchecked[i],
		       windows() ? 100.0 * stats.unchecked[i] / windows() : 0,
		       unchecked_limit[i] / 10, unchecked_limit[i] % 10);
	printf("# bound / worst true latency of a sequence (x), per characterization:\n");
	printf("# %-22s %6s %6s %6s %6s %6s %10s %10s\n", "", "min", "p50",
	       "p90", "p99", "max", "unbounded", "below");
	for (m = 0; m < SLB_NR_MODELS; m++) {
		const unsigned long *slot = stats.ratio[m];
		unsigned long n = stats.rated[m];

		printf("# %-22s %6.2f %6.2f %6.2f %6.2f %6.2f %10lu %10lu\n",
		       slb_model_name(m), percentile(slot, n, 0) / 100.0,
		       percentile(slot, n, 50) / 100.0,
		       percentile(slot, n, 90) / 100.0,
		       percentile(slot, n, 99) / 100.0,
		       percentile(slot, n, 100) / 100.0, stats.unbounded[m],
		       stats.above[m]);
	}
	printf("# (below: true latencies above the bound; sound: sporadic and both sliding windows, asserted 0)\n");
}

static Suite *truth_suite(void)
{
	Suite *s = suite_create("latency_parser_truth");
	TCase *tc = tcase_create("ground truth");

	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, test_truth_first_seeds);
	tcase_add_loop_test(tc, test_truth_chunk, 0, CHUNKS);
	tcase_add_test(tc, test_truth_not_vacuous);
	tcase_add_loop_test(tc, test_truth_unchecked, 0, LP_UNCHECKED_NR);
	tcase_add_test(tc, test_truth_paths);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(truth_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	fflush(stdout);
	print_tightness();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
