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
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sched_latency_json.h"
#include "sched_latency_baseline.h"
#include "sched_latency_collect.h"
#include "sched_latency_events.h"
#include "sched_latency_instance.h"
#include "sched_latency_workload.h"

static_assert(SL_JSON_VERSION == SL_JSON_VERSION_READ,
	      "--baseline reads the reports this rtla writes");

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
		  sl_cpu_var_max(c, SL_IRQ), c->nmi_count, sl_cpu_var_max(c, SL_NMI), in);
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
	struct sl_stop *stop = tool->events ? &tool->events->stop : NULL;
	int i;

	if (!stop || !stop->hit) {
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

/*
 * The kernel: what the measurement depends on besides the tracer. A
 * value the kernel does not expose is null, never a guess; "*_from" says
 * where each came from.
 */

/* the config bits rtla sched-latency relies on, or which describe the run */
static const char * const sl_config_bits[] = {
	"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_LAZY", "CONFIG_PREEMPT_DYNAMIC",
	"CONFIG_PREEMPT", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE",
	"CONFIG_LATENCY_PARSER_TRACER", "CONFIG_TRACE_IRQFLAGS",
	"CONFIG_TRACE_PREEMPT_TOGGLE", "CONFIG_STACKTRACE",
};

#define SL_NR_CONFIG_BITS	ARRAY_SIZE(sl_config_bits)

struct sl_kconfig {
	char		from[80];		/* "": not readable */
	char		value[SL_NR_CONFIG_BITS][8];	/* "": not in the file */
};

/* kconfig_line - a "CONFIG_X=v" or "# CONFIG_X is not set" line */
static void kconfig_line(struct sl_kconfig *kc, const char *line)
{
	const char *name = line, *value;
	unsigned int i;
	size_t len;

	if (!strncmp(line, "# ", 2))
		name = line + 2;
	for (i = 0; i < SL_NR_CONFIG_BITS; i++) {
		len = strlen(sl_config_bits[i]);
		if (strncmp(name, sl_config_bits[i], len))
			continue;
		value = name + len;
		if (name != line && !strncmp(value, " is not set", 11))
			strcpy(kc->value[i], "n");
		else if (name == line && *value == '=')
			snprintf(kc->value[i], sizeof(kc->value[i]), "%.*s",
				 (int)strcspn(value + 1, "\n"), value + 1);
	}
}

/*
 * kconfig_read - the running kernel's config: /proc/config.gz (through
 * gzip), else /boot/config-RELEASE
 */
static void kconfig_read(struct sl_kconfig *kc, const char *release)
{
	char line[256];
	bool any = false;
	FILE *f = NULL;

	memset(kc, 0, sizeof(*kc));
	if (!access("/proc/config.gz", R_OK)) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		while (f && fgets(line, sizeof(line), f)) {
			kconfig_line(kc, line);
			any = true;
		}
		if (f && !pclose(f) && any) {
			strcpy(kc->from, "/proc/config.gz");
			return;
		}
		memset(kc, 0, sizeof(*kc));
	}
	snprintf(kc->from, sizeof(kc->from), "/boot/config-%s", release);
	f = fopen(kc->from, "r");
	if (!f) {
		memset(kc, 0, sizeof(*kc));
		return;
	}
	while (fgets(line, sizeof(line), f))
		kconfig_line(kc, line);
	fclose(f);
}

/* kconfig_get - the value of a config bit: NULL if unknown */
static const char *kconfig_get(const struct sl_kconfig *kc, const char *bit)
{
	unsigned int i;

	for (i = 0; kc->from[0] && i < SL_NR_CONFIG_BITS; i++)
		if (!strcmp(sl_config_bits[i], bit))
			return kc->value[i][0] ? kc->value[i] : "n";
	return NULL;
}

