/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the text at the end of a run: the stop, and the
 * breakdown of the bound.
 */
#ifndef __SCHED_LATENCY_OUTPUT_H
#define __SCHED_LATENCY_OUTPUT_H

#include "sched_latency_core.h"

void sl_symbolize_stop(struct sl_tool *tool);
void sl_print_stop(struct sl_tool *tool);
void sl_print_breakdown(struct sl_tool *tool);
long long sl_share(const struct slb_bound *b, int source);

#endif /* __SCHED_LATENCY_OUTPUT_H */
