// SPDX-License-Identifier: GPL-2.0
/*
 * lp_generator - random valid event sequences of one simulated CPU (see
 * lp_generator.h).
 *
 * The simulation keeps what the kernel keeps: the hardware's IRQ mask, the
 * tracing state of the IRQ flag (ID/IE are emitted on its changes only),
 * the preempt count (PD/PE on 0<->1 only), TIF_NEED_RESCHED, the current
 * task, and for each task how it left the CPU, which says which events its
 * return from __schedule() emits.
 */
#include <string.h>

#include "lp_generator.h"

#define GEN_TASKS	4	/* tasks 1..GEN_TASKS; 0 is the idle task */
#define GEN_DEPTH	6	/* nested sections of a task */

/*
 * LP_GEN_REALISTIC: interrupt sources per sequence, their minimum
 * inter-arrival times (from 50 us per source, up to 200 us more: a timer
 * tick, a NIC, a disk), the
 * shortest time between two NMIs (perf fires them at 10 kHz at most), the
 * most a gap inside an interrupt takes, and the most the scheduler's gaps
 * are stretched. Tuned so that interrupts take 1.5% of the time on
 * average and at most 15%, and the sporadic bound is always finite.
 */
#define GEN_MAX_SOURCES	4
#define GEN_SRC_MIN	50000
#define GEN_SRC_SPREAD	200000
#define GEN_NMI_PERIOD	100000ULL
#define GEN_IRQ_GAP	2000
#define GEN_SCHED_SCALE	4

/*
 * LP_GEN_REMOTE: the reschedule IPI's vector (x86's), how long it flies
 * (100 ns to 20 us: to a CPU awake, or out of a shallow C-state), and,
 * under the realistic load, the least time between two of them (the
 * remote wakeups are one more sporadic source, so the bound stays
 * finite).
 */
#define GEN_IPI_VECTOR	253
#define GEN_IPI_FLIGHT	20000
#define GEN_IPI_PERIOD	100000ULL

/* An interrupt source of the realistic load: a device, a timer. */
struct gen_source {
	u32		kind;		/* LATENCY_PARSER_IRQ or _VECTOR */
	u32		id;
	u64		period;		/* its minimum inter-arrival time */
	u64		last;		/* its last IRQ's start */
	bool		fired;
};

/* How a task left the CPU: what its return from the scheduler emits. */
enum gen_cont {
	CONT_NONE,		/* no such task yet: a fork picks it */
	CONT_NEW,		/* schedule_tail(): SX, PE */
	CONT_VOLUNTARY,		/* schedule(): SX, PE */
	CONT_PREEMPT,		/* preempt_schedule(): SX, PE */
	CONT_IRQ,		/* preempt_schedule_irq(): SX, ID, PE, IE */
	CONT_IRQOFF,		/* entered with PD under IRQs off: SX, PE */
	CONT_IDLE,		/* the idle task: SX */
};

/* A section of a task's code. */
enum gen_sec {
	SEC_PREEMPT,		/* preempt_disable() ... preempt_enable() */
	SEC_IRQ,		/* local_irq_save() ... local_irq_restore() */
	SEC_LOCK,		/* raw_spin_lock_irqsave() ... unlock_irqrestore() */
	SEC_NR,
};

/* Call sites: the ip of an event says which one emitted it. */
enum gen_site {
	SITE_PD = 1, SITE_PE, SITE_ID, SITE_IE, SITE_LOCK_PD, SITE_UNLOCK_PE,
	SITE_SCHED_PD, SITE_SCHED_SE, SITE_SCHED_ID, SITE_SCHED_IE,
	SITE_SCHED_SX, SITE_SCHED_PE, SITE_PREEMPT_PD, SITE_IRQ_ID,
	SITE_IRQ_IE, SITE_IRQ_TAIL_PD, SITE_IRQ_TAIL_PE, SITE_IRQ_SCHED_PD,
	SITE_IRQ_SCHED_IE, SITE_IRQ_RET_ID, SITE_IRQ_RET_PE, SITE_IRQ_RET_IE,
	SITE_IDLE_ID, SITE_IDLE_IN, SITE_IDLE_OUT, SITE_IDLE_IE,
	SITE_IDLE_PREP, SITE_HANDLER, SITE_NMI, SITE_HOTPLUG,
};

struct gen {
	u64			rng;
	struct lp_sm_event	*ev;
	unsigned int		n;
	unsigned int		max;
	u64			now;
	u64			nmi_total;	/* finished outer NMIs */

	/* the CPU */
	bool			hw_on;		/* the hardware takes IRQs */
	bool			tracing_on;	/* trace_hardirqs' state */
	bool			need_resched;
	bool			in_sched;	/* from SE to EV7 */
	bool			offline;
	bool			no_irq;		/* see idle_sleep() */
	unsigned int		cur;		/* current task, 0: idle */
	unsigned int		pc;		/* the thread's preempt count */
	unsigned int		handlers;	/* IRQ handler nesting */

	/* the current task's open sections */
	unsigned char		sec[GEN_DEPTH];
	bool			sec_irqs_on[GEN_DEPTH];	/* saved flags */
	unsigned int		depth;

	unsigned char		cont[GEN_TASKS + 1];

	/* LP_GEN_REALISTIC: the sources, and where an interrupt is */
	struct gen_source	src[GEN_MAX_SOURCES];
	unsigned int		nr_src;
	int			irq_src;	/* the source of this IRQ */
	bool			irq_first;	/* its first handler is to come */
	bool			irq_ctx;	/* from irq() to the IRQ's IE */
	bool			in_nmi;
	bool			nmi_fired;
	unsigned int		sched_scale;	/* the scheduler's gaps, times */
	u64			nmi_last;

	/* LP_GEN_REMOTE: the reschedule IPI, as a source of its own */
	struct gen_source	ipi_src;
	bool			ipi_pending;	/* sent, not yet taken */
	u64			ipi_at;		/* it lands from then on */
	bool			irq_ipi;	/* this IRQ is the IPI */
	bool			after_ev3;	/* in the scheduler, past EV3 */

	unsigned int		features;	/* LP_GEN_* */
	bool			parked;		/* the tracer not started yet */
	unsigned int		skip;		/* events until it starts */
	bool			want_start;	/* its start is on the way */
	bool			recorded;	/* the last event was */
	int			blind_phase;	/* enum blind_phase */
	u32			blind_told;	/* the types that tell it */
	unsigned int		dying;		/* steps from OFFLINE to death */
	u64			last_at;	/* the last event emitted */
	bool			after_silent;	/* no thread event since */
	bool			lose;		/* the next event is lost */
	bool			lost;		/* one was */

