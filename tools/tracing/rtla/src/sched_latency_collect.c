// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency, the collection: the tool's life (its instances,
 * its signals), and the loop: the max files, the lost events, the bound
 * of each CPU every second, -T on the bound, and the end of the run.
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

#include "sched_latency_collect.h"
#include "sched_latency_events.h"
#include "sched_latency_instance.h"
#include "sched_latency_workload.h"

/*
 * Signals only raise flags, rtla's stop_tracing among them: the loop
 * notices them within a second and tears the instance down on its normal
 * path, so that no sched_latency_* instance outlives rtla.
 */
static volatile sig_atomic_t sl_child_event;
static struct tracefs_instance *sl_iterating;

/* sl_signal - a stop request (twice: abandon the event iteration) */
static void sl_signal(int sig)
{
	if (sig == SIGCHLD) {
		sl_child_event = 1;
		return;
	}
	if (stop_tracing && sl_iterating)
		tracefs_iterate_stop(sl_iterating);
	stop_tracing = 1;
}

/*
 * sl_set_signals - stop cleanly on SIGINT, SIGTERM, SIGHUP and -d, and
 * hear of the workload's end
 */
static void sl_set_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sl_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the wait of the loop must end on a signal */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * sl_tool_init - allocate the tool, open its instances, listen to them
 *
 * Once the tool exists it is returned in *toolp, also when a later step
 * fails (-1), so that the caller destroys what was made.
 */
int sl_tool_init(struct sched_latency_params *params, struct sl_tool **toolp)
{
	struct sl_tool *tool;
	int cpu;

	tool = calloc_fatal(1, sizeof(*tool));
	*toolp = tool;
	tool->params = params;
	tool->wl.out_fd = -1;
	tool->nr_cpus = nr_cpus;
	tool->cpu = calloc_fatal(tool->nr_cpus, sizeof(*tool->cpu));
	tool->slb = slb_alloc(NULL, tool->nr_cpus);
	if (!tool->slb)
		fatal("rtla sched-latency: out of memory");
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		tool->cpu[cpu].pending_var = -1;
		tool->cpu[cpu].workload_max_us = -1;
	}

	/* before the instance exists, so that it never outlives a signal */
	sl_set_signals();

	if (sl_instance_open(tool))
		return -1;
	sl_register_handlers(tool);
	return 0;
}

/* sl_tool_destroy - the workload, the instances, and the memory */
void sl_tool_destroy(struct sl_tool *tool)
{
	int cpu;

	if (!tool)
		return;
	sl_workload_cleanup(tool);
	sl_instance_close(tool);
	for (cpu = 0; cpu < tool->nr_cpus; cpu++)
		if (tool->cpu[cpu].has_res)
			slb_result_fini(&tool->cpu[cpu].res);
	free(tool->cpu);
	slb_free(tool->slb);
	sl_hist_pic_free(tool->hist_pic);
	free(tool->wl.command);
	free(tool);
}

/*
 * sl_threshold_continue - --on-threshold with continue: run the actions
 * now, and measure on; false when the run is to end on this stop
 */
