// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: what top and hist share.
 *
 * The story, in the order a run goes: the command line, the checks of the
 * system, the trace instance and its latency_parser tracer, the events that
 * stream into the bound engine, the collection loop, and the results.
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

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif

/* the kernel's hist geometry limits (latency-parser.rst) */
#define SL_MAX_ENTRIES		10000
#define SL_MAX_RANGE_NS		4294967295ULL

/*
 * Signals only raise flags: the loop notices them within a second and
 * tears the instance down on its normal path, so that no sched_latency_*
 * instance outlives rtla.
 */
static sig_atomic_t sl_stop_requested;
static sig_atomic_t sl_child_event;
static struct tracefs_instance *sl_iterating;

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
		"	  -T/--threshold us: stop the session when a variable exceeds us microseconds",
		"	     --stop-on var: the variable -T watches: poid, psd, dst, paie, irq, nmi or bound (default: any variable, checked by the kernel)",
		"	     --model name: the characterization of the interrupts for the bound shown and for --stop-on bound (default: sliding_window)",
		"	  -t/--trace[=file]: save the trace to [file|sched_latency_trace.txt] at the end",
		"	  -e/--event <sys:event>: enable the <sys:event> in the trace saved by -t, multiple -e are allowed",
		"	     --filter <filter>: enable a trace event filter to the previous -e event",
		"	     --trigger <trigger>: enable a trace event trigger to the previous -e event",
		"	     --max-bound us: exit 2 if the bound of a cpu under --model exceeds us",
		"	     --warm-up s: let the workload run s seconds before measuring",
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
	case SL_OPT_WARM_UP:
		params->warmup = sl_parse_number("--warm-up", arg, 1, 24 * 60 * 60);
		break;
	case SL_OPT_MAX_BOUND:
		params->max_bound_us = sl_parse_number("--max-bound", arg, 1,
							SL_MAX_RANGE_NS / 1000);
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

/*
 * The system: what must hold before anything is touched.
 */

