#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency behaves as the other rtla tools on a real run: no mode
# runs top; rtla moves itself off the measured CPUs (-c, -H) while the
# workload keeps its affinity; cyclictest's maxima land on the CPUs its
# threads were pinned to (-a lists that are not 0..N-1); --warm-up; -t
# without -T saves the trace at the end; the interrupt sources are named
# as /proc/interrupts and the x86 vectors name them.

VM_TIMEOUT=900
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
. "$(dirname "$0")/rtla_sched_latency.sh"
lp_require

out=$SL_OUT

# affinity PID - the CPUs a process may run on
affinity() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"
}

# No mode: top.
"$RTLA" sched-latency -q -c 1 -d 2s --svg "$out/top.svg" --json "$out/top.json" \
	> "$out/nomode.txt" 2>&1
ok $? "no mode runs top: exit 0"
check "top's SVG: a linear axis, each bar the sum of its terms (the JSON's)" \
	python3 "$top/tests/svg_check.py" bounds "$out/top.svg" "$out/top.json" 1
check "with top's table and the breakdown" \
	grep -q "Scheduling latency bound: L = " "$out/nomode.txt"

# House-keeping: measuring CPU 1, rtla runs on CPU 0; the workload, which
# prints its own affinity, keeps the one rtla had (every CPU).
"$RTLA" sched-latency top -q -c 1 -d 30s -- \
	sh -c 'grep Cpus_allowed_list /proc/self/status; sleep 6' > "$out/hk.txt" 2>&1 &
pid=$!
sl_wait_instance $pid
got=$(affinity $pid)
diag "rtla -c 1 runs on CPUs $got"
check "-c 1: rtla moves itself to CPU 0" test "$got" = 0
wait $pid
ok $? "and exits 0"
check "the workload keeps every CPU" grep -qE "Cpus_allowed_list:[[:space:]]+0-1$" "$out/hk.txt"

"$RTLA" sched-latency top -q -c 0-1 -H 1 -d 30s -- sleep 4 > /dev/null 2>&1 &
pid=$!
sl_wait_instance $pid
got=$(affinity $pid)
diag "rtla -H 1 runs on CPUs $got"
check "-H 1: rtla runs on CPU 1" test "$got" = 1
wait $pid

# cyclictest pinned with -a 1: its one thread, thread 0, ran on CPU 1.
"$RTLA" sched-latency top -q -d 60s --json "$out/cyc.json" -- \
	cyclictest -q -m -p 95 -t 1 -a 1 -i 1000 -D 3 > "$out/cyc.txt" 2>&1
ok $? "cyclictest -t 1 -a 1 as the workload: exit 0"
maxima=$(sl_json "$out/cyc.json" "sorted(j['workload']['max_latency_us'])")
diag "cyclictest maxima on CPUs $maxima"
check "its maximum belongs to CPU 1, not CPU 0" test "$maxima" = "['1']"
"$RTLA" sched-latency top -q -d 60s --json "$out/cyc2.json" -- \
	cyclictest -q -m -p 95 -t 1 -i 1000 -D 2 > /dev/null 2>&1
check "without -a its thread floats: no CPU gets its maximum" \
	test "$(sl_json "$out/cyc2.json" "sorted(j['workload']['max_latency_us'])")" = "[]"

# --warm-up: the workload runs 3 s before the measurement, which then ends
# with it a second later.
"$RTLA" sched-latency top -q -c 1 -d 60s --warm-up 3 --json "$out/warm.json" -- \
	sleep 4 > "$out/warm.txt" 2>&1
ok $? "--warm-up 3: exit 0"
dur=$(sl_json "$out/warm.json" "j['duration_s']")
diag "measured for $dur s of the workload's 4 s"
check "the measurement started after the warm-up" \
	python3 -c "import sys; sys.exit(not 0.3 < $dur < 2.5)"

# -t without -T: the trace is saved at the end.
rm -f "$out/t.txt"
"$RTLA" sched-latency top -q -c 1 -d 2s -t "$out/t.txt" > "$out/tt.txt" 2>&1
ok $? "-t FILE without -T: exit 0"
check "the trace is saved at the end, with the new maxima" grep -q "new_max: " "$out/t.txt"

# Interrupt sources by name, with their table.
check "the breakdown names the local timer local_timer:236" \
	grep -qE "^  local_timer:236 +[0-9]+ " "$out/nomode.txt"
diag "$(sed -n '/Interrupt sources/,/^$/p' "$out/nomode.txt" | head -8)"
# each characterization without a bound says why, in a line of its own
unbounded=$(grep -cE '^  [a-z_]+ +unbounded ' "$out/nomode.txt")
why=$(grep -cE '^  [a-z_]+ is unbounded: ' "$out/nomode.txt")
diag "$(grep -E '^  [a-z_]+ is unbounded: ' "$out/nomode.txt")"
check "every unbounded characterization of the cpu says why ($unbounded, $why)" \
	test "$unbounded" -eq "$why"

# hist's columns, and the breakdown without its per-cpu part.
"$RTLA" sched-latency hist -c 1 -d 2s --vars poid,irq --no-cpu-breakdown > "$out/cols.txt" 2>&1
ok $? "hist --vars poid,irq --no-cpu-breakdown: exit 0"
check "the columns are POID and IRQ only" \
	grep -qE "^Index +POID-001 +IRQ-001$" "$out/cols.txt"
check "no cpu's breakdown" test -z "$(grep -E '^CPU [0-9]+$' "$out/cols.txt")"
check "the system's bounds are there" grep -q "^System: " "$out/cols.txt"

# --on-threshold and --on-end: a shell command, a trace, on a real stop.
rm -f "$out/crossed" "$out/ended" "$out/ot.txt"
"$RTLA" sched-latency top -q -c 1 -d 60s -T 1 \
	--on-threshold "shell,command=echo crossed > $out/crossed" \
	--on-threshold "trace,file=$out/ot.txt" \
	--on-end "shell,command=touch $out/ended" > "$out/actions.txt" 2>&1
status=$?
check "a stop with actions: exit 2 (got $status)" test $status -eq 2
# rtla's actions split at commas: a command holds none
check "--on-threshold shell ran its command" \
	grep -qx "crossed" "$out/crossed"
check "--on-threshold trace saved the trace, ending with the stop" \
	grep -q "threshold_stop: " "$out/ot.txt"
check "--on-end ran" test -e "$out/ended"
rm -f "$out/crossed" "$out/ended"
"$RTLA" sched-latency top -q -c 1 -d 2s --on-threshold "shell,command=touch $out/crossed" \
	--on-end "shell,command=touch $out/ended" > /dev/null 2>&1
check "no stop: --on-threshold did not run" test ! -e "$out/crossed"
check "but --on-end did" test -e "$out/ended"

# -n: nanoseconds.
"$RTLA" sched-latency hist -n -c 1 -d 2s --vars poid --no-cpu-breakdown > "$out/nano.txt" 2>&1
ok $? "hist -n: exit 0"
check "hist -n says its unit" grep -q "^# Time unit is nanoseconds (ns)" "$out/nano.txt"
check "and the breakdown's" grep -q "^(all times in ns)" "$out/nano.txt"

check "no instance left" sl_no_instance
done_testing
