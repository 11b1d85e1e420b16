#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracer_cost.sh - what the latency_parser tracer costs, measured in the VM
# (make bench-vm). A toggle-heavy workload (stress-ng context switches and
# pipes: every operation disables and enables preemption and IRQs tens of
# times) runs with tracing off, with latency_parser, with the preemptirqsoff
# tracer, and with the raw preemptirq events recorded. Prints the slowdown of
# each against tracing off, the trace bytes per second per CPU written, and
# what one traced toggle costs. When make bench-vm has built the
# empty_probes module, a "tracepoints_only" run hooks the tracer's
# tracepoints with probes that do nothing, the floor under any tracer that
# uses them, and a "tracepoints_clock" run with probes that only read the
# clock, the floor under any tracer that also times the toggles.
#
# usage: tracer_cost.sh [-s SECONDS] [-r ROUNDS] [-c CONFIGS] [-t] [-l] [-C CPUS]
#
# The workload is pinned to one CPU for SECONDS (default 8), and the
# configurations take turns over ROUNDS rounds (default 3); each figure is
# the median of its rounds. -c runs only the configurations named (a
# comma-separated list, e.g. "off" on a kernel without the tracer), -t only
# the throughput table, -l only the latency table. -C gives the VM that
# many CPUs (default 2): under the instruction counter, run the latency
# table on one, as qemu then runs the vCPUs in turn on one clock and each
# CPU's clock runs on while another executes (a maximum would include it).
#
# The latency table is the paper's own metric of a tracer's overhead:
# cyclictest's average and maximum latency (1 kHz, FIFO 95, in ns) on the
# workload's CPU while the workload runs, with tracing off, with
# latency_parser, with the preemptirqsoff tracer and with the timerlat
# tracer (what rtla timerlat runs) measuring the same CPU. Under TCG a single run of a configuration varies
# by 20% or more with the host's load. With VM_ICOUNT=0 in the environment
# the guest's clock counts instructions instead (tests/vm/run), and the
# slowdown is the one in instructions executed: immune to the host's load,
# and blind to what an instruction costs (a clock read counts as one).
# A benchmark, not a test: figures are ratios measured in one run.

if [ -z "${IN_VM:-}" ]; then
	vm_cpus=2
	for ((i = 1; i < $#; i++)); do
		[ "${!i}" = -C ] && j=$((i + 1)) && vm_cpus=${!j}
	done
	exec "$(dirname "$0")/../vm/run" -t 1800 -c "$vm_cpus" -- bash "$0" "$@"
fi

T=/sys/kernel/tracing
secs=8
rounds=3
only=
parts="throughput latency"
while getopts s:r:c:tlC: opt; do
	case $opt in
	s) secs=$OPTARG ;;
	r) rounds=$OPTARG ;;
	c) only=${OPTARG//,/ } ;;
	t) parts=throughput ;;
	l) parts=latency ;;
	C) ;;
	*) echo "usage: $0 [-s SECONDS] [-r ROUNDS] [-c CONFIGS] [-t] [-l] [-C CPUS]" >&2; exit 2 ;;
	esac
done
clock="wall clock"
grep -q vm.icount /proc/cmdline 2>/dev/null && clock="instruction count"
cpu=$(($(nproc) - 1))
inst=$T/instances/bench
configs="off latency_parser preemptirqsoff preemptirq_events"
empty_probes=$(dirname "$0")/../../build/bench/empty_probes/empty_probes.ko
[ -f "$empty_probes" ] && configs="off tracepoints_only tracepoints_clock ${configs#off }"
lat_configs="off latency_parser preemptirqsoff timerlat"
[ -n "$only" ] && configs=$only && lat_configs=$only

# workload - bogo ops per second of the toggle-heavy mix, on $cpu
workload() {
	stress-ng --taskset "$cpu" --switch 1 --pipe 1 --timeout "${secs}s" \
		--temp-path /tmp --metrics-brief 2>&1 |
		awk '$4 ~ /^(switch|pipe)$/ && $9 ~ /^[0-9.]+$/ { ops += $9 } END { printf "%.0f\n", ops }'
}

# cpu_stat FIELD - a field of the bench instance's stats on $cpu
cpu_stat() {
	awk -v f="$1:" '$1 == f { print $2 }' "$inst/per_cpu/cpu$cpu/stats"
}

# median - the median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# start CONFIG / stop CONFIG - switch a configuration on and off
start() {
	case $1 in
	tracepoints_only)	insmod "$empty_probes" ;;
	tracepoints_clock)	insmod "$empty_probes" clock=1 ;;
	latency_parser)		echo latency_parser > "$inst/current_tracer" ;;
	preemptirqsoff)		echo preemptirqsoff > "$T/current_tracer"
				echo 0 > "$T/tracing_max_latency" ;;
	preemptirq_events)	echo 1 > "$inst/events/preemptirq/enable" ;;
	timerlat)		echo "$cpu" > "$T/osnoise/cpus"
				echo timerlat > "$inst/current_tracer" ;;
	esac
}

stop() {
	case $1 in
	tracepoints_*)		rmmod empty_probes ;;
	latency_parser)		echo nop > "$inst/current_tracer" ;;
	preemptirqsoff)		echo nop > "$T/current_tracer" ;;
	preemptirq_events)	echo 0 > "$inst/events/preemptirq/enable" ;;
	timerlat)		echo nop > "$inst/current_tracer" ;;
	esac
}