/* sl_open_output - open an output file now, so a bad path fails early */
static void sl_open_output(struct sl_output *out, const char *opt)
{
	if (!out->path)
		return;
	/*
	 * "-": the report on standard output, for a pipe; the text that
	 * would go there (rtla's and the workload's) goes to standard error.
	 */
	if (!strcmp(out->path, "-")) {
		out->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (out->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			sl_fail("cannot write the %s report to standard output: %s", opt,
				strerror(errno));
		return;
	}
	out->fd = open(out->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out->fd >= 0) {
		out->created = true;
		return;
	}
	if (errno == EEXIST)
		out->fd = open(out->path, O_WRONLY | O_CLOEXEC);
	if (out->fd < 0)
		sl_fail("cannot write the %s file %s: %s", opt, out->path, strerror(errno));
	/* an existing file: never write to a directory or a fifo by mistake */
	if (!isatty(out->fd)) {
		struct stat st;

		if (fstat(out->fd, &st) || !S_ISREG(st.st_mode))
			sl_fail("cannot write the %s file %s: not a regular file", opt, out->path);
	}
}

/* sl_close_output - close an output file; remove it if it stayed empty */
static void sl_close_output(struct sl_output *out, bool written)
{
	if (out->fd < 0)
		return;
	close(out->fd);
	out->fd = -1;
	if (!written && out->created)
		unlink(out->path);
}

/* sl_check_system - root, the output files, tracefs, the tracer */
static void sl_check_system(struct sl_params *params)
{
	struct stat st;

	if (geteuid())
		sl_fail("needs root permission");

	sl_open_output(&params->json, "--json");
	sl_open_output(&params->svg, "--svg");

	/*
	 * libtracefs would mount tracefs itself: say so instead of changing
	 * the system's mounts behind the user's back. Reading a file under
	 * debugfs's tracing/ first triggers its automount.
	 */
	stat("/sys/kernel/debug/tracing/trace", &st);
	if (tracefs_tracing_dir_is_mounted(false, NULL) != 1)
		sl_fail("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	if (!tracefs_tracer_available(NULL, SL_TRACER))
		sl_fail("the kernel has no latency_parser tracer: it needs CONFIG_LATENCY_PARSER_TRACER=y (a PREEMPT_RT kernel; distributions ship it in a tracing or debug flavour, if at all)");
}

/* sl_cpu_monitored - whether the run measures this CPU */
bool sl_cpu_monitored(struct sl_tool *tool, int cpu)
{
	return CPU_ISSET(cpu, &tool->params->monitored_cpus);
}

/*
 * sl_system_totals - the system as a whole: the worst of each value and
 * the total of each count, over the monitored CPUs that the tracer listed
 * or, with @computed, over those with a computed bound
 */
void sl_system_totals(struct sl_tool *tool, bool computed, struct sl_totals *t)
{
	struct sl_cpu *c;
	int cpu, var;

	memset(t, 0, sizeof(*t));
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		c = &tool->cpu[cpu];
		if (!sl_cpu_monitored(tool, cpu) || !(computed ? c->has_res : c->seen))
			continue;
		t->windows += c->windows;
		for (var = 0; var < SL_NR_VARS; var++)
			if (c->max[var] > t->max[var])
				t->max[var] = c->max[var];
		if (c->has_res && c->res.bound[SLB_NO_INTERRUPTS].l_if > t->l_if)
			t->l_if = c->res.bound[SLB_NO_INTERRUPTS].l_if;
		t->irq_count += c->irq_count;
		t->nmi_count += c->nmi_count;
		if (c->irq_max > t->irq_max)
			t->irq_max = c->irq_max;
		if (c->nmi_max > t->nmi_max)
			t->nmi_max = c->nmi_max;
	}
	/* An execution may be in the max file but not yet in the stream. */
	if (t->max[SL_IRQ] > t->irq_max)
		t->irq_max = t->max[SL_IRQ];
	if (t->max[SL_NMI] > t->nmi_max)
		t->nmi_max = t->max[SL_NMI];
}

/*
 * Events: the tracer's interrupt executions go straight into the bound
 * engine, so memory does not grow with the length of the run. Its max
 * events are only watched for a stop and for the stack that follows them:
 * the maxima themselves are read from the max file, which loses nothing.
 */

/* sl_tool_of - the tool of the measuring instance an event came from */
static struct sl_tool *sl_tool_of(void *context)
{
	return container_of((struct trace_instance *)context, struct sl_tool, trace);
}

/* sl_count_missed - events the ring buffer lost before this record */
static void sl_count_missed(struct sl_tool *tool, struct tep_record *record)
{
	if (!record->missed_events)
		return;
	/* a negative count means "some, how many is unknown" */
	tool->cpu[record->cpu].lost += record->missed_events > 0 ?
				       record->missed_events : 1;
}

/* sl_interrupt - one IRQ, vector or NMI execution of a latency_parser event */
static void sl_interrupt(struct sl_tool *tool, struct trace_seq *s,
			 struct tep_record *record, struct tep_event *event,
			 int source)
{
	unsigned long long id = 0, start = 0, duration = 0;
	struct sl_cpu *c;

	/* every CPU's executions reach the instance; only measured ones count */
	if (record->cpu < 0 || record->cpu >= tool->nr_cpus ||
	    !sl_cpu_monitored(tool, record->cpu))
		return;
	c = &tool->cpu[record->cpu];
	sl_count_missed(tool, record);

	tep_get_field_val(s, event, "start", record, &start, 1);
	tep_get_field_val(s, event, "duration", record, &duration, 1);
	if (source != SLB_NMI) {
		tep_get_field_val(s, event, "id", record, &id, 1);
		source += (int)(id & (SL_VECTOR_BASE - 1));
	}

	if (source == SLB_NMI) {
		c->nmi_count++;
		if (duration > c->nmi_max)
			c->nmi_max = duration;
	} else {
		c->irq_count++;
		if (duration > c->irq_max)
			c->irq_max = duration;
	}

	if (slb_add_interrupt(tool->slb, record->cpu, source, start, duration))
		debug_msg("bound engine: cannot add an interrupt of cpu %d\n", record->cpu);
}

/* latency_parser:irq_execution - an IRQ handler, by IRQ number */
static int sl_irq_handler(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, void *context)
{
	sl_interrupt(sl_tool_of(context), s, record, event, 0);
	return 0;
}

/* latency_parser:vector_execution - an x86 system vector */
static int sl_vector_handler(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	sl_interrupt(sl_tool_of(context), s, record, event, SL_VECTOR_BASE);
	return 0;
}

/* latency_parser:nmi_execution */
static int sl_nmi_handler(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, void *context)
{
	sl_interrupt(sl_tool_of(context), s, record, event, SLB_NMI);
	return 0;
}

/* sl_stop_tracing - rtla itself decided to stop: freeze both instances */
static void sl_stop_tracing(struct sl_tool *tool)
{
	if (tool->has_record)
		trace_instance_stop(&tool->record);
	trace_instance_stop(&tool->trace);
}

/*
 * sl_field_str - a string field of a record, or "" when it has none: a
 * __data_loc string need not be NUL-terminated within its length
 */
static void sl_field_str(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, const char *name,
			 char *buf, size_t size)
{
	const char *raw;
	int len = 0;

	raw = tep_get_field_raw(s, event, name, record, &len, 0);
	if (!raw || len <= 0)
		len = 0;
	if ((size_t)len >= size)
		len = (int)size - 1;
	memcpy(buf, raw ? raw : "", len);
	buf[len] = '\0';
}

/* sl_var_of - the variable a latency_parser window event names, or -1 */
static int sl_var_of(const char *name)
{
	int var;

	for (var = 0; var < SL_NR_VARS; var++) {
		if (!strcmp(name, sl_var_names[var]))
			return var;
	}
	return -1;
}

/*
 * sl_window - latency_parser:new_max or :threshold_stop (@cause 1), the
 * kernel's stop
 */
static int sl_window(struct sl_tool *tool, struct trace_seq *s,
		     struct tep_record *record, struct tep_event *event,
		     int cause)
{
	unsigned long long value = 0, start = 0, ip = 0;
	struct sl_params *params = tool->params;
	struct sl_stop *stop = &tool->stop;
	char name[64], instance[256];
	struct sl_cpu *c;
	bool stopping, first;
	int var;

	if (record->cpu < 0 || record->cpu >= tool->nr_cpus)
		return 0;
	c = &tool->cpu[record->cpu];
	sl_count_missed(tool, record);

	/* another instance's windows, were its events enabled here */
	sl_field_str(s, record, event, "instance", instance, sizeof(instance));
	if (strcmp(instance, tool->name))
		return 0;
	sl_field_str(s, record, event, "var", name, sizeof(name));
	var = sl_var_of(name);
	if (var < 0)
		return 0;
	tep_get_field_val(s, event, "value", record, &value, 1);
	tep_get_field_val(s, event, "start", record, &start, 1);
	tep_get_field_val(s, event, "ip", record, &ip, 1);

	if (cause == 1)
		stopping = true;
	else
		stopping = params->threshold_us && params->stop_on == (int)var &&
			   value > (unsigned long long)params->threshold_us * 1000;

	first = stopping && !stop->hit;
	if (first) {
		stop->hit = true;
		stop->cpu = record->cpu;
		stop->var = var;
		stop->value = value;
		stop->start = start;
		stop->ip = ip;
		/* the window's stack is still in the record instance */
		if (cause != 1)
			sl_stop_tracing(tool);
	}

	/* a stop always carries a stack; a maximum when stacks were asked */
	if (cause == 1 || tool->params->stop_on != SL_STOP_ANY) {
		c->pending_var = var;
		c->pending_stop = first;
	}
	return 0;
}

/* latency_parser:new_max - a window longer than any before on its CPU */
static int sl_max_handler(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, void *context)
{
	return sl_window(sl_tool_of(context), s, record, event, 0);
}

/* latency_parser:threshold_stop - the kernel stopped the instance */
static int sl_stop_handler(struct trace_seq *s, struct tep_record *record,
			   struct tep_event *event, void *context)
{
	return sl_window(sl_tool_of(context), s, record, event, 1);
}

/* sl_read_stack - the frames of a kernel_stack entry */
static void sl_read_stack(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, struct sl_stack *stack)
{
	unsigned long long size = 0;
	struct tep_format_field *field;
	unsigned long *caller;
	int len, room, i;

	stack->nr = 0;
	field = tep_find_field(event, "caller");
	caller = tep_get_field_raw(s, event, "caller", record, &len, 1);
	if (!field || !caller)
		return;
	tep_get_field_val(s, event, "size", record, &size, 1);

	/* the format says 8 frames; the entry holds "size" of them */
	room = (record->size - (int)field->offset) / (int)sizeof(*caller);
	if (size > (unsigned long long)room)
		size = room;
	if (size > SL_STACK_MAX)
		size = SL_STACK_MAX;
	for (i = 0; i < (int)size; i++) {
		if (!caller[i] || caller[i] == ULONG_MAX)
			break;
		stack->ip[stack->nr++] = caller[i];
	}
}

/* sl_stack_handler - kernel_stack: the stack of the latest max or stop */
static int sl_stack_handler(struct trace_seq *s, struct tep_record *record,
			    struct tep_event *event, void *context)
{
	struct sl_tool *tool = sl_tool_of(context);
	struct sl_cpu *c;

	if (record->cpu < 0 || record->cpu >= tool->nr_cpus)
		return 0;
	c = &tool->cpu[record->cpu];
	if (c->pending_var < 0)
		return 0;

	sl_read_stack(s, record, event, &c->stack[c->pending_var]);
	if (c->pending_stop) {
		tool->stop.stack = c->stack[c->pending_var];
		tool->stop.has_stack = true;
	}
	c->pending_var = -1;
	c->pending_stop = false;
	return 0;
}

/*
 * The instances: one measures and is consumed event by event; with -t a
 * second one runs the same tracer with stacks and is never read, so that
 * on a stop its trace file still holds the window and its stack.
 */

/* sl_write - write a setting of an instance */
static int sl_write(struct tracefs_instance *inst, const char *file,
		    const char *fmt, ...)
{
	char *value;
	va_list ap;
	int ret = 0;

	/* whole, however long: a cut CPU list would measure other CPUs */
	va_start(ap, fmt);
	ret = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		err_msg("rtla sched-latency: out of memory\n");
		return -1;
	}

	ret = 0;
	debug_msg("%s/%s <- %s\n", tracefs_instance_get_name(inst), file, value);
	if (tracefs_instance_file_write(inst, file, value) < 0) {
		err_msg("rtla sched-latency: cannot write %s to %s/%s: %s\n", value,
			tracefs_instance_get_name(inst), file, strerror(errno));
		ret = -1;
	}
	free(value);
	return ret;
}

