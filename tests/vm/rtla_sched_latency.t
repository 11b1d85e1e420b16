#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency against the kernel's oracle, preemptirq_delay_test:
# an injected window shows as D_POID on its CPU and raises the bound; a
# threshold stops on it, with its stack; plus the JSON and SVG outputs,
# the errors, the cleanup on signals and two runs at once.
#
# Under TCG the noise floor of windows is 10-15 ms, so the injected
# windows are 20 ms and more (see latency_parser_oracle.t).

VM_TIMEOUT=900
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
. "$(dirname "$0")/rtla_sched_latency.sh"
lp_require

cpu=1
out=$SL_OUT

# stack_has FILE WORD - the stack rtla printed for its stop names WORD
stack_has() {
	sed -n '/stack trace of the window/,$p' "$1" | grep -q "$2"
}

# trace_has_window FILE NS - a poid max or stop event of NS ns or more,
# followed by a stack trace through preemptirq_delay_test
trace_has_window() {
	awk -v min="$2" '
		/ (new_max|threshold_stop): poid / {
			for (i = 1; i < NF; i++)
				if ($i == "poid") v = $(i + 1)
			left = v >= min ? 15 : 0
			next
		}
		left && /preemptirq/ { found = 1 }
		left { left-- }
		END { exit !found }' "$1"
}

# --- Errors: one line, exit 1 (usage errors: 129), nothing left behind ---

# err_check DESCRIPTION REGEX ARGS... - rtla fails with REGEX, exit 1
err_check() {
	local what=$1 regex=$2 text status
	shift 2
	text=$(sl "$@" 2>&1)
	status=$?
	diag "$text"
	[ $status -eq 1 ] && grep -qE -- "$regex" <<< "$text"
	ok $? "$what: exit 1 and the error"
}

# usage_check DESCRIPTION REGEX ARGS... - a usage error, as in every rtla
# tool: exit 129, the error, then the usage
usage_check() {
	local what=$1 regex=$2 text status
	shift 2
	text=$(sl "$@" 2>&1)
	status=$?
	diag "$text"
	[ $status -eq 129 ] && grep -qE -- "$regex" <<< "$text"
	ok $? "$what: exit 129 and the error"
}

usage_check "a cpu out of range" "--cpus: '2' is not a valid cpu set" top -c 2 -d 1s
err_check "a negative duration" "invalid -d duration" top -d -5
usage_check "a malformed duration" "--duration: 'abc' is not a valid duration" hist -d abc
usage_check "an unknown --stop-on variable" "--stop-on: 'foo' is not a variable" \
	top -T 10 --stop-on foo
err_check "an unwritable --json path (read-only file system)" \
	"cannot write the --json file /usr/sched_latency.json" top -d 1s --json /usr/sched_latency.json
err_check "a --json path in no directory" "cannot write the --json file" \
	top -d 1s --json /nonexistent/x.json
err_check "a workload that cannot run" "cannot run the workload /nonexistent/cmd" \
	top -d 5s -- /nonexistent/cmd

text=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$RTLA" sched-latency top -d 1s 2>&1)
status=$?
diag "$text"
[ $status -eq 1 ] && grep -q "needs root permission" <<< "$text"
ok $? "not root: exit 1 and the error"

