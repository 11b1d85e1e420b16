/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the core: the model's variables and their names,
 * the exit statuses, the parameters and the state of a run. Every file of
 * the tool but the bound engine builds on it; it calls nothing above it.
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
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "common.h"
#include "sched_latency_bound.h"

/*
 * The variables the tracer measures, in the order of its "max" columns and
 * of its hist/ files: four windows of the thread context, then the IRQ and
 * NMI executions.
 */
enum sl_var {
	SL_POID = 0,
	SL_PSD,
	SL_DST,
	SL_PAIE,
	SL_IRQ,
	SL_NMI,
	SL_NR_VARS,
};

#define SL_NR_WINDOWS		SL_IRQ

/* what -T stops on: a variable (enum sl_var), or one of these */
#define SL_STOP_BOUND		SL_NR_VARS	/* the computed bound, by rtla */
#define SL_STOP_ANY		(SL_NR_VARS + 1) /* any variable, by the kernel */

/* the source id of an x86 vector in the bound engine; IRQ numbers are as is */
#define SL_VECTOR_BASE		0x1000000

/* frames kept of a stack trace (the kernel records at most 8 per entry) */
#define SL_STACK_MAX		64
/* a resolved frame: symbol+0xoffset [module] */
#define SL_SYM_LEN		256

/* whole us, rounded up: a bound is never shown below its value */
#define SL_US_UP(ns)		(((unsigned long long)(ns) + 999) / 1000)
/* us with two decimals, rounded up */
#define NS_TO_US(ns)		((double)(((unsigned long long)(ns) + 9) / 10) / 100.0)

/*
 * -n/--nano: times in ns instead of us (rtla's output_divisor of 1). A
 * time is printed with "%.*f" as SL_PREC, SL_TIME(ns), then SL_UNIT.
 */
extern bool sl_nano;
#define SL_PREC			(sl_nano ? 0 : 2)
#define SL_TIME(ns)		(sl_nano ? (double)(ns) : NS_TO_US(ns))
#define SL_UNIT			(sl_nano ? "ns" : "us")

#define SL_TRACER		"latency_parser"

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif

/* the kernel's hist geometry limits (latency-parser.rst) */
#define SL_MAX_ENTRIES		10000
#define SL_MAX_RANGE_NS		4294967295ULL
#define SL_DEFAULT_TRACE_FILE	"sched_latency_trace.txt"
#define SL_DEFAULT_ENTRIES	1000

/*
 * The exit status is the run's verdict (the man pages' EXIT STATUS). When
 * several hold, the first of this list after SL_EXIT_ERROR wins: a limit
 * exceeded is a fact even if the run was unsound, and an output that
 * could not be written never hides a verdict.
 */
/* 0, 1 and 2 are rtla's own (enum result), 3 and 4 sched-latency's */
#define SL_EXIT_OK		PASSED	/* measured, sound, within every limit */
#define SL_EXIT_ERROR		ERROR	/* no measurement, or an output failed */
#define SL_EXIT_EXCEEDED	FAILED	/* -T stopped it, or over --max-bound */
#define SL_EXIT_WORKLOAD	(FAILED + 1)	/* the workload failed */
#define SL_EXIT_UNSOUND		(FAILED + 2)	/* events lost or windows dropped */

/* the version of the JSON report's schema (the man pages' JSON OUTPUT) */
#define SL_JSON_VERSION		2

/* an output file given on the command line, opened before measuring */
struct sl_output {
	const char		*path;
	int			fd;
	bool			created;	/* by us: removed if nothing is written */
};

/*
 * sched_latency_params - the command line. What every rtla tool has is in
 * common (-c, -H, -d, -e, -P, -q, -T as stop_us, the hist geometry, the
 * actions); the rest is sched-latency's own.
 */
