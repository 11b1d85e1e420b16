// SPDX-License-Identifier: GPL-2.0
/*
 * sched_latency_bound: solve L = L_IF + I_NMI(L) + I_IRQ(L) per CPU.
 *
 * The story of this file, in the order the data flows: saturating
 * arithmetic, the window-length grid, per-source state and its lookup, the
 * per-record update of the observed arrival curves, the interference of a
 * source under each characterization, the fixed point, and the results.
 *
 * Windows are half-open: an interrupt occurrence is inside [a, a + t) when
 * its *start* time is, as the classic response-time analysis counts
 * ceil(t / T) releases of a sporadic source in a window of length t. A run of
 * occurrences whose starts are d ns apart (its spread) fits in a window of
 * length t if and only if d < t.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sched_latency_bound.h"

#define SLB_INFINITY		UINT64_MAX
#define SLB_EMPTY_KEY		INT_MIN
#define SLB_FIRST_LIVE		16
#define SLB_FIRST_SLOTS		16
/* rebase the running sums of a source before they can overflow */
#define SLB_REBASE_AT		(UINT64_MAX >> 2)
/* a saturated bin: the demand is at least SLB_MAX_NS, above any cap */
#define SLB_BIN_FULL		UINT32_MAX

/* a past occurrence still inside the horizon */
struct slb_live {
	uint64_t start;
	uint64_t pre;		/* running sum of execution times before it */
};

/*
 * One bin of the arrival curves of a source: the most execution time, and
 * the most occurrences, seen in a run whose spread falls in the bin. Both
 * share a cache line, as the per-record loop updates them together.
 */
struct slb_bin {
	uint32_t demand;	/* saturated at SLB_BIN_FULL */
	uint32_t count;
};

/* one interrupt source (IRQ vector/number, or the NMI) of one CPU */
struct slb_source {
	int id;
	uint64_t count;
	uint64_t owcet;
	uint64_t min_gap;	/* SLB_INFINITY until a second occurrence */
	uint64_t total;		/* saturated sum of the execution times */
	uint64_t last;
	uint64_t sum;		/* running sum, rebased (see slb_rebase()) */
	uint64_t horizon;	/* windows up to here are tracked exactly */

	struct slb_live *live;	/* live[head..tail), oldest first */
	unsigned int head;
	unsigned int tail;
	unsigned int live_alloc;

	struct slb_bin *bin;	/* nr_bins bins, see slb_bin() */
	unsigned int top;	/* no run was recorded in a bin above this */
	unsigned int nr_norm;	/* bin[0..nr_norm) are prefix maxima */
};

struct slb_cpu {
	uint64_t var[SLB_NR_VARS];
	struct slb_source **src;
	unsigned int nr_src;
	unsigned int src_alloc;
	/* open addressing: key[] holds source ids, slot[] their index */
	int *key;
	unsigned int *slot;
	unsigned int slot_mask;
	struct slb_source *last;	/* the source of the previous record */
};

struct slb {
	struct slb_config cfg;
	unsigned int grid_shift;	/* grid_ns == 1 << grid_shift */
	unsigned int sub_shift;		/* 1 << sub_shift bins per octave */
	unsigned int nr_bins;
	int nr_cpus;
	struct slb_cpu *cpu;
};

/* sat_add - a + b, saturated at UINT64_MAX */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return UINT64_MAX;
	return r;
}

/* sat_mul - a * b, saturated at UINT64_MAX */
static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return UINT64_MAX;
	return r;
}

