#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every window of the latency_parser tracer is named after real code: the
# "from" of its new_max and threshold_stop events is never 0x0.
#
# A toggle made inside a lock function (raw_spin_lock_irqsave() and the
# like) names its window after the lock's caller when the tracepoint knows
# it (its parent ip, CALLER_ADDR1), after the lock function otherwise: on
# x86-64 without frame pointers (the ORC unwinder, this kernel's)
# CALLER_ADDR1 is 0, and every raw spinlock window used to read "from 0x0".
#
# - lock_window.ko (tests/vm/modules/) holds a raw spinlock for 5 ms on a
#   known CPU, from a known function: taken with raw_spin_lock_irqsave()
#   (the window opens at the irq_disable inside _raw_spin_lock_irqsave()),
#   then with raw_spin_lock() (at the preempt_disable inside
#   _raw_spin_lock()). Each window is its CPU's largest POID: it must be
#   named after the lock function or its caller, and its stack trace,
#   taken where it closed, must show that caller.
# - Under a toggle-heavy load, with the results reset every 0.2 s so that
#   windows keep making news, no new maximum of poid, psd, dst or paie is
#   "from 0x0": they all name kernel symbols (the IRQ and NMI executions
#   are no window and have no name).
#
# Deterministic time on one CPU (VM_ICOUNT=0, nohz=off, as
# latency_parser_exact.t): an idle CPU's POIDs stay under 1 ms there, so
# the module's window is the largest.

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_APPEND=${VM_APPEND-nohz=off}
export VM_CPUS=${VM_CPUS-1}
VM_TIMEOUT=${VM_TIMEOUT:-300}
. "$(dirname "$0")/modules.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

ko=$VM_MODULES/lock_window.ko
cpu=$(($(nproc) - 1))
delay=5000		# us
inst=

# cleanup - never leave the module loaded or an instance behind
cleanup() {
	if grep -qw lock_window /proc/modules; then
		rmmod lock_window
	fi
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		lp_remove "$inst"
	fi
	inst=
}
trap cleanup EXIT

# lp_fresh DIR - clear DIR's results and trace, with its tracing off
lp_fresh() {
	echo 0 > "$1/tracing_on"
	echo 1 > "$1/latency_parser/reset"
	echo > "$1/trace"
	echo 1 > "$1/tracing_on"
}

# window_names DIR - the "from" of every new maximum of a window in DIR's
# trace, one a line
window_names() {
	sed -n 's/.* new_max: \(poid\|psd\|dst\|paie\) [0-9]* ns start [0-9]* from \(.*\) instance=.*/\2/p' \
		"$1/trace"
}

# --- The module's windows: known code, known CPU ---

inst=$(lp_instance names)
echo $cpu > "$inst/latency_parser/cpus"
echo 1 > "$inst/options/stacktrace"
echo 8192 > "$inst/buffer_size_kb"

if check "lock_window.ko was built for the kernel under test" test -f "$ko"; then
	for mode in irqsave preempt; do
		what="raw spinlock, $mode"
		lp_fresh "$inst"
		if ! insmod "$ko" mode=$mode delay_us=$delay cpu=$cpu; then
			ok 1 "$what: the module made the window"
			continue
		fi
		# freeze the results, then read them while the module is
		# loaded: "from" resolves its symbols
		echo 0 > "$inst/tracing_on"
		# the window: a new maximum of at least 80% of the delay (a
		# preempt-off window is net of the ticks inside it)
		line=$(awk -v min=$((delay * 800)) '
			/ new_max: poid / {
				for (i = 1; i < NF; i++) if ($i == "poid") v = $(i + 1)
				if (v >= min) l = $0
			}
			END { print l }' "$inst/trace")
		diag "$what: CPU $cpu max poid $(lp_max "$inst" $cpu poid) ns; the window's event:" \
			"${line:-none}"
		check "$what: the window is a new maximum of poid" test -n "$line"
		check "$what: it is named after the lock function or lock_window_$mode()" \
			grep -qE " from (_raw_spin_lock(_irqsave)?|lock_window_$mode)\+0x[0-9a-f]+/0x[0-9a-f]+ " \
			<<< "$line"
		# its stack trace: from the unlock that closed it, to its caller
		stack=
		[ -n "$line" ] &&
			stack=$(grep -A6 -F -- "$line" "$inst/trace" | grep '=>')
		diag "$what: the window's stack starts with:" "${stack:-(none)}"
		check "$what: its stack trace shows lock_window_$mode()" \
			grep -qE "=> lock_window_$mode(\+|\$)" <<< "$stack"
		rmmod lock_window
	done
fi
lp_remove "$inst"
inst=

# --- Under a load: every window that makes news has a name ---

inst=$(lp_instance names_load)
echo 8192 > "$inst/buffer_size_kb"
lp_fresh "$inst"
stress-ng --switch 1 --pipe 1 --timer 1 --timeout 5s --temp-path /tmp -q &
load=$!
for i in $(seq 25); do
	sleep 0.2
	echo 1 > "$inst/latency_parser/reset"
done
wait $load
echo 0 > "$inst/tracing_on"
names=$(window_names "$inst")
total=$(grep -c . <<< "$names")
zero=$(grep -c '^0x0$' <<< "$names")
symbols=$(grep -cE '^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+' <<< "$names")
diag "under load: $total new maxima of windows, $zero from 0x0, $symbols from a symbol;" \
	"the most frequent names:"
diag "$(sed 's/+.*//' <<< "$names" | sort | uniq -c | sort -rn | head -12)"
check "under load: windows made news ($total new maxima)" test "$total" -gt 0
check "under load: no window is from 0x0" test "$zero" -eq 0
check "under load: every window is named after a kernel symbol" test "$symbols" -eq "$total"
if [ "$zero" -gt 0 ]; then
	diag "$(grep -E ' new_max: (poid|psd|dst|paie) .* from 0x0 ' "$inst/trace" | head -5)"
fi
lp_remove "$inst"
inst=

done_testing
