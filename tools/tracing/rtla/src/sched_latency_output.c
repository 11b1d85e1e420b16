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

	for (cpu = 0; cpu < nr_cpus; cpu++) {
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

/*
 * json_terms - "terms_ns": each bound's terms, as the SVG stacks them:
 * max(D_ST, D_POID) as "blocking" (which one in "blocking_by"), D_PAIE,
 * D_PSD, I_NMI and I_IRQ, and I_IRQ by source; the interference terms are
 * null when unbounded
 */
static void json_terms(FILE *fp, const struct slb_result *res, const char *indent)
{
	const struct slb_bound *b;
	bool st, first;
	char name[64];
	unsigned int i;
	int m;

	fprintf(fp, "%s\"terms_ns\": {", indent);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		b = &res->bound[m];
		st = b->var[SLB_ST] > b->var[SLB_POID];
		fprintf(fp,
			"%s\n%s  \"%s\": {\"blocking\": %llu, \"blocking_by\": \"%s\", \"paie\": %llu, \"psd\": %llu",
			m ? "," : "", indent, slb_model_name(m),
			(unsigned long long)b->var[st ? SLB_ST : SLB_POID], st ? "D_ST" : "D_POID",
			(unsigned long long)b->var[SLB_PAIE], (unsigned long long)b->var[SLB_PSD]);
		if (b->unbounded) {
			fprintf(fp, ", \"nmi\": null, \"irq\": null, \"irq_sources\": null}");
			continue;
		}
		fprintf(fp, ", \"nmi\": %llu, \"irq\": %llu, \"irq_sources\": {",
			(unsigned long long)b->nmi, (unsigned long long)b->irq);
		for (first = true, i = 0; i < b->nr_shares; i++) {
			if (b->shares[i].source == SLB_NMI)
				continue;
			sl_source_name(b->shares[i].source, name, sizeof(name));
			fprintf(fp, "%s", first ? "" : ", ");
			json_string(fp, name);
			fprintf(fp, ": %llu", (unsigned long long)b->shares[i].ns);
			first = false;
		}
		fprintf(fp, "}}");
	}
	fprintf(fp, "\n%s}", indent);
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
	fprintf(fp, ",\n");
	json_terms(fp, &c->res, in);
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
	for (cpu = 0; cpu < nr_cpus; cpu++) {
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
 * SVG. Two pictures: top's bound chart, each bar stacked by the terms of
 * the equation, and hist's histograms, a panel per variable with a strip
 * per CPU. Every text is laid out from a conservative estimate of its
 * width (0.6 em a character), so that nothing is cut for 1 to hundreds of
 * CPUs. Only integer and double arithmetic: rtla does not link libm.
 */

#define SVG_MARGIN	10
#define SVG_TITLE_Y	24
#define SVG_SUB_Y	44
#define SVG_FONT	12
#define SVG_SMALL	10
#define SVG_BIG		16

/* svg_text_w - the width of @len characters at @size px, estimated high */
static int svg_text_w(size_t len, int size)
{
	return (int)((len * size * 6 + 9) / 10);
}

/* svg_escape - @s as XML character data */
static void svg_escape(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", fp);
		else if (*s == '>')
			fputs("&gt;", fp);
		else if (*s == '&')
			fputs("&amp;", fp);
		else if (*s == '"')
			fputs("&quot;", fp);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, fp);
	}
}

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

/* svg_step - a tick step of 1, 2 or 5 times 10^k ns: at most @n up to @top */
static unsigned long long svg_step(unsigned long long top, int n)
{
	unsigned long long p = 10;

	for (;;) {
		if (p * n >= top)
			return p;
		if (2 * p * n >= top)
			return 2 * p;
		if (5 * p * n >= top)
			return 5 * p;
		p *= 10;
	}
}

/* svg_us - @ns as us with the decimals a tick step of @step ns needs */
static void svg_us(char *buf, size_t len, unsigned long long ns,
		   unsigned long long step)
{
	int prec = step % 1000 == 0 ? 0 : step % 100 == 0 ? 1 : 2;

	snprintf(buf, len, "%.*f", prec, (double)ns / 1000.0);
}

