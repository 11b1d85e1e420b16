// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency, the collection: the tool's state, and what rtla's
 * main loops call every second besides reading the events: the max files,
 * the lost events, the bound of each CPU, -T on the bound; then the start
 * and the end of the measurement.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_collect.h"
#include "sched_latency_events.h"
#include "sched_latency_instance.h"
#include "sched_latency_workload.h"

/*
 * sl_tool_alloc - the state of a run on the measuring instance @trace
 */
struct sl_tool *sl_tool_alloc(struct sched_latency_params *params,
			      struct trace_instance *trace)
{
	struct sl_tool *tool;

	tool = calloc_fatal(1, sizeof(*tool));
	tool->params = params;
	tool->trace = trace;
	tool->cpu = calloc_fatal(nr_cpus, sizeof(*tool->cpu));
	tool->slb = slb_alloc(NULL, nr_cpus);
	if (!tool->slb || sl_events_init(tool))
		sl_fatal("out of memory");
	return tool;
}

/* sl_tool_free - the workload, the unwritten outputs, and the memory */
void sl_tool_free(struct sl_tool *tool)
{
	int cpu;

	if (!tool)
		return;
	sl_workload_free(tool);
	/* an output file made for a run that never finished is removed */
	sl_close_output(&tool->params->json, false);
	sl_close_output(&tool->params->svg, false);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (tool->cpu[cpu].has_res)
			slb_result_fini(&tool->cpu[cpu].res);
	free(tool->cpu);
	slb_free(tool->slb);
	sl_events_free(tool);
	free(tool);
}

/*
 * sl_system_totals - the system as a whole: the worst of each value and
 * the total of each count, over the monitored CPUs that the tracer listed
 * or, with @computed, over those with a computed bound
 */
void sl_system_totals(struct sl_tool *tool, bool computed, struct sl_totals *t)
{
	struct sl_cpu *c;
	int cpu, var;

	memset(t, 0, sizeof(*t));
	for_each_monitored_cpu(cpu, &tool->params->common) {
		c = &tool->cpu[cpu];
		if (!(computed ? c->has_res : c->seen))
			continue;
		t->windows += c->windows;
		for (var = 0; var < SL_NR_VARS; var++)
			if (c->max[var] > t->max[var])
				t->max[var] = c->max[var];
		if (c->has_res && c->res.bound[SLB_NO_INTERRUPTS].l_if > t->l_if)
			t->l_if = c->res.bound[SLB_NO_INTERRUPTS].l_if;
		t->irq_count += c->irq_count;
		t->nmi_count += c->nmi_count;
		if (c->irq_max > t->irq_max)
			t->irq_max = c->irq_max;
		if (c->nmi_max > t->nmi_max)
			t->nmi_max = c->nmi_max;
	}
	/* An execution may be in the max file but not yet in the stream. */
	if (t->max[SL_IRQ] > t->irq_max)
		t->irq_max = t->max[SL_IRQ];
	if (t->max[SL_NMI] > t->nmi_max)
		t->nmi_max = t->max[SL_NMI];
}

/*
 * Collection.
 */

