// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of rtla sched-latency top and hist: rtla's own options
 * land in common_params, sched-latency's in its params, and the mistakes
 * exit as every rtla tool does (129 for a usage error, 1 for options that
 * contradict each other). Then the reports: the JSON document, and the
 * pictures --svg draws.
 */

#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <linux/container_of.h>

#include "cli_params_assert.h"
#include "../../src/cli.h"
#include "../../src/sched_latency_baseline.h"
#include "../../src/sched_latency_core.h"
#include "../../src/sched_latency_events.h"
#include "../../src/sched_latency_json.h"
#include "../../src/sched_latency_verdict.h"
#include "../../src/sched_latency_svg.h"
#include "../../src/sched_latency_workload.h"

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
static void parse_exit(struct common_params *(*parse)(int argc, char **argv), char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	nr_cpus = 4;
	if (!parse(argc, argv))
		exit(129);
	exit(0);
}

#define PARSE_EXIT(fn, ...)	parse_exit(fn, (char *[]){ __VA_ARGS__, NULL })

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

/* --max-var: limits per variable, from a list or from several options */
START_TEST(test_max_var)
{
	PARSE_TOP("top", "--max-var", "poid=50,irq=20", "--max-var", "nmi=5,poid=40");

	ck_assert_int_eq(sl_params->max_var_us[SL_POID], 40);
	ck_assert_int_eq(sl_params->max_var_us[SL_IRQ], 20);
	ck_assert_int_eq(sl_params->max_var_us[SL_NMI], 5);
	ck_assert_int_eq(sl_params->max_var_us[SL_PSD], 0);
	ck_assert_int_eq(sl_params->max_var_us[SL_DST], 0);
	ck_assert_int_eq(sl_params->max_var_us[SL_PAIE], 0);
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

START_TEST(test_priority)
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

START_TEST(test_outputs)
{
	PARSE_TOP("top", "--json", "-", "--svg", "out.svg", "--no-cpu-breakdown");

	ck_assert_str_eq(sl_params->json.path, "-");
	ck_assert_str_eq(sl_params->svg.path, "out.svg");
	ck_assert(sl_params->no_cpu_breakdown);
}
END_TEST

/* System Tuning */

START_TEST(test_buffer_size)
{
	PARSE_TOP("top", "--trace-buffer-size", "4096");

	ck_assert_int_eq(params->buffer_size, 4096);
}
END_TEST

START_TEST(test_warm_up)
{
	PARSE_TOP("top", "--warm-up", "5", "--", "cyclictest");

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

START_TEST(test_err_max_var_name)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--max-var", "st=10");
}
END_TEST

START_TEST(test_err_max_var_no_value)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--max-var", "poid");
}
END_TEST

START_TEST(test_err_max_var_zero)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--max-var", "poid=0");
}
END_TEST

START_TEST(test_err_max_var_not_number)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--max-var", "poid=10us");
}
END_TEST