/*
 * sl_write_cpumask - the instance's tracing_cpumask: the measured CPUs.
 * The tracer's execution events come from every CPU; the others' would
 * only fill the buffer. The kernel's format: 32-bit hex words, most
 * significant first, separated by commas.
 */
static int sl_write_cpumask(struct sl_tool *tool, struct tracefs_instance *inst)
{
	int words = (tool->nr_cpus + 31) / 32;
	char *mask, *p;
	int w, bit;

	mask = calloc(words, 9 + 1);
	if (!mask)
		return -1;
	p = mask;
	for (w = words - 1; w >= 0; w--) {
		unsigned int word = 0;

		for (bit = 0; bit < 32; bit++) {
			if (sl_cpu_monitored(tool, w * 32 + bit))
				word |= 1U << bit;
		}
		p += sprintf(p, "%08x%s", word, w ? "," : "");
	}
	w = sl_write(inst, "tracing_cpumask", "%s", mask);
	free(mask);
	return w;
}

/* sl_enable_interrupt_events - the tracer's IRQ, vector and NMI executions */
static int sl_enable_interrupt_events(struct tracefs_instance *inst)
{
	static const char * const events[] = {
		"irq_execution", "vector_execution", "nmi_execution",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (tracefs_event_enable(inst, "latency_parser", events[i])) {
			err_msg("rtla sched-latency: cannot enable the event latency_parser:%s\n",
				events[i]);
			return -1;
		}
	}
	return 0;
}

