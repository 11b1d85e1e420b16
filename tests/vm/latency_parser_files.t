#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tracefs interface of the latency_parser tracer: every file's format,
# valid and invalid writes, reset, and the threshold stop.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

ncpus=$(nproc)
inst=$(lp_instance files)
ok $? "an instance selects latency_parser"
lp=$inst/latency_parser

for f in cpus stop_tracing_us hist_bucket_ns hist_buckets max reset \
	 hist/poid hist/psd hist/dst hist/paie hist/irq hist/nmi; do
	[ -e "$lp/$f" ]
	ok $? "latency_parser/$f exists"
done
# The modes of the core's own files: TRACE_MODE_WRITE, TRACE_MODE_READ,
# and free_buffer's for a file only written.
modes() { (cd "$lp" && stat -c %a "$@" | sort -u | tr '\n' ' '); }
check "settings are 0640" test "$(modes cpus stop_tracing_us hist_bucket_ns hist_buckets)" = "640 "
check "results are 0440" test "$(modes max hist/*)" = "440 "
check "reset is 0200" test "$(modes reset)" = "200 "
check "the top level instance has no latency_parser/ while it runs nop" \
	test ! -e "$TRACEFS/latency_parser"

check "cpus defaults to every CPU" test "$(cat "$lp/cpus")" = "0-$((ncpus - 1))"
check "stop_tracing_us defaults to 0" test "$(cat "$lp/stop_tracing_us")" = 0
check "hist_bucket_ns defaults to 1000" test "$(cat "$lp/hist_bucket_ns")" = 1000
check "hist_buckets defaults to 1000" test "$(cat "$lp/hist_buckets")" = 1000

sleep 2
head=$(head -1 "$lp/max")
check "max has its header" test "$head" = "# cpu poid psd dst paie irq nmi windows dropped"
check "max has one line of 9 numbers per CPU" \
	test "$(grep -cE '^[0-9]+( [0-9]+){8}$' "$lp/max")" = "$ncpus"
check "windows were parsed in 2 s" test "$(lp_max "$inst" 0 windows)" -gt 0
check "the window open when parsing began is counted as dropped" \
	test "$(lp_max "$inst" 0 dropped)" -ge 1
check "hist/poid has a header naming the CPUs" \
	test "$(head -1 "$lp/hist/poid")" = "# ns$(for c in $(seq 0 $((ncpus - 1))); do printf ' cpu%d' $c; done)"
check "hist/poid has 1000 buckets and an overflow line" \
	test "$(grep -vc '^#' "$lp/hist/poid")" = 1001
check "bucket lower bounds step by hist_bucket_ns" \
	test "$(sed -n '3p' "$lp/hist/poid" | cut -d' ' -f1)" = 1000
check "the last line is the overflow" test "$(tail -1 "$lp/hist/poid" | cut -d' ' -f1)" = over

# Valid writes read back.
echo 0 > "$lp/cpus"; check "cpus accepts a cpulist" test "$(cat "$lp/cpus")" = 0
check "max lists only the instance's CPUs" test "$(grep -vc '^#' "$lp/max")" = 1
echo "0-$((ncpus - 1))" > "$lp/cpus"
# A threshold no window reaches: a stop here would break the next checks.
echo 3600000000 > "$lp/stop_tracing_us"
check "stop_tracing_us reads back" test "$(cat "$lp/stop_tracing_us")" = 3600000000
echo 0 > "$lp/stop_tracing_us"
echo 1 > "$inst/tracing_on"

# Invalid writes get EINVAL, a geometry change while tracing EBUSY.
bad_write() {
	local err

	err=$( (echo "$2" > "$lp/$1") 2>&1)
	grep -q "$3" <<< "$err"
}
check "cpus rejects a CPU out of range" bad_write cpus "$ncpus" "Invalid argument"
check "cpus rejects garbage" bad_write cpus "zero" "Invalid argument"
check "stop_tracing_us rejects a negative value" bad_write stop_tracing_us -5 "Invalid argument"
check "stop_tracing_us rejects garbage" bad_write stop_tracing_us 12abc "Invalid argument"
# 18446744073709552 us is more than 2^64 ns: it must not wrap to a tiny threshold.
check "stop_tracing_us rejects a value that wraps in ns" \
	bad_write stop_tracing_us 18446744073709552 "Invalid argument"
