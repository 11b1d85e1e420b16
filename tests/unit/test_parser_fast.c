// SPDX-License-Identifier: GPL-2.0
/*
 * test_parser_fast - the state machine's fast path parses as its general
 * path does.
 *
 * latency_parser_sm_event() takes the four toggles of a quiet CPU (synced,
 * outside the scheduler and the sleep, no IRQ in flight) a short way,
 * latency_parser_sm_toggle(), inlined into the probes, which claims to do
 * what latency_parser_sm_parse() does in that state. Nothing else checks that claim: the reference and the ground
 * truth judge the dispatcher as a whole, and a state the fast path forgets
 * to update (idle_unmask_unseen, once) only shows events later, as a drop
 * that does not come. So here the same events go, the same lazy way, to
 * two parsers: one through the dispatcher, one through
 * latency_parser_sm_parse() alone. After every event both must have written the same records and be
 * in the same state, field by field.
 *
 * The sequences are the generator's (valid, and lossy: a lost toggle is
 * where the paths parted) and every short sequence, valid or not, of a set
 * of thread and IRQ events from a few states of the parser: the fast path
 * must hold on any input, since a probe that misses an event makes any.
 *
 * The state machine's source is included, not linked: the test reads the
 * fast path's lp_quiet(), and the fields the general path keeps for it
 * (quiet) are compared like the others.
 *
 * LP_FAST_SEEDS=<n> changes how many generated sequences run.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_latency_parser_sm.c"

#include "lp_generator.h"
#include "lp_sm_run.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

#define MAX_EVENTS	1024
#define MIN_LEN		50
#define MAX_LEN		400
#define CHUNKS		10
#define DEFAULT_SEEDS	100000UL

static struct {
	unsigned long	events;
	unsigned long	fast;		/* taken by a fast path */
	unsigned long	fast_type[LP_SM_IRQ_ENABLE + 1];
	unsigned long	fast_return;	/* by lp_fast_irq_return() */
	unsigned long	fast_sched;	/* by latency_parser_sm_sched() */
	unsigned long	nodes;		/* targeted events parsed */
	unsigned long	nodes_fast;
} stats;

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	unsigned long v = s ? strtoul(s, NULL, 0) : 0;

	return v ? v : def;
}

/* takes_return - @ev is an IRQ's return that takes lp_fast_irq_return() */
static bool takes_return(const struct lp_sm *sm, const struct lp_sm_event *ev)
{
	return ev->type == LP_SM_IRQ_ENABLE && !lp_quiet(sm) &&
	       lp_irq_return_quiet(sm);
}

/* takes_sched - @ev is a task's SE or SX the fast path takes */
static bool takes_sched(const struct lp_sm *sm, const struct lp_sm_event *ev)
{
	if (!lp_quiet(sm) || (ev->flags & LP_SM_IDLE_TASK))
		return false;
	if (ev->type == LP_SM_SCHED_EXIT)
		return sm->sched;
	return ev->type == LP_SM_SCHED_ENTRY && !sm->sched && sm->ie && !sm->pe;
}

/* takes_handler - @ev is an IRQ handler's entry or exit the fast path takes */
static bool takes_handler(const struct lp_sm *sm, const struct lp_sm_event *ev)
{
	if (ev->type == LP_SM_IRQ_ENTRY)
		return lp_quiet(sm);
	return ev->type == LP_SM_IRQ_EXIT && sm->irq_nesting == 1 &&
	       !sm->offline && !sm->remote_resched;
}

/* takes_fast - latency_parser_sm_event() sends @ev a fast way */
static bool takes_fast(const struct lp_sm *sm, const struct lp_sm_event *ev)
{
	return (ev->type <= LP_SM_IRQ_ENABLE && lp_quiet(sm)) ||
	       takes_return(sm, ev) || takes_sched(sm, ev) ||
	       takes_handler(sm, ev);
}

/*
 * state_diff - the first field in which @a and @b differ, or NULL. A
 * window's start, interference and ip count only while it is open: a
 * closed one's are never read again, and the paths need not agree on
 * them. Everything else is read by some later event.
 */