static bool sl_threshold_continue(struct sl_tool *tool)
{
	struct actions *actions = &tool->params->common.threshold_actions;

	if (!actions->present[ACTION_CONTINUE])
		return false;
	tool->threshold_hits++;
	fflush(stdout);
	actions_perform(actions);
	if (!actions->continue_flag)
		return false;
	tool->stop.hit = false;
	if (tool->has_record)
		trace_instance_start(&tool->record);
	trace_instance_start(&tool->trace);
	return true;
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
	static const enum slb_var engine_var[SL_NR_WINDOWS] = {
		[SL_POID]	= SLB_POID,
		[SL_PSD]	= SLB_PSD,
		[SL_DST]	= SLB_ST,
		[SL_PAIE]	= SLB_PAIE,
	};
	int col[SL_NR_VARS + 2], cpu_col = -1, nr = 0, i, var, cpu;
	char *text, *line, *save, *names[32];
	unsigned long long values[32];

	text = tracefs_instance_file_read(tool->trace.inst, "latency_parser/max", NULL);
	if (!text) {
		err_msg("rtla sched-latency: cannot read %s/latency_parser/max\n", tool->name);
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
		if (values[cpu_col] >= (unsigned long long)tool->nr_cpus)
			continue;
		cpu = values[cpu_col];

		tool->cpu[cpu].seen = true;
		for (var = 0; var < SL_NR_VARS; var++) {
			if (col[var] < 0)
				continue;
			tool->cpu[cpu].max[var] = values[col[var]];
			if (var < SL_NR_WINDOWS)
				slb_set_var(tool->slb, cpu, engine_var[var], values[col[var]]);
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
 */
static void sl_read_lost(struct sl_tool *tool)
{
	unsigned long long lost, total = 0;
	char file[64], *text;
	int cpu;

	for_each_monitored_cpu(cpu, &tool->params->common) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(tool->trace.inst, file, NULL);
		if (!text)
			continue;
		lost = sl_stat(text, "overrun") + sl_stat(text, "commit overrun") +
		       sl_stat(text, "dropped events");
		free(text);
		/* the records' own missed counts may have seen some already */
		if (lost > tool->cpu[cpu].lost)
			tool->cpu[cpu].lost = lost;
		total += tool->cpu[cpu].lost;
	}
	tool->lost_events = total;
}

/* sl_drain - feed every event in the buffer to the handlers */
static int sl_drain(struct sl_tool *tool)
{
	int retval;

	sl_iterating = tool->trace.inst;
	retval = tracefs_iterate_raw_events(tool->trace.tep, tool->trace.inst, NULL, 0,
					    collect_registered_events, &tool->trace);
	sl_iterating = NULL;
	if (retval < 0) {
		err_msg("rtla sched-latency: cannot read the events of %s\n", tool->name);
		return -1;
	}
	return 0;
}

/* sl_bound_worse - whether bound a is worse than b: unbounded, or longer */
static bool sl_bound_worse(const struct slb_bound *a, const struct slb_bound *b)
{
	if (a->unbounded != b->unbounded)
		return a->unbounded;
	return a->latency > b->latency;
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
			err_msg("rtla sched-latency: cannot compute the bound of cpu %d\n", cpu);
			return -1;
		}
		c->has_res = true;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			if (!tool->system[m] ||
			    sl_bound_worse(&c->res.bound[m], tool->system[m]))
				tool->system[m] = &c->res.bound[m];
		}
	}
	return 0;
}

/* sl_dominant_stack - the stack of the window that dominates a bound */
static bool sl_dominant_stack(struct sl_tool *tool, const struct slb_bound *b,
			      struct sl_stack *stack)
{
	static const int var_of[SLB_NR_VARS] = {
		[SLB_POID]	= SL_POID,
		[SLB_PSD]	= SL_PSD,
		[SLB_ST]	= SL_DST,
		[SLB_PAIE]	= SL_PAIE,
	};
	const struct sl_stack *s;

	if (b->dominant.is_source || b->dominant.id < 0 || b->dominant.id >= SLB_NR_VARS)
		return false;
	s = &tool->cpu[b->cpu].stack[var_of[b->dominant.id]];
	if (!s->nr)
		return false;
	*stack = *s;
	return true;
}

/* sl_check_bound - --stop-on bound: compare each CPU's bound to -T */
static void sl_check_bound(struct sl_tool *tool)
{
	unsigned long long threshold = tool->params->common.stop_us * 1000ULL;
	struct sl_stop *stop = &tool->stop;
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
		stop->has_stack = sl_dominant_stack(tool, b, &stop->stack);
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
	struct sl_stop *stop = &tool->stop;
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
double sl_elapsed(struct sl_tool *tool)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - tool->start_ts.tv_sec) +
	       (now.tv_nsec - tool->start_ts.tv_nsec) / 1e9;
}

