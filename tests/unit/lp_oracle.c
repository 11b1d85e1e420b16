// SPDX-License-Identifier: GPL-2.0
/*
 * lp_oracle - the parser and the bound engine against the ground truth
 * (see lp_oracle.h).
 *
 * A true window's value is its length less the time that interrupts (IRQs
 * and NMIs, from the truth) took inside it: the paper's variables are
 * interference-free durations. A true latency is not: it is the wall time
 * from the wakeup to EV7, interrupts included, which is what the bound
 * must cover.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_oracle.h"
#include "lp_sm_run.h"

#define MAX_RECORDS	8192
#define MAX_BUSY	(2 * LP_GEN_MAX_SPANS)
#define MAX_BLIND	512
#define MAX_EVENTS	8192

struct interval {
	u64 start;
	u64 end;
};

/* What one check works with; one at a time, so it is static. */
static struct {
	struct lp_sm_record	rec[MAX_RECORDS];
	u64			rec_at[MAX_RECORDS];	/* its event's time */
	unsigned int		nr_rec;
	struct interval		busy[MAX_BUSY];	/* merged, sorted */
	u64			busy_before[MAX_BUSY];	/* prefix sums */
	unsigned int		nr_busy;
	struct interval		blind[MAX_BLIND];
	unsigned int		nr_blind;
	/* blind[0..nr_unsynced): not synced; the rest: losses a drop told */
	unsigned int		nr_unsynced;
	struct interval		drop[MAX_RECORDS];	/* what each spans */
	unsigned int		nr_drop;
	u64			close_time[MAX_EVENTS];
	unsigned int		nr_close;
	u64			sched_time[MAX_EVENTS];	/* SE, OFFLINE */
	unsigned int		nr_sched;
	struct lp_sm_record	intr[MAX_RECORDS];	/* by start */
	unsigned int		nr_intr;
	u64			latency[LP_GEN_MAX_WAKEUPS];	/* checked */
	unsigned int		nr_latency;
} w;

bool lp_oracle_latency_only;

bool lp_oracle_sound_model(enum slb_model model)
{
	return model == SLB_SPORADIC || model == SLB_SLIDING_WINDOW ||
	       model == SLB_SLIDING_WINDOW_OWCET;
}

/* ---- the parser, as the tracer drives it, and when it is blind ---- */

/*
 * may_close - the events that can end a window: the thread back in pe_ie,
 * the scheduler, the sleep, the CPU going away
 */
static bool may_close(u32 type)
{
	return type == LP_SM_PREEMPT_ENABLE || type == LP_SM_IRQ_ENABLE ||
	       type == LP_SM_SCHED_ENTRY || type == LP_SM_IDLE_ENTER ||
	       type == LP_SM_CPU_OFFLINE;
}

static void run_parser(const struct lp_sm_event *ev, unsigned int n)
{
	struct lp_sm_record rec[LP_SM_MAX_RECORDS];
	struct lp_sm sm;
	bool seeing = false;
	u64 blind_from = 0;
	unsigned int i, j, k;

	memset(&sm, 0, sizeof(sm));
	w.nr_close = 0;
	w.nr_sched = 0;
	w.nr_rec = 0;
	w.nr_blind = 0;
	w.nr_drop = 0;
	for (i = 0; i < n; i++) {
		k = lp_sm_event_lazy(&sm, &ev[i], rec, NULL);
		if (may_close(ev[i].type) && w.nr_close < MAX_EVENTS)
			w.close_time[w.nr_close++] = ev[i].time;
		if ((ev[i].type == LP_SM_SCHED_ENTRY ||
		     ev[i].type == LP_SM_CPU_OFFLINE) && w.nr_sched < MAX_EVENTS)
			w.sched_time[w.nr_sched++] = ev[i].time;
		for (j = 0; j < k; j++) {
			if (w.nr_rec < MAX_RECORDS) {
				w.rec_at[w.nr_rec] = ev[i].time;
				w.rec[w.nr_rec++] = rec[j];
			}
			if (rec[j].var == LP_DROPPED && w.nr_drop < MAX_RECORDS)
				w.drop[w.nr_drop++] = (struct interval){
					rec[j].start,
					rec[j].start + rec[j].duration };
		}
		/* the parser measures only while synced and online */
		if (seeing != (sm.synced && !sm.offline)) {
			seeing = !seeing;
			if (!seeing) {
				blind_from = ev[i].time;
			} else if (w.nr_blind < MAX_BLIND) {
				w.blind[w.nr_blind++] = (struct interval){
					blind_from, ev[i].time };
			}
		}
	}
	if (!seeing && w.nr_blind < MAX_BLIND)
		w.blind[w.nr_blind++] = (struct interval){ blind_from, ~0ULL };
	w.nr_unsynced = w.nr_blind;
}