/* sl_setup_instance - select the tracer in an instance and configure it */
static int sl_setup_instance(struct sl_tool *tool, struct trace_instance *trace,
			     bool record)
{
	struct sl_params *params = tool->params;
	struct tracefs_instance *inst = trace->inst;

	if (enable_tracer_by_name(inst, SL_TRACER))
		return -1;

	if (params->cpus && sl_write(inst, "latency_parser/cpus", "%s", params->cpus))
		return -1;
	if (params->cpus && sl_write_cpumask(tool, inst))
		return -1;

	/*
	 * The interference characterizations need every IRQ and NMI
	 * execution: the tracer's events for them, off unless enabled.
	 */
	if (!record && sl_enable_interrupt_events(inst))
		return -1;

	/*
	 * The geometry is checked against the current one on each write: go
	 * through one bucket, which fits any width.
	 */
	if (!record) {
		if (sl_write(inst, "latency_parser/hist_buckets", "1") ||
		    sl_write(inst, "latency_parser/hist_bucket_ns", "%lld",
			     params->bucket_us * 1000) ||
		    sl_write(inst, "latency_parser/hist_buckets", "%lld", params->entries))
			return -1;
	}

	if (params->threshold_us && params->stop_on == SL_STOP_ANY &&
	    sl_write(inst, "latency_parser/stop_tracing_us", "%lld", params->threshold_us))
		return -1;

	/* rtla's own stops need the stack of every new maximum */
	if (record || params->stop_on != SL_STOP_ANY) {
		if (tracefs_option_enable(inst, TRACEFS_OPTION_STACKTRACE)) {
			err_msg("rtla sched-latency: cannot enable stack traces\n");
			return -1;
		}
	}

	if (params->buffer_size && trace_set_buffer_size(trace, params->buffer_size))
		return -1;

	/* the extra events go where the trace is kept (-e needs -t) */
	if (params->events && record) {
		if (trace_events_enable(trace, params->events))
			return -1;
	}
	return 0;
}

/* sl_set_signals - stop cleanly on SIGINT, SIGTERM, SIGHUP and -d */
static void sl_set_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the wait of the loop must end on a signal */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* sl_signal - a stop request (twice: abandon the event iteration) */
static void sl_signal(int sig)
{
	if (sig == SIGCHLD) {
		sl_child_event = 1;
		return;
	}
	if (sl_stop_requested && sl_iterating)
		tracefs_iterate_stop(sl_iterating);
	sl_stop_requested = 1;
}

/*
 * sl_house_keeping - keep rtla's own work (the tracefs reads, the bound)
 * off the measured CPUs, where the tracer would measure it: on -H's CPUs,
 * or with -c on the others it may run on, as rtla timerlat does. The
 * workload gets rtla's affinity of before (sl_restore_affinity()).
 */
static void sl_house_keeping(struct sl_params *params)
{
	params->has_orig_cpus = !sched_getaffinity(0, sizeof(params->orig_cpus),
						   &params->orig_cpus);
	if (params->house_keeping) {
		if (sched_setaffinity(0, sizeof(params->hk_cpus), &params->hk_cpus))
			sl_fail("cannot run rtla on the -H cpus %s: %s", params->house_keeping,
				strerror(errno));
		return;
	}
	if (params->cpus && !auto_house_keeping(&params->monitored_cpus))
		debug_msg("no house-keeping cpu: rtla runs on the measured cpus\n");
}