START_TEST(test_err_max_var_empty)
{
	PARSE_EXIT(sched_latency_top_parse_args, "top", "--max-var", ",");
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

START_TEST(test_err_unexpected_argument)
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

/*
 * The reports: a synthetic run of @n CPUs as the end of top or hist sees
 * it, written as JSON (and, below, drawn as SVG).
 */

/* report_tool - a run of @n CPUs: a tick, two devices, a rare NMI, a storm */
static struct sl_tool *report_tool(int n, const char *mode)
{
	struct sched_latency_params *params = calloc(1, sizeof(*params));
	struct sl_tool *tool = calloc(1, sizeof(*tool));
	struct slb_config cfg;
	unsigned long long t;
	int cpu, k, m;

	ck_assert_ptr_nonnull(params);
	ck_assert_ptr_nonnull(tool);
	sl_params_init(params, mode);
	nr_cpus = n;
	tool->params = params;
	tool->cpu = calloc(n, sizeof(*tool->cpu));
	tool->events = calloc(1, sizeof(*tool->events));
	tool->wl = calloc(1, sizeof(*tool->wl));
	ck_assert_ptr_nonnull(tool->cpu);
	ck_assert_ptr_nonnull(tool->events);
	ck_assert_ptr_nonnull(tool->wl);
	tool->wl->max_us = calloc(n, sizeof(*tool->wl->max_us));
	ck_assert_ptr_nonnull(tool->wl->max_us);
	slb_config_default(&cfg);
	tool->slb = slb_alloc(&cfg, n);
	ck_assert_ptr_nonnull(tool->slb);

	for (cpu = 0; cpu < n; cpu++) {
		struct sl_cpu *c = &tool->cpu[cpu];

		c->max[SL_POID] = 8000 + 137 * cpu;
		c->max[SL_DST] = cpu % 7 == 3 ? 21000 : 3000 + 500 * (cpu % 5);
		c->max[SL_PAIE] = 1500 + 10 * cpu;
		c->max[SL_PSD] = 2500 + 20 * cpu;
		for (k = 0; k < SL_NR_WINDOWS; k++)
			slb_set_var(tool->slb, cpu, k, c->max[k]);
		/* a tick, two devices, a rare NMI; CPU 1 a storm: unbounded */
		for (k = 0; k < 2000; k++) {
			t = k * 100000ULL;
			if (k % 10 == 0)
				slb_add_interrupt(tool->slb, cpu, SL_VECTOR_BASE + 236, t,
						  2000 + 5 * cpu);
			if (k % 30 == 5)
				slb_add_interrupt(tool->slb, cpu, 11, t, 4000);
			if (k % 70 == 3)
				slb_add_interrupt(tool->slb, cpu, 24, t, 1000 + 30 * cpu);
			if (k % 500 == 7)
				slb_add_interrupt(tool->slb, cpu, SLB_NMI, t, 800);
			if (cpu == 1 && k % 2 == 1)
				slb_add_interrupt(tool->slb, cpu, 40, t, 150000);
			if (cpu == 1 && k % 2 == 0)
				slb_add_interrupt(tool->slb, cpu, 41, t, 60000);
		}
		c->max[SL_IRQ] = cpu == 1 ? 150000 : 4000;
		c->max[SL_NMI] = 800;
		c->seen = true;
		ck_assert_int_eq(slb_compute_cpu(tool->slb, cpu, &c->res), 0);
		c->has_res = true;
		tool->wl->max_us[cpu] = cpu % 2 ? -1 : 20 + cpu % 9;
	}
	/* the system: the worst CPU under each characterization */
	for (m = 0; m < SLB_NR_MODELS; m++)
		for (cpu = 0; cpu < n; cpu++)
			if (!tool->system[m] ||
			    slb_bound_worse(&tool->cpu[cpu].res.bound[m], tool->system[m]))
				tool->system[m] = &tool->cpu[cpu].res.bound[m];
	tool->bucket_ns = 1000;
	tool->nr_buckets = 1000;
	return tool;
}

static void report_tool_free(struct sl_tool *tool)
{
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		slb_result_fini(&tool->cpu[cpu].res);
	sl_hist_pic_free(tool->hist_pic);
	sl_workload_free(tool);
	slb_free(tool->slb);
	free(tool->events);
	free(tool->cpu);
	free(tool->params);
	free(tool);
	nr_cpus = 4;
}

/* report_open - an output file in @dir, for --json or --svg */
static void report_open(struct sl_output *out, char *path, size_t len, const char *dir,
			const char *name)
{
	snprintf(path, len, "%s/%s", dir, name);
	out->path = path;
	out->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(out->fd, 0);
}

/* report_read - the whole of a file written */
static char *report_read(const char *path)
{
	char *text = calloc(1, 1 << 20);
	FILE *fp = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(fp);
	n = fread(text, 1, (1 << 20) - 1, fp);
	ck_assert(feof(fp));
	text[n] = '\0';
	fclose(fp);
	return text;
}

/*
 * --json: a whole document, each CPU's bounds as the engine computed them,
 * the system's from its worst CPU, and the verdict
 */
START_TEST(test_json)
{
	static const char head[] = "{\n  \"version\": 3,\n";
	struct sl_tool *tool = report_tool(4, "top");
	char dir[] = "/tmp/sl_json_XXXXXX", path[PATH_MAX], want[512], *text;
	const struct slb_bound *b;
	int cpu, m, len;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	report_open(&tool->params->json, path, sizeof(path), dir, "top.json");
	ck_assert_int_eq(sl_write_json(tool), 0);
	close(tool->params->json.fd);
	text = report_read(path);
	unlink(path);
	rmdir(dir);

	ck_assert(!strncmp(text, head, strlen(head)));
	ck_assert_ptr_nonnull(strstr(text, "\n  \"tool\": \"rtla sched-latency top\",\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  \"verdict\": \"passed\",\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  \"workload\": null\n}\n"));
	for (cpu = 0; cpu < 4; cpu++) {
		len = snprintf(want, sizeof(want), "\n    \"%d\": {\n", cpu);
		ck_assert_ptr_nonnull(strstr(text, want));
		len = snprintf(want, sizeof(want), "\"bound_ns\": {");
		for (m = 0; m < SLB_NR_MODELS; m++) {
			b = &tool->cpu[cpu].res.bound[m];
			len += snprintf(want + len, sizeof(want) - len, "%s\"%s\": ",
					m ? ", " : "", slb_model_name(m));
			if (b->unbounded)
				len += snprintf(want + len, sizeof(want) - len, "null");
			else
				len += snprintf(want + len, sizeof(want) - len, "%llu",
						(unsigned long long)b->latency);
		}
		ck_assert_msg(strstr(text, want), "cpu %d: no %s", cpu, want);
	}
	/* without interrupts CPU 3's sched tail is the worst, with them CPU 1's storm */
	ck_assert_ptr_nonnull(strstr(text, "\"bound_cpu\": {\"no_interrupts\": 3, "));
	ck_assert_ptr_nonnull(strstr(text, "\"sliding_window\": 1, "));
	/* a tool that never read the tracer's files: no ABI, no clock */
	ck_assert_ptr_nonnull(strstr(text, "\n  \"tracer\": {\"name\": \"latency_parser\", "));
	ck_assert_ptr_nonnull(strstr(text, "\"abi\": null, \"files\": null, "));
	ck_assert_ptr_nonnull(strstr(text, "\"files\": null, \"trace_clock\": null},\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  \"kernel\": {\"preemption\": "));
	free(text);
	report_tool_free(tool);
}
END_TEST

/* join - the strings of @parts, up to NULL, one after the other in @buf */
static const char *join(char *buf, size_t len, const char * const *parts)
{
	size_t n = 0;

	for (buf[0] = '\0'; *parts; parts++)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s", *parts);
	ck_assert_uint_lt(n, len);
	return buf;
}

/*
 * --max-var: the verdict is 2 when a variable of a CPU is above its limit,
 * not when it is at it; the JSON lists each one over
 */
START_TEST(test_max_var_verdict)
{
	static const char * const over[] = {
		"\n  \"over_max_var\": [{\"cpu\": 1, \"variable\": \"poid\", ",
		"\"value_ns\": 8137, \"max_us\": 8}, {\"cpu\": 1, \"variable\": \"irq\", ",
		"\"value_ns\": 150000, \"max_us\": 149}, {\"cpu\": 2, ", NULL,
	};
	char want[256];
	struct sl_tool *tool = report_tool(4, "top");
	char dir[] = "/tmp/sl_json_XXXXXX", path[PATH_MAX], *text;

	/* the POID of CPU 0..3: 8000, 8137, 8274, 8411 ns; IRQ: CPU 1 150 us */
	tool->params->max_var_us[SL_POID] = 9;
	tool->params->max_var_us[SL_IRQ] = 150;
	ck_assert_int_eq(sl_finish(tool), SL_EXIT_OK);
	ck_assert_int_eq(tool->over_var, 0);

	tool->params->max_var_us[SL_POID] = 8;
	tool->params->max_var_us[SL_IRQ] = 149;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	report_open(&tool->params->json, path, sizeof(path), dir, "v.json");
	ck_assert_int_eq(sl_finish(tool), SL_EXIT_EXCEEDED);
	ck_assert_int_eq(tool->over_var, 4);
	text = report_read(path);
	unlink(path);
	rmdir(dir);
	ck_assert_ptr_nonnull(strstr(text, "\"max_var_us\": {\"poid\": 8, \"irq\": 149}"));
	ck_assert_ptr_nonnull(strstr(text, join(want, sizeof(want), over)));
	ck_assert_ptr_null(strstr(text, "{\"cpu\": 0, \"variable\": \"poid\""));
	free(text);
	report_tool_free(tool);
}
END_TEST

/*
 * --baseline: a run compared with itself through its own --json report
 * has no regression; then each kind of regression, alone: a variable
 * above the tolerance, a bound above it, a bound unbounded now; and what
 * the tolerance and the slack let pass
 */
START_TEST(test_baseline)
{
	static const char * const reg2[] = {
		"\"regressions\": [{\"cpu\": 2, ", "\"variable\": \"bound.no_interrupts\"", NULL,
	};
	static const char * const reg3[] = {
		"{\"cpu\": 3, \"variable\": \"bound.worst_single\", ", "\"value_ns\": null", NULL,
	};
	struct sl_tool *tool = report_tool(4, "top");
	char dir[] = "/tmp/sl_json_XXXXXX", path[PATH_MAX], bpath[PATH_MAX], *text;
	char want[128];
	struct sl_baseline *bl;
	unsigned long long irq;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	report_open(&tool->params->json, bpath, sizeof(bpath), dir, "base.json");
	ck_assert_int_eq(sl_write_json(tool), 0);
	close(tool->params->json.fd);
	tool->params->json.fd = -1;
	bl = sl_baseline_load(bpath);
	tool->baseline = bl;
	tool->params->tolerance_pct = 10;

	ck_assert_uint_eq(sl_baseline_compare(tool), 0);
	/* 4 cpus, 6 variables and 6 bounds each */
	ck_assert_uint_eq(bl->compared, 48);

	/* the slack: PSD 2500 -> 3500 ns is +40% but only 1 us more */
	tool->cpu[0].max[SL_PSD] = 3500;
	ck_assert_uint_eq(sl_baseline_compare(tool), 0);
	tool->cpu[0].max[SL_PSD] = 3501;
	ck_assert_uint_eq(sl_baseline_compare(tool), 1);
	ck_assert_int_eq(bl->regressions[0].cpu, 0);
	ck_assert_str_eq(bl->regressions[0].what, "psd");
	ck_assert_uint_eq(bl->regressions[0].value_ns, 3501);
	ck_assert_uint_eq(bl->regressions[0].baseline_ns, 2500);
	tool->cpu[0].max[SL_PSD] = 2500;

	/* the tolerance: CPU 1's IRQ 150 us, +10% passes, +10.1% not */
	irq = tool->cpu[1].max[SL_IRQ];
	tool->cpu[1].max[SL_IRQ] = irq + irq / 10;
	ck_assert_uint_eq(sl_baseline_compare(tool), 0);
	tool->params->tolerance_pct = 5;
	ck_assert_uint_eq(sl_baseline_compare(tool), 1);
	ck_assert_str_eq(bl->regressions[0].what, "irq");
	tool->params->tolerance_pct = 10;
	tool->cpu[1].max[SL_IRQ] = irq + irq / 10 + 150;
	ck_assert_uint_eq(sl_baseline_compare(tool), 1);
	ck_assert_int_eq(bl->regressions[0].cpu, 1);
	tool->cpu[1].max[SL_IRQ] = irq;

	/* a bound: larger, and unbounded */
	tool->cpu[2].res.bound[SLB_NO_INTERRUPTS].latency *= 2;
	tool->cpu[3].res.bound[SLB_WORST_SINGLE].unbounded = true;
	report_open(&tool->params->json, path, sizeof(path), dir, "run.json");
	ck_assert_int_eq(sl_finish(tool), SL_EXIT_EXCEEDED);
	ck_assert_uint_eq(bl->nr_regressions, 2);
	ck_assert_int_eq(bl->regressions[0].cpu, 2);
	ck_assert_str_eq(bl->regressions[0].what, "bound.no_interrupts");
	ck_assert_int_eq(bl->regressions[1].cpu, 3);
	ck_assert_str_eq(bl->regressions[1].what, "bound.worst_single");
	ck_assert_uint_eq(bl->regressions[1].value_ns, ULLONG_MAX);
	text = report_read(path);
	ck_assert_ptr_nonnull(strstr(text, join(want, sizeof(want), reg2)));
	ck_assert_ptr_nonnull(strstr(text, join(want, sizeof(want), reg3)));
	ck_assert_ptr_nonnull(strstr(text, "\"verdict\": \"exceeded\""));
	free(text);
	unlink(path);
	unlink(bpath);
	rmdir(dir);
	sl_baseline_free(bl);
	report_tool_free(tool);
}
END_TEST

/* --baseline: what is not a report this rtla can compare with, and why */
START_TEST(test_baseline_parse_errors)
{
	static const char * const bad[][2] = {
		{ "[1]", "not a JSON object" },
		{ "{\"version\": 1, \"cpus\": {\"0\": {\"poid_ns\": 5}}}", "version 2 to 3" },
		{ "{\"cpus\": {\"0\": {\"poid_ns\": 5}}}", "version 2 to 3" },
		{ "{\"version\": 3, \"cpus\": {}}", "no cpu was measured" },
		{ "{\"version\": 3, \"cpus\": {\"0\": {\"poid_ns\": 5}}} x", "text after" },
		{ "{\"version\": 3, \"cpus\": {\"0\": {\"poid_ns\": 5,}}}", "a string expected" },
		{ "{\"version\": 3, \"cpus\": {\"0\": {\"poid_ns\": 5}}", "a ',' or '}' expected" },
		{ "{\"version\": 3, \"a\": \"b\\q\"}", "a bad escape" },
		{ "{\"version\": 3, \"a\": tru}", "a JSON value expected" },
	};
	/* a number not whole is not kept: poid, irq's count, sporadic's null are */
	static const char * const v2[] = {
		"{\"version\": 2, \"cpus\": {\"1\": {\"poid_ns\": 7, ",
		"\"irq\": {\"count\": 1, \"max_ns\": 9.5}, ",
		"\"bound_ns\": {\"sporadic\": null}}}}", NULL,
	};
	char err[160], deep[200];
	struct sl_baseline *bl;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert_ptr_null(sl_baseline_parse(bad[i][0], err, sizeof(err)));
		ck_assert_msg(strstr(err, bad[i][1]), "%s: %s, not %s", bad[i][0], err, bad[i][1]);
	}
	memset(deep, '[', sizeof(deep) - 1);
	deep[0] = '{';
	deep[1] = '"';
	deep[2] = 'a';
	deep[3] = '"';
	deep[4] = ':';
	deep[sizeof(deep) - 1] = '\0';
	ck_assert_ptr_null(sl_baseline_parse(deep, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "nested too deep"));

	bl = sl_baseline_parse(join(deep, sizeof(deep), v2), err, sizeof(err));
	ck_assert_msg(bl, "%s", err);
	ck_assert_uint_eq(bl->nr_values, 3);
	sl_baseline_free(bl);
}
END_TEST

