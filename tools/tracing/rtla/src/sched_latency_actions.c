// SPDX-License-Identifier: GPL-2.0
/*
 * rtla sched-latency: what to do when a threshold is crossed
 * (--on-threshold) and when the run ends (--on-end), as the other rtla
 * tools spell it:
 *
 *	trace[,file=FILE]		save the trace (of the -t instance)
 *	signal,num=N,pid=PID|parent	send signal N to PID, or to rtla's parent
 *	shell,command=CMD		run CMD with /bin/sh
 *
 * Several actions of one option run in the order given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_latency_tool.h"

/* sl_action_arg - the value of "key=" in an action's argument, or NULL */
static char *sl_action_arg(char *arg, const char *key)
{
	size_t len = strlen(key);

	if (strncmp(arg, key, len) || arg[len] != '=')
		return NULL;
	return arg + len + 1;
}

/*
 * sl_parse_action - one --on-threshold or --on-end ACTION into @list;
 * exits with an error when it is malformed
 */
void sl_parse_action(struct sl_actions *list, const char *opt, const char *action)
{
	char *copy = strdup(action), *kind, *arg, *save, *v;
	struct sl_action *a;

	if (!copy)
		sl_fail("out of memory");
	if (list->nr == SL_MAX_ACTIONS)
		sl_fail("%s: at most %d actions", opt, SL_MAX_ACTIONS);
	a = &list->action[list->nr];
	memset(a, 0, sizeof(*a));

	kind = strtok_r(copy, ",", &save);
	if (!kind)
		sl_fail("%s: an empty action", opt);
	if (!strcmp(kind, "trace")) {
		a->type = SL_ACTION_TRACE;
		a->file = SL_DEFAULT_TRACE_FILE;
	} else if (!strcmp(kind, "signal")) {
		a->type = SL_ACTION_SIGNAL;
	} else if (!strcmp(kind, "shell")) {
		a->type = SL_ACTION_SHELL;
	} else {
		sl_fail("%s: unknown action '%s': trace, signal or shell", opt, kind);
	}

	while ((arg = strtok_r(NULL, ",", &save))) {
		if (a->type == SL_ACTION_TRACE && (v = sl_action_arg(arg, "file")) && *v) {
			a->file = strdup(v);
		} else if (a->type == SL_ACTION_SIGNAL && (v = sl_action_arg(arg, "num"))) {
			a->signal = sl_parse_number(opt, v, 1, SIGRTMAX);
		} else if (a->type == SL_ACTION_SIGNAL && (v = sl_action_arg(arg, "pid"))) {
			if (!strcmp(v, "parent"))
				a->pid = -1;
			else
				a->pid = sl_parse_number(opt, v, 1, INT_MAX);
		} else if (a->type == SL_ACTION_SHELL && (v = sl_action_arg(arg, "command")) &&
			   *v) {
			/* a command may hold commas: the rest of the argument is it */
			a->command = strdup(action + (v - copy));
			break;
		} else {
			sl_fail("%s: unknown argument '%s' of the %s action", opt, arg, kind);
		}
	}
	if (a->type == SL_ACTION_SIGNAL && (!a->signal || !a->pid))
		sl_fail("%s: the signal action needs num=N and pid=PID|parent", opt);
	if (a->type == SL_ACTION_SHELL && !a->command)
		sl_fail("%s: the shell action needs command=CMD", opt);
	if ((a->type == SL_ACTION_TRACE && !a->file) ||
	    (a->type == SL_ACTION_SHELL && !a->command))
		sl_fail("out of memory");
	list->nr++;
	free(copy);
}

/* sl_actions_want_trace - whether an action saves the -t instance's trace */
bool sl_actions_want_trace(const struct sl_actions *list)
{
	int i;

	for (i = 0; i < list->nr; i++)
		if (list->action[i].type == SL_ACTION_TRACE)
			return true;
	return false;
}

/*
 * sl_run_actions - run @list; returns -1 if one of them failed, which is
 * told (the run's verdict stays what it is)
 */
int sl_run_actions(struct sl_tool *tool, const struct sl_actions *list)
{
	const struct sl_action *a;
	int i, ret = 0, status;
	pid_t pid;

	for (i = 0; i < list->nr; i++) {
		a = &list->action[i];
		switch (a->type) {
		case SL_ACTION_TRACE:
			if (!tool->has_record)
				break;
			printf("  Saving trace to %s\n", a->file);
			if (save_trace_to_file(tool->record.inst, a->file)) {
				err_msg("rtla sched-latency: cannot save the trace to %s\n", a->file);
				ret = -1;
			}
			break;
		case SL_ACTION_SIGNAL:
			pid = a->pid < 0 ? getppid() : a->pid;
			if (kill(pid, a->signal)) {
				err_msg("rtla sched-latency: cannot send signal %d to %d: %s\n",
					a->signal, pid, strerror(errno));
				ret = -1;
			}
			break;
		case SL_ACTION_SHELL:
			fflush(stdout);
			status = system(a->command);
			if (status) {
				err_msg("rtla sched-latency: '%s' failed (status %d)\n", a->command,
					status == -1 ? -1 : sl_exit_status(status));
				ret = -1;
			}
			break;
		}
	}
	return ret;
}