/* sl_restore_affinity - in the workload: rtla's affinity before it moved */
void sl_restore_affinity(struct sl_params *params)
{
	if (params->has_orig_cpus)
		sched_setaffinity(0, sizeof(params->orig_cpus), &params->orig_cpus);
}

/*
 * sl_tool_init - check the system, create and configure the instances
 *
 * Exits with an error when the system cannot run the measurement. Once
 * the tool exists it is returned in *toolp, also when a later step fails
 * (-1), so that the caller destroys what was made.
 */
int sl_tool_init(struct sl_params *params, struct sl_tool **toolp)
{
	struct sl_tool *tool;
	long long value;
	int cpu;

	sl_check_system(params);

	tool = calloc(1, sizeof(*tool));
	*toolp = tool;
	if (!tool)
		sl_fail("out of memory");
	tool->params = params;
	tool->wl.out_fd = -1;
	tool->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	tool->cpu = calloc(tool->nr_cpus, sizeof(*tool->cpu));
	tool->slb = slb_alloc(NULL, tool->nr_cpus);
	if (!tool->cpu || !tool->slb)
		sl_fail("out of memory");
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		tool->cpu[cpu].pending_var = -1;
		tool->cpu[cpu].workload_max_us = -1;
	}
	if (!params->cpus) {
		for (cpu = 0; cpu < tool->nr_cpus; cpu++)
			CPU_SET(cpu, &params->monitored_cpus);
	}

	sl_house_keeping(params);

	/* before the instance exists, so that it never outlives a signal */
	sl_set_signals(sl_signal);

	snprintf(tool->name, sizeof(tool->name), "sched_latency_%d", getpid());
	if (trace_instance_init(&tool->trace, tool->name)) {
		err_msg("rtla sched-latency: cannot create the trace instance %s\n", tool->name);
		return -1;
	}
	if (sl_setup_instance(tool, &tool->trace, false))
		return -1;

	if (params->trace_output) {
		snprintf(tool->record_name, sizeof(tool->record_name),
			 "sched_latency_%d_trace", getpid());
		if (trace_instance_init(&tool->record, tool->record_name)) {
			err_msg("rtla sched-latency: cannot create the trace instance %s\n",
				tool->record_name);
			return -1;
		}
		tool->has_record = true;
		if (sl_setup_instance(tool, &tool->record, true))
			return -1;
	}

	tep_register_event_handler(tool->trace.tep, -1, "latency_parser", "irq_execution",
				   sl_irq_handler, tool);
	tep_register_event_handler(tool->trace.tep, -1, "latency_parser", "vector_execution",
				   sl_vector_handler, tool);
	tep_register_event_handler(tool->trace.tep, -1, "latency_parser", "nmi_execution",
				   sl_nmi_handler, tool);
	tep_register_event_handler(tool->trace.tep, -1, "latency_parser", "new_max",
				   sl_max_handler, tool);
	tep_register_event_handler(tool->trace.tep, -1, "latency_parser", "threshold_stop",
				   sl_stop_handler, tool);
	tep_register_event_handler(tool->trace.tep, -1, "ftrace", "kernel_stack",
				   sl_stack_handler, tool);

	if (params->set_sched && __set_sched_attr(getpid(), &params->sched_param)) {
		err_msg("rtla sched-latency: cannot set the priority of rtla\n");
		return -1;
	}

	/* read back what the kernel took, for the histogram's index */
	if (tracefs_instance_file_read_number(tool->trace.inst,
					      "latency_parser/hist_bucket_ns", &value) == 0)
		tool->bucket_ns = value;
	if (tracefs_instance_file_read_number(tool->trace.inst,
					      "latency_parser/hist_buckets", &value) == 0)
		tool->nr_buckets = value;
	return 0;
}

/*
 * Collection.
 */