/* svg_start - the XML header, the canvas, the hatch, the title lines */
static void svg_start(FILE *fp, int width, int height, const char *title,
		      const char *sub)
{
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(fp,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%d\">\n",
		width, height, width, height, SVG_FONT);
	/* what has no value (unbounded, over the range) is hatched */
	fprintf(fp,
		"<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\n");
	fprintf(fp, "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>\n");
	fprintf(fp,
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888888\" stroke-width=\"3\"/>\n");
	fprintf(fp, "</pattern></defs>\n");
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" data-role=\"title\">",
		SVG_MARGIN, SVG_TITLE_Y, SVG_BIG);
	svg_escape(fp, title);
	fprintf(fp, "</text>\n<text x=\"%d\" y=\"%d\">", SVG_MARGIN, SVG_SUB_Y);
	svg_escape(fp, sub);
	fprintf(fp, "</text>\n");
}

/* svg_head_w - the width the title lines need */
static int svg_head_w(const char *title, const char *sub)
{
	int w = svg_text_w(strlen(title), SVG_BIG), s = svg_text_w(strlen(sub), SVG_FONT);

	return 2 * SVG_MARGIN + (w > s ? w : s);
}

/* the bound chart */
#define SVG_PLOT_H	300
#define SVG_LEFT	50	/* at least, for a CPU's axis labels */
#define SVG_BAR		16	/* a bar's pitch; it is 2 px narrower */
#define SVG_GROUP_GAP	24
#define SVG_LEGEND_ROW	18
#define SVG_SOURCES	4	/* interrupt sources drawn apart; the rest grouped */

enum svg_term {
	SVG_POID, SVG_ST, SVG_PAIE, SVG_PSD, SVG_NMI, SVG_SRC,
	SVG_OTHER = SVG_SRC + SVG_SOURCES, SVG_WORKLOAD, SVG_UNBOUNDED,
	SVG_NR_TERMS
};

static const char * const svg_term_colors[SVG_NR_TERMS] = {
	[SVG_POID]	= "#4e79a7",
	[SVG_ST]	= "#76b7b2",
	[SVG_PAIE]	= "#f28e2b",
	[SVG_PSD]	= "#59a14f",
	[SVG_NMI]	= "#b07aa1",
	[SVG_SRC]	= "#e15759",
	[SVG_SRC + 1]	= "#ff9da7",
	[SVG_SRC + 2]	= "#9c755f",
	[SVG_SRC + 3]	= "#edc948",
	[SVG_OTHER]	= "#bab0ac",
	[SVG_WORKLOAD]	= "#222222",
	[SVG_UNBOUNDED]	= "url(#hatch)",
};

/* the chart's interrupt sources drawn apart, and where a bar is */
struct svg_bound {
	FILE		*fp;
	int		nr_src;
	int		src[SVG_SOURCES];
	char		src_name[SVG_SOURCES][64];
	double		px_per_ns;
	int		base;		/* the y of the axis */
	int		cpu;
	int		model;
	int		x;
	double		y;		/* the top of the stack so far */
};

/* svg_cpu_drawn - a CPU with a bar group */
static bool svg_cpu_drawn(struct sl_tool *tool, int cpu)
{
	return sl_cpu_monitored(tool, cpu) && tool->cpu[cpu].has_res && tool->cpu[cpu].seen;
}

/*
 * svg_pick_sources - the SVG_SOURCES IRQ sources with the largest share
 * of any bounded bar: drawn in their own colors, the rest as one segment
 */
static void svg_pick_sources(struct sl_tool *tool, struct svg_bound *sb)
{
	struct {
		int source;
		unsigned long long ns;
	} cand[256];
	const struct slb_bound *b;
	const struct slb_share *s;
	int cpu, m, k, best, nr = 0;
	unsigned int i;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!svg_cpu_drawn(tool, cpu))
			continue;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			b = &tool->cpu[cpu].res.bound[m];
			for (i = 0; i < b->nr_shares && !b->unbounded; i++) {
				s = &b->shares[i];
				if (s->source == SLB_NMI || !s->ns)
					continue;
				for (k = 0; k < nr && cand[k].source != s->source; k++)
					;
				if (k == nr && nr == (int)ARRAY_SIZE(cand))
					continue;
				if (k == nr) {
					cand[nr].source = s->source;
					cand[nr++].ns = 0;
				}
				if (s->ns > cand[k].ns)
					cand[k].ns = s->ns;
			}
		}
	}
	/* the largest first; a source taken is zeroed */
	for (sb->nr_src = 0; sb->nr_src < SVG_SOURCES; sb->nr_src++) {
		for (best = -1, k = 0; k < nr; k++)
			if (cand[k].ns && (best < 0 || cand[k].ns > cand[best].ns))
				best = k;
		if (best < 0)
			break;
		sb->src[sb->nr_src] = cand[best].source;
		cand[best].ns = 0;
		sl_source_name(sb->src[sb->nr_src], sb->src_name[sb->nr_src],
			       sizeof(sb->src_name[sb->nr_src]));
	}
}

