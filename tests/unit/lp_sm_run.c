// SPDX-License-Identifier: GPL-2.0
/*
 * lp_sm_run - the host's stand-in for the tracer's probes (see lp_sm_run.h).
 */
#include <string.h>

#include "lp_sm_run.h"

unsigned int lp_sm_run(const struct lp_sm_event *ev, unsigned int n,
		       struct lp_sm_record *out, unsigned int max)
{
	struct lp_sm_record rec[LP_SM_MAX_RECORDS];
	struct lp_sm sm;
	struct lp_sm_event e;
	unsigned int i, j, k, total = 0;

	memset(&sm, 0, sizeof(sm));
	for (i = 0; i < n; i++) {
		e = ev[i];
		if (e.type != LP_SM_NMI_ENTRY && e.type != LP_SM_NMI_EXIT)
			e.nmi_time = sm.nmi_time;
		k = latency_parser_sm_event(&sm, &e, rec);
		for (j = 0; j < k && total < max; j++)
			out[total++] = rec[j];
	}
	return total;
}

/*
 * The host's clock: the time of the event being parsed, which the parser
 * only gets by asking. Not the event's field, which holds a poison.
 */
static struct {
	u64		time;
	u64		nmi_time;
	unsigned int	reads;
} lp_host_clock;

#define LP_POISON_TIME	0xdeadbeefdeadbeefULL

void latency_parser_sm_stamp(struct lp_sm *sm, struct lp_sm_event *ev)
{
	(void)sm;
	ev->time = lp_host_clock.time;
	ev->nmi_time = lp_host_clock.nmi_time;
	lp_host_clock.reads++;
}

unsigned int lp_sm_event_lazy(struct lp_sm *sm, const struct lp_sm_event *ev,
			      struct lp_sm_record *out, unsigned int *clock_reads)
{
	return lp_sm_event_lazy_via(latency_parser_sm_event, sm, ev, out,
				    clock_reads);
}

unsigned int lp_sm_event_lazy_via(lp_sm_parse_fn parse, struct lp_sm *sm,
				  const struct lp_sm_event *ev,
				  struct lp_sm_record *out,
				  unsigned int *clock_reads)
{
	struct lp_sm_event e = *ev;
	unsigned int n;

	lp_host_clock.time = ev->time;
	lp_host_clock.nmi_time = sm->nmi_time;
	lp_host_clock.reads = 0;
	e.time = LP_POISON_TIME;
	e.nmi_time = LP_POISON_TIME;
	e.flags |= LP_SM_UNSTAMPED;
	n = parse(sm, &e, out);
	if (clock_reads)
		*clock_reads = lp_host_clock.reads;
	return n;
}

unsigned int lp_sm_run_lazy(const struct lp_sm_event *ev, unsigned int n,
			    struct lp_sm_record *out, unsigned int max,
			    unsigned int *clock_reads)
{
	struct lp_sm_record rec[LP_SM_MAX_RECORDS];
	struct lp_sm sm;
	unsigned int i, j, k, total = 0;

	memset(&sm, 0, sizeof(sm));
	for (i = 0; i < n; i++) {
		k = lp_sm_event_lazy(&sm, &ev[i], rec,
				     clock_reads ? &clock_reads[i] : NULL);
		for (j = 0; j < k && total < max; j++)
			out[total++] = rec[j];
	}
	return total;
}

const char *lp_sm_type_name(unsigned int type)
{
	static const char * const names[] = {
		[LP_SM_PREEMPT_DISABLE]	= "preempt_disable",
		[LP_SM_PREEMPT_ENABLE]	= "preempt_enable",
		[LP_SM_IRQ_DISABLE]	= "irq_disable",
		[LP_SM_IRQ_ENABLE]	= "irq_enable",
		[LP_SM_SCHED_ENTRY]	= "sched_entry",
		[LP_SM_SCHED_EXIT]	= "sched_exit",
		[LP_SM_IDLE_ENTER]	= "idle_enter",
		[LP_SM_IDLE_EXIT]	= "idle_exit",
		[LP_SM_IRQ_ENTRY]	= "irq_entry",
		[LP_SM_IRQ_EXIT]	= "irq_exit",
		[LP_SM_NMI_ENTRY]	= "nmi_entry",
		[LP_SM_NMI_EXIT]	= "nmi_exit",
		[LP_SM_CPU_OFFLINE]	= "cpu_offline",
		[LP_SM_CPU_ONLINE]	= "cpu_online",
		[LP_SM_REMOTE_RESCHED]	= "remote_resched",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

const char *lp_sm_var_name(unsigned int var)
{
	static const char * const names[] = {
		[LP_POID] = "poid", [LP_PSD] = "psd", [LP_DST] = "dst",
		[LP_PAIE] = "paie", [LP_IRQ] = "irq", [LP_NMI] = "nmi",
		[LP_DROPPED] = "dropped",
	};

	return var <= LP_DROPPED ? names[var] : "?";
}
