/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the workload: the command after "--", started with
 * the measurement and reaped when it ends.
 */
#ifndef __SCHED_LATENCY_WORKLOAD_H
#define __SCHED_LATENCY_WORKLOAD_H

#include "sched_latency_core.h"

int sl_workload_start(struct sl_tool *tool);
bool sl_workload_reap(struct sl_tool *tool);
void sl_workload_stop(struct sl_tool *tool);
void sl_workload_report(struct sl_tool *tool);
void sl_workload_cleanup(struct sl_tool *tool);
bool sl_workload_failed(struct sl_tool *tool);

#endif /* __SCHED_LATENCY_WORKLOAD_H */