/* svg_term_label - a term as the legend and the data-term attribute name it */
static const char *svg_term_label(const struct svg_bound *sb, int t)
{
	static const char * const fixed[SVG_NR_TERMS] = {
		[SVG_POID]	= "D_POID",
		[SVG_ST]	= "D_ST",
		[SVG_PAIE]	= "D_PAIE",
		[SVG_PSD]	= "D_PSD",
		[SVG_NMI]	= "I_NMI",
		[SVG_OTHER]	= "I_IRQ other",
		[SVG_WORKLOAD]	= "workload max latency",
		[SVG_UNBOUNDED]	= "unbounded",
	};

	if (t >= SVG_SRC && t < SVG_OTHER)
		return sb->src_name[t - SVG_SRC];
	return fixed[t];
}

/* svg_segment - one term of a bar, stacked on what is below it */
static void svg_segment(struct svg_bound *sb, int t, unsigned long long ns)
{
	double h = (double)ns * sb->px_per_ns;

	if (!ns)
		return;
	sb->y -= h;
	fprintf(sb->fp,
		"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" data-cpu=\"%d\" data-model=\"%s\" data-term=\"",
		sb->x, sb->y, SVG_BAR - 2, h, svg_term_colors[t], sb->cpu,
		slb_model_name(sb->model));
	svg_escape(sb->fp, svg_term_label(sb, t));
	fprintf(sb->fp, "\" data-ns=\"%llu\"><title>CPU %d, %s: ", ns, sb->cpu,
		slb_model_name(sb->model));
	svg_escape(sb->fp, svg_term_label(sb, t));
	fprintf(sb->fp, " %.2f us</title></rect>\n", (double)ns / 1000.0);
}

/*
 * svg_bar - one characterization's bar: max(D_ST, D_POID), D_PAIE, D_PSD,
 * I_NMI, then I_IRQ by source, bottom up. An unbounded bar has only its
 * thread terms: a hatched segment goes on from them to the top of the axis.
 */
static void svg_bar(struct svg_bound *sb, const struct slb_bound *b, int top_y)
{
	unsigned long long named = 0;
	long long ns;
	int k;

	sb->y = sb->base;
	if (b->var[SLB_ST] > b->var[SLB_POID])
		svg_segment(sb, SVG_ST, b->var[SLB_ST]);
	else
		svg_segment(sb, SVG_POID, b->var[SLB_POID]);
	svg_segment(sb, SVG_PAIE, b->var[SLB_PAIE]);
	svg_segment(sb, SVG_PSD, b->var[SLB_PSD]);
	if (b->unbounded) {
		fprintf(sb->fp,
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch)\" stroke=\"#888888\" data-cpu=\"%d\" data-model=\"%s\" data-term=\"unbounded\"><title>CPU %d, %s: unbounded (%s)</title></rect>\n",
			sb->x, top_y, SVG_BAR - 2, sb->y - top_y, sb->cpu,
			slb_model_name(sb->model), sb->cpu, slb_model_name(sb->model),
			slb_why_name(b->why));
		fprintf(sb->fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">&#8734;</text>\n",
			sb->x + SVG_BAR / 2 - 1, top_y - 4);
		return;
	}
	svg_segment(sb, SVG_NMI, b->nmi);
	for (k = 0; k < sb->nr_src; k++) {
		ns = sl_share(b, sb->src[k]);
		if (ns <= 0)
			continue;
		named += ns;
		svg_segment(sb, SVG_SRC + k, ns);
	}
	svg_segment(sb, SVG_OTHER, b->irq > named ? b->irq - named : 0);
}

/* svg_bound_top - the highest value a bar of @c reaches, in ns */
static unsigned long long svg_bound_top(const struct sl_cpu *c)
{
	unsigned long long top = 0, v;
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &c->res.bound[m];

		v = b->unbounded ? b->l_if : b->latency;
		if (v > top)
			top = v;
	}
	if (c->workload_max_us > 0 && (unsigned long long)c->workload_max_us * 1000 > top)
		top = c->workload_max_us * 1000ULL;
	return top;
}