	/* the ground truth (see the top of the file), when asked for */
	struct lp_gen_truth	*truth;
	bool			flow;		/* EV1 to EV7 */
	bool			dst_open;	/* EV3 to EV7 */
	bool			thread_irqs_off; /* the thread's own mask */
	bool			sleeping;
	bool			in_irq;		/* first event to the unmask */
	bool			irq_unstamped;	/* its first event is to come */
	int			cls;		/* enum truth_class */
	bool			cls_silent;	/* it began untraced */
	u64			cls_since;
	u64			flow_start;
	u64			dst_start;
	u64			irq_start;
	/* a wakeup waiting for EV3, and one that EV3 served */
	bool			wake_pending;
	u64			wake_ready;
	u64			wake_chain;
	bool			paie_valid;	/* pe_ie reached since it */
	bool			paie_silent;
	u64			paie_start;
	bool			wake_served;
	u64			served_ready;
	u64			served_chain;
};

/*
 * Where a stretch the tracer cannot see (struct lp_gen_blind) is: it ends
 * at the first traced entry into pe_ie after a whole traced pass through
 * the scheduler.
 */
enum blind_phase {
	BLIND_NONE,		/* no stretch open */
	BLIND_DEAD,		/* the CPU going down or dead: until ONLINE */
	BLIND_WAIT_TOLD,	/* a lost toggle's flag: until it is traced */
	BLIND_WAIT_SE,		/* until the scheduler's entry is traced */
	BLIND_WAIT_EV7,		/* until that pass's EV7 */
	BLIND_WAIT_PE_IE,	/* until the thread enters pe_ie, traced */
};

/* The thread's state, as the paper's variables split it. */
enum truth_class {
	TC_NONE = -1,
	TC_OFF,			/* asleep, or the CPU is dead: no window */
	TC_PE_IE,		/* preemption and IRQs enabled */
	TC_POID,		/* either disabled, outside the scheduler */
	TC_FLOW,		/* EV1 to EV7 */
};

u64 lp_gen_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct gen *g, unsigned int n)
{
	return lp_gen_rand(&g->rng) % n;
}

static bool chance(struct gen *g, unsigned int percent)
{
	return rnd(g, 100) < percent;
}

/* path - count a kernel path the sequence goes through */
static void path(struct gen *g, enum lp_gen_path p)
{
	if (g->truth && !g->skip)
		g->truth->path[p]++;
}

static u64 gap_classic(struct gen *g);

/* gap - mostly short, sometimes long, 1..100000 ns (LP_GEN_LONG: 2 ms) */
static u64 gap(struct gen *g)
{

	/*
	 * The realistic load: once an interrupt's first event is out, the
	 * next ones come within a handler's time, 0.1 to 2.1 us apart (a
	 * PREEMPT_RT hardirq handler wakes its thread and returns).
	 */
	if ((g->features & LP_GEN_REALISTIC) &&
	    (g->in_nmi || (g->irq_ctx && !g->irq_unstamped)))
		return 100 + rnd(g, GEN_IRQ_GAP);
	/*
	 * The realistic load: how long the scheduler's own stretches take
	 * against the rest varies from system to system (a switch of the
	 * address space, of the FPU, a runqueue lock under contention), so
	 * that in some sequences DST outlasts every POID.
	 */
	if ((g->features & LP_GEN_REALISTIC) && g->in_sched)
		return gap_classic(g) * g->sched_scale;
	return gap_classic(g);
}

/* gap_classic - the classic profile's stretches */
static u64 gap_classic(struct gen *g)
{
	unsigned int r;

	if ((g->features & LP_GEN_LONG) && chance(g, 1)) {
		path(g, LP_PATH_LONG);
		return 1 + rnd(g, 2000000);
	}
	r = rnd(g, 100);

	if (r < 50)
		return 1 + rnd(g, 1000);
	if (r < 85)
		return 1 + rnd(g, 10000);
	return 1 + rnd(g, 100000);
}

/* site_ip - a call site's address, varied so that ip mix-ups show */
static unsigned long site_ip(struct gen *g, enum gen_site site)
{
	return 0xffff0000UL + site * 0x100UL + rnd(g, 16) * 4;
}

static void maybe_nmi(struct gen *g);

/*
 * blind_begin - the tracer stops seeing at @at, for @why: a stretch opens,
 * or the open one goes on (and waits for a whole pass again)
 */
static void blind_begin(struct gen *g, enum lp_gen_blind_why why, u64 at)
{
	struct lp_gen_truth *t = g->truth;

	if (!t)
		return;
	if (why == LP_BLIND_OFFLINE)
		g->blind_phase = BLIND_DEAD;
	else if (g->blind_phase != BLIND_DEAD)
		g->blind_phase = BLIND_WAIT_SE;
	if (t->nr_blind && t->blind[t->nr_blind - 1].end == ~0ULL)
		return;
	if (t->nr_blind == LP_GEN_MAX_BLIND) {
		t->overflow = true;
		return;
	}
	t->blind[t->nr_blind++] = (struct lp_gen_blind){
		.start = at, .end = ~0ULL, .why = why,
	};
}

/* blind_end - the tracer sees everything again from @at */
static void blind_end(struct gen *g, u64 at)
{
	g->blind_phase = BLIND_NONE;
	if (g->truth && g->truth->nr_blind)
		g->truth->blind[g->truth->nr_blind - 1].end = at;
}

