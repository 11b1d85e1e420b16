#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pictures of rtla sched-latency (--svg), from synthetic runs of 1 and
# 64 CPUs: rtla's unit tests (the "svg" case of sched_latency_cli.c) draw
# top's bound chart and hist's histograms with rtla's own code and keep
# them here; tests/svg_check.py parses each: valid XML, every text inside
# the canvas, a label per CPU, each stacked term as high as the JSON's
# value at the CPU's scale, a panel per variable with its maxima marked.
# rsvg-convert renders each.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

rtla_dir=$(dirname "${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}")
if [ ! -x "$rtla_dir/rtla" ] || [ ! -d "$rtla_dir/tests/unit" ]; then
	echo "1..0 # SKIP no rtla with unit tests in $rtla_dir (make rtla)"
	exit 0
fi

. "$top/tests/host/libcheck.sh"

out=$top/build/svg-test
rm -rf "$out"
mkdir -p "$out"
log=$(SL_SVG_DIR=$out CK_RUN_SUITE=sched_latency_cli CK_RUN_CASE=svg \
	make -s -C "$rtla_dir" unit-tests LDFLAGS="-L$shim" 2>&1)
status=$?
grep -E '^[^:]+:[0-9]+:[EF]:' <<< "$log" | sed 's/^/# /'
ok $status "the svg unit tests draw the charts, texts inside ($(grep -E '^[0-9]+%: Checks' <<< "$log"))"

for n in 1 64; do
	for chart in top hist; do
		f=$out/$chart-$n.svg
		if [ $chart = top ]; then
			res=$(python3 "$top/tests/svg_check.py" bounds "$f" "$out/top-$n.json" $n 2>&1)
		else
			res=$(python3 "$top/tests/svg_check.py" hist "$f" $n 2>&1)
		fi
		ok $? "$chart --svg, $n cpu(s): $(tail -1 <<< "$res" | sed "s|$out/||")"
		[ "$(wc -l <<< "$res")" -gt 1 ] && sed 's/^/# /' <<< "$res"
		if command -v rsvg-convert > /dev/null; then
			rsvg-convert "$f" -o "${f%.svg}.png" 2>&1 | sed 's/^/# /'
			ok "${PIPESTATUS[0]}" "$chart --svg, $n cpu(s): rsvg-convert renders it"
		else
			echo "ok $((++tap_count)) # SKIP no rsvg-convert (apt-get install librsvg2-bin)"
		fi
	done
done

tap_done
