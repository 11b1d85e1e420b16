// SPDX-License-Identifier: GPL-2.0
/*
 * empty_probes - attach probes that do nothing to the tracepoints that the
 * latency_parser tracer hooks on every toggle: what the tracepoint calls
 * alone cost, the floor under any tracer built on them (make bench-vm).
 * With clock=1 the probes only read the clock, as any tracer that times
 * the toggles must: the floor under those.
 *
 * The preemptirq and sched_entry/exit tracepoints are not exported to
 * modules, so they are looked up by name.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static bool clock;
module_param(clock, bool, 0444);
MODULE_PARM_DESC(clock, "read the clock in every probe");

static DEFINE_PER_CPU(u64, last_stamp);

static void empty_toggle(void *data, unsigned long ip, unsigned long parent_ip)
{
	if (clock)
		this_cpu_write(last_stamp, sched_clock());
}

static void empty_sched(void *data, bool flag)
{
	if (clock)
		this_cpu_write(last_stamp, sched_clock());
}

struct empty_hook {
	const char		*name;
	void			*probe;
	struct tracepoint	*tp;
	bool			registered;
};

static struct empty_hook hooks[] = {
	{ .name = "preempt_disable",	.probe = empty_toggle },
	{ .name = "preempt_enable",	.probe = empty_toggle },
	{ .name = "irq_disable",	.probe = empty_toggle },
	{ .name = "irq_enable",		.probe = empty_toggle },
	{ .name = "sched_entry_tp",	.probe = empty_sched },
	{ .name = "sched_exit_tp",	.probe = empty_sched },
};

static void empty_find(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(tp->name, hooks[i].name))
			hooks[i].tp = tp;
}

static void empty_unregister(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].registered)
			continue;
		tracepoint_probe_unregister(hooks[i].tp, hooks[i].probe, NULL);
		hooks[i].registered = false;
	}
	tracepoint_synchronize_unregister();
}

static int __init empty_probes_init(void)
{
	int i, ret;

	for_each_kernel_tracepoint(empty_find, NULL);
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].tp) {
			pr_err("empty_probes: no tracepoint %s\n", hooks[i].name);
			ret = -ENOENT;
			goto out;
		}
		ret = tracepoint_probe_register(hooks[i].tp, hooks[i].probe, NULL);
		if (ret)
			goto out;
		hooks[i].registered = true;
	}
	return 0;
out:
	empty_unregister();
	return ret;
}

static void __exit empty_probes_exit(void)
{
	empty_unregister();
}

module_init(empty_probes_init);
module_exit(empty_probes_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Empty probes on latency_parser's tracepoints, for its cost benchmark");
