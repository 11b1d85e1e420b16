/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the events: the tracer's events as they stream in,
 * into the per-cpu state and the bound engine, and the stop they tell of.
 */
#ifndef __SCHED_LATENCY_EVENTS_H
#define __SCHED_LATENCY_EVENTS_H

#include "sched_latency_core.h"

/* frames kept of a stack trace (the kernel records at most 8 per entry) */
#define SL_STACK_MAX		64
/* a resolved frame: symbol+0xoffset [module] */
#define SL_SYM_LEN		256

/* the frames of one kernel stack trace */
struct sl_stack {
	int			nr;
	unsigned long long	ip[SL_STACK_MAX];
};

/* why and where the measurement stopped on the threshold */
struct sl_stop {
	bool			hit;
	int			cpu;
	int			var;		/* enum sl_var or SL_STOP_BOUND */
	unsigned long long	value;		/* ns */
	unsigned long long	start;		/* ns, trace clock */
	unsigned long long	ip;
	bool			has_stack;
	struct sl_stack		stack;
	/* the names of ip and of the frames, by sl_symbolize_stop() */
	char			where[SL_SYM_LEN];
	char			frame[SL_STACK_MAX][SL_SYM_LEN];
};

/* what the handlers keep of one CPU */
struct sl_events_cpu {
	/* a max or stop event waiting for the stack trace that follows it */
	int			pending_var;	/* -1: none */
	bool			pending_stop;
	/* the stack of the latest new maximum of each variable */
	struct sl_stack		stack[SL_NR_VARS];
};

struct sl_events {
	struct sl_stop		stop;
	struct sl_events_cpu	*cpu;
};

int sl_events_init(struct sl_tool *tool);
void sl_events_free(struct sl_tool *tool);
void sl_stop_tracing(struct sl_tool *tool);
bool sl_window_stack(struct sl_tool *tool, int cpu, int var, struct sl_stack *stack);

#endif /* __SCHED_LATENCY_EVENTS_H */
