#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The latency_parser tracer under stress, for the debug kernel of make
# test-debug (lockdep, RCU lockdep, sleeping in atomic context, preempt
# count, KASAN, debug objects, list debugging), which turns a misuse of a
# context, a lock or memory into a report in dmesg. For 150 s one instance
# traces both CPUs, with its execution events and stack traces, while:
# - stress-ng switches contexts, fires a 10 kHz timer and burns a CPU, and
#   cyclictest runs at FIFO 95 on each CPU;
# - CPU 1 goes offline and comes back every few seconds;
# - 100 other instances are made and removed, five at a time: most select
#   latency_parser (with random settings, events and thresholds; some are
#   removed while it runs), the others stay nop;
# - every file of the tracing instance's latency_parser/ and hist/ takes
#   random input (tests/debug/fuzz.py: random bytes, huge and negative
#   numbers, empty writes, cpu lists, at random offsets) and is read in
#   random pieces, its tracing and events go off and on and its tracer
#   away and back, and random thresholds (stop_tracing_us) stop it;
# - its trace and trace_pipe are read, and the top level records the
#   new_max and threshold_stop events of every instance.
# Then the instance must still answer, thresholds must have stopped it, and
# dmesg must hold no report (done_testing's dmesg_clean).
#
# On the production kernel it runs as well, and checks the same.

export VM_CPUS=${VM_CPUS-2}
# Room for the whole log of the run: a report must not scroll away.
export VM_APPEND=${VM_APPEND-log_buf_len=8M}
VM_TIMEOUT=${VM_TIMEOUT:-1200}
. "$(dirname "$0")/../vm/lib.sh"
. "$top/tests/vm/lp.sh"
lp_require

secs=${1:-150}		# of stress; an argument sets it (a quick try)
cpu1=/sys/devices/system/cpu/cpu1/online
work=$(mktemp -d /tmp/stress.XXXXXX)
inst=
jobs_started=

# cleanup - stop what still runs, CPU 1 back, no instance left behind
cleanup() {
	local pid

	for pid in $jobs_started; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	[ -w "$cpu1" ] && echo 1 > "$cpu1" 2>/dev/null
	for dir in "$TRACEFS"/instances/churn*; do
		[ -d "$dir" ] && lp_remove "$dir" 2>/dev/null
	done
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		lp_remove "$inst"
	fi
	inst=
	echo 0 > "$TRACEFS/events/latency_parser/enable"
	rm -rf "$work"
}
trap cleanup EXIT

# hotplug - CPU 1 offline and back, every few seconds for SECS; the counts
# in $work/hotplug
hotplug() {
	local end=$((SECONDS + $1)) cycles=0 failed=0

	while [ $SECONDS -lt $end ]; do
		sleep 1
		if echo 0 > "$cpu1"; then
			sleep 1
			until echo 1 > "$cpu1"; do
				failed=$((failed + 1))
				sleep 1
			done
			cycles=$((cycles + 1))
		else
			failed=$((failed + 1))
		fi
	done
	echo "$cycles $failed $(($1 + SECONDS - end))" > "$work/hotplug"
}

# churn_one N - make instance churnN: one in five stays nop, the others
# select latency_parser with random settings
churn_one() {
	local dir=$TRACEFS/instances/churn$1

	mkdir "$dir" || return 1
	[ $(($1 % 5)) -eq 0 ] && return 0
	echo latency_parser > "$dir/current_tracer" || return 1
	echo $((RANDOM % 2))-1 > "$dir/latency_parser/cpus"
	lp_interrupt_events "$dir" $((RANDOM % 2))
	echo $((RANDOM % 3)) > "$dir/options/stacktrace" 2>/dev/null
	# a threshold TCG's windows cross now and then: the instance stops
	echo $((RANDOM % 3 * 5000)) > "$dir/latency_parser/stop_tracing_us"
	return 0
}