static const struct lp_gen_blind *truly_blind(const struct lp_gen_truth *t,
					      u64 start, u64 end);

/*
 * lost_blind - a lost event leaves the parser blind from its time to the
 * drop that tells it; if no drop comes, the parser missed it silently and
 * nothing is excused. The drop that tells it comes while the tracer is
 * still blind from the loss: a later one (an OFFLINE's, after the parser
 * went on without noticing) has a cause of its own, and a loss it were
 * paired with would excuse, and judge as a desync, all that lies between.
 */
static void lost_blind(const struct lp_gen_truth *t)
{
	const struct lp_gen_blind *b;
	unsigned int i, j;

	for (i = 0; i < t->nr_lost; i++) {
		for (j = 0; j < w.nr_drop && w.drop[j].end < t->lost[i]; j++)
			;
		b = truly_blind(t, t->lost[i], t->lost[i]);
		if (j < w.nr_drop && b && w.drop[j].end <= b->end &&
		    w.nr_blind < MAX_BLIND)
			w.blind[w.nr_blind++] = (struct interval){
				t->lost[i], w.drop[j].end };
	}
}

/* first_at - the first of @n sorted times at or after @t; 0 if none */
static u64 first_at(const u64 *time, unsigned int n, u64 t)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (time[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? time[lo] : 0;
}

/*
 * next_close - the first event at or after @t that may end a window: where
 * the parser ends one whose true end no event shows. 0 if none.
 */
static u64 next_close(u64 t)
{
	return first_at(w.close_time, w.nr_close, t);
}

/* excused - the parser said it could not see [start, end] */
static bool excused(u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < w.nr_blind; i++)
		if (start <= w.blind[i].end && end >= w.blind[i].start)
			return true;
	for (i = 0; i < w.nr_drop; i++)
		if (start <= w.drop[i].end && end >= w.drop[i].start)
			return true;
	return false;
}

/*
 * window_excused - whether the parser may skip the true window [start,
 * end] (@end where the parser sees it end); if not, @check_end is where
 * the part of it that must be measured ends.
 *
 * excused() alone is not enough for a window that began while the tracer
 * saw everything and runs into a stretch where the parser is not synced
 * (a hotplug): that stretch lies where the tracer is blind, so it passes
 * check_blind(), yet the parser saw the window open, and the part before
 * the blindness is as measurable as any other window. A parser that
 * resets it away at the OFFLINE with no record would pass. So such a
 * window is excused only if a drop covers its start (the parser said:
 * this window, from there, is lost), or if it runs into a lost event that
 * a drop told (lost_blind(): there the spec's drop is one at the event
 * that reveals the loss, and no toggle shows where the window ended);
 * else the variable's maximum must cover its visible part, from its start
 * to where the tracer went blind. Only true windows are held to it: a
 * PAIE candidate that the parser drops silently where the truth has no
 * PAIE needs nothing.
 */
static bool window_excused(const struct lp_gen_truth *t, u64 start, u64 end,
			   u64 *check_end)
{
	const struct lp_gen_blind *b = NULL;
	unsigned int i;

	*check_end = end;
	if (!excused(start, end))
		return false;
	/* the first stretch where the tracer is blind that ends after start */
	for (i = 0; i < t->nr_blind && !b; i++)
		if (t->blind[i].end >= start)
			b = &t->blind[i];
	/* the tracer blind at the start (or nowhere: check_blind() fails it) */
	if (!b || b->start <= start)
		return true;
	for (i = 0; i < w.nr_drop; i++)
		if (w.drop[i].start <= start && start <= w.drop[i].end)
			return true;
	for (i = w.nr_unsynced; i < w.nr_blind; i++)
		if (start <= w.blind[i].end && end >= w.blind[i].start)
			return true;
	if (b->start < *check_end)
		*check_end = b->start;
	return false;
}