static const char *state_diff(const struct lp_sm *a, const struct lp_sm *b)
{
#define FIELD(f)	do { if (a->f != b->f) return #f; } while (0)
#define WINDOW(w)	do {						\
		FIELD(w.open);						\
		if (a->w.open) {					\
			FIELD(w.start);					\
			FIELD(w.interference);				\
			FIELD(w.ip);					\
		}							\
	} while (0)
	FIELD(synced);
	FIELD(pe_known);
	FIELD(ie_known);
	FIELD(pe);
	FIELD(ie);
	FIELD(sched);
	FIELD(sleeping);
	FIELD(idle_call);
	FIELD(idle_call_known);
	FIELD(offline);
	WINDOW(poid);
	WINDOW(psd);
	WINDOW(dst);
	WINDOW(paie);
	/* pd is EV1's candidate whether open or not: SE copies it to PSD */
	FIELD(pd.open);
	FIELD(pd.start);
	FIELD(pd.interference);
	FIELD(pd.ip);
	FIELD(paie_resched);
	FIELD(pd_from_pe_ie);
	FIELD(pd_in_poid);
	FIELD(irq_off_pending);
	FIELD(irq_off_from_on);
	FIELD(idle_unmask_unseen);
	FIELD(irq_off_opened_poid);
	FIELD(irq_off_opened_dst);
	FIELD(irq_off_at);
	FIELD(irq_off_nmi);
	FIELD(irq_nesting);
	FIELD(irq_tail);
	FIELD(irq_measured);
	FIELD(irq_pe);
	FIELD(irq_tail_ip);
	FIELD(irq_start);
	FIELD(irq_start_nmi);
	FIELD(irq_time);
	FIELD(irq_kind);
	FIELD(irq_id);
	FIELD(nmi_nesting);
	FIELD(nmi_start);
	FIELD(nmi_time);
	FIELD(nmi_seq);
	FIELD(remote_resched);
	FIELD(quiet);
#undef WINDOW
#undef FIELD
	return NULL;
}

static bool same_record(const struct lp_sm_record *a,
			const struct lp_sm_record *b)
{
	return a->var == b->var && a->start == b->start &&
	       a->duration == b->duration && a->ip == b->ip &&
	       a->kind == b->kind && a->id == b->id;
}

static void describe_records(char *buf, size_t size, const char *who,
			     const struct lp_sm_record *r, unsigned int n)
{
	size_t len = strlen(buf);
	unsigned int i;

	len += snprintf(buf + len, size - len, " %s:", who);
	for (i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, " %s@%llu+%llu",
				lp_sm_var_name(r[i].var),
				(unsigned long long)r[i].start,
				(unsigned long long)r[i].duration);
	if (!n && len < size)
		snprintf(buf + len, size - len, " none");
}

/* stale_quiet - @sm's quiet is not what its fields say (it is a cache) */
static bool stale_quiet(const struct lp_sm *sm)
{
	return sm->quiet != (sm->synced && !sm->idle_call &&
			     !sm->irq_nesting && !sm->irq_tail);
}

/*
 * step - @ev through @fast by the dispatcher and through @general by
 * latency_parser_sm_parse(); false, with what differs in @why, if they part
 */
static bool step(struct lp_sm *fast, struct lp_sm *general,
		 const struct lp_sm_event *ev, bool *took_fast,
		 char *why, size_t size)
{
	struct lp_sm_record rf[LP_SM_MAX_RECORDS], rg[LP_SM_MAX_RECORDS];
	unsigned int nf, ng, i;
	const char *field;

	*took_fast = takes_fast(fast, ev);
	nf = lp_sm_event_lazy_via(latency_parser_sm_event, fast, ev, rf, NULL);
	ng = lp_sm_event_lazy_via(latency_parser_sm_parse, general, ev, rg, NULL);
	for (i = 0; i < nf && i < ng && same_record(&rf[i], &rg[i]); i++)
		;
	if (i < nf || i < ng) {
		snprintf(why, size, "%s (%s way) at %llu: records differ,",
			 lp_sm_type_name(ev->type), *took_fast ? "fast" : "general",
			 (unsigned long long)ev->time);
		describe_records(why, size, "dispatcher", rf, nf);
		describe_records(why, size, "general", rg, ng);
		return false;
	}
	/*
	 * The fast path trusts quiet: a general path that let it go stale
	 * would send toggles the fast way in a state it does not handle.
	 */
	if (stale_quiet(fast) || stale_quiet(general)) {
		snprintf(why, size, "%s at %llu: quiet is %d, the state says %d",
			 lp_sm_type_name(ev->type), (unsigned long long)ev->time,
			 stale_quiet(fast) ? fast->quiet : general->quiet,
			 stale_quiet(fast) ? !fast->quiet : !general->quiet);
		return false;
	}
	field = state_diff(fast, general);
	if (field) {
		snprintf(why, size, "%s (%s way) at %llu: the state differs in %s",
			 lp_sm_type_name(ev->type), *took_fast ? "fast" : "general",
			 (unsigned long long)ev->time, field);
		return false;
	}
	return true;
}

