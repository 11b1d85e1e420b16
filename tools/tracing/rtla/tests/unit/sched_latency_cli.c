// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of rtla sched-latency top and hist: rtla's own options
 * land in common_params, sched-latency's in its params, and the mistakes
 * exit as every rtla tool does (129 for a usage error, 1 for options that
 * contradict each other).
 */

#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <linux/container_of.h>

#include "cli_params_assert.h"
#include "../../src/cli.h"
#include "../../src/sched_latency_core.h"

#define PARSE(fn, ...) char *argv[] = { __VA_ARGS__, NULL };\
			int argc = sizeof(argv) / sizeof(char *) - 1;\
			struct common_params *params;\
			struct sched_latency_params *sl_params __maybe_unused;\
			nr_cpus = 4;\
			params = fn(argc, argv);\
			ck_assert_ptr_nonnull(params);\
			sl_params = to_sl_params(params)

#define PARSE_TOP(...)	PARSE(sched_latency_top_parse_args, __VA_ARGS__)
#define PARSE_HIST(...)	PARSE(sched_latency_hist_parse_args, __VA_ARGS__)

/* the exit tests run in a child: parse, and never come back */
#define PARSE_EXIT(fn, ...) do {\
	char *argv[] = { __VA_ARGS__, NULL };\
	int argc = sizeof(argv) / sizeof(char *) - 1;\
	nr_cpus = 4;\
	if (!fn(argc, argv))\
		exit(129);\
	exit(0);\
} while (0)

/* Defaults */

START_TEST(test_defaults)
{
	PARSE_TOP("top");

	ck_assert_str_eq(sl_params->mode, "top");
	ck_assert_int_eq(sl_params->stop_on, SL_STOP_ANY);
	ck_assert_int_eq(sl_params->model, SLB_SLIDING_WINDOW);
	ck_assert_int_eq(params->output_divisor, 1000);
	ck_assert_int_eq(params->hist.entries, SL_DEFAULT_ENTRIES);
	ck_assert_int_eq(params->hist.bucket_size, 1);
	ck_assert_int_eq(sl_params->json.fd, -1);
	ck_assert_ptr_null(sl_params->workload);
	ck_assert_ptr_null(sl_params->trace_output);
}
END_TEST

/* Tracing Options */

START_TEST(test_threshold)
{
	PARSE_TOP("top", "-T", "40");

	ck_assert_int_eq(params->stop_us, 40);
}
END_TEST

START_TEST(test_stop_on)
{
	PARSE_TOP("top", "-T", "40", "--stop-on", "dst");

	ck_assert_int_eq(sl_params->stop_on, SL_DST);
	ck_assert(sl_params->stop_on_set);
}
END_TEST

START_TEST(test_stop_on_bound)
{
	PARSE_TOP("top", "-T", "40", "--stop-on", "bound");

	ck_assert_int_eq(sl_params->stop_on, SL_STOP_BOUND);
}
END_TEST

START_TEST(test_model)
{
	PARSE_TOP("top", "--model", "worst_each");

	ck_assert_int_eq(sl_params->model, SLB_WORST_EACH);
}
END_TEST

START_TEST(test_max_bound)
{
	PARSE_TOP("top", "--max-bound", "150");

	ck_assert_int_eq(sl_params->max_bound_us, 150);
}
END_TEST

START_TEST(test_trace_default)
{
	PARSE_TOP("top", "-t");

	ck_assert_str_eq(sl_params->trace_output, SL_DEFAULT_TRACE_FILE);
}
END_TEST

START_TEST(test_trace_space)
{
	PARSE_TOP("top", "-t", "file.txt", "-c", "1");

	ck_assert_str_eq(sl_params->trace_output, "file.txt");
	CLI_ASSERT_CPUSET(monitored_cpus, 1);
}
END_TEST

START_TEST(test_trace_equals)
{
	PARSE_TOP("top", "--trace=file.txt");

	ck_assert_str_eq(sl_params->trace_output, "file.txt");
}
END_TEST

/* Event Configuration */

START_TEST(test_event_with_trace)
{
	PARSE_TOP("top", "-t", "-e", "sched:sched_switch", "--filter", "prev_pid == 0");

	CLI_ASSERT_SINGLE_EVENT("sched", "sched_switch");
	CLI_ASSERT_SINGLE_FILTER("prev_pid == 0");
}
END_TEST

/* CPU and Thread Configuration */

START_TEST(test_cpus)
{
	PARSE_TOP("top", "-c", "0,2-3");

	ck_assert_str_eq(params->cpus, "0,2-3");
	CLI_ASSERT_CPUSET(monitored_cpus, 0, 2, 3);
}
END_TEST

START_TEST(test_housekeeping)
{
	PARSE_TOP("top", "-H", "1");

	ck_assert_int_eq(params->hk_cpus, 1);
	CLI_ASSERT_CPUSET(hk_cpu_set, 1);
}
END_TEST

