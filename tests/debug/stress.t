#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The latency_parser tracer under stress, for the debug kernel of make
# test-debug (lockdep, RCU lockdep, sleeping in atomic context, preempt
# count, KASAN, debug objects, list debugging), which turns a misuse of a
# context, a lock or memory into a report in dmesg. For 150 s, and on until
# the churn below is done, one instance traces both CPUs, with its
# execution events and stack traces, while:
# - stress-ng switches contexts, fires a 10 kHz timer and burns a CPU, and
#   cyclictest runs at FIFO 95 on each CPU (both ten times slower on the
#   debug kernel);
# - CPU 1 goes offline and comes back every few seconds, from the moment
#   stress-ng runs its stressors (a hotplug during its start can corrupt
#   its memory, see below);
# - 100 other instances are made and removed, five at a time: most select
#   latency_parser (with random settings, events and thresholds; some are
#   removed while it runs), the others stay nop;
# - every file of the tracing instance's latency_parser/ and hist/ takes
#   random input (random bytes, huge and negative numbers, empty writes,
#   cpu lists, at random offsets) and is read in random pieces, its tracing
#   and events go off and on and its tracer away and back, and random
#   thresholds (stop_tracing_us) stop it;
# - its trace and trace_pipe are read, and the top level records the
#   new_max and threshold_stop events of every instance.
# The tracefs side runs as threads of tests/debug/stress.py: on the debug
# kernel under TCG every program started costs seconds (and Python a
# minute). Then the instance must still answer, thresholds must have
# stopped it, and dmesg must hold no report (done_testing's dmesg_clean). A
# hang (this kernel has no hung task detector: stress.py's watchdog tells)
# ends the test with the stacks of the blocked tasks. Under load on the
# debug kernel an instance takes seconds to make and remove: the whole
# test takes 10 to 30 minutes.
#
# On the production kernel it runs as well, and checks the same.

export VM_CPUS=${VM_CPUS-2}
# Room for the whole log of the run: a report must not scroll away. Small
# ring buffers for the 100 instances: their pages take most of a mkdir.
# The registers of a load killed by a signal (a kernel that corrupted a
# task's state shows there first).
export VM_APPEND=${VM_APPEND-log_buf_len=8M trace_buf_size=64K print-fatal-signals=1}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
. "$(dirname "$0")/../vm/lib.sh"
. "$top/tests/vm/lp.sh"
lp_require

secs=${1:-150}		# of stress; an argument sets it (a quick try)
cpu1=/sys/devices/system/cpu/cpu1/online
work=$(mktemp -d /tmp/stress.XXXXXX)
inst=

# cleanup - stop what still runs, CPU 1 back, no instance left behind
cleanup() {
	local pid dir

	for pid in $(jobs -p); do
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

# watch_tracefs - wait for stress.py; 1 if its watchdog saw a hang, 2 at
# the kernel's first report: on the debug kernel the run lasts an hour,
# and what matters then is the report, whole, while the guest still runs
watch_tracefs() {
	local n=0 report

	while kill -0 $tracefs_pid 2>/dev/null; do
		[ -s "$work/hang" ] && return 1
		n=$((n + 1))
		# the report if any, not the count of known ones every 30 s
		if [ $((n % 6)) = 0 ] && ! report=$(dmesg_clean); then
			echo "$report"
			return 2
		fi
		sleep 5
	done
	return 0
}

# hang_report - where stress.py's threads are, in Python and in the
# kernel, what the blocked tasks wait for, and the locks held
hang_report() {
	local pid task

	kill -USR1 $tracefs_pid
	for task in /proc/$tracefs_pid/task/*; do
		diag "stress.py thread ${task##*/}: $(cut -d' ' -f3 "$task/stat") in $(cat "$task/wchan")"
		diag "$(cat "$task/stack")"
	done
	for pid in $(ps -eo pid=,stat= | awk '$2 ~ /^D/ { print $1 }'); do
		diag "blocked: $(tr '\0' ' ' < "/proc/$pid/cmdline") (pid $pid):"
		diag "$(cat "/proc/$pid/stack")"
	done
	echo w > /proc/sysrq-trigger
	echo d > /proc/sysrq-trigger
	diag "$(dmesg | sed -n '/sysrq: Show Blocked State/,$p' | head -300)"
}

