# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - what every VM test (tests/vm/*.t) sources.
#
# A *.t is run by prove on the host. Sourcing this file there boots the
# patched kernel (tests/vm/run) and runs the same script again inside the
# guest, where it prints TAP. VM_TIMEOUT (s) sets the hard limit of the boot.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [ -z "${IN_VM:-}" ]; then
	VM_TAP=1 exec "$top/tests/vm/run" -t "${VM_TIMEOUT:-600}" -c "${VM_CPUS:-2}" \
		${VM_APPEND:+-a "$VM_APPEND"} -- bash "$0" "$@"
fi

. "$top/tests/tap.sh"

RTLA=${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}
TRACEFS=/sys/kernel/tracing

# dmesg_clean - no kernel warning, bug or lockdep report since the boot
dmesg_clean() {
	local bad

	bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|possible (recursive|circular) locking|INFO: (task|rcu)|lockdep' || true)
	if [ -n "$bad" ]; then
		diag "$bad"
		return 1
	fi
	return 0
}

# done_testing - the closing plan, after a last look at dmesg
done_testing() {
	check "no kernel warning in dmesg" dmesg_clean
	tap_done
}
