/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the JSON report (--json).
 */
#ifndef __SCHED_LATENCY_JSON_H
#define __SCHED_LATENCY_JSON_H

#include "sched_latency_core.h"

/* the version of the report's schema (the man pages' JSON OUTPUT) */
#define SL_JSON_VERSION		3

int sl_write_json(struct sl_tool *tool);

#endif /* __SCHED_LATENCY_JSON_H */