/* put - an event, to the parser unless parked or lost; true if it went */
static bool put(struct gen *g, u32 type, u32 flags, unsigned long ip,
		u32 kind, u32 id)
{
	struct lp_sm_event *e;

	g->now += gap(g);
	g->recorded = false;
	/* an NMI, or another CPU's post, is no event of the IRQ's */
	if (g->irq_unstamped && type != LP_SM_NMI_ENTRY &&
	    type != LP_SM_NMI_EXIT && type != LP_SM_REMOTE_RESCHED) {
		g->irq_start = g->now;
		g->irq_unstamped = false;
	}
	if (g->parked) {
		/* a parked parser is not fed: nothing it could lose */
		g->lose = false;
		if (g->skip && !--g->skip)
			g->want_start = true;
		return false;
	}
	if (g->lose) {
		g->lose = false;
		g->lost = true;
		if (g->truth && g->truth->nr_lost < LP_GEN_MAX_LOST)
			g->truth->lost[g->truth->nr_lost++] = g->now;
		blind_begin(g, LP_BLIND_LOST, g->now);
		/*
		 * Until the lost flag is traced again the tracer's view of it
		 * is wrong, and a scheduler pass is no sure ground: the SE
		 * may be where the parser finds the loss out.
		 */
		if (g->blind_phase == BLIND_WAIT_SE) {
			g->blind_phase = BLIND_WAIT_TOLD;
			if (type == LP_SM_PREEMPT_DISABLE ||
			    type == LP_SM_PREEMPT_ENABLE)
				g->blind_told = 1u << LP_SM_PREEMPT_DISABLE |
						1u << LP_SM_PREEMPT_ENABLE;
			else if (type == LP_SM_IRQ_DISABLE ||
				 type == LP_SM_IRQ_ENABLE)
				g->blind_told = 1u << LP_SM_IRQ_DISABLE |
						1u << LP_SM_IRQ_ENABLE;
			else	/* a handler's exit: the next thread event */
				g->blind_told = (1u << (LP_SM_IDLE_EXIT + 1)) - 1;
		}
		return false;
	}
	if (!g->n && g->truth)
		g->truth->trace_start = g->now;
	if (type == LP_SM_CPU_OFFLINE && g->truth) {
		g->truth->nr_offline++;
		blind_begin(g, LP_BLIND_OFFLINE, g->now);
	}
	if (type == LP_SM_CPU_ONLINE && g->blind_phase == BLIND_DEAD)
		g->blind_phase = BLIND_WAIT_SE;
	if (g->blind_phase == BLIND_WAIT_TOLD && (g->blind_told & 1u << type))
		g->blind_phase = BLIND_WAIT_SE;
	if (type == LP_SM_SCHED_ENTRY && g->blind_phase == BLIND_WAIT_SE)
		g->blind_phase = BLIND_WAIT_EV7;
	g->recorded = true;
	if (g->n < g->max) {
		e = &g->ev[g->n];
		memset(e, 0, sizeof(*e));
		e->time = g->now;
		e->nmi_time = g->nmi_total;
		e->ip = ip;
		e->type = type;
		e->flags = flags;
		e->kind = kind;
		e->id = id;
	}
	g->n++;
	return true;
}


/* ---- the ground truth ---- */


static void truth_span(struct gen *g, u32 var, u64 start, u64 end, bool silent)
{
	struct lp_gen_truth *t = g->truth;

	if (t->nr_spans == LP_GEN_MAX_SPANS) {
		t->overflow = true;
		return;
	}
	t->span[t->nr_spans++] = (struct lp_gen_span){
		.start = start, .end = end, .var = var, .silent = silent,
	};
}

static int truth_class(struct gen *g)
{
	if (g->offline || g->sleeping)
		return TC_OFF;
	if (g->flow)
		return TC_FLOW;
	/* the idle task outside the scheduler is preemptible (it polls) */
	if (g->thread_irqs_off || (g->pc && g->cur))
		return TC_POID;
	return TC_PE_IE;
}

/*
 * truth_update - the thread's state may have changed at @at (@silent: by
 * code no event shows): end the window of the state it leaves, and the
 * wakeup whose EV7 this is; begin the next.
 */
static void truth_update(struct gen *g, u64 at, bool silent)
{
	struct lp_gen_truth *t = g->truth;
	int cls;

	if (!t)
		return;
	cls = truth_class(g);
	if (cls == g->cls)
		return;
	/* the tracer saw the change: maybe the end of a blind stretch */
	if (!silent && g->recorded) {
		if (g->blind_phase == BLIND_WAIT_EV7 && g->cls == TC_FLOW)
			g->blind_phase = BLIND_WAIT_PE_IE;
		if (g->blind_phase == BLIND_WAIT_PE_IE && cls == TC_PE_IE)
			blind_end(g, at);
	}
	if (g->cls == TC_POID)
		truth_span(g, LP_POID, g->cls_since, at, g->cls_silent || silent);
	if (g->cls == TC_FLOW) {
		/* EV7: Lemma 2's PSD, and DST from EV3 */
		truth_span(g, LP_PSD, g->flow_start, at, false);
		if (g->dst_open)
			truth_span(g, LP_DST, g->dst_start, at, false);
		g->dst_open = false;
		if (g->wake_served && t->nr_wakeups < LP_GEN_MAX_WAKEUPS)
			t->wakeup[t->nr_wakeups++] = (struct lp_gen_wakeup){
				.ready = g->served_ready, .run = at,
				.chain = g->served_chain,
			};
		else if (g->wake_served)
			t->overflow = true;
		g->wake_served = false;
		/*
		 * A thread woken after EV3 is on its way to the next scheduler
		 * call from here, in pe_ie or not (preempt_schedule_irq()
		 * loops with IRQs masked): Lemma 4's transient window.
		 */
		if (g->wake_pending && !g->paie_valid) {
			g->paie_valid = true;
			g->paie_start = at;
			g->paie_silent = silent;
			if (cls == TC_POID)
				path(g, LP_PATH_EV7_MASKED);
		}
	}
	if (g->cls == TC_PE_IE && cls == TC_POID && g->wake_pending &&
	    g->paie_valid)
		path(g, LP_PATH_PAIE_SECTION);
	if (cls == TC_FLOW) {
		/* EV1: a woken thread's stretch in pe_ie ends (a PAIE) */
		g->flow_start = at;
		if (g->wake_pending && g->paie_valid)
			truth_span(g, LP_PAIE, g->paie_start, at, g->paie_silent);
		g->paie_valid = false;
	}
	if (cls == TC_PE_IE && g->wake_pending && !g->paie_valid) {
		g->paie_valid = true;
		g->paie_start = at;
		g->paie_silent = silent;
	}
	g->cls = cls;
	g->cls_since = at;
	g->cls_silent = silent;
}

/*
 * truth_event - an event was emitted at @at: the interrupt's unmask ends
 * it, EV3 opens DST, and the thread may be in a new state
 */
static void truth_event(struct gen *g, enum gen_site site, u64 at)
{
	if (!g->truth)
		return;
	if (site == SITE_SCHED_ID) {
		g->dst_open = true;
		g->dst_start = at;
	}
	if (g->in_irq && (site == SITE_IRQ_IE || site == SITE_IRQ_SCHED_IE)) {
		truth_span(g, LP_IRQ, g->irq_start, at, false);
		g->in_irq = false;
	}
	truth_update(g, at, false);
}

/*
 * wake - the highest-priority thread becomes ready now (RHP, Definition
 * 1): it runs at the EV7 of the first scheduler call that clears
 * need_resched (EV3) after this
 */
static void wake(struct gen *g)
{
	if (g->need_resched)
		return;
	g->need_resched = true;
	if (!g->truth || g->dying || g->offline)
		return;
	g->wake_pending = true;
	g->wake_ready = g->now;
	g->wake_chain = g->cls_since;
	if (g->in_irq && g->irq_start < g->wake_chain)
		g->wake_chain = g->irq_start;
	g->paie_valid = g->cls == TC_PE_IE;
	g->paie_start = g->now;
	g->paie_silent = g->cls_silent;
}

