// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency, instance control: the system checks, the trace
 * instances and their latency_parser tracer, rtla's house-keeping, and
 * the teardown that leaves no instance behind.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched_latency_instance.h"

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
			sl_fatal("cannot write the %s report to standard output: %s",
				 opt, strerror(errno));
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
		sl_fatal("cannot write the %s file %s: %s", opt, out->path, strerror(errno));
	/* an existing file: never write to a directory or a fifo by mistake */
	if (!isatty(out->fd)) {
		struct stat st;

		if (fstat(out->fd, &st) || !S_ISREG(st.st_mode))
			sl_fatal("cannot write the %s file %s: not a regular file", opt, out->path);
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

/* sl_report_open - an output file opened at start, emptied for writing */
FILE *sl_report_open(struct sl_output *out)
{
	int fd;

	if (ftruncate(out->fd, 0) && errno != EINVAL)
		return NULL;
	lseek(out->fd, 0, SEEK_SET);
	fd = dup(out->fd);
	if (fd < 0)
		return NULL;
	return fdopen(fd, "w");
}

/* sl_report_close - flush and close a report, telling whether all was written */
int sl_report_close(FILE *fp, struct sl_output *out)
{
	if (ferror(fp) | fclose(fp)) {
		sl_err("cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * sl_check_system - root, the output files, tracefs, the tracer; returns
 * false when all is there but the tracer (SL_EXIT_NO_TRACER, whose report
 * the caller writes)
 */
bool sl_check_system(struct sched_latency_params *params)
{
	struct stat st;

	sl_open_output(&params->json, "--json");
	sl_open_output(&params->svg, "--svg");

	/*
	 * libtracefs would mount tracefs itself: say so instead of changing
	 * the system's mounts behind the user's back. Reading a file under
	 * debugfs's tracing/ first triggers its automount.
	 */
	stat("/sys/kernel/debug/tracing/trace", &st);
	if (tracefs_tracing_dir_is_mounted(false, NULL) != 1)
		sl_fatal("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	return tracefs_tracer_available(NULL, SL_TRACER);
}

/*
 * The instances, which rtla's run_tool() creates with the tracer: one
 * measures and is consumed event by event; with -t a second one (rtla's
 * record instance) runs the same tracer with stacks and is never read, so
 * that on a stop its trace file still holds the window and its stack.
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
		sl_err("out of memory\n");
		return -1;
	}

	ret = 0;
	debug_msg("%s/%s <- %s\n", tracefs_instance_get_name(inst), file, value);
	if (tracefs_instance_file_write(inst, file, value) < 0) {
		sl_err("cannot write %s to %s/%s: %s\n", value,
		       tracefs_instance_get_name(inst), file, strerror(errno));
		ret = -1;
	}
	free(value);
	return ret;
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
			sl_err("cannot enable the event latency_parser:%s\n",
			       events[i]);
			return -1;
		}
	}
	return 0;
}

/* sl_setup_instance - configure the tracer of an instance */
static int sl_setup_instance(struct sl_tool *tool, struct trace_instance *trace,
			     bool record)
{
	struct sched_latency_params *params = tool->params;
	struct tracefs_instance *inst = trace->inst;

	if (params->common.cpus && sl_write(inst, "latency_parser/cpus", "%s", params->common.cpus))
		return -1;
	/*
	 * The tracer's execution events come from every CPU; the others'
	 * would only fill the buffer. (libtracefs returns what it wrote.)
	 */
	if (params->common.cpus &&
	    tracefs_instance_set_affinity(inst, params->common.cpus) < 0) {
		sl_err("cannot set the tracing_cpumask of %s to %s\n",
		       tracefs_instance_get_name(inst), params->common.cpus);
		return -1;
	}

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
		    sl_write(inst, "latency_parser/hist_bucket_ns", "%lld", 1000LL *
			     params->common.hist.bucket_size) ||
		    sl_write(inst, "latency_parser/hist_buckets", "%d",
			     params->common.hist.entries))
			return -1;
	}

	if (params->common.stop_us && params->stop_on == SL_STOP_ANY &&
	    sl_write(inst, "latency_parser/stop_tracing_us", "%lld", params->common.stop_us))
		return -1;

	/* rtla's own stops need the stack of every new maximum */
	if (record || params->stop_on != SL_STOP_ANY) {
		if (tracefs_option_enable(inst, TRACEFS_OPTION_STACKTRACE)) {
			sl_err("cannot enable stack traces\n");
			return -1;
		}
	}

	/* run_tool() sized the record instance, and gave it the -e events */
	if (!record && params->common.buffer_size > 0 &&
	    trace_set_buffer_size(trace, params->common.buffer_size))
		return -1;
	return 0;
}

/*
 * sl_house_keeping - keep rtla's own work (the tracefs reads, the bound)
 * off the measured CPUs, where the tracer would measure it: on -H's CPUs,
 * or with -c on the others it may run on, as the other rtla tools do. The
 * workload gets rtla's affinity of before (sl_restore_affinity()).
 */
int sl_house_keeping(struct sched_latency_params *params)
{
	params->has_orig_cpus = !sched_getaffinity(0, sizeof(params->orig_cpus),
						   &params->orig_cpus);
	return common_set_house_keeping(&params->common);
}

/* sl_restore_affinity - in the workload: rtla's affinity before it moved */
void sl_restore_affinity(struct sched_latency_params *params)
{
	if (params->has_orig_cpus)
		sched_setaffinity(0, sizeof(params->orig_cpus), &params->orig_cpus);
}

/* sl_read_clock - the trace clock the measuring instance runs on: "[x]" */
static void sl_read_clock(struct sl_tool *tool)
{
	char *text, *open, *close;

	tool->trace_clock[0] = '\0';
	text = tracefs_instance_file_read(tool->trace->inst, "trace_clock", NULL);
	if (!text)
		return;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close && close - open - 1 < (long)sizeof(tool->trace_clock)) {
		*close = '\0';
		strcpy(tool->trace_clock, open + 1);
	}
	free(text);
}

static int sl_cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * sl_read_tracer_files - the files of the tracer's latency_parser/
 * directory, sorted and comma separated: the kernel has no version file
 * for the tracer, its file set is what tells one interface from another
 */
static void sl_read_tracer_files(struct sl_tool *tool)
{
	char *names[64], *dir;
	struct dirent *d;
	size_t len = 0;
	int i, n = 0;
	DIR *dp;

	tool->tracer_files[0] = '\0';
	dir = tracefs_instance_get_file(tool->trace->inst, "latency_parser");
	dp = dir ? opendir(dir) : NULL;
	tracefs_put_tracing_file(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)) && n < (int)ARRAY_SIZE(names)) {
		if (d->d_name[0] == '.')
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dp);
	qsort(names, n, sizeof(names[0]), sl_cmp_names);
	for (i = 0; i < n; i++) {
		len += snprintf(tool->tracer_files + len, sizeof(tool->tracer_files) - len,
				"%s%s", i ? "," : "", names[i]);
		if (len >= sizeof(tool->tracer_files))
			len = sizeof(tool->tracer_files) - 1;
		free(names[i]);
	}
}

/*
 * sl_setup_instances - configure the measuring instance and, with -t, the
 * record one, and read back the histogram geometry the kernel took
 */
int sl_setup_instances(struct sl_tool *tool)
{
	long long value;

	if (sl_setup_instance(tool, tool->trace, false))
		return -1;
	if (tool->record && sl_setup_instance(tool, tool->record, true))
		return -1;

	sl_read_clock(tool);
	sl_read_tracer_files(tool);

	/* for the histogram's index */
	if (tracefs_instance_file_read_number(tool->trace->inst,
					      "latency_parser/hist_bucket_ns", &value) == 0)
		tool->bucket_ns = value;
	if (tracefs_instance_file_read_number(tool->trace->inst,
					      "latency_parser/hist_buckets", &value) == 0)
		tool->nr_buckets = value;
	return 0;
}
