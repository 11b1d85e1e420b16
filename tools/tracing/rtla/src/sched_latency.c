// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the dispatcher, from the command line to the
 * verdict, for both modes.
 *
 * A run goes: the command line (rtla's cli.c), the instances and the
 * system (sched_latency_instance.c), the events that stream into the
 * bound engine (sched_latency_events.c), the collection loop
 * (sched_latency_collect.c), and the verdict with the reports
 * (sched_latency_verdict.c, sched_latency_output.c).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include <linux/compiler.h>

#include "sched_latency.h"
#include "sched_latency_mode.h"
#include "sched_latency_collect.h"
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

	fprintf(stderr, "rtla sched-latency: bounds the scheduling latency of each cpu (version %s)\n",
		VERSION);
	for (i = 0; msg[i]; i++)
		fprintf(stderr, "%s\n", msg[i]);
	exit(err);
}

/* sched_latency_run - run a mode; returns the exit status, the verdict */
static int sched_latency_run(const struct sl_mode *mode, int argc, char *argv[])
{
	struct sched_latency_params *params;
	struct common_params *common;
	struct sl_tool *tool = NULL;
	int status = SL_EXIT_ERROR;

	/* rtla's cpu list parser checks against it, as run_tool() sets it */
	nr_cpus = get_nprocs_conf();
	common = mode->parse_args(argc, argv);
	if (!common)
		exit(129);
	params = to_sl_params(common);
	sl_nano = common->output_divisor == 1;

	if (sl_tool_init(params, &tool))
		goto out;
	if (sl_run(tool, mode->periodic)) {
		sl_workload_report(tool);
		goto out;
	}
	if (mode->print(tool))
		goto out;
	status = sl_finish(tool);
out:
	sl_tool_destroy(tool);
	actions_destroy(&common->threshold_actions);
	actions_destroy(&common->end_actions);
	free(params);
	return status;
}

/*
 * sched_latency_main - dispatch to a mode. As rtla timerlat and osnoise,
 * no mode (nothing, or an option first) runs top.
 */
int sched_latency_main(int argc, char *argv[])
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		sched_latency_usage(129);

	if (argc < 2 || argv[1][0] == '-')
		exit(sched_latency_run(&sl_top_mode, argc, argv));
	if (!strcmp(argv[1], "top"))
		exit(sched_latency_run(&sl_top_mode, argc - 1, &argv[1]));
	if (!strcmp(argv[1], "hist"))
		exit(sched_latency_run(&sl_hist_mode, argc - 1, &argv[1]));

	fprintf(stderr, "rtla sched-latency: unknown mode '%s'\n", argv[1]);
	sched_latency_usage(129);
}