/*
 * sl_wait - wait until one more second of measurement has passed
 *
 * Meanwhile the workload's output is moved out of its pipe, so that a
 * chatty workload never blocks on a full pipe. Any signal ends the wait.
 */
static void sl_wait(struct sl_tool *tool, double until)
{
	double left;

	while (!stop_tracing && !sl_child_event) {
		left = until - sl_elapsed(tool);
		if (left <= 0)
			return;
		if (tool->wl.out_fd >= 0)
			sl_workload_drain(tool, (int)(left * 1000) + 1);
		else
			poll(NULL, 0, (int)(left * 1000) + 1);
	}
}

/*
 * sl_run - measure until -d, a signal, the threshold or the workload's end
 *
 * periodic (top's display) is called once a second with fresh data. On
 * return the instances are stopped, every event is consumed and the bound
 * of each CPU is computed. Returns 0, or -1 on an error.
 */
int sl_run(struct sl_tool *tool, void (*periodic)(struct sl_tool *tool))
{
	struct sched_latency_params *params = tool->params;
	bool compute = periodic || params->stop_on == SL_STOP_BOUND;
	bool kernel_stop = false;
	int retval = -1;
	double tick = 0;

	if (stop_tracing)
		return -1;

	/*
	 * --warm-up: the workload runs, untraced, before the measurement; the
	 * tracer is selected meanwhile, so its parsers are in step when
	 * tracing starts.
	 */
	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	if (params->common.warmup) {
		if (params->workload && sl_workload_start(tool))
			goto out_stop;
		debug_msg("warming up for %d s\n", params->common.warmup);
		sl_wait(tool, params->common.warmup);
		if (stop_tracing || (sl_child_event && sl_workload_reap(tool))) {
			err_msg("rtla sched-latency: %s during the warm-up\n",
				stop_tracing ? "stopped" : "the workload ended");
			tool->wl.ended = !stop_tracing;
			goto out_stop;
		}
	}

	/* the record instance first: it must not miss what stops the other */
	if (tool->has_record)
		trace_instance_start(&tool->record);
	trace_instance_start(&tool->trace);
	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	tool->start_time = time(NULL);

	if (!params->common.warmup && params->workload && sl_workload_start(tool))
		goto out_stop;
	if (params->common.duration)
		alarm(params->common.duration);

	while (!stop_tracing) {
		tick += 1;
		sl_wait(tool, tick);

		if (sl_drain(tool) || sl_update(tool, compute))
			goto out_stop;
		if (params->stop_on == SL_STOP_BOUND)
			sl_check_bound(tool);
		if (periodic && !params->common.quiet)
			periodic(tool);

		if (tool->stop.hit) {
			if (sl_threshold_continue(tool))
				continue;
			break;
		}
		/* the kernel stopped an instance on the threshold */
		if (!tracefs_trace_is_on(tool->trace.inst) ||
		    (tool->has_record && !tracefs_trace_is_on(tool->record.inst))) {
			if (sl_threshold_continue(tool))
				continue;
			kernel_stop = true;
			break;
		}
		if (sl_child_event) {
			sl_child_event = 0;
			if (sl_workload_reap(tool)) {
				debug_msg("the workload ended\n");
				tool->wl.ended = true;
				break;
			}
		}
	}
	retval = 0;

out_stop:
	alarm(0);
	tool->duration_s = sl_elapsed(tool);
	sl_stop_tracing(tool);
	sl_workload_stop(tool);

	/* what came in since the last second, stop events included */
	if (!retval && (sl_drain(tool) || sl_update(tool, true)))
		retval = -1;
	if (!retval && kernel_stop && !tool->stop.hit)
		sl_stop_from_max(tool);
	return retval;
}
