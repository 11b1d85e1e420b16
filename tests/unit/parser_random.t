#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parser_random.t - the latency parser's state machine, from the patched
# kernel tree, against the independent reference interpreter
# (lp_reference.c) on random valid event sequences (lp_generator.c), as
# TAP (see parser.t). Built here with an explicit command line, not by
# tests/unit/Makefile. LP_RANDOM_SEEDS=<n> changes how many seeds run.

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
out=$root/build/unit
unit=$root/tests/unit
ktrace=$root/build/linux/kernel/trace
sm=$ktrace/trace_latency_parser_sm.c

if [ ! -f "$sm" ]; then
	echo "1..0 # SKIP parser source missing"
	exit 0
fi
mkdir -p "$out" || exit 1

# shim/ first: it stands in for the kernel's headers
if ! gcc -O2 -Wall -Wextra -Werror -std=gnu11 \
	-I"$unit/shim" -I"$ktrace" -I"$unit" $(pkg-config --cflags check) \
	-o "$out/test_parser_random" \
	"$unit/test_parser_random.c" "$unit/lp_reference.c" \
	"$unit/lp_generator.c" "$unit/lp_sm_run.c" "$sm" \
	$(pkg-config --libs check) >&2; then
	echo "Bail out! test_parser_random does not build"
	exit 1
fi

CK_TAP_LOG_FILE_NAME=- CK_FORK=yes CK_VERBOSITY=silent \
	exec "$root/tests/run-own-group" "$out/test_parser_random"