/* svg_axis - the top of @c's axis and its tick step, in ns */
static unsigned long long svg_axis(const struct sl_cpu *c, unsigned long long *step)
{
	unsigned long long top = svg_bound_top(c);

	*step = svg_step(top ? top : 1000, 6);
	top = (top + *step - 1) / *step * *step;
	return top ? top : *step;
}

/* svg_legend_w - the width of a legend item of term @t */
static int svg_legend_w(const struct svg_bound *sb, int t)
{
	size_t len = strlen(svg_term_label(sb, t));

	if (t >= SVG_SRC && t < SVG_OTHER)
		len += strlen("I_IRQ ");
	return 18 + svg_text_w(len, SVG_FONT) + 16;
}

/* svg_legend_has - whether term @t is in the legend */
static bool svg_legend_has(const struct svg_bound *sb, int t, bool workload)
{
	return !(t >= SVG_SRC + sb->nr_src && t < SVG_OTHER) && (t != SVG_WORKLOAD || workload);
}

/*
 * svg_legend - lay the legend out under the title, in rows as wide as the
 * chart, and draw it to @fp (NULL: only measure). Returns the y of its
 * last row.
 */
static int svg_legend(FILE *fp, const struct svg_bound *sb, bool workload,
		      int width)
{
	int lx, ly, t, w;

	lx = SVG_MARGIN;
	ly = SVG_SUB_Y + 12;
	for (t = 0; t < SVG_NR_TERMS; t++) {
		if (!svg_legend_has(sb, t, workload))
			continue;
		w = svg_legend_w(sb, t);
		if (lx + w > width - SVG_MARGIN && lx > SVG_MARGIN) {
			lx = SVG_MARGIN;
			ly += SVG_LEGEND_ROW;
		}
		if (!fp) {
			lx += w;
			continue;
		}
		fprintf(fp,
			"<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#888888\" stroke-width=\"0.5\"/>\n",
			lx, ly, svg_term_colors[t]);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" data-role=\"legend\">%s", lx + 18, ly + 11,
			t >= SVG_SRC && t < SVG_OTHER ? "I_IRQ " : "");
		svg_escape(fp, svg_term_label(sb, t));
		fprintf(fp, "</text>\n");
		lx += w;
	}
	return ly;
}

/*
 * svg_write_bounds - top's chart: the bounds of each CPU stacked by their
 * terms, on a linear axis of the CPU's own: the terms add up to the bar,
 * and one CPU's storm does not flatten the others' bars to lines
 */
