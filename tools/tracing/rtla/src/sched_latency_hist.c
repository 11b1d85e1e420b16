// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency hist: per-cpu histograms of the variables of the
 * scheduling latency bound.
 *
 * The kernel keeps the histograms (hist/{poid,psd,dst,paie,irq,nmi} of the
 * instance), so rtla reads them once, at the end. The six files are walked
 * line by line side by side, twice: once for the summary, once to print,
 * so that memory does not depend on the number of buckets times CPUs.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_latency_mode.h"
#include "sched_latency_svg.h"

/* one hist/ file: its text, where the walk is, and its CPU columns */
struct sl_hist_file {
	char			*text;
	char			*cur;
	int			nr_cols;
	int			*col_cpu;	/* the CPU of each column */
	unsigned long long	*values;	/* the current line's counts */
	bool			over;		/* the current line is "over" */
	unsigned long long	lower;		/* the current bucket's lower bound */
};

/* the summary of one variable on one CPU */
struct sl_hist_stat {
	unsigned long long	count;
	unsigned long long	min;		/* lower bound of the first bucket used */
	double			sum;		/* of bucket midpoints, for avg */
};

struct sl_hist {
	struct sl_hist_file	file[SL_NR_VARS];
	struct sl_hist_stat	*stat;		/* [cpu * SL_NR_VARS + var] */
	bool			*shown;		/* per CPU: has a column */
};

/* sl_hist_next - the next bucket line of a file; false at the end */
static bool sl_hist_next(struct sl_hist_file *f)
{
	char *line, *p, *end;
	int i;

	while (f->cur && *f->cur) {
		line = f->cur;
		end = strchr(line, '\n');
		f->cur = end ? end + 1 : NULL;
		if (line[0] == '#')
			continue;

		f->over = !strncmp(line, "over", 4);
		p = line + (f->over ? 4 : 0);
		if (!f->over)
			f->lower = strtoull(line, &p, 10);
		for (i = 0; i < f->nr_cols; i++)
			f->values[i] = strtoull(p, &p, 10);
		return true;
	}
	return false;
}

/* sl_hist_rewind - back to the first bucket */
static void sl_hist_rewind(struct sl_hist_file *f)
{
	f->cur = f->text;
}

/* sl_hist_load - read one hist/ file and map its columns to CPUs */
static int sl_hist_load(struct sl_tool *tool, struct sl_hist_file *f, int var)
{
	char file[64], *p, *end;
	int cpu;

	snprintf(file, sizeof(file), "latency_parser/hist/%s", sl_var_name(var));
	f->text = tracefs_instance_file_read(tool->trace->inst, file, NULL);
	if (!f->text) {
		sl_err("cannot read %s/%s\n", tool->name, file);
		return -1;
	}
	f->col_cpu = calloc(nr_cpus, sizeof(*f->col_cpu));
	f->values = calloc(nr_cpus, sizeof(*f->values));
	if (!f->col_cpu || !f->values)
		return -1;

	/* the header: "# ns cpu0 cpu1 ..." */
	if (f->text[0] != '#')
		return -1;
	end = strchr(f->text, '\n');
	for (p = strstr(f->text, "cpu"); p && (!end || p < end); p = strstr(p, "cpu")) {
		cpu = strtol(p + 3, &p, 10);
		if (cpu < 0 || cpu >= nr_cpus || f->nr_cols >= nr_cpus)
			return -1;
		f->col_cpu[f->nr_cols++] = cpu;
	}
	sl_hist_rewind(f);
	return 0;
}

/* sl_hist_free - release the files and the summary */
static void sl_hist_free(struct sl_hist *h)
{
	int var;

	for (var = 0; var < SL_NR_VARS; var++) {
		free(h->file[var].text);
		free(h->file[var].col_cpu);
		free(h->file[var].values);
	}
	free(h->stat);
	free(h->shown);
}

/*
 * sl_hist_summarize - count, min and avg of every variable on every CPU
 *
 * The buckets only say a value fell in [lower, lower + bucket): min is the
 * lower bound of the first bucket used, avg counts each value at its
 * bucket's midpoint and each overflow at the end of the histogram. max is
 * the kernel's exact maximum.
 */
static void sl_hist_summarize(struct sl_tool *tool, struct sl_hist *h)
{
	unsigned long long range = tool->bucket_ns * tool->nr_buckets;
	struct sl_hist_stat *st;
	struct sl_hist_file *f;
	int var, i;

	for (var = 0; var < SL_NR_VARS; var++) {
		f = &h->file[var];
		while (sl_hist_next(f)) {
			for (i = 0; i < f->nr_cols; i++) {
				unsigned long long n = f->values[i];

				if (!n)
					continue;
				st = &h->stat[f->col_cpu[i] * SL_NR_VARS + var];
				if (!st->count)
					st->min = f->over ? range : f->lower;
				st->count += n;
				st->sum += (double)n * (f->over ? range :
					   f->lower + tool->bucket_ns / 2.0);
			}
		}
		sl_hist_rewind(f);
		for (i = 0; i < f->nr_cols; i++)
			h->shown[f->col_cpu[i]] = true;
	}
}

