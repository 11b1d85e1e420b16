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
#   while the hooks are off (the entry code's hooks are keyed too), the
#   resync clears a CPU's stale mark, an NMI the CPU sends itself with
#   IRQs masked leaves the reported IRQ state as it found it, on or off
#   (whatever the registers say: an NMI between a hook and its cli or sti
#   once left it off, and the next local_irq_disable() unreported; x86
#   only), and so does a kprobe's breakpoint, a debug exception (int3
#   through the NMI entry on x86, BRK through arm64's debug entry, which
#   left it off);
# - the irqsoff and preemptoff tracers, which call the hooks directly, not
#   through the tracepoints: a 20 ms window of preemptirq_delay_test must
#   be their maximum, or more (without the hooks they see only the
#   interrupt handlers' own sections); and an irqsoff refused beside a
#   running preemptoff must leave that one typed, hooked and unhooked as
#   it was (dmesg at the end catches a put of hooks never taken);
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
	# the NMI case is x86's (a self-NMI through the local APIC)
	cases=5
	[ "$(uname -m)" = x86_64 ] && cases=6
	check "its $cases cases ran" test "$(grep -cE '^ {4}(not )?ok [0-9]+ ' <<< "$ktap")" -eq "$cases"
	check "none failed" test "$(grep -cE '^ *not ok ' <<< "$ktap")" -eq 0
	check "the suite passed" grep -qE '^ok [0-9]+ trace_toggle_hooks' <<< "$ktap"
	# The entry case skips itself when something held the hooks on at boot.
	check "the entry case ran to its check" grep -qE '^ {4}ok [0-9]+ entry_leaves_mark_alone$' <<< "$ktap"
	# The resync case skips itself when an interrupt cleared the stale mark
	# before it could check: rare, and then it proves nothing.
	check "the resync case ran to its check" grep -qE '^ {4}ok [0-9]+ resync_clears_stale_mark$' <<< "$ktap"
	# The NMI case: a self-NMI while IRQs are masked leaves the reported
	# state as it found it (the series' first patch)
	if [ "$(uname -m)" = x86_64 ]; then
		check "an NMI restores the reported IRQ state" \
			grep -qE '^ {4}ok [0-9]+ nmi_restores_reported_state$' <<< "$ktap"
	fi
	check "a debug exception restores the reported IRQ state" \
		grep -qE '^ {4}ok [0-9]+ debug_exception_restores_reported_state$' <<< "$ktap"
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

# refused_beside_running - the irqsoff family runs in one instance at a
# time: preemptoff runs in one, irqsoff is refused (EBUSY) in another. The
# refusal must neither retype the running tracer nor, at its reset, drop
# hooks it never took. It did both: the refused init set the shared
# trace_type, so preemptoff went deaf (it only timed IRQs-off sections,
# whose hooks it had not turned on), and its reset dropped the IRQ hooks
# it never took (a WARN, or another user's reference) and left the
# preempt hooks on for good.
refused_beside_running() {
	local a=$TRACEFS/instances/hooks_running b=$TRACEFS/instances/hooks_refused
	local max ends status=0

	mkdir "$a" "$b" || return 1
	if ! echo preemptoff > "$a/current_tracer"; then
		rmdir "$a" "$b"
		return 1
	fi
	if echo irqsoff > "$b/current_tracer" 2>/dev/null; then
		diag "irqsoff was selected beside a running preemptoff"
		status=1
	fi
	echo 0 > "$a/tracing_max_latency"
	delay_test preempt 20000 0
	max=$(cat "$a/tracing_max_latency")
	ends=$(grep -E '^# +=> (started|ended) at:' "$a/trace")
	delay_done
	diag "preemptoff beside a refused irqsoff, over a 20000 us preempt window: max $max us"
	diag "$ends"
	# the module's window, opened and closed in its code: not a section
	# of another type or one left open across the refusal
	[ "${max:-0}" -ge 20000 ] && [ "$(grep -c 'preemptirq' <<< "$ends")" -eq 2 ] ||
		status=1
	echo nop > "$b/current_tracer"
	echo nop > "$a/current_tracer"
	rmdir "$a" "$b"
	return $status
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
	if grep -qw irqsoff "$TRACEFS/available_tracers" &&
	   grep -qw preemptoff "$TRACEFS/available_tracers"; then
		check "irqsoff refused beside a running preemptoff leaves it as it was" \
			refused_beside_running
	fi
fi

done_testing
