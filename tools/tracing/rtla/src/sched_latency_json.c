// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the results for programs, --json.
 *
 * The document is an interface: its keys are only ever added, never
 * renamed, and SL_JSON_VERSION counts the changes of its schema (the man
 * pages' JSON OUTPUT). A pipeline files a run under what it holds: the
 * verdict, the command line, the kernel and the settings, then every
 * CPU's variables, bounds and interrupt sources.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "sched_latency_json.h"
#include "sched_latency_collect.h"
#include "sched_latency_events.h"
#include "sched_latency_instance.h"
#include "sched_latency_workload.h"

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
		fprintf(fp, ", \"count\": %llu, \"owcet_ns\": %llu",
			(unsigned long long)s->count, (unsigned long long)s->owcet);
		fprintf(fp, ", \"min_gap_ns\": %llu, \"total_ns\": %llu}",
			(unsigned long long)s->min_gap, (unsigned long long)s->total);
	}
	fprintf(fp, "]");
}

/*
 * json_terms - "terms_ns": each bound's terms, bottom up as they add up:
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
	struct sl_stop *stop = &tool->events->stop;
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
	struct sl_workload *wl = tool->wl;
	bool first = true;
	long long max_us;
	int cpu;

	if (!wl || !wl->pid) {
		fprintf(fp, "  \"workload\": null");
		return;
	}
	fprintf(fp, "  \"workload\": {\"command\": ");
	json_string(fp, wl->command ? wl->command : "");
	fprintf(fp, ", \"exit_status\": %d, \"max_latency_us\": {", sl_workload_status(tool));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		max_us = sl_workload_max_us(tool, cpu);
		if (max_us < 0)
			continue;
		fprintf(fp, "%s\"%d\": %lld", first ? "" : ", ", cpu, max_us);
		first = false;
	}
	fprintf(fp, "}}");
}

/* sl_write_json - the --json document */
int sl_write_json(struct sl_tool *tool)
{
	struct sl_output *out = &tool->params->json;
	bool first = true;
	FILE *fp;
	int cpu;

	fp = sl_report_open(out);
	if (!fp) {
		sl_err("cannot write %s: %s\n", out->path, strerror(errno));
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

	return sl_report_close(fp, out);
}