/*
 * json_tracer_of - the "tracer" line of the JSON of a run that read
 * @files in the tracer's directory and @clock
 */
static char *json_tracer_of(const char *files, const char *clock)
{
	struct sl_tool *tool = report_tool(1, "top");
	char dir[] = "/tmp/sl_json_XXXXXX", path[PATH_MAX], *text, *line, *end;

	snprintf(tool->tracer_files, sizeof(tool->tracer_files), "%s", files);
	snprintf(tool->trace_clock, sizeof(tool->trace_clock), "%s", clock);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	report_open(&tool->params->json, path, sizeof(path), dir, "t.json");
	ck_assert_int_eq(sl_write_json(tool), 0);
	close(tool->params->json.fd);
	text = report_read(path);
	unlink(path);
	rmdir(dir);
	report_tool_free(tool);
	line = strstr(text, "\n  \"tracer\": ");
	ck_assert_ptr_nonnull(line);
	line = strdup(line + 3);
	free(text);
	end = strchr(line, '\n');
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	return line;
}

/*
 * The tracer's ABI: 1 when its directory has every file rtla uses (the
 * kernel has no version file: the file set tells the interfaces apart);
 * a file set without one of them has no ABI rtla knows, a name that only
 * begins like one does not count
 */
START_TEST(test_json_tracer_abi)
{
	static const char * const abi1[] = {
		"\"tracer\": {\"name\": \"latency_parser\", \"available\": true, \"abi\": 1, ",
		"\"files\": [\"cpus\", \"hist\", \"hist_bucket_ns\", \"hist_buckets\", ",
		"\"max\", \"stop_tracing_us\", \"x\"], \"trace_clock\": \"local\"},", NULL,
	};
	static const char * const no_abi[] = {
		"\"tracer\": {\"name\": \"latency_parser\", \"available\": true, \"abi\": null, ",
		"\"files\": [\"cpus\", \"hist\", \"hist_bucket_ns\", \"hist_buckets\", ",
		"\"maxima\", \"stop_tracing_us\"], \"trace_clock\": \"global\"},", NULL,
	};
	char want[512], *line;

	line = json_tracer_of("cpus,hist,hist_bucket_ns,hist_buckets,max,stop_tracing_us,x",
			      "local");
	ck_assert_str_eq(line, join(want, sizeof(want), abi1));
	free(line);
	line = json_tracer_of("cpus,hist,hist_bucket_ns,hist_buckets,maxima,stop_tracing_us",
			      "global");
	ck_assert_str_eq(line, join(want, sizeof(want), no_abi));
	free(line);
}
END_TEST

