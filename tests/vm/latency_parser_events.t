#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tracer's trace events (events/latency_parser/): what perf, trace-cmd
# and other instances read. An instance running the tracer holds its own
# new_max and threshold_stop events whether or not they are enabled there,
# each once; enabled elsewhere, they name the instance they come from.

VM_APPEND="nohz=off"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require
lp_local_timer

ev=$TRACEFS/events/latency_parser
for e in irq_execution vector_execution nmi_execution new_max threshold_stop; do
	check "event latency_parser:$e has a format" grep -q "^format:" "$ev/$e/format"
done
check "new_max's format has its fields" \
	grep -q 'field:__data_loc char\[\] instance' "$ev/new_max/format"

# The instance's own copy, and no second one when enabled there too.
a=$(lp_instance ev_a)
b=$(lp_instance ev_b)
echo 1 > "$a/latency_parser/cpus"
echo 1 > "$b/latency_parser/cpus"
echo 1 > "$b/events/latency_parser/new_max/enable"
# While the event is being enabled, its probe is registered before the
# file's ENABLED flag is set (trace_events.c), and the long windows that
# the enabling itself makes (on_each_cpu_cond_mask) can be written twice:
# by the probe and as ev_b's own result. What is checked is the steady
# state: ev_b starts over once the event is on.
echo 1 > "$b/latency_parser/reset"
echo > "$b/trace"
# ev_a's maxima start over now that ev_b listens: its next windows are new
# maxima that ev_b must see (those of before could have been the last)
echo 1 > "$a/latency_parser/reset"
sleep 2
echo 0 > "$a/tracing_on"
echo 0 > "$b/tracing_on"
own=$(grep -c 'new_max: .* instance=ev_a$' "$a/trace")
check "ev_a holds its new maxima without enabling the event ($own)" test "$own" -gt 0
check "ev_a holds no other instance's maxima" \
	test -z "$(grep 'new_max: ' "$a/trace" | grep -v 'instance=ev_a$')"
bown=$(grep -c 'new_max: .* instance=ev_b$' "$b/trace")
check "ev_b, with new_max enabled, holds its own maxima ($bown)" test "$bown" -gt 0
# the same window twice would be two lines alike but for the timestamp
dups=$(grep 'new_max: .* instance=ev_b$' "$b/trace" | sed 's/.*new_max: //' | sort | uniq -d)
[ -z "$dups" ] || diag "$dups"
check "ev_b holds each of its maxima once" test -z "$dups"
check "ev_b also sees ev_a's maxima, named" grep -q 'new_max: .* instance=ev_a$' "$b/trace"
check "no execution event is in a buffer unless enabled" \
	test -z "$(grep -h '_execution: ' "$a/trace" "$b/trace")"
lp_remove "$b"
echo 1 > "$a/latency_parser/reset"
echo 1 > "$a/tracing_on"

# trace-cmd: the events recorded at the top level, read back by its parser.
if command -v trace-cmd >/dev/null; then
	dat=/tmp/lp_events.dat
	# ev_a's maxima reset while trace-cmd records: every variable's next
	# window is a new maximum (after a reset made before, the 2 s could
	# hold none, and did once in the full suite)
	trace-cmd record -q -o "$dat" -e "latency_parser:$LP_TIMER_EVENT" \
		-e latency_parser:new_max \
		sh -c "echo 1 > $a/latency_parser/reset; sleep 2" >/dev/null 2>&1
	ok $? "trace-cmd records latency_parser:$LP_TIMER_EVENT and :new_max"
	trace-cmd report -i "$dat" > /tmp/lp_events.txt 2>&1
	diag "$(grep -m1 "new_max:" /tmp/lp_events.txt)"
	diag "$(grep -m2 "$LP_TIMER_EVENT:" /tmp/lp_events.txt)"
	check "trace-cmd report parses the local timer's executions" \
		grep -qE "$LP_TIMER_RE" /tmp/lp_events.txt
	check "trace-cmd report parses new maxima, with their instance" \
		grep -qE 'new_max: +[a-z]+ [0-9]+ ns start [0-9]+ from .* instance=ev_a( |$)' \
		/tmp/lp_events.txt
else
	skip "trace-cmd reads the events" "no trace-cmd"
fi

# perf: the same tracepoints, through perf_event_open().
if command -v perf >/dev/null; then
	data=/tmp/lp_events.perf
	perf record -q -o "$data" -C 1 -e "latency_parser:$LP_TIMER_EVENT" \
		-e latency_parser:new_max sleep 2 >/dev/null 2>&1
	ok $? "perf records latency_parser:$LP_TIMER_EVENT and :new_max"
	perf script -i "$data" > /tmp/lp_events.script 2>&1
	diag "$(grep -m2 'latency_parser:' /tmp/lp_events.script)"
	n=$(grep -cE "latency_parser:$LP_TIMER_RE" /tmp/lp_events.script)
	check "perf script prints the local timer's executions on CPU 1 ($n)" test "$n" -gt 0
	check "perf script prints only CPU 1's" \
		test -z "$(grep 'latency_parser:' /tmp/lp_events.script | grep -v '\[001\]')"
else
	skip "perf reads the events" "no perf"
fi

# NMIs: sysrq's "l" asks the other CPUs for a backtrace by NMI (x86's
# APIC NMI; on arm64 an NMI only with pseudo-NMIs, an IRQ otherwise). CPU
# 1's NMI must be an nmi_execution event, as its histogram count is: the
# tracer once recorded an NMI without writing its event, which rtla reads
# for I_NMI. The backtraces stay off the console, which carries the TAP.
if [ "$(uname -m)" = x86_64 ] || dmesg | grep -q "Pseudo-NMIs enabled"; then
	n=$(lp_instance ev_nmi)
	echo 1 > "$n/latency_parser/cpus"
	echo 2 > "$n/tracing_cpumask"
	echo 1 > "$n/events/latency_parser/nmi_execution/enable"
	echo > "$n/trace"
	level=$(awk '{ print $1 }' /proc/sys/kernel/printk)
	dmesg -n 1
	taskset -c 0 sh -c 'echo l > /proc/sysrq-trigger'
	sleep 1
	dmesg -n "$level"
	echo 0 > "$n/tracing_on"
	nmis=$(grep -c 'nmi_execution: ' "$n/trace")
	diag "$(grep -m2 'nmi_execution: ' "$n/trace")"
	check "CPU 1's backtrace NMI is an nmi_execution event ($nmis)" test "$nmis" -ge 1
	count=$(lp_hist_total "$n" nmi 1)
	check "the nmi histogram counted no execution the events lack ($count = $nmis)" \
		test "$count" -eq "$nmis"
	lp_remove "$n"
else
	skip "an NMI is an nmi_execution event" "no NMI to send here (arm64 without pseudo-NMIs)"
	skip "the nmi histogram counts the events" "no NMI"
fi

lp_remove "$a"
done_testing
