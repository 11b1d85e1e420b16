// SPDX-License-Identifier: GPL-2.0
/*
 * lp_reference - the reference interpreter of the latency parser's spec
 * (tests/unit/parser-spec.md), see lp_reference.h.
 *
 * Pass 1 (classify) walks the events once and tells each one's role: an
 * interrupt's own event (the hardware's irq_disable, a handler boundary, a
 * preemption toggle of its tail, the hardware's irq_enable that ends it), an
 * NMI's, or the thread's. An irq_disable just before an IRQ entry is the
 * hardware's whatever the thread's IRQ state seems to be: an unmask may have
 * gone untraced (the idle loop's after IDLE_OUT). It lists the interrupts
 * (start, end, the event that ends each) and the NMI spans.
 *
 * Pass 2 (interpret) walks the events again and runs the thread's model on
 * the thread's events, ending interrupts where pass 1 found them. The
 * hardware's irq_enable that ends an interrupt is the thread's too: it tells
 * that the thread runs on with IRQs enabled, an entry into pe_ie if they
 * were disabled (the sleep an IRQ ended, an untraced unmask). A window's
 * duration is its length minus the measure of the union of the interrupt
 * and NMI spans that overlap it: no counter is sampled.
 *
 * Beyond the spec's text, the model has these rules (soundness fixes found
 * against the generator's ground truth):
 * - a PAIE that began with need_resched set runs to the next SE, across
 *   the thread's sections and the idle loop's IDLE_OUT, and is recorded at
 *   a preemption's SE wherever EV1 came from;
 * - the sleep ends at the return of an IRQ taken during it;
 * - an IRQ's irq_disable while the thread's IRQs are known disabled leaves
 *   them disabled, so that the IRQ's return ends the POID;
 * - a preempt_disable or preempt_enable to the state the thread is known
 *   to be in is a lost toggle: one drop, as for irq_enable;
 * - EV7 with IRQs masked and need_resched set opens a PAIE (the loop of
 *   preempt_schedule_irq()).
 *
 * A remote wakeup (REMOTE_RESCHED, posted from the waker's CPU) is no event
 * of this CPU: pass 1 gives it a role of its own, which nothing claims and
 * nothing ends, and pass 2 holds the post until the CPU's next event other
 * than an NMI's, which judges it by the state the CPU was in (take_post()).
 */
#include <stdlib.h>
#include <string.h>

#include "lp_reference.h"

enum ref_role {
	ROLE_THREAD,		/* the thread's own event */
	ROLE_HW_ID,		/* the hardware's irq_disable of an interrupt */
	ROLE_HANDLER,		/* IRQ_IN/IRQ_OUT */
	ROLE_TAIL,		/* PD/PE of a tail: applied at the tail's end */
	ROLE_TAIL_IE,		/* the hardware's irq_enable: ends the tail */
	ROLE_NMI,
	ROLE_HOTPLUG,
	ROLE_IGNORED,		/* while the CPU is offline */
	ROLE_REMOTE,		/* another CPU set need_resched here */
};

#define NO_IRQ	(~0u)

struct ref_irq {
	u64		start;
	u64		end;
	unsigned int	start_ev;	/* the event where it starts */
	unsigned int	entry_ev;	/* its first IRQ_IN */
	unsigned int	end_ev;		/* the event that ends it, or NO_IRQ */
	unsigned int	abort_ev;	/* a thread event in its handlers */
	unsigned int	last_ev;	/* the last event it is in flight at */
	u32		kind;
	u32		id;
	/* pass 2 */
	bool		synced;		/* the CPU was synced at its start */
	bool		pe;		/* preemption known enabled then */
};

struct ref_span {
	u64		start;
	u64		end;
};

/*
 * A window is its length less the interrupt time from @from on, and less
 * @extra: a window opens at an event, @from is its start, and @extra 0,
 * but for a PAIE opened by a remote wakeup, which starts before the event
 * that takes it (take_post()).
 */
struct ref_win {
	bool		open;
	u64		start;
	u64		from;
	u64		extra;
	unsigned long	ip;
};

struct ref {
	const struct lp_sm_event *ev;
	unsigned int	n;

	/* pass 1 */
	unsigned char	*role;
	unsigned int	*irq_of;	/* the interrupt an event belongs to */
	struct ref_irq	*irq;
	unsigned int	nr_irq;
	struct ref_span	*span;		/* ended interrupts and NMIs */
	struct ref_span	*scratch;	/* busy_time()'s */
	unsigned int	nr_span;
	bool		*nmi_record;	/* this NMI_OUT ends an outer NMI */
	u64		*nmi_start;	/* ... that began then */

