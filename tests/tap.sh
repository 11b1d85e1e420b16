# SPDX-License-Identifier: GPL-2.0
#
# tap.sh - the TAP helpers every *.t script sources.

tap_count=0
tap_failed=0

# ok - report one test: ok STATUS DESCRIPTION (0 is a pass)
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

# check_todo REASON DESCRIPTION CMD... - a check of a known open bug: a
# failure is reported as TODO with its reason (prove shows it, and does not
# fail), a pass as an unexpected success
check_todo() {
	local reason=$1 what=$2
	shift 2
	tap_count=$((tap_count + 1))
	if "$@"; then
		echo "ok $tap_count - $what # TODO $reason"
	else
		echo "not ok $tap_count - $what # TODO $reason"
	fi
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

# tap_done - the closing plan; the exit status tells whether all passed
tap_done() {
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
	exit
}
