// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the results, for a reader and for programs.
 *
 * The text breakdown names, for each CPU and for the system, the bound
 * under every characterization of the interrupts and the term of the
 * equation that dominates it: a thread variable points at the code to
 * look at (the stack of its window), a source at an interrupt. The JSON
 * document is an interface: its keys are only ever added, never renamed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_latency_output.h"
#include "sched_latency_collect.h"
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
		const char *func = tep_find_function(tool->trace.tep, ip[i]);

		if (func)
			snprintf(name[i], SL_SYM_LEN, "%s+0x%llx", func, ip[i] -
				 tep_find_function_address(tool->trace.tep, ip[i]));
	}
}

/* sl_symbolize_stop - the names of where the stop's window started, and of its stack */
void sl_symbolize_stop(struct sl_tool *tool)
{
	unsigned long long ip[SL_STACK_MAX + 1];
	char name[SL_STACK_MAX + 1][SL_SYM_LEN];
	struct sl_stop *stop = &tool->stop;
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
	struct sl_stop *stop = &tool->stop;
	const struct slb_bound *b;
	char name[64];
	int i;

	printf("rtla sched-latency hit stop tracing\n");
	if (stop->cpu < 0) {
		printf("  the kernel stopped on the %lld us threshold, but its stop event was lost\n",
		       params->common.stop_us);
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
			       stop->cpu, slb_model_name(params->model), SL_PREC,
			       SL_TIME(stop->value), SL_UNIT, params->common.stop_us);
		sl_term_name(&b->dominant, name, sizeof(name));
		printf("  dominated by %s (%.*f %s)\n", name, SL_PREC, SL_TIME(b->dominant.ns),
		       SL_UNIT);
	} else {
		printf("  CPU %d: %s %s of %.*f %s, above the %lld us threshold\n",
		       stop->cpu, sl_var_label(stop->var),
		       stop->var < SL_NR_WINDOWS ? "window" : "execution",
		       SL_PREC, SL_TIME(stop->value), SL_UNIT, params->common.stop_us);
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
static void sl_print_bound_row(const struct slb_bound *b, bool with_cpu)
{
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
		       SL_PREC, SL_TIME(b->l_if), "-", "-", name, slb_why_name(b->why));
		return;
	}
	printf(" %12.*f %12.*f %12.*f %12.*f  %s (%.*f)\n", SL_PREC, SL_TIME(b->latency),
	       SL_PREC, SL_TIME(b->l_if), SL_PREC, SL_TIME(b->irq), SL_PREC, SL_TIME(b->nmi),
	       name, SL_PREC, SL_TIME(b->dominant.ns));
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

/* sl_print_cpu_breakdown - the variables and the six bounds of one CPU */
/* sl_share - what @source adds to bound @b, in ns; -1 when unbounded */
static long long sl_share(const struct slb_bound *b, int source)
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
		printf("its interrupts would take %.0f%% of the cpu, %s alone %.0f%% (worst execution over shortest inter-arrival)\n",
		       load * 100, name, worst * 100);
		break;
	case SLB_OVER_CAP:
		slb_get_config(tool->slb, &cfg);
		printf("the interference grows with the window past %.0f ms: no fixed point below it\n",
		       (double)cfg.cap_ns / 1e6);
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
static void sl_print_sources(const struct slb_result *res, const struct slb_bound *b)
{
	char name[64], share[32];
	unsigned int i;
	long long ns;

	if (!res->nr_sources)
		return;
	printf("  Interrupt sources (%s; share: what each adds to the %s bound)\n",
	       SL_UNIT, slb_model_name(b->model));
	printf("  %-24s %10s %12s %12s %12s\n", "source", "count", "worst",
	       "min gap", "share");
	for (i = 0; i < res->nr_sources; i++) {
		const struct slb_source_stats *src = &res->sources[i];

		sl_source_name(src->source, name, sizeof(name));
		ns = sl_share(b, src->source);
		if (ns < 0)
			snprintf(share, sizeof(share), "-");
		else
			snprintf(share, sizeof(share), "%.*f", SL_PREC, SL_TIME(ns));
		printf("  %-24s %10llu %12.*f ", name, (unsigned long long)src->count,
		       SL_PREC, SL_TIME(src->owcet));
		/* a gap rounded down: never shown longer than seen */
		if (src->min_gap)
			printf("%12.*f", SL_PREC, sl_nano ? (double)src->min_gap :
			       (double)(src->min_gap / 10) / 100.0);
		else
			printf("%12s", "-");
		printf(" %12s\n", share);
	}
}