# latency - cyclictest's "avg max" (ns) on $cpu, beside the workload
latency() {
	local load

	stress-ng --taskset "$cpu" --switch 1 --pipe 1 --timeout "$((secs + 5))s" \
		--temp-path /tmp >/dev/null 2>&1 &
	load=$!
	sleep 1
	cyclictest -q -N -m -p95 -t1 -a "$cpu" -i1000 -D "$secs" 2>/dev/null |
		awk '/^T:/ { for (i = 1; i < NF; i++) {
			if ($i == "Avg:") a = $(i + 1); if ($i == "Max:") m = $(i + 1) } }
			END { print a + 0, m + 0 }'
	kill "$load" 2>/dev/null
	wait "$load" 2>/dev/null
}

# take_turns CONFIGS MEASURE - MEASURE CONFIG with each configuration on,
# in turn, for $rounds rounds
take_turns() {
	local round name

	for round in $(seq "$rounds"); do
		for name in $1; do
			echo > "$inst/trace"
			start "$name"
			"$2" "$name"
			stop "$name"
		done
		echo "# round $round/$rounds done" >&2
	done
}

# throughput CONFIG - the workload's bogo ops/s, trace bytes and events
throughput() {
	ops[$1]+="$(workload) "
	# Read before stopping: a tracer switch clears the buffer.
	bytes[$1]+="$(cpu_stat bytes) "
	# The raw events overrun the buffer: count what was lost too.
	events[$1]+="$(( $(cpu_stat entries) + $(cpu_stat overrun) )) "
}

# cyclictest_latency CONFIG - cyclictest's average and maximum
cyclictest_latency() {
	local a m

	read -r a m <<< "$(latency)"
	avg[$1]+="$a "
	max[$1]+="$m "
}

rm -rf "$inst" 2>/dev/null
mkdir "$inst"
echo 65536 > "$inst/buffer_size_kb"

# A first run, not measured: the first one of a boot runs slower.
workload >/dev/null

if [[ " $parts " == *" throughput "* ]]; then
	declare -A ops bytes events
	take_turns "$configs" throughput

	for name in $configs; do
		ops[$name]=$(printf '%s\n' ${ops[$name]} | median)
		bytes[$name]=$(printf '%s\n' ${bytes[$name]} | median)
		events[$name]=$(printf '%s\n' ${events[$name]} | median)
	done

	echo "# toggle-heavy workload (stress-ng switch+pipe on CPU $cpu, ${secs}s, median of $rounds rounds, $clock)"
	printf '%-20s %12s %10s %14s %14s\n' config "bogo-ops/s" slowdown "bytes/s/CPU" "ns/toggle"
	for name in $configs; do
		# The cost of one toggle: the time an operation lost, over the
		# preemptirq events that one operation raises.
		awk -v n="$name" -v o="${ops[$name]}" -v b="${ops[off]}" -v by="${bytes[$name]}" \
		    -v s="$secs" -v ev="${events[preemptirq_events]}" -v eo="${ops[preemptirq_events]}" 'BEGIN {
			per_op = (eo > 0) ? ev / s / eo : 0
			cost = (o > 0 && b > 0 && per_op > 0) ? (1e9 / o - 1e9 / b) / per_op : 0
			printf "%-20s %12.0f %9.3fx %14.0f %14.1f\n", n, o, (o > 0 ? b / o : 0), by / s, cost }'
	done
	echo "# preemptirqsoff writes its trace only for a new maximum. ns/toggle: the guest"
	echo "# time one operation lost, over the preemptirq events it raises."
	# The goal of a traced toggle (ns are instructions under the counter)
	awk -v o="${ops[latency_parser]:-0}" -v b="${ops[off]:-0}" -v s="$secs" \
	    -v ev="${events[preemptirq_events]:-0}" -v eo="${ops[preemptirq_events]:-0}" \
	    -v clock="$clock" 'BEGIN {
		if (o <= 0 || b <= 0 || eo <= 0 || ev <= 0)
			exit
		cost = (1e9 / o - 1e9 / b) / (ev / s / eo)
		printf "# goal, traced: latency_parser <= 100 ns/toggle and <= 1.400x: %.1f, %.3fx: %s%s\n",
			cost, b / o, (cost <= 100 && b / o <= 1.4) ? "met" : "not met",
			(clock == "instruction count") ? "" : " (wall clock: the goal is in instructions)" }'
fi

if [[ " $parts " == *" latency "* ]]; then
	declare -A avg max
	take_turns "$lat_configs" cyclictest_latency
	echo "# cyclictest beside the workload (1 kHz, FIFO 95, CPU $cpu, ${secs}s, median of $rounds rounds, $clock)"
	printf '%-20s %10s %10s %12s %12s\n' config "avg(ns)" "max(ns)" "avg vs off" "max vs off"
	a0=$(printf '%s\n' ${avg[off]:-0} | median)
	m0=$(printf '%s\n' ${max[off]:-0} | median)
	for name in $lat_configs; do
		a=$(printf '%s\n' ${avg[$name]} | median)
		m=$(printf '%s\n' ${max[$name]} | median)
		awk -v n="$name" -v a="$a" -v m="$m" -v a0="$a0" -v m0="$m0" 'BEGIN {
			printf "%-20s %10.0f %10.0f %+12.0f %+12.0f\n", n, a, m, a - a0, m - m0 }'
	done
	echo "# avg/max vs off: what the configuration added to cyclictest's latency, in ns"
	echo "# of guest time (instructions under the instruction counter)."
fi
rmdir "$inst"
