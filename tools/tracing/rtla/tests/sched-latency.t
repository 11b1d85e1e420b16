#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
source tests/engine.sh
test_begin

set_timeout 2m

# Basic tests
check "verify help page" \
	"sched-latency --help" 129 "rtla sched-latency: bounds the scheduling latency"
check_top_hist "verify help page" \
	"sched-latency TOOL --help" 129 "Usage: rtla sched-latency"
check "an unknown mode" \
	"sched-latency foo" 129 "unknown mode 'foo'"
check_top_hist "an unknown option is a usage error" \
	"sched-latency TOOL --no-such-option" 129 "unknown option"
check_top_hist "a bad cpu list is a usage error" \
	"sched-latency TOOL -c x" 129 "Error: --cpus: 'x' is not a valid cpu set"
check_top_hist "an unknown --stop-on variable" \
	"sched-latency TOOL -T 10 --stop-on foo" 129 "is not a variable"
check_top_hist "--stop-on needs -T" \
	"sched-latency TOOL --stop-on poid" 1 "needs a threshold"
check_top_hist "a workload goes after --" \
	"sched-latency TOOL -d 1s sleep 1" 1 "a workload goes after --"

# A kernel without the tracer is an outcome of its own, exit 5; with it,
# the report records the tracer's ABI
if grep -qw latency_parser /sys/kernel/tracing/available_tracers 2>/dev/null
then
	check "--json records the tracer's ABI" \
		"sched-latency top -q -c 0 -d 1s --json - 2>/dev/null | tr -d ' \\n'" \
		0 '"tracer":\{"name":"latency_parser","available":true,"abi":1,'
else
	check "a kernel without the tracer exits 5" \
		"sched-latency top -d 1s" 5 "the kernel has no latency_parser tracer"
fi

# The measuring checks need the latency_parser tracer (a PREEMPT_RT kernel
# with CONFIG_LATENCY_PARSER_TRACER); without it, each is reported as
# skipped, so that the plan is the same on every kernel.
if ! grep -qw latency_parser /sys/kernel/tracing/available_tracers 2>/dev/null
then
	check() {
		ctr=$((ctr + 1))
		if [ -n "$TEST_COUNT" ]
		then
			echo "ok $ctr - $1 # SKIP the kernel has no latency_parser tracer"
		fi
	}
fi

check_top_q_hist "a short session" \
	"sched-latency TOOL -c 0 -d 2s" 0 "Scheduling latency bound"
check "top: the per-cpu table" \
	"sched-latency top -q -c 0 -d 2s" 0 "CPU WINDOWS"
check "hist: the histogram of each variable" \
	"sched-latency hist -c 0 -d 2s" 0 "^Index +POID-000 +PSD-000"
check_top_q_hist "test in nanoseconds" \
	"sched-latency TOOL -c 0 -n -d 2s" 0 "\(ns\)"
check_top_q_hist "a threshold stops the session" \
	"sched-latency TOOL -c 0 -T 1 -d 30s" 2 "sched-latency hit stop tracing"
check_top_q_hist "verify -t saves the trace of the tracer" \
	"sched-latency TOOL -c 0 -d 2s -t >/dev/null && head -n 1 sched_latency_trace.txt" \
	0 "^# tracer: latency_parser$"
check_top_q_hist "a bound over --max-bound" \
	"sched-latency TOOL -c 0 -d 2s --max-bound 1" 2 "^EXCEEDED: "
check_top_q_hist "a variable over --max-var" \
	"sched-latency TOOL -c 0 -d 2s --max-var poid=1" 2 "^EXCEEDED: cpu 0: poid "
# a baseline whose bound without interrupts was 1 ns: any run regressed
check "a run that regressed from its --baseline exits 2 and names it" \
	"sched-latency top -q -c 0 -d 2s --json base.json >/dev/null && sed -i 's/\"no_interrupts\": [0-9][0-9]*/\"no_interrupts\": 1/' base.json && \$RTLA sched-latency top -q -c 0 -d 2s --baseline base.json" \
	2 "^REGRESSED: cpu 0: bound.no_interrupts "
check_top_q_hist "a workload that fails" \
	"sched-latency TOOL -c 0 -d 30s -- sh -c 'exit 7'" 3 "^WORKLOAD FAILED: "
# The whole document, on one line, and nothing else: complete, and passed
check_top_q_hist "--json writes the report to its file" \
	"sched-latency TOOL -c 0 -d 2s --json sl.json >/dev/null && tr -d ' \\n' < sl.json" \
	0 '^\{"version":3,.*"exit_status":0,.*\}$'
check_top_q_hist "--json - writes the report alone on standard output" \
	"sched-latency TOOL -c 0 -d 2s --json - 2>/dev/null | tr -d ' \\n'" \
	0 '^\{"version":3,.*"exit_status":0,.*\}$'
check_top_q_hist "--on-end runs a shell action" \
	"sched-latency TOOL -c 0 -d 2s --on-end shell,command='echo on-end-ran'" 0 "^on-end-ran"
check_top_q_hist "--on-threshold continue measures on" \
	"sched-latency TOOL -c 0 -T 1 -d 3s --on-threshold shell,command='echo threshold-hit' --on-threshold continue" \
	2 "^threshold-hit"

test_end