/*
 * The pictures (--svg): charts of synthetic runs of 1 and 64 CPUs, top's
 * bounds and hist's histograms. Each must fit its text in its canvas
 * (every line of text measured at 0.6 em a character) and have a label per
 * CPU. The files are kept in $SL_SVG_DIR when it is set, with the JSON of
 * the bound charts: tests/host/rtla_svg.t parses them and checks that each
 * stacked term is as high as the JSON's value.
 */

static char svg_dir[PATH_MAX];
static bool svg_keep;

static void svg_dir_setup(void)
{
	const char *dir = getenv("SL_SVG_DIR");

	svg_keep = dir && *dir;
	if (svg_keep) {
		snprintf(svg_dir, sizeof(svg_dir), "%s", dir);
		return;
	}
	snprintf(svg_dir, sizeof(svg_dir), "/tmp/sl_svg_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(svg_dir));
}

static void svg_dir_teardown(void)
{
	char cmd[PATH_MAX + 16];

	if (svg_keep)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", svg_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* svg_hist_data - histograms with a tail, one CPU without NMIs, an overflow */
static void svg_hist_data(struct sl_tool *tool)
{
	struct sl_hist_pic *pic = sl_hist_pic_alloc(nr_cpus);
	unsigned long long *cnt;
	int var, cpu, bin, last;

	ck_assert_ptr_nonnull(pic);
	pic->range_ns = tool->bucket_ns * tool->nr_buckets;
	for (var = 0; var < SL_NR_VARS; var++) {
		pic->bin_ns[var] = 1000ULL * (var + 1);
		pic->nr_bins[var] = 40 + 10 * var;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		pic->cpu_shown[cpu] = true;
		for (var = 0; var < SL_NR_VARS; var++) {
			cnt = sl_pic_counts(pic, nr_cpus, var, cpu);
			if (var == SL_NMI && cpu == 0) {
				tool->cpu[cpu].max[var] = 0;
				continue;
			}
			last = 0;
			for (bin = 0; bin < pic->nr_bins[var]; bin++) {
				cnt[bin] = 1000000ULL >> (bin / (2 + cpu % 3));
				if (cnt[bin])
					last = bin;
			}
			if (var == SL_IRQ && cpu == 0)
				cnt[SL_PIC_OVER] = 3;
			tool->cpu[cpu].max[var] = cnt[SL_PIC_OVER] ? pic->range_ns + 5000 :
				last * pic->bin_ns[var] + pic->bin_ns[var] / 2;
		}
	}
	tool->hist_pic = pic;
}

/*
 * svg_check_text - every horizontal text of the file inside the canvas,
 * and how many CPU labels there are; rotated labels are tested in rtla_svg.t
 */
static int svg_check_text(const char *path, int *width)
{
	char line[4096], anchor[16], *p, *end;
	int height = 0, cpus = 0, size;
	double x, w, left;
	FILE *fp = fopen(path, "r");

	ck_assert_ptr_nonnull(fp);
	*width = 0;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "<svg ", 5)) {
			p = strstr(line, " width=\"");
			ck_assert_ptr_nonnull(p);
			*width = atoi(p + 8);
			height = atoi(strstr(line, " height=\"") + 9);
		}
		if (strncmp(line, "<text x=\"", 9))
			continue;
		x = strtod(line + 9, NULL);
		p = strstr(line, "font-size=\"");
		size = p ? atoi(p + 11) : 12;
		anchor[0] = '\0';
		p = strstr(line, "text-anchor=\"");
		if (p)
			sscanf(p + 13, "%15[a-z]", anchor);
		p = strchr(line, '>') + 1;
		end = strstr(p, "</text>");
		ck_assert_ptr_nonnull(end);
		w = 0.6 * size * (double)(end - p);
		left = !strcmp(anchor, "end") ? x - w : !strcmp(anchor, "middle") ? x - w / 2 : x;
		ck_assert_msg(left >= 0 && left + w <= *width,
			      "%s: text '%.*s' (%.0f-%.0f) out of the %d px canvas", path,
			      (int)(end - p), p, left, left + w, *width);
		if (strstr(line, "data-role=\"cpu\""))
			cpus++;
		ck_assert_int_gt(height, 0);
	}
	fclose(fp);
	return cpus;
}