/* read_line - the first line of a file, without its newline; false if none */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = !!fgets(buf, len, f);
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* has_word - whether the words of @s include @word */
static bool has_word(const char *s, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = strstr(s, word); p; p = strstr(p + 1, word))
		if ((p == s || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return true;
	return false;
}

/* json_str_or_null - a string, or null for NULL or "" */
static void json_str_or_null(FILE *fp, const char *s)
{
	if (s && *s)
		json_string(fp, s);
	else
		fprintf(fp, "null");
}

/* json_tristate - true, false, or null (< 0) */
static const char *json_tristate(int v)
{
	return v < 0 ? "null" : v ? "true" : "false";
}

/*
 * json_kernel - the preemption model the kernel runs, whether it is
 * PREEMPT_RT, and its config bits
 *
 * The model is the one debugfs's sched/preempt marks "(model)" (a
 * PREEMPT_DYNAMIC kernel, debugfs mounted); else the preempt= of the
 * kernel command line of a PREEMPT_DYNAMIC kernel; else the config's
 * choice; else "full" if uname -v says PREEMPT (a PREEMPT_RT or
 * PREEMPT_DYNAMIC uname -v does not say the model).
 */
static void json_kernel(FILE *fp, const struct utsname *u)
{
	const char *model = NULL, *model_from = NULL, *rt_from, *v;
	char buf[256], cmdline[4096], *p, *q;
	int dynamic = -1, rt;
	struct sl_kconfig kc;
	unsigned int i;

	kconfig_read(&kc, u->release);

	if (read_line("/sys/kernel/debug/sched/preempt", buf, sizeof(buf))) {
		p = strchr(buf, '(');
		q = p ? strchr(p, ')') : NULL;
		if (q) {
			*q = '\0';
			model = p + 1;
			model_from = "debugfs";
		}
		dynamic = 1;
	}
	v = kconfig_get(&kc, "CONFIG_PREEMPT_DYNAMIC");
	if (dynamic < 0 && v)
		dynamic = !strcmp(v, "y");
	if (dynamic < 0 && has_word(u->version, "PREEMPT_DYNAMIC"))
		dynamic = 1;
	if (!model && dynamic == 1 && read_line("/proc/cmdline", cmdline, sizeof(cmdline))) {
		for (p = strstr(cmdline, "preempt="); p; p = strstr(p + 1, "preempt="))
			if (p == cmdline || p[-1] == ' ')
				break;
		if (p) {
			p += strlen("preempt=");
			p[strcspn(p, " ")] = '\0';
			model = p;
			model_from = "cmdline";
		}
	}
	if (!model && kc.from[0]) {
		static const char * const choice[][2] = {
			{ "CONFIG_PREEMPT_LAZY", "lazy" },
			{ "CONFIG_PREEMPT", "full" },
			{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
			{ "CONFIG_PREEMPT_NONE", "none" },
		};

		for (i = 0; !model && i < ARRAY_SIZE(choice); i++) {
			v = kconfig_get(&kc, choice[i][0]);
			if (v && !strcmp(v, "y")) {
				model = choice[i][1];
				model_from = "config";
			}
		}
	}
	if (!model && has_word(u->version, "PREEMPT")) {
		model = "full";
		model_from = "uname";
	}

	rt_from = "sysfs";
	if (read_line("/sys/kernel/realtime", buf, sizeof(buf))) {
		rt = !strcmp(buf, "1");
	} else {
		rt = has_word(u->version, "PREEMPT_RT");
		rt_from = "uname";
	}

	fprintf(fp, "  \"kernel\": {\"preemption\": ");
	json_str_or_null(fp, model);
	fprintf(fp, ", \"preemption_from\": ");
	json_str_or_null(fp, model_from);
	fprintf(fp, ", \"preempt_dynamic\": %s, \"realtime\": %s, \"realtime_from\": \"%s\",\n",
		json_tristate(dynamic), json_tristate(rt), rt_from);
	fprintf(fp, "    \"config_from\": ");
	json_str_or_null(fp, kc.from);
	fprintf(fp, ", \"config\": ");
	if (!kc.from[0]) {
		fprintf(fp, "null},\n");
		return;
	}
	for (i = 0; i < SL_NR_CONFIG_BITS; i++) {
		fprintf(fp, "%s\"%s\": ", i ? ", " : "{", sl_config_bits[i]);
		json_str_or_null(fp, kconfig_get(&kc, sl_config_bits[i]));
	}
	fprintf(fp, "}},\n");
}

/*
 * The files of latency_parser/ that rtla sched-latency uses: the tracer's
 * ABI 1. The kernel has no version file for the tracer; its file set is
 * what tells its interfaces apart, and "files" lists it whole.
 */
static const char * const sl_abi1_files[] = {
	"cpus", "hist", "hist_bucket_ns", "hist_buckets", "max", "stop_tracing_us",
};

/* json_tracer - whether the kernel has the tracer, its ABI and clock */
static void json_tracer(FILE *fp, struct sl_tool *tool)
{
	const char *files = tool->tracer_files;
	bool abi1 = files[0];
	unsigned int i;
	char *list;
	size_t len;

	for (i = 0; abi1 && i < ARRAY_SIZE(sl_abi1_files); i++) {
		len = strlen(sl_abi1_files[i]);
		for (list = strstr(files, sl_abi1_files[i]); list;
		     list = strstr(list + 1, sl_abi1_files[i]))
			if ((list == files || list[-1] == ',') &&
			    (!list[len] || list[len] == ','))
				break;
		abi1 = !!list;
	}

	fprintf(fp, "  \"tracer\": {\"name\": \"%s\", \"available\": %s, \"abi\": %s",
		SL_TRACER, tool->verdict == SL_EXIT_NO_TRACER ? "false" : "true",
		abi1 ? "1" : "null");
	fprintf(fp, ", \"files\": ");
	if (!files[0]) {
		fprintf(fp, "null");
	} else {
		fprintf(fp, "[\"");
		for (; *files; files++)
			fprintf(fp, *files == ',' ? "\", \"" : "%c", *files);
		fprintf(fp, "\"]");
	}
	fprintf(fp, ", \"trace_clock\": ");
	json_str_or_null(fp, tool->trace_clock);
	fprintf(fp, "},\n");
}

/* json_max_var - the --max-var limits: null, or {"var": us} */
static void json_max_var(FILE *fp, struct sched_latency_params *params)
{
	bool first = true;
	int var;

	for (var = 0; var < SL_NR_VARS; var++) {
		if (!params->max_var_us[var])
			continue;
		fprintf(fp, "%s\"%s\": %lld", first ? "{" : ", ", sl_var_name(var),
			params->max_var_us[var]);
		first = false;
	}
	fprintf(fp, "%s", first ? "null" : "}");
}

/* json_over_max_var - each variable of a CPU over its --max-var */
static void json_over_max_var(FILE *fp, struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	unsigned long long value;
	bool first = true;
	int cpu, var;

	fprintf(fp, "  \"over_max_var\": [");
	for_each_monitored_cpu(cpu, &params->common) {
		if (!tool->cpu || !tool->cpu[cpu].has_res)
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			value = sl_cpu_var_max(&tool->cpu[cpu], var);
			if (!params->max_var_us[var] || value <= params->max_var_us[var] * 1000ULL)
				continue;
			fprintf(fp,
				"%s{\"cpu\": %d, \"variable\": \"%s\", \"value_ns\": %llu, \"max_us\": %lld}",
				first ? "" : ", ", cpu, sl_var_name(var), value,
				params->max_var_us[var]);
			first = false;
		}
	}
	fprintf(fp, "],\n");
}

static const char * const sl_verdicts[] = {
	[SL_EXIT_OK]		= "passed",
	[SL_EXIT_ERROR]		= "error",
	[SL_EXIT_EXCEEDED]	= "exceeded",
	[SL_EXIT_WORKLOAD]	= "workload_failed",
	[SL_EXIT_UNSOUND]	= "unsound",
	[SL_EXIT_NO_TRACER]	= "no_tracer",
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
	json_kernel(fp, &u);
	json_tracer(fp, tool);
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
	fprintf(fp, ", \"max_var_us\": ");
	json_max_var(fp, params);
	fprintf(fp, ", \"trace_buffer_size_kb\": %d},\n", params->common.buffer_size);
	fprintf(fp, "  \"verdict\": \"%s\",\n", sl_verdicts[tool->verdict]);
	fprintf(fp, "  \"exit_status\": %d,\n", tool->verdict);
	fprintf(fp, "  \"cpus_over_max_bound\": %d,\n", tool->over_gate);
	json_over_max_var(fp, tool);
}

/*
 * json_baseline - null, or the --baseline comparison: what was compared
 * and what regressed (a value_ns of null: unbounded now)
 */
static void json_baseline(FILE *fp, struct sl_tool *tool)
{
	struct sl_baseline *bl = tool->baseline;
	struct sl_regression *r;
	unsigned int i;

	if (!bl) {
		fprintf(fp, "  \"baseline\": null,\n");
		return;
	}
	fprintf(fp, "  \"baseline\": {\"file\": ");
	json_string(fp, bl->path);
	fprintf(fp, ", \"tolerance_pct\": %lld, \"slack_ns\": %llu, \"compared\": %u",
		tool->params->tolerance_pct, SL_BASELINE_SLACK_NS, bl->compared);
	fprintf(fp, ", \"regressions\": [");
	for (i = 0; i < bl->nr_regressions; i++) {
		r = &bl->regressions[i];
		fprintf(fp, "%s{\"cpu\": %d, \"variable\": ", i ? ", " : "", r->cpu);
		json_string(fp, r->what);
		if (r->value_ns == ULLONG_MAX)
			fprintf(fp, ", \"value_ns\": null");
		else
			fprintf(fp, ", \"value_ns\": %llu", r->value_ns);
		fprintf(fp, ", \"baseline_ns\": %llu}", r->baseline_ns);
	}
	fprintf(fp, "]},\n");
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
	fprintf(fp, "  \"sound\": %s,\n", tool->verdict == SL_EXIT_NO_TRACER ? "null" :
		tool->lost_events || tool->dropped_windows ? "false" : "true");
	fprintf(fp, "  \"lost_events\": %llu,\n", tool->lost_events);
	fprintf(fp, "  \"dropped_windows\": %llu,\n", tool->dropped_windows);
	fprintf(fp, "  \"model\": \"%s\",\n", slb_model_name(tool->params->model));

	fprintf(fp, "  \"cpus\": {");
	for_each_monitored_cpu(cpu, &tool->params->common) {
		if (!tool->cpu || !tool->cpu[cpu].has_res)
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
	json_baseline(fp, tool);
	json_workload(fp, tool);
	fprintf(fp, "\n}\n");

	return sl_report_close(fp, out);
}