static void sl_print_cpu_breakdown(struct sl_tool *tool, int cpu)
{
	struct sl_cpu *c = &tool->cpu[cpu];
	const struct slb_bound *b;
	int m;

	printf("CPU %d\n", cpu);
	printf("  D_POID %.*f  D_PSD %.*f  D_ST %.*f  D_PAIE %.*f  L_IF %.*f\n",
	       SL_PREC, SL_TIME(c->max[SL_POID]), SL_PREC, SL_TIME(c->max[SL_PSD]),
	       SL_PREC, SL_TIME(c->max[SL_DST]), SL_PREC, SL_TIME(c->max[SL_PAIE]),
	       SL_PREC, SL_TIME(c->res.bound[SLB_NO_INTERRUPTS].l_if));
	printf("  IRQ: %llu executions, worst %.*f  NMI: %llu executions, worst %.*f  windows: %llu, dropped %llu\n",
	       c->irq_count, SL_PREC, SL_TIME(c->irq_max), c->nmi_count, SL_PREC,
	       SL_TIME(c->nmi_max),
	       c->windows, c->dropped);

	sl_print_bound_header(false);
	for (m = 0; m < SLB_NR_MODELS; m++)
		sl_print_bound_row(&c->res.bound[m], false);
	for (m = 0; m < SLB_NR_MODELS; m++)
		sl_print_unbounded(tool, &c->res, &c->res.bound[m]);
	sl_print_sources(&c->res, &c->res.bound[tool->params->model]);

	if (c->workload_max_us < 0)
		return;
	b = &c->res.bound[tool->params->model];
	printf("  workload max latency: %lld us", c->workload_max_us);
	if (b->unbounded)
		printf(" (%s: unbounded)\n", slb_model_name(b->model));
	else
		printf(" (%s bound: %.*f %s%s)\n", slb_model_name(b->model),
		       SL_PREC, SL_TIME(b->latency), SL_UNIT,
		       c->workload_max_us * 1000LL > (long long)b->latency ?
		       ", BELOW the measured latency" : "");
}

/* sl_print_verdict - the lines that explain the exit status */
static void sl_print_verdict(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	struct sl_workload *wl = &tool->wl;

	if (params->max_bound_us)
		printf("%s: the %s bound of %d cpu(s) is over --max-bound %lld us\n",
		       tool->over_gate ? "EXCEEDED" : "Within limits",
		       slb_model_name(params->model), tool->over_gate,
		       params->max_bound_us);
	if (sl_workload_failed(tool))
		printf("WORKLOAD FAILED: it ended by itself with status %d after %.1f s;"
		       " the measurement is not of what was asked\n",
		       sl_exit_status(wl->status), tool->duration_s);
	if (!tool->lost_events && !tool->dropped_windows)
		printf("The measurement is complete: no event lost, no window dropped.\n");
	else
		printf("UNSOUND: the bound is not sound: %llu events lost, %llu windows dropped%s\n",
		       tool->lost_events, tool->dropped_windows,
		       tool->lost_events ? " (see --trace-buffer-size)" : "");
}

/*
 * sl_print_breakdown - the final report: every CPU, then the system
 */
