// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the tracer's events as they stream in: interrupt
 * executions into the bound engine, new maxima and stops, and the stack
 * traces that follow them.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_events.h"

/*
 * Events: the tracer's interrupt executions go straight into the bound
 * engine, so memory does not grow with the length of the run. Its max
 * events are only watched for a stop and for the stack that follows them:
 * the maxima themselves are read from the max file, which loses nothing.
 */

/*
 * sl_tool_of - the state of the run whose measuring instance an event came
 * from: rtla's collect_registered_events() passes the instance
 */
static struct sl_tool *sl_tool_of(void *context)
{
	struct osnoise_tool *top;

	top = container_of((struct trace_instance *)context, struct osnoise_tool, trace);
	return top->data;
}

/* sl_interrupt - one IRQ, vector or NMI execution of a latency_parser event */
static void sl_interrupt(struct sl_tool *tool, struct trace_seq *s,
			 struct tep_record *record, struct tep_event *event,
			 int source)
{
	unsigned long long id = 0, start = 0, duration = 0;
	struct sl_cpu *c;

	/* every CPU's executions reach the instance; only measured ones count */
	if (record->cpu < 0 || record->cpu >= nr_cpus ||
	    !sl_cpu_monitored(tool, record->cpu))
		return;
	c = &tool->cpu[record->cpu];

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
void sl_stop_tracing(struct sl_tool *tool)
{
	if (tool->record)
		trace_instance_stop(tool->record);
	trace_instance_stop(tool->trace);
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
		if (!strcmp(name, sl_var_name(var)))
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
	struct sched_latency_params *params = tool->params;
	struct sl_stop *stop = &tool->events->stop;
	char name[64], instance[256];
	struct sl_events_cpu *c;
	bool stopping, first;
	int var;

	if (record->cpu < 0 || record->cpu >= nr_cpus)
		return 0;
	c = &tool->events->cpu[record->cpu];

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
		stopping = params->common.stop_us && params->stop_on == (int)var &&
			   value > (unsigned long long)params->common.stop_us * 1000;

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
	struct sl_stop *stop = &tool->events->stop;
	struct sl_events_cpu *c;

	if (record->cpu < 0 || record->cpu >= nr_cpus)
		return 0;
	c = &tool->events->cpu[record->cpu];
	if (c->pending_var < 0)
		return 0;

	sl_read_stack(s, record, event, &c->stack[c->pending_var]);
	if (c->pending_stop) {
		stop->stack = c->stack[c->pending_var];
		stop->has_stack = true;
	}
	c->pending_var = -1;
	c->pending_stop = false;
	return 0;
}

/*
 * sl_window_stack - the stack of the latest new maximum of @var on @cpu:
 * the window that dominates a bound; false when none was recorded
 */
bool sl_window_stack(struct sl_tool *tool, int cpu, int var, struct sl_stack *stack)
{
	const struct sl_stack *s;

	if (cpu < 0 || cpu >= nr_cpus || var < 0 || var >= SL_NR_VARS)
		return false;
	s = &tool->events->cpu[cpu].stack[var];
	if (!s->nr)
		return false;
	*stack = *s;
	return true;
}

/*
 * sl_events_init - the state of the handlers, and the tracer's events to
 * them. Returns 0, or -1 without memory.
 */
int sl_events_init(struct sl_tool *tool)
{
	struct sl_events *ev;
	int cpu;

	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -1;
	ev->cpu = calloc(nr_cpus, sizeof(*ev->cpu));
	if (!ev->cpu) {
		free(ev);
		return -1;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		ev->cpu[cpu].pending_var = -1;
	tool->events = ev;

	tep_register_event_handler(tool->trace->tep, -1, "latency_parser", "irq_execution",
				   sl_irq_handler, tool);
	tep_register_event_handler(tool->trace->tep, -1, "latency_parser", "vector_execution",
				   sl_vector_handler, tool);
	tep_register_event_handler(tool->trace->tep, -1, "latency_parser", "nmi_execution",
				   sl_nmi_handler, tool);
	tep_register_event_handler(tool->trace->tep, -1, "latency_parser", "new_max",
				   sl_max_handler, tool);
	tep_register_event_handler(tool->trace->tep, -1, "latency_parser", "threshold_stop",
				   sl_stop_handler, tool);
	tep_register_event_handler(tool->trace->tep, -1, "ftrace", "kernel_stack",
				   sl_stack_handler, tool);
	return 0;
}

/* sl_events_free - release the state of the handlers */
void sl_events_free(struct sl_tool *tool)
{
	if (!tool->events)
		return;
	free(tool->events->cpu);
	free(tool->events);
	tool->events = NULL;
}
