// SPDX-License-Identifier: GPL-2.0
/*
 * bench_bound: throughput and memory of the sched-latency bound engine.
 *
 * Feeds a generated interrupt mix (per CPU: a 4 kHz local timer, a network
 * IRQ arriving in bursts, a disk IRQ, reschedule and call-function IPIs and
 * a rare NMI) to the engine, and prints records per second and the peak RSS
 * at 1e6, 1e7 and 1e8 records. The records are generated in chunks outside
 * the timed part, so only the engine is measured.
 *
 * The rate is over the CPU time of the feeding thread (the machine may be
 * shared, and the requirement is for one core); the wall-clock rate is
 * printed next to it.
 *
 * usage: bench_bound [records [cpus [horizon_ns [grid_ns]]]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sched_latency_bound.h"

#define CHUNK		100000
#define NR_KINDS	6

enum kind { TIMER, NIC, DISK, RESCHED, CALLFUNC, NMI };

/* one generated interrupt record */
struct record {
	int cpu;
	int source;
	uint64_t start;
	uint64_t exec;
};

/* the generator state of one source of one CPU */
struct gen_src {
	enum kind kind;
	int id;
	uint64_t next;
	unsigned int burst_left;
};

struct gen_cpu {
	struct gen_src src[NR_KINDS];
};

static uint64_t rng_state = 0x243f6a8885a308d3ULL;

/* rnd - xorshift64*: fast, and the same sequence on every run */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* uniform - a value in [lo, hi) */
static uint64_t uniform(uint64_t lo, uint64_t hi)
{
	return lo + rnd() % (hi - lo);
}

/* expo - an exponentially distributed gap of the given mean */
static uint64_t expo(double mean)
{
	double u = (rnd() >> 11) * (1.0 / 9007199254740992.0);

	return (uint64_t)(-mean * log1p(-u)) + 1;
}

/* gen_exec - the execution time of one occurrence of a source */
static uint64_t gen_exec(const struct gen_src *s)
{
	switch (s->kind) {
	case TIMER:
		return rnd() % 1000 ? uniform(1000, 3000) : 8000;
	case NIC:
		return uniform(2000, 9000);
	case DISK:
		return uniform(4000, 15000);
	case RESCHED:
		return uniform(400, 1500);
	case CALLFUNC:
		return uniform(1000, 4000);
	case NMI:
		return uniform(3000, 25000);
	}
	return 0;
}

/* gen_advance - schedule the next occurrence of a source */
static void gen_advance(struct gen_src *s)
{
	switch (s->kind) {
	case TIMER:
		/* a 250 us hrtimer, up to 2 us late */
		s->next = (s->next / 250000 + 1) * 250000 + uniform(0, 2000);
		break;
	case NIC:
		/* bursts of 1-24 packets 4-20 us apart, every 2 ms on average */
		if (s->burst_left) {
			s->burst_left--;
			s->next += uniform(4000, 20000);
		} else {
			s->burst_left = uniform(0, 24);
			s->next += expo(2e6);
		}
		break;
	case DISK:
		s->next += expo(5e6);
		break;
	case RESCHED:
		s->next += expo(1e6);
		break;
	case CALLFUNC:
		s->next += expo(1e7);
		break;
	case NMI:
		s->next += expo(1e9);
		break;
	}
}

/* gen_init - the sources of one CPU, starting at random phases */
static void gen_init(struct gen_cpu *c, int cpu)
{
	static const int ids[NR_KINDS] = { 236, 40, 60, 253, 251, SLB_NMI };
	int k;

	for (k = 0; k < NR_KINDS; k++) {
		c->src[k].kind = k;
		c->src[k].id = k == NIC ? ids[k] + cpu : ids[k];
		c->src[k].next = uniform(0, 1000000);
		c->src[k].burst_left = 0;
	}
}

/* gen_chunk - the next n records, in time order over all CPUs */
static void gen_chunk(struct gen_cpu *cpus, int nr_cpus, struct record *r,
		      int n)
{
	int i, c, k;

	for (i = 0; i < n; i++) {
		struct gen_src *best = NULL;
		int best_cpu = 0;

		for (c = 0; c < nr_cpus; c++)
			for (k = 0; k < NR_KINDS; k++)
				if (!best || cpus[c].src[k].next < best->next) {
					best = &cpus[c].src[k];
					best_cpu = c;
				}
		r[i].cpu = best_cpu;
		r[i].source = best->id;
		r[i].start = best->next;
		r[i].exec = gen_exec(best);
		gen_advance(best);
	}
}

/* clock_s - a clock in seconds */
static double clock_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* peak_rss_kib - the peak resident set size so far, in KiB */
static long peak_rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* term_name - what dominates a bound: a thread variable, the NMI or an IRQ */
static void term_name(const struct slb_term *term, char *buf, size_t len)
{
	static const char * const vars[SLB_NR_VARS] = {
		[SLB_POID] = "poid", [SLB_PSD] = "psd",
		[SLB_ST] = "dst", [SLB_PAIE] = "paie",
	};

	if (!term->is_source)
		snprintf(buf, len, "%s", vars[term->id]);
	else if (term->id == SLB_NMI)
		snprintf(buf, len, "nmi");
	else
		snprintf(buf, len, "irq:%d", term->id);
}