	/* pass 2: the records */
	struct lp_sm_record *out;
	unsigned int	*at;
	unsigned int	max;
	unsigned int	nr_out;
	unsigned int	cur;		/* the event being interpreted */

	/* pass 2: the thread, as the spec describes it */
	bool		synced;
	bool		pe_known;
	bool		ie_known;
	bool		pe;
	bool		ie;
	bool		sched;
	bool		sx_seen;	/* SX of a task: EV7 is its PE */
	bool		ev3_seen;
	bool		sleeping;
	bool		in_call;	/* the idle call: IDLE_IN to IDLE_OUT */
	bool		call_known;	/* whether in_call is known */
	bool		offline;
	struct ref_win	poid;
	struct ref_win	psd;
	struct ref_win	dst;
	struct ref_win	paie;
	bool		paie_resched;
	/* the last preempt_disable: EV1 if an SE follows */
	bool		pd_valid;
	u64		pd_time;
	unsigned long	pd_ip;
	bool		pd_from_pe_ie;
	bool		pd_in_poid;
	/* from IDLE_OUT to the next event of the thread's: see take_post() */
	bool		after_idle_out;
	/* a remote wakeup posted and not yet taken: its time */
	bool		post;
	u64		post_time;
};

/* ------------------------------------------------------------------ */
/* Pass 1: the interrupts and the NMIs                                 */
/* ------------------------------------------------------------------ */

static void add_span(struct ref *r, u64 start, u64 end)
{
	r->span[r->nr_span].start = start;
	r->span[r->nr_span].end = end;
	r->nr_span++;
}

/*
 * claim_hw_id - the first IRQ_IN of an interrupt at @i: the ID just before
 * it (only NMI events between) is the hardware's. Returns its index, or
 * @i if there is none.
 */
static unsigned int claim_hw_id(struct ref *r, unsigned int i)
{
	unsigned int j = i;

	while (j > 0) {
		j--;
		if (r->role[j] == ROLE_NMI || r->role[j] == ROLE_REMOTE)
			continue;
		if (r->ev[j].type == LP_SM_IRQ_DISABLE &&
		    r->role[j] == ROLE_THREAD)
			return j;
		break;
	}
	return i;
}

/*
 * untraced_wakeup - the unmask at @i ends a sleep: if a thread ID came just
 * before it (only NMI events between), with no handler, that was the
 * entry of an interrupt whose vector has no tracepoint, and this unmask
 * its return. It is an interrupt of vector 0, from that ID to @i, and it
 * ended the sleep as any IRQ would.
 */
static void untraced_wakeup(struct ref *r, unsigned int i)
{
	unsigned int j = claim_hw_id(r, i);
	struct ref_irq *q;
	unsigned int in;

	if (j == i)
		return;
	in = r->nr_irq++;
	q = &r->irq[in];
	r->role[j] = ROLE_HW_ID;
	r->irq_of[j] = in;
	r->role[i] = ROLE_TAIL_IE;
	r->irq_of[i] = in;
	q->start = r->ev[j].time;
	q->start_ev = j;
	q->entry_ev = j;
	q->end = r->ev[i].time;
	q->end_ev = i;
	q->abort_ev = NO_IRQ;
	q->last_ev = i;
	q->kind = LATENCY_PARSER_VECTOR;
	q->id = 0;
	add_span(r, q->start, q->end);
}