/* sl_column - the index of a named column in a "# a b c" header line */
static int sl_column(char **names, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/*
 * sl_read_max - the per-CPU maxima, windows and dropped windows
 *
 * The columns are found by their names in the header, so that a tracer
 * with more columns still reads right.
 */
static int sl_read_max(struct sl_tool *tool)
{
	int col[SL_NR_VARS + 2], cpu_col = -1, nr = 0, i, var, cpu;
	char *text, *line, *save, *names[32];
	unsigned long long values[32];

	text = tracefs_instance_file_read(tool->trace->inst, "latency_parser/max", NULL);
	if (!text) {
		sl_err("cannot read %s/latency_parser/max\n", tool->name);
		return -1;
	}

	tool->dropped_windows = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *tok, *tsave;

		if (line[0] == '#') {
			nr = 0;
			for (tok = strtok_r(line + 1, " \t", &tsave); tok && nr < 32;
			     tok = strtok_r(NULL, " \t", &tsave))
				names[nr++] = tok;
			for (var = 0; var < SL_NR_VARS; var++)
				col[var] = sl_column(names, nr, sl_var_name(var));
			cpu_col = sl_column(names, nr, "cpu");
			col[SL_NR_VARS] = sl_column(names, nr, "windows");
			col[SL_NR_VARS + 1] = sl_column(names, nr, "dropped");
			continue;
		}
		if (cpu_col < 0)
			continue;

		for (i = 0; i < nr; i++) {
			char *end;

			values[i] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (i < nr)
			continue;
		if (values[cpu_col] >= (unsigned long long)nr_cpus)
			continue;
		cpu = values[cpu_col];

		tool->cpu[cpu].seen = true;
		for (var = 0; var < SL_NR_VARS; var++) {
			if (col[var] < 0)
				continue;
			tool->cpu[cpu].max[var] = values[col[var]];
			/* the windows are the engine's thread variables */
			if (var < SL_NR_WINDOWS)
				slb_set_var(tool->slb, cpu, var, values[col[var]]);
		}
		if (col[SL_NR_VARS] >= 0)
			tool->cpu[cpu].windows = values[col[SL_NR_VARS]];
		if (col[SL_NR_VARS + 1] >= 0)
			tool->cpu[cpu].dropped = values[col[SL_NR_VARS + 1]];
		tool->dropped_windows += tool->cpu[cpu].dropped;
	}
	free(text);
	return 0;
}

/* sl_stat - one "name: value" line of a per_cpu stats file */
static unsigned long long sl_stat(const char *text, const char *name)
{
	const char *p = text;
	size_t len = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, len) && p[len] == ':')
			return strtoull(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/*
 * sl_read_lost - the events the measuring instance's ring buffer lost
 *
 * An overrun (overwrite mode) and a drop (when the buffer is full and does
 * not overwrite) both took an interrupt execution away from the engine.
 * Each CPU's are in its stats; rtla counts those the records tell of
 * (trace_instance_init()), which bounds the total from below.
 */
static void sl_read_lost(struct sl_tool *tool)
{
	unsigned long long missed = tool->trace->missed_events;
	unsigned long long lost, total = 0;
	char file[64], *text;
	int cpu;

	for_each_monitored_cpu(cpu, &tool->params->common) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(tool->trace->inst, file, NULL);
		if (!text)
			continue;
		lost = sl_stat(text, "overrun") + sl_stat(text, "commit overrun") +
		       sl_stat(text, "dropped events");
		free(text);
		if (lost > tool->cpu[cpu].lost)
			tool->cpu[cpu].lost = lost;
		total += tool->cpu[cpu].lost;
	}

	/* UINT64_MAX: events were lost, how many is unknown */
	if (missed == UINT64_MAX)
		missed = 1;
	tool->lost_events = total > missed ? total : missed;
}

/* sl_drain - feed the events left in the buffer to the handlers, at the end */
static int sl_drain(struct sl_tool *tool)
{
	int retval;

	retval = tracefs_iterate_raw_events(tool->trace->tep, tool->trace->inst, NULL, 0,
					    collect_registered_events, tool->trace);
	if (retval < 0) {
		sl_err("cannot read the events of %s\n", tool->name);
		return -1;
	}
	return 0;
}

/*
 * sl_compute - the bound of every measured CPU, and of the system
 *
 * The system's bound under each characterization is the worst CPU's, with
 * that CPU's breakdown; CPUs outside -c never count.
 */
static int sl_compute(struct sl_tool *tool)
{
	struct sl_cpu *c;
	int cpu, m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		tool->system[m] = NULL;

	for_each_monitored_cpu(cpu, &tool->params->common) {
		c = &tool->cpu[cpu];
		if (c->has_res)
			slb_result_fini(&c->res);
		c->has_res = false;
		if (slb_compute_cpu(tool->slb, cpu, &c->res)) {
			sl_err("cannot compute the bound of cpu %d\n", cpu);
			return -1;
		}
		c->has_res = true;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			if (!tool->system[m] ||
			    slb_bound_worse(&c->res.bound[m], tool->system[m]))
				tool->system[m] = &c->res.bound[m];
		}
	}
	return 0;
}

/* sl_check_bound - --stop-on bound: compare each CPU's bound to -T */
static void sl_check_bound(struct sl_tool *tool)
{
	unsigned long long threshold = tool->params->common.stop_us * 1000ULL;
	struct sl_stop *stop = &tool->events->stop;
	const struct slb_bound *b;
	int cpu;

	if (stop->hit)
		return;
	for_each_monitored_cpu(cpu, &tool->params->common) {
		if (!tool->cpu[cpu].has_res)
			continue;
		b = &tool->cpu[cpu].res.bound[tool->params->model];
		if (!b->unbounded && b->latency <= threshold)
			continue;
		stop->hit = true;
		stop->cpu = cpu;
		stop->var = SL_STOP_BOUND;
		stop->value = b->unbounded ? ULLONG_MAX : b->latency;
		/* the stack of the window that dominates the bound, if one does */
		stop->has_stack = !b->dominant.is_source &&
				  sl_window_stack(tool, cpu, b->dominant.id, &stop->stack);
		sl_stop_tracing(tool);
		return;
	}
}

/*
 * sl_stop_from_max - the kernel stopped but its stop event was lost:
 * name the largest variable above the threshold from the max file
 */
