#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Remote wakeups: the tracer's probe of sched_set_need_resched_tp
# (lp_set_need_resched()) at work in the kernel. On PREEMPT_RT a waker on
# CPU A sets TIF_NEED_RESCHED of CPU B itself and sends the reschedule IPI
# after it; the probe posts the waker's sched_clock() to B's parser, so
# that B's PAIE begins when need_resched was set, not when the IPI lands
# (the named cases remote_in_idle, remote_in_paie). The host tests feed
# the post to the state machine themselves: a probe that posts to the
# wrong CPU, tests the wrong flag or posts nothing passes them all.
#
# lp_remote (tests/vm/lp_remote.c, built on the host) pins a SCHED_FIFO
# waker on CPU 0 and a target thread on CPU 1; in each round the waker
# clears the instance's maxima (latency_parser/reset), wakes the target
# through a futex, and the target answers by waking the waker back: two
# remote wakeups, one each way. The first PAIE each CPU then records is a
# new maximum, so its new_max event in the instance's buffer gives its
# start. Three phases of LP_REMOTE_ROUNDS rounds (default 40):
# - rt_idle: a SCHED_FIFO target, CPU 1 asleep in its idle loop;
# - rt_busy: the same, CPU 1 running a SCHED_IDLE load in the kernel
#   (reads of /dev/zero), which the IPI's return preempts;
# - lazy: a SCHED_OTHER target beside the same load. Under PREEMPT_LAZY
#   its wakeup sets TIF_NEED_RESCHED_LAZY only: no IPI, no post (the lazy
#   flag is not the model's need_resched); the tick upgrades the flag, and
#   its return preempts the load. Skipped on a kernel without PREEMPT_LAZY.
# The answers wake the waker on an idle CPU 0 in every phase.
#
# From sched_waking, sched_wakeup, sched_switch, sched_migrate_task,
# power:cpu_idle, the tracer's interrupt executions and its new_max events
# (tests/vm/lp_remote.py reads them), for each wakeup whose CPU was in the
# phase's state and had no other cause for need_resched:
# - the PAIE that ended at the switch to the woken thread began at the
#   waker's post: between the waker's sched_waking and sched_wakeup, which
#   bracket the flag being set (or at the start of an interrupt of the
#   woken CPU that was running then: the tracer discounts it whole; or,
#   under the load, where a section that held the post ended, if that is
#   not an interrupt's return). A probe that posts nothing, or to the
#   waker's own CPU, or not for TIF_NEED_RESCHED, leaves the PAIE
#   beginning at the IPI's return;
# - the PAIE is the time from that start to the PSD's (the switch's EV1)
#   less the interrupt executions of that CPU that began inside it, to the
#   nanosecond: the IPI's flight, the CPU's way out of its sleep and the
#   scheduler's call, net of the IPI;
# - lazy wakeups begin no PAIE: a probe that posted the lazy flag too
#   would begin one at the waker's time, recorded at the tick's
#   preemption of the load (the test also checks that those preemptions
#   happened, in most rounds, so that this check can fail). A PAIE that
#   begins at the start of an interrupt of the woken CPU is not the
#   waker's: the tick that upgrades the lazy flag sets need_resched in
#   flight, and the tracer discounts it whole. When that tick ran while
#   the waker was between sched_waking and sched_wakeup (one round of 40
#   in a CI run of 2026-11-27), its start falls in that bracket.
#
# In deterministic time (VM_ICOUNT=0): qemu runs the two vCPUs in turn,
# so a CPU's clock runs on while the other executes, and the reschedule
# IPI lands once CPU 0 has gone idle or its slice ended. Nothing asserted
# depends on that: the checks are of order and of the parser's arithmetic,
# true in any clock (plain TCG passes too). LP_REMOTE_ROUNDS=N changes the
# rounds per phase; LP_REMOTE_SHOW=1 prints every wakeup read.
#
# Kernels built with the probe broken (2026-11-27, a worktree of
# build/linux): posting to smp_processor_id() instead of @cpu, or for
# TIF_NEED_RESCHED_LAZY instead of TIF_NEED_RESCHED, fails the first check
# (the PAIEs began at the IPI's return, 15 to 50 us after sched_waking,
# where the probe's post is 0.4 to 1.4 us after it); without the tif test
# (posting the lazy flag too) fails the last one, and only it (again after
# the tick's in-flight starts were let through: 19 rounds of 38).

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_CPUS=2
VM_TIMEOUT=${VM_TIMEOUT:-300}