static void classify(struct ref *r)
{
	unsigned int nesting = 0, nmi_nesting = 0, in = NO_IRQ;
	bool offline = false, tail = false, asleep = false;
	u64 nmi_start = 0;
	unsigned int i, j;

	for (i = 0; i < r->n; i++) {
		const struct lp_sm_event *e = &r->ev[i];

		r->irq_of[i] = NO_IRQ;
		if (offline) {
			r->role[i] = ROLE_IGNORED;
			if (e->type == LP_SM_CPU_ONLINE) {
				r->role[i] = ROLE_HOTPLUG;
				offline = false;
				nesting = nmi_nesting = 0;
				in = NO_IRQ;
				tail = false;
				asleep = false;
			}
			continue;
		}
		switch (e->type) {
		case LP_SM_REMOTE_RESCHED:
			r->role[i] = ROLE_REMOTE;
			continue;
		case LP_SM_NMI_ENTRY:
			r->role[i] = ROLE_NMI;
			if (nmi_nesting++ == 0)
				nmi_start = e->time;
			continue;
		case LP_SM_NMI_EXIT:
			r->role[i] = ROLE_NMI;
			if (nmi_nesting && --nmi_nesting == 0) {
				r->nmi_record[i] = true;
				r->nmi_start[i] = nmi_start;
				add_span(r, nmi_start, e->time);
			}
			continue;
		case LP_SM_CPU_OFFLINE:
		case LP_SM_CPU_ONLINE:
			r->role[i] = ROLE_HOTPLUG;
			offline = e->type == LP_SM_CPU_OFFLINE;
			/*
			 * an interrupt cut by hotplug is never measured; it is
			 * in flight at the OFFLINE that cuts it (take_post())
			 */
			if (in != NO_IRQ)
				r->irq[in].last_ev = i;
			in = NO_IRQ;
			nesting = 0;
			tail = false;
			asleep = false;
			continue;
		case LP_SM_IRQ_ENTRY:
			r->role[i] = ROLE_HANDLER;
			if (in == NO_IRQ) {
				struct ref_irq *q = &r->irq[r->nr_irq];

				in = r->nr_irq++;
				j = claim_hw_id(r, i);
				if (j != i) {
					r->role[j] = ROLE_HW_ID;
					r->irq_of[j] = in;
				}
				q->start = r->ev[j].time;
				q->start_ev = j;
				q->entry_ev = i;
				q->end_ev = NO_IRQ;
				q->abort_ev = NO_IRQ;
				q->last_ev = r->n;
				q->kind = e->kind;
				q->id = e->id;
			}
			r->irq_of[i] = in;
			nesting++;
			tail = false;
			continue;
		case LP_SM_IRQ_EXIT:
			r->role[i] = ROLE_HANDLER;
			r->irq_of[i] = in;
			if (nesting && --nesting == 0)
				tail = true;
			continue;
		}

		/* a thread event */
		r->role[i] = ROLE_THREAD;
		if (in == NO_IRQ) {
			if (e->type == LP_SM_IDLE_ENTER)
				asleep = true;
			else if (e->type == LP_SM_IDLE_EXIT)
				asleep = false;
			else if (asleep && e->type == LP_SM_IRQ_ENABLE)
				untraced_wakeup(r, i);
			else if (e->type != LP_SM_IRQ_DISABLE)
				asleep = false;	/* an IDLE_OUT was lost */
			continue;
		}
		if (nesting) {
			/* the handler's exit was lost: the IRQ is forgotten */
			r->irq[in].abort_ev = i;
			r->irq[in].last_ev = i;
			in = NO_IRQ;
			nesting = 0;
			continue;
		}
		/* in the tail */
		if ((e->type == LP_SM_PREEMPT_DISABLE ||
		     e->type == LP_SM_PREEMPT_ENABLE) &&
		    (e->flags & LP_SM_HW_IRQS_OFF)) {
			r->role[i] = ROLE_TAIL;
			r->irq_of[i] = in;
			continue;
		}
		if (e->type == LP_SM_IRQ_ENABLE)
			r->role[i] = ROLE_TAIL_IE;
		r->irq_of[i] = in;
		r->irq[in].end = e->time;
		r->irq[in].end_ev = i;
		r->irq[in].last_ev = i;
		add_span(r, r->irq[in].start, e->time);
		in = NO_IRQ;
		tail = false;
		asleep = false;
	}
	(void)tail;
}

/* ------------------------------------------------------------------ */
/* Interference: interval arithmetic over the spans                   */
/* ------------------------------------------------------------------ */

static int cmp_span(const void *a, const void *b)
{
	const struct ref_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* busy_time - how long [a, b] overlaps the union of the spans */
static u64 busy_time(const struct ref *r, u64 a, u64 b)
{
	struct ref_span *s = r->scratch;
	unsigned int i, k = 0;
	u64 sum = 0, cs = 0, ce = 0;
	bool have = false;

	if (b <= a || !r->nr_span)
		return 0;
	for (i = 0; i < r->nr_span; i++) {
		u64 st = r->span[i].start, en = r->span[i].end;

		if (st < a)
			st = a;
		if (en > b)
			en = b;
		if (st < en) {
			s[k].start = st;
			s[k].end = en;
			k++;
		}
	}
	qsort(s, k, sizeof(*s), cmp_span);
	for (i = 0; i < k; i++) {
		if (have && s[i].start <= ce) {
			if (s[i].end > ce)
				ce = s[i].end;
			continue;
		}
		if (have)
			sum += ce - cs;
		cs = s[i].start;
		ce = s[i].end;
		have = true;
	}
	if (have)
		sum += ce - cs;
	return sum;
}

/* nmi_time_in - the NMI time inside [a, b] (an interrupt's own) */
static u64 nmi_time_in(const struct ref *r, u64 a, u64 b)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		u64 st, en;

		if (!r->nmi_record[i])
			continue;
		st = r->nmi_start[i];
		en = r->ev[i].time;
		if (st < a)
			st = a;
		if (en > b)
			en = b;
		if (st < en)
			sum += en - st;
	}
	return sum;
}