text=$(unshare -m sh -c 'umount -l /sys/kernel/tracing; umount -R -l /sys/kernel/debug 2>/dev/null
	exec "$0" sched-latency top -d 1s' "$RTLA" 2>&1)
status=$?
diag "$text"
[ $status -eq 1 ] && grep -q "tracefs is not mounted" <<< "$text"
ok $? "tracefs not mounted: exit 1 and the error"
check "no instance left by the errors" sl_no_instance

# --- An irq-off window, injected by the workload itself ---

n=20000
sl top -q -c $cpu -d 120s --json "$out/irq.json" --svg "$out/irq.svg" \
	-- sh -c "sleep 2; $(sl_delay_cmd irq $n $cpu); sleep 1" > "$out/irq.txt" 2>&1
status=$?
diag "$(cat "$out/irq.txt")"
ok $status "top with the irq-off window as the workload: exit 0"
poid=$(sl_json "$out/irq.json" "j['cpus']['$cpu']['poid_ns']")
bound=$(sl_json "$out/irq.json" "j['cpus']['$cpu']['bound_ns']['sliding_window']")
diag "CPU $cpu: D_POID $poid ns, sliding_window bound $bound ns"
check "D_POID >= ${n} us on CPU $cpu" sl_ge "$poid" $((n * 1000))
check "the bound >= ${n} us on CPU $cpu" sl_ge "$bound" $((n * 1000))
check "and the system's bound too" \
	sl_ge "$(sl_json "$out/irq.json" "j['system']['bound_ns']['sliding_window']")" $((n * 1000))
check "the workload's end ended the run (well before -d)" \
	test "$(sl_json "$out/irq.json" "int(j['duration_s'])")" -lt 60
check "the workload's exit status is 0" \
	test "$(sl_json "$out/irq.json" "j['workload']['exit_status']")" = 0
check "-c $cpu: only CPU $cpu in the JSON" \
	test "$(sl_json "$out/irq.json" "sorted(j['cpus'])")" = "['$cpu']"
check "the text names the CPU and the variables" \
	grep -qE "^CPU $cpu$" "$out/irq.txt"
check "the breakdown has the six characterizations" \
	test "$(grep -cE '^  (no_interrupts|worst_single|worst_each|sporadic|sliding_window|sliding_window_owcet) ' "$out/irq.txt")" -ge 12
# The injected window dominates unless the noise beat it (on a debug
# kernel a 80 ms D_PSD happens): the row names the largest variable of
# CPU $cpu's, as the JSON has them (no_interrupts has no IRQ term)
largest=$(sl_json "$out/irq.json" "max((j['cpus']['$cpu'][k + '_ns'], v) for k, v in (('poid', 'D_POID'), ('dst', 'D_ST'), ('paie', 'D_PAIE'), ('psd', 'D_PSD')))[1]")
diag "the largest variable of CPU $cpu: $largest"
check "the breakdown names what dominates ($largest)" \
	grep -qE "^  no_interrupts .*  $largest \(" "$out/irq.txt"
check "the JSON is valid" sl_json_valid "$out/irq.json"
check "the JSON has every documented key" sl_json_keys "$out/irq.json"
# The sources as the kernel names them: x86's local timer by its vector,
# arm64's by its IRQ's handler (no x86 name there), and no name with the
# columns of /proc/interrupts in it ("Level     arch_timer" was one)
lp_local_timer
case $LP_TIMER_EVENT in
irq_execution)	timer_name="arch_timer:$LP_TIMER_ID" ;;
*)		timer_name="local_timer:$LP_TIMER_ID" ;;
esac
sources=$(sl_json "$out/irq.json" "' '.join(repr(s['source']) for s in j['cpus']['$cpu']['sources'])")
diag "the sources of CPU $cpu: $sources"
check "the local timer is a source named $timer_name" \
	grep -qF "'$timer_name'" <<< "$sources"
check "no source name has a blank in it" \
	test -z "$(sl_json "$out/irq.json" "[s for s in j['cpus']['$cpu']['sources'] if ' ' in s['source']]" | tr -d '[]')"
if [ "$LP_TIMER_EVENT" = irq_execution ]; then
	check "no x86 vector among the sources" \
		test -z "$(grep -oE "'(vector|local_timer|reschedule|call_function)[a-z_]*:[0-9]+'" <<< "$sources")"
fi
# The chart: XML, its text inside, each bar a stack of the JSON's terms
check "the SVG's bars stack the JSON's terms, its text inside the canvas" \
	python3 "$top/tests/svg_check.py" bounds "$out/irq.svg" "$out/irq.json" 1
check "the SVG's D_POID segments are the injected window" python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
segs = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
        if r.get("data-term") == "D_POID" and r.get("data-cpu") == sys.argv[2]]
sys.exit(0 if len(segs) == 6 and all(int(r.get("data-ns")) >= int(sys.argv[3])
         for r in segs) else 1)' "$out/irq.svg" $cpu $((n * 1000))