static void irq(struct gen *g);

/*
 * remote_may - a waker on another CPU may set need_resched now: the flag
 * is clear (it posts only then), the CPU is up, no IPI of the last one is
 * still in flight or before its handler's end (where its start becomes
 * the source's last arrival), and under the realistic load the IPI's
 * source may fire
 */
static bool remote_may(struct gen *g)
{
	if (!(g->features & LP_GEN_REMOTE) || g->need_resched || g->dying ||
	    g->offline || g->in_nmi || g->ipi_pending || g->irq_ipi)
		return false;
	return !(g->features & LP_GEN_REALISTIC) || !g->ipi_src.fired ||
	       g->ipi_src.last + g->ipi_src.period <= g->now;
}

/*
 * remote_wake - the waker sets need_resched now (the model's
 * set_need_resched, Definition 1's A), and sends the IPI unless @polling
 * (mwait's monitor wakes the CPU instead). The thread was on its way to
 * the scheduler from here if it was in pe_ie, or asleep: the idle task is
 * a preemptible thread with IRQs enabled (sti; hlt), and its way out of
 * the sleep is part of that transient window (Lemma 6). Elsewhere its way
 * begins as a local wakeup's does.
 */
static void remote_wake(struct gen *g, enum lp_gen_path p, bool polling)
{
	bool asleep = g->sleeping;

	put(g, LP_SM_REMOTE_RESCHED, 0, 0, 0, 0);
	path(g, p);
	wake(g);
	if (g->wake_pending && g->wake_ready == g->now) {
		g->paie_valid = g->cls == TC_PE_IE || asleep;
		/* RR is traced: the window starts at an event */
		g->paie_silent = false;
	}
	if (polling)
		return;
	g->ipi_pending = true;
	g->ipi_at = g->now + 100 + rnd(g, GEN_IPI_FLIGHT - 100 + 1);
}

/*
 * maybe_remote - after an event, a remote wakeup may land, wherever the
 * CPU is but asleep (idle_sleep() has its own) and in an NMI
 */
static void maybe_remote(struct gen *g)
{
	enum lp_gen_path p;

	if (!remote_may(g) || (g->sleeping && !g->in_irq) || !chance(g, 3))
		return;
	if (g->in_irq)
		p = LP_PATH_REMOTE_IN_IRQ;
	else if (g->flow)
		p = g->after_ev3 ? LP_PATH_REMOTE_SCHED_TAIL :
				   LP_PATH_REMOTE_SCHED;
	else if (g->thread_irqs_off || (g->pc && g->cur))
		p = LP_PATH_REMOTE_POID;
	else
		p = LP_PATH_REMOTE_PAIE;
	remote_wake(g, p, false);
}

/*
 * ipi - the reschedule IPI lands: an IRQ with the IPI's vector, no earlier
 * than its flight allows. If the scheduler ran meanwhile it has nothing
 * left to do, and is a plain IRQ.
 */
static void ipi(struct gen *g)
{
	g->ipi_pending = false;
	if (g->now < g->ipi_at)
		g->now = g->ipi_at;
	g->irq_ipi = true;
	irq(g);
}

/*
 * maybe_ipi - the IPI in flight lands as soon as it may: it has flown,
 * and the hardware takes IRQs. Returns true if it did.
 */
static bool maybe_ipi(struct gen *g)
{
	if (!g->ipi_pending || !g->hw_on || g->no_irq || g->offline ||
	    g->now < g->ipi_at)
		return false;
	ipi(g);
	return true;
}

/* serve - EV3 clears need_resched: the pending wakeup runs at this EV7 */
static void serve(struct gen *g)
{
	g->need_resched = false;
	if (!g->wake_pending)
		return;
	g->wake_pending = false;
	g->paie_valid = false;
	g->wake_served = true;
	g->served_ready = g->wake_ready;
	g->served_chain = g->wake_chain;
}

/* forget_wakeups - the CPU dies: its woken threads run elsewhere */
static void forget_wakeups(struct gen *g)
{
	g->need_resched = false;
	g->ipi_pending = false;
	g->wake_pending = false;
	g->wake_served = false;
	g->paie_valid = false;
}

/* cpu_flags - the flags a probe samples now */
static u32 cpu_flags(struct gen *g)
{
	u32 f = 0;

	if (!g->hw_on)
		f |= LP_SM_HW_IRQS_OFF;
	if (g->need_resched)
		f |= LP_SM_NEED_RESCHED;
	if (g->cur == 0)
		f |= LP_SM_IDLE_TASK;
	return f;
}

/* emit - an event of the thread or of an IRQ; an NMI may follow it */
/* lossy - a section's toggle, or a handler's exit, that a probe missed */
static bool lossy(struct gen *g, enum gen_site site)
{
	/* one loss a sequence: two could hide a section whole */
	if (!(g->features & LP_GEN_LOSSY) || g->lost)
		return false;
	switch (site) {
	case SITE_PD: case SITE_PE: case SITE_ID: case SITE_IE:
	case SITE_LOCK_PD: case SITE_UNLOCK_PE: case SITE_HANDLER:
		return !rnd(g, 100);
	case SITE_IDLE_ID: case SITE_IDLE_IN: case SITE_IDLE_OUT:
	case SITE_IDLE_IE: case SITE_IDLE_PREP:
		/* the idle task's probes miss as the others do */
		return (g->features & LP_GEN_IDLE_LOSS) && !rnd(g, 100);
	default:
		return false;
	}
}

static void emit(struct gen *g, u32 type, u32 extra, enum gen_site site)
{
	g->lose = lossy(g, site);
	put(g, type, cpu_flags(g) | extra, site_ip(g, site), 0, 0);
	g->last_at = g->now;
	/* the interrupt's unmask is its last event */
	if (site == SITE_IRQ_IE || site == SITE_IRQ_SCHED_IE)
		g->irq_ctx = false;
	if (type <= LP_SM_IDLE_EXIT)
		g->after_silent = false;
	truth_event(g, site, g->now);
	/* (with or without the truth: maybe_remote() asks) */
	if (site == SITE_IRQ_IE || site == SITE_IRQ_SCHED_IE)
		g->in_irq = false;
	if (type <= LP_SM_IDLE_EXIT)
		g->no_irq = false;
	maybe_nmi(g);
	maybe_remote(g);
}