/* ------------------------------------------------------------------ */
/* Pass 2: records                                                    */
/* ------------------------------------------------------------------ */

static void emit(struct ref *r, u32 var, u64 start, u64 duration,
		 unsigned long ip, u32 kind, u32 id)
{
	if (r->nr_out < r->max) {
		struct lp_sm_record *o = &r->out[r->nr_out];

		memset(o, 0, sizeof(*o));
		o->var = var;
		o->start = start;
		o->duration = duration;
		o->ip = ip;
		o->kind = kind;
		o->id = id;
		if (r->at)
			r->at[r->nr_out] = r->cur;
	}
	r->nr_out++;
}

/* dropped - something was not measured: only the event's time is told */
static void dropped(struct ref *r, u64 t)
{
	emit(r, LP_DROPPED, t, 0, 0, 0, 0);
}

/* record - window @w ends at @end: its length net of the interrupts */
static void record(struct ref *r, struct ref_win *w, u32 var, u64 end)
{
	u64 len = end > w->start ? end - w->start : 0;
	u64 less = busy_time(r, w->from, end) + w->extra;

	emit(r, var, w->start, len > less ? len - less : 0, w->ip, 0, 0);
	w->open = false;
}

static void open_win(struct ref_win *w, u64 t, unsigned long ip)
{
	w->open = true;
	w->start = t;
	w->from = t;
	w->extra = 0;
	w->ip = ip;
}

static bool in_pe_ie(const struct ref *r)
{
	return r->pe_known && r->ie_known && r->pe && r->ie && !r->sched;
}

static void close_all(struct ref *r)
{
	r->poid.open = r->psd.open = r->dst.open = r->paie.open = false;
}

/*
 * lose_windows - the open POID, PSD and DST, and a PAIE that began with
 * need_resched set (it runs to EV1 whatever comes), are lost at @t: one
 * drop that spans them, from the oldest one's start to @t
 */
static void lose_windows(struct ref *r, u64 t)
{
	const struct ref_win *w[] = { &r->poid, &r->psd, &r->dst, &r->paie };
	u64 from = t;
	bool any = false;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (!w[i]->open || (w[i] == &r->paie && !r->paie_resched))
			continue;
		any = true;
		if (w[i]->start < from)
			from = w[i]->start;
	}
	if (r->synced && any)
		emit(r, LP_DROPPED, from, t - from, 0, 0, 0);
}

/* desync - an event the model forbids: the CPU waits to sync again */
static void desync(struct ref *r, u64 t)
{
	lose_windows(r, t);
	close_all(r);
	r->synced = false;
}

/*
 * open_paie - the thread may be on its way to a preemption from here. One
 * that already is (its PAIE began with need_resched set) stays on it until
 * the next SE, whatever it does before: an unmask is no preemption point
 * on x86, so a thread woken under local_irq_save() runs on, in and out of
 * sections, until a preemption point.
 */
static void open_paie(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (r->paie.open && r->paie_resched)
		return;
	open_win(&r->paie, t, e->ip);
	r->paie_resched = e->flags & LP_SM_NEED_RESCHED;
}

/*
 * enter_pe_ie - the thread is back in pe_ie outside the scheduler: the
 * POID ends and PAIE begins; the first such entry syncs the CPU.
 */
static void enter_pe_ie(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (r->synced) {
		if (r->poid.open)
			record(r, &r->poid, LP_POID, t);
	} else if ((e->flags & LP_SM_IDLE_TASK) && !r->call_known) {
		/* the idle task may be in its idle call: not synced yet */
		return;
	} else {
		/* the window this ends began before parsing did */
		r->synced = true;
		dropped(r, t);
	}
	open_paie(r, e, t);
}

/* leave_pe_ie - a PD or an ID from pe_ie: a POID begins */
static void leave_pe_ie(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (r->synced)
		open_win(&r->poid, t, e->ip);
}

/* ev7 - the scheduler returns the thread its flow */
static void ev7(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (r->psd.open)
		record(r, &r->psd, LP_PSD, t);
	if (r->dst.open)
		record(r, &r->dst, LP_DST, t);
	r->sched = false;
	r->pe = true;
	r->pe_known = true;
	if (r->ie_known && r->ie) {
		enter_pe_ie(r, e, t);
		return;
	}
	if (!r->synced)
		return;
	open_win(&r->poid, t, e->ip);
	/*
	 * Back with IRQs masked and need_resched set: preempt_schedule_irq()
	 * calls the scheduler again without unmasking. The thread is on its
	 * way to that EV1 from here (Lemma 4), though not in pe_ie.
	 */
	if (e->flags & LP_SM_NEED_RESCHED)
		open_paie(r, e, t);
}

