// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the command line both modes share, and the names
 * of what they show (variables, interrupt sources).
 *
 * A run goes: the command line (here), the system and the instances
 * (sched_latency_setup.c), the events that stream into the bound engine
 * (sched_latency_events.c), the collection loop (sched_latency_collect.c),
 * and the verdict with the reports (sched_latency_verdict.c,
 * sched_latency_output.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched_latency_tool.h"

/* -n: times in nanoseconds */
bool sl_nano;

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif

/* sched_latency_usage - print the usage of rtla sched-latency */
static void sched_latency_usage(int err)
{
	int i;

	static const char * const msg[] = {
		"",
		"  usage: rtla sched-latency MODE [OPTIONS] [-- workload [args...]]",
		"",
		"  modes:",
		"     top  - a per-cpu table of the variables of the scheduling latency bound and of the bound",
		"     hist - per-cpu histograms of the variables of the scheduling latency bound",
		"",
		"  For the options of a mode, run: rtla sched-latency MODE --help",
		"",
		NULL,
	};

	fprintf(stderr, "rtla sched-latency: bounds the scheduling latency of each cpu (version %s)\n",
		VERSION);
	for (i = 0; msg[i]; i++)
		fprintf(stderr, "%s\n", msg[i]);
	exit(err);
}

/*
 * sched_latency_main - dispatch to a mode. As rtla timerlat and osnoise,
 * no mode (nothing, or an option first) runs top.
 */
int sched_latency_main(int argc, char *argv[])
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		sched_latency_usage(SL_EXIT_OK);

	if (argc < 2 || argv[1][0] == '-')
		return sched_latency_top_main(argc, argv);

	if (!strcmp(argv[1], "top"))
		return sched_latency_top_main(argc - 1, &argv[1]);
	if (!strcmp(argv[1], "hist"))
		return sched_latency_hist_main(argc - 1, &argv[1]);

	fprintf(stderr, "rtla sched-latency: unknown mode '%s'\n", argv[1]);
	sched_latency_usage(SL_EXIT_ERROR);
	return SL_EXIT_ERROR;
}

/*
 * Names.
 */

static const char * const sl_var_names[SL_NR_VARS + 2] = {
	[SL_POID]	= "poid",
	[SL_PSD]	= "psd",
	[SL_DST]	= "dst",
	[SL_PAIE]	= "paie",
	[SL_IRQ]	= "irq",
	[SL_NMI]	= "nmi",
	[SL_STOP_BOUND]	= "bound",
	[SL_STOP_ANY]	= "any",
};

static const char * const sl_var_labels[SL_NR_VARS + 2] = {
	[SL_POID]	= "D_POID",
	[SL_PSD]	= "D_PSD",
	[SL_DST]	= "D_ST",
	[SL_PAIE]	= "D_PAIE",
	[SL_IRQ]	= "IRQ",
	[SL_NMI]	= "NMI",
	[SL_STOP_BOUND]	= "bound",
	[SL_STOP_ANY]	= "any",
};

/* sl_var_name - the name of a variable, as the tracer and --stop-on spell it */
const char *sl_var_name(int var)
{
	if (var < 0 || var > SL_STOP_ANY)
		return "unknown";
	return sl_var_names[var];
}

/* sl_var_label - the name of a variable as the paper writes it */
const char *sl_var_label(int var)
{
	if (var < 0 || var > SL_STOP_ANY)
		return "unknown";
	return sl_var_labels[var];
}

/* The x86 system vectors the tracer times, by the names of their events */
static const struct {
	int vector;
	const char *name;
} sl_vector_names[] = {
	{ 0xec, "local_timer" },
	{ 0xf4, "deferred_error" },
	{ 0xf6, "irq_work" },
	{ 0xf7, "x86_platform_ipi" },
	{ 0xf9, "threshold_apic" },
	{ 0xfa, "thermal_apic" },
	{ 0xfb, "call_function_single" },
	{ 0xfc, "call_function" },
	{ 0xfd, "reschedule" },
	{ 0xfe, "error_apic" },
	{ 0xff, "spurious_apic" },
};

/* The device names of the IRQs, as /proc/interrupts lists them */
static char **sl_irq_names;
static int sl_nr_irq_names;

/*
 * sl_load_irq_names - read /proc/interrupts once: "N: counts... chip
 * hwirq-type name[, name...]". The names are what follows the CPU counts,
 * the chip and the hwirq-type.
 */