/* maybe_nmi - NMIs hit anywhere: between an ID and its IRQ_IN too */
static void maybe_nmi(struct gen *g)
{
	u64 start;

	if (g->offline || !chance(g, 3))
		return;
	/* the realistic load: NMIs GEN_NMI_PERIOD apart at least */
	if ((g->features & LP_GEN_REALISTIC) && g->nmi_fired &&
	    g->now + 1 - g->nmi_last < GEN_NMI_PERIOD)
		return;
	put(g, LP_SM_NMI_ENTRY, cpu_flags(g), site_ip(g, SITE_NMI), 0, 0);
	start = g->now;
	g->nmi_fired = true;
	g->nmi_last = start;
	g->in_nmi = true;
	if (chance(g, 15)) {
		/* a nested NMI: only the outer pair counts */
		path(g, LP_PATH_NESTED_NMI);
		put(g, LP_SM_NMI_ENTRY, cpu_flags(g), site_ip(g, SITE_NMI),
		    0, 0);
		put(g, LP_SM_NMI_EXIT, cpu_flags(g), site_ip(g, SITE_NMI),
		    0, 0);
	}
	put(g, LP_SM_NMI_EXIT, cpu_flags(g), site_ip(g, SITE_NMI), 0, 0);
	g->in_nmi = false;
	g->nmi_total += g->now - start;
	if (g->truth)
		truth_span(g, LP_NMI, start, g->now, false);
}

/* ---- the IRQ flag and the preempt count, as the kernel traces them ---- */

static void irq_disable(struct gen *g, enum gen_site site)
{
	g->hw_on = false;
	/* the entry code's mask is the hardware's, not the thread's */
	if (site != SITE_IRQ_ID)
		g->thread_irqs_off = true;
	if (g->tracing_on) {
		g->tracing_on = false;
		emit(g, LP_SM_IRQ_DISABLE, 0, site);
	}
}

/* irq_enable - the probe runs before the hardware unmasks */
static void irq_enable(struct gen *g, enum gen_site site)
{
	/* an interrupt's return unmasks for the thread it interrupted */
	if (!g->in_irq || (site != SITE_IRQ_IE && site != SITE_IRQ_SCHED_IE))
		g->thread_irqs_off = false;
	if (!g->tracing_on) {
		g->tracing_on = true;
		emit(g, LP_SM_IRQ_ENABLE, 0, site);
	}
	g->hw_on = true;
}

static void preempt_disable(struct gen *g, enum gen_site site)
{
	if (g->pc++ == 0)
		emit(g, LP_SM_PREEMPT_DISABLE, 0, site);
}

static void schedule(struct gen *g, enum gen_cont how);

/* preempt_enable - 1->0 emits PE, and preempts if it may */
static void preempt_enable(struct gen *g, enum gen_site site)
{
	if (--g->pc)
		return;
	emit(g, LP_SM_PREEMPT_ENABLE, 0, site);
	if (g->need_resched && g->hw_on && g->cur && !g->in_sched)
		schedule(g, CONT_PREEMPT);
}

/* ---- the tracer's start ---- */

/*
 * start_tracing - the tracer starts this CPU's parser as the kernel does
 * (lp_start_parsers() in trace_latency_parser.c): every parser is parked
 * while the probes are registered one by one, then each CPU gets
 * CPU_ONLINE with IRQs masked, in the IPI of on_each_cpu() or, on the CPU
 * that asked, between its local_irq_save() and local_irq_restore(). What
 * came before is lost to the parser; the events after ONLINE are its
 * first ones: the IPI's exit and return, or the caller's irq_enable.
 */
static void start_tracing(struct gen *g)
{
	g->parked = false;
	g->want_start = false;
	if (g->in_sched || g->depth)
		path(g, LP_PATH_MID_START);
	put(g, LP_SM_CPU_ONLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG), 0, 0);
}

/*
 * start_here - this CPU is the one that wrote current_tracer: on_each_cpu()
 * runs the start locally, preemption and IRQs disabled around it
 */
static void start_here(struct gen *g)
{
	bool irqs_on = g->hw_on;

	preempt_disable(g, SITE_PD);
	if (irqs_on)
		irq_disable(g, SITE_ID);
	start_tracing(g);
	if (irqs_on)
		irq_enable(g, SITE_IE);
	preempt_enable(g, SITE_PE);
}

/* ---- IRQs ---- */

/*
 * source_at - when source @i may fire next under the realistic load: its
 * last IRQ's start plus its period. The IRQ starts at its first event,
 * after a gap, so an arrival from this time on keeps the period.
 */
static u64 source_at(struct gen *g, unsigned int i)
{
	return g->src[i].fired ? g->src[i].last + g->src[i].period : 0;
}

/* ready_source - a source that may fire now, from a random one on; -1 */
static int ready_source(struct gen *g)
{
	unsigned int i, first = rnd(g, g->nr_src);

	for (i = 0; i < g->nr_src; i++) {
		unsigned int s = (first + i) % g->nr_src;

		if (source_at(g, s) <= g->now)
			return s;
	}
	return -1;
}

/* irq_may - an IRQ may come now: always, but in the realistic load */
static bool irq_may(struct gen *g)
{
	unsigned int i;

	if (!(g->features & LP_GEN_REALISTIC))
		return true;
	for (i = 0; i < g->nr_src; i++)
		if (source_at(g, i) <= g->now)
			return true;
	return false;
}

/*
 * wait_irq - a sleeping CPU under the realistic load: it wakes when the
 * first of its sources fires, not before
 */
static void wait_irq(struct gen *g)
{
	u64 next = ~0ULL;
	unsigned int i;

	if (!(g->features & LP_GEN_REALISTIC))
		return;
	for (i = 0; i < g->nr_src; i++)
		if (source_at(g, i) < next)
			next = source_at(g, i);
	if (next > g->now)
		g->now = next;
}

/*
 * sources - the realistic load's devices: two to four, each with its
 * minimum inter-arrival time; and how slow this system's scheduler is
 */
static void sources(struct gen *g)
{
	unsigned int i;

	g->nr_src = 2 + rnd(g, GEN_MAX_SOURCES - 1);
	for (i = 0; i < g->nr_src; i++) {
		g->src[i].kind = rnd(g, 2) ? LATENCY_PARSER_VECTOR :
					     LATENCY_PARSER_IRQ;
		/* distinct ids: two sources must not merge into one */
		g->src[i].id = i * 64 + rnd(g, 64);
		/* nor one with the reschedule IPI */
		if (g->src[i].kind == LATENCY_PARSER_VECTOR &&
		    g->src[i].id == GEN_IPI_VECTOR)
			g->src[i].id--;
		/*
		 * More sources, each less often: all of them at their
		 * fastest take a few percent of the time, not more
		 */
		g->src[i].period = GEN_SRC_MIN * g->nr_src +
				   rnd(g, GEN_SRC_SPREAD);
		/*
		 * Each fired before the sequence began: its next arrival
		 * lies anywhere in a period from now, not now for all at
		 * once (a burst of every source at the start of a short
		 * sequence took over 15% of its time). The sum wraps back:
		 * source_at() is now plus the phase.
		 */
		g->src[i].fired = true;
		g->src[i].last = g->now + rnd(g, g->src[i].period) -
				 g->src[i].period;
	}
	g->sched_scale = 1 + rnd(g, GEN_SCHED_SCALE);
}

