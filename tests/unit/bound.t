#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bound.t - the unit tests of the sched-latency bound engine, as TAP.
#
# Run by prove from the repository root: prove tests/unit/bound.t
# libcheck writes one TAP line per test and the plan to stdout
# (CK_TAP_LOG_FILE_NAME=-); each test runs in its own process (CK_FORK),
# so a crash fails that test only, and any failure makes the binary exit 1.

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
out=$root/build/unit

# O is explicit: an O= exported for a kernel build must not move ours
if ! make -s -C "$root/tests/unit" all O="$out" >&2; then
	echo "Bail out! tests/unit does not build"
	exit 1
fi

CK_TAP_LOG_FILE_NAME=- CK_FORK=yes CK_VERBOSITY=silent exec "$out/test_bound"