static void sl_stop_from_max(struct sl_tool *tool)
{
	unsigned long long threshold = tool->params->common.stop_us * 1000ULL;
	struct sl_stop *stop = &tool->events->stop;
	int cpu, var;

	stop->hit = true;
	stop->cpu = -1;
	stop->var = SL_STOP_ANY;
	for_each_monitored_cpu(cpu, &tool->params->common) {
		for (var = 0; var < SL_NR_VARS; var++) {
			unsigned long long v = tool->cpu[cpu].max[var];

			if (v > threshold && (stop->cpu < 0 || v > stop->value)) {
				stop->cpu = cpu;
				stop->var = var;
				stop->value = v;
			}
		}
	}
}

/* sl_update - what is read once a second: maxima, losses, the bound */
static int sl_update(struct sl_tool *tool, bool compute)
{
	if (sl_read_max(tool))
		return -1;
	sl_read_lost(tool);
	if (compute && sl_compute(tool))
		return -1;
	return 0;
}

/* sl_elapsed - seconds since the start of the measurement */
static double sl_elapsed(struct sl_tool *tool)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - tool->start_ts.tv_sec) +
	       (now.tv_nsec - tool->start_ts.tv_nsec) / 1e9;
}

/*
 * sl_warm_up - --warm-up: wait while the workload runs untraced; false
 * when a stop request or the workload's end came first
 */
static bool sl_warm_up(struct sl_tool *tool)
{
	int warmup = tool->params->common.warmup;
	double left;

	debug_msg("warming up for %d s\n", warmup);
	while (!stop_tracing && !sl_workload_ended(tool)) {
		left = warmup - sl_elapsed(tool);
		if (left <= 0)
			return true;
		/* any signal, the workload's end among them, ends the wait */
		poll(NULL, 0, (int)(left * 1000) + 1);
	}
	return false;
}

/*
 * sl_start - start the measurement: the workload and the instances
 *
 * With --warm-up the workload runs, untraced, before the measurement; the
 * tracer is selected meanwhile, so its parsers are in step when tracing
 * starts. Returns 0, or -1 on an error.
 */
int sl_start(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;

	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	if (params->common.warmup) {
		if (params->workload && sl_workload_start(tool))
			return -1;
		if (!sl_warm_up(tool)) {
			sl_err("%s during the warm-up\n",
			       stop_tracing ? "stopped" : "the workload ended");
			return -1;
		}
	}

	/* the record instance first: it must not miss what stops the other */
	if (tool->record)
		trace_instance_start(tool->record);
	trace_instance_start(tool->trace);
	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	tool->start_time = time(NULL);

	if (!params->common.warmup && params->workload && sl_workload_start(tool))
		return -1;
	return 0;
}

/* sl_trace_is_off - whether an instance is stopped (by the tracer, or -T) */
static bool sl_trace_is_off(struct sl_tool *tool)
{
	return !tracefs_trace_is_on(tool->trace->inst) ||
	       (tool->record && !tracefs_trace_is_on(tool->record->inst));
}

/*
 * sl_collect - what rtla's main loops call every second, after the
 * events: the maxima, the losses and, for top or --stop-on bound, the
 * bound of each CPU; -T on the bound stops the instances, as the tracer
 * does on a variable, and rtla's loop takes either stop the same way.
 */
int sl_collect(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	bool compute = !strcmp(params->mode, "top") || params->stop_on == SL_STOP_BOUND;
	struct sl_stop *stop = &tool->events->stop;

	if (sl_update(tool, compute))
		return -1;
	if (params->stop_on == SL_STOP_BOUND)
		sl_check_bound(tool);
	if (stop_tracing || !(stop->hit || sl_trace_is_off(tool)))
		return 0;

	/*
	 * A stop on the threshold: rtla's loop performs --on-threshold, and
	 * with continue restarts the instances and measures on.
	 */
	tool->threshold_hits++;
	if (params->common.threshold_actions.present[ACTION_CONTINUE])
		stop->hit = false;
	return 0;
}

/*
 * sl_end - the end of the measurement, whatever ended rtla's loop (-d, a
 * signal, the threshold, the workload's end or an error @retval): the
 * instances are stopped, the workload too, every event is consumed and
 * the bound of each CPU is computed. Returns 0, or -1 on an error.
 */
int sl_end(struct sl_tool *tool, int retval)
{
	bool kernel_stop = !stop_tracing && sl_trace_is_off(tool);

	/* from here on, stopping the instances is no stop on the threshold */
	stop_tracing = 1;
	tool->duration_s = sl_elapsed(tool);
	sl_stop_tracing(tool);
	sl_workload_stop(tool);
	if (retval)
		return -1;

	/* what came in since the last second, stop events included */
	if (sl_drain(tool) || sl_update(tool, true))
		return -1;
	if (kernel_stop && !tool->events->stop.hit)
		sl_stop_from_max(tool);
	tool->ended = true;
	return 0;
}