static void svg_write_bounds(struct sl_tool *tool, FILE *fp)
{
	static const char title[] =
		"Scheduling latency bound per CPU, stacked by term (us, linear axis per CPU)";
	int cpu, m, nr_groups = 0, nr_bars, width, height, w, top_y, base, x0;
	unsigned long long top, step, tick;
	struct svg_bound sb = { .fp = fp };
	int label_len = 0, left = SVG_LEFT;
	bool workload = false;
	char sub[160], buf[32];

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!svg_cpu_drawn(tool, cpu))
			continue;
		nr_groups++;
		if (tool->cpu[cpu].workload_max_us >= 0)
			workload = true;
		/* room left of each group for its widest tick label */
		top = svg_axis(&tool->cpu[cpu], &step);
		svg_us(buf, sizeof(buf), top, step);
		w = svg_text_w(strlen(buf), SVG_FONT) + 12;
		if (w > left)
			left = w;
	}
	svg_pick_sources(tool, &sb);
	nr_bars = SLB_NR_MODELS + workload;
	for (m = 0; m < SLB_NR_MODELS; m++)
		if ((int)strlen(slb_model_name(m)) > label_len)
			label_len = strlen(slb_model_name(m));

	snprintf(sub, sizeof(sub), "L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)%s",
		 tool->lost_events || tool->dropped_windows ? " - NOT SOUND: events lost" : "");
	width = SVG_MARGIN + nr_groups * (left + nr_bars * SVG_BAR + SVG_GROUP_GAP);
	w = svg_head_w(title, sub);
	if (w > width)
		width = w;

	top_y = svg_legend(NULL, &sb, workload, width) + SVG_LEGEND_ROW + 40;
	base = top_y + SVG_PLOT_H;
	height = base + 8 + svg_text_w(label_len, SVG_SMALL) + 28;

	svg_start(fp, width, height, title, sub);
	svg_legend(fp, &sb, workload, width);

	x0 = SVG_MARGIN;
	sb.base = base;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct sl_cpu *c = &tool->cpu[cpu];

		if (!svg_cpu_drawn(tool, cpu))
			continue;
		top = svg_axis(c, &step);
		sb.px_per_ns = (double)SVG_PLOT_H / (double)top;
		sb.cpu = cpu;
		sb.x = x0 + left;

		fprintf(fp,
			"<g data-role=\"plot\" data-cpu=\"%d\" data-base=\"%d\" data-top=\"%d\" data-px-per-us=\"%.9f\">\n",
			cpu, base, top_y, sb.px_per_ns * 1000.0);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">us</text>\n",
			sb.x - 6, top_y - 14);
		for (tick = 0; tick <= top; tick += step) {
			double y = base - (double)tick * sb.px_per_ns;

			svg_us(buf, sizeof(buf), tick, step);
			fprintf(fp,
				"<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#dddddd\"/>\n",
				sb.x, y, sb.x + nr_bars * SVG_BAR + 4, y);
			fprintf(fp, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
				sb.x - 6, y + 4, buf);
		}
		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\"/>\n",
			sb.x - 2, top_y, sb.x - 2, base);

		for (m = 0; m < nr_bars; m++) {
			const char *label = m < SLB_NR_MODELS ? slb_model_name(m) : "workload";

			sb.model = m;
			if (m < SLB_NR_MODELS) {
				svg_bar(&sb, &c->res.bound[m], top_y);
			} else if (c->workload_max_us >= 0) {
				double h = (double)c->workload_max_us * 1000.0 * sb.px_per_ns;

				fprintf(fp,
					"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" data-cpu=\"%d\" data-term=\"workload\" data-us=\"%lld\"><title>CPU %d: the workload's max latency, %lld us</title></rect>\n",
					sb.x, base - h, SVG_BAR - 2, h,
					svg_term_colors[SVG_WORKLOAD], cpu, c->workload_max_us,
					cpu, c->workload_max_us);
			}
			/* its name under it, read bottom up */
			fprintf(fp,
				"<text transform=\"rotate(-90 %d %d)\" x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\">%s</text>\n",
				sb.x + SVG_BAR / 2 + 3, base + 6, sb.x + SVG_BAR / 2 + 3, base + 6,
				SVG_SMALL, label);
			sb.x += SVG_BAR;
		}
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" data-role=\"cpu\">CPU %d</text>\n",
			x0 + left + nr_bars * SVG_BAR / 2, height - 10, cpu);
		fprintf(fp, "</g>\n");
		x0 = sb.x + SVG_GROUP_GAP;
	}
	fprintf(fp, "</svg>\n");
}

/* the histograms */
#define SVG_CPU_W	64	/* the CPU labels on the left */
#define SVG_YLAB_W	36	/* a strip's count labels */
#define SVG_PANEL_W	200	/* the bins */
#define SVG_OVER_W	10	/* the "over" bin, 4 px right of them */
#define SVG_COL_W	(SVG_YLAB_W + SVG_PANEL_W + 4 + SVG_OVER_W + 20)
#define SVG_STRIP_GAP	12
#define SVG_HEAD_H	86	/* where the first strip starts */

static const char * const svg_var_colors[SL_NR_VARS] = {
	[SL_POID]	= "#4e79a7",
	[SL_PSD]	= "#59a14f",
	[SL_DST]	= "#76b7b2",
	[SL_PAIE]	= "#f28e2b",
	[SL_IRQ]	= "#e15759",
	[SL_NMI]	= "#b07aa1",
};

/* svg_count_label - a power of ten as the count axis shows it */
static void svg_count_label(char *buf, size_t len, int decade)
{
	if (decade <= 3)
		snprintf(buf, len, "%d", decade == 0 ? 1 : decade == 1 ? 10 :
			 decade == 2 ? 100 : 1000);
	else
		snprintf(buf, len, "1e%d", decade);
}