/* div_up - ceil(a / b), b > 0, without overflowing on a + b - 1 */
static inline uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* ilog2 - floor(log2(v)), v > 0 */
static inline unsigned int ilog2(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/*
 * The window-length grid. A spread d falls in grid unit m = d >> grid_shift.
 * The first 2S units (S = 1 << sub_shift, 2S units = fine_ns) have one bin
 * each; after that every octave of m is cut in S bins, so a bin is never
 * wider than 1/S of the spreads it holds: fine near zero, where latencies
 * live, and coarser far out, where a few ns of window length do not matter.
 */

/*
 * bin_of - the bin of spread d, for a grid of 1 << shift ns and 1 << sub
 * bins per octave: e is 0 in the fine part (m < 2S), where the bin is m.
 */
static inline unsigned int bin_of(uint64_t d, unsigned int shift,
				  unsigned int sub)
{
	uint64_t m = d >> shift;
	unsigned int e = ilog2(m | (1ULL << sub)) - sub;

	return (e << sub) + (m >> e);
}

/* slb_bin - the bin of spread d */
static inline unsigned int slb_bin(const struct slb *slb, uint64_t d)
{
	return bin_of(d, slb->grid_shift, slb->sub_shift);
}

/* slb_config_default - 64 ns grid up to 64 us, 2 ms horizon, 1 s cap */
void slb_config_default(struct slb_config *cfg)
{
	cfg->grid_ns = SLB_DEFAULT_GRID_NS;
	cfg->fine_ns = SLB_DEFAULT_FINE_NS;
	cfg->horizon_ns = SLB_DEFAULT_HORIZON_NS;
	cfg->cap_ns = SLB_DEFAULT_CAP_NS;
	cfg->max_live = SLB_DEFAULT_MAX_LIVE;
}

/* slb_check_config - reject a configuration the engine cannot honour */
static int slb_check_config(const struct slb_config *cfg)
{
	if (!cfg->grid_ns || cfg->grid_ns > SLB_MAX_NS)
		return -EINVAL;
	if (cfg->fine_ns < 2 * cfg->grid_ns || cfg->fine_ns > SLB_MAX_NS)
		return -EINVAL;
	if (cfg->horizon_ns < cfg->grid_ns || cfg->horizon_ns > SLB_MAX_NS)
		return -EINVAL;
	if (!cfg->cap_ns || cfg->cap_ns >= SLB_MAX_NS)
		return -EINVAL;
	if (cfg->max_live < 2 || cfg->max_live > SLB_MAX_LIVE)
		return -EINVAL;
	return 0;
}

/*
 * slb_alloc - a new analysis of nr_cpus CPUs; NULL cfg means the defaults
 *
 * grid_ns and the number of bins per octave are rounded down to powers of
 * two, so that the per-record loop shifts instead of dividing; a finer grid
 * only makes the bound tighter. slb_get_config() tells the values in use.
 * Returns NULL with errno set on error.
 */
struct slb *slb_alloc(const struct slb_config *cfg, int nr_cpus)
{
	struct slb_config def;
	struct slb *slb;
	uint64_t sub;

	if (!cfg) {
		slb_config_default(&def);
		cfg = &def;
	}
	if (nr_cpus <= 0 || slb_check_config(cfg)) {
		errno = EINVAL;
		return NULL;
	}

	slb = calloc(1, sizeof(*slb));
	if (!slb)
		return NULL;
	slb->cfg = *cfg;
	slb->grid_shift = ilog2(cfg->grid_ns);
	slb->cfg.grid_ns = 1ULL << slb->grid_shift;
	sub = cfg->fine_ns / (2 * slb->cfg.grid_ns);
	slb->sub_shift = ilog2(sub);
	slb->cfg.fine_ns = (2ULL << slb->sub_shift) << slb->grid_shift;
	slb->nr_bins = slb_bin(slb, slb->cfg.horizon_ns - 1) + 1;
	slb->nr_cpus = nr_cpus;

	slb->cpu = calloc(nr_cpus, sizeof(*slb->cpu));
	if (!slb->cpu) {
		free(slb);
		return NULL;
	}
	return slb;
}

/* slb_free_source - release one source */
static void slb_free_source(struct slb_source *src)
{
	free(src->live);
	free(src->bin);
	free(src);
}

/* slb_free - release an analysis and everything it holds */
void slb_free(struct slb *slb)
{
	unsigned int i;
	int c;

	if (!slb)
		return;
	for (c = 0; c < slb->nr_cpus; c++) {
		struct slb_cpu *cpu = &slb->cpu[c];

		for (i = 0; i < cpu->nr_src; i++)
			slb_free_source(cpu->src[i]);
		free(cpu->src);
		free(cpu->key);
		free(cpu->slot);
	}
	free(slb->cpu);
	free(slb);
}

/* slb_get_config - the configuration in use, after rounding */
void slb_get_config(const struct slb *slb, struct slb_config *cfg)
{
	*cfg = slb->cfg;
}

/* slb_set_var - record an observed value of a thread variable (max kept) */
int slb_set_var(struct slb *slb, int cpu, enum slb_var var, uint64_t ns)
{
	if (cpu < 0 || cpu >= slb->nr_cpus || (unsigned int)var >= SLB_NR_VARS)
		return -EINVAL;
	if (ns > slb->cpu[cpu].var[var])
		slb->cpu[cpu].var[var] = ns;
	return 0;
}

/* slb_hash - the home slot of a source id */
static inline unsigned int slb_hash(int id, unsigned int mask)
{
	return ((uint32_t)id * 0x9e3779b1U >> 7) & mask;
}

/* slb_insert_slot - put id -> index in a table known to have room */
static void slb_insert_slot(int *key, unsigned int *slot, unsigned int mask,
			    int id, unsigned int index)
{
	unsigned int h = slb_hash(id, mask);

	while (key[h] != SLB_EMPTY_KEY)
		h = (h + 1) & mask;
	key[h] = id;
	slot[h] = index;
}

/* slb_grow_slots - double the id table, keeping it at most half full */
static int slb_grow_slots(struct slb_cpu *cpu)
{
	unsigned int size = cpu->key ? 2 * (cpu->slot_mask + 1) : SLB_FIRST_SLOTS;
	unsigned int *slot;
	unsigned int i;
	int *key;

	key = malloc(size * sizeof(*key));
	slot = malloc(size * sizeof(*slot));
	if (!key || !slot) {
		free(key);
		free(slot);
		return -ENOMEM;
	}
	for (i = 0; i < size; i++)
		key[i] = SLB_EMPTY_KEY;
	for (i = 0; i < cpu->nr_src; i++)
		slb_insert_slot(key, slot, size - 1, cpu->src[i]->id, i);

	free(cpu->key);
	free(cpu->slot);
	cpu->key = key;
	cpu->slot = slot;
	cpu->slot_mask = size - 1;
	return 0;
}

/* slb_new_source - allocate the state of a source seen for the first time */
static struct slb_source *slb_new_source(const struct slb *slb, int id)
{
	struct slb_source *src;

	src = calloc(1, sizeof(*src));
	if (!src)
		return NULL;
	src->id = id;
	src->min_gap = SLB_INFINITY;
	src->horizon = slb->cfg.horizon_ns;
	src->nr_norm = 1;	/* a bin alone is its own prefix maximum */
	src->live_alloc = SLB_FIRST_LIVE;
	src->live = malloc(src->live_alloc * sizeof(*src->live));
	src->bin = calloc(slb->nr_bins, sizeof(*src->bin));
	if (!src->live || !src->bin) {
		slb_free_source(src);
		return NULL;
	}
	return src;
}

/* slb_find_source - the state of source id on cpu, created on first use */
static struct slb_source *slb_find_source(const struct slb *slb,
					  struct slb_cpu *cpu, int id)
{
	struct slb_source *src;
	unsigned int h;

	if (cpu->last && cpu->last->id == id)
		return cpu->last;

	if (cpu->key) {
		for (h = slb_hash(id, cpu->slot_mask); cpu->key[h] != SLB_EMPTY_KEY;
		     h = (h + 1) & cpu->slot_mask) {
			if (cpu->key[h] == id) {
				cpu->last = cpu->src[cpu->slot[h]];
				return cpu->last;
			}
		}
	}

	if (!cpu->key || 2 * (cpu->nr_src + 1) > cpu->slot_mask + 1) {
		if (slb_grow_slots(cpu))
			return NULL;
	}
	if (cpu->nr_src == cpu->src_alloc) {
		unsigned int alloc = cpu->src_alloc ? 2 * cpu->src_alloc : 8;
		struct slb_source **array;

		array = realloc(cpu->src, alloc * sizeof(*array));
		if (!array)
			return NULL;
		cpu->src = array;
		cpu->src_alloc = alloc;
	}
	src = slb_new_source(slb, id);
	if (!src)
		return NULL;
	slb_insert_slot(cpu->key, cpu->slot, cpu->slot_mask, id, cpu->nr_src);
	cpu->src[cpu->nr_src++] = src;
	cpu->last = src;
	return src;
}

/*
 * slb_rebase - keep the running sum of a source far from overflowing
 *
 * Only differences of running sums are ever used, and those are bounded by
 * the live occurrences (at most SLB_MAX_LIVE of at most SLB_MAX_NS each), so
 * subtracting the same base from all of them keeps every difference exact.
 */
static void slb_rebase(struct slb_source *src)
{
	uint64_t base = src->head < src->tail ? src->live[src->head].pre : src->sum;
	unsigned int i;

	for (i = src->head; i < src->tail; i++)
		src->live[i].pre -= base;
	src->sum -= base;
}

/* slb_make_room - make room to append one live occurrence */
static int slb_make_room(const struct slb *slb, struct slb_source *src)
{
	unsigned int nr = src->tail - src->head;
	struct slb_live *live;
	unsigned int alloc;

	if (src->tail < src->live_alloc)
		return 0;

	/* compact when at most half is live: amortized O(1) per record */
	if (2 * nr <= src->live_alloc) {
		memmove(src->live, src->live + src->head, nr * sizeof(*live));
		src->head = 0;
		src->tail = nr;
		return 0;
	}
	/* never above 2 * max_live, where compaction always succeeds */
	alloc = 2 * src->live_alloc;
	if (alloc > 2 * slb->cfg.max_live)
		alloc = 2 * slb->cfg.max_live;
	live = realloc(src->live, alloc * sizeof(*live));
	if (!live)
		return -ENOMEM;
	src->live = live;
	src->live_alloc = alloc;
	return 0;
}

/*
 * slb_record - keep a run of n occurrences, w ns of execution, in bin b;
 * whether the bin grew
 */
static inline bool slb_record(struct slb_bin *b, uint64_t w, uint32_t n)
{
	bool grew = false;

	if (w > b->demand) {
		b->demand = w < SLB_BIN_FULL ? w : SLB_BIN_FULL;
		grew = true;
	}
	if (n > b->count) {
		b->count = n;
		grew = true;
	}
	return grew;
}

/*
 * slb_grew - bin k of src grew: the prefix maxima above it are stale. Bin k
 * itself still is one: it held the maximum of the bins up to it, and took
 * the larger of that and the run.
 */
static inline void slb_grew(struct slb_source *src, unsigned int k)
{
	if (k < src->nr_norm)
		src->nr_norm = k + 1;
}

/*
 * slb_walk - update the arrival curves with every run ending at a new
 * occurrence that starts at start, with end_sum the running sum through it
 *
 * This is the hot loop: one pass over the live occurrences, newest first,
 * so the spread only grows and the bins are touched in increasing order.
 * It records each run in its own bin (raw maxima): the prefix maximum that
 * makes the curves monotone is taken when a curve is read (slb_curve_bin()).
 */
static void slb_walk(const struct slb *slb, struct slb_source *src,
		     uint64_t start, uint64_t end_sum)
{
	const struct slb_live *first = src->live + src->head;
	const struct slb_live *p = src->live + src->tail;
	/* local copies: the compiler cannot tell they survive stores to bins */
	const unsigned int shift = slb->grid_shift;
	const unsigned int sub = slb->sub_shift;
	struct slb_bin *bin = src->bin;
	unsigned int k = 0, lowest = UINT_MAX;
	uint32_t n = 1;

	while (p > first) {
		p--;
		k = bin_of(start - p->start, shift, sub);
		if (slb_record(&bin[k], end_sum - p->pre, ++n) && k < lowest)
			lowest = k;
	}
	/* the oldest run has the longest spread, so the highest bin */
	if (k > src->top)
		src->top = k;
	slb_grew(src, lowest);
}

/*
 * slb_add_interrupt - account one interrupt occurrence on a CPU
 *
 * Records must come in start-time order per CPU. A record that starts
 * before the previous one of its source is taken as starting with it: that
 * only shrinks spreads, which can only raise the curves, so it stays sound.
 * Returns 0, -EINVAL on a bad CPU or source, -ENOMEM.
 */
int slb_add_interrupt(struct slb *slb, int cpu, int source, uint64_t start_ns,
		      uint64_t exec_ns)
{
	uint64_t horizon = slb->cfg.horizon_ns;
	struct slb_source *src;
	struct slb_live *live;

	if (cpu < 0 || cpu >= slb->nr_cpus || source < SLB_NMI)
		return -EINVAL;
	src = slb_find_source(slb, &slb->cpu[cpu], source);
	if (!src)
		return -ENOMEM;
	if (slb_make_room(slb, src))
		return -ENOMEM;

	/* an execution this long is above any cap already */
	if (exec_ns > SLB_MAX_NS)
		exec_ns = SLB_MAX_NS;

	if (src->count) {
		if (start_ns < src->last)
			start_ns = src->last;
		if (start_ns - src->last < src->min_gap)
			src->min_gap = start_ns - src->last;
	}
	src->last = start_ns;
	src->count++;
	src->total = sat_add(src->total, exec_ns);
	if (exec_ns > src->owcet)
		src->owcet = exec_ns;

	/* runs reaching back a horizon or more are never needed */
	while (src->head < src->tail &&
	       start_ns - src->live[src->head].start >= horizon)
		src->head++;

	/*
	 * Too many live occurrences: forget the oldest. The runs it would
	 * start from now on span at least start_ns - its start, so windows
	 * shorter than that are still tracked exactly.
	 */
	if (src->tail - src->head >= slb->cfg.max_live) {
		uint64_t lost = start_ns - src->live[src->head].start;

		if (lost < src->horizon)
			src->horizon = lost;
		src->head++;
	}

	if (src->sum >= SLB_REBASE_AT)
		slb_rebase(src);

	/* the occurrence alone: a run of one, spread 0 */
	if (slb_record(&src->bin[0], exec_ns, 1))
		slb_grew(src, 0);
	slb_walk(slb, src, start_ns, src->sum + exec_ns);

	live = &src->live[src->tail++];
	live->start = start_ns;
	live->pre = src->sum;
	src->sum += exec_ns;
	return 0;
}

/*
 * slb_curve_bin - the bin of window length t >= 1 as a monotone curve
 *
 * A curve's value at bin k is the maximum of the raw bins up to k: a run
 * that fits a window also fits every longer one. The prefix maxima are
 * taken here, only as far as a read needs them (the solver reads a few
 * window lengths of thousands of bins), and kept: they describe the same
 * observations as the raw bins, so later records can keep updating them as
 * raw maxima (slb_grew() marks what they make stale). No run was recorded
 * above src->top: the bins there read as the top one.
 */
static const struct slb_bin *slb_curve_bin(const struct slb *slb,
					   struct slb_source *src, uint64_t t)
{
	unsigned int k = slb_bin(slb, t - 1);
	struct slb_bin *bin = src->bin;
	unsigned int i;

	if (k > src->top)
		k = src->top;
	for (i = src->nr_norm; i <= k; i++) {
		if (bin[i].demand < bin[i - 1].demand)
			bin[i].demand = bin[i - 1].demand;
		if (bin[i].count < bin[i - 1].count)
			bin[i].count = bin[i - 1].count;
	}
	if (k >= src->nr_norm)
		src->nr_norm = k + 1;
	return &bin[k];
}

/*
 * curve_demand - most execution time seen in a window of length t >= 1
 *
 * The runs that fit a window of length t have spreads up to t - 1; the bin
 * of t - 1, as a curve, holds the most of all runs with spreads
 * up to the end of that bin: the window length is rounded up, never down.
 */
static uint64_t curve_demand(const struct slb *slb, struct slb_source *src,
			     uint64_t t)
{
	uint32_t w = slb_curve_bin(slb, src, t)->demand;

	return w == SLB_BIN_FULL ? SLB_INFINITY : w;
}

/* curve_count - most occurrences seen in a window of length t >= 1 */
static uint64_t curve_count(const struct slb *slb, struct slb_source *src,
			    uint64_t t)
{
	return slb_curve_bin(slb, src, t)->count;
}

/*
 * curve_extend - a tracked curve f at any window length t >= 1
 *
 * Up to the horizon h of the source the curve is read directly. Beyond it,
 * a window of length t = q * h + r (0 < r <= h) is covered by q windows of
 * length h and one of length r, so f(t) <= q * f(h) + f(r): sound, and
 * tighter than ceil(t / h) * f(h). A horizon of 0 (an occurrence flood that
 * overflowed max_live at a single instant) tracks nothing: infinity.
 */
static uint64_t curve_extend(const struct slb *slb, struct slb_source *src,
			     uint64_t t,
			     uint64_t (*f)(const struct slb *, struct slb_source *,
					   uint64_t))
{
	uint64_t h = src->horizon;
	uint64_t q;

	if (t <= h)
		return f(slb, src, t);
	if (!h)
		return SLB_INFINITY;
	q = (t - 1) / h;
	return sat_add(sat_mul(q, f(slb, src, h)), f(slb, src, t - q * h));
}

/*
 * sporadic_count - most occurrences a sporadic source has in a window of t
 *
 * A source seen once has no inter-arrival time: it is counted once in any
 * window, which is all that was observed (as in worst_each). Simultaneous
 * occurrences (a gap of 0) have no bound at all.
 */
static uint64_t sporadic_count(const struct slb_source *src, uint64_t t)
{
	if (src->count == 1)
		return 1;
	if (!src->min_gap)
		return SLB_INFINITY;
	return div_up(t, src->min_gap);
}

/* min3 - the least of three */
static inline uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* what solving one characterization on one CPU needs */
struct slb_solver {
	const struct slb *slb;
	struct slb_source **src;	/* sorted by id */
	unsigned int nr;
	enum slb_model model;
	unsigned int single;		/* worst_single: the longest IRQ, or nr */
};

/*
 * interference - I_s(t) of source i in a window of length t >= 1
 *
 * The sliding-window curves are also capped by the sporadic count and by
 * the whole observation: all three are sound bounds of the same observed
 * arrival pattern, and the minimum keeps the characterizations ordered
 * (sliding_window <= sliding_window_owcet <= sporadic).
 */
static uint64_t interference(const struct slb_solver *sv, unsigned int i,
			     uint64_t t)
{
	struct slb_source *src = sv->src[i];
	uint64_t n;

	switch (sv->model) {
	case SLB_NO_INTERRUPTS:
		return 0;
	case SLB_WORST_SINGLE:
		return (i == sv->single || src->id == SLB_NMI) ? src->owcet : 0;
	case SLB_WORST_EACH:
		return src->owcet;
	case SLB_SPORADIC:
		return sat_mul(sporadic_count(src, t), src->owcet);
	case SLB_SLIDING_WINDOW:
		return min3(curve_extend(sv->slb, src, t, curve_demand),
			    sat_mul(sporadic_count(src, t), src->owcet),
			    src->total);
	case SLB_SLIDING_WINDOW_OWCET:
		n = min3(curve_extend(sv->slb, src, t, curve_count),
			 sporadic_count(src, t), src->count);
		return sat_mul(n, src->owcet);
	default:
		return 0;
	}
}

/* overloaded - whether the sporadic characterization has no fixed point */
static bool overloaded(const struct slb_solver *sv, uint64_t lif)
{
	long double u = 0;
	unsigned int i;

	for (i = 0; i < sv->nr; i++) {
		const struct slb_source *src = sv->src[i];

		if (src->count < 2 || !src->owcet)
			continue;
		/* one source alone fills the CPU: oWCET >= min inter-arrival */
		if (src->owcet >= src->min_gap)
			return true;
		u += (long double)src->owcet / src->min_gap;
	}
	/*
	 * With U >= 1, I(L) >= U * L >= L, so L = L_IF + I(L) has no solution
	 * when L_IF > 0. Rounding near U = 1 can only mislabel a bound that
	 * would be above L_IF / (1 - U), far above any cap, anyway.
	 */
	return lif && u >= 1.0L;
}

/*
 * solve - the least positive L = L_IF + sum of I_s(L), by iteration
 *
 * Every I_s(t) is non-decreasing in t, so L_IF + sum of I_s(1) is below any
 * positive fixed point and the iteration climbs to the least one. It stops
 * above the cap, or after SLB_MAX_ITERATIONS steps (each raises L by at
 * least 1 ns, so this only matters for pathological inputs and huge caps).
 */
static enum slb_why solve(const struct slb_solver *sv, uint64_t lif,
			  uint64_t cap, uint64_t *latency)
{
	uint64_t l = lif, next;
	unsigned int i;
	long it;

	for (i = 0; i < sv->nr; i++)
		l = sat_add(l, interference(sv, i, 1));

	for (it = 0; it < SLB_MAX_ITERATIONS; it++) {
		if (l > cap)
			return SLB_OVER_CAP;
		/* no blocking and no interference: nothing to wait for */
		if (!l) {
			*latency = 0;
			return SLB_BOUNDED;
		}
		next = lif;
		for (i = 0; i < sv->nr; i++)
			next = sat_add(next, interference(sv, i, l));
		if (next == l) {
			*latency = l;
			return SLB_BOUNDED;
		}
		l = next;
	}
	return SLB_NO_CONVERGENCE;
}

/* fill_shares - the interference of each source at window length t >= 1 */
static void fill_shares(const struct slb_solver *sv, struct slb_bound *b,
			uint64_t t)
{
	unsigned int i;

	b->irq = 0;
	b->nmi = 0;
	for (i = 0; i < sv->nr; i++) {
		uint64_t ns = interference(sv, i, t);

		b->shares[i].source = sv->src[i]->id;
		b->shares[i].ns = ns;
		if (sv->src[i]->id == SLB_NMI)
			b->nmi = sat_add(b->nmi, ns);
		else
			b->irq = sat_add(b->irq, ns);
	}
}

/* find_dominant - the largest term of the sum (variables win ties) */
static void find_dominant(struct slb_bound *b)
{
	struct slb_term *t = &b->dominant;
	enum slb_var blk;
	unsigned int i;

	blk = b->var[SLB_ST] > b->var[SLB_POID] ? SLB_ST : SLB_POID;
	*t = (struct slb_term){ false, blk, b->var[blk] };
	if (b->var[SLB_PAIE] > t->ns)
		*t = (struct slb_term){ false, SLB_PAIE, b->var[SLB_PAIE] };
	if (b->var[SLB_PSD] > t->ns)
		*t = (struct slb_term){ false, SLB_PSD, b->var[SLB_PSD] };
	for (i = 0; i < b->nr_shares; i++)
		if (b->shares[i].ns > t->ns)
			*t = (struct slb_term){ true, b->shares[i].source,
						b->shares[i].ns };
}

/* slb_by_id - qsort order of sources: the NMI first, then by IRQ number */
static int slb_by_id(const void *a, const void *b)
{
	const struct slb_source *x = *(const struct slb_source * const *)a;
	const struct slb_source *y = *(const struct slb_source * const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* l_if - the interference-free latency of Lemma 7 */
static uint64_t l_if(const uint64_t *var)
{
	uint64_t blk = var[SLB_ST] > var[SLB_POID] ? var[SLB_ST] : var[SLB_POID];

	return sat_add(sat_add(blk, var[SLB_PAIE]), var[SLB_PSD]);
}

/* slb_result_fini - release what a result holds */
void slb_result_fini(struct slb_result *res)
{
	int m;

	free(res->sources);
	res->sources = NULL;
	res->nr_sources = 0;
	for (m = 0; m < SLB_NR_MODELS; m++) {
		free(res->bound[m].shares);
		res->bound[m].shares = NULL;
		res->bound[m].nr_shares = 0;
	}
}

/*
 * slb_compute_cpu - the bound of one CPU under every characterization
 *
 * Can be called at any time, also while records keep coming. On success
 * res must be released with slb_result_fini(). Returns 0, -EINVAL, -ENOMEM.
 */
int slb_compute_cpu(struct slb *slb, int cpu, struct slb_result *res)
{
	struct slb_source **src = NULL;
	struct slb_solver sv;
	struct slb_cpu *c;
	unsigned int i, nr;
	uint64_t lif;
	int m;

	memset(res, 0, sizeof(*res));
	if (cpu < 0 || cpu >= slb->nr_cpus)
		return -EINVAL;
	c = &slb->cpu[cpu];
	nr = c->nr_src;
	lif = l_if(c->var);
	res->cpu = cpu;

	if (nr) {
		src = malloc(nr * sizeof(*src));
		res->sources = calloc(nr, sizeof(*res->sources));
		if (!src || !res->sources)
			goto nomem;
		memcpy(src, c->src, nr * sizeof(*src));
		qsort(src, nr, sizeof(*src), slb_by_id);
	}
	res->nr_sources = nr;
	for (i = 0; i < nr; i++) {
		struct slb_source_stats *s = &res->sources[i];

		s->source = src[i]->id;
		s->count = src[i]->count;
		s->owcet = src[i]->owcet;
		s->min_gap = src[i]->count > 1 ? src[i]->min_gap : 0;
		s->total = src[i]->total;
		s->horizon = src[i]->horizon;
	}

	/* worst_single takes the longest IRQ (the lowest id on ties) */
	sv.slb = slb;
	sv.src = src;
	sv.nr = nr;
	sv.single = nr;
	for (i = 0; i < nr; i++)
		if (src[i]->id != SLB_NMI &&
		    (sv.single == nr || src[i]->owcet > src[sv.single]->owcet))
			sv.single = i;

	for (m = 0; m < SLB_NR_MODELS; m++) {
		struct slb_bound *b = &res->bound[m];

		sv.model = m;
		b->model = m;
		b->cpu = cpu;
		b->l_if = lif;
		memcpy(b->var, c->var, sizeof(b->var));
		b->nr_shares = nr;
		if (nr) {
			b->shares = calloc(nr, sizeof(*b->shares));
			if (!b->shares)
				goto nomem;
		}

		if (m == SLB_SPORADIC && overloaded(&sv, lif))
			b->why = SLB_OVERLOAD;
		else
			b->why = solve(&sv, lif, slb->cfg.cap_ns, &b->latency);
		b->unbounded = b->why != SLB_BOUNDED;

		/* an unbounded result is explained by the interference at the cap */
		if (b->unbounded)
			b->latency = 0;
		fill_shares(&sv, b, b->unbounded ? slb->cfg.cap_ns :
				    b->latency ? b->latency : 1);
		find_dominant(b);
	}
	free(src);
	return 0;

nomem:
	free(src);
	slb_result_fini(res);
	return -ENOMEM;
}

/*
 * slb_bound_worse - whether bound a is worse than bound b: unbounded, or
 * longer. The system's bound under a characterization is its worst CPU's.
 */
bool slb_bound_worse(const struct slb_bound *a, const struct slb_bound *b)
{
	if (a->unbounded != b->unbounded)
		return a->unbounded;
	return a->latency > b->latency;
}

static const char * const model_names[SLB_NR_MODELS] = {
	[SLB_NO_INTERRUPTS]		= "no_interrupts",
	[SLB_WORST_SINGLE]		= "worst_single",
	[SLB_WORST_EACH]		= "worst_each",
	[SLB_SPORADIC]			= "sporadic",
	[SLB_SLIDING_WINDOW]		= "sliding_window",
	[SLB_SLIDING_WINDOW_OWCET]	= "sliding_window_owcet",
};

/* slb_model_name - the key of a characterization, as in the JSON output */
const char *slb_model_name(enum slb_model model)
{
	if ((unsigned int)model >= SLB_NR_MODELS)
		return "unknown";
	return model_names[model];
}

/* slb_why_name - why a bound is missing, as a short key */
const char *slb_why_name(enum slb_why why)
{
	switch (why) {
	case SLB_BOUNDED:
		return "bounded";
	case SLB_OVERLOAD:
		return "overload";
	case SLB_OVER_CAP:
		return "over_cap";
	case SLB_NO_CONVERGENCE:
		return "no_convergence";
	}
	return "unknown";
}
