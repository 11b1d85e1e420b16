// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: the workload after "--".
 *
 * It runs in a process group of its own, so that it can be stopped as a
 * whole, and so that a Ctrl-C reaches rtla, which then stops it in order.
 * rtla's main loop hears of its end (struct tool_ops' workload_ended).
 * Its standard output is a temporary file: it is shown after the run,
 * where it does not tear top's display, and read for cyclictest's maxima.
 * The file keeps rtla's memory flat however much the workload writes, and
 * never blocks the workload as a full pipe would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_latency_workload.h"
#include "sched_latency_instance.h"

/* how long a stopped workload gets between SIGTERM and SIGKILL */
#define SL_WORKLOAD_GRACE_MS	2000
#define SL_WORKLOAD_POLL_MS	20

/* sl_join - the workload's command line, for display and JSON */
static char *sl_join(char **argv)
{
	size_t len = 1;
	char *cmd;
	int i;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	cmd = calloc(1, len);
	if (!cmd)
		return NULL;
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	return cmd;
}

/* sl_child - the forked side: own process group, stdout to the file, exec */
static void sl_child(struct sched_latency_params *params, int out, int err)
{
	char **argv = params->workload;
	int error;

	setpgid(0, 0);
	/* the workload keeps its own affinity, not rtla's house-keeping */
	sl_restore_affinity(params);
	if (dup2(out, STDOUT_FILENO) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	error = errno;
	/* tell the parent why, through the pipe that exec would have closed */
	if (write(err, &error, sizeof(error)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * sl_cyclictest_affinity - how the cyclictest of the workload pins its
 * threads: -a LIST, -aLIST, --affinity=LIST or -a followed by a number
 * pin them over LIST; -a alone, --affinity alone or -S/--smp over the CPUs
 * it may run on, which it inherits from rtla. As cyclictest parses them.
 */
static void sl_cyclictest_affinity(struct sl_tool *tool)
{
	char **argv = tool->params->workload;
	struct sl_workload *wl = tool->wl;
	const char *list = NULL, *base;
	bool all = false;
	int i;

	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, "cyclictest"))
		return;

	for (i = 1; argv[i]; i++) {
		const char *a = argv[i], *next = argv[i + 1];
		bool numeric = next && (next[0] >= '0' && next[0] <= '9');

		if (!strcmp(a, "-S") || !strcmp(a, "--smp")) {
			all = true;
		} else if (!strncmp(a, "--affinity", 10) && (!a[10] || a[10] == '=')) {
			if (a[10] == '=')
				list = a + 11;
			else if (numeric)
				list = next;
			else
				all = true;
		} else if (!strncmp(a, "-a", 2)) {
			if (a[2])
				list = a + 2;
			else if (numeric)
				list = next;
			else
				all = true;
		}
	}

	CPU_ZERO(&wl->thread_cpus);
	if (list && !all) {
		wl->pinned = !parse_cpu_set((char *)list, &wl->thread_cpus) &&
			     CPU_COUNT(&wl->thread_cpus);
	} else if (all) {
		wl->pinned = !sched_getaffinity(0, sizeof(wl->thread_cpus), &wl->thread_cpus) &&
			     CPU_COUNT(&wl->thread_cpus);
	}
	debug_msg("workload: cyclictest threads %s\n",
		  wl->pinned ? "pinned" : "not pinned: their maxima belong to no CPU");
}

/* sl_thread_cpu - the CPU cyclictest's thread @thread runs on, or -1 */
static int sl_thread_cpu(struct sl_tool *tool, int thread)
{
	struct sl_workload *wl = tool->wl;
	int m, cpu, seen = 0;

	if (!wl->pinned || thread < 0)
		return -1;
	m = thread % CPU_COUNT(&wl->thread_cpus);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &wl->thread_cpus))
			continue;
		if (seen++ == m)
			return cpu;
	}
	return -1;
}

/*
 * sl_workload_start - fork and exec the workload
 *
 * A failed exec is an error of rtla ("cannot run"), not a workload that
 * ended: a close-on-exec pipe tells the two apart.
 */
int sl_workload_start(struct sl_tool *tool)
{
	char **argv = tool->params->workload;
	struct sl_workload *wl;
	int err[2], error, cpu;
	ssize_t n;
	pid_t pid;

	wl = calloc(1, sizeof(*wl));
	if (!wl)
		return -1;
	tool->wl = wl;
	wl->max_us = calloc(nr_cpus, sizeof(*wl->max_us));
	if (!wl->max_us)
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		wl->max_us[cpu] = -1;

	wl->command = sl_join(argv);
	sl_cyclictest_affinity(tool);
	wl->out = tmpfile();
	if (!wl->command || !wl->out) {
		sl_err("cannot prepare the workload: %s\n", strerror(errno));
		return -1;
	}
	/* the workload's standard output only, no other child's */
	fcntl(fileno(wl->out), F_SETFD, FD_CLOEXEC);
	if (pipe2(err, O_CLOEXEC))
		return -1;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		sl_err("cannot fork the workload: %s\n", strerror(errno));
		close(err[0]);
		close(err[1]);
		return -1;
	}
	if (!pid)
		sl_child(tool->params, fileno(wl->out), err[1]);

	/* both sides set the group: whichever runs first, kill(-pid) works */
	setpgid(pid, pid);
	wl->pid = pid;
	wl->running = true;
	close(err[1]);

	do {
		n = read(err[0], &error, sizeof(error));
	} while (n < 0 && errno == EINTR);
	close(err[0]);

	if (n == sizeof(error)) {
		sl_err("cannot run the workload %s: %s\n", argv[0],
		       strerror(error));
		sl_workload_reap(tool);
		return -1;
	}
	debug_msg("workload %d: %s\n", pid, wl->command);
	return 0;
}

