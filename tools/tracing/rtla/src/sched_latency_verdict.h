/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the verdict: the end every mode shares, and the
 * exit status that says it all.
 */
#ifndef __SCHED_LATENCY_VERDICT_H
#define __SCHED_LATENCY_VERDICT_H

#include "sched_latency_core.h"

int sl_finish(struct sl_tool *tool);
int sl_no_tracer(struct sched_latency_params *params);

#endif /* __SCHED_LATENCY_VERDICT_H */
