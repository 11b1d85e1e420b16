// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the comparison with an earlier run, --baseline.
 *
 * The baseline is the --json report of an earlier run (a kernel's previous
 * release). Of it, the parser keeps each CPU's variables and bounds; each
 * of them this run also measured is compared: a value regresses when it is
 * above the baseline's by more than --tolerance percent of it and by more
 * than SL_BASELINE_SLACK_NS, and a bound regresses too when it is
 * unbounded now and was not.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_baseline.h"

#define SL_JSON_MAX_DEPTH	32
#define SL_PATH_LEN		64

/* a number (or null) of the baseline, by its path: "cpus.2.bound_ns.sporadic" */
struct sl_baseline_value {
	char			path[SL_PATH_LEN];
	unsigned long long	ns;
	bool			null;
};

/* the parser's state: the text, where it is, and the first error */
struct sl_parser {
	const char		*text;
	const char		*p;
	struct sl_baseline	*bl;
	unsigned int		alloc;
	long long		version;
	char			*err;
	size_t			len;
};

static int parse_value(struct sl_parser *ps, char *path, int depth);

/* parse_error - keep the first error, with where it is */
static int parse_error(struct sl_parser *ps, const char *what)
{
	if (!ps->err[0])
		snprintf(ps->err, ps->len, "%s at byte %ld", what, (long)(ps->p - ps->text));
	return -1;
}

static void skip_space(struct sl_parser *ps)
{
	while (*ps->p && isspace((unsigned char)*ps->p))
		ps->p++;
}

/* parse_string - a string into @buf, cut to @len (escapes kept as one byte) */
static int parse_string(struct sl_parser *ps, char *buf, size_t len)
{
	size_t n = 0;

	if (*ps->p != '"')
		return parse_error(ps, "a string expected");
	for (ps->p++; *ps->p != '"'; ps->p++) {
		if (!*ps->p || (unsigned char)*ps->p < 0x20)
			return parse_error(ps, "an unterminated string");
		if (*ps->p == '\\') {
			ps->p++;
			if (*ps->p == 'u') {
				if (strspn(ps->p + 1, "0123456789abcdefABCDEF") < 4)
					return parse_error(ps, "a bad \\u escape");
				ps->p += 4;
			} else if (!*ps->p || !strchr("\"\\/bfnrt", *ps->p)) {
				return parse_error(ps, "a bad escape");
			}
		}
		if (n + 1 < len)
			buf[n++] = *ps->p;
	}
	ps->p++;
	if (len)
		buf[n] = '\0';
	return 0;
}

/* keep_value - a number or null under "cpus.", or the version */
static int keep_value(struct sl_parser *ps, const char *path, unsigned long long ns,
		      bool null)
{
	struct sl_baseline *bl = ps->bl;
	struct sl_baseline_value *v;

	if (strncmp(path, "cpus.", 5))
		return 0;
	if (bl->nr_values == ps->alloc) {
		ps->alloc = ps->alloc ? 2 * ps->alloc : 256;
		v = realloc(bl->values, ps->alloc * sizeof(*v));
		if (!v)
			return parse_error(ps, "out of memory");
		bl->values = v;
	}
	v = &bl->values[bl->nr_values++];
	snprintf(v->path, sizeof(v->path), "%s", path);
	v->ns = ns;
	v->null = null;
	return 0;
}

/* parse_number - a JSON number; only whole ones >= 0 are kept */
static int parse_number(struct sl_parser *ps, const char *path)
{
	const char *start = ps->p;
	unsigned long long ns;
	bool whole;
	char *end;

	errno = 0;
	strtod(start, &end);
	if (end == start || errno)
		return parse_error(ps, "a bad number");
	whole = strspn(start, "0123456789") == (size_t)(end - start);
	ps->p = end;
	if (!whole)
		return 0;
	ns = strtoull(start, NULL, 10);
	if (!strcmp(path, "version"))
		ps->version = ns > LLONG_MAX ? LLONG_MAX : (long long)ns;
	return keep_value(ps, path, ns, false);
}

/* parse_members - an object's members, each under path.key */
static int parse_members(struct sl_parser *ps, char *path, int depth)
{
	size_t plen = strlen(path);
	char key[SL_PATH_LEN];

	ps->p++;
	skip_space(ps);
	if (*ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		skip_space(ps);
		if (parse_string(ps, key, sizeof(key)))
			return -1;
		skip_space(ps);
		if (*ps->p != ':')
			return parse_error(ps, "a ':' expected");
		ps->p++;
		snprintf(path + plen, SL_PATH_LEN - plen, "%s%s", plen ? "." : "", key);
		if (parse_value(ps, path, depth + 1))
			return -1;
		path[plen] = '\0';
		skip_space(ps);
		if (*ps->p == '}') {
			ps->p++;
			return 0;
		}
		if (*ps->p != ',')
			return parse_error(ps, "a ',' or '}' expected");
		ps->p++;
	}
}