# --- A preempt-off window beside the run, seen by hist ---

# The run stays open until the window is done (modprobe waits for it),
# then SIGINT ends it: on a slow kernel a -d could end before the window.
n=40000
"$RTLA" sched-latency hist -c $cpu -d 600s -b 1000 -E 100 --json "$out/preempt.json" \
	--svg "$out/preempt.svg" > "$out/preempt.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
sleep 2
eval "$(sl_delay_cmd preempt $n $cpu)"
sleep 1
kill -INT $pid
wait $pid
status=$?
diag "$(grep -v '^[0-9]' "$out/preempt.txt")"
ok $status "hist beside a preempt-off window, stopped by SIGINT: exit 0"
poid=$(sl_json "$out/preempt.json" "j['cpus']['$cpu']['poid_ns']")
bound=$(sl_json "$out/preempt.json" "j['cpus']['$cpu']['bound_ns']['sliding_window']")
# IRQs and NMIs run in a preempt-off window and are discounted from D_POID;
# all of the CPU's interrupt time in the run is more than the window's.
# (latency_parser_exact.t measures such windows to within 5 us.)
irq=$(sl_json "$out/preempt.json" "sum(s['total_ns'] for s in j['cpus']['$cpu']['sources'])")
diag "CPU $cpu: D_POID $poid ns, interrupt time $irq ns, sliding_window bound $bound ns"
check "D_POID + interrupt time >= ${n} us on CPU $cpu" sl_ge $((poid + irq)) $((n * 1000))
check "the bound >= ${n} us on CPU $cpu" sl_ge "$bound" $((n * 1000))
check "hist has the CPU's POID column" grep -qE "^Index +POID-00$cpu +PSD-00$cpu" "$out/preempt.txt"
# -b 1000 -E 100: 1 ms buckets up to 100 ms, then the over row
check "the largest window is in D_POID's bucket, and none above it" awk \
	-v col="POID-00$cpu" -v want=$((poid / 1000000 * 1000)) '
	/^Index/ { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	!c || $c == 0 { next }
	$1 ~ /^[0-9]+$/ && $1 == want { found = 1 }
	$1 ~ /^[0-9]+$/ && $1 > want { above = 1 }
	$1 == "over:" { found = want >= 100000; above = want < 100000 }
	END { exit !(found && !above) }' "$out/preempt.txt"
check "hist has the summary rows" grep -qE "^(count|min|avg|max): " "$out/preempt.txt"
check "hist's SVG: a panel per variable, a strip for CPU $cpu, its text inside" \
	python3 "$top/tests/svg_check.py" hist "$out/preempt.svg" 1
check "hist's SVG marks D_POID's maximum, the JSON's, in a 100 ms panel" python3 -c '
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
poid = json.load(open(sys.argv[2]))["cpus"][sys.argv[3]]["poid_ns"]
strips = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
          if g.get("data-role") == "strip" and g.get("data-var") == "poid"]
marks = [int(ln.get("data-max-ns")) for ln in strips[0].iter("{http://www.w3.org/2000/svg}line")
         if ln.get("data-max-ns")]
bars = [e for e in strips[0].iter() if e.get("data-count")]
sys.exit(0 if marks == [poid] and bars else 1)' "$out/preempt.svg" "$out/preempt.json" $cpu
check "the JSON has every documented key" sl_json_keys "$out/preempt.json"

# --- -T with --stop-on poid: the injected window stops the run ---

n=60000
threshold=40000
# The module stays loaded until rtla is done: its symbols name the stack.
"$RTLA" sched-latency top -q -c $cpu -d 40s -T $threshold --stop-on poid -t="$out/trace.txt" \
	--json "$out/stop.json" > "$out/stop.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