/* sl_workload_reap - whether the workload has ended (its status is kept) */
bool sl_workload_reap(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;
	pid_t pid;

	if (!wl || !wl->pid || !wl->running)
		return false;
	do {
		pid = waitpid(wl->pid, &wl->status, WNOHANG);
	} while (pid < 0 && errno == EINTR);
	if (pid == wl->pid || (pid < 0 && errno == ECHILD)) {
		wl->running = false;
		return true;
	}
	return false;
}

/*
 * sl_workload_stop - stop the workload's process group: SIGTERM, and
 * SIGKILL to what is left after the grace time
 *
 * The group is signalled even when its leader already ended by itself,
 * as what it started must not outlive the measurement either.
 */
void sl_workload_stop(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;
	int waited = 0;

	if (!wl || !wl->pid)
		return;

	sl_workload_reap(tool);
	if (kill(-wl->pid, SIGTERM) == 0) {
		debug_msg("workload: SIGTERM to process group %d\n", wl->pid);
		while (waited < SL_WORKLOAD_GRACE_MS) {
			poll(NULL, 0, SL_WORKLOAD_POLL_MS);
			waited += SL_WORKLOAD_POLL_MS;
			sl_workload_reap(tool);
			/* a zombie leader is still in its group: reap first */
			if (!wl->running && kill(-wl->pid, 0))
				break;
		}
		if (kill(-wl->pid, SIGKILL) == 0)
			debug_msg("workload: SIGKILL to process group %d\n", wl->pid);
	}
	if (wl->running) {
		while (waitpid(wl->pid, &wl->status, 0) < 0 && errno == EINTR)
			;
		wl->running = false;
	}
}

/*
 * sl_parse_cyclictest - one line of cyclictest's summary:
 * "T: 0 ( 1234) P:95 I:1000 C:   1000 Min:      3 Act:    5 Avg:    4 Max:      20"
 *
 * The thread's maximum belongs to the CPU it was pinned to.
 */
static void sl_parse_cyclictest(struct sl_tool *tool, const char *line)
{
	long long min, act, avg, max;
	unsigned long long count;
	int thread, tid, prio, interval, cpu;

	if (sscanf(line, " T:%d (%d) P:%d I:%d C:%llu Min:%lld Act:%lld Avg:%lld Max:%lld",
		   &thread, &tid, &prio, &interval, &count, &min, &act, &avg, &max) != 9)
		return;
	cpu = sl_thread_cpu(tool, thread);
	if (cpu < 0 || cpu >= nr_cpus || max < 0)
		return;
	if (max > tool->wl->max_us[cpu])
		tool->wl->max_us[cpu] = max;
}

/* sl_workload_report - pass the workload's output through, reading it */
void sl_workload_report(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;
	char line[4096];
	size_t len;

	if (!wl || !wl->out)
		return;
	fflush(wl->out);
	rewind(wl->out);
	while (fgets(line, sizeof(line), wl->out)) {
		fputs(line, stdout);
		len = strlen(line);
		/* a line longer than the buffer is no cyclictest summary */
		if (len && line[len - 1] == '\n')
			sl_parse_cyclictest(tool, line);
	}
	fflush(stdout);
	fclose(wl->out);
	wl->out = NULL;
}

/*
 * sl_workload_failed - the workload ended by itself with an error or a
 * signal: what it was to load did not happen as asked. (One that cannot
 * start fails the run before it measures.)
 */
bool sl_workload_failed(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;

	return wl && wl->pid && wl->ended && sl_workload_status(tool) != 0;
}

/*
 * sl_workload_ended - whether the workload ended by itself, reaping it:
 * what ends rtla's main loop, or a warm-up
 */
bool sl_workload_ended(struct sl_tool *tool)
{
	if (!sl_workload_reap(tool))
		return false;
	tool->wl->ended = true;
	return true;
}

/* sl_workload_status - its exit status as a shell shows it; -1: none */
int sl_workload_status(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;

	if (!wl || !wl->pid || wl->running)
		return -1;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status);
	if (WIFSIGNALED(wl->status))
		return 128 + WTERMSIG(wl->status);
	return -1;
}

/* sl_workload_max_us - cyclictest's maximum on @cpu, in us; -1: none */
long long sl_workload_max_us(struct sl_tool *tool, int cpu)
{
	if (!tool->wl || !tool->wl->max_us || cpu < 0 || cpu >= nr_cpus)
		return -1;
	return tool->wl->max_us[cpu];
}

/* sl_workload_free - on any exit: nothing of the workload survives */
void sl_workload_free(struct sl_tool *tool)
{
	struct sl_workload *wl = tool->wl;

	if (!wl)
		return;
	if (wl->pid && wl->running) {
		kill(-wl->pid, SIGKILL);
		while (waitpid(wl->pid, &wl->status, 0) < 0 && errno == EINTR)
			;
		wl->running = false;
	}
	if (wl->out)
		fclose(wl->out);
	free(wl->command);
	free(wl->max_us);
	free(wl);
	tool->wl = NULL;
}