/* sl_hist_var_shown - a column for this variable: not left out by an option */
static bool sl_hist_var_shown(struct sl_tool *tool, int var)
{
	return !(tool->params->hist_hidden & (1U << var));
}

/* sl_hist_cpu_shown - a column for this CPU: measured, listed, not idle */
static bool sl_hist_cpu_shown(struct sl_tool *tool, struct sl_hist *h, int cpu)
{
	int var;

	if (!sl_cpu_monitored(tool, cpu) || !h->shown[cpu])
		return false;
	for (var = 0; var < SL_NR_VARS; var++)
		if (h->stat[cpu * SL_NR_VARS + var].count)
			return true;
	/* a CPU that saw nothing is offline, unless zeros were asked for */
	return tool->params->common.hist.with_zeros;
}

/*
 * sl_hist_picture - hist --svg: the histograms of the CPUs shown, in at
 * most SL_PIC_BINS bins of whole buckets per variable, up to the last
 * bucket any of them used (at least ten buckets): the tail a user hunts
 * fills the panel, not the empty end of the range. The verdict draws it.
 */
static int sl_hist_picture(struct sl_tool *tool, struct sl_hist *h)
{
	unsigned long long bucket = tool->bucket_ns ? tool->bucket_ns : 1;
	unsigned long long last, group, *n;
	struct sl_hist_pic *pic;
	struct sl_hist_file *f;
	int var, i, cpu, bin;

	if (tool->params->svg.fd < 0)
		return 0;
	pic = sl_hist_pic_alloc(nr_cpus);
	if (!pic)
		return -1;
	pic->range_ns = bucket * tool->nr_buckets;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		pic->cpu_shown[cpu] = sl_hist_cpu_shown(tool, h, cpu);

	for (var = 0; var < SL_NR_VARS; var++) {
		f = &h->file[var];
		last = 0;
		while (sl_hist_next(f)) {
			for (i = 0; i < f->nr_cols && !f->over; i++)
				if (f->values[i] && pic->cpu_shown[f->col_cpu[i]])
					last = f->lower / bucket + 1;
		}
		sl_hist_rewind(f);
		if (last < 10)
			last = tool->nr_buckets < 10 ? tool->nr_buckets : 10;
		if (!last)
			last = 1;
		group = (last + SL_PIC_BINS - 1) / SL_PIC_BINS;
		pic->bin_ns[var] = group * bucket;
		pic->nr_bins[var] = (last + group - 1) / group;

		while (sl_hist_next(f)) {
			bin = f->over ? SL_PIC_OVER : (int)(f->lower / bucket / group);
			if (bin >= pic->nr_bins[var] && bin != SL_PIC_OVER)
				continue;
			for (i = 0; i < f->nr_cols; i++) {
				cpu = f->col_cpu[i];
				if (!pic->cpu_shown[cpu])
					continue;
				n = sl_pic_counts(pic, nr_cpus, var, cpu);
				n[bin] += f->values[i];
			}
		}
		sl_hist_rewind(f);
	}
	tool->hist_pic = pic;
	return 0;
}

/* sl_hist_header - the title lines and the column names */
static void sl_hist_header(struct sl_tool *tool, struct sl_hist *h)
{
	struct sched_latency_params *params = tool->params;
	unsigned int div = params->common.output_divisor;
	struct trace_seq *s = tool->trace->seq;
	char duration[26], label[16];
	int cpu, var;

	if (params->common.hist.no_header)
		return;

	get_duration(tool->start_time, duration, sizeof(duration));
	trace_seq_printf(s, "# RTLA sched-latency histogram\n");
	trace_seq_printf(s, "# Time unit is %s (%s)\n",
			 sl_in_ns(params) ? "nanoseconds" : "microseconds", sl_unit(params));
	trace_seq_printf(s, "# Bucket size is %llu %s, %llu entries\n",
			 tool->bucket_ns / div, sl_unit(params), tool->nr_buckets);
	trace_seq_printf(s, "# min and avg are estimated from the histogram buckets;%s\n",
			 " max is exact");
	trace_seq_printf(s, "# Duration: %s\n", duration);

	if (!params->common.hist.no_index)
		trace_seq_printf(s, "%-6s", "Index");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!sl_hist_cpu_shown(tool, h, cpu))
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			if (!sl_hist_var_shown(tool, var))
				continue;
			snprintf(label, sizeof(label), "%s-%03d", sl_var_column(var), cpu);
			trace_seq_printf(s, " %9s", label);
		}
	}
	trace_seq_printf(s, "\n");
	trace_seq_do_printf(s);
	trace_seq_reset(s);
}

