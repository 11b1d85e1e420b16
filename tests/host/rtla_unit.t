#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla's libcheck unit tests (tools/tracing/rtla/tests/unit, mainline's
# own and sched-latency's) built and run with rtla's own Makefile, on the
# host: sched-latency's option parsing and reports, its bound engine
# (against a brute force: sound, and tight to the grid), and mainline's
# tools unchanged with sched-latency linked in.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

rtla_dir=$(dirname "${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}")
if [ ! -x "$rtla_dir/rtla" ] || [ ! -d "$rtla_dir/tests/unit" ]; then
	echo "1..0 # SKIP no rtla with unit tests in $rtla_dir (make rtla)"
	exit 0
fi

. "$top/tests/host/libcheck.sh"

# the make in a process group of its own: libcheck's runner, on a Ctrl-C,
# sends the SIGINT again to its whole group
out=$("$top/tests/run-own-group" make -s -C "$rtla_dir" unit-tests LDFLAGS="-L$shim" 2>&1)
status=$?
summary=$(grep -E '^[0-9]+%: Checks: ' <<< "$out" | tail -1)
grep -E '^[^:]+:[0-9]+:[EF]:' <<< "$out" | sed 's/^/# /'
ok $status "rtla's unit tests build and pass ($summary)"
grep -qE '^100%: Checks: [1-9][0-9]*, Failures: 0, Errors: 0' <<< "$summary"
ok $? "every check passed"
grep -q 'libcheck is missing' <<< "$out"
ok $((!$?)) "libcheck was found (the tests did not skip)"
grep -qiE 'sched.latency' <<< "$(grep -E '^Running suite|^[^ ]+:' <<< "$out"; \
	ls "$rtla_dir"/tests/unit)"
ok $? "sched-latency's unit tests are among them"
# the engine's brute force both ways: sound everywhere, tight to the grid
for t in test_random_exact test_random_rounded test_random_defaults \
	 test_random_short_horizon test_random_read_between; do
	grep -qE "^tests/unit/sched_latency_bound\.c:[0-9]+:P:[^:]+:$t:" <<< "$out"
	ok $? "the bound engine's $t passed"
done

tap_done
