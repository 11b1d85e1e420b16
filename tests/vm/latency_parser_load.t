#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Under a load where IRQs keep landing inside the tracer's own probes (a
# fast timer beside context switches and pipes on one CPU), the parser's
# clock reads stay in order: no value wraps, every IRQ is timed, and the
# counts still add up.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

# A wrapped window (an end read before its start) is near 2^64 ns; nothing
# real lasts a second here, even under TCG.
sane_ns=1000000000

a=$(lp_instance lp_load)
echo 1 > "$a/latency_parser/cpus"
stress-ng --taskset 1 --timer 1 --timer-freq 20000 --switch 1 --pipe 1 \
	--timeout 5s --temp-path /tmp -q
echo 0 > "$a/tracing_on"

windows=$(lp_max "$a" 1 windows)
dropped=$(lp_max "$a" 1 dropped)
diag "CPU 1: $windows windows, $dropped dropped; max $(grep '^1 ' "$a/latency_parser/max")"
check "the load was parsed ($windows windows)" test "$windows" -gt 10000
# One window is dropped when parsing starts; a clock out of order would be
# caught as events that make no sense.
check "few windows dropped ($dropped of $windows)" test "$dropped" -lt $((windows / 1000 + 2))

irqs=$(lp_hist_total "$a" irq 1)
check "IRQs were timed ($irqs)" test "$irqs" -gt 1000

for var in poid psd dst paie irq; do
	max=$(lp_max "$a" 1 "$var")
	check "max $var ($max ns) did not wrap" test "$max" -lt "$sane_ns"
done
check "max poid is positive" test "$(lp_max "$a" 1 poid)" -gt 0
check "max irq is positive" test "$(lp_max "$a" 1 irq)" -gt 0

sum=0
for var in poid psd dst paie; do
	sum=$((sum + $(lp_hist_total "$a" "$var" 1)))
done
check "histogram counts add up to the window counter ($sum = $windows)" \
	test "$sum" = "$windows"

lp_remove "$a"
dmesg_clean
done_testing