START_TEST(test_priority_reset_on_fork)
{
	PARSE_TOP("top", "-P", "f:95");

	ck_assert_int_eq(params->set_sched, 1);
	ck_assert_int_eq(params->sched_param.sched_policy, SCHED_FIFO);
	ck_assert_int_eq(params->sched_param.sched_priority, 95);
	/* the workload must not inherit the collector's priority */
	ck_assert(params->sched_param.sched_flags & SCHED_FLAG_RESET_ON_FORK);
}
END_TEST

/* Output */

START_TEST(test_nano)
{
	PARSE_TOP("top", "-n");

	ck_assert_int_eq(params->output_divisor, 1);
}
END_TEST

START_TEST(test_quiet)
{
	PARSE_TOP("top", "-q");

	ck_assert(params->quiet);
}
END_TEST

START_TEST(test_json_svg)
{
	PARSE_TOP("top", "--json", "-", "--svg", "out.svg", "--no-cpu-breakdown");

	ck_assert_str_eq(sl_params->json.path, "-");
	ck_assert_str_eq(sl_params->svg.path, "out.svg");
	ck_assert(sl_params->no_cpu_breakdown);
}
END_TEST

/* System Tuning */

START_TEST(test_buffer_size_warm_up)
{
	PARSE_TOP("top", "--trace-buffer-size", "4096", "--warm-up", "5");

	ck_assert_int_eq(params->buffer_size, 4096);
	ck_assert_int_eq(params->warmup, 5);
}
END_TEST

/* Actions */

START_TEST(test_on_threshold)
{
	PARSE_TOP("top", "--on-threshold", "signal,num=10,pid=parent");

	CLI_ASSERT_SINGLE_ACTION(threshold_actions, ACTION_SIGNAL, signal, int, 10);
	ck_assert_int_eq(params->threshold_actions.list[0].pid, -1);
}
END_TEST

START_TEST(test_on_threshold_trace)
{
	PARSE_TOP("top", "--on-threshold", "trace");

	CLI_ASSERT_SINGLE_ACTION(threshold_actions, ACTION_TRACE_OUTPUT, trace_output,
				 str, SL_DEFAULT_TRACE_FILE);
}
END_TEST

START_TEST(test_on_threshold_continue)
{
	PARSE_TOP("top", "--on-threshold", "shell,command=true", "--on-threshold", "continue");

	ck_assert_int_eq(params->threshold_actions.len, 2);
	ck_assert(params->threshold_actions.present[ACTION_CONTINUE]);
}
END_TEST

START_TEST(test_on_end)
{
	PARSE_TOP("top", "--on-end", "shell,command=echo done");

	CLI_ASSERT_SINGLE_ACTION(end_actions, ACTION_SHELL, command, str, "echo done");
}
END_TEST

/* General */

START_TEST(test_duration)
{
	PARSE_TOP("top", "-d", "2m");

	ck_assert_int_eq(params->duration, 120);
}
END_TEST

START_TEST(test_workload)
{
	PARSE_TOP("top", "-d", "30s", "--", "cyclictest", "-m", "-p95");

	ck_assert_ptr_nonnull(sl_params->workload);
	ck_assert_str_eq(sl_params->workload[0], "cyclictest");
	ck_assert_str_eq(sl_params->workload[1], "-m");
	ck_assert_str_eq(sl_params->workload[2], "-p95");
	ck_assert_ptr_null(sl_params->workload[3]);
	ck_assert_int_eq(params->duration, 30);
}
END_TEST

/* hist */

START_TEST(test_hist_geometry)
{
	PARSE_HIST("hist", "-b", "10", "-E", "500");

	ck_assert_str_eq(sl_params->mode, "hist");
	ck_assert_int_eq(params->hist.bucket_size, 10);
	ck_assert_int_eq(params->hist.entries, 500);
}
END_TEST

START_TEST(test_hist_columns)
{
	PARSE_HIST("hist", "--no-irq", "--no-nmi");

	ck_assert_uint_eq(sl_params->hist_hidden, (1U << SL_IRQ) | (1U << SL_NMI));
}
END_TEST

START_TEST(test_hist_vars)
{
	PARSE_HIST("hist", "--vars", "poid,dst");

	ck_assert_uint_eq(sl_params->hist_hidden,
			  ((1U << SL_NR_VARS) - 1) & ~((1U << SL_POID) | (1U << SL_DST)));
}
END_TEST

START_TEST(test_hist_flags)
{
	PARSE_HIST("hist", "--no-header", "--no-summary", "--no-index", "--with-zeros");

	ck_assert(params->hist.no_header);
	ck_assert(params->hist.no_summary);
	ck_assert(params->hist.no_index);
	ck_assert(params->hist.with_zeros);
}
END_TEST

/* Mistakes: usage errors exit 129, contradictions 1 */

START_TEST(test_err_help)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--help");
}
END_TEST

START_TEST(test_err_unknown_option)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--no-such-option");
}
END_TEST

START_TEST(test_err_cpus)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "-c", "9");
}
END_TEST