static void sl_load_irq_names(void)
{
	static bool loaded;
	char *line = NULL, *p, *tok, *save;
	int ncpus = 0, irq, field;
	size_t size = 0;
	FILE *f;

	if (loaded)
		return;
	loaded = true;
	f = fopen("/proc/interrupts", "r");
	if (!f)
		return;
	if (getline(&line, &size, f) > 0) {
		for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
			ncpus++;
	}
	while (getline(&line, &size, f) > 0) {
		char *end;

		irq = strtol(line, &end, 10);
		if (end == line || *end != ':' || irq < 0 || irq > 65535)
			continue;
		p = end + 1;
		/* the CPU counts, the chip and the hwirq-type */
		for (field = 0; field < ncpus + 2; field++) {
			p += strspn(p, " \t");
			p += strcspn(p, " \t\n");
		}
		p += strspn(p, " \t");
		p[strcspn(p, "\n")] = '\0';
		if (!*p)
			continue;
		if (irq >= sl_nr_irq_names) {
			char **names = realloc(sl_irq_names, (irq + 1) * sizeof(*names));

			if (!names)
				break;
			memset(names + sl_nr_irq_names, 0,
			       (irq + 1 - sl_nr_irq_names) * sizeof(*names));
			sl_irq_names = names;
			sl_nr_irq_names = irq + 1;
		}
		free(sl_irq_names[irq]);
		sl_irq_names[irq] = strdup(p);
	}
	free(line);
	fclose(f);
}

/*
 * sl_source_name - an interrupt source as a user knows it: "nmi",
 * "local_timer:236" (an x86 vector, by its event's name), "virtio0:11"
 * (an IRQ, by its /proc/interrupts name), "vector:N" or "irq:N" without one
 */
int sl_source_name(int source, char *buf, size_t len)
{
	unsigned int i;
	int n;

	if (source == SLB_NMI)
		return snprintf(buf, len, "nmi");
	if (source >= SL_VECTOR_BASE) {
		n = source - SL_VECTOR_BASE;
		for (i = 0; i < ARRAY_SIZE(sl_vector_names); i++)
			if (sl_vector_names[i].vector == n)
				return snprintf(buf, len, "%s:%d", sl_vector_names[i].name, n);
		return snprintf(buf, len, "vector:%d", n);
	}
	sl_load_irq_names();
	if (source < sl_nr_irq_names && sl_irq_names[source])
		return snprintf(buf, len, "%s:%d", sl_irq_names[source], source);
	return snprintf(buf, len, "irq:%d", source);
}

/* sl_term_name - the name of a term of the bound: a source or a variable */
int sl_term_name(const struct slb_term *term, char *buf, size_t len)
{
	static const int var_of[SLB_NR_VARS] = {
		[SLB_POID]	= SL_POID,
		[SLB_PSD]	= SL_PSD,
		[SLB_ST]	= SL_DST,
		[SLB_PAIE]	= SL_PAIE,
	};

	if (term->is_source)
		return sl_source_name(term->id, buf, len);
	if (term->id < 0 || term->id >= SLB_NR_VARS)
		return snprintf(buf, len, "unknown");
	return snprintf(buf, len, "%s", sl_var_label(var_of[term->id]));
}

/*
 * The command line.
 */

/* sl_fail - a one-line error, and exit 1 */
void sl_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rtla sched-latency: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(SL_EXIT_ERROR);
}

/* sl_try_help - after getopt complained about an option */
void sl_try_help(void)
{
	fprintf(stderr, "rtla sched-latency: see 'rtla sched-latency top --help' or 'rtla sched-latency hist --help'\n");
	exit(SL_EXIT_ERROR);
}

/*
 * sl_usage - the usage of a mode: its synopsis, then the options
 *
 * The words are those of Documentation/tools/rtla/rtla-sched-latency-*.rst:
 * change both together.
 */
