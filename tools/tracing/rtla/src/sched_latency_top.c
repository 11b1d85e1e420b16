// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency top: a per-cpu table of the variables of the
 * scheduling latency bound and of the bound, refreshed every second.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_latency_tool.h"

static const char *no_value = "        -";

/* sl_top_us - a value in us for a 9-character column */
static void sl_top_us(struct trace_seq *s, unsigned long long ns, bool has)
{
	if (has)
		trace_seq_printf(s, " %9llu", sl_nano ? ns : SL_US_UP(ns));
	else
		trace_seq_printf(s, " %s", no_value);
}

/* sl_top_bound - a bound for the last column */
static void sl_top_bound(struct trace_seq *s, const struct slb_bound *b)
{
	if (!b)
		trace_seq_printf(s, " %s", no_value);
	else if (b->unbounded)
		trace_seq_printf(s, " %9s", "unbounded");
	else
		trace_seq_printf(s, " %9llu", sl_nano ? (unsigned long long)b->latency :
				 SL_US_UP(b->latency));
}

/* sl_top_header - the title, the elapsed time and the column names */
static void sl_top_header(struct sl_tool *tool)
{
	struct trace_seq *s = tool->trace.seq;
	char duration[26];

	get_duration(tool->start_time, duration, sizeof(duration));

	trace_seq_printf(s, "%37sScheduling latency bound (%s)", "", SL_UNIT);
	if (tool->lost_events)
		trace_seq_printf(s, "  [%llu events lost]", tool->lost_events);
	trace_seq_printf(s, "\n");
	trace_seq_printf(s, "%-15s|%-51s|%-21s|%-11s| Bound\n", duration,
			 "               Thread windows, max",
			 "         IRQ", "    NMI");
	trace_seq_printf(s, "CPU WINDOWS    |      POID       PSD       DST      PAIE      L_IF |     COUNT       MAX |       MAX | %s\n",
			 slb_model_name(tool->params->model));
}

/* sl_top_print_cpu - one CPU's row */
static void sl_top_print_cpu(struct sl_tool *tool, int cpu)
{
	struct sl_cpu *c = &tool->cpu[cpu];
	struct trace_seq *s = tool->trace.seq;
	int var;

	trace_seq_printf(s, "%3d #%-10llu|", cpu, c->windows);
	for (var = 0; var < SL_NR_WINDOWS; var++)
		sl_top_us(s, c->max[var], c->windows || c->max[var]);
	sl_top_us(s, c->has_res ? c->res.bound[SLB_NO_INTERRUPTS].l_if : 0, c->has_res);
	trace_seq_printf(s, " | %9llu", c->irq_count);
	sl_top_us(s, c->irq_max > c->max[SL_IRQ] ? c->irq_max : c->max[SL_IRQ],
		  c->irq_count || c->max[SL_IRQ]);
	trace_seq_printf(s, " |");
	sl_top_us(s, c->nmi_max > c->max[SL_NMI] ? c->nmi_max : c->max[SL_NMI],
		  c->nmi_count || c->max[SL_NMI]);
	trace_seq_printf(s, " |");
	sl_top_bound(s, c->has_res ? &c->res.bound[tool->params->model] : NULL);
	trace_seq_printf(s, "\n");
}

/* sl_top_print_all - the ALL row: the worst of each column, total counts */
static void sl_top_print_all(struct sl_tool *tool)
{
	struct trace_seq *s = tool->trace.seq;
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
		sl_top_us(s, t.max[var], true);
	sl_top_us(s, t.l_if, true);
	trace_seq_printf(s, " | %9llu", t.irq_count);
	sl_top_us(s, t.irq_max, t.irq_count || t.irq_max);
	trace_seq_printf(s, " |");
	sl_top_us(s, t.nmi_max, t.nmi_count || t.nmi_max);
	trace_seq_printf(s, " |");
	sl_top_bound(s, tool->system[tool->params->model]);
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
	struct trace_seq *s = tool->trace.seq;
	int cpu;

	if (!config_debug && !tool->params->quiet && isatty(STDOUT_FILENO))
		trace_seq_printf(s, "\033c");

	sl_top_header(tool);
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu) || !tool->cpu[cpu].seen)
			continue;
		sl_top_print_cpu(tool, cpu);
	}
	sl_top_print_all(tool);

	trace_seq_do_printf(s);
	trace_seq_reset(s);
	fflush(stdout);
}

/* sl_top_usage - the usage of rtla sched-latency top */
static __noreturn void sl_top_usage(int err)
{
	static const char * const synopsis[] = {
		"  usage: rtla sched-latency top [-h] [-q] [-c cpu-list] [-d time] [-D] [-P priority] [-T us] \\",
		"	  [--stop-on var] [--model name] [--max-bound us] [--warm-up s] [-t[=file]] [-e sys[:event]] [--filter <filter>] \\",
		"	  [--trigger <trigger>] [--json file] [--svg file] [--trace-buffer-size kB] \\",
		"	  [-- workload [args...]]",
		NULL,
	};
	static const char * const options[] = {
		NULL,
	};

	sl_usage("rtla sched-latency top: a per-cpu table of the scheduling latency bound and of its variables",
		 synopsis, "	  -q/--quiet: print only the final table, not one every second",
		 options, err);
}

/* sl_top_parse_args - the command line of top */
static void sl_top_parse_args(struct sl_params *params, int argc, char *argv[])
{
	static const struct option top_options[] = {
		{0, 0, 0, 0}
	};
	struct option *long_options = sl_long_options(top_options);
	int c;

	while ((c = getopt_long(argc, argv, SL_COMMON_SHORT_OPTIONS, long_options,
				NULL)) != -1) {
		if (c == 'h')
			sl_top_usage(SL_EXIT_OK);
		if (c == '?')
			sl_try_help();
		if (sl_parse_common_option(params, c, optarg, argc, argv))
			sl_try_help();
	}
	free(long_options);
	sl_parse_workload(params, argc, argv);
	sl_check_params(params);
}

/* sched_latency_top_main - rtla sched-latency top */
int sched_latency_top_main(int argc, char *argv[])
{
	struct sl_tool *tool = NULL;
	struct sl_params params;
	int status = SL_EXIT_ERROR;

	sl_params_init(&params, "top");
	sl_top_parse_args(&params, argc, argv);

	if (sl_tool_init(&params, &tool))
		goto out;
	if (sl_run(tool, sl_top_print)) {
		sl_workload_report(tool);
		goto out;
	}

	sl_top_print(tool);
	status = sl_finish(tool);
out:
	sl_tool_destroy(tool);
	exit(status);
}
