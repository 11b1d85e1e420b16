# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - what every VM test (tests/vm/*.t) sources.
#
# A *.t is run by prove on the host. Sourcing this file there boots the
# patched kernel (tests/vm/run) and runs the same script again inside the
# guest, where it prints TAP. VM_TIMEOUT (s) sets the hard limit of the boot;
# VM_TIMEOUT_SCALE=N multiplies it, for a slower kernel (make test-debug).

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [ -z "${IN_VM:-}" ]; then
	VM_TAP=1 exec "$top/tests/vm/run" -t "$((${VM_TIMEOUT:-600} * ${VM_TIMEOUT_SCALE:-1}))" \
		-c "${VM_CPUS:-2}" \
		${VM_APPEND:+-a "$VM_APPEND"} -- bash "$0" "$@"
fi

. "$top/tests/tap.sh"

RTLA=${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}
TRACEFS=/sys/kernel/tracing

# What a kernel prints when something is wrong: warnings and bugs (with
# them BUG: KASAN, BUG: sleeping function called from invalid context, BUG:
# Invalid wait context, WARNING: suspicious RCU usage and every lockdep
# report), and the reports of the debug kernel's checkers that do not always
# start that way. None of it matches the boot messages of either kernel
# (kasan: is lowercase; \bBUG: leaves out ODEBUG: selftest passed; not a
# bare "lockdep": the debug kernel boots with "RCU lockdep checking is
# enabled").
DMESG_BAD='WARNING:|\bBUG:|Oops|Kernel panic|general protection fault'
DMESG_BAD+='|possible (recursive|circular) locking|INFO: (task|rcu|trying to register)'
DMESG_BAD+='|turning off the locking correctness validator|lockdep is turned off'
DMESG_BAD+='|KASAN:|UBSAN:|DEBUG_LOCKS_WARN|suspicious RCU usage'
DMESG_BAD+='|sleeping function called from invalid context'
DMESG_BAD+='|ODEBUG: .*(object|[Oo]ut of memory)|list_(add|del) corruption'

# Reports of bugs that 6.12 has without the series, each matched by its
# first line (DMESG_KNOWN_BUG) and the line after it, which names the code
# (DMESG_KNOWN): they are counted, not failed. Both lines, so that another
# CPU's report that happens to print just before a known caller line still
# fails.
# - osnoise_hotplug_workfn() takes smp_processor_id() in a work item that
#   CPU hotplug can move off its CPU (the kworker of a CPU that goes
#   offline is unbound). osnoise queues it at every CPU online whether or
#   not any tracer runs, the series does not touch it, and it is the same
#   upstream: DEBUG_PREEMPT reports it under tests/debug's hotplug loop.
DMESG_KNOWN_BUG='BUG: using smp_processor_id\(\) in preemptible \[[0-9a-f]+\] code: kworker/'
DMESG_KNOWN='^(\[ *[0-9.]+\] )?caller is osnoise_hotplug_workfn\+'

# dmesg_reports LOG - the line number of each report in LOG that is not a
# known one
dmesg_reports() {
	local n line

	grep -nE "$DMESG_BAD" <<< "$1" | while IFS=: read -r n line; do
		grep -qE "$DMESG_KNOWN_BUG" <<< "$line" &&
			sed -n "$((n + 1))p" <<< "$1" | grep -qE "$DMESG_KNOWN" ||
			echo "$n"
	done
}

# dmesg_clean - no kernel warning, bug, lockdep or checker report since the
# boot, known ones aside (counted in a comment); on one, the log from the
# first report on (the whole of a lockdep splat runs to a hundred lines)
dmesg_clean() {
	local log first known

	log=$(dmesg)
	first=$(dmesg_reports "$log" | head -n 1)
	if [ -n "$first" ]; then
		diag "$(sed -n "$first,\$p" <<< "$log" | head -n 400)"
		return 1
	fi
	known=$(grep -cE "$DMESG_KNOWN" <<< "$log")
	[ "$known" -eq 0 ] ||
		diag "dmesg: $known known report(s) of 6.12 itself: $(grep -m1 -E "$DMESG_KNOWN" <<< "$log" | sed 's/^\[[^]]*\] //')"
	return 0
}

# lockdep_on [STATS] - lockdep still validates (STATS: /proc/lockdep_stats):
# it turns itself off for good at its first report, or when it runs out of
# room, and checks no lock after that
lockdep_on() {
	grep -qE '^ *debug_locks: +1$' "${1:-/proc/lockdep_stats}"
}

# done_testing - the closing plan, after a last look at dmesg (and, on a
# kernel with lockdep, at lockdep itself)
done_testing() {
	check "no kernel warning in dmesg" dmesg_clean
	if [ -e /proc/lockdep_stats ]; then
		check "lockdep validated the whole run" lockdep_on
	fi
	tap_done
}