# On the host, before the VM boots: the load, built against the host's libc
# (the guest runs the host's root file system).
if [ -z "${IN_VM:-}" ]; then
	remote_src=$(cd "$(dirname "$0")" && pwd)/lp_remote.c
	remote_dir=$(cd "$(dirname "$0")/../.." && pwd)/build/vm/lp_remote
	rm -f "$remote_dir/lp_remote"
	mkdir -p "$remote_dir" &&
		gcc -O2 -Wall -pthread -o "$remote_dir/lp_remote" "$remote_src" \
			> "$remote_dir/build.log" 2>&1 ||
		echo "# lp_remote did not build: see $remote_dir/build.log" >&2
fi

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

bin=$top/build/vm/lp_remote/lp_remote
rounds=${LP_REMOTE_ROUNDS:-40}
pause=500		# us between rounds: each CPU back asleep, or in the load
out=$(mktemp -d /tmp/lp_remote.XXXXXX)
inst=

cleanup() {
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		lp_remove "$inst"
	fi
	inst=
	rm -rf "$out"
}
trap cleanup EXIT

if [ "$(nproc)" -lt 2 ]; then
	echo "1..0 # SKIP remote wakeups need two CPUs ($(nproc) online)"
	exit 0
fi
missing=
[ -x "$bin" ] || missing+=" $bin"
command -v python3 > /dev/null || missing+=" python3"
if [ -n "$missing" ]; then
	skip "remote wakeups" "not found:$missing"
	done_testing
fi

mode=$(lp_preempt_mode)
phases="rt_idle rt_busy"
if grep -q '(lazy)' <<< "$mode"; then
	phases+=" lazy"
fi
diag "clock: $(tr ' ' '\n' < /proc/cmdline | grep -E '^vm.icount=' || echo 'qemu default')," \
	"preemption: ${mode:-unknown}, $rounds rounds of: $phases"

inst=$(lp_instance remote)
echo 0 > "$inst/tracing_on"
echo 8192 > "$inst/buffer_size_kb"
lp_interrupt_events "$inst" 1
for e in sched/sched_waking sched/sched_wakeup sched/sched_switch \
	 sched/sched_migrate_task power/cpu_idle; do
	echo 1 > "$inst/events/$e/enable"
done
echo > "$inst/trace"
echo 1 > "$inst/tracing_on"

"$bin" "$inst" "$rounds" "$pause" $phases > "$out/phases" 2> "$out/stderr"
status=$?
echo 0 > "$inst/tracing_on"
diag "$(cat "$out/phases" "$out/stderr")"
ok $status "lp_remote ran $rounds rounds of $phases"

lost=0
for c in 0 1; do
	n=$(awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }' \
		"$inst/per_cpu/cpu$c/stats")
	lost=$((lost + n))
done
check "the instance's buffer lost no event ($lost lost)" test "$lost" -eq 0

cat "$inst/trace" > "$out/trace"
python3 "$top/tests/vm/lp_remote.py" "$out/phases" "$out/trace" > "$out/wakeups"
check "the wakeups were read from the trace" test "$(wc -l < "$out/wakeups")" -gt 1

# finish - every wakeup read, when something failed (or LP_REMOTE_SHOW=1),
# then the closing checks and plan
finish() {
	if [ "$tap_failed" -gt 0 ] || [ -n "${LP_REMOTE_SHOW:-}" ]; then
		diag "$(cat "$out/wakeups")"
	fi
	cleanup
	done_testing
}

# the table's header: f[NAME] is the column of field NAME
cols='NR == 1 { for (i = 1; i <= NF; i++) f[$i] = i; next }'