/* parse_elements - an array's elements, whose values are not kept */
static int parse_elements(struct sl_parser *ps, int depth)
{
	char none[SL_PATH_LEN] = "[]";

	ps->p++;
	skip_space(ps);
	if (*ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (parse_value(ps, none, depth + 1))
			return -1;
		skip_space(ps);
		if (*ps->p == ']') {
			ps->p++;
			return 0;
		}
		if (*ps->p != ',')
			return parse_error(ps, "a ',' or ']' expected");
		ps->p++;
	}
}

/* parse_value - any JSON value under @path (SL_PATH_LEN long) */
static int parse_value(struct sl_parser *ps, char *path, int depth)
{
	char skip[1];

	if (depth > SL_JSON_MAX_DEPTH)
		return parse_error(ps, "nested too deep");
	skip_space(ps);
	switch (*ps->p) {
	case '{':
		return parse_members(ps, path, depth);
	case '[':
		return parse_elements(ps, depth);
	case '"':
		return parse_string(ps, skip, 0);
	case 't':
		if (strncmp(ps->p, "true", 4))
			break;
		ps->p += 4;
		return 0;
	case 'f':
		if (strncmp(ps->p, "false", 5))
			break;
		ps->p += 5;
		return 0;
	case 'n':
		if (strncmp(ps->p, "null", 4))
			break;
		ps->p += 4;
		return keep_value(ps, path, 0, true);
	default:
		if (*ps->p == '-' || isdigit((unsigned char)*ps->p))
			return parse_number(ps, path);
	}
	return parse_error(ps, "a JSON value expected");
}

/*
 * sl_baseline_parse - the values of a --json report, or NULL with the
 * reason in @err: not JSON, not a report of a version this rtla reads,
 * or one without a CPU measured
 */
struct sl_baseline *sl_baseline_parse(const char *text, char *err, size_t len)
{
	char path[SL_PATH_LEN] = "";
	struct sl_parser ps = {
		.text = text, .p = text, .version = -1, .err = err, .len = len,
	};

	err[0] = '\0';
	ps.bl = calloc(1, sizeof(*ps.bl));
	if (!ps.bl) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	skip_space(&ps);
	if (*ps.p != '{') {
		parse_error(&ps, "not a JSON object");
		goto fail;
	}
	if (parse_value(&ps, path, 0))
		goto fail;
	skip_space(&ps);
	if (*ps.p) {
		parse_error(&ps, "text after the JSON object");
		goto fail;
	}
	if (ps.version < 2 || ps.version > SL_JSON_VERSION_READ) {
		snprintf(err, len, "not an rtla sched-latency --json report of version 2 to %d",
			 SL_JSON_VERSION_READ);
		goto fail;
	}
	if (!ps.bl->nr_values) {
		snprintf(err, len, "no cpu was measured in it");
		goto fail;
	}
	return ps.bl;
fail:
	sl_baseline_free(ps.bl);
	return NULL;
}

/* sl_baseline_load - --baseline FILE, or exit 1 saying why it cannot be used */
struct sl_baseline *sl_baseline_load(const char *path)
{
	struct sl_baseline *bl;
	char err[160], *text;
	size_t n, size = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		sl_fatal("cannot read the --baseline file %s: %s", path, strerror(errno));
	text = NULL;
	do {
		char *more = realloc(text, size + 65536 + 1);

		if (!more)
			sl_fatal("out of memory reading %s", path);
		text = more;
		n = fread(text + size, 1, 65536, f);
		size += n;
	} while (n == 65536);
	if (ferror(f))
		sl_fatal("cannot read the --baseline file %s: %s", path, strerror(errno));
	fclose(f);
	text[size] = '\0';
	if (strlen(text) != size)
		sl_fatal("the --baseline file %s is not text", path);

	bl = sl_baseline_parse(text, err, sizeof(err));
	free(text);
	if (!bl)
		sl_fatal("the --baseline file %s cannot be used: %s", path, err);
	bl->path = path;
	return bl;
}

/* baseline_find - the baseline's value at @path; NULL if it has none */
static const struct sl_baseline_value *baseline_find(const struct sl_baseline *bl,
						     const char *path)
{
	unsigned int i;

	for (i = 0; i < bl->nr_values; i++)
		if (!strcmp(bl->values[i].path, path))
			return &bl->values[i];
	return NULL;
}

