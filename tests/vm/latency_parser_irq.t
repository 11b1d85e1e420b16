#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# IRQ executions: on an idle CPU the local timer shows at about the tick
# rate (the VM boots with nohz=off, so idle keeps the tick): x86_64's
# local timer vector, arm64's architected timer IRQ (lp_local_timer).

VM_APPEND="nohz=off"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require
check "the local timer is known (${LP_TIMER_EVENT:-none} ${LP_TIMER_ID:-none})" lp_local_timer

hz=1000
secs=2
inst=$(lp_instance irq)
echo 1 > "$inst/latency_parser/cpus"
# the execution events come from every CPU: the buffer keeps CPU 1's
echo 2 > "$inst/tracing_cpumask"
lp_interrupt_events "$inst" 1
echo > "$inst/trace"
sleep $secs
echo 0 > "$inst/tracing_on"

timer=$(grep -cE "$LP_TIMER_RE" "$inst/trace")
[ "$timer" -gt 0 ] || diag "$(head -20 "$inst/trace"; cat "$inst/latency_parser/max")"
diag "local timer executions on idle CPU 1 in ${secs} s: $timer (HZ=$hz)"
check "the local timer shows at least at a quarter of the tick rate" \
	test "$timer" -ge $((hz * secs / 4))
check "and at most at twice the tick rate" test "$timer" -le $((hz * secs * 2))
check "only CPU 1's executions are in the buffer" \
	test -z "$(grep _execution: "$inst/trace" | grep -v '\[001\]')"
count=$(lp_hist_total "$inst" irq 1)
check "the irq histogram counted every execution ($count >= $timer)" test "$count" -ge "$timer"
check "executions have a positive duration" \
	test -z "$(grep -E "$LP_TIMER_RE" "$inst/trace" | grep ' duration 0 ns')"

lp_interrupt_events "$inst" 0
echo > "$inst/trace"
echo 1 > "$inst/tracing_on"
sleep 1
check "the events disabled keep them out of the buffer" test -z "$(grep _execution: "$inst/trace")"

lp_remove "$inst"
done_testing
