#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency's exit status is its verdict, on real runs: within
# limits (0), a bound over --max-bound (2), a workload that fails (3), an
# unsound run forced by a one-page trace buffer (4), a stop whose JSON
# cannot be written (still 2), and --json - read by python's json module.
# The release gate: a variable over --max-var (2), a run that regressed
# from --baseline (2, naming the variable), and the JSON's kernel and
# tracer on a kernel that has the tracer.

VM_TIMEOUT=900
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
. "$(dirname "$0")/rtla_sched_latency.sh"
lp_require

cpu=1
out=$SL_OUT

# verdict DESCRIPTION STATUS VERDICT FILE ARGS... - rtla exits STATUS and
# its JSON report (FILE) says VERDICT with the same exit status
verdict() {
	local what=$1 want=$2 word=$3 json=$4 status
	shift 4
	# --json before the rest: what follows "--" is the workload's
	sl "$1" --json "$json" "${@:2}" > "$out/verdict.txt" 2>&1
	status=$?
	diag "$(tail -4 "$out/verdict.txt")"
	check "$what: exit $want (got $status)" test "$status" -eq "$want"
	check "$what: the JSON says \"$word\", exit_status $want" \
		test "$(sl_json "$json" "j['verdict'], j['exit_status']")" = "('$word', $want)"
}

# 1000 s: a gate any bound of a TCG guest passes, even one whose host stalls
verdict "within limits" 0 passed "$out/ok.json" top -q -c $cpu -d 3s \
	--model worst_each --max-bound 1000000000
check "the report keeps the gate" \
	test "$(sl_json "$out/ok.json" "j['settings']['max_bound_us'], j['cpus_over_max_bound']")" = "(1000000000, 0)"

# Under TCG every bound is milliseconds: a 1 us gate is exceeded.
verdict "a bound over --max-bound" 2 exceeded "$out/gate.json" top -q -c $cpu -d 3s --max-bound 1
grep -q "^EXCEEDED: the sliding_window bound of 1 cpu(s) is over --max-bound 1 us" "$out/verdict.txt"
ok $? "the text says which limit"
check "the report counts the cpu over the gate" \
	test "$(sl_json "$out/gate.json" "j['cpus_over_max_bound']")" = 1

# --max-var: under TCG every POID is microseconds: a 1 us limit is
# exceeded, the largest limit (4.29 s) is not
verdict "a variable over --max-var" 2 exceeded "$out/var.json" top -q -c $cpu -d 3s \
	--max-var poid=1,irq=4294967
grep -qE "^EXCEEDED: cpu $cpu: poid [0-9.]+ us is over --max-var poid=1 us, by [0-9.]+ us" \
	"$out/verdict.txt"
ok $? "the text names the cpu, the variable and by how much"
check "the report lists it, and only it" \
	test "$(sl_json "$out/var.json" "[(o['cpu'], o['variable']) for o in j['over_max_var']]")" = "[($cpu, 'poid')]"
check "the report keeps the limits" \
	test "$(sl_json "$out/var.json" "j['settings']['max_var_us']")" = "{'poid': 1, 'irq': 4294967}"

# --baseline: the maxima of a TCG guest vary from run to run, by more
# than any tolerance, and a bound may be unbounded in one run and not in
# the next. The baseline is the run of "within limits" with every variable
# a hundred times larger and no bound: a new run is within it ...
python3 - "$out/ok.json" "$out/bl-high.json" "$out/bl-low.json" "$cpu" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for c in j["cpus"].values():
    for v in ("poid_ns", "psd_ns", "dst_ns", "paie_ns"):
        c[v] = 100 * c[v] + 100000
    for v in ("irq", "nmi"):
        c[v]["max_ns"] = 100 * c[v]["max_ns"] + 100000
    c["bound_ns"] = {m: None for m in c["bound_ns"]}
json.dump(j, open(sys.argv[2], "w"))
# ... and regresses from the same baseline where the cpu's PSD was 1 ns
j["cpus"][sys.argv[4]]["psd_ns"] = 1
json.dump(j, open(sys.argv[3], "w"))
PY
verdict "a run within --baseline" 0 passed "$out/bl-ok.json" top -q -c $cpu -d 3s \
	--baseline "$out/bl-high.json"
grep -q "^Within the baseline: 0 of 12 values above --baseline $out/bl-high.json by more than 10% and 1000 ns" \
	"$out/verdict.txt"
ok $? "the text says the run is within the baseline"
verdict "a run that regressed from --baseline" 2 exceeded "$out/bl-reg.json" top -q -c $cpu -d 3s \
	--baseline "$out/bl-low.json"
grep -qE "^REGRESSED: cpu $cpu: psd [0-9.]+ us, was 0.01 us: \+[0-9.]+ us \(\+[0-9.]+%\)$" \
	"$out/verdict.txt"
