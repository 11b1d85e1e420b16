/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the modes: top and hist differ only in what they
 * parse (rtla's cli.c) and print; the dispatcher makes an rtla tool (struct
 * tool_ops) of each, which prints through this structure.
 */
#ifndef __SCHED_LATENCY_MODE_H
#define __SCHED_LATENCY_MODE_H

#include "sched_latency_core.h"

struct sl_mode {
	const char *name;
	/* every second while measuring, unless -q; NULL: nothing */
	void (*periodic)(struct sl_tool *tool);
	/* once, at the end, before the verdict; nonzero: an error */
	int (*print)(struct sl_tool *tool);
};

extern const struct sl_mode sl_top_mode;
extern const struct sl_mode sl_hist_mode;

#endif /* __SCHED_LATENCY_MODE_H */
