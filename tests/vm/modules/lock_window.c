// SPDX-License-Identifier: GPL-2.0
/*
 * lock_window - windows opened inside the lock functions, for the
 * latency_parser VM tests (latency_parser_names.t). On CPU @cpu, in a
 * kworker (preemption and IRQs enabled), the function of @mode holds a raw
 * spinlock for @delay_us:
 *
 *	irqsave   lock_window_irqsave(): raw_spin_lock_irqsave(), so the
 *		  window opens at the irq_disable made inside
 *		  _raw_spin_lock_irqsave();
 *	preempt   lock_window_preempt(): raw_spin_lock(), so it opens at the
 *		  preempt_disable made inside _raw_spin_lock().
 *
 * Either way the toggle is made in a lock function: the window is named
 * after it, or after its caller, the function of @mode, when the
 * tracepoint knows it. The window's stack trace, taken where it closed,
 * shows the function of @mode. The module stays loaded after the window,
 * so that the trace still resolves these names.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static char *mode = "irqsave";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "irqsave or preempt: how the lock is taken");

static unsigned int delay_us = 1000;
module_param(delay_us, uint, 0444);
MODULE_PARM_DESC(delay_us, "how long the lock is held (us, at most 20000)");

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU the window runs on");

static DEFINE_RAW_SPINLOCK(lock_window_lock);

static noinline void lock_window_irqsave(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lock_window_lock, flags);
	udelay(delay_us);
	raw_spin_unlock_irqrestore(&lock_window_lock, flags);
	/* No tail call: the window's stack trace shows this function. */
	barrier();
}

static noinline void lock_window_preempt(void)
{
	raw_spin_lock(&lock_window_lock);
	udelay(delay_us);
	raw_spin_unlock(&lock_window_lock);
	barrier();
}

static int lock_window_run(void *fn)
{
	((void (*)(void))fn)();
	return 0;
}

static int __init lock_window_init(void)
{
	void (*fn)(void);

	if (!strcmp(mode, "irqsave"))
		fn = lock_window_irqsave;
	else if (!strcmp(mode, "preempt"))
		fn = lock_window_preempt;
	else
		return -EINVAL;
	if (delay_us > 20000)
		return -EINVAL;
	/* In a kworker of @cpu: -ENXIO if @cpu is not online. */
	return smp_call_on_cpu(cpu, lock_window_run, fn, false);
}

static void __exit lock_window_exit(void)
{
}

module_init(lock_window_init);
module_exit(lock_window_exit);

MODULE_DESCRIPTION("Windows opened inside the lock functions, for the latency_parser tests");
MODULE_LICENSE("GPL");