/* ---- the generator's sequences ---- */

static struct lp_sm_event events[MAX_EVENTS];

static unsigned int seq_len(u64 seed)
{
	u64 s = seed ^ 0xfa57;

	return MIN_LEN + lp_gen_rand(&s) % (MAX_LEN - MIN_LEN + 1);
}

/*
 * run_seed - one generated sequence through both parsers. Half the seeds
 * lose an event: the fast path once parted from the general one only
 * after a lost irq_enable.
 */
static bool run_seed(u64 seed, char *why, size_t size)
{
	unsigned int features = LP_GEN_ALL | (seed % 2 ? LP_GEN_LOSSY : 0);
	struct lp_sm fast, general;
	unsigned int n, i;
	bool took_fast;
	char what[200];

	n = lp_gen_sequence_truth(seed, seq_len(seed), events, MAX_EVENTS,
				  features, NULL);
	memset(&fast, 0, sizeof(fast));
	memset(&general, 0, sizeof(general));
	for (i = 0; i < n; i++) {
		stats.fast_return += takes_return(&fast, &events[i]);
		stats.fast_sched += takes_sched(&fast, &events[i]);
		if (!step(&fast, &general, &events[i], &took_fast, what,
			  sizeof(what))) {
			snprintf(why, size, "event %u of %u: %s", i, n, what);
			return false;
		}
		stats.events++;
		if (took_fast) {
			stats.fast++;
			if (events[i].type <= LP_SM_IRQ_ENABLE)
				stats.fast_type[events[i].type]++;
		}
	}
	return true;
}

START_TEST(test_fast_generated)
{
	unsigned long seeds = env_ulong("LP_FAST_SEEDS", DEFAULT_SEEDS);
	unsigned long per = (seeds + CHUNKS - 1) / CHUNKS;
	unsigned long lo = 1 + _i * per, hi = lo + per, seed;
	unsigned long bad = 0, bad_seed = 0;
	char why[400] = "", first[400] = "";

	if (hi > 1 + seeds)
		hi = 1 + seeds;
	for (seed = lo; seed < hi; seed++) {
		if (!run_seed(seed, why, sizeof(why)) && !bad++) {
			bad_seed = seed;
			memcpy(first, why, sizeof(first));
		}
	}
	ck_assert_msg(!bad, "%lu of seeds %lu..%lu differ; seed %lu, %s",
		      bad, lo, hi - 1, bad_seed, first);
}
END_TEST

/* ---- every short sequence from a few states ---- */

struct symbol {
	u32 type;
	u32 flags;
};

/*
 * The alphabet: each toggle bare, with need_resched, from the idle task,
 * and with the hardware masked (an IRQ's tail); the scheduler's and the
 * idle loop's events with the flags that change what they mean; IRQs and
 * hotplug, which leave and re-enter the quiet state; and a remote wakeup's
 * post, which the CPU is not quiet with (the next toggle must take it, the
 * general way). NMIs only touch their own fields, which the fast path
 * never reads.
 */
