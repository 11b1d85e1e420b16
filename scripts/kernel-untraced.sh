#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-untraced.sh - build the kernel that make bench-vm's always-on row
# compares with: the same tree and configuration as make kernel, without
# CONFIG_LATENCY_PARSER_TRACER and without the other tracers that select
# the preempt and IRQ toggle tracepoints (irqsoff, preemptoff). What is left
# is what a distribution kernel without the tracer runs (Debian's rt flavour
# enables none of them either).
#
# usage: kernel-untraced.sh KTREE DEST FRAGMENT...
#   DEST: a git worktree of KTREE at its HEAD, built in place.

set -euo pipefail

ktree=$1
dest=$2
shift 2

# The options that make every toggle of the kernel a call.
toggles='LATENCY_PARSER_TRACER|LATENCY_PARSER_KUNIT_TEST|IRQSOFF_TRACER|PREEMPT_TRACER'
toggles+='|PREEMPTIRQ_TRACEPOINTS|TRACE_IRQFLAGS|TRACE_PREEMPT_TOGGLE|PREEMPTIRQ_DELAY_TEST'

. "$(dirname "$0")/worktree.sh"
worktree_at_head "$ktree" "$dest"

frag=$dest/.untraced.config
{
	grep -hvE "^CONFIG_($toggles)=" "$@"
	for opt in ${toggles//|/ }; do
		echo "# CONFIG_$opt is not set"
	done
} > "$frag"
"$(dirname "$0")/kernel-config.sh" "$dest" "$frag"

# Nothing may still select the toggles.
if grep -qE '^CONFIG_(TRACE_IRQFLAGS|TRACE_PREEMPT_TOGGLE)=y' "$dest/.config"; then
	echo "kernel-untraced: something else selects the toggle tracepoints" >&2
	exit 1
fi
echo "kernel-untraced: building $dest"