struct sched_latency_params {
	struct common_params	common;
	const char		*mode;		/* "top" or "hist" */
	int			stop_on;	/* enum sl_var or SL_STOP_* */
	bool			stop_on_set;
	char			*trace_output;	/* -t */
	enum slb_model		model;
	long long		max_bound_us;	/* --max-bound, 0: none */
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

/* the frames of one kernel stack trace */
struct sl_stack {
	int			nr;
	unsigned long long	ip[SL_STACK_MAX];
};

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

	/* a max or stop event waiting for the stack trace that follows it */
	int			pending_var;	/* -1: none */
	bool			pending_stop;
	/* the stack of the latest new maximum of each window variable */
	struct sl_stack		stack[SL_NR_VARS];

	/* the workload's own measurement (cyclictest), -1: none */
	long long		workload_max_us;

	/* the bound under every characterization, after sl_compute() */
	struct slb_result	res;
	bool			has_res;
};

/* why and where the measurement stopped on the threshold */
struct sl_stop {
	bool			hit;
	int			cpu;
	int			var;		/* enum sl_var or SL_STOP_BOUND */
	unsigned long long	value;		/* ns */
	unsigned long long	start;		/* ns, trace clock */
	unsigned long long	ip;
	bool			has_stack;
	struct sl_stack		stack;
	/* the names of ip and of the frames, by sl_symbolize_stop() */
	char			where[SL_SYM_LEN];
	char			frame[SL_STACK_MAX][SL_SYM_LEN];
};

struct sl_workload {
	pid_t			pid;		/* 0: none */
	bool			running;
	bool			ended;		/* by itself, before rtla stopped it */
	int			status;		/* waitpid() status */
	FILE			*out;		/* its stdout, kept for the end */
	char			*command;	/* for display and JSON */
	/*
	 * cyclictest's threads and CPUs, as it pins them: with -a LIST (or
	 * -a, -S: rtla's own affinity), thread N runs on the (N mod count)th
	 * CPU of the set; without, threads float and belong to no CPU.
	 */
	bool			pinned;
	cpu_set_t		thread_cpus;
};

/*
 * hist --svg: the kernel's histograms in at most SL_PIC_BINS bins per
 * variable, each of whole buckets, up to the last bucket any CPU shown
 * used; bin SL_PIC_OVER counts what fell over the histogram's range
 */
#define SL_PIC_BINS		100
#define SL_PIC_OVER		SL_PIC_BINS

struct sl_hist_pic {
	unsigned long long	bin_ns[SL_NR_VARS];
	int			nr_bins[SL_NR_VARS];
	unsigned long long	range_ns;	/* bucket size times entries */
	bool			*cpu_shown;	/* [cpu]: a column in hist's output */
	/* [(var * nr_cpus + cpu) * (SL_PIC_BINS + 1) + bin] */
	unsigned long long	*count;
};

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

	struct sl_stop		stop;
	struct sl_workload	wl;

	/* the stops --on-threshold continue measured on */
	unsigned int		threshold_hits;

	/* the measurement is over: what is printed now is the end */
	bool			ended;

	/* the verdict: SL_EXIT_*, and the CPUs over --max-bound */
	int			verdict;
	int			over_gate;

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
int sl_term_name(const struct slb_term *term, char *buf, size_t len);
int sl_exit_status(int status);
struct sl_hist_pic *sl_hist_pic_alloc(int nr_cpus);
void sl_hist_pic_free(struct sl_hist_pic *pic);

/* sl_pic_counts - the bins of @var on @cpu, SL_PIC_OVER the last */
static inline unsigned long long *sl_pic_counts(const struct sl_hist_pic *pic,
						int nr_cpus, int var, int cpu)
{
	return pic->count + ((size_t)var * nr_cpus + cpu) * (SL_PIC_BINS + 1);
}

/* sl_cpu_monitored - whether -c lets the tool measure @cpu */
static inline bool sl_cpu_monitored(const struct sl_tool *tool, int cpu)
{
	const struct common_params *common = &tool->params->common;

	return !common->cpus || CPU_ISSET(cpu, &common->monitored_cpus);
}

#endif /* __SCHED_LATENCY_CORE_H */
