#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency's exit status is its verdict, on real runs: within
# limits (0), a bound over --max-bound (2), a workload that fails (3), an
# unsound run forced by a one-page trace buffer (4), a stop whose JSON
# cannot be written (still 2), and --json - read by python's json module.

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
