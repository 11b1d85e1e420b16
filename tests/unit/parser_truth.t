#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parser_truth.t - the latency parser's state machine, from the patched
# kernel tree, and the rtla bound engine, end to end against the ground
# truth of a simulated CPU (lp_oracle.c), as TAP. LP_TRUTH_SEEDS=<n> and
# LP_TRUTH_FIRST=<s> choose the seeds (default 1..1000000).

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
out=$root/build/unit
ktrace=$root/build/linux/kernel/trace

if [ ! -f "$ktrace/trace_latency_parser_sm.c" ]; then
	echo "1..0 # SKIP parser source missing"
	exit 0
fi
# O is explicit: an O= exported for a kernel build must not move ours
if ! make -s -C "$root/tests/unit" truth O="$out" KTREE="$root/build/linux" >&2; then
	echo "Bail out! test_parser_truth does not build"
	exit 1
fi

CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent \
	exec "$root/tests/run-own-group" "$out/test_parser_truth"