/* ---- interference: the union of the true interrupt spans ---- */

static int by_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void build_busy(const struct lp_gen_truth *t)
{
	static struct interval raw[MAX_BUSY];
	unsigned int i, n = 0;
	u64 sum = 0;

	for (i = 0; i < t->nr_spans; i++)
		if (t->span[i].var == LP_IRQ || t->span[i].var == LP_NMI)
			raw[n++] = (struct interval){ t->span[i].start,
						      t->span[i].end };
	qsort(raw, n, sizeof(raw[0]), by_start);
	w.nr_busy = 0;
	for (i = 0; i < n; i++) {
		struct interval *last = w.nr_busy ? &w.busy[w.nr_busy - 1] : NULL;

		if (last && raw[i].start <= last->end) {
			if (raw[i].end > last->end)
				last->end = raw[i].end;
			continue;
		}
		w.busy[w.nr_busy++] = raw[i];
	}
	for (i = 0; i < w.nr_busy; i++) {
		w.busy_before[i] = sum;
		sum += w.busy[i].end - w.busy[i].start;
	}
}

/* busy_until - interrupt time in [0, t] */
static u64 busy_until(u64 t)
{
	unsigned int lo = 0, hi = w.nr_busy;

	/* the first span that starts after t */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (w.busy[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	lo--;
	if (t >= w.busy[lo].end)
		return w.busy_before[lo] + w.busy[lo].end - w.busy[lo].start;
	return w.busy_before[lo] + t - w.busy[lo].start;
}

/* net - @start to @end less the interrupts inside */
static u64 net(u64 start, u64 end)
{
	u64 len = end - start, busy = busy_until(end) - busy_until(start);

	return len > busy ? len - busy : 0;
}

/* nmi_inside - the NMI time inside [start, end] (an IRQ's own) */
static u64 nmi_inside(const struct lp_gen_truth *t, u64 start, u64 end)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < t->nr_spans; i++) {
		const struct lp_gen_span *s = &t->span[i];

		if (s->var == LP_NMI && s->start >= start && s->end <= end)
			sum += s->end - s->start;
	}
	return sum;
}

/* fail - the first violation is the one reported */
static void __attribute__((format(printf, 3, 4)))
fail(struct lp_oracle *o, enum lp_oracle_verdict v, const char *fmt, ...)
{
	va_list ap;

	if (o->verdict != LP_ORACLE_SOUND)
		return;
	if (lp_oracle_latency_only && v != LP_ORACLE_UNDER_BOUND &&
	    v != LP_ORACLE_BAD_INPUT)
		return;
	o->verdict = v;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}

/* ---- property 4: the parser is blind only where the tracer is ---- */

/*
 * truly_blind - the generator's stretch that holds [start, end], the
 * tracer blind there; NULL if none does
 */
static const struct lp_gen_blind *truly_blind(const struct lp_gen_truth *t,
					      u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < t->nr_blind; i++)
		if (t->blind[i].start <= start && end <= t->blind[i].end)
			return &t->blind[i];
	return NULL;
}

/*
 * check_blind - the parser stops measuring only where the tracer is blind:
 * each stretch where it was not synced, and each drop it wrote, lies in a
 * stretch the generator marked. A parser that desyncs where it could have
 * measured would otherwise excuse every window it then skips; one that
 * desyncs with nothing open writes no drop, so the stretches are checked,
 * not only the drops.
 */
static void check_blind(const struct lp_gen_truth *t, struct lp_oracle *o)
{
	unsigned int i;

	for (i = 0; i < w.nr_blind; i++) {
		const struct interval *b = &w.blind[i];

		if (truly_blind(t, b->start, b->end)) {
			o->desyncs++;
			continue;
		}
		fail(o, LP_ORACLE_DESYNC,
		     "not synced from %llu to %llu, where the tracer sees every event",
		     (unsigned long long)b->start, (unsigned long long)b->end);
	}
	for (i = 0; i < w.nr_drop; i++)
		if (!truly_blind(t, w.drop[i].end, w.drop[i].end))
			fail(o, LP_ORACLE_DROP_SYNCED,
			     "a dropped record at %llu, where the tracer sees every event",
			     (unsigned long long)w.drop[i].end);
}

