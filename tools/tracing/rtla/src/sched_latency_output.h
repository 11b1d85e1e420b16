/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the output at the end of a run: the stop, the
 * breakdown of the bound, the JSON and SVG reports.
 */
#ifndef __SCHED_LATENCY_OUTPUT_H
#define __SCHED_LATENCY_OUTPUT_H

#include "sched_latency_core.h"

void sl_symbolize_stop(struct sl_tool *tool);
void sl_print_stop(struct sl_tool *tool);
void sl_print_breakdown(struct sl_tool *tool);
int sl_write_json(struct sl_tool *tool);
int sl_write_svg(struct sl_tool *tool);

#endif /* __SCHED_LATENCY_OUTPUT_H */