/*
 * lost_toggle - a toggle to the state the thread is known to be in
 * (@same) outside the scheduler: its opposite was not seen, and a window
 * may be lost with it. One drop, while windows are measured; the event
 * changes nothing. Returns @same. (An IRQ's tail is never one: irq_end()
 * applies its toggles only when they change the thread's state.)
 */
static bool lost_toggle(struct ref *r, u64 t, bool same)
{
	if (same && r->synced && !r->sleeping)
		dropped(r, t);
	return same;
}

static void on_pd(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool was = in_pe_ie(r);

	if (r->sched) {
		desync(r, t);
		return;
	}
	if (lost_toggle(r, t, r->pe_known && !r->pe))
		return;
	r->pd_valid = true;
	r->pd_time = t;
	r->pd_ip = e->ip;
	r->pd_from_pe_ie = was;
	r->pd_in_poid = r->synced && r->poid.open && r->ie_known && !r->ie;
	r->pe = false;
	r->pe_known = true;
	if (was)
		leave_pe_ie(r, e, t);
}

static void on_pe(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool was = in_pe_ie(r);

	if (r->sched) {
		/* EV7 is the PE after SX; before it the model has none (R7) */
		if (r->sx_seen)
			ev7(r, e, t);
		return;
	}
	if (lost_toggle(r, t, r->pe_known && r->pe))
		return;
	r->pe = true;
	r->pe_known = true;
	if (!was && in_pe_ie(r))
		enter_pe_ie(r, e, t);
}

static void on_id(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool was = in_pe_ie(r);

	r->ie = false;
	r->ie_known = true;
	if (r->sched) {
		/* EV3: the first ID inside the scheduler */
		if (!r->ev3_seen && r->synced)
			open_win(&r->dst, t, e->ip);
		r->ev3_seen = true;
		return;
	}
	if (was)
		leave_pe_ie(r, e, t);
}

/*
 * on_ie - the thread's irq_enable, or the hardware's at an IRQ's return: the
 * latter tells that the thread had IRQs enabled, and is no lost ID when the
 * thread's IRQs are known enabled already.
 */
static void on_ie(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool was = in_pe_ie(r);

	if (r->role[r->cur] != ROLE_TAIL_IE &&
	    lost_toggle(r, t, r->ie_known && r->ie))
		return;
	r->ie = true;
	r->ie_known = true;
	/* asleep (6.3+'s unmask before the sleep), no entry into pe_ie */
	if (!r->sched && !was && in_pe_ie(r) && !r->sleeping)
		enter_pe_ie(r, e, t);
}

/* se_windows - EV2: what the windows before the scheduler become */
static void se_windows(struct ref *r, const struct lp_sm_event *e, u64 t,
		       bool idle)
{
	bool preempt = e->flags & (LP_SM_PREEMPT | LP_SM_NEED_RESCHED);
	u64 ev1 = idle ? t : r->pd_time;
	unsigned long ev1_ip = idle ? e->ip : r->pd_ip;
	bool from_pe_ie = idle ? in_pe_ie(r) : r->pd_from_pe_ie;
	/*
	 * A PAIE ends at EV1 if the thread came to it from pe_ie, or if it
	 * was on its way from the PAIE's start (need_resched set then): its
	 * sections since are part of the way.
	 */
	bool paie = preempt && r->paie.open && (idle || r->pd_valid) &&
		    (from_pe_ie || r->paie_resched);

	if (idle) {
		/* R5: the idle loop's IRQs-off window ends here */
		if (r->poid.open)
			record(r, &r->poid, LP_POID, t);
		if (paie)
			record(r, &r->paie, LP_PAIE, t);
	} else {
		if (r->poid.open && r->pd_valid && r->pd_in_poid)
			record(r, &r->poid, LP_POID, r->pd_time);
		if (paie)
			record(r, &r->paie, LP_PAIE, r->pd_time);
	}
	r->poid.open = false;
	r->paie.open = false;
	if (idle || r->pd_valid)
		open_win(&r->psd, ev1, ev1_ip);
}

static void on_se(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool idle = e->flags & LP_SM_IDLE_TASK;

	if (r->sched || (!idle && r->pe_known && r->pe) ||
	    (!idle && r->ie_known && !r->ie)) {
		desync(r, t);
		return;
	}
	if (r->synced)
		se_windows(r, e, t, idle);
	r->sched = true;
	r->sx_seen = false;
	r->ev3_seen = false;
	r->pe = false;
	r->pe_known = true;
	r->ie = true;
	r->ie_known = true;
}

