/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the core: the model's variables and their names,
 * the exit statuses, the parameters, and what every module knows of a run
 * and of its CPUs. Every file of the tool but the bound engine builds on
 * it; it calls nothing above it.
 *
 * rtla sched-latency measures the variables of the scheduling latency
 * bound of PREEMPT_RT Linux with the kernel's latency_parser tracer and
 * computes the bound ("Demystifying the Real-Time Linux Scheduling
 * Latency", ECRTS 2020):
 *
 *	L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)
 */
#ifndef __SCHED_LATENCY_CORE_H
#define __SCHED_LATENCY_CORE_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "common.h"
#include "sched_latency_bound.h"

/*
 * The variables the tracer measures, in the order of its "max" columns and
 * of its hist/ files: the four windows of the thread context, numbered as
 * the bound engine's thread variables, then the IRQ and NMI executions.
 */
enum sl_var {
	SL_POID		= SLB_POID,
	SL_PSD		= SLB_PSD,
	SL_DST		= SLB_ST,
	SL_PAIE		= SLB_PAIE,
	SL_IRQ		= SLB_NR_VARS,
	SL_NMI,
	SL_NR_VARS,
};

#define SL_NR_WINDOWS		SL_IRQ

/* what -T stops on: a variable (enum sl_var), or one of these */
#define SL_STOP_BOUND		SL_NR_VARS	/* the computed bound, by rtla */
#define SL_STOP_ANY		(SL_NR_VARS + 1) /* any variable, by the kernel */

/* the source id of an x86 vector in the bound engine; IRQ numbers are as is */
#define SL_VECTOR_BASE		0x1000000

#define SL_TRACER		"latency_parser"

/* the tool's messages: rtla's err_msg() and fatal(), the tool named first */
#define sl_err(fmt, ...)	err_msg("rtla sched-latency: " fmt, ##__VA_ARGS__)
#define sl_fatal(fmt, ...)	fatal("rtla sched-latency: " fmt, ##__VA_ARGS__)

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif

#define SL_DEFAULT_TRACE_FILE	"sched_latency_trace.txt"

/* --baseline's --tolerance, in percent of the baseline's value */
#define SL_DEFAULT_TOLERANCE_PCT	10

/* the tracer's limits (latency-parser.rst): a time, the hist buckets */
#define SL_MAX_RANGE_NS		4294967295ULL
#define SL_MAX_ENTRIES		10000
#define SL_DEFAULT_ENTRIES	1000

/*
 * The exit status is the run's verdict (the man pages' EXIT STATUS). When
 * several hold, the first of this list after SL_EXIT_ERROR wins: a limit
 * exceeded is a fact even if the run was unsound, and an output that
 * could not be written never hides a verdict.
 */
/* 0, 1 and 2 are rtla's own (enum result), 3 to 5 sched-latency's */
#define SL_EXIT_OK		PASSED	/* measured, sound, within every limit */
#define SL_EXIT_ERROR		ERROR	/* no measurement, or an output failed */
#define SL_EXIT_EXCEEDED	FAILED	/* -T, --max-bound, --max-var or --baseline */
#define SL_EXIT_WORKLOAD	(FAILED + 1)	/* the workload failed */
#define SL_EXIT_UNSOUND		(FAILED + 2)	/* events lost or windows dropped */
#define SL_EXIT_NO_TRACER	(FAILED + 3)	/* the kernel has no latency_parser */

/* an output file given on the command line, opened before measuring */
struct sl_output {
	const char		*path;
	int			fd;
	bool			created;	/* by us: removed if nothing is written */
};

/*
 * sched_latency_params - the command line. What every rtla tool has is in
 * common (-c, -H, -d, -e, -n as output_divisor, -P, -q, -T as stop_us, the
 * hist geometry, the actions); the rest is sched-latency's own.
 */
struct sched_latency_params {
	struct common_params	common;
	const char		*mode;		/* "top" or "hist" */
	int			stop_on;	/* enum sl_var or SL_STOP_* */
	bool			stop_on_set;
	char			*trace_output;	/* -t */
	enum slb_model		model;
	long long		max_bound_us;	/* --max-bound, 0: none */
	long long		max_var_us[SL_NR_VARS];	/* --max-var, 0: none */
	const char		*baseline_path;	/* --baseline */
	long long		tolerance_pct;	/* --tolerance, -1: not given */
	/* rtla's affinity before -H or the automatic house-keeping moved it */
	cpu_set_t		orig_cpus;
	bool			has_orig_cpus;
	struct sl_output	json;
	struct sl_output	svg;
	unsigned int		hist_hidden;	/* 1 << var: columns left out */
	bool			no_nmi;
	bool			no_cpu_breakdown;
	/* the workload after "--" */
	char			**workload;
};

#define to_sl_params(p)		container_of(p, struct sched_latency_params, common)

