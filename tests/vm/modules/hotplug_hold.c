// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug_hold - hold a CPU that goes offline between the teardown of the
 * dynamic hotplug states (CPUHP_AP_ONLINE_DYN: the latency_parser tracer
 * parks the CPU's parser there) and its death, for latency_parser_start.t.
 *
 * A kthread bound to @cpu waits, with migration disabled, until the module
 * is unloaded. A CPU going offline waits in sched_cpu_wait_empty()
 * (CPUHP_AP_SCHED_WAIT_EMPTY, further down the teardown) until no task
 * pinned to it is left, so the offline stops there, with the CPU hotplug
 * lock held and the CPU idle, until the module goes. Loading the module
 * returns once the kthread is pinned.
 *
 * With @probes, two probes that do nothing are first hooked to each
 * tracepoint the tracer hooks, but @skip: the tracer's own probes then
 * join two others and flip no static key or static call, so they do not
 * wait for the hotplug lock while the offline is held (@skip's does).
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static unsigned int cpu = 1;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU to hold");

static bool probes;
module_param(probes, bool, 0444);
MODULE_PARM_DESC(probes, "hook two probes to each of the tracer's tracepoints");

static char *skip = "";
module_param(skip, charp, 0444);
MODULE_PARM_DESC(skip, "a tracepoint left without probes");

/* The tracepoints of the tracer: its own, and x86's system vectors. */
static const char * const hold_names[] = {
	"irq_handler_entry", "irq_handler_exit", "cpu_idle",
	"sched_entry_tp", "sched_exit_tp", "preempt_disable", "preempt_enable",
	"irq_disable", "irq_enable",
	"local_timer_entry", "local_timer_exit",
	"thermal_apic_entry", "thermal_apic_exit",
	"deferred_error_apic_entry", "deferred_error_apic_exit",
	"threshold_apic_entry", "threshold_apic_exit",
	"call_function_single_entry", "call_function_single_exit",
	"call_function_entry", "call_function_exit",
	"reschedule_entry", "reschedule_exit",
	"irq_work_entry", "irq_work_exit",
	"x86_platform_ipi_entry", "x86_platform_ipi_exit",
	"error_apic_entry", "error_apic_exit",
	"spurious_apic_entry", "spurious_apic_exit",
};

static struct tracepoint *hold_tps[ARRAY_SIZE(hold_names)];
static int hold_data[2];	/* the two probes' data */
static bool hold_hooked[ARRAY_SIZE(hold_names)][ARRAY_SIZE(hold_data)];
static struct task_struct *hold_task;
static DECLARE_COMPLETION(hold_pinned);
static DECLARE_COMPLETION(hold_release);

/* Called as any of the tracepoints' probes: their arguments are ignored. */
static void hold_probe(void *data)
{
}

static void hold_find(struct tracepoint *tp, void *unused)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hold_names); i++)
		if (!strcmp(tp->name, hold_names[i]) && strcmp(tp->name, skip))
			hold_tps[i] = tp;
}

static void hold_unhook(void)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(hold_tps); i++)
		for (j = 0; j < ARRAY_SIZE(hold_data); j++)
			if (hold_hooked[i][j]) {
				tracepoint_probe_unregister(hold_tps[i], hold_probe,
							    &hold_data[j]);
				hold_hooked[i][j] = false;
			}
	tracepoint_synchronize_unregister();
}

static int hold_hook(void)
{
	int i, j, ret;

	for_each_kernel_tracepoint(hold_find, NULL);
	for (i = 0; i < ARRAY_SIZE(hold_tps); i++) {
		if (!hold_tps[i])
			continue;
		for (j = 0; j < ARRAY_SIZE(hold_data); j++) {
			ret = tracepoint_probe_register(hold_tps[i], hold_probe,
							&hold_data[j]);
			if (ret) {
				hold_unhook();
				return ret;
			}
			hold_hooked[i][j] = true;
		}
	}
	return 0;
}

static int hotplug_hold(void *unused)
{
	migrate_disable();
	complete(&hold_pinned);
	/* Woken from another CPU: this one's softirq threads may be parked. */
	wait_for_completion(&hold_release);
	migrate_enable();

	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static int __init hotplug_hold_init(void)
{
	int ret;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	if (probes) {
		ret = hold_hook();
		if (ret)
			return ret;
	}
	hold_task = kthread_create(hotplug_hold, NULL, "hotplug_hold/%u", cpu);
	if (IS_ERR(hold_task)) {
		hold_unhook();
		return PTR_ERR(hold_task);
	}
	kthread_bind(hold_task, cpu);
	wake_up_process(hold_task);
	wait_for_completion(&hold_pinned);
	return 0;
}

static void __exit hotplug_hold_exit(void)
{
	/* The offline goes on first: a registration may be waiting for it. */
	complete(&hold_release);
	kthread_stop(hold_task);
	hold_unhook();
}

module_init(hotplug_hold_init);
module_exit(hotplug_hold_exit);

MODULE_DESCRIPTION("Hold a CPU between its hotplug teardown and its death, for the latency_parser tests");
MODULE_LICENSE("GPL");
