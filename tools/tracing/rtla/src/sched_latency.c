// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the dispatcher, and both modes as rtla tools (struct
 * tool_ops) that rtla's run_tool() runs.
 *
 * A run goes: the command line (rtla's cli.c), the system and the
 * instances' tracer (sched_latency_instance.c), the events that stream
 * into the bound engine (sched_latency_events.c) and what rtla's main
 * loops read besides them every second (sched_latency_collect.c), and the
 * verdict with the reports (sched_latency_verdict.c,
 * sched_latency_output.c).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/compiler.h>

#include "cli.h"
#include "osnoise.h"

#include "sched_latency.h"
#include "sched_latency_mode.h"
#include "sched_latency_baseline.h"
#include "sched_latency_collect.h"
#include "sched_latency_instance.h"
#include "sched_latency_svg.h"
#include "sched_latency_verdict.h"
#include "sched_latency_workload.h"

/* sched_latency_usage - print the usage of rtla sched-latency */
__noreturn static void sched_latency_usage(int err)
{
	int i;

	static const char * const msg[] = {
		"",
		"  usage: rtla sched-latency MODE [OPTIONS] [-- workload [args...]]",
		"",
		"  modes:",
		"     top  - a per-cpu table of the variables of the scheduling latency bound and of the bound",
		"     hist - per-cpu histograms of the variables of the scheduling latency bound",
		"",
		"  For the options of a mode, run: rtla sched-latency MODE --help",
		"",
		NULL,
	};

	fprintf(stderr,
		"rtla sched-latency: bounds the scheduling latency of each cpu (version %s)\n",
		VERSION);
	for (i = 0; msg[i]; i++)
		fprintf(stderr, "%s\n", msg[i]);
	exit(err);
}

/*
 * The modes as rtla tools: run_tool() drives them, with its main loops.
 * The state of a run (struct sl_tool) is the data of rtla's tool, whose
 * instances it measures with.
 */

/*
 * sched_latency_broken_pipe - a closed standard output (--json - into a
 * pipe whose reader left) is a write error, not a death that leaves the
 * instances behind. The signal is caught rather than ignored, so that
 * the actions' shells and the workload start with its default action.
 */
static void sched_latency_broken_pipe(int sig)
{
}

/*
 * sched_latency_init_tool - check the system, create the measuring
 * instance and the state of the run
 */
static struct osnoise_tool *sched_latency_init_tool(struct common_params *common)
{
	struct sched_latency_params *params = to_sl_params(common);
	struct sl_baseline *baseline = NULL;
	struct osnoise_tool *top;
	struct sl_tool *tool;
	char name[64];

	/* a --baseline that cannot be used exits before anything is made */
	if (params->baseline_path)
		baseline = sl_baseline_load(params->baseline_path);

	/* exits when the system cannot measure, before anything is made */
	if (!sl_check_system(params))
		exit(sl_no_tracer(params));

	signal(SIGPIPE, sched_latency_broken_pipe);

	snprintf(name, sizeof(name), "sched_latency_%d", getpid());
	top = osnoise_init_tool(name);
	if (!top) {
		sl_err("cannot create the trace instance %s\n", name);
		sl_close_output(&params->json, false);
		sl_close_output(&params->svg, false);
		sl_baseline_free(baseline);
		return NULL;
	}

	tool = sl_tool_alloc(params, &top->trace);
	tool->baseline = baseline;
	strcpy(tool->name, name);
	top->data = tool;
	return top;
}

/*
 * sched_latency_apply_config - rtla's house-keeping and priority, and
 * what run_tool() is to do for -t
 */
static int sched_latency_apply_config(struct osnoise_tool *top)
{
	struct sl_tool *tool = top->data;
	struct sched_latency_params *params = tool->params;
	struct common_params *common = &params->common;

	/* the period of rtla's main loop, in seconds */
	common->sleep_time = 1;

	if (sl_house_keeping(params))
		return -1;

	/*
	 * -P is the priority of rtla itself, the collector: latency_parser
	 * has no threads for run_tool() to set. The workload does not
	 * inherit it (SCHED_FLAG_RESET_ON_FORK).
	 */
	if (common->set_sched) {
		if (__set_sched_attr(getpid(), &common->sched_param)) {
			sl_err("cannot set the priority of rtla\n");
			return -1;
		}
		common->set_sched = 0;
	}

	/*
	 * -t: run_tool() creates the record instance, and saves its trace at
	 * the end, whatever ended the run: after a stop, it ends with the
	 * culprit's window.
	 */
	if (params->trace_output)
		actions_add_trace_output(&common->end_actions, params->trace_output);
	return 0;
}

/*
 * sched_latency_init_record - -t's instance, named after the measuring
 * one, so that two runs can keep a trace at the same time
 */
static struct osnoise_tool *sched_latency_init_record(struct osnoise_tool *top)
{
	struct sl_tool *tool = top->data;
	struct osnoise_tool *record;
	char name[80];

	snprintf(name, sizeof(name), "%s_trace", tool->name);
	record = osnoise_init_tool(name);
	if (!record) {
		sl_err("cannot create the trace instance %s\n", name);
		return NULL;
	}
	if (enable_tracer_by_name(record->trace.inst, SL_TRACER)) {
		osnoise_destroy_tool(record);
		return NULL;
	}
	return record;
}

/* sched_latency_enable - configure the instances, start the measurement */
static int sched_latency_enable(struct osnoise_tool *top)
{
	struct sl_tool *tool = top->data;

	tool->record = top->record ? &top->record->trace : NULL;
	if (sl_setup_instances(tool))
		return -1;
	return sl_start(tool);
}

static int sched_latency_update(struct osnoise_tool *top)
{
	return sl_collect(top->data);
}

static int sched_latency_top_main(struct osnoise_tool *top)
{
	return sl_end(top->data, top_main_loop(top));
}

static int sched_latency_hist_main(struct osnoise_tool *top)
{
	return sl_end(top->data, hist_main_loop(top));
}

/*
 * sched_latency_print - while measuring, the mode's display; at the end,
 * the mode's output, then the verdict and the reports every mode shares
 */
static void sched_latency_print(struct osnoise_tool *top, const struct sl_mode *mode)
{
	struct sl_tool *tool = top->data;

	if (!tool->ended) {
		if (mode->periodic)
			mode->periodic(tool);
		return;
	}

	if (mode->print(tool)) {
		tool->verdict = SL_EXIT_ERROR;
		return;
	}
	sl_finish(tool);
}

static void sched_latency_top_print_stats(struct osnoise_tool *top)
{
	sched_latency_print(top, &sl_top_mode);
}

static void sched_latency_hist_print_stats(struct osnoise_tool *top)
{
	sched_latency_print(top, &sl_hist_mode);
}

/*
 * sched_latency_exit_status - the verdict (the man pages' EXIT STATUS); an
 * --on-end action that failed (ERROR) turns only a 0 into a 1
 */
static int sched_latency_exit_status(struct osnoise_tool *top, enum result result)
{
	struct sl_tool *tool = top->data;

	if (result == ERROR && tool->verdict == SL_EXIT_OK)
		return SL_EXIT_ERROR;
	return tool->verdict;
}

/* sched_latency_workload_ended - the workload ended by itself */
static bool sched_latency_workload_ended(struct osnoise_tool *top)
{
	return sl_workload_ended(top->data);
}

/*
 * sched_latency_free - the state of the run; run_tool() destroys the
 * instances. A run that failed while measuring still stops its workload
 * and shows what it printed.
 */
static void sched_latency_free(struct osnoise_tool *top)
{
	struct sl_tool *tool = top->data;

	if (!tool->ended) {
		sl_workload_stop(tool);
		sl_workload_report(tool);
	}
	sl_hist_pic_free(tool->hist_pic);
	sl_baseline_free(tool->baseline);
	sl_tool_free(tool);
}

static struct tool_ops sched_latency_top_ops = {
	.tracer		= SL_TRACER,
	.parse_args	= sched_latency_top_parse_args,
	.init_tool	= sched_latency_init_tool,
	.apply_config	= sched_latency_apply_config,
	.init_record	= sched_latency_init_record,
	.enable		= sched_latency_enable,
	.main		= sched_latency_top_main,
	.update		= sched_latency_update,
	.print_stats	= sched_latency_top_print_stats,
	.exit_status	= sched_latency_exit_status,
	.workload_ended	= sched_latency_workload_ended,
	.free		= sched_latency_free,
};

static struct tool_ops sched_latency_hist_ops = {
	.tracer		= SL_TRACER,
	.parse_args	= sched_latency_hist_parse_args,
	.init_tool	= sched_latency_init_tool,
	.apply_config	= sched_latency_apply_config,
	.init_record	= sched_latency_init_record,
	.enable		= sched_latency_enable,
	.main		= sched_latency_hist_main,
	.update		= sched_latency_update,
	.print_stats	= sched_latency_hist_print_stats,
	.exit_status	= sched_latency_exit_status,
	.workload_ended	= sched_latency_workload_ended,
	.free		= sched_latency_free,
};

/*
 * sched_latency_main - dispatch to a mode. As rtla timerlat and osnoise,
 * no mode (nothing, or an option first) runs top.
 */
int sched_latency_main(int argc, char *argv[])
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		sched_latency_usage(129);

	if (argc < 2 || argv[1][0] == '-')
		run_tool(&sched_latency_top_ops, argc, argv);
	if (!strcmp(argv[1], "top"))
		run_tool(&sched_latency_top_ops, argc - 1, &argv[1]);
	if (!strcmp(argv[1], "hist"))
		run_tool(&sched_latency_hist_ops, argc - 1, &argv[1]);

	fprintf(stderr, "rtla sched-latency: unknown mode '%s'\n", argv[1]);
	sched_latency_usage(129);
}