/*
 * sl_hist_row - the current line of every file as one output row; false
 * when the row is all zeros (then nothing is printed, unless asked)
 */
static bool sl_hist_row(struct sl_tool *tool, struct sl_hist *h, const char *index)
{
	struct trace_seq *s = tool->trace->seq;
	unsigned long long total = 0;
	int cpu, var, i;

	if (!tool->params->common.hist.no_index)
		trace_seq_printf(s, "%-6s", index);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!sl_hist_cpu_shown(tool, h, cpu))
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			struct sl_hist_file *f = &h->file[var];
			unsigned long long n = 0;

			if (!sl_hist_var_shown(tool, var))
				continue;
			for (i = 0; i < f->nr_cols; i++)
				if (f->col_cpu[i] == cpu)
					n = f->values[i];
			total += n;
			trace_seq_printf(s, " %9llu", n);
		}
	}
	trace_seq_printf(s, "\n");
	if (!total && !tool->params->common.hist.with_zeros && strcmp(index, "over:")) {
		trace_seq_reset(s);
		return false;
	}
	trace_seq_do_printf(s);
	trace_seq_reset(s);
	return true;
}

/* sl_hist_summary_row - one of count:, min:, avg:, max: */
static void sl_hist_summary_row(struct sl_tool *tool, struct sl_hist *h,
				const char *index, int which)
{
	struct sched_latency_params *params = tool->params;
	unsigned int div = params->common.output_divisor;
	struct trace_seq *s = tool->trace->seq;
	struct sl_hist_stat *st;
	int cpu, var;

	if (!params->common.hist.no_index)
		trace_seq_printf(s, "%-6s", index);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!sl_hist_cpu_shown(tool, h, cpu))
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			if (!sl_hist_var_shown(tool, var))
				continue;
			st = &h->stat[cpu * SL_NR_VARS + var];
			if (which == 0) {
				trace_seq_printf(s, " %9llu", st->count);
				continue;
			}
			if (!st->count) {
				trace_seq_printf(s, " %9s", "-");
				continue;
			}
			if (which == 1)
				trace_seq_printf(s, " %9llu", st->min / div);
			else if (which == 2)
				trace_seq_printf(s, " %9.0f", st->sum / st->count / div);
			else
				trace_seq_printf(s, " %9llu",
						 sl_round_up(params, tool->cpu[cpu].max[var]));
		}
	}
	trace_seq_printf(s, "\n");
	trace_seq_do_printf(s);
	trace_seq_reset(s);
}

/* sl_hist_print - the histogram, the over row and the summary */
static int sl_hist_print(struct sl_tool *tool)
{
	struct sched_latency_params *params = tool->params;
	struct sl_hist h;
	char index[32];
	int var, more;

	memset(&h, 0, sizeof(h));
	h.stat = calloc((size_t)nr_cpus * SL_NR_VARS, sizeof(*h.stat));
	h.shown = calloc(nr_cpus, sizeof(*h.shown));
	if (!h.stat || !h.shown)
		goto err;
	for (var = 0; var < SL_NR_VARS; var++)
		if (sl_hist_load(tool, &h.file[var], var))
			goto err;

	sl_hist_summarize(tool, &h);
	if (sl_hist_picture(tool, &h))
		goto err;
	sl_hist_header(tool, &h);

	for (;;) {
		more = 0;
		for (var = 0; var < SL_NR_VARS; var++)
			more += sl_hist_next(&h.file[var]);
		if (more < SL_NR_VARS)
			break;
		if (h.file[0].over) {
			sl_hist_row(tool, &h, "over:");
			continue;
		}
		if (params->common.quiet)
			continue;
		snprintf(index, sizeof(index), "%llu",
			 h.file[0].lower / params->common.output_divisor);
		sl_hist_row(tool, &h, index);
	}

	if (!params->common.hist.no_summary) {
		sl_hist_summary_row(tool, &h, "count:", 0);
		sl_hist_summary_row(tool, &h, "min:", 1);
		sl_hist_summary_row(tool, &h, "avg:", 2);
		sl_hist_summary_row(tool, &h, "max:", 3);
	}
	fflush(stdout);
	sl_hist_free(&h);
	return 0;
err:
	sl_err("cannot read the histograms of %s\n", tool->name);
	sl_hist_free(&h);
	return -1;
}

const struct sl_mode sl_hist_mode = {
	.name		= "hist",
	.print		= sl_hist_print,
};