/* sl_column - the index of a named column in a "# a b c" header line */
static int sl_column(char **names, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/*
 * sl_read_max - the per-CPU maxima, windows and dropped windows
 *
 * The columns are found by their names in the header, so that a tracer
 * with more columns still reads right.
 */
static int sl_read_max(struct sl_tool *tool)
{
	static const enum slb_var engine_var[SL_NR_WINDOWS] = {
		[SL_POID]	= SLB_POID,
		[SL_PSD]	= SLB_PSD,
		[SL_DST]	= SLB_ST,
		[SL_PAIE]	= SLB_PAIE,
	};
	int col[SL_NR_VARS + 2], cpu_col = -1, nr = 0, i, var, cpu;
	char *text, *line, *save, *names[32];
	unsigned long long values[32];

	text = tracefs_instance_file_read(tool->trace.inst, "latency_parser/max", NULL);
	if (!text) {
		err_msg("rtla sched-latency: cannot read %s/latency_parser/max\n", tool->name);
		return -1;
	}

	tool->dropped_windows = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *tok, *tsave;

		if (line[0] == '#') {
			nr = 0;
			for (tok = strtok_r(line + 1, " \t", &tsave); tok && nr < 32;
			     tok = strtok_r(NULL, " \t", &tsave))
				names[nr++] = tok;
			for (var = 0; var < SL_NR_VARS; var++)
				col[var] = sl_column(names, nr, sl_var_name(var));
			cpu_col = sl_column(names, nr, "cpu");
			col[SL_NR_VARS] = sl_column(names, nr, "windows");
			col[SL_NR_VARS + 1] = sl_column(names, nr, "dropped");
			continue;
		}
		if (cpu_col < 0)
			continue;

		for (i = 0; i < nr; i++) {
			char *end;

			values[i] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (i < nr)
			continue;
		if (values[cpu_col] >= (unsigned long long)tool->nr_cpus)
			continue;
		cpu = values[cpu_col];

		tool->cpu[cpu].seen = true;
		for (var = 0; var < SL_NR_VARS; var++) {
			if (col[var] < 0)
				continue;
			tool->cpu[cpu].max[var] = values[col[var]];
			if (var < SL_NR_WINDOWS)
				slb_set_var(tool->slb, cpu, engine_var[var], values[col[var]]);
		}
		if (col[SL_NR_VARS] >= 0)
			tool->cpu[cpu].windows = values[col[SL_NR_VARS]];
		if (col[SL_NR_VARS + 1] >= 0)
			tool->cpu[cpu].dropped = values[col[SL_NR_VARS + 1]];
		tool->dropped_windows += tool->cpu[cpu].dropped;
	}
	free(text);
	return 0;
}

/* sl_stat - one "name: value" line of a per_cpu stats file */
static unsigned long long sl_stat(const char *text, const char *name)
{
	const char *p = text;
	size_t len = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, len) && p[len] == ':')
			return strtoull(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/*
 * sl_read_lost - the events the measuring instance's ring buffer lost
 *
 * An overrun (overwrite mode) and a drop (when the buffer is full and does
 * not overwrite) both took an interrupt execution away from the engine.
 */
static void sl_read_lost(struct sl_tool *tool)
{
	unsigned long long lost, total = 0;
	char file[64], *text;
	int cpu;

	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu))
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(tool->trace.inst, file, NULL);
		if (!text)
			continue;
		lost = sl_stat(text, "overrun") + sl_stat(text, "commit overrun") +
		       sl_stat(text, "dropped events");
		free(text);
		/* the records' own missed counts may have seen some already */
		if (lost > tool->cpu[cpu].lost)
			tool->cpu[cpu].lost = lost;
		total += tool->cpu[cpu].lost;
	}
	tool->lost_events = total;
}

/* sl_drain - feed every event in the buffer to the handlers */
static int sl_drain(struct sl_tool *tool)
{
	int retval;

	sl_iterating = tool->trace.inst;
	retval = tracefs_iterate_raw_events(tool->trace.tep, tool->trace.inst, NULL, 0,
					    collect_registered_events, &tool->trace);
	sl_iterating = NULL;
	if (retval < 0) {
		err_msg("rtla sched-latency: cannot read the events of %s\n", tool->name);
		return -1;
	}
	return 0;
}

/* sl_bound_worse - whether bound a is worse than b: unbounded, or longer */
static bool sl_bound_worse(const struct slb_bound *a, const struct slb_bound *b)
{
	if (a->unbounded != b->unbounded)
		return a->unbounded;
	return a->latency > b->latency;
}

/*
 * sl_compute - the bound of every measured CPU, and of the system
 *
 * The system's bound under each characterization is the worst CPU's, with
 * that CPU's breakdown; CPUs outside -c never count.
 */
static int sl_compute(struct sl_tool *tool)
{
	struct sl_cpu *c;
	int cpu, m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		tool->system[m] = NULL;

	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu))
			continue;
		c = &tool->cpu[cpu];
		if (c->has_res)
			slb_result_fini(&c->res);
		c->has_res = false;
		if (slb_compute_cpu(tool->slb, cpu, &c->res)) {
			err_msg("rtla sched-latency: cannot compute the bound of cpu %d\n", cpu);
			return -1;
		}
		c->has_res = true;
		for (m = 0; m < SLB_NR_MODELS; m++) {
			if (!tool->system[m] ||
			    sl_bound_worse(&c->res.bound[m], tool->system[m]))
				tool->system[m] = &c->res.bound[m];
		}
	}
	return 0;
}

/* sl_dominant_stack - the stack of the window that dominates a bound */
static bool sl_dominant_stack(struct sl_tool *tool, const struct slb_bound *b,
			      struct sl_stack *stack)
{
	static const int var_of[SLB_NR_VARS] = {
		[SLB_POID]	= SL_POID,
		[SLB_PSD]	= SL_PSD,
		[SLB_ST]	= SL_DST,
		[SLB_PAIE]	= SL_PAIE,
	};
	const struct sl_stack *s;