void sl_print_breakdown(struct sl_tool *tool)
{
	int cpu, m;

	printf("\nScheduling latency bound: L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)\n");
	printf("(all times in %s)\n\n", SL_UNIT);

	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (tool->params->no_cpu_breakdown)
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
			sl_print_bound_row(tool->system[m], true);
	}

	printf("\n");
	sl_print_verdict(tool);
}

/*
 * JSON.
 */

/* json_string - a JSON string, escaped */
static void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", fp);
		else if (ch == '\t')
			fputs("\\t", fp);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

/* json_bounds - "bound_ns" and "dominant": one key per characterization */
static void json_bounds(FILE *fp, const struct slb_bound * const *b,
			const char *indent)
{
	char name[64];
	int m;

	fprintf(fp, "%s\"bound_ns\": {", indent);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		fprintf(fp, "%s\"%s\": ", m ? ", " : "", slb_model_name(m));
		if (b[m]->unbounded)
			fprintf(fp, "null");
		else
			fprintf(fp, "%llu", (unsigned long long)b[m]->latency);
	}
	fprintf(fp, "},\n%s\"dominant\": {", indent);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		sl_term_name(&b[m]->dominant, name, sizeof(name));
		fprintf(fp, "%s\"%s\": ", m ? ", " : "", slb_model_name(m));
		json_string(fp, name);
	}
	fprintf(fp, "},\n%s\"unbounded_why\": {", indent);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		fprintf(fp, "%s\"%s\": ", m ? ", " : "", slb_model_name(m));
		if (b[m]->unbounded)
			json_string(fp, slb_why_name(b[m]->why));
		else
			fprintf(fp, "null");
	}
	fprintf(fp, "}");
}

/* json_vars - the keys a CPU and the system share */
static void json_vars(FILE *fp, const unsigned long long *max, unsigned long long lif,
		      unsigned long long irq_count, unsigned long long irq_max,
		      unsigned long long nmi_count, unsigned long long nmi_max,
		      const char *indent)
{
	fprintf(fp, "%s\"poid_ns\": %llu,\n", indent, max[SL_POID]);
	fprintf(fp, "%s\"psd_ns\": %llu,\n", indent, max[SL_PSD]);
	fprintf(fp, "%s\"dst_ns\": %llu,\n", indent, max[SL_DST]);
	fprintf(fp, "%s\"paie_ns\": %llu,\n", indent, max[SL_PAIE]);
	fprintf(fp, "%s\"lif_ns\": %llu,\n", indent, lif);
	fprintf(fp, "%s\"irq\": {\"count\": %llu, \"max_ns\": %llu},\n", indent,
		irq_count, irq_max);
	fprintf(fp, "%s\"nmi\": {\"count\": %llu, \"max_ns\": %llu},\n", indent,
		nmi_count, nmi_max);
}

/* json_sources - what the engine learned of each interrupt source */
static void json_sources(FILE *fp, const struct slb_result *res, const char *indent)
{
	char name[64];
	unsigned int i;

	fprintf(fp, "%s\"sources\": [", indent);
	for (i = 0; i < res->nr_sources; i++) {
		const struct slb_source_stats *s = &res->sources[i];

		sl_source_name(s->source, name, sizeof(name));
		fprintf(fp, "%s{\"source\": ", i ? ", " : "");
		json_string(fp, name);
		fprintf(fp, ", \"count\": %llu, \"owcet_ns\": %llu, \"min_gap_ns\": %llu, \"total_ns\": %llu}",
			(unsigned long long)s->count, (unsigned long long)s->owcet,
			(unsigned long long)s->min_gap, (unsigned long long)s->total);
	}
	fprintf(fp, "]");
}

