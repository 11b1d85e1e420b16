#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parser_fast.t - the latency parser's fast path (lp_fast_toggle()) against
# its general path (lp_sm_parse()), event for event, on generated and on
# every short sequence from a few states (test_parser_fast.c), as TAP.
# LP_FAST_SEEDS=<n> changes how many generated sequences run.

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
out=$root/build/unit
ktree=$root/build/linux

if [ ! -f "$ktree/kernel/trace/trace_latency_parser_sm.c" ]; then
	echo "1..0 # SKIP no patched kernel tree (make kernel-src)"
	exit 0
fi
# O is explicit: an O= exported for a kernel build must not move ours
if ! make -s -C "$root/tests/unit" fast O="$out" KTREE="$ktree" >&2; then
	echo "Bail out! test_parser_fast does not build"
	exit 1
fi

CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent \
	exec "$root/tests/run-own-group" "$out/test_parser_fast"