static void handler(struct gen *g)
{
	u32 kind = rnd(g, 2) ? LATENCY_PARSER_VECTOR : LATENCY_PARSER_IRQ;
	u32 id = rnd(g, 256);

	/*
	 * The realistic load: the IRQ's record carries its first handler's
	 * source, the one that fired; more handlers of it are other devices
	 * sharing the entry, not new arrivals.
	 */
	if (g->irq_first) {
		const struct gen_source *src = g->irq_ipi ? &g->ipi_src :
					       &g->src[g->irq_src];

		g->irq_first = false;
		kind = src->kind;
		id = src->id;
	}
	put(g, LP_SM_IRQ_ENTRY, cpu_flags(g), site_ip(g, SITE_HANDLER),
	    kind, id);
	/* the start's IPI: its handler is the first IRQ to run */
	if (g->want_start && !g->handlers && !g->dying)
		start_tracing(g);
	maybe_nmi(g);
	maybe_remote(g);
	g->handlers++;
	if (g->handlers < 3 && chance(g, 8))
		handler(g);
	if (chance(g, 30))
		wake(g);	/* it woke a higher-priority thread */
	g->handlers--;
	g->lose = lossy(g, SITE_HANDLER);
	put(g, LP_SM_IRQ_EXIT, cpu_flags(g), site_ip(g, SITE_HANDLER), 0, 0);
	maybe_nmi(g);
}

/*
 * irq - an interrupt hits what runs now (the hardware takes IRQs): the
 * entry code's ID, the handlers, the RT tail, then the return.
 */
static void irq(struct gen *g)
{
	bool preemptible = g->cur && !g->in_sched && g->pc == 0;
	bool is_ipi = g->irq_ipi;
	int src = -1;

	if (g->features & LP_GEN_REALISTIC) {
		src = is_ipi ? -1 : ready_source(g);
		g->irq_src = src;
		g->irq_first = src >= 0;
		g->irq_ctx = true;
	}
	/* the IPI's record carries its vector, in both profiles */
	if (is_ipi)
		g->irq_first = true;
	g->in_irq = true;
	g->irq_unstamped = true;
	if (g->after_silent)
		path(g, LP_PATH_SILENT_IRQ);
	irq_disable(g, SITE_IRQ_ID);
	do {
		handler(g);
	} while (chance(g, 10));
	/* the source's arrival is the IRQ's start, as its record's */
	if (src >= 0) {
		g->src[src].fired = true;
		g->src[src].last = g->irq_start;
	}
	if (is_ipi) {
		g->ipi_src.fired = true;
		g->ipi_src.last = g->irq_start;
		g->irq_ipi = false;
	}

	/* PREEMPT_RT: irq_exit wakes ksoftirqd, preempt_count 0->1->0 */
	if (g->pc == 0 && chance(g, 30)) {
		g->pc = 1;
		emit(g, LP_SM_PREEMPT_DISABLE, 0, SITE_IRQ_TAIL_PD);
		if (chance(g, 50))
			wake(g);
		g->pc = 0;
		emit(g, LP_SM_PREEMPT_ENABLE, 0, SITE_IRQ_TAIL_PE);
	}

	if (preemptible && g->need_resched) {
		schedule(g, CONT_IRQ);
		return;
	}
	irq_enable(g, SITE_IRQ_IE);
}

/* maybe_irq - an IRQ in the scheduler, where the hardware takes them */
static void maybe_irq(struct gen *g, unsigned int percent)
{
	maybe_ipi(g);
	while (g->hw_on && !g->no_irq && chance(g, percent) && irq_may(g))
		irq(g);
}

/* ---- the scheduler ---- */

/* pick - the next task: the idle task, a runnable one, or a new one */
static unsigned int pick(struct gen *g)
{
	unsigned int next;

	if (chance(g, 25))
		return 0;
	next = 1 + rnd(g, GEN_TASKS);
	if (g->cont[next] == CONT_NONE)
		g->cont[next] = CONT_NEW;
	return next;
}

/*
 * resume - the task picked returns from __schedule() where it left: SX,
 * then what its way in needs to leave (EV7 is its PE, or the idle's SX).
 * Returns how it must schedule again if need_resched is set, or CONT_NONE.
 */
static enum gen_cont resume(struct gen *g)
{
	enum gen_cont how = g->cont[g->cur];

	/* the idle task's EV7 is its SX */
	if (g->cur == 0)
		g->flow = false;
	emit(g, LP_SM_SCHED_EXIT, 0, SITE_SCHED_SX);
	if (g->cur == 0) {
		g->in_sched = false;
		g->pc = 1;	/* the idle task never enables preemption */
		return CONT_NONE;
	}
	maybe_irq(g, 10);
	if (how == CONT_IRQ) {
		/* preempt_schedule_irq(): local_irq_disable(), then PE */
		irq_disable(g, SITE_IRQ_RET_ID);
		g->pc = 0;
		g->in_sched = false;
		g->flow = false;
		emit(g, LP_SM_PREEMPT_ENABLE, 0, SITE_IRQ_RET_PE);
		if (g->need_resched)
			return CONT_IRQ;
		/* irqentry_exit(): trace_hardirqs_on(), then iret */
		irq_enable(g, SITE_IRQ_RET_IE);
		return CONT_NONE;
	}
	g->pc = 0;
	g->in_sched = false;
	g->flow = false;
	emit(g, LP_SM_PREEMPT_ENABLE, 0, SITE_SCHED_PE);
	if (!g->need_resched)
		return CONT_NONE;
	if (how == CONT_PREEMPT)
		return CONT_PREEMPT;
	/* schedule()'s loop: while (need_resched()) */
	return chance(g, 50) ? CONT_VOLUNTARY : CONT_NONE;
}

/* enter - how each way in reaches SE; returns SE's extra flags */
static u32 enter(struct gen *g, enum gen_cont how)
{
	switch (how) {
	case CONT_VOLUNTARY:
		g->flow = true;		/* EV1 */
		preempt_disable(g, SITE_SCHED_PD);
		return 0;
	case CONT_PREEMPT:
		g->flow = true;
		preempt_disable(g, SITE_PREEMPT_PD);
		return LP_SM_PREEMPT;
	case CONT_IRQ:
		/* in the IRQ's tail, hardware IRQs masked */
		g->flow = true;
		preempt_disable(g, SITE_IRQ_SCHED_PD);
		irq_enable(g, SITE_IRQ_SCHED_IE);
		return LP_SM_PREEMPT;
	case CONT_IRQOFF:
		irq_disable(g, SITE_ID);
		g->flow = true;
		preempt_disable(g, SITE_PD);
		irq_enable(g, SITE_IE);
		return 0;
	default:
		/* the idle task: preemption is already disabled */
		return 0;
	}
}

