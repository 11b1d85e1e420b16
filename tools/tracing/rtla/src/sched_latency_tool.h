/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, inside: what its files share.
 *
 * rtla sched-latency measures the variables of the scheduling latency bound
 * of PREEMPT_RT Linux with the kernel's latency_parser tracer, and compute
 * the bound ("Demystifying the Real-Time Linux Scheduling Latency", ECRTS
 * 2020):
 *
 *	L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)
 *
 * The top and hist modes share everything but their display: the options,
 * the trace instance, the collection loop, the workload, the final
 * breakdown and the JSON and SVG reports.
 */
#ifndef __SCHED_LATENCY_TOOL_H
#define __SCHED_LATENCY_TOOL_H

#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "trace.h"
#include "utils.h"
#include "sched_latency.h"
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
 * -n/--nano: times in ns instead of us. A time is printed with "%.*f" as
 * SL_PREC, SL_TIME(ns), then SL_UNIT.
 */
extern bool sl_nano;
#define SL_PREC			(sl_nano ? 0 : 2)
#define SL_TIME(ns)		(sl_nano ? (double)(ns) : NS_TO_US(ns))
#define SL_UNIT			(sl_nano ? "ns" : "us")

#define SL_TRACER		"latency_parser"

/* the kernel's hist geometry limits (latency-parser.rst) */
#define SL_MAX_ENTRIES		10000
#define SL_MAX_RANGE_NS		4294967295ULL
#define SL_DEFAULT_TRACE_FILE	"sched_latency_trace.txt"

/*
 * The exit status is the run's verdict (the man pages' EXIT STATUS). When
 * several hold, the first of this list after SL_EXIT_ERROR wins: a limit
 * exceeded is a fact even if the run was unsound, and an output that
 * could not be written never hides a verdict.
 */
#define SL_EXIT_OK		0	/* measured, sound, within every limit */
#define SL_EXIT_ERROR		1	/* no measurement, or an output failed */
#define SL_EXIT_EXCEEDED	2	/* -T stopped it, or over --max-bound */
#define SL_EXIT_WORKLOAD	3	/* the workload failed */
#define SL_EXIT_UNSOUND		4	/* events lost or windows dropped */

/* the version of the JSON report's schema (the man pages' JSON OUTPUT) */
#define SL_JSON_VERSION		2

/* long-only options, common to both modes */
enum sl_long_opt {
	SL_OPT_FILTER = 256,
	SL_OPT_TRIGGER,
	SL_OPT_STOP_ON,
	SL_OPT_MODEL,
	SL_OPT_JSON,
	SL_OPT_SVG,
	SL_OPT_BUFFER_SIZE,
	SL_OPT_MAX_BOUND,
	SL_OPT_WARM_UP,
	SL_OPT_ON_THRESHOLD,
	SL_OPT_ON_END,
	/* hist only */
	SL_OPT_NO_HEADER,
	SL_OPT_NO_SUMMARY,
	SL_OPT_NO_INDEX,
	SL_OPT_WITH_ZEROS,
	SL_OPT_NO_IRQ,
	SL_OPT_NO_NMI,
	SL_OPT_VARS,
	SL_OPT_NO_CPU_BREAKDOWN,
};

/*
 * The options both modes accept. "+" stops at the first non-option, so the
 * workload's own options are never taken for ours.
 */
#define SL_COMMON_SHORT_OPTIONS	"+c:d:De:hH:nP:qT:t::"

#ifndef __noreturn
#define __noreturn		__attribute__((__noreturn__))
#endif
#ifndef __printf
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x)		(sizeof(x) / sizeof((x)[0]))
#endif

/* --on-threshold and --on-end (sched_latency_actions.c) */
enum sl_action_type {
	SL_ACTION_TRACE,
	SL_ACTION_SIGNAL,
	SL_ACTION_SHELL,
};

struct sl_action {
	enum sl_action_type	type;
	const char		*file;		/* trace */
	int			signal;		/* signal */
	int			pid;		/* signal; -1: rtla's parent */
	char			*command;	/* shell */
};

#define SL_MAX_ACTIONS		8

struct sl_actions {
	int			nr;
	struct sl_action	action[SL_MAX_ACTIONS];
};

/* an output file given on the command line, opened before measuring */
struct sl_output {
	char			*path;
	int			fd;
	bool			created;	/* by us: removed if nothing is written */
};

