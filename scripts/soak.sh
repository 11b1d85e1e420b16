#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - the ground-truth property test on many seeds: SEEDS (default
# 100 000 000) split over JOBS processes (default: one per CPU), each
# running test_parser_truth on its own range. Prints each range's verdict
# and tightness, then the wall time; exits 1 if any range failed.

set -u
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=${SEEDS:-100000000}
jobs=${JOBS:-$(nproc)}
out=$root/build/soak

make -s -C "$root/tests/unit" truth O="$root/build/unit" \
	KTREE="$root/build/linux" || exit 1
mkdir -p "$out"
per=$(( (seeds + jobs - 1) / jobs ))
start=$(date +%s)
echo "soak: $seeds seeds in $jobs ranges of $per, logs in $out"
pids=()
for ((j = 0; j < jobs; j++)); do
	first=$((1 + j * per))
	n=$per
	[ $((first + n - 1)) -gt "$seeds" ] && n=$((seeds - first + 1))
	LP_TRUTH_FIRST=$first LP_TRUTH_SEEDS=$n CK_TAP_LOG_FILE_NAME=- \
		CK_VERBOSITY=silent stdbuf -oL "$root/build/unit/test_parser_truth" \
		>"$out/range$j.tap" 2>&1 &
	pids+=($!)
done
fail=0
for ((j = 0; j < jobs; j++)); do
	wait "${pids[$j]}" || fail=1
	grep -c '^ok' "$out/range$j.tap" | sed "s/^/soak: range $j: /; s/\$/ tests passed/"
	grep '^not ok' "$out/range$j.tap"
	grep '^#' "$out/range$j.tap"
done
echo "soak: $seeds seeds, $(( $(date +%s) - start )) s wall time, $jobs processes"
exit $fail
