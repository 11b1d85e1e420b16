#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The keyed toggle hooks (CONFIG_TRACE_IRQFLAGS_KEYED and
# CONFIG_TRACE_PREEMPT_TOGGLE_KEYED, the series' patch "tracing: Jump over
# the toggle hooks while nothing listens"): local_irq_*() and
# preempt_disable/enable() skip their hooks until a tracer or a probe asks
# for them. Each user must turn them on, or it goes deaf to the windows it
# exists to measure:
# - the KUnit suite trace_toggle_hooks ran at boot: a probe on the irq and
#   preempt tracepoints turns the hooks on and hears one toggle, an
#   exception taken with IRQs off leaves the "IRQs reported off" mark alone
#   while the hooks are off (the entry code's hooks are keyed too), and
#   the resync clears a CPU's stale mark;
# - the irqsoff and preemptoff tracers, which call the hooks directly, not
#   through the tracepoints: a 20 ms window of preemptirq_delay_test must
#   be their maximum, or more (without the hooks they see only the
#   interrupt handlers' own sections);
# - latency_parser takes them through its tracepoint probes: its exact
#   windows are latency_parser_exact.t's, and its start under load (a key
#   turned on while CPUs are inside sections) latency_parser_start.t's.
# Skipped on a kernel without the keyed hooks: the 6.12 backport, and
# kernels with lockdep or DEBUG_PREEMPT (make test-debug's locking kernel),
# which call the hooks always. The KUnit part is skipped on a keyed kernel
# without the suite (make test-debug's memory kernel); make kernel's
# config asserts it.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"

mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
results=/sys/kernel/debug/kunit/trace_toggle_hooks/results
# A function only the keyed hooks have (a data symbol would need
# CONFIG_KALLSYMS_ALL)
if ! grep -qw trace_irqflags_hooks_get /proc/kallsyms; then
	echo "1..0 # SKIP no keyed toggle hooks in $(uname -r)"
	exit 0
fi

# --- KUnit ---
if [ ! -r "$results" ]; then
	skip "the KUnit suite trace_toggle_hooks" "not in this kernel (CONFIG_TRACE_TOGGLE_HOOKS_KUNIT_TEST)"
else
	ktap=$(cat "$results" 2>/dev/null)
	diag "$(grep -E '^ {4}(not )?ok [0-9]+ ' <<< "$ktap")"
	check "the KUnit suite ran (CONFIG_TRACE_TOGGLE_HOOKS_KUNIT_TEST)" test -n "$ktap"
	check "its four cases ran" test "$(grep -cE '^ {4}(not )?ok [0-9]+ ' <<< "$ktap")" -eq 4
	check "none failed" test "$(grep -cE '^ *not ok ' <<< "$ktap")" -eq 0
	check "the suite passed" grep -qE '^ok [0-9]+ trace_toggle_hooks' <<< "$ktap"
	# The entry case skips itself when something held the hooks on at boot.
	check "the entry case ran to its check" grep -qE '^ {4}ok [0-9]+ entry_leaves_mark_alone$' <<< "$ktap"
	# The resync case skips itself when an interrupt cleared the stale mark
	# before it could check: rare, and then it proves nothing.
	check "the resync case ran to its check" grep -qE '^ {4}ok [0-9]+ resync_clears_stale_mark$' <<< "$ktap"
fi

# --- the latency tracers that call the hooks themselves ---

# window_seen TRACER MODE - TRACER's maximum, while preemptirq_delay_test
# holds a 20 ms MODE window on CPU 0, is that window: at least 20 ms, opened
# and closed in the module's code. Without the hooks a CPU can also be left
# with its IRQs marked off by an exception's entry, which irqsoff then
# times up to the next interrupt's exit: a long window, but not this one.
window_seen() {
	local max ends

	echo "$1" > "$TRACEFS/current_tracer" || return 1
	echo 0 > "$TRACEFS/tracing_max_latency"
	delay_test "$2" 20000 0
	max=$(cat "$TRACEFS/tracing_max_latency")
	ends=$(grep -E '^# +=> (started|ended) at:' "$TRACEFS/trace")
	echo nop > "$TRACEFS/current_tracer"
	delay_done
	diag "$1 over a 20000 us $2 window: max $max us"
	diag "$ends"
	[ "${max:-0}" -ge 20000 ] &&
		[ "$(grep -c 'preemptirq' <<< "$ends")" -eq 2 ]
}

# window_heard TRACER MODE - window_seen, up to three times: under TCG a
# busy host can stall a vCPU inside any short section for longer than the
# module's 20 ms, and that section is then the maximum. Without the hooks
# the module's window is never the maximum, however often it is tried.
window_heard() {
	local try

	for try in 1 2 3; do
		window_seen "$@" && return 0
		diag "try $try: the maximum was not the module's window"
	done
	return 1
}

if ! modprobe -n preemptirq_delay_test 2>/dev/null; then
	skip "the irqsoff and preemptoff tracers" "no preemptirq_delay_test module"
else
	for tracer in irqsoff:irq preemptoff:preempt; do
		name=${tracer%%:*}
		if grep -qw "$name" "$TRACEFS/available_tracers"; then
			check "$name hears a 20 ms ${tracer#*:} window" window_heard "$name" "${tracer#*:}"
		else
			skip "$name" "not in available_tracers"
		fi
	done
fi

done_testing
