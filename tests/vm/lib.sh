# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - what every VM test (tests/vm/*.t) sources.
#
# A *.t is run by prove on the host. Sourcing this file there boots the
# patched kernel (tests/vm/run) and runs the same script again inside the
# guest, where it prints TAP. VM_TIMEOUT (s) sets the hard limit of the boot.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [ -z "${IN_VM:-}" ]; then
	exec "$top/tests/vm/run" -t "${VM_TIMEOUT:-600}" -c "${VM_CPUS:-2}" \
		${VM_APPEND:+-a "$VM_APPEND"} -- bash "$0" "$@"
fi

RTLA=${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}
TRACEFS=/sys/kernel/tracing
tap_count=0
tap_failed=0

# ok - report one test: ok CONDITION_STATUS DESCRIPTION (0 is a pass)
ok() {
	local status=$1
	shift
	tap_count=$((tap_count + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $tap_count - $*"
	else
		echo "not ok $tap_count - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

# check - run a command, pass when it exits 0: check DESCRIPTION CMD...
check() {
	local what=$1
	shift
	"$@"
	ok $? "$what"
}

# skip - report a test that cannot run here: skip DESCRIPTION REASON
skip() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $1 # SKIP $2"
}

# diag - a line for the reader of the test log
diag() {
	sed 's/^/# /' <<< "$*"
}

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
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
	exit
}