/*
 * schedule - __schedule() and the loop around it: EV1 (PD, or none for
 * the idle task), SE, EV3 (ID), the switch, EV5 (IE), SX, EV7.
 */
static void schedule(struct gen *g, enum gen_cont how)
{
	u32 extra;

	while (how != CONT_NONE && g->n < g->max + 64) {
		g->after_ev3 = false;
		extra = enter(g, how);
		g->in_sched = true;
		g->flow = true;		/* the idle task's EV1 is its SE */
		emit(g, LP_SM_SCHED_ENTRY, extra, SITE_SCHED_SE);
		maybe_irq(g, 10);
		irq_disable(g, SITE_SCHED_ID);	/* EV3 */
		serve(g);
		g->after_ev3 = true;
		g->cont[g->cur] = g->cur ? how : CONT_IDLE;
		g->cur = pick(g);
		irq_enable(g, SITE_SCHED_IE);
		maybe_irq(g, 10);
		how = resume(g);
	}
}

/* ---- a task's code ---- */

static void open_section(struct gen *g)
{
	enum gen_sec s = rnd(g, SEC_NR);

	g->sec[g->depth] = s;
	g->sec_irqs_on[g->depth] = g->hw_on;
	g->depth++;
	if (s == SEC_IRQ || s == SEC_LOCK)
		irq_disable(g, SITE_ID);
	if (s == SEC_PREEMPT)
		preempt_disable(g, SITE_PD);
	if (s == SEC_LOCK)
		preempt_disable(g, SITE_LOCK_PD);
}

static void close_section(struct gen *g)
{
	unsigned int d = --g->depth;
	enum gen_sec s = g->sec[d];

	if ((s == SEC_IRQ || s == SEC_LOCK) && g->sec_irqs_on[d])
		irq_enable(g, SITE_IE);
	if (s == SEC_PREEMPT)
		preempt_enable(g, SITE_PE);
	if (s == SEC_LOCK)
		preempt_enable(g, SITE_UNLOCK_PE);
}

static void offline_from_thread(struct gen *g);

static void task_step(struct gen *g)
{
	unsigned int r;

	if ((g->features & LP_GEN_THREAD_OFFLINE) && !g->dying &&
	    !rnd(g, 500)) {
		offline_from_thread(g);
		return;
	}
	if (g->want_start && !g->in_sched && !g->dying && chance(g, 30)) {
		start_here(g);
		return;
	}
	if (maybe_ipi(g))
		return;
	r = rnd(g, 100);
	if (r < 25 && g->depth < GEN_DEPTH) {
		open_section(g);
	} else if (r < 52 && g->depth) {
		close_section(g);
	} else if (r < 58 && (g->pc || !g->hw_on)) {
		/* R10/R11: a wakeup with preemption or IRQs disabled */
		if (!g->hw_on && !g->need_resched)
			path(g, LP_PATH_WOKEN_MASKED);
		wake(g);
	} else if (r < 66 && !g->depth) {
		schedule(g, CONT_VOLUNTARY);
	} else if (r < 68 && !g->depth) {
		schedule(g, CONT_IRQOFF);
	} else if (g->hw_on && irq_may(g)) {
		irq(g);
	} else if (g->depth) {
		close_section(g);
	}
}

/* ---- the idle task ---- */

/*
 * cpu_dies - the CPU is gone; it comes back as a new CPU would: the idle
 * task with IRQs masked, until the hotplug callback says ONLINE
 */
static void cpu_dies(struct gen *g)
{
	g->dying = 0;
	g->offline = true;
	forget_wakeups(g);
	truth_update(g, g->now, false);
	if (g->cur)
		g->cont[g->cur] = CONT_VOLUNTARY;	/* it runs elsewhere */
	g->cur = 0;
	g->pc = 1;
	g->depth = 0;
	g->hw_on = false;
	g->tracing_on = false;
	g->thread_irqs_off = true;
	g->in_sched = false;
	g->flow = false;
	g->dst_open = false;
	g->no_irq = false;
	if (g->features & LP_GEN_LONG)
		g->now += 1 + rnd(g, 2000000);
	/*
	 * A CPU torn down while the tracer started stayed parked (its
	 * lp_cpu_up was clear): lp_cpu_online() starts it now.
	 */
	if (g->want_start) {
		g->parked = false;
		g->want_start = false;
	}
	put(g, LP_SM_CPU_ONLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG),
	    0, 0);
	g->offline = false;
	truth_update(g, g->now, false);
	irq_enable(g, SITE_IDLE_IE);
}

/* hotplug - the CPU dies in the idle loop and comes back */
static void hotplug(struct gen *g)
{
	irq_disable(g, SITE_IDLE_ID);
	put(g, LP_SM_CPU_OFFLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG),
	    0, 0);
	cpu_dies(g);
}

/*
 * offline_from_thread - the teardown callback runs in the cpuhp thread,
 * a task: the CPU goes on for a while (its events are no longer parsed),
 * then dies at a point where the task holds nothing
 */
static void offline_from_thread(struct gen *g)
{
	put(g, LP_SM_CPU_OFFLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG),
	    0, 0);
	path(g, LP_PATH_THREAD_OFFLINE);
	g->dying = 1 + rnd(g, 20);
}

/*
 * idle_sleep - ID, IDLE_IN, then the hardware takes IRQs (sti; hlt) while
 * the tracing state says off: the IRQ that wakes the CPU emits no ID, its
 * return emits IE. IDLE_OUT masks IRQs again (raw), and the idle loop's
 * local_irq_enable() emits IE only if no IRQ did.
 *
 * A remote wakeup of the sleeping CPU (LP_GEN_REMOTE): in hlt, its IPI is
 * the IRQ that wakes it, a flight after RR; in mwait (no IRQ comes) the
 * monitor wakes it, after the hardware's way out of the sleep, and no IPI
 * is sent. Either way the thread is ready from RR on, while the CPU
 * sleeps. One that landed while the idle loop masked IRQs before the
 * sleep has its IPI pending: that IPI wakes the CPU at once.
 */