static void svg_chart(int n, const char *mode)
{
	struct sl_tool *tool = report_tool(n, mode);
	char svg[PATH_MAX], json[PATH_MAX], name[64];
	int width;

	if (!strcmp(mode, "hist"))
		svg_hist_data(tool);
	snprintf(name, sizeof(name), "%s-%d.svg", mode, n);
	report_open(&tool->params->svg, svg, sizeof(svg), svg_dir, name);
	ck_assert_int_eq(sl_write_svg(tool), 0);
	close(tool->params->svg.fd);
	snprintf(name, sizeof(name), "%s-%d.json", mode, n);
	report_open(&tool->params->json, json, sizeof(json), svg_dir, name);
	ck_assert_int_eq(sl_write_json(tool), 0);
	close(tool->params->json.fd);

	ck_assert_int_eq(svg_check_text(svg, &width), n);
	ck_assert_int_gt(width, 0);
	report_tool_free(tool);
}

START_TEST(test_svg_bounds_1)
{
	svg_chart(1, "top");
}
END_TEST

START_TEST(test_svg_bounds_64)
{
	svg_chart(64, "top");
}
END_TEST

START_TEST(test_svg_hist_1)
{
	svg_chart(1, "hist");
}
END_TEST

START_TEST(test_svg_hist_64)
{
	svg_chart(64, "hist");
}
END_TEST

