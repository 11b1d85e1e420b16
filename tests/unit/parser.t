#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parser.t - the latency parser's state machine, from the patched kernel
# tree, and the reference interpreter (lp_reference.c), against the named
# event sequences of kernel/trace/trace_latency_parser_sm_cases.h, as TAP.
#
# Run by prove from the repository root: prove tests/unit/parser.t
# libcheck writes one TAP line per test and the plan to stdout
# (CK_TAP_LOG_FILE_NAME=-); each test runs in its own process (CK_FORK),
# so a crash fails that test only, and any failure makes the binary exit 1.

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
out=$root/build/unit
ktree=$root/build/linux

if [ ! -f "$ktree/kernel/trace/trace_latency_parser_sm.c" ]; then
	echo "1..0 # SKIP no patched kernel tree (make kernel-src)"
	exit 0
fi
if ! make -s -C "$root/tests/unit" parser O="$out" KTREE="$ktree" >&2; then
	echo "Bail out! the parser's host test does not build"
	exit 1
fi

CK_TAP_LOG_FILE_NAME=- CK_FORK=yes CK_VERBOSITY=silent \
	exec "$root/tests/run-own-group" "$out/test_parser"
