#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The latency_parser tracer starts on a whole stream of events, on CPUs
# that are all either up or down, and never makes values out of nothing.
#
# Two ways a start used to go wrong:
# - the hooks are registered one by one (irq_disable before irq_enable):
#   a CPU whose parser synced while only some of them were live measured
#   windows from a stream it half saw;
# - a start between a CPU's hotplug teardown (which parks its parser) and
#   its death unparked it: the CPU died with windows open, and closed them
#   when it came back, a POID as long as its time offline.
#
# Both are made to happen here, with hotplug_hold.ko (tests/vm/modules/):
# it keeps CPU 1, going offline, in sched_cpu_wait_empty(), below the
# tracer's hotplug state, with the CPU hotplug lock held, until the module
# is removed 1 s after the tracer was started. A tracepoint registration
# that flips a static key or a static call (a tracepoint's first or second
# probe) waits for that lock: the module first hooks two probes that do
# nothing to each of the tracer's tracepoints, so that the tracer's own
# registrations flip nothing.
# - Between teardown and death: every tracepoint has the two probes, and
#   a start that does not wait for the hotplug lock hooks everything while
#   CPU 1 is held. CPU 1 dies, stays offline for 1 s and comes back: no
#   maximum may come near that second.
# - Half hooked: every tracepoint but irq_enable has them, so that such a
#   start waits in irq_enable's registration, with the others live, for
#   that second. The parsers then see toggles that make no sense (IRQs
#   masked twice, never unmasked) and drop what they measured, hundreds of
#   times: no CPU may drop more than a start and a hotplug drop, 5.
# (The tracer now waits for the hotplug lock before it hooks anything:
# neither can happen, and the start returns once CPU 1 is dead.)
# - Then started and stopped again and again under the same load while
#   CPU 1 goes offline for 1 s and back in a loop, each start measuring
#   for 1.5 s: a race of timing, which a run hits or not.
# Every window those bugs make spans a time offline, 1 s: every maximum
# must stay under half of it.
#
# Deterministic time (VM_ICOUNT=0) on two CPUs. qemu then runs the vCPUs
# in turn on one clock: one runs until it halts, or for up to 100 ms of
# guest time (its round-robin kick period), while the other's clock runs
# on. A CPU switched out inside a section shows a section of up to 100 ms
# (several, when it spins on a lock the other holds): on 7.3, CPU 1 silent
# for 96 ms with IRQs off in an hrtimer base's lock (alarm(2)), while
# CPU 0 took a tick every millisecond. Such a window is true in the guest's
# clock, and must be measured: the limit leaves room for a few slices.

export VM_ICOUNT=${VM_ICOUNT-0}
export VM_CPUS=${VM_CPUS-2}
VM_TIMEOUT=${VM_TIMEOUT:-900}
. "$(dirname "$0")/modules.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lp.sh"
lp_require

cpu1=/sys/devices/system/cpu/cpu1
if [ "$(nproc --all)" -lt 2 ] || [ ! -w $cpu1/online ]; then
	echo "1..0 # SKIP needs a second CPU that can go offline"
	exit 0
fi

ko=$VM_MODULES/hotplug_hold.ko
rounds=${LP_START_ROUNDS:-15}
limit=500000000		# ns, half the time offline
vars="poid psd dst paie irq nmi"
load=
plug=
inst=

# cleanup - stop the load and the hotplug loop, CPU 1 back online
cleanup() {
	[ -n "$plug" ] && kill "$plug" 2>/dev/null && wait "$plug" 2>/dev/null
	[ -n "$load" ] && kill "$load" 2>/dev/null && wait "$load" 2>/dev/null
	plug=
	load=
	echo 1 > $cpu1/online 2>/dev/null
	if grep -qw hotplug_hold /proc/modules; then
		rmmod hotplug_hold
	fi
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		lp_remove "$inst"
	fi
	inst=
}
trap cleanup EXIT

# maxima DIR - "var value cpu" for each variable and CPU of DIR's max
maxima() {
	awk -v vars="$vars" '
		/^#/ { for (i = 2; i <= NF; i++) col[$i] = i - 1; next }
		{ n = split(vars, v); for (i = 1; i <= n; i++) print v[i], $(col[v[i]]), $1 }' \
		"$1/latency_parser/max"
}

# worst MAXIMA - the largest value of the lines of maxima(), as "value var cpu"
worst() {
	awk '$2 > v { v = $2; what = $1 " " $3 } END { print v + 0, what }' <<< "$1"
}