static void on_sx(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (!r->sched) {
		desync(r, t);
		return;
	}
	if (e->flags & LP_SM_IDLE_TASK)
		ev7(r, e, t);
	else
		r->sx_seen = true;
}

/*
 * on_idle_in - the CPU sleeps: no window, and no way to the scheduler,
 * unless need_resched is set since the idle loop checked it (a remote
 * wakeup whose IPI is in flight): the idle task then sleeps in pe_ie on
 * its way to the scheduler, a PAIE from here. One that began with
 * need_resched set goes on.
 */
static void on_idle_in(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	if (r->synced && r->poid.open)
		record(r, &r->poid, LP_POID, t);
	if (!(r->paie.open && r->paie_resched))
		r->paie.open = false;
	if (r->synced && (e->flags & LP_SM_NEED_RESCHED))
		open_paie(r, e, t);
	r->sleeping = true;
	r->in_call = true;
}

/*
 * on_idle_out - the idle loop masks IRQs: a POID. The PAIE that an IRQ's
 * return opened during the sleep goes on if that IRQ set need_resched (the
 * idle task is on its way to the scheduler), and ends here otherwise.
 */
static void on_idle_out(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	r->sleeping = false;
	r->in_call = false;
	r->after_idle_out = true;
	r->ie = false;
	r->ie_known = true;
	if (!r->paie_resched)
		r->paie.open = false;
	if (r->synced)
		open_win(&r->poid, t, e->ip);
}

/*
 * thread_event - the thread's model. @t is when the event counts: its
 * time, or the end of the tail it belongs to.
 */
static void thread_event(struct ref *r, const struct lp_sm_event *e, u64 t)
{
	bool toggle_or_switch = e->type == LP_SM_PREEMPT_DISABLE ||
				e->type == LP_SM_PREEMPT_ENABLE ||
				e->type == LP_SM_SCHED_ENTRY ||
				e->type == LP_SM_SCHED_EXIT;
	bool lost;

	/* the spec's lost idle events: each is one drop */
	if (e->type == LP_SM_IDLE_ENTER)
		lost = r->in_call || (r->ie_known && r->ie);
	else if (e->type == LP_SM_IDLE_EXIT)
		lost = !r->in_call;
	else
		lost = toggle_or_switch && r->in_call;
	if (lost) {
		if (r->synced)
			dropped(r, t);
		if (toggle_or_switch)
			r->in_call = r->sleeping = false;
	}
	if (toggle_or_switch || e->type == LP_SM_IDLE_ENTER ||
	    e->type == LP_SM_IDLE_EXIT || !(e->flags & LP_SM_IDLE_TASK))
		r->call_known = true;
	/* the idle task outside the scheduler counts as preemption enabled */
	if ((e->flags & LP_SM_IDLE_TASK) && !r->sched) {
		r->pe = true;
		r->pe_known = true;
	}
	switch (e->type) {
	case LP_SM_PREEMPT_DISABLE:
		on_pd(r, e, t);
		break;
	case LP_SM_PREEMPT_ENABLE:
		on_pe(r, e, t);
		break;
	case LP_SM_IRQ_DISABLE:
		on_id(r, e, t);
		break;
	case LP_SM_IRQ_ENABLE:
		on_ie(r, e, t);
		break;
	case LP_SM_SCHED_ENTRY:
		on_se(r, e, t);
		break;
	case LP_SM_SCHED_EXIT:
		on_sx(r, e, t);
		break;
	case LP_SM_IDLE_ENTER:
		on_idle_in(r, e, t);
		break;
	case LP_SM_IDLE_EXIT:
		on_idle_out(r, e, t);
		break;
	}
}

/*
 * irq_end - interrupt @q ends at event @i: its record, the PAIE restart,
 * then its tail's preemption toggles, at its end. The hardware's unmask
 * that ends it, if that is what event @i is, is the thread's next.
 */