/* ---- property 1: no variable below the truth ---- */

/*
 * paie_at_ev1 - the parser's PAIE record for the true PAIE that ends at
 * EV1 @end: the one written at the first SE at or after @end (EV1 is that
 * SE, or the preempt_disable just before it). NULL if it wrote none.
 */
static const struct lp_sm_record *paie_at_ev1(u64 end)
{
	u64 se = first_at(w.sched_time, w.nr_sched, end);
	unsigned int i;

	for (i = 0; se && i < w.nr_rec; i++)
		if (w.rec[i].var == LP_PAIE && w.rec_at[i] == se)
			return &w.rec[i];
	return NULL;
}

static void check_windows(const struct lp_gen_truth *t, struct lp_oracle *o)
{
	unsigned int i;

	for (i = 0; i < t->nr_spans; i++) {
		const struct lp_gen_span *s = &t->span[i];
		u64 value, seen_end, check_end;

		/* before tracing began: nothing to judge */
		if (s->var >= LP_IRQ || s->end < t->trace_start)
			continue;
		/*
		 * An untraced end: the parser's window goes on to the next
		 * event that may end it, and is judged only once it came.
		 */
		seen_end = s->silent ? next_close(s->end) : s->end;
		/*
		 * After a lost event the parser's window may go on past the
		 * true end, until it notices: at the latest at the next
		 * scheduler call, which checks the state it was called in.
		 */
		if (t->nr_lost && s->end >= t->lost[0] && seen_end &&
		    !first_at(w.sched_time, w.nr_sched, seen_end)) {
			o->unchecked[LP_UNCHECKED_LOST_NO_SE]++;
			continue;
		}
		if (!seen_end) {
			o->unchecked[LP_UNCHECKED_UNTRACED_END]++;
			continue;
		}
		if (window_excused(t, s->start, seen_end, &check_end)) {
			o->spans_excused++;
			o->unchecked[LP_UNCHECKED_EXCUSED]++;
			continue;
		}
		/* the true end, or where the tracer went blind */
		if (check_end > s->end)
			check_end = s->end;
		/*
		 * A PAIE that begins at an unmask no event shows (the idle
		 * loop's) is read as part of the POID before it: covered by
		 * the latency property, not by this one.
		 */
		if (s->var == LP_PAIE && s->silent) {
			o->unchecked[LP_UNCHECKED_SILENT_PAIE]++;
			continue;
		}
		o->spans_checked++;
		value = net(s->start, check_end);
		if (value > o->true_max[s->var])
			o->true_max[s->var] = value;
		/*
		 * A PAIE ends at an EV1 the parser sees, and its record is
		 * written there: that window, not only the maximum, covers
		 * it (on a valid stream, where no loss moves the parser's
		 * view). A remote wakeup's window cut short hides behind a
		 * longer one of another wakeup otherwise.
		 */
		if (s->var == LP_PAIE && !t->nr_lost && check_end == s->end) {
			const struct lp_sm_record *r = paie_at_ev1(s->end);

			if (!r || r->duration < value)
				fail(o, LP_ORACLE_UNDER_VAR,
				     "true paie [%llu, %llu] is %llu ns, the parser's at that EV1 %llu",
				     (unsigned long long)s->start,
				     (unsigned long long)s->end,
				     (unsigned long long)value,
				     (unsigned long long)(r ? r->duration : 0));
		}
		if (value > o->rec_max[s->var])
			fail(o, LP_ORACLE_UNDER_VAR,
			     "true %s [%llu, %llu] is %llu ns%s, the parser's maximum %llu",
			     lp_sm_var_name(s->var), (unsigned long long)s->start,
			     (unsigned long long)s->end,
			     (unsigned long long)value,
			     check_end < s->end ?
			     " before the tracer went blind, and no drop from its start" : "",
			     (unsigned long long)o->rec_max[s->var]);
	}
}