START_TEST(test_err_stop_on)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "-T", "10", "--stop-on", "st");
}
END_TEST

START_TEST(test_err_model)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--model", "foo");
}
END_TEST

START_TEST(test_err_threshold_zero)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "-T", "0");
}
END_TEST

START_TEST(test_err_action)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--on-end", "mail");
}
END_TEST

START_TEST(test_err_entries)
{
	PARSE_EXIT(sched_latency_hist_parse_args, "hist", "-E", "20000");
}
END_TEST

START_TEST(test_err_vars)
{
	PARSE_EXIT(sched_latency_hist_parse_args, "hist", "--vars", "poid,st");
}
END_TEST

START_TEST(test_err_stop_on_alone)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--stop-on", "poid");
}
END_TEST

START_TEST(test_err_event_without_trace)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "-e", "sched:sched_switch");
}
END_TEST

START_TEST(test_err_workload_without_dashdash)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "-d", "1s", "sleep", "1");
}
END_TEST

START_TEST(test_err_json_svg_stdout)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--json", "-", "--svg", "-");
}
END_TEST

START_TEST(test_err_hist_too_wide)
{
	PARSE_EXIT(sched_latency_hist_parse_args, "hist", "-b", "5000", "-E", "1000");
}
END_TEST

START_TEST(test_err_hist_nothing_shown)
{
	PARSE_EXIT(sched_latency_hist_parse_args, "hist", "--vars", "irq", "--no-irq");
}
END_TEST

START_TEST(test_err_hist_no_index)
{
	PARSE_EXIT(sched_latency_hist_parse_args, "hist", "--no-index");
}
END_TEST

Suite *sched_latency_cli_suite(void)
{
	Suite *s = suite_create("sched_latency_cli");
	TCase *tc;

	tc = tcase_create("tracing_options");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_threshold);
	tcase_add_test(tc, test_stop_on);
	tcase_add_test(tc, test_stop_on_bound);
	tcase_add_test(tc, test_model);
	tcase_add_test(tc, test_max_bound);
	tcase_add_test(tc, test_trace_default);
	tcase_add_test(tc, test_trace_space);
	tcase_add_test(tc, test_trace_equals);
	suite_add_tcase(s, tc);

	tc = tcase_create("event_configuration");
	tcase_add_test(tc, test_event_with_trace);
	suite_add_tcase(s, tc);

	tc = tcase_create("cpu_thread_configuration");
	tcase_add_test(tc, test_cpus);
	tcase_add_test(tc, test_housekeeping);
	tcase_add_test(tc, test_priority_reset_on_fork);
	suite_add_tcase(s, tc);

	tc = tcase_create("output");
	tcase_add_test(tc, test_nano);
	tcase_add_test(tc, test_quiet);
	tcase_add_test(tc, test_json_svg);
	suite_add_tcase(s, tc);

	tc = tcase_create("system_tuning");
	tcase_add_test(tc, test_buffer_size_warm_up);
	suite_add_tcase(s, tc);

	tc = tcase_create("actions");
	tcase_add_test(tc, test_on_threshold);
	tcase_add_test(tc, test_on_threshold_trace);
	tcase_add_test(tc, test_on_threshold_continue);
	tcase_add_test(tc, test_on_end);
	suite_add_tcase(s, tc);

	tc = tcase_create("general");
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_workload);
	suite_add_tcase(s, tc);

	tc = tcase_create("hist");
	tcase_add_test(tc, test_hist_geometry);
	tcase_add_test(tc, test_hist_columns);
	tcase_add_test(tc, test_hist_vars);
	tcase_add_test(tc, test_hist_flags);
	suite_add_tcase(s, tc);

	tc = tcase_create("usage_errors");
	tcase_add_exit_test(tc, test_err_help, 129);
	tcase_add_exit_test(tc, test_err_unknown_option, 129);
	tcase_add_exit_test(tc, test_err_cpus, 129);
	tcase_add_exit_test(tc, test_err_stop_on, 129);
	tcase_add_exit_test(tc, test_err_model, 129);
	tcase_add_exit_test(tc, test_err_threshold_zero, 129);
	tcase_add_exit_test(tc, test_err_action, 129);
	tcase_add_exit_test(tc, test_err_entries, 129);
	tcase_add_exit_test(tc, test_err_vars, 129);
	suite_add_tcase(s, tc);

	tc = tcase_create("contradictions");
	tcase_add_exit_test(tc, test_err_stop_on_alone, 1);
	tcase_add_exit_test(tc, test_err_event_without_trace, 1);
	tcase_add_exit_test(tc, test_err_workload_without_dashdash, 1);
	tcase_add_exit_test(tc, test_err_json_svg_stdout, 1);
	tcase_add_exit_test(tc, test_err_hist_too_wide, 1);
	tcase_add_exit_test(tc, test_err_hist_nothing_shown, 1);
	tcase_add_exit_test(tc, test_err_hist_no_index, 1);
	suite_add_tcase(s, tc);

	return s;
}
