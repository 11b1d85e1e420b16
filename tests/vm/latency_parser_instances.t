#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Instances of the latency_parser tracer are independent; histograms agree
# with the counters; switching tracers, removing an instance while it runs
# and CPU hotplug leave no warning behind.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

a=$(lp_instance lp_a)
b=$(lp_instance lp_b)
echo 0 > "$a/latency_parser/cpus"
echo 1 > "$b/latency_parser/cpus"
echo 1 > "$b/latency_parser/stop_tracing_us"
stress-ng --cpu 2 --timeout 3s --temp-path /tmp -q &
sleep 3
wait

check "two instances measure at once" test "$(lp_max "$a" 0 windows)" -gt 0
check "the second one too" test "$(lp_max "$b" 1 windows)" -gt 0
check "each lists only its CPU (a)" test "$(lp_max "$a" 1 windows)" = none
check "each lists only its CPU (b)" test "$(lp_max "$b" 0 windows)" = none
check "the instance with a threshold stopped" test "$(cat "$b/tracing_on")" = 0
check "the other one runs on" test "$(cat "$a/tracing_on")" = 1

# Histograms against counters, on a frozen instance.
echo 0 > "$a/tracing_on"
windows=$(lp_max "$a" 0 windows)
sum=0
for var in poid psd dst paie; do
	sum=$((sum + $(lp_hist_total "$a" $var 1)))
done
check "histogram counts add up to the window counter ($sum = $windows)" test "$sum" = "$windows"
for var in poid psd dst paie irq; do
	max=$(lp_max "$a" 0 $var)
	last=$(awk '!/^#/ && $2 > 0 { b = $1 } END { print b }' "$a/latency_parser/hist/$var")
	width=$(cat "$a/latency_parser/hist_bucket_ns")
	buckets=$(cat "$a/latency_parser/hist_buckets")
	if [ "$last" = over ]; then
		check "max $var ($max) is past the last bucket" test "$max" -ge $((width * buckets))
	else
		check "max $var ($max) is in the last bucket with a count ($last)" \
			test "$max" -ge "${last:-0}" -a "$max" -lt $((${last:-0} + width))
	fi
done

# Switching tracers, to another and back.
echo nop > "$a/current_tracer"
check "switching away removes the directory" test ! -e "$a/latency_parser"
echo latency_parser > "$a/current_tracer"
check "switching back brings it again" test -e "$a/latency_parser/max"
echo 1 > "$a/tracing_on"

# A file held open while the tracer goes away.
exec 3< "$a/latency_parser/max"
echo nop > "$a/current_tracer"
out=$(cat <&3 2>&1)
check "an open file of a gone tracer answers ENODEV" grep -q "No such device" <<< "$out"
exec 3<&-
echo latency_parser > "$a/current_tracer"

# The top level instance can run it beside the others.
echo latency_parser > "$TRACEFS/current_tracer"
check "the top level instance gets latency_parser/" test -e "$TRACEFS/latency_parser/max"
echo nop > "$TRACEFS/current_tracer"

# Removing an instance while it runs.
rmdir "$b"
check "an instance running the tracer can be removed" test ! -e "$b"

# CPU hotplug while tracing.
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	echo 1 > "$a/latency_parser/reset"
	echo "0-1" > "$a/latency_parser/cpus"
	dropped=$(lp_max "$a" 1 dropped)
	echo 0 > /sys/devices/system/cpu/cpu1/online
	check "CPU 1 went offline while tracing" test "$(cat /sys/devices/system/cpu/cpu1/online)" = 0
	sleep 1
	echo 1 > /sys/devices/system/cpu/cpu1/online
	check "CPU 1 came back" test "$(cat /sys/devices/system/cpu/cpu1/online)" = 1
	sleep 1
	check "CPU 1 is parsed again after hotplug" test "$(lp_max "$a" 1 windows)" -gt 0
	check "the window hotplug cut is counted as dropped" \
		test "$(lp_max "$a" 1 dropped)" -gt "$dropped"
	# the offline second is no window and no IRQ (TCG's noise is ms)
	for var in poid psd dst paie irq; do
		v=$(lp_max "$a" 1 $var)
		check "CPU 1's max $var ($v ns) holds none of the offline second" \
			test "${v//none/0}" -lt 500000000
	done
else
	skip "CPU hotplug" "cpu1 cannot go offline"
fi

rmdir "$a"
check "removing the last instance unhooks the tracer" test ! -e "$a"
done_testing
