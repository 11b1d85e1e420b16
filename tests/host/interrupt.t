#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Ctrl-C of a test run stops it cleanly: make reports an interrupt, and
# the Ctrl-C reaches each process once. The trap it guards against:
# libcheck's runner, in fork mode, answers a SIGINT by sending it again to
# its whole process group, which was make's, prove's and every test's beside
# it (make then reported "wait: No child processes").
# tests/run-own-group gives each libcheck binary a group of its own and
# passes the signal on; tests/run-phases says it was stopped and ends by the
# signal.
#
# A Ctrl-C is a SIGINT to the terminal's foreground process group: here, a
# session of its own (setsid) that holds make, or run-own-group alone, and a
# sibling that counts the SIGINTs it gets.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

dir=$(mktemp -d)
trap 'pkill -f "$dir/" 2>/dev/null; rm -rf "$dir"' EXIT
group=$top/tests/run-own-group

if ! gcc -O2 -Wall -Werror -o "$dir/ck_sleeper" "$top/tests/host/ck_sleeper.c" \
	$(pkg-config --cflags --libs check) 2>"$dir/build.log"; then
	echo "Bail out! ck_sleeper does not build: $(head -3 "$dir/build.log")"
	exit 1
fi

# wait_for FILE - up to 20 s for FILE to appear
wait_for() {
	for _ in $(seq 200); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# ctrl_c NAME CMD... - run CMD in a session of its own beside a sibling
# that counts the SIGINTs it gets, SIGINT the session's process group once
# ck_sleeper's test has started (the mark $dir/NAME.mark), and wait: its
# exit status in $status, its output in $dir/NAME.out, the sibling's pid in
# $dir/NAME.sib
ctrl_c() {
	local name=$1 pid
	shift
	# a job started with & has SIGINT ignored, and passes that on: undone
	env --default-signal=INT,QUIT setsid -w bash -c '
		perl -e '\''my $n = 0; $SIG{INT} = sub { $n++ };
			$SIG{TERM} = sub { open(my $f, ">", $ARGV[0]); print $f "$n\n"; exit };
			sleep 1 while 1;'\'' "$0.ints" >/dev/null 2>&1 &
		echo $! > "$0"; exec "$@"' "$dir/$name.sib" "$@" > "$dir/$name.out" 2>&1 &
	pid=$!
	if wait_for "$dir/$name.mark"; then
		kill -INT -- -"$pid"
	else
		echo "# $name: the libcheck test did not start"
		kill -KILL -- -"$pid"
	fi
	wait "$pid"
	status=$?
}

# left NAME - the pids of ck_sleeper still running from run NAME
left() {
	pgrep -f "$dir/ck_sleeper $dir/$1.mark"
}

# sibling_ints NAME - how many SIGINTs the sibling of run NAME got (it ends)
sibling_ints() {
	local sib

	sib=$(cat "$dir/$1.sib" 2>/dev/null) && [ -n "$sib" ] || return
	kill -TERM "$sib" 2>/dev/null
	wait_for "$dir/$1.sib.ints" && cat "$dir/$1.sib.ints"
}

# run-own-group on its own: the exit status is the command's
"$group" sh -c 'exit 3'
ok $(($? != 3)) "run-own-group: the command's exit status (3) is its own"
"$group" sh -c 'kill -SEGV $$'
ok $(($? != 139)) "run-own-group: a command killed by SIGSEGV gives 139, as a shell says"
"$group" "$dir/no-such-command" 2>/dev/null
ok $(($? != 127)) "run-own-group: a command that is not there gives 127"
"$group" 2>/dev/null
ok $(($? != 2)) "run-own-group: no command is a usage error (2)"

# A Ctrl-C of libcheck in its own group: the sibling lives, run-own-group
# ends by SIGINT (libcheck turned it into SIGKILL), no test is left
ctrl_c alone "$group" "$dir/ck_sleeper" "$dir/alone.mark"
ok $(($status != 130)) "a Ctrl-C of run-own-group ends it by SIGINT (status $status)"
ints=$(sibling_ints alone)
ok $((ints != 1)) "libcheck's answer to the Ctrl-C does not reach the process group it was started from (its sibling got ${ints:-no} SIGINTs, 1 the Ctrl-C)"
sleep 0.5
ok $(($(left alone | wc -l) != 0)) "no libcheck runner or test is left running"

# The same under make and run-phases, as make check runs them
cat > "$dir/sleeper.t" <<EOF
#!/bin/bash
echo 1..1
exec "$group" "$dir/ck_sleeper" "$dir/make.mark"
EOF
chmod +x "$dir/sleeper.t"
printf 'all:\n\tMAKEFLAGS= %s -j2 --seq %s\n' "$top/tests/run-phases" \
	"$dir/sleeper.t" > "$dir/Makefile"
ctrl_c make make --no-print-directory -C "$dir"
ok $(($status != 130)) "a Ctrl-C of make ends it by SIGINT (status $status)"
grep -qE '^make(\[[0-9]+\])?: \*\*\* \[Makefile:[0-9]*: all\] Interrupt$' "$dir/make.out"
ok $? "make reports the interrupt"
! grep -q 'No child processes' "$dir/make.out"
ok $? "make does not report 'wait: No child processes'"
grep -q '^run-phases: stopped by SIGINT before the tests ended$' "$dir/make.out"
ok $? "run-phases says it was stopped"
ints=$(sibling_ints make)
ok $((ints != 1)) "make's process group got one SIGINT, the Ctrl-C (${ints:-no} SIGINTs)"
sed 's/^/# /' "$dir/make.out"

tap_done