/* what is known of one CPU */
struct sl_cpu {
	/* from the instance's max file */
	unsigned long long	max[SL_NR_VARS];
	unsigned long long	windows;
	unsigned long long	dropped;
	bool			seen;		/* listed in the max file */

	/* from the stream of interrupt executions */
	unsigned long long	irq_count;
	unsigned long long	irq_max;
	unsigned long long	nmi_count;
	unsigned long long	nmi_max;

	/* ring buffer events lost on this CPU (overruns and drops) */
	unsigned long long	lost;

	/* the bound under every characterization, after sl_compute() */
	struct slb_result	res;
	bool			has_res;
};

/* the state of the modules above, declared in their headers */
struct sl_events;
struct sl_workload;
struct sl_hist_pic;
struct sl_baseline;

/*
 * sl_tool - the state of a run, the data of rtla's struct osnoise_tool,
 * whose trace instances it points to
 */
struct sl_tool {
	struct sched_latency_params *params;
	struct trace_instance	*trace;		/* the measuring instance */
	struct trace_instance	*record;	/* -t: the instance saved; NULL: none */
	char			name[64];

	struct slb		*slb;
	struct sl_cpu		*cpu;

	/* the stop, and what the event handlers keep of each CPU */
	struct sl_events	*events;
	/* the command after "--"; NULL: none was started */
	struct sl_workload	*wl;

	/* the stops --on-threshold continue measured on */
	unsigned int		threshold_hits;

	/* the measurement is over: what is printed now is the end */
	bool			ended;

	/* the verdict: SL_EXIT_*, the CPUs over --max-bound and --max-var */
	int			verdict;
	int			over_gate;
	int			over_var;

	/* the instance's trace clock and the tracer's files ("" : unknown) */
	char			trace_clock[32];
	char			tracer_files[512];

	/* --baseline: the earlier run; NULL: none */
	struct sl_baseline	*baseline;

	time_t			start_time;
	struct timespec		start_ts;
	double			duration_s;
	unsigned long long	lost_events;
	unsigned long long	dropped_windows;

	/* the system: the worst CPU under each characterization */
	struct slb_bound	*system[SLB_NR_MODELS];

	/* hist geometry, as the kernel took it */
	unsigned long long	bucket_ns;
	unsigned long long	nr_buckets;

	/* hist --svg: the histograms to draw; NULL: the bounds are drawn */
	struct sl_hist_pic	*hist_pic;
};

/* sched_latency_core.c */
void sl_params_init(struct sched_latency_params *params, const char *mode);
const char *sl_var_name(int var);
const char *sl_var_label(int var);
const char *sl_var_column(int var);
int sl_var_by_name(const char *name, int last);
int sl_model_by_name(const char *name);
int sl_source_name(int source, char *buf, size_t len);
char *sl_irq_line_name(char *line, int ncpus, int *irq);
int sl_term_name(const struct slb_term *term, char *buf, size_t len);

/* sl_cpu_monitored - whether -c lets the tool measure @cpu */
static inline bool sl_cpu_monitored(const struct sl_tool *tool, int cpu)
{
	const struct common_params *common = &tool->params->common;

	return !common->cpus || CPU_ISSET(cpu, &common->monitored_cpus);
}

/*
 * sl_cpu_var_max - the largest @var of a CPU: for IRQ and NMI, the worst
 * of the max file and of the executions streamed
 */
static inline unsigned long long sl_cpu_var_max(const struct sl_cpu *c, int var)
{
	if (var == SL_IRQ && c->irq_max > c->max[SL_IRQ])
		return c->irq_max;
	if (var == SL_NMI && c->nmi_max > c->max[SL_NMI])
		return c->nmi_max;
	return c->max[var];
}

/*
 * Times are shown in rtla's unit: ns with -n (an output_divisor of 1),
 * else us. A time of the text reports is printed with printf("%.*f %s",
 * sl_prec(p), sl_time(p, ns), sl_unit(p)): us with two decimals, rounded
 * up, so that a bound is never shown below its value.
 */
static inline bool sl_in_ns(const struct sched_latency_params *params)
{
	return params->common.output_divisor == 1;
}

static inline int sl_prec(const struct sched_latency_params *params)
{
	return sl_in_ns(params) ? 0 : 2;
}

static inline double sl_time(const struct sched_latency_params *params,
			     unsigned long long ns)
{
	if (sl_in_ns(params))
		return (double)ns;
	return (double)((ns + 9) / 10) / 100.0;
}

static inline const char *sl_unit(const struct sched_latency_params *params)
{
	return sl_in_ns(params) ? "ns" : "us";
}

/* sl_round_up - a time in whole units, rounded up, for top's and hist's columns */
static inline unsigned long long sl_round_up(const struct sched_latency_params *params,
					     unsigned long long ns)
{
	unsigned long long div = params->common.output_divisor;

	return (ns + div - 1) / div;
}

#endif /* __SCHED_LATENCY_CORE_H */
