#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The latency parser's KUnit suite ran at boot, in the patched kernel: the
# named event sequences of kernel/trace/trace_latency_parser_sm_cases.h
# through the state machine the tracer runs, each against the records the
# model defines for it, and the need_resched flag the probes feed it. The
# host runs the same table (tests/unit/parser.t); this shows the kernel's
# build of the same source agrees.

. "$(dirname "$0")/lib.sh"

results=/sys/kernel/debug/kunit/latency_parser_sm/results
if [ ! -r "$results" ]; then
	echo "1..0 # SKIP no latency_parser_sm KUnit suite (CONFIG_LATENCY_PARSER_KUNIT_TEST)"
	exit 0
fi

ktap=$(cat "$results")
cases=$(grep -cE '^ {8}ok [0-9]+ ' <<< "$ktap")
failed=$(grep -cE '^ *not ok ' <<< "$ktap")
ktree=$top/build/linux/kernel/trace/trace_latency_parser_sm_cases.h
expected=$(grep -c '^	LPC_CASE(' "$ktree" 2>/dev/null)

# 6.1's KUnit keeps 512 bytes of a suite's debugfs log: the cases' lines
# are cut off, and a failure among them with them. The case test's own
# count ("# lp_sm_case_test: pass:P fail:F skip:S total:T", among the last
# lines, kept) then says how many ran and failed, and the boot log has
# every line.
summary=$(sed -nE 's/^ *# lp_sm_case_test: pass:[0-9]+ fail:([0-9]+) skip:[0-9]+ total:([0-9]+)$/\1 \2/p' <<< "$ktap")
if [ -n "$summary" ] && [ "$cases" -lt "${summary#* }" ]; then
	read -r failed total <<< "$summary"
	diag "the debugfs log is cut off: $cases case lines of $total; the case test's count and the boot log"
	cases=$total
	ktap=$(dmesg | sed -E 's/^\[ *[0-9.]+\] //')
fi
diag "$(grep -E '^ {8}(not )?ok [0-9]+ ' <<< "$ktap")"
check "no KUnit case of the parser failed" test "$failed" -eq 0
check "every named sequence ran ($cases of ${expected:-?})" test "$cases" -eq "${expected:-0}"
# The probes' need_resched (trace_latency_parser.h): TIF_NEED_RESCHED, never
# the lazy flag, which 6.1-rt's tif_need_resched() reports too
check "the lazy flag is not the probes' need_resched (lp_need_resched_flag_test)" \
	grep -qE '^ +ok [0-9]+ lp_need_resched_flag_test' <<< "$ktap"
check "the suite passed" grep -qE '^ok [0-9]+ latency_parser_sm' <<< "$ktap"

done_testing
