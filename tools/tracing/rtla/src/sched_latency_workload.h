/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the workload: the command after "--", started with
 * the measurement and reaped when it ends, and what cyclictest measured.
 */
#ifndef __SCHED_LATENCY_WORKLOAD_H
#define __SCHED_LATENCY_WORKLOAD_H

#include <stdio.h>

#include "sched_latency_core.h"

struct sl_workload {
	pid_t			pid;
	bool			running;
	bool			ended;		/* by itself, before rtla stopped it */
	int			status;		/* waitpid() status */
	FILE			*out;		/* its stdout, kept for the end */
	char			*command;	/* for display and JSON */
	/*
	 * cyclictest's threads and CPUs, as it pins them: with -a LIST (or
	 * -a, -S: rtla's own affinity), thread N runs on the (N mod count)th
	 * CPU of the set; without, threads float and belong to no CPU.
	 */
	bool			pinned;
	cpu_set_t		thread_cpus;
	/* per CPU, the maximum of the cyclictest threads pinned to it; -1: none */
	long long		*max_us;
};

int sl_workload_start(struct sl_tool *tool);
bool sl_workload_reap(struct sl_tool *tool);
bool sl_workload_ended(struct sl_tool *tool);
void sl_workload_stop(struct sl_tool *tool);
void sl_workload_report(struct sl_tool *tool);
void sl_workload_free(struct sl_tool *tool);
bool sl_workload_failed(struct sl_tool *tool);
int sl_workload_status(struct sl_tool *tool);
long long sl_workload_max_us(struct sl_tool *tool, int cpu);

#endif /* __SCHED_LATENCY_WORKLOAD_H */
