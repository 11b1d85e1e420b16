// SPDX-License-Identifier: GPL-2.0
/*
 * empty_probes - attach probes that do nothing to the tracepoints that the
 * latency_parser tracer hooks on every toggle: what the tracepoint calls
 * alone cost, the floor under any tracer built on them (make bench-vm).
 *
 * The preemptirq and sched_entry/exit tracepoints are not exported to
 * modules, so they are looked up by name.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static void empty_toggle(void *data, unsigned long ip, unsigned long parent_ip)
{
}

static void empty_sched(void *data, bool flag)
{
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