void sl_usage(const char *title, const char * const *synopsis, const char *quiet,
	      const char * const *mode_options, int err)
{
	static const char * const first[] = {
		"	  -h/--help: print the help menu",
		"	  -c/--cpus cpu-list: measure only the given cpus",
		"	  -d/--duration time[s|m|h|d]: duration of the session",
		"	  -D/--debug: print debug info",
		NULL,
	};
	static const char * const common[] = {
		"	  -P/--priority o:prio|r:prio|f:prio|d:runtime:period: set the scheduling parameters of rtla's collector thread",
		"		o:prio - use SCHED_OTHER with prio",
		"		r:prio - use SCHED_RR with prio",
		"		f:prio - use SCHED_FIFO with prio",
		"		d:runtime[us|ms|s]:period[us|ms|s] - use SCHED_DEADLINE with runtime and period in nanoseconds",
		"	  -H/--house-keeping cpus: run rtla on cpus (default with -c: the cpus not measured)",
		"	  -n/--nano: display times in nanoseconds",
		"	  -T/--threshold us: stop the session when a variable exceeds us microseconds",
		"	     --stop-on var: the variable -T watches: poid, psd, dst, paie, irq, nmi or bound (default: any variable, checked by the kernel)",
		"	     --model name: the characterization of the interrupts for the bound shown and for --stop-on bound (default: sliding_window)",
		"	  -t/--trace[=file]: save the trace to [file|sched_latency_trace.txt] at the end",
		"	  -e/--event <sys:event>: enable the <sys:event> in the trace saved by -t, multiple -e are allowed",
		"	     --filter <filter>: enable a trace event filter to the previous -e event",
		"	     --trigger <trigger>: enable a trace event trigger to the previous -e event",
		"	     --max-bound us: exit 2 if the bound of a cpu under --model exceeds us",
		"	     --warm-up s: let the workload run s seconds before measuring",
		"	     --no-cpu-breakdown: end with the system's bounds only, not each cpu's",
		"	     --on-threshold action: on a stop: trace[,file=f], signal,num=n,pid=p|parent, shell,command=c",
		"	     --on-end action: the same actions, at the end of the run",
		"	     --json file: write the results to file as JSON (-: standard output)",
		"	     --svg file: draw the bounds of each cpu to file as an SVG bar chart",
		"	     --trace-buffer-size kB: set the per-cpu trace buffer size in kB",
		NULL,
	};
	int i;

	fprintf(stderr, "%s (version %s)\n\n", title, VERSION);
	for (i = 0; synopsis[i]; i++)
		fprintf(stderr, "%s\n", synopsis[i]);
	fprintf(stderr, "\n");
	for (i = 0; first[i]; i++)
		fprintf(stderr, "%s\n", first[i]);
	fprintf(stderr, "%s\n", quiet);
	for (i = 0; common[i]; i++)
		fprintf(stderr, "%s\n", common[i]);
	for (i = 0; mode_options[i]; i++)
		fprintf(stderr, "%s\n", mode_options[i]);
	fprintf(stderr, "	  -- workload [args...]: run the workload during the session, which ends when the workload ends\n");
	exit(err);
}

/*
 * sl_long_options - the long options of both modes, then those of a mode
 *
 * The array is built once per run and lives as long as the process.
 */
struct option *sl_long_options(const struct option *mode_options)
{
	static const struct option common[] = {
		{"cpus",		required_argument,	0, 'c'},
		{"duration",		required_argument,	0, 'd'},
		{"debug",		no_argument,		0, 'D'},
		{"event",		required_argument,	0, 'e'},
		{"help",		no_argument,		0, 'h'},
		{"house-keeping",	required_argument,	0, 'H'},
		{"nano",		no_argument,		0, 'n'},
		{"priority",		required_argument,	0, 'P'},
		{"quiet",		no_argument,		0, 'q'},
		{"threshold",		required_argument,	0, 'T'},
		{"trace",		optional_argument,	0, 't'},
		{"filter",		required_argument,	0, SL_OPT_FILTER},
		{"trigger",		required_argument,	0, SL_OPT_TRIGGER},
		{"stop-on",		required_argument,	0, SL_OPT_STOP_ON},
		{"model",		required_argument,	0, SL_OPT_MODEL},
		{"json",		required_argument,	0, SL_OPT_JSON},
		{"svg",			required_argument,	0, SL_OPT_SVG},
		{"trace-buffer-size",	required_argument,	0, SL_OPT_BUFFER_SIZE},
		{"max-bound",		required_argument,	0, SL_OPT_MAX_BOUND},
		{"warm-up",		required_argument,	0, SL_OPT_WARM_UP},
		{"no-cpu-breakdown",	no_argument,		0, SL_OPT_NO_CPU_BREAKDOWN},
		{"on-threshold",	required_argument,	0, SL_OPT_ON_THRESHOLD},
		{"on-end",		required_argument,	0, SL_OPT_ON_END},
	};
	size_t nr_common = ARRAY_SIZE(common), nr_mode = 0;
	struct option *all;