/* svg_strip - one CPU's histogram of one variable, at (@x, @y) */
static void svg_strip(struct sl_tool *tool, FILE *fp, int var, int cpu, int x, int y,
		      int sh, int decades)
{
	const struct sl_hist_pic *pic = tool->hist_pic;
	const unsigned long long *n = sl_pic_counts(pic, nr_cpus, var, cpu);
	unsigned long long span = pic->bin_ns[var] * pic->nr_bins[var];
	unsigned long long max = tool->cpu[cpu].max[var], total = 0;
	double bw = (double)SVG_PANEL_W / pic->nr_bins[var], h, mx;
	int px = x + SVG_YLAB_W, ox = px + SVG_PANEL_W + 4, bin, d, tw;
	char buf[48];

	fprintf(fp, "<g data-role=\"strip\" data-var=\"%s\" data-cpu=\"%d\" data-decades=\"%d\">\n",
		sl_var_name(var), cpu, decades);
	fprintf(fp,
		"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#cccccc\"/>\n",
		px, y, SVG_PANEL_W + 4 + SVG_OVER_W, sh);
	for (d = 0; d <= decades; d++) {
		double gy = y + sh - sh * (d + 0.5) / (decades + 0.5);

		fprintf(fp,
			"<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#e4e4e4\"/>\n",
			px, gy, ox + SVG_OVER_W, gy);
		/* 1 and the top decade, and all between when there is room */
		if (d && d != decades && sh < (decades + 1) * 14)
			continue;
		svg_count_label(buf, sizeof(buf), d);
		fprintf(fp,
			"<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"%d\">%s</text>\n",
			px - 4, gy + 3, SVG_SMALL, buf);
	}
	for (bin = 0; bin <= SL_PIC_OVER; bin++) {
		bool over = bin == SL_PIC_OVER;

		if (!n[bin] || (!over && bin >= pic->nr_bins[var]))
			continue;
		total += n[bin];
		h = sh * (svg_log10((double)n[bin]) + 0.5) / (decades + 0.5);
		if (over)
			fprintf(fp,
				"<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch)\" stroke=\"%s\"",
				ox, y + sh - h, SVG_OVER_W, h, svg_var_colors[var]);
		else
			fprintf(fp,
				"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"",
				px + bin * bw, y + sh - h, bw > 2 ? bw - 0.5 : bw, h,
				svg_var_colors[var]);
		fprintf(fp, " data-bin=\"%d\" data-count=\"%llu\"><title>CPU %d %s ",
			over ? -1 : bin, n[bin], cpu, sl_var_label(var));
		if (over)
			fprintf(fp, "over %.2f us", (double)pic->range_ns / 1000.0);
		else
			fprintf(fp, "%.2f-%.2f us", (double)(bin * pic->bin_ns[var]) / 1000.0,
				(double)((bin + 1) * pic->bin_ns[var]) / 1000.0);
		fprintf(fp, ": %llu</title></rect>\n", n[bin]);
	}

	if (!total) {
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\" fill=\"#888888\">no %s</text>\n",
			px + SVG_PANEL_W / 2, y + sh / 2 + 4, SVG_SMALL, sl_var_label(var));
		fprintf(fp, "</g>\n");
		return;
	}

	/* the exact maximum, the tail's end */
	if (max >= pic->range_ns)
		mx = ox + SVG_OVER_W / 2.0;
	else if (max >= span)
		mx = px + SVG_PANEL_W;
	else
		mx = px + (double)max * SVG_PANEL_W / (double)span;
	fprintf(fp,
		"<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#d62728\" stroke-width=\"1.5\" data-max-ns=\"%llu\"/>\n",
		mx, y, mx, y + sh, max);
	snprintf(buf, sizeof(buf), "max %.2f", (double)max / 1000.0);
	tw = svg_text_w(strlen(buf), SVG_SMALL);
	if (mx + 3 + tw <= ox + SVG_OVER_W)
		fprintf(fp,
			"<text x=\"%.2f\" y=\"%d\" font-size=\"%d\" fill=\"#d62728\">%s</text>\n",
			mx + 3, y + 11, SVG_SMALL, buf);
	else
		fprintf(fp,
			"<text x=\"%.2f\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\" fill=\"#d62728\">%s</text>\n",
			mx - 3, y + 11, SVG_SMALL, buf);
	fprintf(fp, "</g>\n");
}

