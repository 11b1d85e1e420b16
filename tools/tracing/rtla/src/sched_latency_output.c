// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the results, for a reader.
 *
 * The text breakdown names, for each CPU and for the system, the bound
 * under every characterization of the interrupts and the term of the
 * equation that dominates it: a thread variable points at the code to
 * look at (the stack of its window), a source at an interrupt.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sched_latency_output.h"
#include "sched_latency_events.h"
#include "sched_latency_workload.h"

/* an offset past this from the closest symbol below is no symbol's */
#define SL_MAX_FUNC_SIZE	0x100000ULL

/*
 * sl_symbolize - name addresses as symbol+0xoffset [module], from the
 * kallsyms of now: the culprit is often a module loaded after rtla started
 * (and read the symbols of the kernel), as the oracle preemptirq_delay_test
 * is. One pass over /proc/kallsyms for all the addresses.
 */
static void sl_symbolize(struct sl_tool *tool, const unsigned long long *ip, int nr,
			 char (*name)[SL_SYM_LEN])
{
	unsigned long long best[SL_STACK_MAX + 1] = { 0 }, addr;
	char line[512], sym[128], mod[64], type;
	FILE *fp;
	int i;

	for (i = 0; i < nr; i++)
		snprintf(name[i], SL_SYM_LEN, "0x%llx", ip[i]);

	fp = fopen("/proc/kallsyms", "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		mod[0] = '\0';
		if (sscanf(line, "%llx %c %127s %63s", &addr, &type, sym, mod) < 3)
			continue;
		if (!addr || (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < nr; i++) {
			/* no function is that long: ip is in none that is listed */
			if (addr > ip[i] || addr <= best[i] || ip[i] - addr > SL_MAX_FUNC_SIZE)
				continue;
			best[i] = addr;
			snprintf(name[i], SL_SYM_LEN, "%s+0x%llx%s%s", sym, ip[i] - addr,
				 mod[0] ? " " : "", mod);
		}
	}
	if (fp) {
		fclose(fp);
		return;
	}

	/* no kallsyms to read: what libtraceevent knew at the start */
	for (i = 0; i < nr; i++) {
		const char *func = tep_find_function(tool->trace->tep, ip[i]);

		if (func)
			snprintf(name[i], SL_SYM_LEN, "%s+0x%llx", func, ip[i] -
				 tep_find_function_address(tool->trace->tep, ip[i]));
	}
}

/* sl_symbolize_stop - the names of where the stop's window started, and of its stack */
void sl_symbolize_stop(struct sl_tool *tool)
{
	unsigned long long ip[SL_STACK_MAX + 1];
	char name[SL_STACK_MAX + 1][SL_SYM_LEN];
	struct sl_stop *stop = &tool->events->stop;
	int i, nr = stop->has_stack ? stop->stack.nr : 0;

	ip[0] = stop->ip;
	for (i = 0; i < nr; i++)
		ip[i + 1] = stop->stack.ip[i];
	sl_symbolize(tool, ip, nr + 1, name);
	memcpy(stop->where, name[0], SL_SYM_LEN);
	for (i = 0; i < nr; i++)
		memcpy(stop->frame[i], name[i + 1], SL_SYM_LEN);
}

/* sl_print_stop - which CPU, which variable, how much, and the stack */
void sl_print_stop(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	struct sl_stop *stop = &tool->events->stop;
	const struct slb_bound *b;
	char name[64];
	int i;

	printf("rtla sched-latency hit stop tracing\n");
	if (stop->cpu < 0) {
		printf("  the kernel stopped on the %lld us threshold,", params->common.stop_us);
		printf(" but its stop event was lost\n");
		return;
	}

	if (stop->var == SL_STOP_BOUND) {
		b = &tool->cpu[stop->cpu].res.bound[params->model];
		if (stop->value == ULLONG_MAX)
			printf("  CPU %d: the %s bound is unbounded (%s), threshold %lld us\n",
			       stop->cpu, slb_model_name(params->model), slb_why_name(b->why),
			       params->common.stop_us);
		else
			printf("  CPU %d: the %s bound is %.*f %s, above the %lld us threshold\n",
			       stop->cpu, slb_model_name(params->model), sl_prec(params),
			       sl_time(params, stop->value), sl_unit(params),
			       params->common.stop_us);
		sl_term_name(&b->dominant, name, sizeof(name));
		printf("  dominated by %s (%.*f %s)\n", name, sl_prec(params),
		       sl_time(params, b->dominant.ns), sl_unit(params));
	} else {
		printf("  CPU %d: %s %s of %.*f %s, above the %lld us threshold\n",
		       stop->cpu, sl_var_label(stop->var),
		       stop->var < SL_NR_WINDOWS ? "window" : "execution",
		       sl_prec(params), sl_time(params, stop->value), sl_unit(params),
		       params->common.stop_us);
		if (stop->ip)
			printf("  started at %s (%llu.%09llu s)\n", stop->where,
			       stop->start / 1000000000ULL, stop->start % 1000000000ULL);
	}

	if (stop->has_stack) {
		printf("  stack trace of the window:\n");
		for (i = 0; i < stop->stack.nr; i++)
			printf("        %s\n", stop->frame[i]);
	}
}

/* sl_print_bound_row - one characterization: bound, terms, dominant term */
static void sl_print_bound_row(const struct sched_latency_params *params,
			       const struct slb_bound *b, bool with_cpu)
{
	int prec = sl_prec(params);
	char name[64];

	printf("  %-22s", slb_model_name(b->model));
	if (with_cpu)
		printf(" %4d", b->cpu);
	sl_term_name(&b->dominant, name, sizeof(name));

	/*
	 * Without a fixed point the interference is only known at the cap,
	 * a number that means nothing to the reader: name the culprit only.
	 */
	if (b->unbounded) {
		printf(" %12s %12.*f %12s %12s  %s [%s]\n", "unbounded",
		       prec, sl_time(params, b->l_if), "-", "-", name, slb_why_name(b->why));
		return;
	}
	printf(" %12.*f %12.*f %12.*f %12.*f  %s (%.*f)\n",
	       prec, sl_time(params, b->latency), prec, sl_time(params, b->l_if),
	       prec, sl_time(params, b->irq), prec, sl_time(params, b->nmi),
	       name, prec, sl_time(params, b->dominant.ns));
}

/* sl_print_bound_header - the column names of the characterization rows */
static void sl_print_bound_header(bool with_cpu)
{
	printf("  %-22s", "characterization");
	if (with_cpu)
		printf(" %4s", "cpu");
	printf(" %12s %12s %12s %12s  %s\n", "bound", "L_IF", "I_IRQ", "I_NMI",
	       "dominated by");
}

/* sl_share - what @source adds to bound @b, in ns; -1 when unbounded */
long long sl_share(const struct slb_bound *b, int source)
{
	unsigned int i;

	if (b->unbounded)
		return -1;
	for (i = 0; i < b->nr_shares; i++)
		if (b->shares[i].source == source)
			return (long long)b->shares[i].ns;
	return 0;
}

/*
 * sl_print_unbounded - why a characterization has no bound, in a line: for
 * the sporadic model, the load its sources put on the CPU (each one's worst
 * execution over its shortest inter-arrival), the heaviest named
 */
static void sl_print_unbounded(struct sl_tool *tool, const struct slb_result *res,
			       const struct slb_bound *b)
{
	double load = 0, worst = 0, l;
	struct slb_config cfg;
	char name[64] = "-";
	unsigned int i;

	if (!b->unbounded)
		return;
	printf("  %s is unbounded: ", slb_model_name(b->model));
	switch (b->why) {
	case SLB_OVERLOAD:
		for (i = 0; i < res->nr_sources; i++) {
			const struct slb_source_stats *s = &res->sources[i];

			if (!s->min_gap)
				continue;
			l = (double)s->owcet / (double)s->min_gap;
			load += l;
			if (l > worst) {
				worst = l;
				sl_source_name(s->source, name, sizeof(name));
			}
		}
		printf("its interrupts would take %.0f%% of the cpu, %s alone %.0f%%",
		       load * 100, name, worst * 100);
		printf(" (worst execution over shortest inter-arrival)\n");
		break;
	case SLB_OVER_CAP:
		slb_get_config(tool->slb, &cfg);
		printf("the interference grows with the window past %.0f ms:",
		       (double)cfg.cap_ns / 1e6);
		printf(" no fixed point below it\n");
		break;
	default:
		printf("no fixed point after %d steps\n", SLB_MAX_ITERATIONS);
		break;
	}
}

/*
 * sl_print_sources - the interrupt sources of a CPU: how often each ran,
 * its worst execution, its shortest inter-arrival, and what it adds to the
 * bound of the model shown: the "why" of I_IRQ and I_NMI
 */
static void sl_print_sources(const struct sched_latency_params *params,
			     const struct slb_result *res, const struct slb_bound *b)
{
	int prec = sl_prec(params);
	char name[64], share[32];
	unsigned int i;
	long long ns;

	if (!res->nr_sources)
		return;
	printf("  Interrupt sources (%s; share: what each adds to the %s bound)\n",
	       sl_unit(params), slb_model_name(b->model));
	printf("  %-24s %10s %12s %12s %12s\n", "source", "count", "worst",
	       "min gap", "share");
	for (i = 0; i < res->nr_sources; i++) {
		const struct slb_source_stats *src = &res->sources[i];

		sl_source_name(src->source, name, sizeof(name));
		ns = sl_share(b, src->source);
		if (ns < 0)
			snprintf(share, sizeof(share), "-");
		else
			snprintf(share, sizeof(share), "%.*f", prec, sl_time(params, ns));
		printf("  %-24s %10llu %12.*f ", name, (unsigned long long)src->count,
		       prec, sl_time(params, src->owcet));
		/* a gap rounded down: never shown longer than seen */
		if (src->min_gap)
			printf("%12.*f", prec, sl_in_ns(params) ? (double)src->min_gap :
			       (double)(src->min_gap / 10) / 100.0);
		else
			printf("%12s", "-");
		printf(" %12s\n", share);
	}
}

/*
 * sl_print_workload_max - cyclictest's own maximum on @cpu beside the
 * bound: a measured latency above the bound is said out loud
 */
static void sl_print_workload_max(struct sl_tool *tool, int cpu)
{
	struct sched_latency_params *params = tool->params;
	long long max_us = sl_workload_max_us(tool, cpu);
	const struct slb_bound *b;

	if (max_us < 0)
		return;
	b = &tool->cpu[cpu].res.bound[params->model];
	printf("  workload max latency: %lld us", max_us);
	if (b->unbounded)
		printf(" (%s: unbounded)\n", slb_model_name(b->model));
	else
		printf(" (%s bound: %.*f %s%s)\n", slb_model_name(b->model),
		       sl_prec(params), sl_time(params, b->latency), sl_unit(params),
		       max_us * 1000LL > (long long)b->latency ?
		       ", BELOW the measured latency" : "");
}

/* sl_print_cpu_breakdown - the variables and the six bounds of one CPU */
static void sl_print_cpu_breakdown(struct sl_tool *tool, int cpu)
{
	struct sched_latency_params *params = tool->params;
	struct sl_cpu *c = &tool->cpu[cpu];
	int prec = sl_prec(params);
	int m;

	printf("CPU %d\n", cpu);
	printf("  D_POID %.*f  D_PSD %.*f  D_ST %.*f  D_PAIE %.*f  L_IF %.*f\n",
	       prec, sl_time(params, c->max[SL_POID]), prec, sl_time(params, c->max[SL_PSD]),
	       prec, sl_time(params, c->max[SL_DST]), prec, sl_time(params, c->max[SL_PAIE]),
	       prec, sl_time(params, c->res.bound[SLB_NO_INTERRUPTS].l_if));
	printf("  IRQ: %llu executions, worst %.*f  NMI: %llu executions, worst %.*f",
	       c->irq_count, prec, sl_time(params, c->irq_max), c->nmi_count, prec,
	       sl_time(params, c->nmi_max));
	printf("  windows: %llu, dropped %llu\n", c->windows, c->dropped);

	sl_print_bound_header(false);
	for (m = 0; m < SLB_NR_MODELS; m++)
		sl_print_bound_row(params, &c->res.bound[m], false);
	for (m = 0; m < SLB_NR_MODELS; m++)
		sl_print_unbounded(tool, &c->res, &c->res.bound[m]);
	sl_print_sources(params, &c->res, &c->res.bound[params->model]);
	sl_print_workload_max(tool, cpu);
}

/* sl_print_var_over - a variable of a CPU over its --max-var, and by how much */
static void sl_print_var_over(struct sched_latency_params *params, int cpu, int var,
			      unsigned long long value)
{
	unsigned long long limit_ns = params->max_var_us[var] * 1000ULL;
	int prec = sl_prec(params);

	printf("EXCEEDED: cpu %d: %s %.*f %s is over --max-var %s=%lld us, by %.*f %s\n",
	       cpu, sl_var_name(var), prec, sl_time(params, value), sl_unit(params),
	       sl_var_name(var), params->max_var_us[var], prec,
	       sl_time(params, value - limit_ns), sl_unit(params));
}

/* sl_print_var_limits - each variable of a CPU over its --max-var */
static void sl_print_var_limits(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	unsigned long long value, limit_ns;
	bool any = false;
	int cpu, var;

	for (var = 0; var < SL_NR_VARS; var++)
		any |= params->max_var_us[var] != 0;
	if (!any)
		return;
	for_each_monitored_cpu(cpu, &params->common) {
		if (!tool->cpu[cpu].has_res)
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			limit_ns = params->max_var_us[var] * 1000ULL;
			value = sl_cpu_var_max(&tool->cpu[cpu], var);
			if (!limit_ns || value <= limit_ns)
				continue;
			sl_print_var_over(params, cpu, var, value);
		}
	}
	if (!tool->over_var)
		printf("Within limits: no variable of a cpu is over --max-var\n");
}

