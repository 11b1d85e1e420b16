/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the collection: the state of a run, what rtla's main
 * loops call every second, the start and the end of the measurement.
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
struct sl_tool *sl_tool_alloc(struct sched_latency_params *params,
			      struct trace_instance *trace);
void sl_tool_free(struct sl_tool *tool);
int sl_start(struct sl_tool *tool);
int sl_collect(struct sl_tool *tool);
int sl_end(struct sl_tool *tool, int retval);

#endif /* __SCHED_LATENCY_COLLECT_H */