/* json_cpu - one CPU's object */
static void json_cpu(FILE *fp, struct sl_tool *tool, int cpu)
{
	const struct slb_bound *b[SLB_NR_MODELS];
	struct sl_cpu *c = &tool->cpu[cpu];
	const char *in = "      ";
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		b[m] = &c->res.bound[m];

	fprintf(fp, "    \"%d\": {\n", cpu);
	json_vars(fp, c->max, c->res.bound[0].l_if, c->irq_count,
		  c->irq_max > c->max[SL_IRQ] ? c->irq_max : c->max[SL_IRQ],
		  c->nmi_count,
		  c->nmi_max > c->max[SL_NMI] ? c->nmi_max : c->max[SL_NMI], in);
	json_bounds(fp, b, in);
	fprintf(fp, ",\n%s\"windows\": %llu,\n", in, c->windows);
	fprintf(fp, "%s\"dropped_windows\": %llu,\n", in, c->dropped);
	fprintf(fp, "%s\"lost_events\": %llu,\n", in, c->lost);
	json_sources(fp, &c->res, in);
	fprintf(fp, "\n    }");
}

/*
 * json_system - the system: the worst of the CPUs
 *
 * Maxima and bounds are the largest over the measured CPUs (each bound
 * with the CPU it comes from in "bound_cpu"); counts are totals.
 */
static void json_system(FILE *fp, struct sl_tool *tool)
{
	const char *in = "    ";
	struct sl_totals t;
	int m;

	sl_system_totals(tool, true, &t);

	fprintf(fp, "  \"system\": {\n");
	json_vars(fp, t.max, t.l_if, t.irq_count, t.irq_max, t.nmi_count, t.nmi_max, in);
	json_bounds(fp, (const struct slb_bound * const *)tool->system, in);
	fprintf(fp, ",\n%s\"bound_cpu\": {", in);
	for (m = 0; m < SLB_NR_MODELS; m++)
		fprintf(fp, "%s\"%s\": %d", m ? ", " : "", slb_model_name(m),
			tool->system[m]->cpu);
	fprintf(fp, "}\n  }");
}

/* json_stop - null, or where the threshold was crossed */
static void json_stop(FILE *fp, struct sl_tool *tool)
{
	struct sl_stop *stop = &tool->stop;
	int i;

	if (!stop->hit) {
		fprintf(fp, "  \"stop\": null");
		return;
	}
	fprintf(fp, "  \"stop\": {\"cpu\": %d, \"variable\": \"%s\", \"value_ns\": ",
		stop->cpu, sl_var_name(stop->var));
	if (stop->value == ULLONG_MAX || stop->cpu < 0)
		fprintf(fp, "null");
	else
		fprintf(fp, "%llu", stop->value);
	fprintf(fp, ", \"threshold_us\": %lld", tool->params->common.stop_us);
	if (stop->var == SL_STOP_BOUND)
		fprintf(fp, ", \"model\": \"%s\"", slb_model_name(tool->params->model));
	fprintf(fp, ", \"stack\": [");
	for (i = 0; stop->has_stack && i < stop->stack.nr; i++) {
		fprintf(fp, "%s", i ? ", " : "");
		json_string(fp, stop->frame[i]);
	}
	fprintf(fp, "]}");
}

/* json_time - a time as an ISO 8601 UTC string */
static void json_time(FILE *fp, const char *key, time_t t)
{
	char buf[32];
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
	fprintf(fp, "  \"%s\": ", key);
	json_string(fp, buf);
	fprintf(fp, ",\n");
}

/* json_cmdline - rtla's command line, from /proc: what was run, as typed */
static void json_cmdline(FILE *fp)
{
	char buf[8192];
	size_t n, i;
	FILE *f;

	f = fopen("/proc/self/cmdline", "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	while (n && !buf[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	fprintf(fp, "  \"cmdline\": ");
	json_string(fp, buf);
	fprintf(fp, ",\n");
}

static const char * const sl_verdicts[] = {
	[SL_EXIT_OK]		= "passed",
	[SL_EXIT_ERROR]		= "error",
	[SL_EXIT_EXCEEDED]	= "exceeded",
	[SL_EXIT_WORKLOAD]	= "workload_failed",
	[SL_EXIT_UNSOUND]	= "unsound",
};

/*
 * json_envelope - what a pipeline files the run under: the command, when,
 * on which kernel, with which settings, and the verdict (the exit status,
 * unless writing a report then fails: that exits 1 only if it passed)
 */