static const struct symbol alphabet[] = {
	{ LP_SM_PREEMPT_DISABLE, 0 },
	{ LP_SM_PREEMPT_DISABLE, LP_SM_NEED_RESCHED },
	{ LP_SM_PREEMPT_DISABLE, LP_SM_IDLE_TASK },
	{ LP_SM_PREEMPT_DISABLE, LP_SM_HW_IRQS_OFF },
	{ LP_SM_PREEMPT_ENABLE, 0 },
	{ LP_SM_PREEMPT_ENABLE, LP_SM_NEED_RESCHED },
	{ LP_SM_PREEMPT_ENABLE, LP_SM_IDLE_TASK },
	{ LP_SM_PREEMPT_ENABLE, LP_SM_HW_IRQS_OFF },
	{ LP_SM_IRQ_DISABLE, 0 },
	{ LP_SM_IRQ_DISABLE, LP_SM_NEED_RESCHED },
	{ LP_SM_IRQ_DISABLE, LP_SM_IDLE_TASK },
	{ LP_SM_IRQ_ENABLE, 0 },
	{ LP_SM_IRQ_ENABLE, LP_SM_NEED_RESCHED },
	{ LP_SM_IRQ_ENABLE, LP_SM_IDLE_TASK },
	{ LP_SM_IRQ_ENABLE, LP_SM_IDLE_TASK | LP_SM_NEED_RESCHED },
	{ LP_SM_SCHED_ENTRY, 0 },
	{ LP_SM_SCHED_ENTRY, LP_SM_PREEMPT },
	{ LP_SM_SCHED_ENTRY, LP_SM_IDLE_TASK },
	{ LP_SM_SCHED_EXIT, 0 },
	{ LP_SM_SCHED_EXIT, LP_SM_IDLE_TASK },
	{ LP_SM_IDLE_ENTER, LP_SM_IDLE_TASK },
	{ LP_SM_IDLE_EXIT, LP_SM_IDLE_TASK },
	{ LP_SM_IRQ_ENTRY, 0 },
	{ LP_SM_IRQ_EXIT, 0 },
	{ LP_SM_CPU_OFFLINE, 0 },
	{ LP_SM_CPU_ONLINE, 0 },
	{ LP_SM_REMOTE_RESCHED, 0 },
};

#define T_STEP	1000

static struct lp_sm_event make_event(unsigned int sym, unsigned int at)
{
	return (struct lp_sm_event){
		.time = (u64)(at + 1) * T_STEP,
		.ip = 0x1000 + sym * 0x10,
		.type = alphabet[sym].type,
		.flags = alphabet[sym].flags,
		.kind = LATENCY_PARSER_IRQ,
		.id = 7,
	};
}

/* A state to explore from: the events that lead there from a new parser. */
struct prefix {
	const char		*name;
	unsigned int		depth;	/* how long the sequences after it are */
	unsigned int		n;
	unsigned int		sym[8];
};

/* symbol indices into alphabet[], for the prefixes */
enum {
	S_PD = 0, S_PD_NR = 1, S_PE = 4, S_ID = 8, S_IE = 11, S_IE_NR = 12,
	S_SE = 15, S_IDLE_IN = 20, S_IDLE_OUT = 21, S_IRQ_IN = 22,
};

static const struct prefix prefixes[] = {
	{ "a new parser", 4, 0, { 0 } },
	/* PD, ID, PE, IE: both states told, then pe_ie: synced */
	{ "synced in pe_ie", 5, 4, { S_PD, S_ID, S_PE, S_IE } },
	{ "synced, a POID open", 4, 5, { S_PD, S_ID, S_PE, S_IE, S_PD } },
	{ "synced, a PAIE with need_resched", 4, 6,
	  { S_PD, S_ID, S_PE, S_IE, S_ID, S_IE_NR } },
	{ "awake after the idle's sleep", 5, 6,
	  { S_PD, S_ID, S_PE, S_IE, S_IDLE_IN, S_IDLE_OUT } },
	{ "synced, in the scheduler", 4, 6,
	  { S_PD, S_ID, S_PE, S_IE, S_PD_NR, S_SE } },
	{ "synced, an IRQ in flight", 4, 6,
	  { S_PD, S_ID, S_PE, S_IE, S_ID, S_IRQ_IN } },
};

static struct {
	unsigned int	path[16];
	unsigned int	len;
	bool		failed;
	char		why[400];
	unsigned int	failed_path[16];
	unsigned int	failed_len;
} dfs;