# core_report - what the cores of the loads that died hold: registers,
# code, the stack, and where the faulting address lives in memory
# (core_words.py), read in the guest, where the cores are. The one load
# death caught so far was stress-ng's own bug (below), found from its
# registers; for the next one, a word changed in memory tells another
# process or the kernel from a register changed in the task's state.
core_report() {
	local core comm exe addr

	for core in "$work"/core.*; do
		[ -f "$core" ] || continue
		comm=${core#"$work"/core.}
		comm=${comm%.*}
		case $comm in
		stress-ng*) exe=$(command -v stress-ng) ;;
		*) exe=$(command -v "$comm") ;;
		esac
		diag "core of $comm (pid ${core##*.}), $(stat -c %s "$core") bytes:"
		command -v gdb > /dev/null &&
			diag "$(gdb -batch -nx -ex 'info registers' -ex 'x/8i $pc' -ex 'bt 12' \
				-ex 'x/48gx $sp' "$exe" "$core" 2>&1 | grep -v '^\[New LWP')"
		addr=$(dmesg | sed -n "s/.*$comm\[${core##*.}\]: segfault at \([0-9a-f]*\).*/\1/p" | head -1)
		[ -n "$addr" ] && diag "$(python3 "$top/tests/debug/core_words.py" "$core" "$addr")"
	done
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
# the instance's buffer as the default one (trace_buf_size is small)
echo 1408 > "$inst/buffer_size_kb"

# The loads run until stress.py is done, then stop on SIGINT. stress-ng
# writes in its working directory: the guest's /tmp. On a debug kernel
# (lockdep's /proc/lockdep_stats, or KASAN's line at boot) every interrupt
# and wakeup costs far more under TCG: with a 10 kHz timer and a 1 kHz
# FIFO 95 cyclictest, stress.py had not started its threads after 18
# minutes. The same loads run there ten times slower.
timer_hz=10000
cyclic_us=1000
if [ -e /proc/lockdep_stats ] || dmesg | grep -q "KernelAddressSanitizer initialized"; then
	timer_hz=1000
	cyclic_us=10000
fi
# wait_threads PID N - until PID runs more than N threads, or has ended
wait_threads() {
	local tasks

	while kill -0 "$1" 2>/dev/null; do
		tasks=(/proc/$1/task/*)
		[ ${#tasks[@]} -gt "$2" ] && return
		sleep 1
	done
}

# A load killed by a fault leaves a core in $work, which core_report()
# reads: cores of every process (stress-ng makes its own undumpable),
# with no size limit.
echo "$work/core.%e.%p" > /proc/sys/kernel/core_pattern
echo 2 > /proc/sys/fs/suid_dumpable
ulimit -c unlimited

# cyclictest first, its threads pinned while every CPU is online: a
# cyclictest once ended with an error and no output on the memory kernel,
# cause unknown (starting it while CPU 1 went on and off never failed in
# six tries); this leaves the hotplug out of its start. It is light at
# these intervals.
cyclictest -q -m -p95 -t -a -i$cyclic_us > "$work/cyclictest.txt" 2>&1 &
cyclic_pid=$!
wait_threads $cyclic_pid "$(nproc)"
# stress.py next, its threads started before the loads compete with it;
# its hotplug thread waits for the loads (STRESS_HOTPLUG_AFTER, below).
STRESS_HOTPLUG_AFTER=$work/loads-up \
	python3 "$top/tests/debug/stress.py" "$inst" $secs "$work/hang" > "$work/stress.txt" &
tracefs_pid=$!
wait_threads $tracefs_pid 4
(cd "$work" && exec stress-ng --switch 1 --timer 1 --timer-freq $timer_hz --cpu 1 \
	--timeout 4h --metrics-brief > "$work/stress-ng.txt" 2>&1) &
stress_pid=$!
start=$SECONDS
# stress-ng sets its core limit to 0 and its core filter to nothing, in
# the main process and in each stressor it forks (which it names
# stress-ng-cpu and so on): raise both once the three stressors and the
# switch stressor's partner are there.
for i in $(seq 120); do
	[ "$(pgrep -c -f '^stress-ng')" -ge 5 ] && break
	sleep 1
done
sleep 2
for pid in $(pgrep -f '^stress-ng'); do
	prlimit --pid "$pid" --core=unlimited:unlimited
	echo 0x33 > "/proc/$pid/coredump_filter"
done
diag "stress-ng: $(pgrep -c -f '^stress-ng') processes may leave a core"
# CPU 1 goes offline only from here on. stress-ng 0.15's main process
# reads /sys/devices/system/cpu/cpu*/cache/index*/ before it forks its
# stressors, and when a read fails it writes a NUL errno bytes before its
# buffer: a CPU gone between its open() and read() makes kernfs answer
# ENODEV, and the NUL lands on byte 5 of the pointer 19 bytes below (the
# load stress.t lost, a pointer 0x000000f80f1cb440; on the host, with
# read() of those files made to fail with ENODEV, it dies the same way
# every time, never with EIO). Its stressors read none of them.
loads_up=$(cut -d' ' -f1 /proc/uptime)
touch "$work/loads-up"

watch_tracefs
case $? in
1)
	ok 1 "no hang ($(cat "$work/hang"), see the stacks below)"
	hang_report
	# the cleanup would block on the same locks
	trap - EXIT
	done_testing
	;;
2)
	# dmesg_clean printed the report; the rest would only repeat it
	ok 1 "no kernel report in $((SECONDS - start)) s of stress (see above)"
	kill -KILL $tracefs_pid
	tap_done
	;;