# lp_state - the number of the tracer's hotplug state
lp_state() {
	sed -n 's/^ *\([0-9]*\): trace\/latency_parser:online$/\1/p' \
		/sys/devices/system/cpu/hotplug/states
}

# held_start SKIP - start the tracer while CPU 1 goes offline, held past
# the tracer's hotplug state, with two probes on each of the tracer's
# tracepoints but SKIP; CPU 1 released 1 s later, back online after 1 s
# offline. Prints the worst maximum as "value var cpu", then the max file.
held_start() {
	local state offline start i held=

	insmod "$ko" cpu=1 probes=1 skip="$1" || return 1
	echo 0 > $cpu1/online &
	offline=$!
	state=$(lp_state)
	for i in $(seq 100); do
		if [ "$(cat $cpu1/hotplug/state)" -lt "$state" ]; then
			held=1
			break
		fi
		sleep 0.05
	done
	if [ -n "$held" ]; then
		echo latency_parser > "$inst/current_tracer" &
		start=$!
		sleep 1
	fi
	rmmod hotplug_hold
	wait $offline $start
	sleep 1
	echo 1 > $cpu1/online
	[ -n "$held" ] || return 1
	sleep 0.5
	echo 0 > "$inst/tracing_on"
	worst "$(maxima "$inst")"
	cat "$inst/latency_parser/max"
	echo nop > "$inst/current_tracer"
	echo 1 > "$inst/tracing_on"
}

# most_dropped OUT - the most windows a CPU dropped, in held_start's OUT
most_dropped() {
	awk '
		/^#/ { for (i = 2; i <= NF; i++) col[$i] = i - 1; next }
		NF > 3 && $(col["dropped"]) > n { n = $(col["dropped"]) }
		END { print n + 0 }' <<< "$1"
}

stress-ng --switch 2 --pipe 2 --timeout 3600s --temp-path /tmp -q &
load=$!
inst=$TRACEFS/instances/start
rmdir "$inst" 2>/dev/null
mkdir "$inst"

if check "hotplug_hold.ko was built for the kernel under test" test -f "$ko" &&
   check "the tracer's hotplug state is listed ($(lp_state))" test -n "$(lp_state)"; then
	for skip in "" irq_enable; do
		what="started while CPU 1 dies"
		[ -n "$skip" ] && what="started half hooked"
		out=$(held_start "$skip")
		check "$what: CPU 1 was held between the tracer's teardown and its death" \
			test -n "$out"
		read -r value var cpu <<< "$out"
		diag "$what: worst $var ${value:-none} ns on CPU ${cpu:-none}"
		diag "$(tail -n +2 <<< "$out")"
		check "$what: no window or IRQ over 500 ms" test "${value:-0}" -le $limit
		n=$(most_dropped "$out")
		check "$what: no CPU dropped more than 5 windows ($n)" test "$n" -le 5
	done
fi

# --- started and stopped under load, CPU 1 going offline and back ---
(
	while :; do
		echo 0 > $cpu1/online
		sleep 1
		echo 1 > $cpu1/online
		sleep 0.3
	done
) 2>/dev/null &
plug=$!
declare -A worst where
for var in $vars; do
	worst[$var]=0
done
started=0
for r in $(seq "$rounds"); do
	if ! echo latency_parser > "$inst/current_tracer"; then
		diag "start $r: the tracer did not start"
		continue
	fi
	sleep 1.5
	echo 0 > "$inst/tracing_on"
	m=$(maxima "$inst")
	[ -n "$m" ] && started=$((started + 1))
	while read -r var value cpu; do
		if [ "${value:-0}" -gt "${worst[$var]}" ]; then
			worst[$var]=$value
			where[$var]="start $r, CPU $cpu"
		fi
	done <<< "$m"
	echo nop > "$inst/current_tracer"
	echo 1 > "$inst/tracing_on"
done
cleanup

for var in $vars; do
	diag "$rounds starts: worst $var ${worst[$var]} ns${where[$var]:+ (${where[$var]})}"
done
check "the tracer started and measured $started times out of $rounds" \
	test "$started" -eq "$rounds" -a "${worst[poid]}" -gt 0
for var in $vars; do
	check "$rounds starts under hotplug: no $var over 500 ms" \
		test "${worst[$var]}" -le $limit
done

done_testing
