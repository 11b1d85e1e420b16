/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the events: the tracer's events as they stream in,
 * into the per-cpu state and the bound engine.
 */
#ifndef __SCHED_LATENCY_EVENTS_H
#define __SCHED_LATENCY_EVENTS_H

#include "sched_latency_core.h"

void sl_register_handlers(struct sl_tool *tool);
void sl_stop_tracing(struct sl_tool *tool);

#endif /* __SCHED_LATENCY_EVENTS_H */