# churn_gone N - remove churnN: every other one while the tracer runs
churn_gone() {
	local dir=$TRACEFS/instances/churn$1

	cat "$dir/latency_parser/max" "$dir/latency_parser/hist/poid" > /dev/null 2>&1
	[ $(($1 % 2)) -eq 0 ] && echo nop > "$dir/current_tracer"
	rmdir "$dir"
}

# churn SECS - 100 instances, five at a time, spread over SECS; the counts
# in $work/churn
churn() {
	local start=$SECONDS made=0 gone=0 batch i

	for batch in $(seq 0 19); do
		while [ $SECONDS -lt $((start + batch * $1 / 20)) ]; do
			sleep 0.5
		done
		for i in $(seq $((batch * 5 + 1)) $((batch * 5 + 5))); do
			churn_one $i && made=$((made + 1))
		done
		sleep 1
		for i in $(seq $((batch * 5 + 1)) $((batch * 5 + 5))); do
			churn_gone $i && gone=$((gone + 1))
		done
		echo "$gone" > "$work/churn.progress"
		echo "# churn: $made instances made, $gone removed after $((SECONDS - start)) s"
	done
	echo "$made $gone $((SECONDS - start))" > "$work/churn"
}

# watch_jobs - wait for the jobs. This kernel has no hung task detector:
# once the jobs are past their time by 300 s with no instance of the churn
# removed meanwhile, something hangs.
watch_jobs() {
	local start=$SECONDS seen=$SECONDS last= now

	while [ -n "$(jobs -rp)" ]; do
		now=$(cat "$work/churn.progress" 2>/dev/null)
		if [ "$now" != "$last" ]; then
			last=$now
			seen=$SECONDS
		fi
		if [ $SECONDS -gt $((start + secs + 300)) ] &&
		   [ $((SECONDS - seen)) -gt 300 ]; then
			return 1
		fi
		sleep 5
	done
	return 0
}

# hang_report - what the blocked tasks wait for, and the locks held
hang_report() {
	local pid

	diag "blocked tasks:"
	for pid in $(ps -eo pid=,stat= | awk '$2 ~ /^D/ { print $1 }'); do
		diag "$(tr '\0' ' ' < "/proc/$pid/cmdline") (pid $pid):"
		diag "$(cat "/proc/$pid/stack")"
	done
	echo w > /proc/sysrq-trigger
	echo d > /proc/sysrq-trigger
	diag "$(dmesg | sed -n '/sysrq: Show Blocked State/,$p' | head -300)"
}

# reader SECS - read the instance's trace, and consume its trace_pipe
reader() {
	local end=$((SECONDS + $1)) rounds=0

	while [ $SECONDS -lt $end ]; do
		timeout 2 cat "$inst/trace_pipe" > /dev/null 2>&1
		head -c 1M "$inst/trace" > /dev/null 2>&1
		rounds=$((rounds + 1))
		sleep 1
	done
	echo "$rounds" > "$work/reader"
}

inst=$(lp_instance stress)
ok $? "an instance selects latency_parser"
lp=$inst/latency_parser
lp_interrupt_events "$inst" 1
echo 1 > "$inst/options/stacktrace"
# every instance's new maxima and stops, in the top level's buffer too
echo 1 > "$TRACEFS/events/latency_parser/new_max/enable"
echo 1 > "$TRACEFS/events/latency_parser/threshold_stop/enable"
check "CPU 1 can go offline" test -w "$cpu1"

# stress-ng writes in its working directory: the guest's /tmp
(cd "$work" && exec stress-ng --switch 1 --timer 1 --timer-freq 10000 --cpu 1 \
	--timeout ${secs}s --metrics-brief > "$work/stress-ng.txt" 2>&1) &
stress_pid=$!
cyclictest -q -m -p95 -t -a -i1000 -D $secs > "$work/cyclictest.txt" 2>&1 &
cyclic_pid=$!
hotplug $secs 2> "$work/hotplug.err" &
hotplug_pid=$!
churn $secs 2> "$work/churn.err" &
churn_pid=$!
reader $secs &
reader_pid=$!
python3 "$top/tests/debug/fuzz.py" "$inst" $secs > "$work/fuzz.txt" 2>&1 &
fuzz_pid=$!
jobs_started="$stress_pid $cyclic_pid $hotplug_pid $churn_pid $reader_pid $fuzz_pid"