static void json_envelope(FILE *fp, struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	struct utsname u;

	json_cmdline(fp);
	json_time(fp, "start_time", tool->start_time);
	json_time(fp, "end_time", tool->start_time + (time_t)(tool->duration_s + 0.5));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	fprintf(fp, "  \"uname\": {\"sysname\": ");
	json_string(fp, u.sysname);
	fprintf(fp, ", \"release\": ");
	json_string(fp, u.release);
	fprintf(fp, ", \"version\": ");
	json_string(fp, u.version);
	fprintf(fp, ", \"machine\": ");
	json_string(fp, u.machine);
	fprintf(fp, "},\n");
#ifdef VERSION
	fprintf(fp, "  \"rtla_version\": ");
	json_string(fp, VERSION);
	fprintf(fp, ",\n");
#else
	fprintf(fp, "  \"rtla_version\": null,\n");
#endif
	fprintf(fp, "  \"settings\": {\"cpus\": ");
	json_string(fp, params->common.cpus ? params->common.cpus : "all");
	fprintf(fp, ", \"hist_bucket_ns\": %llu, \"hist_buckets\": %llu",
		tool->bucket_ns, tool->nr_buckets);
	fprintf(fp, ", \"threshold_us\": %lld, \"stop_on\": \"%s\"",
		params->common.stop_us, sl_var_name(params->stop_on));
	if (params->max_bound_us)
		fprintf(fp, ", \"max_bound_us\": %lld", params->max_bound_us);
	else
		fprintf(fp, ", \"max_bound_us\": null");
	fprintf(fp, ", \"trace_buffer_size_kb\": %d},\n", params->common.buffer_size);
	fprintf(fp, "  \"verdict\": \"%s\",\n", sl_verdicts[tool->verdict]);
	fprintf(fp, "  \"exit_status\": %d,\n", tool->verdict);
	fprintf(fp, "  \"cpus_over_max_bound\": %d,\n", tool->over_gate);
}

/* json_workload - null, or the workload and what it measured itself */
static void json_workload(FILE *fp, struct sl_tool *tool)
{
	bool first = true;
	int cpu;

	if (!tool->wl.pid) {
		fprintf(fp, "  \"workload\": null");
		return;
	}
	fprintf(fp, "  \"workload\": {\"command\": ");
	json_string(fp, tool->wl.command ? tool->wl.command : "");
	fprintf(fp, ", \"exit_status\": %d, \"max_latency_us\": {",
		sl_exit_status(tool->wl.status));
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (tool->cpu[cpu].workload_max_us < 0)
			continue;
		fprintf(fp, "%s\"%d\": %lld", first ? "" : ", ", cpu,
			tool->cpu[cpu].workload_max_us);
		first = false;
	}
	fprintf(fp, "}}");
}

/* sl_open_report - the output file opened at start, emptied for writing */
static FILE *sl_open_report(struct sl_output *out)
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

