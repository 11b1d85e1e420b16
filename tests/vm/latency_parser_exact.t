#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# latency_parser in deterministic time: the guest runs on qemu's
# instruction counter (VM_ICOUNT=0, 1 ns per instruction, the clock warped
# across idle), so there is no emulator jitter and values are asserted
# tightly (see "Measured on this kind of machine" in
# /work/shared/docs/upstream-anchors.md, and latency_parser_oracle.t for the
# same oracle under plain TCG, where only loose bounds hold).
#
# The guest has one CPU: with icount, qemu runs the vCPUs in turn on one
# clock, so a CPU's clock also advances while another vCPU executes (up to a
# tick's worth of instructions): on two vCPUs an idle CPU's 5 us tick
# handler reads as 100-470 us, like time stolen by a hypervisor.
#
# - An idle system (nohz=off: a tick every jiffy) has short IRQs and POIDs:
#   the idle sleep is neither IRQ time nor a window.
# - preemptirq_delay_test windows of 100 us, 1 ms and 7 ms, with IRQs or
#   preemption disabled, are measured to within 5 us: D_POID plus the IRQ
#   time inside the window (none with IRQs off) is the window's length.

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_APPEND=${VM_APPEND-nohz=off}
export VM_CPUS=${VM_CPUS-1}
VM_TIMEOUT=${VM_TIMEOUT:-300}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

cpu=$(($(nproc) - 1))		# the window's CPU
tolerance=5000		# ns
inst=

# cleanup - never leave the module loaded or an instance behind
cleanup() {
	delay_done
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		lp_remove "$inst"
	fi
	inst=
}
trap cleanup EXIT

diag "clock: $(cat /proc/cmdline | tr ' ' '\n' | grep -E '^(vm.icount|nohz)=' | tr '\n' ' ')"

# lp_fresh DIR - clear DIR's results and trace. A reset is exact only while
# the instance's tracing is off: probes may add to a count being cleared.
lp_fresh() {
	echo 0 > "$1/tracing_on"
	echo 1 > "$1/latency_parser/reset"
	echo > "$1/trace"
	echo 1 > "$1/tracing_on"
}

# --- An idle system ---

inst=$(lp_instance exact_idle)
lp_fresh "$inst"
sleep 5
# freeze the results: each value is read from the same 5 s
echo 0 > "$inst/tracing_on"
diag "idle, 5 s: $(head -1 "$inst/latency_parser/max")"
for c in $(seq 0 $(($(nproc) - 1))); do
	irq=$(lp_max "$inst" "$c" irq)
	poid=$(lp_max "$inst" "$c" poid)
	diag "idle, CPU $c: $(grep -E "^$c " "$inst/latency_parser/max")"
	check "idle, CPU $c: worst IRQ execution $irq ns < 100 us" \
		test "${irq//none/999999999}" -lt 100000
	check "idle, CPU $c: worst POID $poid ns < 1 ms" \
		test "${poid//none/999999999}" -lt 1000000
done
cleanup

# --- preemptirq_delay_test windows ---

# delay_run MODE US CPU - one window; with two CPUs or more, modprobe runs
# on another CPU than the window's, so that loading the module adds no
# window of its own there. The module stays loaded (its symbols name the
# window) until delay_done.
delay_run() {
	local pin=

	[ "$(nproc)" -gt 1 ] && pin="taskset -c $(($3 == 0 ? 1 : 0))"
	delay_done
	$pin modprobe preemptirq_delay_test test_mode="$1" delay="$2" \
		cpu_affinity="$3"
}

# max_event DIR CPU [PATTERN] - the last "max poid" event of CPU in DIR's
# trace (whose line matches PATTERN), as "value start from"; the last new
# maximum is the instance's maximum
max_event() {
	awk -v c="[$(printf %03d "$2")]" -v pat="${3:-}" '
		/ new_max: poid / && (pat == "" || index($0, pat)) {
			onc = 0
			for (i = 1; i <= NF; i++) if ($i == c) onc = 1
			if (!onc) next
			v = s = f = ""
			for (i = 1; i < NF; i++) {
				if ($i == "poid") v = $(i + 1)
				if ($i == "start") s = $(i + 1)
				if ($i == "from") f = substr($0, index($0, " from ") + 6)
			}
			line = v " " s " " f
		}
		END { print line }' "$1/trace"
}

if ! modprobe -n preemptirq_delay_test 2>/dev/null; then
	skip "preemptirq_delay_test windows" "no preemptirq_delay_test module"
	done_testing
fi

for mode in irq preempt; do
	for n in 100 1000 7000; do
		what="$mode mode, ${n} us"
		inst=$(lp_instance exact_delay)
		echo $cpu > "$inst/latency_parser/cpus"
		# the IRQ executions inside the window are read from the buffer
		lp_interrupt_events "$inst" 1
		echo 1 > "$inst/options/stacktrace"
		lp_fresh "$inst"
		if ! delay_run $mode $n $cpu; then
			ok 1 "$what: the module made the window"
			cleanup
			continue
		fi
		# freeze the results, then read them while the module is
		# loaded: "from" resolves its symbols
		echo 0 > "$inst/tracing_on"
		poid=$(lp_max "$inst" $cpu poid)
		# the window: the module's last new maximum
		read -r value start from <<< \
			"$(max_event "$inst" $cpu '[preemptirq_delay_test]')"
		read -r mvalue mstart mfrom <<< "$(max_event "$inst" $cpu)"
		if [ "$mvalue" != "$value" ]; then
			diag "$what: the instance's last max poid event: $mvalue ns" \
				"start $mstart from ${mfrom:-(none)}, closed at:"
			diag "$(grep -A12 "new_max: poid $mvalue ns start $mstart" "$inst/trace" |
				sed -n '/<stack trace>/,/_execution: \|new_max: /p' | grep '=>')"
		fi
		irq=0
		[ -n "$start" ] && irq=$(irq_inside "$inst" $cpu "$start" "${value:-0}")
		total=$((${value:-0} + irq))
		diag "$what: CPU $cpu max poid $poid ns; the module's max poid event: ${value:-none} ns start ${start:-none}" \
			"from ${from:-none}; IRQ time inside $irq ns; poid + irq = $total ns" \
			"($((total - n * 1000)) ns over)"
		check "$what: a max poid event names the module's code" \
			grep -q '\[preemptirq_delay_test\]' <<< "$from"
		# its stack starts where the window closed: the module's code
		# (in irq and preempt mode both ends are in the same function)
		first=$(grep -A2 "new_max: poid $value ns start $start" "$inst/trace" |
			sed -n '/<stack trace>/{n;p;q}')
		diag "$what: the window's stack starts at:$first"
		check "$what: the window's stack starts at the module's code" \
			grep -q ' => execute_preemptirqtest' <<< "$first"
		check "$what: it is the instance's max poid of CPU $cpu" \
			test "${value:-x}" = "$poid"
		if [ $mode = irq ]; then
			check "$what: no IRQ ran inside the irq-off window" test "$irq" -eq 0
			check "$what: D_POID >= N" test "${value:-0}" -ge $((n * 1000))
			check "$what: D_POID <= N + 5 us" \
				test "${value:-0}" -le $((n * 1000 + tolerance))
		else
			check "$what: D_POID + IRQ time inside >= N" test $total -ge $((n * 1000))
			check "$what: D_POID + IRQ time inside <= N + 5 us" \
				test $total -le $((n * 1000 + tolerance))
		fi
		cleanup
	done
done

done_testing