esac
ok 0 "no hang in $((SECONDS - start)) s of stress"

kill -INT $stress_pid $cyclic_pid
wait $stress_pid
status=$?
diag "stress-ng: $(grep -E 'metrc: .*(switch|timer|cpu) ' "$work/stress-ng.txt" | tr -s ' ')"
[ $status = 0 ] || diag "stress-ng, exit status $status: $(tail -20 "$work/stress-ng.txt")"
ok $status "stress-ng --switch --timer --cpu ran through, exit 0"
wait $cyclic_pid
status=$?
if [ $status = 0 ]; then
	diag "cyclictest: $(grep -E 'Max' "$work/cyclictest.txt" | tr -s ' ')"
else
	diag "cyclictest, exit status $status: $(cat "$work/cyclictest.txt")"
fi
ok $status "cyclictest ran through, exit 0"
check "cyclictest printed a max latency" grep -qE 'Max: +[0-9]+' "$work/cyclictest.txt"
# A load killed by a fault or the OOM killer: the kernel says which
crashes=$(dmesg | grep -iE 'out of memory|oom-kill|segfault|traps:|potentially unexpected fatal signal' -A12)
diag "$crashes"
[ -n "$crashes" ] && core_report
check "no process was killed by a fault or for memory" test -z "$crashes"

wait $tracefs_pid
status=$?
diag "$(cat "$work/stress.txt")"
ok $status "stress.py's threads ran to their end"
# result KEY - the line of stress.py's output that starts with KEY
result() {
	sed -n "s/^$1 //p" "$work/stress.txt"
}
read -r cycles refused took first <<< "$(result hotplug)"
check "CPU 1 went offline and back ($cycles times in $took s)" test "${cycles:-0}" -ge 3
check "CPU 1 went offline first at $first s of uptime, after the loads started ($loads_up s)" \
	awk -v first="$first" -v up="$loads_up" 'BEGIN { exit !(first + 0 > up + 0) }'
check "CPU 1 is online" test "$(cat "$cpu1")" = 1
read -r made gone took <<< "$(result churn)"
check "100 instances were made" test "${made:-0}" = 100
check "and removed ($took s)" test "${gone:-0}" = 100
check "no instance of the churn is left" test -z "$(ls -d "$TRACEFS"/instances/churn* 2>/dev/null)"
check "the trace was read meanwhile ($(result reader) rounds)" test "$(result reader)" -gt 0
stops=$(result stops)
check "random thresholds stopped the instance (${stops:-0} times)" test "${stops:-0}" -gt 0

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
for i in {1..50}; do
	read -r on < "$inst/tracing_on"
	[ "$on" = 0 ] && break
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
