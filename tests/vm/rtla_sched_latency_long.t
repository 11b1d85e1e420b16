#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency over a minute: hist, and top with cyclictest as the
# workload, the paper's experiment in one command: the bound of each CPU
# beside the latency cyclictest measured there.

VM_TIMEOUT=900
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
. "$(dirname "$0")/rtla_sched_latency.sh"
lp_require

out=$SL_OUT

sl hist -d 60s -b 100 -E 1000 --json "$out/hist.json" > "$out/hist.txt" 2>&1
status=$?
diag "$(grep -v '^[0-9]' "$out/hist.txt")"
ok $status "hist -d 60s: exit 0"
check "hist printed a column per variable and CPU" \
	grep -qE "^Index +POID-000 +PSD-000 +DST-000 +PAIE-000 +IRQ-000 +NMI-000 +POID-001" "$out/hist.txt"
check "hist printed the summary" grep -qE "^count: +[0-9]+" "$out/hist.txt"
check "hist printed the breakdown" grep -q "^System: the worst cpu" "$out/hist.txt"
check "hist counted windows on both CPUs" \
	test "$(sl_json "$out/hist.json" "min(c['poid_ns'] for c in j['cpus'].values()) > 0")" = True
check "hist's JSON has every documented key" sl_json_keys "$out/hist.json"
check "hist ran for about a minute" \
	test "$(sl_json "$out/hist.json" "int(j['duration_s'])")" -ge 59

"$RTLA" sched-latency top -d 60s -q --json "$out/top.json" --svg "$out/top.svg" \
	-- cyclictest -q -m -p95 -t -a -i1000 -D 55 > "$out/top.txt" 2>&1 &
pid=$!
# rtla streams the interrupts into the engine: its memory stays flat.
# Sampled every 5 s from 10 s in until it ends, not at two fixed times: a
# slow guest (KASAN on a busy host) reached the second fixed sample after
# rtla had ended, and an empty sample is not a measure.
sl_wait_instance $pid
sleep 10
rss_early= rss_late= t_early= t_late=
while kill -0 $pid 2>/dev/null; do
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$pid/status 2>/dev/null)
	now=$(cut -d. -f1 /proc/uptime)
	if [ -n "$rss" ]; then
		[ -n "$rss_early" ] || { rss_early=$rss; t_early=$now; }
		rss_late=$rss t_late=$now
	fi
	sleep 5
done
wait $pid
status=$?
diag "$(cat "$out/top.txt")"
ok $status "top -d 60s -- cyclictest: exit 0"
check "cyclictest's output is passed through" grep -qE "^T: +0 .*Max: +[0-9]+" "$out/top.txt"
for cpu in 0 1; do
	lat=$(sl_json "$out/top.json" "j['workload']['max_latency_us']['$cpu']")
	bound=$(sl_json "$out/top.json" "j['cpus']['$cpu']['bound_ns']['sliding_window']")
	diag "CPU $cpu: cyclictest max $lat us, sliding_window bound $bound ns"
	check "CPU $cpu: cyclictest's max latency is in the JSON" test -n "$lat"
	check "CPU $cpu: both numbers are shown side by side" \
		grep -q "workload max latency: $lat us (sliding_window" "$out/top.txt"
done
diag "rtla's RSS: $rss_early kB at ${t_early:-?} s, $rss_late kB at ${t_late:-?} s of uptime"
check "rtla's RSS was sampled over at least 20 s" \
	test "$((${t_late:-0} - ${t_early:-0}))" -ge 20
check "rtla's memory did not grow (less than 1 MB)" \
	test "$((${rss_late:-999999} - ${rss_early:-0}))" -lt 1024
check "cyclictest ended the run" \
	test "$(sl_json "$out/top.json" "j['workload']['exit_status']")" = 0
check "top's JSON has every documented key" sl_json_keys "$out/top.json"
check "the SVG has the workload's bars" grep -q "workload max latency" "$out/top.svg"
check "no instance left" sl_no_instance

rm -rf "$out"
done_testing