	while (mode_options[nr_mode].name)
		nr_mode++;
	/* the terminating zeroed entry comes from calloc() */
	all = calloc(nr_common + nr_mode + 1, sizeof(*all));
	if (!all)
		sl_fail("out of memory");
	memcpy(all, common, sizeof(common));
	memcpy(all + nr_common, mode_options, nr_mode * sizeof(*all));
	return all;
}

/* sl_params_init - the defaults of both modes */
void sl_params_init(struct sl_params *params, const char *mode)
{
	memset(params, 0, sizeof(*params));
	params->mode = mode;
	params->stop_on = SL_STOP_ANY;
	params->model = SLB_SLIDING_WINDOW;
	params->json.fd = -1;
	params->svg.fd = -1;
	params->bucket_us = 1;
	params->entries = 1000;
}

/*
 * sl_parse_number - a decimal integer in [min, max], or exit with an error
 *
 * strtoll() alone takes "12abc" as 12 and "" as 0: both are mistakes the
 * user should hear about.
 */
long long sl_parse_number(const char *opt, const char *arg,
			  long long min, long long max)
{
	long long value;
	char *end;

	errno = 0;
	value = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || !isdigit((unsigned char)*arg))
		sl_fail("invalid %s value '%s': not a number", opt, arg);
	if (value < min || value > max)
		sl_fail("invalid %s value '%s': out of range [%lld, %lld]", opt, arg,
			min, max);
	return value;
}

/*
 * sl_parse_duration - -d: digits and one optional s, m, h or d suffix
 *
 * rtla's parse_seconds_duration() does the conversion; it takes anything
 * strtol() takes, so the syntax and the range are checked here first.
 */
static int sl_parse_duration(char *arg)
{
	unsigned long long seconds, unit = 1;
	char *p = arg;

	while (isdigit((unsigned char)*p))
		p++;
	if (p == arg || p - arg > 10)
		goto invalid;
	switch (*p) {
	case '\0':
	case 's':
	case 'S':
		break;
	case 'm':
	case 'M':
		unit = 60;
		break;
	case 'h':
	case 'H':
		unit = 60 * 60;
		break;
	case 'd':
	case 'D':
		unit = 24 * 60 * 60;
		break;
	default:
		goto invalid;
	}
	if (*p && p[1])
		goto invalid;
	seconds = strtoull(arg, NULL, 10) * unit;
	if (!seconds || seconds > INT_MAX)
		goto invalid;
	return parse_seconds_duration(arg);

invalid:
	sl_fail("invalid -d duration '%s': a positive number of seconds, with an optional s, m, h or d suffix",
		arg);
}

/* sl_parse_stop_on - --stop-on: a variable, or bound */
static int sl_parse_stop_on(const char *arg)
{
	int var;

	for (var = 0; var <= SL_STOP_BOUND; var++)
		if (!strcmp(arg, sl_var_name(var)))
			return var;
	sl_fail("unknown --stop-on variable '%s': one of poid, psd, dst, paie, irq, nmi, bound",
		arg);
}

/* sl_parse_model - --model: one of the JSON keys of the characterizations */
static enum slb_model sl_parse_model(const char *arg)
{
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		if (!strcmp(arg, slb_model_name(m)))
			return m;
	sl_fail("unknown --model '%s': one of no_interrupts, worst_single, worst_each, sporadic, sliding_window, sliding_window_owcet",
		arg);
}

/*
 * sl_parse_common_option - one option both modes accept
 *
 * Returns 0 when the option was taken, -1 when it is not a common one.
 */