/*
 * check_interrupts - every true IRQ (NMI) has its record: one that starts
 * no later, after the previous one ended, and lasts no less (net of NMIs)
 */
static void check_interrupts(const struct lp_gen_truth *t, u32 var,
			     bool exact, struct lp_oracle *o)
{
	unsigned int i, j = 0;
	u64 prev_end = 0;

	for (i = 0; i < t->nr_spans; i++) {
		const struct lp_gen_span *s = &t->span[i];
		u64 value;

		if (s->var != var)
			continue;
		if (s->end < t->trace_start)
			continue;
		while (j < w.nr_rec &&
		       (w.rec[j].var != var || w.rec[j].start < prev_end))
			j++;
		prev_end = s->end;
		if (excused(s->start, s->end)) {
			o->spans_excused++;
			o->unchecked[LP_UNCHECKED_EXCUSED]++;
			continue;
		}
		o->spans_checked++;
		value = s->end - s->start;
		if (var == LP_IRQ)
			value -= nmi_inside(t, s->start, s->end);
		if (value > o->true_max[var])
			o->true_max[var] = value;
		if (j == w.nr_rec || w.rec[j].start > s->start ||
		    w.rec[j].duration < value) {
			fail(o, LP_ORACLE_UNDER_INTR,
			     "true %s [%llu, %llu] (%llu ns) has no record that covers it (next: %llu, %llu ns)",
			     lp_sm_var_name(var), (unsigned long long)s->start,
			     (unsigned long long)s->end,
			     (unsigned long long)value,
			     (unsigned long long)(j < w.nr_rec ? w.rec[j].start : 0),
			     (unsigned long long)(j < w.nr_rec ? w.rec[j].duration : 0));
			continue;
		}
		/*
		 * On a valid stream an interrupt's bounds are events: its
		 * record is exact, not only no shorter.
		 */
		if (exact && (w.rec[j].start != s->start ||
			      w.rec[j].duration != value))
			fail(o, LP_ORACLE_OVER,
			     "true %s [%llu, %llu] (%llu ns) recorded from %llu for %llu ns",
			     lp_sm_var_name(var), (unsigned long long)s->start,
			     (unsigned long long)s->end,
			     (unsigned long long)value,
			     (unsigned long long)w.rec[j].start,
			     (unsigned long long)w.rec[j].duration);
		j++;
	}
}

/*
 * check_irq_records - on a valid stream every IRQ record is a true IRQ,
 * start and length, synced or not: the engine takes them all
 */
static void check_irq_records(const struct lp_gen_truth *t,
			      struct lp_oracle *o)
{
	unsigned int i, k;

	for (i = 0; i < w.nr_rec; i++) {
		const struct lp_sm_record *r = &w.rec[i];
		bool found = false;

		if (r->var != LP_IRQ)
			continue;
		for (k = 0; k < t->nr_spans && !found; k++) {
			const struct lp_gen_span *s = &t->span[k];

			found = s->var == LP_IRQ && s->start == r->start &&
				s->end - s->start -
				nmi_inside(t, s->start, s->end) == r->duration;
		}
		if (!found)
			fail(o, LP_ORACLE_OVER,
			     "irq record at %llu (%llu ns) is no true IRQ",
			     (unsigned long long)r->start,
			     (unsigned long long)r->duration);
	}
}

/*
 * check_scheduler_exact - PSD and DST begin and end at events the parser
 * sees: on a valid stream their maxima are the true ones, no more
 */
static void check_scheduler_exact(const struct lp_gen_truth *t,
				  struct lp_oracle *o)
{
	static const u32 vars[] = { LP_PSD, LP_DST };
	unsigned int i, v;

	for (v = 0; v < 2; v++) {
		u32 var = vars[v];
		u64 most = 0;

		for (i = 0; i < t->nr_spans; i++) {
			const struct lp_gen_span *s = &t->span[i];

			if (s->var == var && s->end >= t->trace_start &&
			    net(s->start, s->end) > most)
				most = net(s->start, s->end);
		}
		if (o->rec_max[var] > most)
			fail(o, LP_ORACLE_OVER,
			     "%s recorded %llu ns, no true window is over %llu ns",
			     lp_sm_var_name(var),
			     (unsigned long long)o->rec_max[var],
			     (unsigned long long)most);
	}
}

