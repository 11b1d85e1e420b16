/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency, the pictures (--svg): top's bound chart, and hist's
 * histograms, which the hist mode gathers into a struct sl_hist_pic.
 */
#ifndef __SCHED_LATENCY_SVG_H
#define __SCHED_LATENCY_SVG_H

#include <stddef.h>

#include "sched_latency_core.h"

/*
 * hist --svg: the kernel's histograms in at most SL_PIC_BINS bins per
 * variable, each of whole buckets, up to the last bucket any CPU shown
 * used; bin SL_PIC_OVER counts what fell over the histogram's range
 */
#define SL_PIC_BINS		100
#define SL_PIC_OVER		SL_PIC_BINS

struct sl_hist_pic {
	unsigned long long	bin_ns[SL_NR_VARS];
	int			nr_bins[SL_NR_VARS];
	unsigned long long	range_ns;	/* bucket size times entries */
	bool			*cpu_shown;	/* [cpu]: a column in hist's output */
	/* [(var * nr_cpus + cpu) * (SL_PIC_BINS + 1) + bin] */
	unsigned long long	*count;
};

struct sl_hist_pic *sl_hist_pic_alloc(int nr_cpus);
void sl_hist_pic_free(struct sl_hist_pic *pic);
int sl_write_svg(struct sl_tool *tool);

/* sl_pic_counts - the bins of @var on @cpu, SL_PIC_OVER the last */
static inline unsigned long long *sl_pic_counts(const struct sl_hist_pic *pic,
						int nr_cpus, int var, int cpu)
{
	return pic->count + ((size_t)var * nr_cpus + cpu) * (SL_PIC_BINS + 1);
}

#endif /* __SCHED_LATENCY_SVG_H */