ok $? "the text names the cpu, the variable, and by how much it regressed"
grep -q "^REGRESSED: 1 of 12 values above --baseline $out/bl-low.json by more than 10% and 1000 ns" \
	"$out/verdict.txt"
ok $? "the text sums it up, with the tolerance"
check "the report names the regression" \
	test "$(sl_json "$out/bl-reg.json" "[(r['cpu'], r['variable'], r['baseline_ns']) for r in j['baseline']['regressions']]")" = "[($cpu, 'psd', 1)]"
check "the JSON with a baseline has every documented key" sl_json_keys "$out/bl-reg.json"

# The kernel and the tracer, on this kernel (PREEMPT_RT, the tracer built
# in): the tracer's ABI 1, the instance's clock, the config bits read
# from /proc/config.gz or /boot when the kernel has one
check "the JSON: the tracer is there, ABI 1, its files and clock" \
	test "$(sl_json "$out/ok.json" "(j['tracer']['available'], j['tracer']['abi'], 'max' in j['tracer']['files'], j['tracer']['trace_clock'])")" = "(True, 1, True, 'local')"
check "the JSON: realtime, as /sys/kernel/realtime or uname -v say" \
	test "$(sl_json "$out/ok.json" "j['kernel']['realtime']")" = True
if [ -r /proc/config.gz ] || [ -r "/boot/config-$(uname -r)" ]; then
	check "the JSON: the config bits, PREEMPT_RT and the tracer" \
		test "$(sl_json "$out/ok.json" "(j['kernel']['config']['CONFIG_PREEMPT_RT'], j['kernel']['config']['CONFIG_LATENCY_PARSER_TRACER'])")" = "('y', 'y')"
else
	check "the JSON: no config readable, config null" \
		test "$(sl_json "$out/ok.json" "(j['kernel']['config_from'], j['kernel']['config'])")" = "(None, None)"
fi
diag "kernel: $(sl_json "$out/ok.json" "j['kernel']")"
if [ -r /sys/kernel/debug/sched/preempt ]; then
	want=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt)
	check "the JSON: the preemption model debugfs marks ($want)" \
		test "$(sl_json "$out/ok.json" "(j['kernel']['preemption'], j['kernel']['preemption_from'])")" = "('$want', 'debugfs')"
else
	skip "the JSON: the preemption model debugfs marks" "no debugfs sched/preempt"
fi
check "the JSON with the kernel and tracer has every documented key" sl_json_keys "$out/ok.json"

verdict "a workload that fails" 3 workload_failed "$out/wl.json" \
	top -q -c $cpu -d 60s -- sh -c 'sleep 1; exit 7'
grep -q "^WORKLOAD FAILED: it ended by itself with status 7" "$out/verdict.txt"
ok $? "the text says the workload failed, with its status"
check "the run ended with the workload" \
	test "$(sl_json "$out/wl.json" "int(j['duration_s'])")" -lt 30

# One page per CPU against a 20 kHz timer and context switches: the
# execution events overrun it between two reads.
verdict "events lost" 4 unsound "$out/lost.json" top -q -c $cpu -d 4s --trace-buffer-size 1 \
	-- stress-ng --taskset $cpu --timer 1 --timer-freq 20000 --switch 1 --timeout 3s \
	--temp-path /tmp -q
check "the report says how many were lost" \
	test "$(sl_json "$out/lost.json" "j['lost_events'] > 0 and not j['sound']")" = True
grep -q "^UNSOUND: the bound is not sound" "$out/verdict.txt"
ok $? "the text says the bound is not sound"

# A stop (2) whose JSON then fails to be written (a full file system)
# keeps its verdict: an output error never hides one.
mkdir -p "$out/full"
mount -t tmpfs -o size=64k tmpfs "$out/full"
touch "$out/full/stop.json"
dd if=/dev/zero of="$out/full/filler" bs=4k count=64 2>/dev/null
sl top -q -c $cpu -d 60s -T 1 --json "$out/full/stop.json" > "$out/verdict.txt" 2>&1
status=$?
diag "$(grep -E 'cannot write|threshold' "$out/verdict.txt" | head -3)"
check "a stop with an unwritable JSON: exit 2 (got $status)" test "$status" -eq 2
grep -q "cannot write $out/full/stop.json" "$out/verdict.txt"
ok $? "and the write error is told"
umount "$out/full"

# --json -: the document alone on standard output, the text on stderr.
sl top -q -c $cpu -d 2s --json - 2> "$out/stderr.txt" |
	python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["verdict"], j["uname"]["release"])' \
	> "$out/stdout.txt"
ok $? "--json - piped into python's json module"
diag "$(cat "$out/stdout.txt")"
check "it holds the verdict and the kernel release" \
	test "$(cat "$out/stdout.txt")" = "passed $(uname -r)"
check "the text report went to standard error" grep -q "Scheduling latency bound" "$out/stderr.txt"

check "no instance left" sl_no_instance
done_testing
