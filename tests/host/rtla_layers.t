#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The layers of rtla sched-latency's sources: each file includes only the
# headers of its own module and of the layers below it, so that the files
# form no dependency cycle. The order, lowest first:
#
#   bound      the bound engine (no rtla, no tracefs)
#   core       names, exit statuses, the parameters and the state of a run
#   instance   services: the system checks, the trace instances
#   workload   services: the command after "--" (uses instance's affinity)
#   events     the tracer's events into the per-cpu state and the engine
#   collect    the tool's life and the collection loop
#   output     the reports at the end
#   verdict    the end every mode shares, and the exit status
#   mode       top and hist, one structure
#   dispatcher rtla sched-latency's entry point
#
# A module is a header and its .c; sched_latency_top.c and
# sched_latency_hist.c are the two sides of the mode module. rtla's own
# headers (common.h, cli.h, ...) are below every layer and not checked.
# Reads only #include lines: no build needed.

top=$(cd "$(dirname "$0")/../.." && pwd)
SRC=${SRC:-$top/tools/tracing/rtla/src}
. "$top/tests/tap.sh"

LAYERS=(bound core instance workload events collect output verdict mode dispatcher)

# module - the module of a file name: sched_latency_core.c -> core
module() {
	local f=${1##*/}

	f=${f%.[ch]}
	case $f in
	sched_latency)				echo dispatcher ;;
	sched_latency_top | sched_latency_hist)	echo mode ;;
	sched_latency_*)			echo "${f#sched_latency_}" ;;
	*)					echo "" ;;
	esac
}

# layer - the rank of a module in LAYERS, or -1
layer() {
	local i

	for i in "${!LAYERS[@]}"; do
		[ "${LAYERS[$i]}" = "$1" ] && echo "$i" && return
	done
	echo -1
}

# edges - "from to" for each include of one of our headers, in directory $1
edges() {
	local f h

	for f in "$1"/sched_latency*.[ch]; do
		sed -n 's/^#include "\(sched_latency[^"]*\.h\)".*/\1/p' "$f" |
		while read -r h; do
			echo "${f##*/} $h"
		done
	done
}

# check_dir - the checks on directory $1: prints what is wrong, fails on it
check_dir() {
	local dir=$1 bad=0 from to mf mt lf lt f

	for f in "$dir"/sched_latency*.[ch]; do
		mf=$(module "$f")
		if [ "$(layer "$mf")" -lt 0 ]; then
			echo "${f##*/}: module '$mf' is in no layer"
			bad=1
		fi
	done
	while read -r from to; do
		mf=$(module "$from")
		mt=$(module "$to")
		lf=$(layer "$mf")
		lt=$(layer "$mt")
		if [ "$lt" -lt 0 ]; then
			echo "$from: includes $to, of no layer"
			bad=1
		elif [ "$lt" -gt "$lf" ]; then
			echo "$from ($mf) includes $to ($mt): upward"
			bad=1
		elif [ "$lt" -eq "$lf" ] && [ "$mf" != "$mt" ]; then
			echo "$from ($mf) includes $to ($mt): sideways in one layer"
			bad=1
		fi
	done < <(edges "$dir")
	# a cycle among modules, whatever the declared order says
	if ! edges "$dir" | while read -r from to; do
		mf=$(module "$from")
		mt=$(module "$to")
		[ "$mf" != "$mt" ] && echo "$mt $mf"
	done | tsort > /dev/null 2>&1; then
		echo "the modules include each other in a cycle"
		bad=1
	fi
	return $bad
}

out=$(check_dir "$SRC")
ok $? "no upward include, no cycle among $(ls "$SRC"/sched_latency*.[ch] | wc -l) files"
[ -n "$out" ] && diag "$out"

# every module but the engine and the mode sides has one header
missing=""
for f in "$SRC"/sched_latency*.c; do
	m=$(module "$f")
	case $m in
	mode)	[ -f "$SRC/sched_latency_mode.h" ] || missing="$missing ${f##*/}" ;;
	*)	[ -f "${f%.c}.h" ] || missing="$missing ${f##*/}" ;;
	esac
done
[ -z "$missing" ]
ok $? "one header per module"
[ -n "$missing" ] && diag "without a header:$missing"

# no header is a catch-all that others include besides their own
shared=$(grep -l '^#include "sched_latency_tool.h"' "$SRC"/sched_latency* 2>/dev/null)
[ -z "$shared" ]
ok $? "no shared include block (sched_latency_tool.h is gone)"

# the check itself fails where it should: an upward include, a cycle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "sched_latency_collect.h"\n' > "$tmp/sched_latency_core.h"
printf '#include "sched_latency_core.h"\n' > "$tmp/sched_latency_collect.h"
! check_dir "$tmp" > /dev/null
ok $? "an upward include (core -> collect) is caught"

rm -f "$tmp"/*
printf '#include "sched_latency_core.h"\n' > "$tmp/sched_latency_instance.h"
printf '#include "sched_latency_workload.h"\n' > "$tmp/sched_latency_instance.c"
printf '#include "sched_latency_instance.h"\n' > "$tmp/sched_latency_workload.h"
printf '\n' > "$tmp/sched_latency_core.h"
! check_dir "$tmp" > /dev/null
ok $? "a service reaching a later service (instance -> workload) is caught"

rm -f "$tmp"/*
printf '#include "sched_latency_foo.h"\n' > "$tmp/sched_latency_core.c"
printf '\n' > "$tmp/sched_latency_foo.h"
! check_dir "$tmp" > /dev/null
ok $? "a file of no declared layer is caught"

tap_done
