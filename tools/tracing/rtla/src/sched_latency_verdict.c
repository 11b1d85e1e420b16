// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the end of a run every mode shares: the stop, the
 * gate on the bound, the reports, and the exit status that says it all.
 * rtla's run_tool() performs the actions and saves the trace (-t).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "sched_latency_verdict.h"
#include "sched_latency_baseline.h"
#include "sched_latency_events.h"
#include "sched_latency_instance.h"
#include "sched_latency_json.h"
#include "sched_latency_output.h"
#include "sched_latency_svg.h"
#include "sched_latency_workload.h"

/*
 * sl_check_gate - --max-bound: whether the bound of a measured CPU under
 * --model exceeds it. An unbounded CPU exceeds any gate: nothing shows its
 * latency within it.
 */
static bool sl_check_gate(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	unsigned long long gate_ns = params->max_bound_us * 1000ULL;
	const struct slb_bound *b;
	int cpu;

	tool->over_gate = 0;
	if (!params->max_bound_us)
		return false;
	for_each_monitored_cpu(cpu, &tool->params->common) {
		if (!tool->cpu[cpu].has_res)
			continue;
		b = &tool->cpu[cpu].res.bound[params->model];
		if (b->unbounded || b->latency > gate_ns)
			tool->over_gate++;
	}
	return tool->over_gate > 0;
}

/*
 * sl_check_var_limits - --max-var: whether a variable of a measured CPU
 * exceeds its limit
 */
static bool sl_check_var_limits(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	int cpu, var;

	tool->over_var = 0;
	for_each_monitored_cpu(cpu, &params->common) {
		if (!tool->cpu[cpu].has_res)
			continue;
		for (var = 0; var < SL_NR_VARS; var++)
			if (params->max_var_us[var] &&
			    sl_cpu_var_max(&tool->cpu[cpu], var) >
			    params->max_var_us[var] * 1000ULL)
				tool->over_var++;
	}
	return tool->over_var > 0;
}

/*
 * sl_finish - the end every mode shares, after its own output: the stop,
 * the breakdown, the soundness, the JSON and SVG files; returns the exit
 * status, also kept in tool->verdict
 */
int sl_finish(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	bool output_failed = false;

	/* after the mode's own output, before what reads cyclictest's maxima */
	sl_workload_report(tool);

	tool->verdict = SL_EXIT_OK;
	if (tool->threshold_hits)
		tool->verdict = SL_EXIT_EXCEEDED;
	if (tool->events->stop.hit) {
		sl_symbolize_stop(tool);
		sl_print_stop(tool);
		tool->verdict = SL_EXIT_EXCEEDED;
	}
	if (sl_check_gate(tool) | sl_check_var_limits(tool) | !!sl_baseline_compare(tool))
		tool->verdict = SL_EXIT_EXCEEDED;
	else if (tool->verdict == SL_EXIT_OK && sl_workload_failed(tool))
		tool->verdict = SL_EXIT_WORKLOAD;
	else if (tool->verdict == SL_EXIT_OK &&
		 (tool->lost_events || tool->dropped_windows))
		tool->verdict = SL_EXIT_UNSOUND;

	sl_print_breakdown(tool);
	sl_baseline_print(tool);

	if (params->json.fd >= 0) {
		if (sl_write_json(tool))
			output_failed = true;
		sl_close_output(&params->json, true);
	}
	if (params->svg.fd >= 0) {
		if (sl_write_svg(tool))
			output_failed = true;
		sl_close_output(&params->svg, true);
	}
	/* what the --on-end actions print comes after what rtla printed */
	fflush(stdout);
	if (output_failed && tool->verdict == SL_EXIT_OK)
		tool->verdict = SL_EXIT_ERROR;
	return tool->verdict;
}

/*
 * sl_no_tracer - the end of a run on a kernel without the tracer: its own
 * outcome, for a pipeline to tell "cannot be measured here" from an error;
 * the --json report says so, with what the kernel is
 */
int sl_no_tracer(struct sched_latency_params *params)
{
	struct sl_tool tool = {
		.params		= params,
		.verdict	= SL_EXIT_NO_TRACER,
		.start_time	= time(NULL),
	};

	sl_err("%s\n",
	       "the kernel has no latency_parser tracer: it needs CONFIG_LATENCY_PARSER_TRACER=y (a PREEMPT_RT kernel; distributions ship it in a tracing or debug flavour, if at all)");
	if (params->json.fd >= 0) {
		sl_write_json(&tool);
		sl_close_output(&params->json, true);
	}
	sl_close_output(&params->svg, false);
	return SL_EXIT_NO_TRACER;
}
