/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_latency_bound: the scheduling latency bound of Theorem 8 of
 * "Demystifying the Real-Time Linux Scheduling Latency" (ECRTS 2020):
 *
 *	L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)
 *
 * solved per CPU under six characterizations of the interrupt interference,
 * from the observed maxima of the four thread variables and a stream of
 * interrupt records.
 *
 * The engine ("slb", sched-latency bound) is plain C with no global state:
 * everything lives in a struct slb, so two analyses can run side by side.
 * It keeps no record of the stream: memory depends on the number of CPUs and
 * of distinct interrupt sources, never on the length of the run.
 *
 * See Documentation/tools/rtla/sched-latency-bound.rst.
 */
#ifndef __SCHED_LATENCY_BOUND_H
#define __SCHED_LATENCY_BOUND_H

#include <stdbool.h>
#include <stdint.h>

/* source id of the NMI; IRQ sources are their vector or number (>= 0) */
#define SLB_NMI			(-1)

/* the interrupt characterizations, in increasing order of pessimism */
enum slb_model {
	SLB_NO_INTERRUPTS = 0,
	SLB_WORST_SINGLE,
	SLB_WORST_EACH,
	SLB_SPORADIC,
	SLB_SLIDING_WINDOW,
	SLB_SLIDING_WINDOW_OWCET,
	SLB_NR_MODELS
};

/* the thread variables of Table 1 of the paper */
enum slb_var {
	SLB_POID = 0,
	SLB_PSD,
	SLB_ST,
	SLB_PAIE,
	SLB_NR_VARS
};

/* why a bound is missing */
enum slb_why {
	SLB_BOUNDED = 0,	/* the fixed point was found */
	SLB_OVERLOAD,		/* sporadic: sum of oWCET / min inter-arrival >= 1 */
	SLB_OVER_CAP,		/* the iteration went above the cap */
	SLB_NO_CONVERGENCE,	/* no fixed point after SLB_MAX_ITERATIONS steps */
};

#define SLB_MAX_ITERATIONS	1000000

struct slb_config {
	uint64_t grid_ns;	/* finest window-length step of the arrival curves */
	uint64_t fine_ns;	/* the step is grid_ns up to here, then relative */
	uint64_t horizon_ns;	/* longest window tracked from the stream */
	uint64_t cap_ns;	/* a bound above this is reported unbounded */
	unsigned int max_live;	/* occurrences of a source kept in the horizon */
};

#define SLB_DEFAULT_GRID_NS	64ULL
#define SLB_DEFAULT_FINE_NS	65536ULL
#define SLB_DEFAULT_HORIZON_NS	2000000ULL
#define SLB_DEFAULT_CAP_NS	1000000000ULL
#define SLB_DEFAULT_MAX_LIVE	512

/* limits of the configuration and of one record (about 4.29 s) */
#define SLB_MAX_NS		0xffffffffULL
#define SLB_MAX_LIVE		(1024U * 1024U)

/* one term of the equation at the fixed point */
struct slb_term {
	bool is_source;		/* a source (id is a source) or a variable */
	int id;			/* enum slb_var, or SLB_NMI / IRQ number */
	uint64_t ns;
};

/* what one source contributes to a bound */
struct slb_share {
	int source;
	uint64_t ns;		/* interference at the fixed point */
};

/* what the stream told about one source on one CPU */
struct slb_source_stats {
	int source;
	uint64_t count;		/* occurrences */
	uint64_t owcet;		/* longest execution time */
	uint64_t min_gap;	/* minimum inter-arrival; 0 with one occurrence */
	uint64_t total;		/* sum of the execution times (saturated) */
	uint64_t horizon;	/* windows up to this long are tracked exactly */
};

/* the bound of one CPU under one characterization, and why it is so */
struct slb_bound {
	enum slb_model model;
	int cpu;		/* the CPU this bound comes from */
	bool unbounded;
	enum slb_why why;
	uint64_t latency;	/* L; 0 when unbounded */
	uint64_t l_if;		/* max(D_ST, D_POID) + D_PAIE + D_PSD */
	uint64_t var[SLB_NR_VARS];
	uint64_t irq;		/* I_IRQ(L) (at the cap when unbounded) */
	uint64_t nmi;		/* I_NMI(L) (at the cap when unbounded) */
	unsigned int nr_shares;
	struct slb_share *shares;	/* one per source, NMI first, by id */
	struct slb_term dominant;	/* the largest term of the sum */
};

struct slb_result {
	int cpu;		/* the CPU, or -1 for the system */
	unsigned int nr_sources;
	struct slb_source_stats *sources;	/* per-CPU results only */
	struct slb_bound bound[SLB_NR_MODELS];
};

struct slb;

void slb_config_default(struct slb_config *cfg);
struct slb *slb_alloc(const struct slb_config *cfg, int nr_cpus);
void slb_free(struct slb *slb);
void slb_get_config(const struct slb *slb, struct slb_config *cfg);

int slb_set_var(struct slb *slb, int cpu, enum slb_var var, uint64_t ns);
int slb_add_interrupt(struct slb *slb, int cpu, int source, uint64_t start_ns,
		      uint64_t exec_ns);

int slb_compute_cpu(struct slb *slb, int cpu, struct slb_result *res);
void slb_result_fini(struct slb_result *res);
bool slb_bound_worse(const struct slb_bound *a, const struct slb_bound *b);

const char *slb_model_name(enum slb_model model);
const char *slb_why_name(enum slb_why why);

#endif /* __SCHED_LATENCY_BOUND_H */
