// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the system checks, the trace instances and their
 * latency_parser tracer, the signals, rtla's house-keeping, and the
 * teardown that leaves no instance behind.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched_latency_tool.h"

/*
 * Signals only raise flags: the loop notices them within a second and
 * tears the instance down on its normal path, so that no sched_latency_*
 * instance outlives rtla.
 */
sig_atomic_t sl_stop_requested;
sig_atomic_t sl_child_event;
struct tracefs_instance *sl_iterating;

/*
 * The system: what must hold before anything is touched.
 */

/* sl_open_output - open an output file now, so a bad path fails early */
static void sl_open_output(struct sl_output *out, const char *opt)
{
	if (!out->path)
		return;
	/*
	 * "-": the report on standard output, for a pipe; the text that
	 * would go there (rtla's and the workload's) goes to standard error.
	 */
	if (!strcmp(out->path, "-")) {
		out->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (out->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			sl_fail("cannot write the %s report to standard output: %s", opt,
				strerror(errno));
		return;
	}
	out->fd = open(out->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out->fd >= 0) {
		out->created = true;
		return;
	}
	if (errno == EEXIST)
		out->fd = open(out->path, O_WRONLY | O_CLOEXEC);
	if (out->fd < 0)
		sl_fail("cannot write the %s file %s: %s", opt, out->path, strerror(errno));
	/* an existing file: never write to a directory or a fifo by mistake */
	if (!isatty(out->fd)) {
		struct stat st;

		if (fstat(out->fd, &st) || !S_ISREG(st.st_mode))
			sl_fail("cannot write the %s file %s: not a regular file", opt, out->path);
	}
}

/* sl_close_output - close an output file; remove it if it stayed empty */
void sl_close_output(struct sl_output *out, bool written)
{
	if (out->fd < 0)
		return;
	close(out->fd);
	out->fd = -1;
	if (!written && out->created)
		unlink(out->path);
}

/* sl_check_system - root, the output files, tracefs, the tracer */
static void sl_check_system(struct sl_params *params)
{
	struct stat st;

	if (geteuid())
		sl_fail("needs root permission");

	sl_open_output(&params->json, "--json");
	sl_open_output(&params->svg, "--svg");

	/*
	 * libtracefs would mount tracefs itself: say so instead of changing
	 * the system's mounts behind the user's back. Reading a file under
	 * debugfs's tracing/ first triggers its automount.
	 */
	stat("/sys/kernel/debug/tracing/trace", &st);
	if (tracefs_tracing_dir_is_mounted(false, NULL) != 1)
		sl_fail("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	if (!tracefs_tracer_available(NULL, SL_TRACER))
		sl_fail("the kernel has no latency_parser tracer: it needs CONFIG_LATENCY_PARSER_TRACER=y (a PREEMPT_RT kernel; distributions ship it in a tracing or debug flavour, if at all)");
}

/*
 * The instances: one measures and is consumed event by event; with -t a
 * second one runs the same tracer with stacks and is never read, so that
 * on a stop its trace file still holds the window and its stack.
 */

/* sl_write - write a setting of an instance */
static int sl_write(struct tracefs_instance *inst, const char *file,
		    const char *fmt, ...)
{
	char *value;
	va_list ap;
	int ret = 0;

	/* whole, however long: a cut CPU list would measure other CPUs */
	va_start(ap, fmt);
	ret = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		err_msg("rtla sched-latency: out of memory\n");
		return -1;
	}

	ret = 0;
	debug_msg("%s/%s <- %s\n", tracefs_instance_get_name(inst), file, value);
	if (tracefs_instance_file_write(inst, file, value) < 0) {
		err_msg("rtla sched-latency: cannot write %s to %s/%s: %s\n", value,
			tracefs_instance_get_name(inst), file, strerror(errno));
		ret = -1;
	}
	free(value);
	return ret;
}

/*
 * sl_write_cpumask - the instance's tracing_cpumask: the measured CPUs.
 * The tracer's execution events come from every CPU; the others' would
 * only fill the buffer. The kernel's format: 32-bit hex words, most
 * significant first, separated by commas.
 */
static int sl_write_cpumask(struct sl_tool *tool, struct tracefs_instance *inst)
{
	int words = (tool->nr_cpus + 31) / 32;
	char *mask, *p;
	int w, bit;

	mask = calloc(words, 9 + 1);
	if (!mask)
		return -1;
	p = mask;
	for (w = words - 1; w >= 0; w--) {
		unsigned int word = 0;

		for (bit = 0; bit < 32; bit++) {
			if (sl_cpu_monitored(tool, w * 32 + bit))
				word |= 1U << bit;
		}
		p += sprintf(p, "%08x%s", word, w ? "," : "");
	}
	w = sl_write(inst, "tracing_cpumask", "%s", mask);
	free(mask);
	return w;
}

/* sl_enable_interrupt_events - the tracer's IRQ, vector and NMI executions */
static int sl_enable_interrupt_events(struct tracefs_instance *inst)
{
	static const char * const events[] = {
		"irq_execution", "vector_execution", "nmi_execution",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (tracefs_event_enable(inst, "latency_parser", events[i])) {
			err_msg("rtla sched-latency: cannot enable the event latency_parser:%s\n",
				events[i]);
			return -1;
		}
	}
	return 0;
}

/* sl_setup_instance - select the tracer in an instance and configure it */
static int sl_setup_instance(struct sl_tool *tool, struct trace_instance *trace,
			     bool record)
{
	struct sl_params *params = tool->params;
	struct tracefs_instance *inst = trace->inst;

	if (enable_tracer_by_name(inst, SL_TRACER))
		return -1;

	if (params->cpus && sl_write(inst, "latency_parser/cpus", "%s", params->cpus))
		return -1;
	if (params->cpus && sl_write_cpumask(tool, inst))
		return -1;

	/*
	 * The interference characterizations need every IRQ and NMI
	 * execution: the tracer's events for them, off unless enabled.
	 */
	if (!record && sl_enable_interrupt_events(inst))
		return -1;

	/*
	 * The geometry is checked against the current one on each write: go
	 * through one bucket, which fits any width.
	 */
	if (!record) {
		if (sl_write(inst, "latency_parser/hist_buckets", "1") ||
		    sl_write(inst, "latency_parser/hist_bucket_ns", "%lld",
			     params->bucket_us * 1000) ||
		    sl_write(inst, "latency_parser/hist_buckets", "%lld", params->entries))
			return -1;
	}

	if (params->threshold_us && params->stop_on == SL_STOP_ANY &&
	    sl_write(inst, "latency_parser/stop_tracing_us", "%lld", params->threshold_us))
		return -1;

	/* rtla's own stops need the stack of every new maximum */
	if (record || params->stop_on != SL_STOP_ANY) {
		if (tracefs_option_enable(inst, TRACEFS_OPTION_STACKTRACE)) {
			err_msg("rtla sched-latency: cannot enable stack traces\n");
			return -1;
		}
	}

	if (params->buffer_size && trace_set_buffer_size(trace, params->buffer_size))
		return -1;

	/* the extra events go where the trace is kept (-e needs -t) */
	if (params->events && record) {
		if (trace_events_enable(trace, params->events))
			return -1;
	}
	return 0;
}

/* sl_set_signals - stop cleanly on SIGINT, SIGTERM, SIGHUP and -d */
static void sl_set_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the wait of the loop must end on a signal */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* sl_signal - a stop request (twice: abandon the event iteration) */
static void sl_signal(int sig)
{
	if (sig == SIGCHLD) {
		sl_child_event = 1;
		return;
	}
	if (sl_stop_requested && sl_iterating)
		tracefs_iterate_stop(sl_iterating);
	sl_stop_requested = 1;
}

/*
 * sl_house_keeping - keep rtla's own work (the tracefs reads, the bound)
 * off the measured CPUs, where the tracer would measure it: on -H's CPUs,
 * or with -c on the others it may run on, as rtla timerlat does. The
 * workload gets rtla's affinity of before (sl_restore_affinity()).
 */
static void sl_house_keeping(struct sl_params *params)
{
	params->has_orig_cpus = !sched_getaffinity(0, sizeof(params->orig_cpus),
						   &params->orig_cpus);
	if (params->house_keeping) {
		if (sched_setaffinity(0, sizeof(params->hk_cpus), &params->hk_cpus))
			sl_fail("cannot run rtla on the -H cpus %s: %s", params->house_keeping,
				strerror(errno));
		return;
	}
	if (params->cpus && !auto_house_keeping(&params->monitored_cpus))
		debug_msg("no house-keeping cpu: rtla runs on the measured cpus\n");
}

/* sl_restore_affinity - in the workload: rtla's affinity before it moved */
void sl_restore_affinity(struct sl_params *params)
{
	if (params->has_orig_cpus)
		sched_setaffinity(0, sizeof(params->orig_cpus), &params->orig_cpus);
}

/*
 * sl_tool_init - check the system, create and configure the instances
 *
 * Exits with an error when the system cannot run the measurement. Once
 * the tool exists it is returned in *toolp, also when a later step fails
 * (-1), so that the caller destroys what was made.
 */
int sl_tool_init(struct sl_params *params, struct sl_tool **toolp)
{
	struct sl_tool *tool;
	long long value;
	int cpu;

	sl_check_system(params);

	tool = calloc(1, sizeof(*tool));
	*toolp = tool;
	if (!tool)
		sl_fail("out of memory");
	tool->params = params;
	tool->wl.out_fd = -1;
	tool->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	tool->cpu = calloc(tool->nr_cpus, sizeof(*tool->cpu));
	tool->slb = slb_alloc(NULL, tool->nr_cpus);
	if (!tool->cpu || !tool->slb)
		sl_fail("out of memory");
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		tool->cpu[cpu].pending_var = -1;
		tool->cpu[cpu].workload_max_us = -1;
	}
	if (!params->cpus) {
		for (cpu = 0; cpu < tool->nr_cpus; cpu++)
			CPU_SET(cpu, &params->monitored_cpus);
	}

	sl_house_keeping(params);

	/* before the instance exists, so that it never outlives a signal */
	sl_set_signals(sl_signal);

	snprintf(tool->name, sizeof(tool->name), "sched_latency_%d", getpid());
	if (trace_instance_init(&tool->trace, tool->name)) {
		err_msg("rtla sched-latency: cannot create the trace instance %s\n", tool->name);
		return -1;
	}
	if (sl_setup_instance(tool, &tool->trace, false))
		return -1;

	/* the instance that keeps the trace: -t, or an action that saves it */
	if (params->trace_output || sl_actions_want_trace(&params->on_threshold) ||
	    sl_actions_want_trace(&params->on_end)) {
		snprintf(tool->record_name, sizeof(tool->record_name),
			 "sched_latency_%d_trace", getpid());
		if (trace_instance_init(&tool->record, tool->record_name)) {
			err_msg("rtla sched-latency: cannot create the trace instance %s\n",
				tool->record_name);
			return -1;
		}
		tool->has_record = true;
		if (sl_setup_instance(tool, &tool->record, true))
			return -1;
	}

	sl_register_handlers(tool);

	if (params->set_sched && __set_sched_attr(getpid(), &params->sched_param)) {
		err_msg("rtla sched-latency: cannot set the priority of rtla\n");
		return -1;
	}

	/* read back what the kernel took, for the histogram's index */
	if (tracefs_instance_file_read_number(tool->trace.inst,
					      "latency_parser/hist_bucket_ns", &value) == 0)
		tool->bucket_ns = value;
	if (tracefs_instance_file_read_number(tool->trace.inst,
					      "latency_parser/hist_buckets", &value) == 0)
		tool->nr_buckets = value;
	return 0;
}

/* sl_tool_destroy - remove the instances and free everything */
void sl_tool_destroy(struct sl_tool *tool)
{
	struct sl_params *params;
	int cpu;

	if (!tool)
		return;
	params = tool->params;

	sl_workload_cleanup(tool);
	if (tool->trace.inst) {
		/* where -e events went; a hist: trigger is saved on the way */
		trace_events_destroy(tool->has_record ? &tool->record : &tool->trace,
				     params->events);
		params->events = NULL;
	}
	if (tool->has_record)
		trace_instance_destroy(&tool->record);
	trace_instance_destroy(&tool->trace);

	/* an output file made for a run that never finished is removed */
	sl_close_output(&params->json, false);
	sl_close_output(&params->svg, false);

	for (cpu = 0; cpu < tool->nr_cpus; cpu++)
		if (tool->cpu[cpu].has_res)
			slb_result_fini(&tool->cpu[cpu].res);
	free(tool->cpu);
	slb_free(tool->slb);
	free(tool->wl.command);
	free(tool);
}
