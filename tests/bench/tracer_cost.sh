#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracer_cost.sh - what the latency_parser tracer costs, measured in the VM
# (make bench-vm). A toggle-heavy workload (stress-ng context switches and
# pipes: every operation disables and enables preemption and IRQs several
# times) runs with tracing off, with latency_parser, with the preemptirqsoff
# tracer, and with the raw preemptirq events recorded. Prints the slowdown of
# each against tracing off, and the trace bytes per second per CPU written.
# A benchmark, not a test: figures are ratios measured in one run.

[ -n "${IN_VM:-}" ] || exec "$(dirname "$0")/../vm/run" -t 900 -- bash "$0" "$@"

T=/sys/kernel/tracing
secs=${BENCH_SECONDS:-10}
ncpus=$(nproc)
inst=$T/instances/bench

# workload - bogo ops per second of the toggle-heavy mix
workload() {
	stress-ng --switch "$ncpus" --pipe "$ncpus" --timeout "${secs}s" --temp-path /tmp \
		--metrics-brief 2>&1 |
		awk '$4 ~ /^(switch|pipe)$/ && $9 ~ /^[0-9.]+$/ { ops += $9 } END { printf "%.0f\n", ops }'
}

# buffer_bytes DIR - bytes written into an instance's buffers, all CPUs
buffer_bytes() {
	local total=0 cpu b

	for cpu in $(seq 0 $((ncpus - 1))); do
		b=$(awk '/^bytes:/ { print $2 }' "$1/per_cpu/cpu$cpu/stats")
		total=$((total + ${b:-0}))
	done
	echo "$total"
}

rm -rf "$inst" 2>/dev/null
mkdir "$inst"
echo 65536 > "$inst/buffer_size_kb"

declare -A ops bytes
run() {
	local name=$1

	echo > "$inst/trace"
	ops[$name]=$(workload)
	bytes[$name]=$(buffer_bytes "$inst")
}

run off

echo latency_parser > "$inst/current_tracer"
run latency_parser
echo nop > "$inst/current_tracer"

echo preemptirqsoff > "$T/current_tracer"
echo 0 > "$T/tracing_max_latency"
run preemptirqsoff
echo nop > "$T/current_tracer"

echo 1 > "$inst/events/preemptirq/enable"
run preemptirq_events
echo 0 > "$inst/events/preemptirq/enable"
rmdir "$inst"

echo "# toggle-heavy workload (stress-ng switch+pipe, ${ncpus} CPUs, ${secs}s each)"
printf '%-20s %14s %10s %16s\n' config "bogo-ops/s" slowdown "bytes/s/CPU"
for name in off latency_parser preemptirqsoff preemptirq_events; do
	awk -v n="$name" -v o="${ops[$name]}" -v b="${ops[off]}" -v by="${bytes[$name]}" \
	    -v s="$secs" -v c="$ncpus" 'BEGIN {
		printf "%-20s %14.0f %9.3fx %16.0f\n", n, o, (o > 0 ? b / o : 0), by / s / c }'
done
echo "# preemptirqsoff writes its trace only for a new maximum; the raw events"
echo "# overrun the 64 MB buffer, so their bytes/s is a lower bound."