static void idle_sleep(struct gen *g)
{
	unsigned int wakes = rnd(g, 3);
	bool remote = (g->features & LP_GEN_REMOTE) && chance(g, 30);

	irq_disable(g, SITE_IDLE_ID);
	g->sleeping = true;
	emit(g, LP_SM_IDLE_ENTER, 0, SITE_IDLE_IN);
	/* ct_cpuidle_enter(): the tracing state is on from here */
	if ((g->features & LP_GEN_IDLE_PREP) && chance(g, 85)) {
		path(g, LP_PATH_IDLE_PREP);
		irq_enable(g, SITE_IDLE_PREP);
	}
	/*
	 * A remote wakeup between the idle loop's mask and its sleep (after
	 * its need_resched check, before hlt): its IPI wakes the CPU once it
	 * has flown. The CPU sleeps that flight away in pe_ie for the model
	 * (the idle task, sti; hlt), on the woken thread's way to the
	 * scheduler: the PAIE that the POID postponed runs from here.
	 */
	if (g->wake_pending && !g->paie_valid) {
		g->paie_valid = true;
		g->paie_start = g->last_at;
		g->paie_silent = false;
	}
	g->hw_on = true;
	g->thread_irqs_off = false;	/* sti; hlt */
	if (g->ipi_pending) {
		if (!wakes)
			wakes = 1;
	} else if (remote && remote_may(g)) {
		/* the realistic load: no sooner than the IPI's source may */
		if ((g->features & LP_GEN_REALISTIC) && g->ipi_src.fired &&
		    g->now < g->ipi_src.last + g->ipi_src.period)
			g->now = g->ipi_src.last + g->ipi_src.period;
		remote_wake(g, wakes ? LP_PATH_REMOTE_IDLE_HLT :
				       LP_PATH_REMOTE_IDLE_POLL, !wakes);
		if (!wakes)
			g->now += 100 + rnd(g, GEN_IPI_FLIGHT - 100 + 1);
	}
	/*
	 * The first IRQ wakes the CPU: from its return on the idle task runs
	 * (IRQs enabled) until the idle loop masks them again at IDLE_OUT.
	 */
	if (wakes) {
		if (g->ipi_pending) {
			ipi(g);
		} else {
			wait_irq(g);
			irq(g);
		}
		g->sleeping = false;
		truth_update(g, g->last_at, false);
	}
	while (wakes-- > 1 && irq_may(g))
		irq(g);
	g->hw_on = false;
	g->sleeping = false;
	g->thread_irqs_off = true;
	emit(g, LP_SM_IDLE_EXIT, 0, SITE_IDLE_OUT);
	if (!g->tracing_on) {
		irq_enable(g, SITE_IDLE_IE);
		return;
	}
	/*
	 * The unmask is silent: the tracing state is already on, so no event
	 * tells it. Without LP_GEN_SILENT_IRQ no IRQ comes until the idle
	 * task's SE or its next ID (the classic mix the reference reads).
	 */
	if (g->features & LP_GEN_SILENT_IRQ)
		g->now += gap(g);
	g->hw_on = true;
	g->thread_irqs_off = false;
	g->after_silent = true;
	truth_update(g, g->now, true);
	if (!(g->features & LP_GEN_SILENT_IRQ))
		g->no_irq = true;
}

static void idle_step(struct gen *g)
{
	unsigned int r = rnd(g, 100);

	if (maybe_ipi(g))
		return;
	if (g->need_resched) {
		schedule(g, CONT_IDLE);
	} else if (r < 30 && g->hw_on && !g->no_irq && irq_may(g)) {
		irq(g);
	} else if (r < 32 && !g->dying) {
		hotplug(g);
	} else {
		idle_sleep(g);
	}
}

/* ---- the sequence ---- */

/* start - the trace begins in a task, maybe inside a section */
static void start(struct gen *g)
{
	unsigned int i;

	g->cur = 1;
	g->hw_on = true;
	g->tracing_on = true;
	for (i = 2; i <= GEN_TASKS; i++)
		g->cont[i] = rnd(g, CONT_IRQOFF + 1);
	g->cont[0] = CONT_IDLE;
	g->ipi_src = (struct gen_source){
		.kind = LATENCY_PARSER_VECTOR, .id = GEN_IPI_VECTOR,
		.period = GEN_IPI_PERIOD,
	};
	g->now = 1 + rnd(g, 1000000);
	g->need_resched = chance(g, 10);
	/* sections opened before the trace began: no events */
	while (g->depth < 2 && chance(g, 40)) {
		enum gen_sec s = rnd(g, SEC_NR);

		g->sec[g->depth] = s;
		g->sec_irqs_on[g->depth] = g->hw_on;
		g->depth++;
		if (s != SEC_PREEMPT) {
			g->hw_on = false;
			g->tracing_on = false;
		}
		if (s != SEC_IRQ)
			g->pc++;
	}
	g->thread_irqs_off = !g->hw_on;
	g->cls = TC_NONE;
	truth_update(g, g->now, false);
	if (g->features & LP_GEN_REALISTIC)
		sources(g);
}

unsigned int lp_gen_sequence_truth(u64 seed, unsigned int target,
				   struct lp_sm_event *ev, unsigned int max,
				   unsigned int features,
				   struct lp_gen_truth *truth)
{
	struct gen g;
	unsigned int steps = 0;

	memset(&g, 0, sizeof(g));
	g.rng = seed * 0x2545f4914f6cdd1dULL + 1;
	g.ev = ev;
	g.max = max;
	g.features = features;
	g.truth = truth;
	if (truth) {
		truth->nr_spans = 0;
		truth->nr_wakeups = 0;
		truth->trace_start = 0;
		truth->nr_offline = 0;
		truth->nr_lost = 0;
		truth->nr_blind = 0;
		truth->overflow = false;
		memset(truth->path, 0, sizeof(truth->path));
	}
	start(&g);
	if (truth)
		truth->begin = g.now;
	/*
	 * The parser knows nothing at first: it syncs as it can. With
	 * LP_GEN_MID_START the tracer starts after any number of events, and
	 * the way the kernel starts it (start_tracing()).
	 */
	blind_begin(&g, LP_BLIND_START, 0);
	if (features & LP_GEN_MID_START) {
		g.parked = true;
		g.skip = rnd(&g, target);
		g.want_start = !g.skip;
	}
	while (g.n < target && g.n < max && steps++ < 100 * target) {
		if (g.dying == 1 && !g.depth)
			cpu_dies(&g);
		else if (g.dying > 1)
			g.dying--;
		if (g.cur)
			task_step(&g);
		else
			idle_step(&g);
	}
	if (truth)
		truth->end = g.now;
	return g.n < max ? g.n : max;
}

unsigned int lp_gen_sequence(u64 seed, unsigned int target,
			     struct lp_sm_event *ev, unsigned int max)
{
	return lp_gen_sequence_truth(seed, target, ev, max, 0, NULL);
}