/* svg_write_hist - hist's picture: a panel per variable, a strip per CPU */
static void svg_write_hist(struct sl_tool *tool, FILE *fp)
{
	static const char title[] = "Scheduling latency variables: histograms per CPU";
	const struct sl_hist_pic *pic = tool->hist_pic;
	int var, cpu, nv = 0, nc = 0, width, height, sh, x, y, i, d;
	unsigned long long maxc, step, tick, span;
	char sub[200], buf[48];

	for (var = 0; var < SL_NR_VARS; var++)
		nv += !(tool->params->hist_hidden & (1U << var));
	for (cpu = 0; cpu < nr_cpus; cpu++)
		nc += pic->cpu_shown[cpu];

	snprintf(sub, sizeof(sub),
		 "count per bin on a log axis, us on a linear one; red: the exact maximum; hatched: over the range (%.0f us)%s",
		 (double)pic->range_ns / 1000.0,
		 tool->lost_events || tool->dropped_windows ? " - NOT SOUND" : "");
	width = SVG_CPU_W + nv * SVG_COL_W + SVG_MARGIN;
	i = svg_head_w(title, sub);
	if (i > width)
		width = i;
	/* tall strips for a few CPUs, and still 40 px each with many */
	sh = nc ? 360 / nc : 140;
	sh = sh > 140 ? 140 : sh < 40 ? 40 : sh;
	height = SVG_HEAD_H + (nc ? nc : 1) * (sh + SVG_STRIP_GAP) + 24;

	svg_start(fp, width, height, title, sub);

	y = SVG_HEAD_H;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!pic->cpu_shown[cpu])
			continue;
		fprintf(fp, "<text x=\"%d\" y=\"%d\" data-role=\"cpu\">CPU %d</text>\n",
			SVG_MARGIN, y + sh / 2 + 4, cpu);
		y += sh + SVG_STRIP_GAP;
	}
	if (!nc)
		fprintf(fp, "<text x=\"%d\" y=\"%d\">no CPU measured</text>\n", SVG_MARGIN,
			SVG_HEAD_H + 20);

	x = SVG_CPU_W;
	for (var = 0; var < SL_NR_VARS; var++) {
		if (tool->params->hist_hidden & (1U << var))
			continue;
		maxc = 1;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			const unsigned long long *n = sl_pic_counts(pic, nr_cpus, var, cpu);

			for (i = 0; i <= SL_PIC_OVER && pic->cpu_shown[cpu]; i++)
				if (n[i] > maxc)
					maxc = n[i];
		}
		for (d = 1, tick = 10; tick < maxc; tick *= 10)
			d++;

		fprintf(fp, "<g data-role=\"panel\" data-var=\"%s\">\n", sl_var_name(var));
		fprintf(fp,
			"<text x=\"%d\" y=\"%d\" font-weight=\"bold\" fill=\"%s\">%s (us)</text>\n",
			x + SVG_YLAB_W, SVG_HEAD_H - 10, svg_var_colors[var], sl_var_label(var));
		y = SVG_HEAD_H;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			if (!pic->cpu_shown[cpu])
				continue;
			svg_strip(tool, fp, var, cpu, x, y, sh, d);
			y += sh + SVG_STRIP_GAP;
		}

		/* the time axis under the last strip, its ticks through all */
		span = pic->bin_ns[var] * pic->nr_bins[var];
		step = svg_step(span, 4);
		for (tick = 0; tick <= span && nc; tick += step) {
			double tx = x + SVG_YLAB_W + (double)tick * SVG_PANEL_W / span;

			fprintf(fp,
				"<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#000000\" stroke-opacity=\"0.12\"/>\n",
				tx, SVG_HEAD_H, tx, y - SVG_STRIP_GAP + 4);
			svg_us(buf, sizeof(buf), tick, step);
			fprintf(fp,
				"<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n",
				tx, y - SVG_STRIP_GAP + 16, SVG_SMALL, buf);
		}
		fprintf(fp, "</g>\n");
		x += SVG_COL_W;
	}
	fprintf(fp, "</svg>\n");
}

/* sl_write_svg - the --svg picture: hist's histograms, or the bounds */
int sl_write_svg(struct sl_tool *tool)
{
	struct sl_output *out = &tool->params->svg;
	FILE *fp;

	fp = sl_open_report(out);
	if (!fp) {
		err_msg("rtla sched-latency: cannot write %s: %s\n", out->path, strerror(errno));
		return -1;
	}
	if (tool->hist_pic)
		svg_write_hist(tool, fp);
	else
		svg_write_bounds(tool, fp);
	return sl_close_report(fp, out);
}
