// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency top: a per-cpu table of the variables of the
 * scheduling latency bound and of the bound, refreshed every second.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_latency_mode.h"
#include "sched_latency_collect.h"

static const char *no_value = "        -";

/* sl_top_time - a time, rounded up, for a 9-character column */
static void sl_top_time(struct sl_tool *tool, unsigned long long ns, bool has)
{
	struct trace_seq *s = tool->trace->seq;

	if (has)
		trace_seq_printf(s, " %9llu", sl_round_up(tool->params, ns));
	else
		trace_seq_printf(s, " %s", no_value);
}

/* sl_top_bound - a bound for the last column */
static void sl_top_bound(struct sl_tool *tool, const struct slb_bound *b)
{
	struct trace_seq *s = tool->trace->seq;

	if (!b)
		trace_seq_printf(s, " %s", no_value);
	else if (b->unbounded)
		trace_seq_printf(s, " %9s", "unbounded");
	else
		trace_seq_printf(s, " %9llu", sl_round_up(tool->params, b->latency));
}

/* sl_top_header - the title, the elapsed time and the column names */
static void sl_top_header(struct sl_tool *tool)
{
	struct trace_seq *s = tool->trace->seq;
	char duration[26];

	get_duration(tool->start_time, duration, sizeof(duration));

	trace_seq_printf(s, "%37sScheduling latency bound (%s)", "", sl_unit(tool->params));
	if (tool->lost_events)
		trace_seq_printf(s, "  [%llu events lost]", tool->lost_events);
	trace_seq_printf(s, "\n");
	trace_seq_printf(s, "%-15s|%-51s|%-21s|%-11s| Bound\n", duration,
			 "               Thread windows, max",
			 "         IRQ", "    NMI");
	trace_seq_printf(s, "CPU WINDOWS    |%10s%10s%10s%10s%10s |%10s%10s |%10s | %s\n",
			 "POID", "PSD", "DST", "PAIE", "L_IF", "COUNT", "MAX", "MAX",
			 slb_model_name(tool->params->model));
}

/* sl_top_print_cpu - one CPU's row */
static void sl_top_print_cpu(struct sl_tool *tool, int cpu)
{
	struct sl_cpu *c = &tool->cpu[cpu];
	struct trace_seq *s = tool->trace->seq;
	int var;

	trace_seq_printf(s, "%3d #%-10llu|", cpu, c->windows);
	for (var = 0; var < SL_NR_WINDOWS; var++)
		sl_top_time(tool, c->max[var], c->windows || c->max[var]);
	sl_top_time(tool, c->has_res ? c->res.bound[SLB_NO_INTERRUPTS].l_if : 0, c->has_res);
	trace_seq_printf(s, " | %9llu", c->irq_count);
	sl_top_time(tool, c->irq_max > c->max[SL_IRQ] ? c->irq_max : c->max[SL_IRQ],
		    c->irq_count || c->max[SL_IRQ]);
	trace_seq_printf(s, " |");
	sl_top_time(tool, c->nmi_max > c->max[SL_NMI] ? c->nmi_max : c->max[SL_NMI],
		    c->nmi_count || c->max[SL_NMI]);
	trace_seq_printf(s, " |");
	sl_top_bound(tool, c->has_res ? &c->res.bound[tool->params->model] : NULL);
	trace_seq_printf(s, "\n");
}

/* sl_top_print_all - the ALL row: the worst of each column, total counts */
static void sl_top_print_all(struct sl_tool *tool)
{
	struct trace_seq *s = tool->trace->seq;
	struct sl_totals t;
	int var;

	sl_system_totals(tool, false, &t);

	trace_seq_printf(s, "%.15s|%.51s|%.21s|%.11s|%.10s\n",
			 "----------------------------------------------------",
			 "----------------------------------------------------",
			 "----------------------------------------------------",
			 "----------------------------------------------------",
			 "----------------------------------------------------");
	trace_seq_printf(s, "ALL #%-10llu|", t.windows);
	for (var = 0; var < SL_NR_WINDOWS; var++)
		sl_top_time(tool, t.max[var], true);
	sl_top_time(tool, t.l_if, true);
	trace_seq_printf(s, " | %9llu", t.irq_count);
	sl_top_time(tool, t.irq_max, t.irq_count || t.irq_max);
	trace_seq_printf(s, " |");
	sl_top_time(tool, t.nmi_max, t.nmi_count || t.nmi_max);
	trace_seq_printf(s, " |");
	sl_top_bound(tool, tool->system[tool->params->model]);
	trace_seq_printf(s, "\n");
}

/*
 * sl_top_print - the whole table; called every second and at the end
 *
 * On a terminal the screen is cleared first, as timerlat top does, but not
 * with -q: the only table must not wipe what the user had on the screen.
 * Into a pipe or a file the tables just follow each other.
 */
static void sl_top_print(struct sl_tool *tool)
{
	struct trace_seq *s = tool->trace->seq;
	int cpu;

	if (!config_debug && !tool->params->common.quiet && isatty(STDOUT_FILENO))
		trace_seq_printf(s, "\033c");

	sl_top_header(tool);
	for_each_monitored_cpu(cpu, &tool->params->common) {
		if (!tool->cpu[cpu].seen)
			continue;
		sl_top_print_cpu(tool, cpu);
	}
	sl_top_print_all(tool);

	trace_seq_do_printf(s);
	trace_seq_reset(s);
	fflush(stdout);
}

/* sl_top_final - the last table, whatever -q said */
static int sl_top_final(struct sl_tool *tool)
{
	sl_top_print(tool);
	return 0;
}

const struct sl_mode sl_top_mode = {
	.name		= "top",
	.periodic	= sl_top_print,
	.print		= sl_top_final,
};
