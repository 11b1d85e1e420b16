// SPDX-License-Identifier: GPL-2.0
/*
 * lp_remote - remote wakeups for latency_parser_remote.t.
 *
 * usage: lp_remote INSTANCE ROUNDS PAUSE_US PHASE...
 *
 * A waker pinned on CPU 0 (SCHED_FIFO 90) wakes a target thread pinned on
 * CPU 1 through a futex, ROUNDS times per phase, and waits for the target's
 * answer (a futex wakeup the other way) and PAUSE_US more, so that each
 * CPU is back where the phase puts it before the next round. Before each
 * wakeup it writes a marker to INSTANCE/trace_marker and clears the
 * tracer's results (INSTANCE/latency_parser/reset): the first PAIE each
 * CPU records after that is a new maximum, and its new_max event in the
 * instance's buffer gives the window's start. The phases:
 *
 *   rt_idle  the target is SCHED_FIFO 95 and CPU 1 sleeps in its idle loop
 *            between rounds: the waker sets TIF_NEED_RESCHED and sends the
 *            reschedule IPI (or none to a CPU that polls);
 *   rt_busy  the same, with a SCHED_IDLE load on CPU 1 that stays in the
 *            kernel (reads of /dev/zero): the IPI's return preempts it;
 *   lazy     the target is SCHED_OTHER, beside the same SCHED_IDLE load:
 *            under PREEMPT_LAZY its wakeup sets TIF_NEED_RESCHED_LAZY
 *            only, which sends no IPI; the tick upgrades it to
 *            TIF_NEED_RESCHED, and its return preempts the load.
 *
 * For each phase it prints "phase NAME waker TID target TID hog TID" (hog
 * 0 when there is none) before the first round.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WAKER_CPU	0
#define TARGET_CPU	1
#define HOG_BYTES	(16 << 20)

static atomic_int go;		/* the waker's word: the target may run */
static atomic_int answer;	/* the target's word: the round is done */
static atomic_int quit;		/* the target's last round */
static atomic_int hog_stop;
static atomic_int target_tid, hog_tid;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void futex_wait(atomic_int *word, int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* wait_for - wait until *word is 1, and take it back to 0 */
static void wait_for(atomic_int *word)
{
	while (!atomic_exchange(word, 0))
		futex_wait(word, 0);
}

static void post(atomic_int *word)
{
	atomic_store(word, 1);
	futex_wake(word);
}

static void *target(void *arg __attribute__((unused)))
{
	atomic_store(&target_tid, (int)syscall(SYS_gettid));
	post(&answer);
	for (;;) {
		wait_for(&go);
		if (atomic_load(&quit))
			return NULL;
		post(&answer);
	}
}

/*
 * hog - busy in the kernel with preemption and IRQs enabled: reads of
 * /dev/zero into a large buffer, so that it is rarely on its way back to
 * user space, where the lazy flag alone would switch it out
 */
static char *hog_buf;
static int zero_fd;

static void *hog(void *arg __attribute__((unused)))
{
	atomic_store(&hog_tid, (int)syscall(SYS_gettid));
	while (!atomic_load_explicit(&hog_stop, memory_order_relaxed))
		if (read(zero_fd, hog_buf, HOG_BYTES) < 0)
			die("read /dev/zero");
	return NULL;
}

struct thread_args {
	void *(*fn)(void *);
	int cpu, policy, prio;
};

/*
 * start - the thread takes its CPU and policy itself: glibc's thread
 * attributes know no SCHED_IDLE
 */
static void *start(void *arg)
{
	struct thread_args *a = arg;
	struct sched_param sp = { .sched_priority = a->prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (sched_setscheduler(0, a->policy, &sp))
		die("sched_setscheduler");
	return a->fn(NULL);
}

/* spawn - a thread running @fn on @cpu with @policy and @prio */
static pthread_t spawn(struct thread_args *a)
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	err = pthread_create(&t, &attr, start, a);
	if (err) {
		errno = err;
		die("pthread_create");
	}
	pthread_attr_destroy(&attr);
	return t;
}

static void pause_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static void run_phase(const char *phase, int rounds, long pause, int marker, int reset)
{
	int busy = strcmp(phase, "rt_idle") != 0;
	int rt = strncmp(phase, "rt_", 3) == 0;
	struct thread_args ta = { target, TARGET_CPU, SCHED_FIFO, 95 };
	struct thread_args ha = { hog, TARGET_CPU, SCHED_IDLE, 0 };
	pthread_t t, h = 0;
	int i;

	if (!rt && busy && strcmp(phase, "lazy")) {
		fprintf(stderr, "lp_remote: unknown phase %s\n", phase);
		exit(2);
	}
	atomic_store(&quit, 0);
	atomic_store(&hog_stop, 0);
	atomic_store(&hog_tid, 0);
	if (!rt) {
		ta.policy = SCHED_OTHER;
		ta.prio = 0;
	}
	if (busy)
		h = spawn(&ha);
	t = spawn(&ta);
	wait_for(&answer);
	while (busy && !atomic_load(&hog_tid))
		pause_us(1000);
	printf("phase %s waker %ld target %d hog %d\n", phase, syscall(SYS_gettid),
	       atomic_load(&target_tid), atomic_load(&hog_tid));
	fflush(stdout);
	pause_us(10 * pause);

	for (i = 0; i < rounds; i++) {
		dprintf(marker, "lp_remote %s round %d\n", phase, i);
		if (write(reset, "1", 1) != 1)
			die("reset");
		post(&go);
		wait_for(&answer);
		pause_us(pause);
	}

	atomic_store(&quit, 1);
	post(&go);
	pthread_join(t, NULL);
	if (busy) {
		atomic_store(&hog_stop, 1);
		pthread_join(h, NULL);
	}
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 90 };
	char path[PATH_MAX];
	int marker, reset, rounds, i;
	long pause;
	cpu_set_t set;

	if (argc < 5) {
		fprintf(stderr, "usage: lp_remote INSTANCE ROUNDS PAUSE_US PHASE...\n");
		return 2;
	}
	rounds = atoi(argv[2]);
	pause = atol(argv[3]);

	snprintf(path, sizeof(path), "%s/trace_marker", argv[1]);
	marker = open(path, O_WRONLY);
	if (marker < 0)
		die(path);
	snprintf(path, sizeof(path), "%s/latency_parser/reset", argv[1]);
	reset = open(path, O_WRONLY);
	if (reset < 0)
		die(path);

	zero_fd = open("/dev/zero", O_RDONLY);
	if (zero_fd < 0)
		die("/dev/zero");
	hog_buf = malloc(HOG_BYTES);
	if (!hog_buf)
		die("malloc");
	memset(hog_buf, 1, HOG_BYTES);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	CPU_ZERO(&set);
	CPU_SET(WAKER_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");

	for (i = 4; i < argc; i++)
		run_phase(argv[i], rounds, pause, marker, reset);
	return 0;
}
