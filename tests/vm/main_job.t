#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# main_job.t - what `make run` prints: scripts/measure.sh, the README's main
# job, run as make run runs it (one vCPU on qemu's instruction counter), for
# a short duration. It must measure with rtla sched-latency and print the
# breakdown of the bound: the variables, the six characterizations (each a
# number or "unbounded"), the interrupt sources, and cyclictest's maximum
# beside the bound; its exit status is rtla's verdict. The text is checked
# against rtla's JSON report of the same run and cyclictest's maximum
# against cyclictest's own summary line, not against rtla's reading of it.
#
# Before that, the script must refuse, with exit 1 and a reason, an rtla
# without sched-latency (one that prints its list of commands and exits
# 129 for "sched-latency --help", as 7.3's rtla does): measuring something
# else instead is how make run once printed timerlat's table for 99 s.
#
# LP_MAIN_SCRIPT=FILE runs another copy of the script (to show the test's teeth on
# an old one); LP_MAIN_SECONDS sets the measurement's length (default 5).

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_CPUS=${VM_CPUS-1}
VM_TIMEOUT=${VM_TIMEOUT:-600}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rtla_sched_latency.sh"

measure=${LP_MAIN_SCRIPT:-$top/scripts/measure.sh}
secs=${LP_MAIN_SECONDS:-5}
out=$SL_OUT
models="no_interrupts worst_single worst_each sporadic sliding_window sliding_window_owcet"

# --- an rtla without sched-latency is an error, not a fallback ---

# A stand-in for 7.3's own rtla: its list of commands and 129 for
# anything it does not know; timerlat "runs" and leaves a mark.
cat > "$out/old-rtla" << EOF
#!/bin/sh
case "\$1" in
timerlat|osnoise) touch "$out/old-rtla-ran"; exit 0 ;;
esac
echo "  usage: rtla COMMAND ..." >&2
echo "     timerlat - measures the timer irq and thread latency" >&2
exit 129
EOF
chmod +x "$out/old-rtla"
RTLA=$out/old-rtla MEASURE_SECONDS=1 bash "$measure" > "$out/old.txt" 2>&1
status=$?
diag "$(cat "$out/old.txt")"
check "an rtla without sched-latency: exit 1 (got $status)" test "$status" -eq 1
check "and the reason, naming the missing command" \
	grep -q "has no sched-latency command" "$out/old.txt"
check "and nothing else measured in its place" test ! -e "$out/old-rtla-ran"

MEASURE_SECONDS=5s bash "$measure" > "$out/bad.txt" 2>&1
status=$?
check "MEASURE_SECONDS=5s: exit 1 with the reason (got $status)" \
	eval '[ $status -eq 1 ] && grep -q "MEASURE_SECONDS must be" "$out/bad.txt"'

# --- the main job ---

start=$SECONDS
MEASURE_SECONDS=$secs MEASURE_JSON=$out/main.json bash "$measure" > "$out/main.txt" 2>&1
status=$?
diag "$(cat "$out/main.txt")"
diag "measure.sh: exit $status after $((SECONDS - start)) s"
text=$out/main.txt
json=$out/main.json

check "it measured with rtla sched-latency: the JSON report is there" \
	test -s "$json"
check "no other tool's table (timerlat's) in its place" \
	eval '! grep -qiE "timerlat|timer latency" "$text"'
check "the model's formula heads the breakdown" \
	grep -qF "L = max(D_ST, D_POID) + D_PAIE + D_PSD + I_NMI(L) + I_IRQ(L)" "$text"
check "CPU 0's variables: D_POID, D_PSD, D_ST, D_PAIE, L_IF" \
	grep -qE '^  D_POID [0-9.]+  D_PSD [0-9.]+  D_ST [0-9.]+  D_PAIE [0-9.]+  L_IF [0-9.]+$' "$text"
check "CPU 0's interrupt executions" \
	grep -qE '^  IRQ: [0-9]+ executions, worst [0-9.]+  NMI: [0-9]+ executions' "$text"

# model_rows MODEL - the bound column of MODEL's rows, the CPU's then the
# system's (whose rows have a cpu column before the bound)
model_rows() {
	awk -v m="$1" '
		/^System:/ { sys = 1 }
		$1 == m { print (sys ? $3 : $2) }' "$text"
}

# json_bound cpu|system MODEL - a bound of the JSON as the text prints it:
# us with two decimals, rounded up (a bound is never shown below what it
# is), or unbounded
json_bound() {
	sl_json "$json" "(lambda b: 'unbounded' if b is None else '%.2f' % (((b + 9) // 10) / 100.0))(j['$1']['bound_ns']['$2'] if '$1' == 'system' else j['cpus']['0']['bound_ns']['$2'])"
}

for m in $models; do
	rows=$(model_rows "$m")
	check "$m: a row for CPU 0 and one for the system, each a number or unbounded ($(echo $rows))" \
		eval '[ "$(grep -cE "^([0-9]+\.[0-9]+|unbounded)$" <<< "$rows")" -eq 2 ]'
	want=$(json_bound cpu "$m" 2> /dev/null)
	check "$m: CPU 0's bound is the JSON's (${want:-no JSON})" \
		test -n "$want" -a "$(head -1 <<< "$rows")" = "$want"
	want=$(json_bound system "$m" 2> /dev/null)
	check "$m: the system's bound is the JSON's (${want:-no JSON})" \
		test -n "$want" -a "$(tail -1 <<< "$rows")" = "$want"
done

check "the interrupt-source table, with its columns" \
	grep -qE '^  source +count +worst +min gap +share$' "$text"
timer=$(awk '$1 ~ /^local_timer/ { print $2 }' "$text" | head -1)
check "the local timer among the sources, ${timer:-0} times" \
	test "${timer:-0}" -gt 0

# cyclictest's own summary: "T: 0 (  123) P:95 I:1000 C: 4999 Min: ... Max: 20"
cyc_max=$(sed -nE 's/^T: *0 .* Max: *([0-9]+) *$/\1/p' "$text" | head -1)
beside=$(sed -nE 's/^  workload max latency: ([0-9]+) us .*/\1/p' "$text" | head -1)
check "cyclictest's summary line is printed (Max ${cyc_max:-none})" test -n "$cyc_max"
check "cyclictest's maximum beside the bound ($beside us, cyclictest says ${cyc_max:-none})" \
	test -n "$beside" -a "$beside" = "$cyc_max"

# The verdict: the exit status is the JSON's, and the text says the same.
verdict=$(sl_json "$json" "j['exit_status']" 2> /dev/null)
check "the exit status is the verdict's ($status; the JSON says ${verdict:-none})" \
	test "$status" = "$verdict"
case $status in
0) check "exit 0: the text says the measurement is complete and sound" \
	eval 'grep -q "^The measurement is complete" "$text" && ! grep -qE "^(UNSOUND|EXCEEDED|WORKLOAD FAILED):" "$text"' ;;
2) check "exit 2: the text says which limit" grep -q "^EXCEEDED:" "$text" ;;
3) check "exit 3: the text says the workload failed" grep -q "^WORKLOAD FAILED:" "$text" ;;
4) check "exit 4: the text says the bound is not sound" grep -q "^UNSOUND:" "$text" ;;
*) ok 1 "exit $status is not a verdict of a measurement" ;;
esac
check "the JSON has every documented key" sl_json_keys "$json"
check "the session lasted the duration asked ($secs s)" \
	test "$(sl_json "$json" "int(round(j['duration_s']))")" -ge "$secs"
check "no instance left behind" sl_no_instance

done_testing
