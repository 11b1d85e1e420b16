/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the collection: the tool's life, from its instances
 * to the loop that reads them every second.
 */
#ifndef __SCHED_LATENCY_COLLECT_H
#define __SCHED_LATENCY_COLLECT_H

#include "sched_latency_core.h"

/* the worst of each value and the total of each count, over CPUs */
struct sl_totals {
	unsigned long long	max[SL_NR_VARS];	/* from the max files */
	unsigned long long	l_if;			/* no-interrupts bound */
	unsigned long long	windows;
	unsigned long long	irq_count;
	unsigned long long	irq_max;	/* max file and stream */
	unsigned long long	nmi_count;
	unsigned long long	nmi_max;	/* max file and stream */
};

void sl_system_totals(struct sl_tool *tool, bool computed, struct sl_totals *t);
double sl_elapsed(struct sl_tool *tool);
int sl_tool_init(struct sched_latency_params *params, struct sl_tool **toolp);
int sl_run(struct sl_tool *tool, void (*periodic)(struct sl_tool *tool));
void sl_tool_destroy(struct sl_tool *tool);

#endif /* __SCHED_LATENCY_COLLECT_H */
