#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 7.3's own rtla unit tests (tools/tracing/rtla/tests/unit, libcheck) with
# and without the series, on the host: the pristine tree's (make
# rtla-pristine) and the patched tree's (make rtla), each built by its
# own Makefile. Every check of 7.3 must be in the patched run too, under
# the same file, case and name, and pass there as it passes in the
# pristine one; what the series adds (sched-latency's suites, its option
# callbacks) is counted beside them. The two checks the series changes
# (test_opt_nano_cb, test_opt_nano_cb_unset: opt_nano_cb now takes the
# common parameters, patch 0016) are compared like the others.

top=$(cd "$(dirname "$0")/../.." && pwd)
export LC_ALL=C
. "$top/tests/tap.sh"

pristine=$top/build/rtla-pristine/tools/tracing/rtla
patched=$top/build/linux/tools/tracing/rtla

if [ ! -x "$pristine/unit_tests" ] || [ ! -x "$patched/rtla" ]; then
	echo "1..0 # SKIP no pristine unit tests or patched rtla (make rtla rtla-pristine)"
	exit 0
fi

. "$top/tests/host/libcheck.sh"
out=$(mktemp -d /tmp/rtla_unit_same.XXXXXX)
trap 'rm -rf "$out"' EXIT

make -s -C "$patched" "$patched/unit_tests" LDFLAGS="-L$shim" > "$out/build.log" 2>&1
ok $? "the patched tree's unit tests build"

# checks SIDE - SIDE's unit tests, one line per check: "FILE:CASE:TEST:ITER
# RESULT" (P, F or E), sorted; the line numbers, which the series moves,
# left out
checks() {
	local dir=${!1}

	(cd "$dir" && CK_VERBOSITY=verbose CK_FORK=yes "$top/tests/run-own-group" ./unit_tests) > "$out/$1.log" 2>&1
	sed -nE 's/^([^:]+):[0-9]+:([PFE]):([^:]+):([^:]+):([0-9]+):.*/\1:\3:\4:\5 \2/p' \
		"$out/$1.log" | sort > "$out/$1"
}
checks pristine
checks patched

n=$(wc -l < "$out/pristine")
check "the pristine unit tests ran checks ($n)" test "$n" -gt 0
failed=$(grep -v ' P$' "$out/pristine")
[ -z "$failed" ] || diag "$failed"
check "every check passes without the series" test -z "$failed"

# each of 7.3's checks, by name, with its result in the patched run
missing=$(join -v 1 <(cut -d' ' -f1 "$out/pristine") <(cut -d' ' -f1 "$out/patched"))
[ -z "$missing" ] || diag "not in the patched run:"$'\n'"$missing"
check "every check of 7.3 runs with the series" test -z "$missing"
differ=$(join "$out/pristine" "$out/patched" | awk '$2 != $3')
[ -z "$differ" ] || diag "check, pristine, patched:"$'\n'"$differ"
check "every check of 7.3 ends the same with the series" test -z "$differ"

added=$(join -v 2 <(cut -d' ' -f1 "$out/pristine") <(cut -d' ' -f1 "$out/patched") | wc -l)
failed=$(grep -v ' P$' "$out/patched")
[ -z "$failed" ] || diag "$failed"
check "the $added checks the series adds pass too" test -z "$failed" -a "$added" -gt 0
diag "$n checks of 7.3 with the same result; $added added by the series"

tap_done
