/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, instance control: the system checks, the output
 * files, rtla's house-keeping and the tracer of the trace instances.
 */
#ifndef __SCHED_LATENCY_INSTANCE_H
#define __SCHED_LATENCY_INSTANCE_H

#include <stdio.h>

#include "sched_latency_core.h"

bool sl_check_system(struct sched_latency_params *params);
int sl_house_keeping(struct sched_latency_params *params);
int sl_setup_instances(struct sl_tool *tool);
void sl_close_output(struct sl_output *out, bool written);
FILE *sl_report_open(struct sl_output *out);
int sl_report_close(FILE *fp, struct sl_output *out);
void sl_restore_affinity(struct sched_latency_params *params);

#endif /* __SCHED_LATENCY_INSTANCE_H */
