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
	SITE_HANDLER, SITE_NMI, SITE_HOTPLUG,
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

/* gap - mostly short, sometimes long, always 1..100000 ns */
static u64 gap(struct gen *g)
{
	unsigned int r = rnd(g, 100);

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

static void put(struct gen *g, u32 type, u32 flags, unsigned long ip,
		u32 kind, u32 id)
{
	struct lp_sm_event *e;

	g->now += gap(g);
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
static void emit(struct gen *g, u32 type, u32 extra, enum gen_site site)
{
	put(g, type, cpu_flags(g) | extra, site_ip(g, site), 0, 0);
	if (type <= LP_SM_IDLE_EXIT)
		g->no_irq = false;
	maybe_nmi(g);
}

/* maybe_nmi - NMIs hit anywhere: between an ID and its IRQ_IN too */
static void maybe_nmi(struct gen *g)
{
	u64 start;

	if (g->offline || !chance(g, 3))
		return;
	put(g, LP_SM_NMI_ENTRY, cpu_flags(g), site_ip(g, SITE_NMI), 0, 0);
	start = g->now;
	if (chance(g, 15)) {
		/* a nested NMI: only the outer pair counts */
		put(g, LP_SM_NMI_ENTRY, cpu_flags(g), site_ip(g, SITE_NMI),
		    0, 0);
		put(g, LP_SM_NMI_EXIT, cpu_flags(g), site_ip(g, SITE_NMI),
		    0, 0);
	}
	put(g, LP_SM_NMI_EXIT, cpu_flags(g), site_ip(g, SITE_NMI), 0, 0);
	g->nmi_total += g->now - start;
}

/* ---- the IRQ flag and the preempt count, as the kernel traces them ---- */

static void irq_disable(struct gen *g, enum gen_site site)
{
	g->hw_on = false;
	if (g->tracing_on) {
		g->tracing_on = false;
		emit(g, LP_SM_IRQ_DISABLE, 0, site);
	}
}

/* irq_enable - the probe runs before the hardware unmasks */
static void irq_enable(struct gen *g, enum gen_site site)
{
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

/* ---- IRQs ---- */

static void handler(struct gen *g)
{
	u32 kind = rnd(g, 2) ? LATENCY_PARSER_VECTOR : LATENCY_PARSER_IRQ;
	u32 id = rnd(g, 256);

	put(g, LP_SM_IRQ_ENTRY, cpu_flags(g), site_ip(g, SITE_HANDLER),
	    kind, id);
	maybe_nmi(g);
	g->handlers++;
	if (g->handlers < 3 && chance(g, 8))
		handler(g);
	if (chance(g, 30))
		g->need_resched = true;	/* it woke a higher-priority thread */
	g->handlers--;
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

	irq_disable(g, SITE_IRQ_ID);
	do {
		handler(g);
	} while (chance(g, 10));

	/* PREEMPT_RT: irq_exit wakes ksoftirqd, preempt_count 0->1->0 */
	if (g->pc == 0 && chance(g, 30)) {
		g->pc = 1;
		emit(g, LP_SM_PREEMPT_DISABLE, 0, SITE_IRQ_TAIL_PD);
		if (chance(g, 50))
			g->need_resched = true;
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
	while (g->hw_on && !g->no_irq && chance(g, percent))
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
		emit(g, LP_SM_PREEMPT_ENABLE, 0, SITE_IRQ_RET_PE);
		if (g->need_resched)
			return CONT_IRQ;
		/* irqentry_exit(): trace_hardirqs_on(), then iret */
		irq_enable(g, SITE_IRQ_RET_IE);
		return CONT_NONE;
	}
	g->pc = 0;
	g->in_sched = false;
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
		preempt_disable(g, SITE_SCHED_PD);
		return 0;
	case CONT_PREEMPT:
		preempt_disable(g, SITE_PREEMPT_PD);
		return LP_SM_PREEMPT;
	case CONT_IRQ:
		/* in the IRQ's tail, hardware IRQs masked */
		preempt_disable(g, SITE_IRQ_SCHED_PD);
		irq_enable(g, SITE_IRQ_SCHED_IE);
		return LP_SM_PREEMPT;
	case CONT_IRQOFF:
		irq_disable(g, SITE_ID);
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
		extra = enter(g, how);
		g->in_sched = true;
		emit(g, LP_SM_SCHED_ENTRY, extra, SITE_SCHED_SE);
		maybe_irq(g, 10);
		irq_disable(g, SITE_SCHED_ID);
		g->need_resched = false;
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

static void task_step(struct gen *g)
{
	unsigned int r = rnd(g, 100);

	if (r < 25 && g->depth < GEN_DEPTH) {
		open_section(g);
	} else if (r < 52 && g->depth) {
		close_section(g);
	} else if (r < 58 && (g->pc || !g->hw_on)) {
		/* R10/R11: a wakeup with preemption or IRQs disabled */
		g->need_resched = true;
	} else if (r < 66 && !g->depth) {
		schedule(g, CONT_VOLUNTARY);
	} else if (r < 68 && !g->depth) {
		schedule(g, CONT_IRQOFF);
	} else if (g->hw_on) {
		irq(g);
	} else if (g->depth) {
		close_section(g);
	}
}

/* ---- the idle task ---- */

/* hotplug - the CPU dies in the idle loop and comes back */
static void hotplug(struct gen *g)
{
	irq_disable(g, SITE_IDLE_ID);
	put(g, LP_SM_CPU_OFFLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG),
	    0, 0);
	g->offline = true;
	g->need_resched = false;
	g->tracing_on = false;
	put(g, LP_SM_CPU_ONLINE, cpu_flags(g), site_ip(g, SITE_HOTPLUG),
	    0, 0);
	g->offline = false;
	irq_enable(g, SITE_IDLE_IE);
}

/*
 * idle_sleep - ID, IDLE_IN, then the hardware takes IRQs (sti; hlt) while
 * the tracing state says off: the IRQ that wakes the CPU emits no ID, its
 * return emits IE. IDLE_OUT masks IRQs again (raw), and the idle loop's
 * local_irq_enable() emits IE only if no IRQ did.
 */
static void idle_sleep(struct gen *g)
{
	unsigned int wakes = rnd(g, 3);

	irq_disable(g, SITE_IDLE_ID);
	emit(g, LP_SM_IDLE_ENTER, 0, SITE_IDLE_IN);
	g->hw_on = true;
	while (wakes--)
		irq(g);
	if (chance(g, 30))
		g->need_resched = true;	/* a remote wakeup: mwait's monitor */
	g->hw_on = false;
	emit(g, LP_SM_IDLE_EXIT, 0, SITE_IDLE_OUT);
	if (!g->tracing_on) {
		irq_enable(g, SITE_IDLE_IE);
		return;
	}
	/*
	 * The unmask is silent: the tracing state is already on. The parser
	 * still takes IRQs as disabled (IDLE_OUT) until the idle task's SE
	 * or its next ID: no IRQ is generated in between (see the spec).
	 */
	g->hw_on = true;
	g->no_irq = true;
}

static void idle_step(struct gen *g)
{
	unsigned int r = rnd(g, 100);

	if (g->need_resched) {
		schedule(g, CONT_IDLE);
	} else if (r < 30 && g->hw_on && !g->no_irq) {
		irq(g);
	} else if (r < 32) {
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
}

unsigned int lp_gen_sequence(u64 seed, unsigned int target,
			     struct lp_sm_event *ev, unsigned int max)
{
	struct gen g;
	unsigned int steps = 0;

	memset(&g, 0, sizeof(g));
	g.rng = seed * 0x2545f4914f6cdd1dULL + 1;
	g.ev = ev;
	g.max = max;
	start(&g);
	while (g.n < target && g.n < max && steps++ < 100 * target) {
		if (g.cur)
			task_step(&g);
		else
			idle_step(&g);
	}
	return g.n < max ? g.n : max;
}