/* sl_regressed - whether @value is above @base beyond the tolerance */
static bool sl_regressed(unsigned long long value, unsigned long long base, long long pct)
{
	if (value <= base || value - base <= SL_BASELINE_SLACK_NS)
		return false;
	return (value - base) * 100.0 > (double)base * pct;
}

/* baseline_check - compare one value; ULLONG_MAX is unbounded */
static void baseline_check(struct sl_tool *tool, int cpu, const char *path,
			   const char *what, unsigned long long value)
{
	struct sl_baseline *bl = tool->baseline;
	const struct sl_baseline_value *v = baseline_find(bl, path);
	struct sl_regression *r;
	bool regressed;

	if (!v)
		return;
	if (v->null) {
		/* unbounded before: nothing to be worse than */
		bl->compared++;
		return;
	}
	bl->compared++;
	if (value == ULLONG_MAX)
		regressed = true;
	else
		regressed = sl_regressed(value, v->ns, tool->params->tolerance_pct);
	if (!regressed)
		return;
	r = realloc(bl->regressions, (bl->nr_regressions + 1) * sizeof(*r));
	if (!r) {
		sl_err("out of memory\n");
		return;
	}
	bl->regressions = r;
	r = &r[bl->nr_regressions++];
	r->cpu = cpu;
	snprintf(r->what, sizeof(r->what), "%s", what);
	r->value_ns = value;
	r->baseline_ns = v->ns;
}

/*
 * sl_baseline_compare - every CPU's variables and bounds against the
 * baseline's same CPU; returns how many regressed
 */
unsigned int sl_baseline_compare(struct sl_tool *tool)
{
	struct sl_baseline *bl = tool->baseline;
	char path[SL_PATH_LEN], what[40];
	const struct slb_bound *b;
	struct sl_cpu *c;
	int cpu, var, m;

	if (!bl)
		return 0;
	free(bl->regressions);
	bl->regressions = NULL;
	bl->nr_regressions = 0;
	bl->compared = 0;
	for_each_monitored_cpu(cpu, &tool->params->common) {
		c = &tool->cpu[cpu];
		if (!c->has_res)
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			/* "poid_ns", and the interrupts' "irq": {"max_ns"} */
			snprintf(path, sizeof(path), "cpus.%d.%s%s", cpu, sl_var_name(var),
				 var == SL_IRQ || var == SL_NMI ? ".max_ns" : "_ns");
			baseline_check(tool, cpu, path, sl_var_name(var), sl_cpu_var_max(c, var));
		}
		for (m = 0; m < SLB_NR_MODELS; m++) {
			b = &c->res.bound[m];
			snprintf(path, sizeof(path), "cpus.%d.bound_ns.%s", cpu, slb_model_name(m));
			snprintf(what, sizeof(what), "bound.%s", slb_model_name(m));
			baseline_check(tool, cpu, path, what,
				       b->unbounded ? ULLONG_MAX : (unsigned long long)b->latency);
		}
	}
	return bl->nr_regressions;
}

/* sl_baseline_print - what regressed, and by how much */
void sl_baseline_print(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	struct sl_baseline *bl = tool->baseline;
	int prec = sl_prec(params);
	struct sl_regression *r;
	unsigned int i;

	if (!bl)
		return;
	for (i = 0; i < bl->nr_regressions; i++) {
		r = &bl->regressions[i];
		if (r->value_ns == ULLONG_MAX) {
			printf("REGRESSED: cpu %d: %s is unbounded, was %.*f %s\n", r->cpu,
			       r->what, prec, sl_time(params, r->baseline_ns), sl_unit(params));
			continue;
		}
		printf("REGRESSED: cpu %d: %s %.*f %s, was %.*f %s: +%.*f %s (+%.1f%%)\n",
		       r->cpu, r->what, prec, sl_time(params, r->value_ns), sl_unit(params),
		       prec, sl_time(params, r->baseline_ns), sl_unit(params), prec,
		       sl_time(params, r->value_ns - r->baseline_ns), sl_unit(params),
		       r->baseline_ns ? 100.0 * (r->value_ns - r->baseline_ns) / r->baseline_ns :
		       100.0);
	}
	printf("%s: %u of %u values above --baseline %s by more than %lld%% and %llu ns\n",
	       bl->nr_regressions ? "REGRESSED" : "Within the baseline", bl->nr_regressions,
	       bl->compared, bl->path, params->tolerance_pct, SL_BASELINE_SLACK_NS);
}

void sl_baseline_free(struct sl_baseline *bl)
{
	if (!bl)
		return;
	free(bl->values);
	free(bl->regressions);
	free(bl);
}
