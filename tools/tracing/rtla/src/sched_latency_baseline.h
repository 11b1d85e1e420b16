/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the comparison with an earlier run (--baseline).
 */
#ifndef __SCHED_LATENCY_BASELINE_H
#define __SCHED_LATENCY_BASELINE_H

#include <stddef.h>

#include "sched_latency_core.h"

/* the newest --json version it reads: SL_JSON_VERSION, which it is checked against */
#define SL_JSON_VERSION_READ	3

/* a value the slack of --tolerance never hides: below, noise */
#define SL_BASELINE_SLACK_NS	1000ULL

/* a value of this run above the baseline's by more than the tolerance */
struct sl_regression {
	int			cpu;
	char			what[40];	/* "poid", "bound.sporadic" */
	unsigned long long	value_ns;	/* this run's; ULLONG_MAX: unbounded */
	unsigned long long	baseline_ns;
};

struct sl_baseline_value;

/* sl_baseline - the earlier run, and how this one compares with it */
struct sl_baseline {
	const char		*path;
	struct sl_baseline_value *values;
	unsigned int		nr_values;
	unsigned int		compared;
	struct sl_regression	*regressions;
	unsigned int		nr_regressions;
};

struct sl_baseline *sl_baseline_parse(const char *text, char *err, size_t len);
struct sl_baseline *sl_baseline_load(const char *path);
unsigned int sl_baseline_compare(struct sl_tool *tool);
void sl_baseline_print(struct sl_tool *tool);
void sl_baseline_free(struct sl_baseline *bl);

#endif /* __SCHED_LATENCY_BASELINE_H */