int sl_parse_common_option(struct sl_params *params, int c, char *arg,
			   int argc, char *argv[])
{
	struct trace_events *tevent;
	int nr_cpus;

	switch (c) {
	case 'c':
		if (parse_cpu_set(arg, &params->monitored_cpus) ||
		    !CPU_COUNT(&params->monitored_cpus)) {
			nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
			sl_fail("invalid -c cpu list '%s': cpus 0-%d exist", arg, nr_cpus - 1);
		}
		params->cpus = arg;
		break;
	case 'd':
		params->duration = sl_parse_duration(arg);
		break;
	case 'D':
		config_debug = 1;
		break;
	case 'e':
		tevent = trace_event_alloc(arg);
		if (!tevent)
			sl_fail("cannot allocate the event %s", arg);
		tevent->next = params->events;
		params->events = tevent;
		break;
	case 'H':
		if (parse_cpu_set(arg, &params->hk_cpus) || !CPU_COUNT(&params->hk_cpus))
			sl_fail("invalid -H cpu list '%s'", arg);
		params->house_keeping = arg;
		break;
	case 'n':
		sl_nano = true;
		break;
	case 'P':
		if (parse_prio(arg, &params->sched_param) == -1)
			sl_fail("invalid -P priority '%s'", arg);
		/* the workload must not inherit rtla's priority */
		params->sched_param.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
		params->set_sched = 1;
		break;
	case 'q':
		params->quiet = 1;
		break;
	case 'T':
		params->threshold_us = sl_parse_number("-T", arg, 1, SL_MAX_RANGE_NS / 1000);
		break;
	case 't':
		/* -t=file, -tfile, --trace=file, and as upstream rtla, -t file */
		if (arg && arg[0] == '=')
			arg++;
		else if (!arg && optind < argc && argv[optind][0] != '-')
			arg = argv[optind++];
		params->trace_output = arg && *arg ? arg : SL_DEFAULT_TRACE_FILE;
		break;
	case SL_OPT_FILTER:
		if (!params->events)
			sl_fail("--filter requires a previous -e");
		if (trace_event_add_filter(params->events, arg))
			sl_fail("cannot add the filter %s", arg);
		break;
	case SL_OPT_TRIGGER:
		if (!params->events)
			sl_fail("--trigger requires a previous -e");
		if (trace_event_add_trigger(params->events, arg))
			sl_fail("cannot add the trigger %s", arg);
		break;
	case SL_OPT_STOP_ON:
		params->stop_on = sl_parse_stop_on(arg);
		params->stop_on_set = true;
		break;
	case SL_OPT_MODEL:
		params->model = sl_parse_model(arg);
		break;
	case SL_OPT_JSON:
		params->json.path = arg;
		break;
	case SL_OPT_SVG:
		params->svg.path = arg;
		break;
	case SL_OPT_ON_THRESHOLD:
		sl_parse_action(&params->on_threshold, "--on-threshold", arg);
		break;
	case SL_OPT_ON_END:
		sl_parse_action(&params->on_end, "--on-end", arg);
		break;
	case SL_OPT_NO_CPU_BREAKDOWN:
		params->no_cpu_breakdown = true;
		break;
	case SL_OPT_WARM_UP:
		params->warmup = sl_parse_number("--warm-up", arg, 1, 24 * 60 * 60);
		break;
	case SL_OPT_MAX_BOUND:
		/* any length rtla can print: a gate needs no kernel range */
		params->max_bound_us = sl_parse_number("--max-bound", arg, 1, 1000000000000LL);
		break;
	case SL_OPT_BUFFER_SIZE:
		params->buffer_size = sl_parse_number("--trace-buffer-size", arg, 1, INT_MAX);
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * sl_parse_workload - what follows the options: a workload, after "--"
 *
 * Asking for the "--" keeps a mistyped option from being run as a command.
 */
void sl_parse_workload(struct sl_params *params, int argc, char *argv[])
{
	if (optind >= argc)
		return;
	if (optind < 1 || strcmp(argv[optind - 1], "--"))
		sl_fail("unexpected argument '%s' (a workload goes after --)", argv[optind]);
	params->workload = &argv[optind];
}

/* sl_check_params - what only the whole command line can tell */
void sl_check_params(struct sl_params *params)
{
	if (params->stop_on_set && !params->threshold_us)
		sl_fail("--stop-on needs a threshold (-T us)");
	/* the measuring instance's events are consumed: only -t keeps them */
	if (params->events && !params->trace_output)
		sl_fail("-e needs -t: the events go into the trace it saves");
	if (params->json.path && params->svg.path && !strcmp(params->json.path, "-") &&
	    !strcmp(params->svg.path, "-"))
		sl_fail("--json - and --svg - cannot both write to standard output");
	if (params->entries < 1 || params->entries > SL_MAX_ENTRIES)
		sl_fail("invalid -E entries %lld: out of range [1, %d]", params->entries,
			SL_MAX_ENTRIES);
	if ((unsigned long long)params->bucket_us * 1000 * params->entries > SL_MAX_RANGE_NS)
		sl_fail("the histogram is too wide: -b %lld us times -E %lld entries is above %llu ns",
			params->bucket_us, params->entries, SL_MAX_RANGE_NS);
}