static void explore(const struct lp_sm *fast, const struct lp_sm *general,
		    unsigned int at, unsigned int left)
{
	unsigned int s;

	for (s = 0; s < ARRAY_LEN(alphabet) && !dfs.failed; s++) {
		struct lp_sm f = *fast, g = *general;
		struct lp_sm_event ev = make_event(s, at);
		bool took_fast;

		dfs.path[dfs.len++] = s;
		stats.nodes++;
		if (!step(&f, &g, &ev, &took_fast, dfs.why, sizeof(dfs.why))) {
			dfs.failed = true;
			memcpy(dfs.failed_path, dfs.path, sizeof(dfs.path));
			dfs.failed_len = dfs.len;
		} else {
			stats.nodes_fast += took_fast;
			if (left > 1)
				explore(&f, &g, at + 1, left - 1);
		}
		dfs.len--;
	}
}

START_TEST(test_fast_targeted)
{
	const struct prefix *p = &prefixes[_i];
	struct lp_sm fast, general;
	char seq[400] = "";
	size_t len = 0;
	unsigned int i;
	bool took_fast;

	memset(&fast, 0, sizeof(fast));
	memset(&general, 0, sizeof(general));
	memset(&dfs, 0, sizeof(dfs));
	for (i = 0; i < p->n; i++) {
		struct lp_sm_event ev = make_event(p->sym[i], i);

		ck_assert_msg(step(&fast, &general, &ev, &took_fast, dfs.why,
				   sizeof(dfs.why)),
			      "%s, prefix event %u: %s", p->name, i, dfs.why);
		dfs.path[dfs.len++] = p->sym[i];
	}
	explore(&fast, &general, p->n, p->depth);
	if (dfs.failed) {
		for (i = 0; i < dfs.failed_len && len < sizeof(seq); i++) {
			const struct symbol *sy = &alphabet[dfs.failed_path[i]];

			len += snprintf(seq + len, sizeof(seq) - len, "%s%s%s%s%s ",
					lp_sm_type_name(sy->type),
					sy->flags & LP_SM_NEED_RESCHED ? "+NR" : "",
					sy->flags & LP_SM_IDLE_TASK ? "+IDLE" : "",
					sy->flags & LP_SM_HW_IRQS_OFF ? "+HW_OFF" : "",
					sy->flags & LP_SM_PREEMPT ? "+PREEMPT" : "");
		}
	}
	ck_assert_msg(!dfs.failed, "from %s: %s; events: %s", p->name, dfs.why,
		      seq);
}
END_TEST

/*
 * The comparison means something only where the fast path runs: each of
 * its four toggles took it, on a good share of the generated events.
 */
START_TEST(test_fast_not_vacuous)
{
	unsigned int t;

	ck_assert_uint_gt(stats.events, 0);
	ck_assert_msg(stats.fast * 10 >= stats.events,
		      "the fast path took %lu of %lu events", stats.fast,
		      stats.events);
	for (t = 0; t <= LP_SM_IRQ_ENABLE; t++)
		ck_assert_msg(stats.fast_type[t] * 100 >= stats.fast,
			      "%s took the fast path %lu times of %lu",
			      lp_sm_type_name(t), stats.fast_type[t], stats.fast);
	ck_assert_msg(stats.fast_return * 100 >= stats.fast,
		      "an IRQ's return took the fast path %lu times of %lu",
		      stats.fast_return, stats.fast);
	ck_assert_msg(stats.fast_sched * 100 >= stats.fast,
		      "a task's SE or SX took the fast path %lu times of %lu",
		      stats.fast_sched, stats.fast);
	ck_assert_msg(stats.nodes_fast * 10 >= stats.nodes,
		      "the targeted sequences took the fast path %lu times in %lu events",
		      stats.nodes_fast, stats.nodes);
}
END_TEST

static Suite *fast_suite(void)
{
	Suite *s = suite_create("latency_parser_fast_path");
	TCase *tc = tcase_create("fast equals general");

	tcase_set_timeout(tc, 0);
	tcase_add_loop_test(tc, test_fast_targeted, 0, ARRAY_LEN(prefixes));
	tcase_add_loop_test(tc, test_fast_generated, 0, CHUNKS);
	tcase_add_test(tc, test_fast_not_vacuous);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fast_suite());
	int failed;

	/* one process: the last test reads what the others counted */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("# %lu generated events, %lu by the fast path (%lu IRQ returns, %lu SE or SX); %lu targeted events, %lu by the fast path\n",
	       stats.events, stats.fast, stats.fast_return, stats.fast_sched,
	       stats.nodes, stats.nodes_fast);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