/* ---- property 2: the bound covers every true latency ---- */

static int intr_by_start(const void *a, const void *b)
{
	const struct lp_sm_record *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int source_of(const struct lp_sm_record *r)
{
	if (r->var == LP_NMI)
		return SLB_NMI;
	return (int)(r->kind * 256 + r->id);
}

/*
 * engine - the rtla engine's bounds from the parser's records, without
 * @without (LP_NR_TERMS: with every term): that variable's maximum is 0,
 * or that class of records is left out. Returns nonzero on an error.
 */
static int engine(const struct lp_oracle *o, enum lp_term without,
		  bool unbounded[SLB_NR_MODELS], u64 bound[SLB_NR_MODELS])
{
	static const enum slb_var slb_of[] = {
		[LP_POID] = SLB_POID, [LP_PSD] = SLB_PSD,
		[LP_DST] = SLB_ST, [LP_PAIE] = SLB_PAIE,
	};
	/* the parser's variable each term of the four is */
	static const u32 var_of[] = {
		[LP_TERM_POID] = LP_POID, [LP_TERM_PSD] = LP_PSD,
		[LP_TERM_DST] = LP_DST, [LP_TERM_PAIE] = LP_PAIE,
		[LP_TERM_IRQ] = LP_IRQ, [LP_TERM_NMI] = LP_NMI,
	};
	u32 gone = without < LP_NR_TERMS ? var_of[without] : LP_NR_VARS;
	struct slb_config cfg;
	struct slb_result res;
	struct slb *slb;
	unsigned int i;
	int m, err = 0;

	slb_config_default(&cfg);
	slb = slb_alloc(&cfg, 1);
	if (!slb)
		return -1;
	for (i = 0; i < LP_IRQ; i++)
		if (i != gone)
			slb_set_var(slb, 0, slb_of[i], o->rec_max[i]);
	for (i = 0; i < w.nr_intr && !err; i++)
		if (w.intr[i].var != gone)
			err = slb_add_interrupt(slb, 0, source_of(&w.intr[i]),
						w.intr[i].start,
						w.intr[i].duration);
	if (!err)
		err = slb_compute_cpu(slb, 0, &res);
	if (!err) {
		for (m = 0; m < SLB_NR_MODELS; m++) {
			unbounded[m] = res.bound[m].unbounded;
			bound[m] = res.bound[m].latency;
		}
		slb_result_fini(&res);
	}
	slb_free(slb);
	return err;
}

static void compute_bounds(struct lp_oracle *o)
{
	unsigned int i;

	w.nr_intr = 0;
	for (i = 0; i < w.nr_rec; i++)
		if (w.rec[i].var == LP_IRQ || w.rec[i].var == LP_NMI)
			w.intr[w.nr_intr++] = w.rec[i];
	/* records come at an interrupt's end; the engine takes starts */
	qsort(w.intr, w.nr_intr, sizeof(w.intr[0]), intr_by_start);
	if (engine(o, LP_NR_TERMS, o->unbounded, o->bound))
		fail(o, LP_ORACLE_BAD_INPUT,
		     "the engine refused the %u interrupt records", w.nr_intr);
}

static void check_latencies(const struct lp_gen_truth *t, struct lp_oracle *o)
{
	unsigned int i;
	int m;

	w.nr_latency = 0;
	for (i = 0; i < t->nr_wakeups; i++) {
		const struct lp_gen_wakeup *wk = &t->wakeup[i];
		u64 latency = wk->run - wk->ready;

		if (wk->run < t->trace_start)
			continue;
		o->wakeups++;
		if (excused(wk->chain, wk->run)) {
			o->wakeups_excused++;
			continue;
		}
		o->wakeups_checked++;
		w.latency[w.nr_latency++] = latency;
		if (latency > o->worst_latency)
			o->worst_latency = latency;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			if (o->unbounded[m] || latency <= o->bound[m])
				continue;
			o->above[m]++;
			if (lp_oracle_sound_model(m))
				fail(o, LP_ORACLE_UNDER_BOUND,
				     "latency %llu ns (ready %llu, runs %llu) above the %s bound %llu ns",
				     (unsigned long long)latency,
				     (unsigned long long)wk->ready,
				     (unsigned long long)wk->run,
				     slb_model_name(m),
				     (unsigned long long)o->bound[m]);
		}
	}
}

