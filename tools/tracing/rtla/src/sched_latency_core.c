// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency, the core: the names of what the tool shows (the
 * model's variables, the interrupt sources, the terms of a bound), the
 * defaults of the command line.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_core.h"

/*
 * The one table of the names of a variable: as the tracer, --stop-on,
 * --vars and the JSON spell it, as the paper writes it, and as a hist
 * column is headed.
 */
static const struct {
	const char *name;
	const char *label;
	const char *column;
} sl_vars[SL_NR_VARS + 2] = {
	[SL_POID]	= { "poid",	"D_POID",	"POID" },
	[SL_PSD]	= { "psd",	"D_PSD",	"PSD" },
	[SL_DST]	= { "dst",	"D_ST",		"DST" },
	[SL_PAIE]	= { "paie",	"D_PAIE",	"PAIE" },
	[SL_IRQ]	= { "irq",	"IRQ",		"IRQ" },
	[SL_NMI]	= { "nmi",	"NMI",		"NMI" },
	[SL_STOP_BOUND]	= { "bound",	"bound",	"BOUND" },
	[SL_STOP_ANY]	= { "any",	"any",		"ANY" },
};

/* sl_var_name - the name of a variable, as the tracer and --stop-on spell it */
const char *sl_var_name(int var)
{
	if (var < 0 || var > SL_STOP_ANY)
		return "unknown";
	return sl_vars[var].name;
}

/* sl_var_label - the name of a variable as the paper writes it */
const char *sl_var_label(int var)
{
	if (var < 0 || var > SL_STOP_ANY)
		return "unknown";
	return sl_vars[var].label;
}

/* sl_var_column - the heading of a variable's hist column */
const char *sl_var_column(int var)
{
	if (var < 0 || var > SL_STOP_ANY)
		return "unknown";
	return sl_vars[var].column;
}

/* sl_var_by_name - the variable (up to @last) named @name, or -1 */
int sl_var_by_name(const char *name, int last)
{
	int var;

	for (var = 0; var <= last && var <= SL_STOP_ANY; var++)
		if (!strcmp(name, sl_vars[var].name))
			return var;
	return -1;
}