static void irq_end(struct ref *r, unsigned int qi, unsigned int i)
{
	struct ref_irq *q = &r->irq[qi];
	bool was_pe_ie = in_pe_ie(r);
	bool woke = r->sleeping;
	unsigned int j, last, last_pd;

	if (q->synced)
		emit(r, LP_IRQ, q->start,
		     q->end - q->start - nmi_time_in(r, q->start, q->end), 0,
		     q->kind, q->id);
	else
		dropped(r, r->ev[i].time);

	/*
	 * An IRQ that came during the sleep woke the CPU: hlt returns after
	 * it, and the idle task runs on with IRQs enabled (its unmask at @i
	 * is an entry into pe_ie) until the idle loop masks them at IDLE_OUT.
	 */
	r->sleeping = false;
	/*
	 * That is the idle task's entry into pe_ie (the spec's "an IRQ's
	 * return in the sleep"), whether or not an unmask is traced then:
	 * since 6.3 the tracing state is on from before the sleep.
	 */
	if (woke && r->synced)
		open_paie(r, &r->ev[i], q->end);

	/*
	 * The thread's pe_ie time before the IRQ stays in PAIE only if it
	 * is already on its way to a preemption.
	 */
	if (r->synced && was_pe_ie && r->paie.open && !r->paie_resched) {
		open_win(&r->paie, q->end, r->ev[i].ip);
		r->paie_resched = r->ev[i].flags & LP_SM_NEED_RESCHED;
	}

	/*
	 * An interrupt with the hardware's ID came while the thread's IRQs
	 * were enabled: if the parser did not know it yet, now it does (it
	 * is no entry into pe_ie: the thread's state did not change). If
	 * they were known disabled, an unmask went untraced (the idle loop's
	 * after IDLE_OUT): they stay disabled for the model, so that the
	 * unmask at the IRQ's return is the entry into pe_ie that ends the
	 * POID.
	 */
	if (!r->ie_known && q->start_ev != i &&
	    r->ev[q->start_ev].type == LP_SM_IRQ_DISABLE) {
		r->ie = true;
		r->ie_known = true;
	}

	/*
	 * The tail's toggles are the IRQ's code: only the preemption state
	 * they leave counts, as one PD (the last) at the tail's end. A PD/PE
	 * pair (waking ksoftirqd) is no window of the thread.
	 */
	last = last_pd = NO_IRQ;
	for (j = q->start_ev; j < i; j++) {
		if (r->role[j] != ROLE_TAIL || r->irq_of[j] != qi)
			continue;
		last = j;
		if (r->ev[j].type == LP_SM_PREEMPT_DISABLE)
			last_pd = j;
	}
	if (last == NO_IRQ)
		return;
	if (!r->pe_known) {
		/*
		 * The thread's state was not known: the tail tells it, at the
		 * tail's end. A PE there is the thread's entry into pe_ie by
		 * the event that ends the tail: a PAIE it opens has that
		 * event's ip and need_resched.
		 */
		struct lp_sm_event told = r->ev[last];

		if (told.type == LP_SM_PREEMPT_ENABLE) {
			told.ip = r->ev[i].ip;
			told.flags = r->ev[i].flags;
		}
		thread_event(r, &told, q->end);
	} else if (r->pe && last == last_pd) {
		thread_event(r, &r->ev[last_pd], q->end);
	}
}

static void reset_thread(struct ref *r)
{
	/* a post waiting at ONLINE is forgotten with the rest */
	r->post = false;
	r->after_idle_out = false;
	r->synced = r->pe_known = r->ie_known = false;
	r->pe = r->ie = r->sched = r->sx_seen = r->ev3_seen = false;
	r->sleeping = r->in_call = r->call_known = false;
	r->pd_valid = false;
	close_all(r);
}

static void on_offline(struct ref *r, u64 t)
{
	/* a PAIE alone is no loss: it is recorded only at a preemption */
	lose_windows(r, t);
	reset_thread(r);
	r->offline = true;
}

/* irq_in_flight - the interrupt whose handlers or tail event @i is in */
static struct ref_irq *irq_in_flight(struct ref *r, unsigned int i)
{
	unsigned int qi;

	for (qi = 0; qi < r->nr_irq; qi++)
		if (r->irq[qi].entry_ev <= i && i <= r->irq[qi].last_ev)
			return &r->irq[qi];
	return NULL;
}

/*
 * take_post - event @i, the CPU's first since a remote wakeup (other than
 * an NMI's), takes it: no event came between, so the state the CPU is in
 * before @i is the one the waker found. The thread was then on its way
 * to the scheduler from RR's time if it was in pe_ie, or asleep (the idle
 * task is preemptible, with IRQs enabled: sti; hlt), or in an IRQ that
 * came while preemption was enabled: a PAIE with need_resched opens. Not
 * in the scheduler (that pass, or its EV7, serves it), in a POID (its end
 * samples need_resched) or in a PAIE that began with need_resched set
 * (already on its way).
 *
 * The window's interrupt time is counted from @i on, as for any window
 * opened at an event: an NMI between RR and @i stays in it. If an IRQ is
 * in flight, the window starts at the IRQ's start, which is discounted
 * whole: its time to @i, net of the NMIs there, is @extra.
 */
