#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The quick record: where one instance watches a CPU, a window under the
# CPU's limit (its bucket, its maximum + 1, its threshold + 1) only adds one
# to bucket 0 of its row, without the walk of the instances. Every change
# that moves a limit or the counter must reach the CPU before the next
# window, or windows vanish into bucket 0: a maximum missed after a reset,
# a threshold not stopped, a second instance that never sees them, counts
# in freed histograms, counts while tracing is off. Each check below is a
# window that the stale quick state would have swallowed.
#
# In deterministic time (VM_ICOUNT=0, one CPU, as latency_parser_exact.t):
# the windows are preemptirq_delay_test's with IRQs off, measured to within
# 5 us. The histograms' bucket is 2 ms: the windows under it are bucket-0
# windows, quick unless they make news. A window of 2 ms or more first
# brings the CPU's limits to the bucket, where no later window moves them
# (a full record under the bucket would remake them): then only the change
# itself can.

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_APPEND=${VM_APPEND-nohz=off}
export VM_CPUS=${VM_CPUS-1}
VM_TIMEOUT=${VM_TIMEOUT:-300}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

if ! modprobe -n preemptirq_delay_test 2>/dev/null; then
	echo "1..0 # SKIP no preemptirq_delay_test module"
	exit 0
fi

cpu=0
tolerance=5000		# ns
bucket=2000000		# ns
a=
b=

cleanup() {
	delay_done
	[ -n "$b" ] && [ -d "$b" ] && lp_remove "$b"
	[ -n "$a" ] && [ -d "$a" ] && lp_remove "$a"
	a=
	b=
}
trap cleanup EXIT

# geometry DIR - 2 ms buckets (tracing off: new histograms)
geometry() {
	echo 0 > "$1/tracing_on"
	echo 100 > "$1/latency_parser/hist_buckets"
	echo $bucket > "$1/latency_parser/hist_bucket_ns"
}

# fresh DIR - cleared results, tracing on
fresh() {
	echo 0 > "$1/tracing_on"
	echo 1 > "$1/latency_parser/reset"
	echo > "$1/trace"
	echo 1 > "$1/tracing_on"
}

# window US - one IRQ-off window of US on the CPU
window() {
	delay_test irq "$1" $cpu
	sleep 0.2
}

# exact DIR US - DIR's poid maximum is a window of US
exact() {
	local poid

	poid=$(lp_max "$1" $cpu poid)
	test "$poid" -ge $(($2 * 1000)) -a "$poid" -le $(($2 * 1000 + tolerance))
}

a=$(lp_instance quick_a)
geometry "$a"
fresh "$a"
check "2 ms buckets" test "$(cat "$a/latency_parser/hist_bucket_ns")" = $bucket

# The maximum: 3 ms, then after a reset 1 ms, under the old maximum
window 3000
diag "A: $(grep -E "^$cpu " "$a/latency_parser/max")"
check "a 3 ms window is A's maximum ($(lp_max "$a" $cpu poid) ns)" exact "$a" 3000
fresh "$a"
window 1000
diag "A after a reset: $(grep -E "^$cpu " "$a/latency_parser/max")"
check "after a reset, a 1 ms window is the maximum ($(lp_max "$a" $cpu poid) ns)" \
	exact "$a" 1000
check "and a new_max event" grep -qE "new_max: poid 10[0-9]{5} ns" "$a/trace"

# The threshold: 500 us, then a window of 800 us, under the maximum
window 2000
echo 500 > "$a/latency_parser/stop_tracing_us"
window 800
check "a threshold of 500 us stops A's tracing at 800 us" \
	test "$(cat "$a/tracing_on")" = 0
check "with a threshold_stop event of 800 us" \
	grep -qE "threshold_stop: poid 80[0-9]{4} ns" "$a/trace"
echo 0 > "$a/latency_parser/stop_tracing_us"

# Tracing off: nothing counted, not even under the limits
fresh "$a"
window 2000
echo 0 > "$a/tracing_on"
before=$(lp_hist_total "$a" poid 1)
window 500
sleep 1
after=$(lp_hist_total "$a" poid 1)
check "tracing off: no window counted ($before, then $after)" test "$after" = "$before"
check "and the maximum stays ($(lp_max "$a" $cpu poid) ns)" exact "$a" 2000

# A second instance, as it comes (its settings bring a change of their
# own): A's maximum is 2 ms, B's is nothing yet
echo 1 > "$a/tracing_on"
b=$(lp_instance quick_b)
window 1000
diag "B: $(grep -E "^$cpu " "$b/latency_parser/max")"
check "a second instance sees a 1 ms window ($(lp_max "$b" $cpu poid) ns)" exact "$b" 1000
check "and counts it ($(lp_hist_total "$b" poid 1) windows)" \
	test "$(lp_hist_total "$b" poid 1)" -ge 1
lp_remove "$b"
b=

# New histograms for A alone again, its maximum 2 ms before them
window 2000
geometry "$a"
echo 1 > "$a/tracing_on"
window 1000
diag "A's new histograms: $(grep -E "^$cpu " "$a/latency_parser/max")"
check "new histograms: a 1 ms window is the maximum ($(lp_max "$a" $cpu poid) ns)" \
	exact "$a" 1000
check "and is counted in them" test "$(lp_hist_total "$a" poid 1)" -ge 1

cleanup
done_testing