/* sl_close_report - flush and close, telling whether all was written */
static int sl_close_report(FILE *fp, struct sl_output *out)
{
	if (ferror(fp) | fclose(fp)) {
		err_msg("rtla sched-latency: cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* sl_write_json - the --json document */
int sl_write_json(struct sl_tool *tool)
{
	struct sl_output *out = &tool->params->json;
	bool first = true;
	FILE *fp;
	int cpu;

	fp = sl_open_report(out);
	if (!fp) {
		err_msg("rtla sched-latency: cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}

	fprintf(fp, "{\n  \"version\": %d,\n", SL_JSON_VERSION);
	fprintf(fp, "  \"tool\": \"rtla sched-latency %s\",\n", tool->params->mode);
	json_envelope(fp, tool);
	fprintf(fp, "  \"duration_s\": %.3f,\n", tool->duration_s);
	fprintf(fp, "  \"sound\": %s,\n",
		tool->lost_events || tool->dropped_windows ? "false" : "true");
	fprintf(fp, "  \"lost_events\": %llu,\n", tool->lost_events);
	fprintf(fp, "  \"dropped_windows\": %llu,\n", tool->dropped_windows);
	fprintf(fp, "  \"model\": \"%s\",\n", slb_model_name(tool->params->model));

	fprintf(fp, "  \"cpus\": {");
	for_each_monitored_cpu(cpu, &tool->params->common) {
		if (!tool->cpu[cpu].has_res)
			continue;
		fprintf(fp, "%s\n", first ? "" : ",");
		json_cpu(fp, tool, cpu);
		first = false;
	}
	fprintf(fp, "\n  },\n");

	if (tool->system[0])
		json_system(fp, tool);
	else
		fprintf(fp, "  \"system\": null");
	fprintf(fp, ",\n");
	json_stop(fp, tool);
	fprintf(fp, ",\n");
	json_workload(fp, tool);
	fprintf(fp, "\n}\n");

	return sl_close_report(fp, out);
}

/*
 * SVG: one group of bars per CPU, one bar per characterization, and the
 * workload's own maximum beside them when it measured one. Unbounded bars
 * reach the top, hatched. Everything is integer arithmetic: rtla does not
 * link the math library.
 */

#define SVG_PLOT_H	300
#define SVG_TOP		50
#define SVG_LEFT	80
#define SVG_BAR_W	14
#define SVG_GROUP_GAP	24
#define SVG_LEGEND_W	230

static const char * const svg_colors[SLB_NR_MODELS + 1] = {
	"#4e79a7", "#59a14f", "#9c755f", "#e15759", "#f28e2b", "#b07aa1",
	"#222222",	/* the workload's measurement */
};

/*
 * svg_log10 - log10 of @v >= 1 without libm: the decades, then ln of the
 * rest in [1, 10) by its atanh series, which converges there
 */
static double svg_log10(double v)
{
	double y, y2, term, ln = 0;
	int decades = 0, k;

	if (v <= 1)
		return 0;
	while (v >= 10) {
		v /= 10;
		decades++;
	}
	y = (v - 1) / (v + 1);
	y2 = y * y;
	term = y;
	for (k = 1; k < 200; k += 2) {
		ln += term / k;
		term *= y2;
	}
	return decades + 2 * ln / 2.302585092994046;
}

/*
 * svg_h - the height of a value (us) on a log axis from 1 us to 10^decades
 * us: one spike does not flatten every other bar to a line
 */
static unsigned long long svg_h(double value, int decades)
{
	double h = svg_log10(value) * SVG_PLOT_H / decades;

	return h > SVG_PLOT_H ? SVG_PLOT_H : (unsigned long long)h;
}

/* sl_write_svg - the --svg chart */
int sl_write_svg(struct sl_tool *tool)
{
	struct sl_output *out = &tool->params->svg;
	unsigned long long top_us = 1, tick;
	int cpu, m, nr_groups = 0, nr_bars, x, width, height, decades = 1;
	bool workload = false;
	double v;
	FILE *fp;

	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		struct sl_cpu *c = &tool->cpu[cpu];

		if (!sl_cpu_monitored(tool, cpu) || !c->has_res || !c->seen)
			continue;
		nr_groups++;
		for (m = 0; m < SLB_NR_MODELS; m++)
			if (!c->res.bound[m].unbounded &&
			    c->res.bound[m].latency / 1000 + 1 > top_us)
				top_us = c->res.bound[m].latency / 1000 + 1;
		if (c->workload_max_us >= 0) {
			workload = true;
			if ((unsigned long long)c->workload_max_us + 1 > top_us)
				top_us = c->workload_max_us + 1;
		}
	}
	/* a log axis from 1 us to the decade above the highest bar */
	for (tick = 10; tick < top_us; tick *= 10)
		decades++;
	nr_bars = SLB_NR_MODELS + workload;
	width = SVG_LEFT + nr_groups * (nr_bars * SVG_BAR_W + SVG_GROUP_GAP) +
		SVG_GROUP_GAP + SVG_LEGEND_W;
	height = SVG_TOP + SVG_PLOT_H + 60;

	fp = sl_open_report(out);
	if (!fp) {
		err_msg("rtla sched-latency: cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height, width, height);
	/* unbounded bars are hatched */
	fprintf(fp, "<defs><pattern id=\"unbounded\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\n");
	fprintf(fp, "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>\n");
	fprintf(fp, "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888888\" stroke-width=\"3\"/>\n");
	fprintf(fp, "</pattern></defs>\n");
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(fp, "<text x=\"%d\" y=\"24\" font-size=\"16\">Scheduling latency bound per CPU (us, log scale)%s</text>\n",
		SVG_LEFT, tool->lost_events || tool->dropped_windows ? " - not sound" : "");

	/* the axis and its ticks */
	for (tick = 1, m = 0; m <= decades; m++, tick *= 10) {
		int y = SVG_TOP + SVG_PLOT_H - (int)svg_h(tick, decades);

		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n",
			SVG_LEFT, y, width - SVG_LEGEND_W, y);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n",
			SVG_LEFT - 6, y + 4, tick);
	}
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n",
		SVG_LEFT, SVG_TOP, SVG_LEFT, SVG_TOP + SVG_PLOT_H);

	x = SVG_LEFT + SVG_GROUP_GAP;
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		struct sl_cpu *c = &tool->cpu[cpu];

		if (!sl_cpu_monitored(tool, cpu) || !c->has_res || !c->seen)
			continue;
		for (m = 0; m < nr_bars; m++) {
			const struct slb_bound *b = m < SLB_NR_MODELS ? &c->res.bound[m] : NULL;
			bool unbounded = b && b->unbounded;
			unsigned long long h;

			if (b)
				v = NS_TO_US(b->latency);
			else
				v = c->workload_max_us < 0 ? 0 : c->workload_max_us;
			h = unbounded ? SVG_PLOT_H : svg_h(v, decades);
			fprintf(fp, "<rect x=\"%d\" y=\"%llu\" width=\"%d\" height=\"%llu\" fill=\"%s\"",
				x, SVG_TOP + SVG_PLOT_H - h, SVG_BAR_W - 2, h,
				unbounded ? "url(#unbounded)" : svg_colors[m]);
			if (unbounded)
				fprintf(fp, " stroke=\"%s\"", svg_colors[m]);
			fprintf(fp, "><title>CPU %d %s: ", cpu,
				b ? slb_model_name(m) : "workload max");
			if (unbounded)
				fprintf(fp, "unbounded (%s)", slb_why_name(b->why));
			else
				fprintf(fp, "%.2f us", v);
			fprintf(fp, "</title></rect>\n");
			if (unbounded)
				fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">&#8734;</text>\n",
					x + SVG_BAR_W / 2 - 1, SVG_TOP - 4);
			x += SVG_BAR_W;
		}
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">CPU %d</text>\n",
			x - nr_bars * SVG_BAR_W / 2, SVG_TOP + SVG_PLOT_H + 18, cpu);
		x += SVG_GROUP_GAP;
	}

	/* the legend */
	x = width - SVG_LEGEND_W + 20;
	for (m = 0; m < nr_bars; m++) {
		int y = SVG_TOP + m * 20;

		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			x, y, svg_colors[m]);
		fprintf(fp, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 18, y + 11,
			m < SLB_NR_MODELS ? slb_model_name(m) : "workload max latency");
	}
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"url(#unbounded)\" stroke=\"#888888\"/>\n",
		x, SVG_TOP + nr_bars * 20);
	fprintf(fp, "<text x=\"%d\" y=\"%d\">unbounded</text>\n", x + 18,
		SVG_TOP + nr_bars * 20 + 11);
	fprintf(fp, "</svg>\n");

	return sl_close_report(fp, out);
}