/* sl_model_by_name - the characterization named @name (--model), or -1 */
int sl_model_by_name(const char *name)
{
	int m;

	for (m = 0; m < SLB_NR_MODELS; m++)
		if (!strcmp(name, slb_model_name(m)))
			return m;
	return -1;
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

/*
 * The names of the IRQs, as their handlers were requested: arm64's IPIs
 * are IRQs too (irq_handler_entry "IPI"), which /proc/interrupts lists by
 * IPI number only, so sysfs comes first.
 */
static char **sl_irq_names;
static int sl_nr_irq_names;

/*
 * sl_irq_line_name - the names of the IRQ of a /proc/interrupts @line, of
 * a kernel with @ncpus CPU columns, cut out of @line; NULL for a line that
 * is no numbered IRQ or names none. After the counts: the chip, then
 * the hwirq ("2", or "2-edge" with the flow's name), GENERIC_IRQ_SHOW_LEVEL's
 * "Level" or "Edge" (arm64), the flow's name alone ("-edge") for an IRQ
 * without a domain, then the names: "timer", "virtio0-requests",
 * "arch_timer", "ahci[0000:00:1f.2], eth0".
 */
char *sl_irq_line_name(char *line, int ncpus, int *irq)
{
	char *p, *end, *tok, *digits;
	int field;
	long n;

	n = strtol(line, &end, 10);
	if (end == line || *end != ':' || n < 0 || n > 65535)
		return NULL;
	p = end + 1;
	/* the CPU counts and the chip */
	for (field = 0; field < ncpus + 1; field++) {
		p += strspn(p, " \t");
		p += strcspn(p, " \t\n");
	}
	for (;;) {
		p += strspn(p, " \t");
		tok = p;
		p += strcspn(p, " \t\n");
		digits = tok + strspn(tok, "0123456789");
		if (digits > tok) {
			if (digits == p || *digits == '-')
				continue;
		} else if (*tok == '-' ||
			   (p - tok == 5 && !strncmp(tok, "Level", 5)) ||
			   (p - tok == 4 && !strncmp(tok, "Edge", 4))) {
			continue;
		}
		break;
	}
	p = tok;
	p[strcspn(p, "\n")] = '\0';
	if (!*p)
		return NULL;
	*irq = n;
	return p;
}

/* sl_set_irq_name - @name is IRQ @irq's; false without memory */
static bool sl_set_irq_name(int irq, const char *name)
{
	if (irq >= sl_nr_irq_names) {
		char **names = realloc(sl_irq_names, (irq + 1) * sizeof(*names));

		if (!names)
			return false;
		memset(names + sl_nr_irq_names, 0,
		       (irq + 1 - sl_nr_irq_names) * sizeof(*names));
		sl_irq_names = names;
		sl_nr_irq_names = irq + 1;
	}
	free(sl_irq_names[irq]);
	sl_irq_names[irq] = strdup(name);
	return true;
}

/* sl_load_proc_irq_names - every numbered IRQ's names, from /proc/interrupts */
static void sl_load_proc_irq_names(void)
{
	char *line = NULL, *tok, *save, *name;
	size_t size = 0;
	int ncpus = 0, irq;
	FILE *f;

	f = fopen("/proc/interrupts", "r");
	if (!f)
		return;
	/* the header: a CPU name per column */
	if (getline(&line, &size, f) > 0) {
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			ncpus++;
	}
	while (getline(&line, &size, f) > 0) {
		name = sl_irq_line_name(line, ncpus, &irq);
		if (name && !sl_set_irq_name(irq, name))
			break;
	}
	free(line);
	fclose(f);
}

/*
 * sl_irq_name - IRQ @irq's names: sysfs's actions of it (SPARSE_IRQ),
 * else /proc/interrupts', read once; NULL if neither has any
 */
static const char *sl_irq_name(int irq)
{
	static bool loaded;
	char path[64], buf[256];
	size_t len;
	FILE *f;

	if (irq < 0)
		return NULL;
	if (irq < sl_nr_irq_names && sl_irq_names[irq])
		return sl_irq_names[irq];
	snprintf(path, sizeof(path), "/sys/kernel/irq/%d/actions", irq);
	f = fopen(path, "r");
	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] && sl_set_irq_name(irq, buf))
			return sl_irq_names[irq];
	}
	if (!loaded) {
		loaded = true;
		sl_load_proc_irq_names();
		if (irq < sl_nr_irq_names)
			return sl_irq_names[irq];
	}
	return NULL;
}

/*
 * sl_source_name - an interrupt source as a user knows it: "nmi",
 * "local_timer:236" (an x86 vector, by its event's name), "virtio0:11"
 * (an IRQ, by its handlers' names), "vector:N" or "irq:N" without one
 */
int sl_source_name(int source, char *buf, size_t len)
{
	const char *name;
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
	name = sl_irq_name(source);
	if (name)
		return snprintf(buf, len, "%s:%d", name, source);
	return snprintf(buf, len, "irq:%d", source);
}

/* sl_term_name - the name of a term of the bound: a source or a variable */
int sl_term_name(const struct slb_term *term, char *buf, size_t len)
{
	if (term->is_source)
		return sl_source_name(term->id, buf, len);
	/* the engine's thread variables are the tracer's windows */
	if (term->id < 0 || term->id >= SL_NR_WINDOWS)
		return snprintf(buf, len, "unknown");
	return snprintf(buf, len, "%s", sl_var_label(term->id));
}

/* sl_params_init - the defaults of both modes, besides rtla's own */
void sl_params_init(struct sched_latency_params *params, const char *mode)
{
	params->mode = mode;
	params->stop_on = SL_STOP_ANY;
	params->model = SLB_SLIDING_WINDOW;
	params->tolerance_pct = -1;
	params->json.fd = -1;
	params->svg.fd = -1;
	params->common.output_divisor = 1000;
	params->common.hist.bucket_size = 1;
	params->common.hist.entries = SL_DEFAULT_ENTRIES;
}