	if (b->dominant.is_source || b->dominant.id < 0 || b->dominant.id >= SLB_NR_VARS)
		return false;
	s = &tool->cpu[b->cpu].stack[var_of[b->dominant.id]];
	if (!s->nr)
		return false;
	*stack = *s;
	return true;
}

/* sl_check_bound - --stop-on bound: compare each CPU's bound to -T */
static void sl_check_bound(struct sl_tool *tool)
{
	unsigned long long threshold = tool->params->threshold_us * 1000ULL;
	struct sl_stop *stop = &tool->stop;
	const struct slb_bound *b;
	int cpu;

	if (stop->hit)
		return;
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu) || !tool->cpu[cpu].has_res)
			continue;
		b = &tool->cpu[cpu].res.bound[tool->params->model];
		if (!b->unbounded && b->latency <= threshold)
			continue;
		stop->hit = true;
		stop->cpu = cpu;
		stop->var = SL_STOP_BOUND;
		stop->value = b->unbounded ? ULLONG_MAX : b->latency;
		stop->has_stack = sl_dominant_stack(tool, b, &stop->stack);
		sl_stop_tracing(tool);
		return;
	}
}

/*
 * sl_stop_from_max - the kernel stopped but its stop event was lost:
 * name the largest variable above the threshold from the max file
 */
static void sl_stop_from_max(struct sl_tool *tool)
{
	unsigned long long threshold = tool->params->threshold_us * 1000ULL;
	struct sl_stop *stop = &tool->stop;
	int cpu, var;

	stop->hit = true;
	stop->cpu = -1;
	stop->var = SL_STOP_ANY;
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu))
			continue;
		for (var = 0; var < SL_NR_VARS; var++) {
			unsigned long long v = tool->cpu[cpu].max[var];

			if (v > threshold && (stop->cpu < 0 || v > stop->value)) {
				stop->cpu = cpu;
				stop->var = var;
				stop->value = v;
			}
		}
	}
}

/* sl_update - what is read once a second: maxima, losses, the bound */
static int sl_update(struct sl_tool *tool, bool compute)
{
	if (sl_read_max(tool))
		return -1;
	sl_read_lost(tool);
	if (compute && sl_compute(tool))
		return -1;
	return 0;
}

/* sl_elapsed - seconds since the start of the measurement */
static double sl_elapsed(struct sl_tool *tool)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - tool->start_ts.tv_sec) +
	       (now.tv_nsec - tool->start_ts.tv_nsec) / 1e9;
}

/*
 * sl_wait - wait until one more second of measurement has passed
 *
 * Meanwhile the workload's output is moved out of its pipe, so that a
 * chatty workload never blocks on a full pipe. Any signal ends the wait.
 */
static void sl_wait(struct sl_tool *tool, double until)
{
	double left;

	while (!sl_stop_requested && !sl_child_event) {
		left = until - sl_elapsed(tool);
		if (left <= 0)
			return;
		if (tool->wl.out_fd >= 0)
			sl_workload_drain(tool, (int)(left * 1000) + 1);
		else
			poll(NULL, 0, (int)(left * 1000) + 1);
	}
}

/*
 * sl_run - measure until -d, a signal, the threshold or the workload's end
 *
 * periodic (top's display) is called once a second with fresh data. On
 * return the instances are stopped, every event is consumed and the bound
 * of each CPU is computed. Returns 0, or -1 on an error.
 */
int sl_run(struct sl_tool *tool, void (*periodic)(struct sl_tool *tool))
{
	struct sl_params *params = tool->params;
	bool compute = periodic || params->stop_on == SL_STOP_BOUND;
	bool kernel_stop = false;
	int retval = -1;
	double tick = 0;

	if (sl_stop_requested)
		return -1;

	/*
	 * --warm-up: the workload runs, untraced, before the measurement; the
	 * tracer is selected meanwhile, so its parsers are in step when
	 * tracing starts.
	 */
	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	if (params->warmup) {
		if (params->workload && sl_workload_start(tool))
			goto out_stop;
		debug_msg("warming up for %d s\n", params->warmup);
		sl_wait(tool, params->warmup);
		if (sl_stop_requested || (sl_child_event && sl_workload_reap(tool))) {
			err_msg("rtla sched-latency: %s during the warm-up\n",
				sl_stop_requested ? "stopped" : "the workload ended");
			tool->wl.ended = !sl_stop_requested;
			goto out_stop;
		}
	}

	/* the record instance first: it must not miss what stops the other */
	if (tool->has_record)
		trace_instance_start(&tool->record);
	trace_instance_start(&tool->trace);
	clock_gettime(CLOCK_MONOTONIC, &tool->start_ts);
	tool->start_time = time(NULL);

	if (!params->warmup && params->workload && sl_workload_start(tool))
		goto out_stop;
	if (params->duration)
		alarm(params->duration);

	while (!sl_stop_requested) {
		tick += 1;
		sl_wait(tool, tick);

		if (sl_drain(tool) || sl_update(tool, compute))
			goto out_stop;
		if (params->stop_on == SL_STOP_BOUND)
			sl_check_bound(tool);
		if (periodic && !params->quiet)
			periodic(tool);

		if (tool->stop.hit)
			break;
		/* the kernel stopped an instance on the threshold */
		if (trace_is_off(&tool->trace, tool->has_record ? &tool->record : NULL)) {
			kernel_stop = true;
			break;
		}
		if (sl_child_event) {
			sl_child_event = 0;
			if (sl_workload_reap(tool)) {
				debug_msg("the workload ended\n");
				tool->wl.ended = true;
				break;
			}
		}
	}
	retval = 0;

out_stop:
	alarm(0);
	tool->duration_s = sl_elapsed(tool);
	sl_stop_tracing(tool);
	sl_workload_stop(tool);

	/* what came in since the last second, stop events included */
	if (!retval && (sl_drain(tool) || sl_update(tool, true)))
		retval = -1;
	if (!retval && kernel_stop && !tool->stop.hit)
		sl_stop_from_max(tool);
	return retval;
}

