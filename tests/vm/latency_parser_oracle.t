#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own oracle, preemptirq_delay_test, makes windows of a known
# length on a known CPU: the tracer must see them there, and only there.
#
# Under TCG the noise floor of irq-off and preempt-off windows is around
# 10-15 ms, so a maximum proves only a lower bound for small windows; the
# upper bound is checked on windows well above that floor, identified by the
# code that opened them (the max event's "from" and stack trace).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

cpu=1
other=0
on=$(lp_instance oracle)
off=$(lp_instance oracle_other)
echo $cpu > "$on/latency_parser/cpus"
echo $other > "$off/latency_parser/cpus"
# the execution events come from every CPU: keep CPU $cpu's, so that
# another CPU's cannot come between a new maximum and its stack trace
printf '%x\n' $((1 << cpu)) > "$on/tracing_cpumask"
lp_interrupt_events "$on" 1
echo 1 > "$on/options/stacktrace"
echo 8192 > "$on/buffer_size_kb"

# Lower bounds: irq-off windows hold no interrupt, so D_POID >= N exactly.
# A preempt-off window lets IRQs run, which the tracer discounts: the
# window is then at least N minus the IRQ time of the CPU meanwhile.
for n in 100 1000 5000; do
	echo 1 > "$on/latency_parser/reset"
	delay_test irq $n $cpu
	poid=$(lp_max "$on" $cpu poid)
	diag "irq-off ${n} us: max poid on CPU $cpu = $poid ns"
	check "irq mode, ${n} us: D_POID >= N on CPU $cpu" test "$poid" -ge $((n * 1000))
done
for n in 1000 5000; do
	echo 1 > "$on/latency_parser/reset"
	echo > "$on/trace"
	delay_test preempt $n $cpu
	poid=$(lp_max "$on" $cpu poid)
	irq=$(awk -v c="[00$cpu]" '$0 ~ /_execution: / && index($0, c) {
		for (i = 1; i < NF; i++) if ($i == "duration") n += $(i + 1) } END { printf "%.0f\n", n }' "$on/trace")
	diag "preempt-off ${n} us: max poid on CPU $cpu = $poid ns, IRQ time $irq ns"
	check "preempt mode, ${n} us: D_POID + IRQ time >= N on CPU $cpu" \
		test $((poid + irq)) -ge $((n * 1000))
done

# Above the noise floor: the window is found by its code, with its length.
n=60000
tolerance=20000
echo 1 > "$on/latency_parser/reset"
echo 1 > "$off/latency_parser/reset"
echo > "$on/trace"
echo > "$off/trace"
delay_test irq $n $cpu
# The buffers stop before they are read: on a debug kernel the execution
# events of CPU $cpu overran the buffer thousands of times while its trace
# was read, and took the maximum and its stack trace with them.
echo 0 > "$on/tracing_on"
echo 0 > "$off/tracing_on"
line=$(grep "new_max: poid .* \[preemptirq_delay_test\]" "$on/trace" | tail -1)
diag "$line"
# what the buffer lost meanwhile, if anything: an overrun there would
# explain a missing event without a fault of the tracer's
diag "CPU $cpu: max poid $(lp_max "$on" $cpu poid) ns;" \
	"$(grep -E '^(entries|overrun|dropped events):' "$on/per_cpu/cpu$cpu/stats" | tr '\n' ' ')"
value=$(sed -n 's/.*new_max: poid \([0-9]*\) ns.*/\1/p' <<< "$line")
check "a max poid event names the oracle's code" test -n "$value"
check "its value is at least ${n} us" test "${value:-0}" -ge $((n * 1000))
check "its value is at most ${n} us + ${tolerance} us" \
	test "${value:-0}" -le $(((n + tolerance) * 1000))
# oracle_stack - the frames of the stack trace recorded after the oracle's
# last new maximum, all of them: a debug kernel's stack runs deeper than a
# production kernel's
oracle_stack() {
	awk '/new_max: poid .* \[preemptirq_delay_test\]/ { found = 1; in_stack = 0; frames = ""; next }
	     found && !in_stack && /<stack trace>/ { in_stack = 1; next }
	     in_stack && /^ *=> / { frames = frames $0 "\n"; next }
	     in_stack { found = 0; in_stack = 0 }
	     END { printf "%s", frames }' "$on/trace"
}
stack=$(oracle_stack)
grep -q "preemptirq" <<< "$stack"
status=$?
ok $status "its stack trace shows the oracle"
if [ $status -ne 0 ]; then
	diag "its stack trace: ${stack:-none after the new maximum, which the trace follows with:}"
	[ -n "$stack" ] ||
		diag "$(grep -A6 "new_max: poid .* \[preemptirq_delay_test\]" "$on/trace" | tail -7)"
fi
seen=$(grep -E "(new_max|threshold_stop): .*\[preemptirq_delay_test\]" "$off/trace")
[ -z "$seen" ] || diag "$seen"
check "the instance watching CPU $other did not see it" test -z "$seen"
diag "CPU $other: max poid $(lp_max "$off" $other poid) ns (noise, not the oracle's)"

delay_done
lp_remove "$on"
lp_remove "$off"
done_testing
