#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# always_on.sh - what CONFIG_LATENCY_PARSER_TRACER costs with the tracer off
# (make bench-vm). Its Kconfig selects the preempt and IRQ toggle
# tracepoints, which make every preempt_disable/enable and local_irq_*
# of the kernel a function call, traced or not. The same workloads as
# tracer_cost.sh, with tracing off, run on the kernel of make kernel and on
# the same kernel built without the toggles (make kernel-untraced).
#
# usage: always_on.sh UNTRACED_BZIMAGE [tracer_cost.sh options]
#
# A benchmark, not a test: figures are ratios measured in one run.

set -uo pipefail

here=$(dirname "$0")
untraced=$1
shift
[ -f "$untraced" ] || { echo "always_on: no $untraced (make kernel-untraced)" >&2; exit 1; }

# off_figures - "ops avg max" of the off configuration of tracer_cost.sh:
# the throughput on two CPUs, the latency on one (see tracer_cost.sh)
off_figures() {
	local ops lat

	ops=$("$here/tracer_cost.sh" -c off -t "$@" | awk '$1 == "off" { print $2 }')
	lat=$("$here/tracer_cost.sh" -c off -l -C 1 "$@" | awk '$1 == "off" { print $2, $3 }')
	echo "${ops:-0} ${lat:-0 0}"
}

read -r ops0 avg0 max0 <<< "$(KERNEL=$untraced off_figures "$@")"
read -r ops1 avg1 max1 <<< "$(off_figures "$@")"

echo "# always-on price: the tracer compiled in and off, against the kernel without it"
printf '%-20s %12s %10s %10s %10s\n' kernel "bogo-ops/s" slowdown "avg(ns)" "max(ns)"
awk -v o0="$ops0" -v a0="$avg0" -v m0="$max0" -v o1="$ops1" -v a1="$avg1" -v m1="$max1" 'BEGIN {
	printf "%-20s %12.0f %9.3fx %10.0f %10.0f\n", "untraced", o0, 1, a0, m0
	printf "%-20s %12.0f %9.3fx %10.0f %10.0f\n", "compiled_in_off", o1,
		(o1 > 0 ? o0 / o1 : 0), a1, m1 }'
awk -v o0="$ops0" -v a0="$avg0" -v o1="$ops1" -v a1="$avg1" 'BEGIN {
	if (o1 <= 0)
		exit
	printf "# goal, always on: compiled_in_off <= 1.020x and avg within 100 ns: %.3fx, %+.0f ns: %s\n",
		o0 / o1, a1 - a0, (o0 / o1 <= 1.02 && a1 - a0 <= 100) ? "met" : "not met" }'
echo "# untraced: CONFIG_LATENCY_PARSER_TRACER, IRQSOFF_TRACER and PREEMPT_TRACER off,"
echo "# so no toggle tracepoints; compiled_in_off: the kernel of make kernel, nop tracer."