/* Interrupt sources */

/*
 * The names of an IRQ in /proc/interrupts, whose lines differ by
 * architecture: x86's hwirq carries the flow's name ("2-edge"), arm64
 * prints the trigger on its own ("27 Level"). The x86 and arm64 lines are
 * as qemu's guests of the tests print them.
 */
START_TEST(test_irq_line_names)
{
	static const struct {
		const char *line;
		int ncpus, irq;
		const char *name;
	} lines[] = {
		{ "  0:         33          0   IO-APIC   2-edge      timer\n", 2, 0, "timer" },
		{ " 24:      0    812  PCI-MSIX-0000:00:03.0    0-edge      virtio0-config\n",
		  2, 24, "virtio0-config" },
		{ " 11:          0          1   IO-APIC  11-fasteoi   uhci_hcd:usb1, virtio2\n",
		  2, 11, "uhci_hcd:usb1, virtio2" },
		{ " 11:     103097      98012     GICv3  27 Level     arch_timer\n",
		  2, 11, "arch_timer" },
		{ " 21:        405          0   ITS-MSI 16384 Edge      virtio0-requests\n",
		  2, 21, "virtio0-requests" },
		{ " 13:          7     GICv3  33 Level     uart-pl011\n", 1, 13, "uart-pl011" },
		/* an IRQ without a domain: no hwirq, the flow's name alone */
		{ "  3:          0          0   dummy          -edge      acpi\n", 2, 3, "acpi" },
		/* no name, or no numbered IRQ */
		{ " 14:          0          0     GICv3  34 Level\n", 2, -1, NULL },
		{ "NMI:          0          0   Non-maskable interrupts\n", 2, -1, NULL },
		{ "IPI0:       112        140       Rescheduling interrupts\n", 2, -1, NULL },
	};
	char buf[256], *name;
	unsigned int i;
	int irq;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		strcpy(buf, lines[i].line);
		irq = -1;
		name = sl_irq_line_name(buf, lines[i].ncpus, &irq);
		if (!lines[i].name) {
			ck_assert_msg(!name, "line %u: \"%s\" named", i, name);
			continue;
		}
		ck_assert_msg(name, "line %u: no name", i);
		ck_assert_str_eq(name, lines[i].name);
		ck_assert_int_eq(irq, lines[i].irq);
	}
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
	tcase_add_test(tc, test_max_var);
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
	tcase_add_test(tc, test_priority);
	suite_add_tcase(s, tc);

	tc = tcase_create("output");
	tcase_add_test(tc, test_nano);
	tcase_add_test(tc, test_quiet);
	tcase_add_test(tc, test_outputs);
	suite_add_tcase(s, tc);

	tc = tcase_create("report");
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_json_tracer_abi);
	tcase_add_test(tc, test_max_var_verdict);
	tcase_add_test(tc, test_baseline);
	tcase_add_test(tc, test_baseline_parse_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("svg");
	tcase_add_unchecked_fixture(tc, svg_dir_setup, svg_dir_teardown);
	tcase_add_test(tc, test_svg_bounds_1);
	tcase_add_test(tc, test_svg_bounds_64);
	tcase_add_test(tc, test_svg_hist_1);
	tcase_add_test(tc, test_svg_hist_64);
	suite_add_tcase(s, tc);

	tc = tcase_create("system_tuning");
	tcase_add_test(tc, test_buffer_size);
	tcase_add_test(tc, test_warm_up);
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
	tcase_add_exit_test(tc, test_err_max_var_name, 129);
	tcase_add_exit_test(tc, test_err_max_var_no_value, 129);
	tcase_add_exit_test(tc, test_err_max_var_zero, 129);
	tcase_add_exit_test(tc, test_err_max_var_not_number, 129);
	tcase_add_exit_test(tc, test_err_max_var_empty, 129);
	tcase_add_exit_test(tc, test_err_entries, 129);
	tcase_add_exit_test(tc, test_err_vars, 129);
	suite_add_tcase(s, tc);

	tc = tcase_create("contradictions");
	tcase_add_exit_test(tc, test_err_stop_on_alone, 1);
	tcase_add_exit_test(tc, test_err_event_without_trace, 1);
	tcase_add_exit_test(tc, test_err_unexpected_argument, 1);
	tcase_add_exit_test(tc, test_err_json_svg_stdout, 1);
	tcase_add_exit_test(tc, test_err_hist_too_wide, 1);
	tcase_add_exit_test(tc, test_err_hist_nothing_shown, 1);
	tcase_add_exit_test(tc, test_err_hist_no_index, 1);
	suite_add_tcase(s, tc);

	tc = tcase_create("interrupt_sources");
	tcase_add_test(tc, test_irq_line_names);
	suite_add_tcase(s, tc);

	return s;
}