/* sl_print_verdict - the lines that explain the exit status */
static void sl_print_verdict(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;

	if (params->max_bound_us)
		printf("%s: the %s bound of %d cpu(s) is over --max-bound %lld us\n",
		       tool->over_gate ? "EXCEEDED" : "Within limits",
		       slb_model_name(params->model), tool->over_gate,
		       params->max_bound_us);
	sl_print_var_limits(tool);
	if (sl_workload_failed(tool))
		printf("WORKLOAD FAILED: it ended by itself with status %d after %.1f s;"
		       " the measurement is not of what was asked\n",
		       sl_workload_status(tool), tool->duration_s);
	if (!tool->lost_events && !tool->dropped_windows) {
		printf("The measurement is complete: no event lost, no window dropped.\n");
		return;
	}
	printf("UNSOUND: the bound is not sound: %llu events lost,", tool->lost_events);
	printf(" %llu windows dropped%s\n", tool->dropped_windows,
	       tool->lost_events ? " (see --trace-buffer-size)" : "");
}

/*
 * sl_print_breakdown - the final report: every CPU, then the system
 */
void sl_print_breakdown(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	int cpu, m;

	printf("\nScheduling latency bound: %s\n",
	       "L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)");
	printf("(all times in %s)\n\n", sl_unit(params));

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (params->no_cpu_breakdown)
			break;
		if (!sl_cpu_monitored(tool, cpu) || !tool->cpu[cpu].has_res ||
		    !tool->cpu[cpu].seen)
			continue;
		sl_print_cpu_breakdown(tool, cpu);
		printf("\n");
	}

	if (tool->system[0]) {
		printf("System: the worst cpu under each characterization\n");
		sl_print_bound_header(true);
		for (m = 0; m < SLB_NR_MODELS; m++)
			sl_print_bound_row(params, tool->system[m], true);
	}

	printf("\n");
	sl_print_verdict(tool);
}