/*
 * print_system - the system-wide bounds, as a sanity check of the run:
 * every CPU's result, and under each characterization the worst CPU's
 */
static int print_system(struct slb *slb, int nr_cpus)
{
	struct slb_result *res = calloc(nr_cpus, sizeof(*res));
	int worst[SLB_NR_MODELS] = { 0 };
	char name[32];
	double t0, t1;
	int c, m, ret = 0;

	if (!res) {
		perror("bench_bound");
		return 1;
	}
	t0 = clock_s(CLOCK_MONOTONIC);
	for (c = 0; c < nr_cpus && !ret; c++) {
		ret = slb_compute_cpu(slb, c, &res[c]);
		for (m = 0; m < SLB_NR_MODELS && !ret; m++)
			if (slb_bound_worse(&res[c].bound[m],
					    &res[worst[m]].bound[m]))
				worst[m] = c;
	}
	t1 = clock_s(CLOCK_MONOTONIC);
	if (ret) {
		fprintf(stderr, "compute: %s\n", strerror(-ret));
		c--;
		goto out;
	}
	printf("compute (%d CPUs): %.1f ms\n", nr_cpus, (t1 - t0) * 1e3);
	for (m = 0; m < SLB_NR_MODELS; m++) {
		const struct slb_bound *b = &res[worst[m]].bound[m];

		term_name(&b->dominant, name, sizeof(name));
		if (b->unbounded)
			printf("  %-22s unbounded (%s), cpu %d\n",
			       slb_model_name(m), slb_why_name(b->why), b->cpu);
		else
			printf("  %-22s %9llu ns, cpu %d, dominated by %s (%llu ns)\n",
			       slb_model_name(m), (unsigned long long)b->latency,
			       b->cpu, name, (unsigned long long)b->dominant.ns);
	}
out:
	while (c-- > 0)
		slb_result_fini(&res[c]);
	free(res);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	long long total = argc > 1 ? atoll(argv[1]) : 100000000LL;
	int nr_cpus = argc > 2 ? atoi(argv[2]) : 8;
	long long done = 0, checkpoint = 1000000;
	struct gen_cpu *cpus;
	struct record *buf;
	struct slb_config cfg;
	struct slb *slb;
	double busy = 0, wall = 0;
	int c, i;

	if (total <= 0 || nr_cpus <= 0) {
		fprintf(stderr, "usage: %s [records [cpus [horizon_ns [grid_ns]]]]\n",
			argv[0]);
		return 2;
	}
	cpus = calloc(nr_cpus, sizeof(*cpus));
	buf = malloc(CHUNK * sizeof(*buf));
	slb_config_default(&cfg);
	if (argc > 3)
		cfg.horizon_ns = atoll(argv[3]);
	if (argc > 4)
		cfg.grid_ns = atoll(argv[4]);
	slb = slb_alloc(&cfg, nr_cpus);
	if (!cpus || !buf || !slb) {
		perror("bench_bound");
		return 1;
	}
	slb_get_config(slb, &cfg);
	printf("bench_bound: %d CPUs; per CPU a 4 kHz timer, bursty NIC, disk, two IPIs, NMI\n",
	       nr_cpus);
	printf("config: grid %llu ns, fine %llu ns, horizon %llu ns, max_live %u\n",
	       (unsigned long long)cfg.grid_ns, (unsigned long long)cfg.fine_ns,
	       (unsigned long long)cfg.horizon_ns, cfg.max_live);

	for (c = 0; c < nr_cpus; c++) {
		gen_init(&cpus[c], c);
		slb_set_var(slb, c, SLB_POID, 5000 + 100 * c);
		slb_set_var(slb, c, SLB_PSD, 3000);
		slb_set_var(slb, c, SLB_ST, 2500);
		slb_set_var(slb, c, SLB_PAIE, 400);
	}

	while (done < total) {
		int n = total - done < CHUNK ? (int)(total - done) : CHUNK;
		double t0, w0;

		gen_chunk(cpus, nr_cpus, buf, n);
		w0 = clock_s(CLOCK_MONOTONIC);
		t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		for (i = 0; i < n; i++) {
			if (slb_add_interrupt(slb, buf[i].cpu, buf[i].source,
					      buf[i].start, buf[i].exec)) {
				fprintf(stderr, "bench_bound: add failed\n");
				return 1;
			}
		}
		busy += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
		wall += clock_s(CLOCK_MONOTONIC) - w0;
		done += n;

		if (done >= checkpoint || done == total) {
			printf("records %11lld: %6.2f M records/s (wall %6.2f M/s), ",
			       done, done / busy / 1e6, done / wall / 1e6);
			printf("peak RSS %6ld KiB, simulated %.0f s\n",
			       peak_rss_kib(), buf[n - 1].start / 1e9);
			fflush(stdout);
			while (checkpoint <= done)
				checkpoint *= 10;
		}
	}

	if (print_system(slb, nr_cpus))
		return 1;
	slb_free(slb);
	free(buf);
	free(cpus);
	return 0;
}