/*
 * sl_save_trace - -t: keep the record instance's trace, at the end of the
 * run whatever ended it: after a stop it ends with the culprit's window
 */
static void sl_save_trace(struct sl_tool *tool)
{
	if (!tool->has_record)
		return;
	printf("  Saving trace to %s\n", tool->params->trace_output);
	if (save_trace_to_file(tool->record.inst, tool->params->trace_output))
		err_msg("rtla sched-latency: cannot save the trace to %s\n",
			tool->params->trace_output);
}

/*
 * sl_check_gate - --max-bound: whether the bound of a measured CPU under
 * --model exceeds it. An unbounded CPU exceeds any gate: nothing shows its
 * latency within it.
 */
static bool sl_check_gate(struct sl_tool *tool)
{
	struct sl_params *params = tool->params;
	unsigned long long gate_ns = params->max_bound_us * 1000ULL;
	const struct slb_bound *b;
	int cpu;

	tool->over_gate = 0;
	if (!params->max_bound_us)
		return false;
	for (cpu = 0; cpu < tool->nr_cpus; cpu++) {
		if (!sl_cpu_monitored(tool, cpu) || !tool->cpu[cpu].has_res)
			continue;
		b = &tool->cpu[cpu].res.bound[params->model];
		if (b->unbounded || b->latency > gate_ns)
			tool->over_gate++;
	}
	return tool->over_gate > 0;
}

/*
 * sl_finish - the end every mode shares: the stop, the trace, the
 * breakdown, the soundness, the JSON and SVG files; returns the exit status
 */
int sl_finish(struct sl_tool *tool)
{
	struct sl_params *params = tool->params;
	bool output_failed = false;

	/* after the mode's own output, before what reads cyclictest's maxima */
	sl_workload_report(tool);

	tool->verdict = SL_EXIT_OK;
	if (tool->stop.hit) {
		sl_symbolize_stop(tool);
		sl_print_stop(tool);
		tool->verdict = SL_EXIT_EXCEEDED;
	}
	sl_save_trace(tool);
	if (sl_check_gate(tool))
		tool->verdict = SL_EXIT_EXCEEDED;
	else if (tool->verdict == SL_EXIT_OK && sl_workload_failed(tool))
		tool->verdict = SL_EXIT_WORKLOAD;
	else if (tool->verdict == SL_EXIT_OK &&
		 (tool->lost_events || tool->dropped_windows))
		tool->verdict = SL_EXIT_UNSOUND;

	sl_print_breakdown(tool);

	if (params->json.fd >= 0) {
		if (sl_write_json(tool))
			output_failed = true;
		sl_close_output(&params->json, true);
	}
	if (params->svg.fd >= 0) {
		if (sl_write_svg(tool))
			output_failed = true;
		sl_close_output(&params->svg, true);
	}
	if (output_failed && tool->verdict == SL_EXIT_OK)
		return SL_EXIT_ERROR;
	return tool->verdict;
}

/* sl_tool_destroy - remove the instances and free everything */
void sl_tool_destroy(struct sl_tool *tool)
{
	struct sl_params *params;
	int cpu;

	if (!tool)
		return;
	params = tool->params;

	sl_workload_cleanup(tool);
	if (tool->trace.inst) {
		/* where -e events went; a hist: trigger is saved on the way */
		trace_events_destroy(tool->has_record ? &tool->record : &tool->trace,
				     params->events);
		params->events = NULL;
	}
	if (tool->has_record)
		trace_instance_destroy(&tool->record);
	trace_instance_destroy(&tool->trace);

	/* an output file made for a run that never finished is removed */
	sl_close_output(&params->json, false);
	sl_close_output(&params->svg, false);

	for (cpu = 0; cpu < tool->nr_cpus; cpu++)
		if (tool->cpu[cpu].has_res)
			slb_result_fini(&tool->cpu[cpu].res);
	free(tool->cpu);
	slb_free(tool->slb);
	free(tool->wl.command);
	free(tool);
}