sleep 2
modprobe preemptirq_delay_test test_mode=irq delay=$n cpu_affinity=$cpu
wait $pid
status=$?
rmmod preemptirq_delay_test
diag "$(cat "$out/stop.txt")"
check "--stop-on poid: exit status 2" test $status -eq 2
check "it says where it stopped" grep -q "CPU $cpu: D_POID window of" "$out/stop.txt"
check "it prints the stack of the window, the oracle's" stack_has "$out/stop.txt" preemptirq
diag "$(grep -A10 -E '(new_max|threshold_stop): poid [0-9]{8,} ns' "$out/trace.txt" 2>&1 | head -24)"
check "the saved trace holds the window and its stack, the oracle's" \
	trace_has_window "$out/trace.txt" $((n * 1000))
check "the JSON's stop: cpu, variable" \
	test "$(sl_json "$out/stop.json" "(j['stop']['cpu'], j['stop']['variable'])")" = "($cpu, 'poid')"
check "the JSON's stop: value >= ${n} us" \
	sl_ge "$(sl_json "$out/stop.json" "j['stop']['value_ns']")" $((n * 1000))
check "the JSON has every documented key" sl_json_keys "$out/stop.json"

# --- -T alone: the kernel stops on any variable ---

"$RTLA" sched-latency hist -q -c $cpu -d 40s -T $threshold --json "$out/kstop.json" > "$out/kstop.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
sleep 2
modprobe preemptirq_delay_test test_mode=irq delay=$n cpu_affinity=$cpu
wait $pid
status=$?
rmmod preemptirq_delay_test
diag "$(cat "$out/kstop.txt")"
check "-T alone: exit status 2" test $status -eq 2
check "the kernel's stop names poid on CPU $cpu" \
	test "$(sl_json "$out/kstop.json" "(j['stop']['cpu'], j['stop']['variable'])")" = "($cpu, 'poid')"
check "with the stack of the window" stack_has "$out/kstop.txt" preemptirq

# --- --stop-on bound ---

sl top -q -d 60s -T 1 --stop-on bound --json "$out/bound.json" > "$out/bound.txt" 2>&1
status=$?
diag "$(head -5 "$out/bound.txt")"
check "--stop-on bound: exit status 2" test $status -eq 2
check "the JSON's stop is the bound" \
	test "$(sl_json "$out/bound.json" "j['stop']['variable']")" = bound

# --- Signals: nothing is left behind ---

"$RTLA" sched-latency top -d 120s > "$out/int.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
sleep 3
kill -INT $pid
wait $pid
status=$?
check "SIGINT: exit 0" test $status -eq 0
check "SIGINT: the final breakdown is printed" grep -q "^System: " "$out/int.txt"
check "SIGINT: no sched_latency_* instance left" sl_no_instance

"$RTLA" sched-latency top -q -d 120s --json "$out/term.json" -- sleep 1000 > "$out/term.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
sleep 3
kill -TERM $pid
wait $pid
status=$?
check "SIGTERM: exit 0" test $status -eq 0
check "SIGTERM: no sched_latency_* instance left" sl_no_instance
check "SIGTERM: the workload was stopped" test -z "$(pgrep -f 'sleep 1000')"
check "SIGTERM: the workload's status is SIGTERM's" \
	test "$(sl_json "$out/term.json" "j['workload']['exit_status']")" = 143

# --- Two runs at once ---

# Stopped by SIGINT once both measure, not by a duration: on a debug
# kernel the second rtla can take longer to start than the first's run.
"$RTLA" sched-latency top -q -d 10m --json "$out/one.json" > "$out/one.txt" 2>&1 &
one=$!
"$RTLA" sched-latency hist -q -d 10m --json "$out/two.json" > "$out/two.txt" 2>&1 &
two=$!
sl_wait_instance $one
sl_wait_instance $two
both=$(sl_instances | wc -l)
sleep 2
kill -INT $one $two
wait $one
status_one=$?
wait $two
status_two=$?
diag "instances during the runs: $both"
check "two runs: two instances at once" test "$both" -eq 2
check "two runs: the first succeeds" test $status_one -eq 0
check "two runs: the second succeeds" test $status_two -eq 0
check "two runs: both JSON are valid" sl_json_keys "$out/one.json"
check "two runs: both JSON are valid (2)" sl_json_keys "$out/two.json"
check "two runs: no instance left" sl_no_instance

rm -rf "$out"
done_testing