enum lp_oracle_verdict lp_oracle_check(const struct lp_sm_event *ev,
				       unsigned int n,
				       const struct lp_gen_truth *truth,
				       struct lp_oracle *o)
{
	unsigned int i;

	memset(o, 0, sizeof(*o));
	if (truth->overflow) {
		fail(o, LP_ORACLE_BAD_INPUT, "the truth overflowed");
		return o->verdict;
	}
	run_parser(ev, n);
	lost_blind(truth);
	build_busy(truth);
	o->nr_records = w.nr_rec;
	o->drops = w.nr_drop;
	/* what excuses a window must itself be excused by the truth */
	check_blind(truth, o);
	for (i = 0; i < w.nr_rec; i++) {
		const struct lp_sm_record *r = &w.rec[i];

		if (r->var < LP_NR_VARS && r->duration > o->rec_max[r->var])
			o->rec_max[r->var] = r->duration;
	}
	/* the whole simulation: a short traced tail would say little */
	o->intr_ns = busy_until(truth->end) - busy_until(truth->begin);
	o->seq_ns = truth->end - truth->begin;
	check_windows(truth, o);
	check_interrupts(truth, LP_IRQ, !truth->nr_lost, o);
	if (!truth->nr_lost)
		check_irq_records(truth, o);
	check_interrupts(truth, LP_NMI, false, o);
	if (!truth->nr_lost)
		check_scheduler_exact(truth, o);
	compute_bounds(o);
	check_latencies(truth, o);
	return o->verdict;
}

const char *lp_term_name(enum lp_term term)
{
	static const char * const name[] = {
		[LP_TERM_POID] = "POID", [LP_TERM_PSD] = "PSD",
		[LP_TERM_DST] = "DST", [LP_TERM_PAIE] = "PAIE",
		[LP_TERM_IRQ] = "I_IRQ", [LP_TERM_NMI] = "I_NMI",
	};

	return term < LP_NR_TERMS ? name[term] : "?";
}

/*
 * l_if_without - Theorem 8's interference-free part, max(D_ST, D_POID) +
 * D_PAIE + D_PSD, from the parser's maxima without @t (an interrupt class
 * leaves it as it is)
 */
static u64 l_if_without(const struct lp_oracle *o, enum lp_term t)
{
	u64 poid = t == LP_TERM_POID ? 0 : o->rec_max[LP_POID];
	u64 dst = t == LP_TERM_DST ? 0 : o->rec_max[LP_DST];
	u64 paie = t == LP_TERM_PAIE ? 0 : o->rec_max[LP_PAIE];
	u64 psd = t == LP_TERM_PSD ? 0 : o->rec_max[LP_PSD];

	return (dst > poid ? dst : poid) + paie + psd;
}

void lp_oracle_weigh(const struct lp_oracle *o, struct lp_weight *wt)
{
	bool unbounded[SLB_NR_MODELS];
	u64 bound[SLB_NR_MODELS];
	unsigned int i;
	int t, m;

	memset(wt, 0, sizeof(*wt));
	if (!w.nr_latency)
		return;
	for (t = 0; t < LP_NR_TERMS; t++) {
		/*
		 * Every bound is at least its interference-free part: where
		 * the worst latency is within that part without the term, no
		 * latency is above the bound without it, and the engine need
		 * not run (it costs most of a seed's time).
		 */
		if (o->worst_latency <= l_if_without(o, t))
			continue;
		if (engine(o, t, unbounded, bound))
			continue;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			if (unbounded[m])
				continue;
			for (i = 0; i < w.nr_latency; i++)
				if (w.latency[i] > bound[m])
					wt->uncovered[t][m]++;
		}
	}
}
