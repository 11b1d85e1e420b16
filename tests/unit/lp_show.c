// SPDX-License-Identifier: GPL-2.0
/*
 * lp_show - one seed of the ground-truth test, for a developer: its events
 * with the parser's state after each and the records each one emitted,
 * then the truth (windows, interrupts, wakeups) and the oracle's verdict.
 *
 *	lp_show SEED [FROM_NS [TO_NS]]
 *
 * The sequence is the one test_parser_truth judges for SEED, under the
 * classic profile, or the realistic one with LP_TRUTH_PROFILE=realistic.
 * LP_SHOW_FEATURES=<bits> gives the LP_GEN_* bits outright (to try one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_oracle.h"
#include "lp_sm_run.h"

#define MAX_EVENTS	1024

static struct lp_sm_event events[MAX_EVENTS];
static struct lp_gen_truth truth;

/* as test_parser_truth.c */
static unsigned int seq_len(u64 seed)
{
	u64 s = seed ^ 0x7457;

	return 50 + lp_gen_rand(&s) % 351;
}

static const char *flag(u32 flags, u32 bit, const char *name)
{
	return flags & bit ? name : "";
}

int main(int argc, char **argv)
{
	struct lp_sm_record rec[LP_SM_MAX_RECORDS];
	struct lp_sm sm = { 0 };
	struct lp_oracle o;
	u64 seed, from = 0, to = ~0ULL;
	unsigned int n, i, j, k, features;
	const char *profile;
	int m;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SEED [FROM_NS [TO_NS]]\n", argv[0]);
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	if (argc > 2)
		from = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		to = strtoull(argv[3], NULL, 0);

	profile = getenv("LP_TRUTH_PROFILE");
	features = lp_gen_profile_features(seed, profile &&
					   !strcmp(profile, "realistic") ?
					   LP_PROFILE_REALISTIC :
					   LP_PROFILE_CLASSIC);
	if (getenv("LP_SHOW_FEATURES"))
		features = strtoul(getenv("LP_SHOW_FEATURES"), NULL, 0);
	n = lp_gen_sequence_truth(seed, seq_len(seed), events, MAX_EVENTS,
				  features, &truth);
	for (i = 0; i < n; i++) {
		const struct lp_sm_event *e = &events[i];

		k = lp_sm_event_lazy(&sm, e, rec, NULL);
		if (e->time < from || e->time > to)
			continue;
		printf("[%4u] %10llu %-15s ip %#6lx%s%s%s%s  synced %d pe %d/%d ie %d/%d sched %d\n",
		       i, (unsigned long long)e->time, lp_sm_type_name(e->type),
		       e->ip & 0xffff, flag(e->flags, LP_SM_HW_IRQS_OFF, " HW"),
		       flag(e->flags, LP_SM_NEED_RESCHED, " NR"),
		       flag(e->flags, LP_SM_IDLE_TASK, " IDLE"),
		       flag(e->flags, LP_SM_PREEMPT, " PREEMPT"), sm.synced,
		       sm.pe_known, sm.pe, sm.ie_known, sm.ie, sm.sched);
		for (j = 0; j < k; j++)
			printf("         -> %-7s start %llu duration %llu\n",
			       lp_sm_var_name(rec[j].var),
			       (unsigned long long)rec[j].start,
			       (unsigned long long)rec[j].duration);
	}

	printf("truth (tracing from %llu):\n",
	       (unsigned long long)truth.trace_start);
	for (i = 0; i < truth.nr_spans; i++) {
		const struct lp_gen_span *s = &truth.span[i];

		if (s->end >= from && s->start <= to)
			printf("  %-7s [%llu, %llu]%s\n", lp_sm_var_name(s->var),
			       (unsigned long long)s->start,
			       (unsigned long long)s->end,
			       s->silent ? " (an untraced bound)" : "");
	}
	for (i = 0; i < truth.nr_blind; i++) {
		static const char * const why[] = {
			[LP_BLIND_START] = "tracing starts",
			[LP_BLIND_LOST] = "an event lost",
			[LP_BLIND_OFFLINE] = "the CPU offline",
		};
		const struct lp_gen_blind *b = &truth.blind[i];

		/* where the parser may be blind: its desyncs are checked here */
		printf("  blind   [%llu, %llu]: %s\n",
		       (unsigned long long)b->start, (unsigned long long)b->end,
		       b->why < LP_BLIND_NR_WHY ? why[b->why] : "?");
	}
	for (i = 0; i < truth.nr_wakeups; i++) {
		const struct lp_gen_wakeup *w = &truth.wakeup[i];

		if (w->run >= from && w->ready <= to)
			printf("  wakeup  ready %llu, runs %llu (%llu ns), delayed from %llu\n",
			       (unsigned long long)w->ready,
			       (unsigned long long)w->run,
			       (unsigned long long)(w->run - w->ready),
			       (unsigned long long)w->chain);
	}

	lp_oracle_check(events, n, &truth, &o);
	printf("verdict: %s\n", o.verdict == LP_ORACLE_SOUND ? "sound" : o.why);
	for (m = 0; m < SLB_NR_MODELS; m++)
		printf("  %-22s %s%llu ns\n", slb_model_name(m),
		       o.unbounded[m] ? "unbounded, " : "",
		       (unsigned long long)o.bound[m]);
	return o.verdict == LP_ORACLE_SOUND ? 0 : 1;
}