struct sl_params {
	const char		*mode;		/* "top" or "hist" */
	char			*cpus;
	cpu_set_t		monitored_cpus;
	int			duration;	/* seconds, 0: until stopped */
	int			quiet;
	int			set_sched;
	struct sched_attr	sched_param;
	struct trace_events	*events;
	long long		threshold_us;	/* -T, 0: none */
	int			stop_on;	/* enum sl_var or SL_STOP_* */
	bool			stop_on_set;
	char			*trace_output;
	enum slb_model		model;
	long long		max_bound_us;	/* --max-bound, 0: none */
	int			warmup;		/* --warm-up seconds, 0: none */
	struct sl_actions	on_threshold;
	struct sl_actions	on_end;
	char			*house_keeping;	/* -H: where rtla itself runs */
	cpu_set_t		hk_cpus;
	/* rtla's affinity before -H or the automatic house-keeping moved it */
	cpu_set_t		orig_cpus;
	bool			has_orig_cpus;
	int			buffer_size;	/* kB, 0: the kernel's */
	struct sl_output	json;
	struct sl_output	svg;

	/* hist */
	long long		bucket_us;
	long long		entries;
	bool			no_header;
	bool			no_summary;
	bool			no_index;
	bool			with_zeros;
	unsigned int		hist_hidden;	/* 1 << var: columns left out */
	bool			no_cpu_breakdown;

	/* the workload after "--" */
	char			**workload;
};

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
	int			out_fd;		/* its stdout, -1 when closed */
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

struct sl_tool {
	struct sl_params	*params;
	struct trace_instance	trace;		/* the measuring instance */
	struct trace_instance	record;		/* -t: the instance saved on a stop */
	bool			has_record;
	char			name[64];
	char			record_name[64];

	struct slb		*slb;
	int			nr_cpus;
	struct sl_cpu		*cpu;

	struct sl_stop		stop;
	struct sl_workload	wl;

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
};

/* sched_latency.c */
__noreturn void sl_usage(const char *title, const char * const *synopsis,
			 const char *quiet, const char * const *mode_options, int err);
void sl_params_init(struct sl_params *params, const char *mode);
long long sl_parse_number(const char *opt, const char *arg,
			  long long min, long long max);
int sl_parse_common_option(struct sl_params *params, int c, char *arg,
			   int argc, char *argv[]);
void sl_parse_workload(struct sl_params *params, int argc, char *argv[]);
void sl_check_params(struct sl_params *params);
__noreturn __printf(1, 2) void sl_fail(const char *fmt, ...);
__noreturn void sl_try_help(void);
struct option *sl_long_options(const struct option *mode_options);
bool sl_cpu_monitored(struct sl_tool *tool, int cpu);

/* the worst of each value and the total of each count, over CPUs */
struct sl_totals {
	unsigned long long	max[SL_NR_VARS];	/* from the max files */
	unsigned long long	l_if;			/* no-interrupts bound */
	unsigned long long	windows;
	unsigned long long	irq_count;
	unsigned long long	irq_max;	/* max file and stream */
	unsigned long long	nmi_count;
	unsigned long long	nmi_max;	/* max file and stream */
};

void sl_system_totals(struct sl_tool *tool, bool computed, struct sl_totals *t);

int sl_tool_init(struct sl_params *params, struct sl_tool **toolp);
void sl_restore_affinity(struct sl_params *params);
int sl_run(struct sl_tool *tool, void (*periodic)(struct sl_tool *tool));
int sl_finish(struct sl_tool *tool);
void sl_tool_destroy(struct sl_tool *tool);

const char *sl_var_name(int var);
const char *sl_var_label(int var);
int sl_source_name(int source, char *buf, size_t len);
int sl_term_name(const struct slb_term *term, char *buf, size_t len);

/* sched_latency_output.c */
void sl_print_stop(struct sl_tool *tool);
void sl_print_breakdown(struct sl_tool *tool);
int sl_write_json(struct sl_tool *tool);
int sl_write_svg(struct sl_tool *tool);
void sl_symbolize_stop(struct sl_tool *tool);

/* sched_latency_setup.c */
extern sig_atomic_t sl_stop_requested;
extern sig_atomic_t sl_child_event;
extern struct tracefs_instance *sl_iterating;
void sl_close_output(struct sl_output *out, bool written);

/* sched_latency_events.c */
void sl_register_handlers(struct sl_tool *tool);
void sl_stop_tracing(struct sl_tool *tool);

/* sched_latency_collect.c */
double sl_elapsed(struct sl_tool *tool);

/* sched_latency_actions.c */
void sl_parse_action(struct sl_actions *list, const char *opt, const char *action);
bool sl_actions_want_trace(const struct sl_actions *list);
int sl_run_actions(struct sl_tool *tool, const struct sl_actions *list);

/* sched_latency_workload.c */
int sl_workload_start(struct sl_tool *tool);
void sl_workload_drain(struct sl_tool *tool, int timeout_ms);
bool sl_workload_reap(struct sl_tool *tool);
void sl_workload_stop(struct sl_tool *tool);
void sl_workload_report(struct sl_tool *tool);
void sl_workload_cleanup(struct sl_tool *tool);
bool sl_workload_failed(struct sl_tool *tool);
int sl_exit_status(int status);

#endif /* __SCHED_LATENCY_TOOL_H */