check "stop_tracing_us is unchanged by bad writes" test "$(cat "$lp/stop_tracing_us")" = 0
check "hist_buckets rejects 0" bad_write hist_buckets 0 "Invalid argument"
check "hist_buckets rejects too many" bad_write hist_buckets 10001 "Invalid argument"
check "hist_bucket_ns rejects 0" bad_write hist_bucket_ns 0 "Invalid argument"
check "a geometry change while tracing is busy" bad_write hist_buckets 100 "busy"
check "cpus is unchanged by bad writes" test "$(cat "$lp/cpus")" = "0-$((ncpus - 1))"

# A geometry change with tracing off applies and resets.
echo 0 > "$inst/tracing_on"
echo 100 > "$lp/hist_buckets" && echo 2000 > "$lp/hist_bucket_ns"
check "a geometry change with tracing off applies" \
	test "$(grep -vc '^#' "$lp/hist/psd")" = 101
check "the new geometry steps by 2000 ns" test "$(sed -n '3p' "$lp/hist/psd" | cut -d' ' -f1)" = 2000
check "the new geometry starts from zero" test "$(lp_max "$inst" 0 windows)" = 0
check "geometry too wide for 32 bits is rejected" bad_write hist_bucket_ns 100000000 "Invalid argument"
# Values whose product with the other factor wraps 64 bits: a bucket width
# of 2^61 ns once passed the check and divided by zero in the kernel.
check "a bucket width that wraps the geometry is rejected" \
	bad_write hist_bucket_ns 2305843009213693952 "Invalid argument"
check "a bucket width over 32 bits is rejected" bad_write hist_bucket_ns 4294967296 "Invalid argument"
check "a bucket count that wraps the geometry is rejected" \
	bad_write hist_buckets 9223372036854775808 "Invalid argument"
check "the geometry is unchanged by the rejected writes" \
	test "$(cat "$lp/hist_bucket_ns") $(cat "$lp/hist_buckets")" = "2000 100"
echo 1 > "$inst/tracing_on"
sleep 1

# Reset clears maxima, histograms and counters.
echo 0 > "$inst/tracing_on"
check "windows were counted before reset" test "$(lp_max "$inst" 0 windows)" -gt 0
echo 1 > "$lp/reset"
check "reset clears the window counters" test "$(awk '!/^#/ { n += $8 } END { print n + 0 }' "$lp/max")" = 0
check "reset clears the maxima" test "$(awk '!/^#/ { n += $2 + $3 + $4 + $5 } END { print n + 0 }' "$lp/max")" = 0
check "reset clears the histograms" test "$(lp_hist_total "$inst" poid 1)" = 0
echo 1 > "$inst/tracing_on"

# Threshold stop: this instance stops, the top level does not.
echo 1 > "$TRACEFS/tracing_on"
echo 1 > "$lp/stop_tracing_us"
for i in $(seq 50); do
	[ "$(cat "$inst/tracing_on")" = 0 ] && break
	sleep 0.1
done
check "a window over stop_tracing_us stops the instance" test "$(cat "$inst/tracing_on")" = 0
check "the top level instance keeps tracing" test "$(cat "$TRACEFS/tracing_on")" = 1
check "the stop event is in the instance's buffer" grep -q "threshold_stop: " "$inst/trace"
diag "$(grep -A4 'threshold_stop: ' "$inst/trace" | head -8)"
stack_follows() {
	grep -A1 "threshold_stop: " "$inst/trace" | grep -q "<stack trace>"
}
check "a stack trace follows the stop event" stack_follows
# The stack starts at the code that closed the window, not in the tracer.
first_frame() {
	grep -A2 "threshold_stop: " "$inst/trace" | sed -n '/<stack trace>/{n;p;q}'
}
diag "the stop's stack starts at:$(first_frame)"
check "the stop's stack starts outside the tracer" \
	test -n "$(first_frame | grep -v -e ' lp_' -e latency_parser -e stack_trace)"

check "the instance leaves the tracer" lp_remove "$inst"
done_testing