static void take_post(struct ref *r, unsigned int i)
{
	const struct lp_sm_event *e = &r->ev[i];
	const struct ref_irq *q = irq_in_flight(r, i);
	u64 t = e->time, at = r->post_time < t ? r->post_time : t;
	bool on_way;

	r->post = false;
	if (!r->synced || r->sched || (r->paie.open && r->paie_resched))
		return;
	if (r->sleeping)
		on_way = true;
	else if (q)
		on_way = q->pe;
	else
		/* the idle loop's unmask after IDLE_OUT has no event */
		on_way = r->pe_known && r->pe &&
			 ((r->ie_known && r->ie) || r->after_idle_out);
	if (!on_way)
		return;
	open_win(&r->paie, at, e->ip);
	r->paie.from = t;
	r->paie_resched = true;
	if (q && q->start < at) {
		r->paie.start = q->start;
		r->paie.extra = t - q->start - nmi_time_in(r, q->start, t);
	}
}

static void interpret(struct ref *r)
{
	unsigned int i, qi;

	for (i = 0; i < r->n; i++) {
		const struct lp_sm_event *e = &r->ev[i];

		r->cur = i;
		switch (r->role[i]) {
		case ROLE_IGNORED:
			continue;
		case ROLE_HOTPLUG:
			if (e->type == LP_SM_CPU_OFFLINE) {
				/* the PAIE a post opens is lost with the rest */
				if (r->post)
					take_post(r, i);
				on_offline(r, e->time);
			} else {
				reset_thread(r);
				r->offline = false;
			}
			continue;
		case ROLE_NMI:
			if (r->nmi_record[i])
				emit(r, LP_NMI, r->nmi_start[i],
				     e->time - r->nmi_start[i], 0,
				     LATENCY_PARSER_NMI, 0);
			continue;
		case ROLE_REMOTE:
			/* a later post before any event: the later time */
			r->post = true;
			r->post_time = e->time;
			continue;
		default:
			break;
		}

		for (qi = 0; qi < r->nr_irq; qi++)
			if (r->irq[qi].entry_ev == i)
				r->irq[qi].pe = r->pe_known && r->pe;
		if (r->post)
			take_post(r, i);
		/* the idle loop's silent unmask: until the thread's next */
		if (r->role[i] == ROLE_THREAD || r->role[i] == ROLE_HW_ID ||
		    r->role[i] == ROLE_TAIL_IE)
			r->after_idle_out = false;

		/* an interrupt starts, is forgotten or ends here */
		for (qi = 0; qi < r->nr_irq; qi++) {
			struct ref_irq *q = &r->irq[qi];

			if (q->start_ev == i)
				q->synced = r->synced;
			if (q->abort_ev == i)
				dropped(r, e->time);
			if (q->end_ev == i)
				irq_end(r, qi, i);
		}
		/* the hardware's unmask leaves the thread's IRQs enabled */
		if (r->role[i] == ROLE_THREAD || r->role[i] == ROLE_TAIL_IE)
			thread_event(r, e, e->time);
	}
}

unsigned int lp_ref_run_idx(const struct lp_sm_event *ev, unsigned int n,
			    struct lp_sm_record *out, unsigned int *at,
			    unsigned int max)
{
	struct ref r;

	memset(&r, 0, sizeof(r));
	r.ev = ev;
	r.n = n;
	r.out = out;
	r.at = at;
	r.max = max;
	r.role = calloc(n + 1, sizeof(*r.role));
	r.irq_of = calloc(n + 1, sizeof(*r.irq_of));
	r.irq = calloc(n + 1, sizeof(*r.irq));
	r.span = calloc(2 * n + 1, sizeof(*r.span));
	r.scratch = calloc(2 * n + 1, sizeof(*r.scratch));
	r.nmi_record = calloc(n + 1, sizeof(*r.nmi_record));
	r.nmi_start = calloc(n + 1, sizeof(*r.nmi_start));
	if (!r.role || !r.irq_of || !r.irq || !r.span || !r.scratch ||
	    !r.nmi_record || !r.nmi_start)
		abort();

	classify(&r);
	interpret(&r);

	free(r.role);
	free(r.irq_of);
	free(r.irq);
	free(r.span);
	free(r.scratch);
	free(r.nmi_record);
	free(r.nmi_start);
	return r.nr_out;
}

unsigned int lp_ref_run(const struct lp_sm_event *ev, unsigned int n,
			struct lp_sm_record *out, unsigned int max)
{
	return lp_ref_run_idx(ev, n, out, NULL, max);
}