if ! watch_jobs; then
	ok 1 "the stress ended (no progress for 300 s past its time: a hang)"
	hang_report
	# the cleanup would block on the same locks
	trap - EXIT
	done_testing
fi
ok 0 "the stress ended"
wait $stress_pid
status=$?
diag "stress-ng: $(grep -E 'metrc: .*(switch|timer|cpu) ' "$work/stress-ng.txt" | tr -s ' ')"
ok $status "stress-ng --switch --timer --cpu ran ${secs} s, exit 0"
wait $cyclic_pid
status=$?
diag "cyclictest: $(grep -E 'Max' "$work/cyclictest.txt" | tr -s ' ')"
ok $status "cyclictest ran ${secs} s, exit 0"
check "cyclictest printed a max latency" grep -qE 'Max: +[0-9]+' "$work/cyclictest.txt"
wait $hotplug_pid
read -r cycles failed took < "$work/hotplug"
diag "hotplug: $cycles cycles of CPU 1 in $took s, $failed writes refused; $(sort "$work/hotplug.err" | uniq -c | head -3)"
check "CPU 1 went offline and back ($cycles times)" test "${cycles:-0}" -ge 3
check "CPU 1 is online" test "$(cat "$cpu1")" = 1
wait $churn_pid
read -r made gone took < "$work/churn"
diag "churn: $made instances made, $gone removed in $took s; $(sort "$work/churn.err" | uniq -c | head -3)"
check "100 instances were made" test "${made:-0}" = 100
check "and removed" test "${gone:-0}" = 100
check "no instance of the churn is left" test -z "$(ls -d "$TRACEFS"/instances/churn* 2>/dev/null)"
wait $reader_pid
check "the trace was read meanwhile ($(cat "$work/reader") rounds)" test -s "$work/reader"
wait $fuzz_pid
status=$?
diag "fuzz: $(cat "$work/fuzz.txt")"
ok $status "the files took random input for ${secs} s"
stops=$(sed -n 's/.*threshold stops \([0-9]*\).*/\1/p' "$work/fuzz.txt")
check "random thresholds stopped the instance (${stops:-0} times)" test "${stops:-0}" -gt 0
jobs_started=

# The instance still answers, with its defaults back.
echo 0 > "$inst/tracing_on"
echo 0-1 > "$lp/cpus"
echo 0 > "$lp/stop_tracing_us"
echo 1000 > "$lp/hist_bucket_ns"
echo 1000 > "$lp/hist_buckets"
echo 1 > "$lp/reset"
echo 1 > "$inst/tracing_on"
sleep 2
diag "$(cat "$lp/max")"
check "max has one line of 9 numbers per CPU" \
	test "$(grep -cE '^[0-9]+( [0-9]+){8}$' "$lp/max")" = 2
check "both CPUs are parsed again" \
	test "$(lp_max "$inst" 0 windows)" -gt 0 -a "$(lp_max "$inst" 1 windows)" -gt 0
check "hist/poid has 1000 buckets and an overflow line" \
	test "$(grep -vc '^#' "$lp/hist/poid")" = 1001

# One more threshold stop, checked as latency_parser_files.t does.
echo > "$inst/trace"
echo 1 > "$lp/stop_tracing_us"
for i in $(seq 50); do
	[ "$(cat "$inst/tracing_on")" = 0 ] && break
	sleep 0.1
done
check "a window over stop_tracing_us stops the instance" test "$(cat "$inst/tracing_on")" = 0
check "the stop event is in the instance's buffer" grep -q "threshold_stop: " "$inst/trace"
check "the top level saw new maxima of the instances" grep -q "new_max: " "$TRACEFS/trace"

check "the instance leaves the tracer" lp_remove "$inst"
inst=
check "dmesg holds the whole log since the boot" \
	grep -q "Linux version" <<< "$(dmesg | head -3)"
done_testing
