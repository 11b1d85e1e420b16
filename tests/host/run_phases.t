#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-phases, make test's TAP driver, on dummy tests that leave marks
# in a scratch directory: a phase starts only once the phase before it has
# ended, the tests of a --par group run side by side, those of a --seq group
# one after another, groups of one phase beside each other; a failing test
# makes the run fail (Result: FAIL, exit 1); bad arguments are a usage
# error (exit 2) that names them. Each dummy checks what it can see when it
# starts, so a driver that ran everything at once, or one at a time, fails
# here.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

RP_DIR=$(mktemp -d)
export RP_DIR
trap 'rm -rf "$RP_DIR"' EXIT

# dummy NAME BODY - a test script NAME.t whose BODY prints its TAP; $RP_DIR
# holds the marks
dummy() {
	printf '#!/bin/bash\n%s\n' "$2" > "$RP_DIR/$1.t"
	chmod +x "$RP_DIR/$1.t"
}

# A test that leaves NAME.done one second after it starts
slow_mark() {
	dummy "$1" "touch \$RP_DIR/$1.start; sleep 1; touch \$RP_DIR/$1.done
echo 1..1; echo ok 1 - $1"
}

# A test that passes only if MARK exists when it starts
needs_mark() {
	dummy "$1" "if [ -e \$RP_DIR/$2 ]; then echo 'ok 1 - $2 before $1'
else echo 'not ok 1 - $2 before $1'; fi; echo 1..1"
}

# A test that passes only if MARK appears within ten seconds of its start,
# touching NAME.start first: two of them waiting for each other run at once
waits_for() {
	dummy "$1" "touch \$RP_DIR/$1.start
for i in \$(seq 100); do [ -e \$RP_DIR/$2 ] && break; sleep 0.1; done
if [ -e \$RP_DIR/$2 ]; then echo 'ok 1 - $1 beside $2'
else echo 'not ok 1 - $1 beside $2'; fi; echo 1..1"
}

# run_phases ARGS... - run the driver in $RP_DIR; its output in $out, its
# exit status in $status
run_phases() {
	out=$(cd "$RP_DIR" && "$top/tests/run-phases" "$@" 2>&1)
	status=$?
}

# want_pass DESCRIPTION: the last run passed every dummy
want_pass() {
	if [ "$status" -ne 0 ] || ! grep -q '^Result: PASS' <<< "$out"; then
		diag "exit $status:"
		diag "$out"
		ok 1 "$1"
		return
	fi
	ok 0 "$1"
}

# Phases: the second starts after the first has ended
slow_mark first
needs_mark second first.done
run_phases -j2 --par first.t --then --par second.t
want_pass "--then: the second phase starts after the first ends"

# A --par group runs its tests side by side
rm -f "$RP_DIR"/*.start "$RP_DIR"/*.done
waits_for left right.start
waits_for right left.start
run_phases -j2 --par left.t right.t
want_pass "--par: the tests of a group run side by side"

# A --seq group runs its tests one after another, beside a --par group of
# the same phase
rm -f "$RP_DIR"/*.start "$RP_DIR"/*.done
slow_mark one
needs_mark two one.done
waits_for beside one.start
run_phases -j2 --seq one.t two.t --par beside.t
want_pass "--seq: one after another, beside the phase's other groups"

# -j 1 still keeps the order within a phase's sequence
rm -f "$RP_DIR"/*.start "$RP_DIR"/*.done
run_phases -j1 --seq one.t two.t
want_pass "-j1: a sequence keeps its order"

# A test that writes to standard error, then nothing on standard output
# for a while, does not hold up the others: the next test starts once a
# slot is free, not once that test says something again
rm -f "$RP_DIR"/*.start "$RP_DIR"/*.done
dummy talker "echo 1..1; echo '# talker on stderr' >&2; sleep 4
touch \$RP_DIR/talker.done; echo ok 1 - talker"
dummy short "sleep 0.5; echo 1..1; echo ok 1 - short"
dummy after_short "if [ -e \$RP_DIR/talker.done ]; then
echo 'not ok 1 - started only after the talker ended'
else echo 'ok 1 - started beside the talker'; fi; echo 1..1"
run_phases -j2 --par talker.t short.t after_short.t
want_pass "a test silent on stdout after a line on stderr holds up no other"
check "that line on stderr is in the output" grep -q '^# talker on stderr$' <<< "$out"

# An empty group or phase (a Makefile wildcard that matched nothing) is
# skipped
rm -f "$RP_DIR"/*.start "$RP_DIR"/*.done
run_phases -j2 --par --then --seq --then --par first.t --then --par second.t
want_pass "empty groups and phases are skipped"

# A failing test fails the run, and the phase after it still runs
dummy failing "echo 1..1; echo 'not ok 1 - fails on purpose'"
dummy after "touch \$RP_DIR/after.ran; echo 1..1; echo ok 1 - after"
rm -f "$RP_DIR"/after.ran
run_phases -j2 --par failing.t --then --par after.t
if [ "$status" -eq 1 ] && grep -q '^Result: FAIL' <<< "$out" &&
   grep -q 'failing.t' <<< "$out"; then
	ok 0 "a failing test: Result: FAIL, exit 1, the test named"
else
	diag "exit $status:"
	diag "$out"
	ok 1 "a failing test: Result: FAIL, exit 1, the test named"
fi
check "a failing phase does not stop the next one" test -e "$RP_DIR/after.ran"

# A test that dies without a plan fails the run too
dummy dies "echo 'ok 1 - half'; exit 3"
run_phases -j2 --par dies.t
check "a test that dies fails the run" test "$status" -eq 1

# expect_usage DESCRIPTION REGEX ARGS... - a usage error: exit 2, REGEX in
# the message, the usage printed, no test run
expect_usage() {
	local what=$1 regex=$2
	shift 2
	rm -f "$RP_DIR"/*.start
	run_phases "$@"
	if [ "$status" -ne 2 ] || ! grep -qE -- "$regex" <<< "$out" ||
	   ! grep -q '^usage: tests/run-phases' <<< "$out" ||
	   ls "$RP_DIR"/*.start > /dev/null 2>&1; then
		diag "run-phases $* -> exit $status (want 2, /$regex/):"
		diag "$out"
		ok 1 "$what"
		return
	fi
	ok 0 "$what"
}

touch "$RP_DIR/x[1].t"
expect_usage "no arguments" "no tests"
expect_usage "an unknown option" "unknown option --bogus" --bogus --par first.t
expect_usage "a test before any group" "first.t is in no group" first.t
expect_usage "a missing test file" "missing.t is not a test file" --par missing.t
expect_usage "a glob character in a name" "glob character" --par 'x[1].t'
printf '#!/bin/bash\necho 1..0\n' > "$RP_DIR/plain.t"
expect_usage "a test that is not executable" "plain.t is not executable" --par plain.t
expect_usage "a test given twice" "first.t is given twice" \
	--par first.t --then --seq first.t
expect_usage "-j 0" "-j wants a number" -j 0 --par first.t
expect_usage "-j without a number" "-j wants a number" -j
expect_usage "-j with a word" "unknown option -jx" -jx --par first.t

tap_done