# rt_rows AWK - run AWK on the wakeups that the probe must post: the
# target's in the rt phases, the answers in every phase, each in the state
# its phase puts its CPU in, with no other cause for need_resched there
rt_rows() {
	awk -F'\t' "$cols"'
		function v(k) { return $f[k] }
		{
			rt = (v("kind") == "answer" && v("state") == "asleep") ||
			     (v("kind") == "target" && v("phase") == "rt_idle" &&
			      v("state") == "asleep") ||
			     (v("kind") == "target" && v("phase") == "rt_busy" &&
			      v("state") == "hog")
			if (!rt || v("clean") != 1)
				next
		}
		'"$1" "$out/wakeups"
}

# The rounds' wakeups, and how many are clean cases.
for p in rt_idle rt_busy; do
	seen=$(awk -F'\t' -v p=$p "$cols"' $f["phase"] == p && $f["kind"] == "target"' \
		"$out/wakeups" | wc -l)
	checked=$(rt_rows '$f["phase"] == "'$p'" && $f["kind"] == "target"' | wc -l)
	check "$p: every round woke the target remotely ($seen of $rounds)" \
		test "$seen" -eq "$rounds"
	check "$p: CPU 1 was in the phase's state, with no other cause for need_resched, in 3/4 of them ($checked)" \
		test $((checked * 4)) -ge $((rounds * 3))
done
answers=$(rt_rows '$f["kind"] == "answer"' | wc -l)
check "the answers woke the waker on an idle CPU 0 in half the rounds or more ($answers)" \
	test $((answers * 2)) -ge $((rounds * $(wc -w <<< "$phases")))

# The PAIE of each such wakeup, and what the parser made of it.
total=$(rt_rows '1' | wc -l)
found=$(rt_rows '$f["paie"] != "-"' | wc -l)
diag "remote wakeups that must post: $total, with the PAIE of their switch found: $found" \
	"(the others' PAIE was not a new maximum, or 0 when all of it was an interrupt in flight)"
check "a PAIE ended at the switch to the woken thread for 3/4 of them ($found of $total)" \
	test $((found * 4)) -ge $((total * 3))

# summary PHASE KIND - the measured values of those wakeups
summary() {
	rt_rows '$f["paie"] != "-" && $f["phase"] == "'$1'" && $f["kind"] == "'$2'" {
		n++
		if ($f["inflight"]) {
			inflight++
		} else {
			post = $f["start"] - $f["w"]
			if (n - inflight == 1 || post < pmin) pmin = post
			if (post > pmax) pmax = post
		}
		if ($f["flight"] != "-" && !$f["inflight"]) {
			m++
			if (m == 1 || $f["flight"] < fmin) fmin = $f["flight"]
			if ($f["flight"] > fmax) fmax = $f["flight"]
		}
		if (n == 1 || $f["paie"] < amin) amin = $f["paie"]
		if ($f["paie"] > amax) amax = $f["paie"]
	}
	END {
		if (n)
			printf "%s %s: %d PAIEs of %d-%d ns; began %d-%d ns after sched_waking" \
				" (%d others at an interrupt in flight at the post); the CPU'"'"'s first" \
				" interrupt after the post came %d-%d ns later\n",
				"'$1'", "'$2'", n, amin, amax, pmin, pmax, inflight + 0, fmin, fmax
	}'
}
for p in $phases; do
	for k in target answer; do
		line=$(summary "$p" $k)
		[ -z "$line" ] || diag "$line"
	done
done

# The post: the PAIE began between sched_waking and sched_wakeup. Under
# the load, the CPU may have been in a section (a POID) when the waker
# posted: the model's PAIE then starts where that section ends, later,
# and the POID holds the time before. Such a late start is let through
# only where it is not an interrupt's return after the post, which is
# where a PAIE starts when no post came (the reschedule IPI's). Asleep,
# no section can hold the post: every PAIE must begin at it.
bad=$(rt_rows '$f["paie"] != "-" && !$f["inflight"] &&
	       ($f["start"] < $f["w"] ||
		($f["start"] > $f["u"] && ($f["state"] != "hog" || $f["atirq"])))')
[ -z "$bad" ] || diag "$(head -1 "$out/wakeups")"$'\n'"$(head -5 <<< "$bad")"
check "every PAIE began at its waker's post, between sched_waking and sched_wakeup" \
	test -z "$bad"

# The window: from the post to EV1, net of the interrupts inside it. EV1
# is the start of the switch's PSD, known when that PSD was a new maximum
# too: always for a switch from the idle task (rt_idle's targets), often
# not for the others (the CPU's switches since the reset may have had a
# longer PSD).
exact=$(rt_rows '$f["paie"] != "-" && $f["end"] != "-"' | wc -l)
bad=$(rt_rows '$f["paie"] != "-" && $f["end"] != "-" &&
	       $f["paie"] != $f["end"] - $f["start"] - $f["irq"]')
[ -z "$bad" ] || diag "$(head -1 "$out/wakeups")"$'\n'"$(head -5 <<< "$bad")"
check "each PAIE is the time from the post to its EV1 less the interrupts inside ($exact with their PSD)" \
	test -z "$bad"
idle=$(rt_rows '$f["phase"] == "rt_idle" && $f["kind"] == "target" &&
		$f["paie"] != "-" && $f["end"] != "-"' | wc -l)
check "that was checked for 3/4 of the rt_idle targets or more ($idle of $rounds)" \
	test $((idle * 4)) -ge $((rounds * 3))

# Lazy wakeups: no post, no PAIE from the waker's time.
if [[ " $phases " != *" lazy "* ]]; then
	skip "lazy wakeups begin no PAIE" "no PREEMPT_LAZY (preempt: ${mode:-unknown})"
	finish
fi
lazy_rows() {
	awk -F'\t' "$cols"'
		$f["phase"] != "lazy" || $f["kind"] != "target" ||
			$f["state"] != "hog" || $f["clean"] != 1 { next }
		'"$1" "$out/wakeups"
}
checked=$(lazy_rows 1 | wc -l)
preempted=$(lazy_rows '$f["preempted"]' | wc -l)
ipis=$(lazy_rows '$f["ipis"] > 0' | wc -l)
diag "lazy: $checked clean wakeups; the load preempted before the target ran in $preempted;" \
	"a reschedule IPI came in $ipis"
check "lazy: CPU 1 ran the load, with no other cause for need_resched, in 3/4 of the rounds ($checked)" \
	test $((checked * 4)) -ge $((rounds * 3))
check "lazy: the load was preempted before the woken thread ran in 3/4 of them ($preempted)" \
	test $((preempted * 4)) -ge $((checked * 3))
# The in-flight starts let through, counted and named (lp_remote.py's
# tick): the local timer's (vector 236) are the tick's upgrade.
excused=$(lazy_rows '$f["tick"] != "-" { n++; k[$f["tick"]]++ }
	END { for (t in k) printf " %s: %d", t, k[t]; if (n) print "" }')
diag "lazy: PAIEs begun at an interrupt's start between sched_waking and sched_wakeup," \
	"let through as the CPU's own:${excused:- none}"
bad=$(lazy_rows '$f["early"] > 0')
if [ -n "$bad" ]; then
	diag "$(head -1 "$out/wakeups")"$'\n'"$(head -5 <<< "$bad")"
	# the first one's CPU, from 50 us before the wakeup to its switch
	read -r _ _ _ _ cpu w _ s _ <<< "$(head -1 <<< "$bad")"
	diag "$(awk -v c="[00$cpu]" -v from=$((w - 50000)) -v to="$s" '
		$2 == c || $3 == c {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					t = substr($i, 1, length($i) - 1)
					sub(/\./, "", t)
					t = t * 1000
					if (t >= from && t <= to)
						print
					break
				}
		}' "$out/trace")"
fi
check "lazy: no PAIE began at the waker's time, the lazy flag is not posted ($(grep -c . <<< "$bad") rounds with one)" \
	test -z "$bad"

finish
