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
#   baseline   the comparison with an earlier run (--baseline)
#   json       the report as JSON (--json)
#   svg        the pictures (--svg; its patch can be dropped)
#   verdict    the end every mode shares, and the exit status
#   mode       top and hist, one structure
#   dispatcher rtla sched-latency's entry point
#
# A module is a header and its .c; sched_latency_top.c and
# sched_latency_hist.c are the two sides of the mode module. rtla's own
# headers (common.h, cli.h, ...) are below every layer and not checked.
#
# Then the properties that keep the modules apart (issue 36, Why 6):
# - one header per module: each module has one header, every function a
#   header declares is defined in its own module, and every function a
#   module exports is declared in its own header (a header that holds
#   the other modules' declarations fails);
# - no include block copied across files: every header of ours a file
#   includes declares something the file uses (a block copied from
#   another file brings headers the file does not use).
# Reads the sources only: no build needed.

top=$(cd "$(dirname "$0")/../.." && pwd)
SRC=${SRC:-$top/tools/tracing/rtla/src}
. "$top/tests/tap.sh"

LAYERS=(bound core instance workload events collect output baseline json svg verdict mode dispatcher)

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

# declared FILE - the identifiers a header declares, one per line: its
# functions, macros, structs, enums and their constants, typedefs, externs
declared() {
	awk '
		/^#[ \t]*define[ \t]+[A-Za-z_]/ {
			n = $0
			sub(/^#[ \t]*define[ \t]+/, "", n)
			sub(/[^A-Za-z0-9_].*/, "", n)
			if (n !~ /^__.*_H$/)
				print n
			next
		}
		/^(struct|enum|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(\{|;)/ {
			n = $2
			sub(/[^A-Za-z0-9_].*/, "", n)
			print n
		}
		/^(typedef|extern)/ {
			n = $0
			sub(/(\[[^]]*\])?;[ \t]*$/, "", n)
			sub(/.*[^A-Za-z0-9_]/, "", n)
			if (n != "")
				print n
		}
		/^[a-z]/ && /\(/ && !/^(typedef|extern)/ {
			n = $0
			sub(/\(.*/, "", n)
			sub(/.*[^A-Za-z0-9_]/, "", n)
			if (n != "")
				print n
		}
		/^\t[A-Z][A-Z0-9_]*([ \t]*=.*)?,?([ \t]*\/\*.*)?$/ {
			n = $1
			sub(/[^A-Z0-9_].*/, "", n)
			print n
		}' "$1" | sort -u
}

# members FILE - the members of the structs a header defines, one per line
members() {
	awk '
		/^struct [A-Za-z0-9_]+ \{/ { inside = 1; next }
		/^\};/ { inside = 0 }
		inside && /;/ {
			n = $0
			sub(/\/\*.*/, "", n)
			sub(/[[;].*/, "", n)
			sub(/.*[^A-Za-z0-9_]/, "", n)
			if (n != "")
				print n
		}' "$1" | sort -u
}

# prototypes FILE - the functions a header declares (not its static inline
# ones): a line at the left margin that opens a parameter list
prototypes() {
	awk '/^[a-z]/ && /\(/ && !/^(static|typedef|extern)/ {
		n = $0
		sub(/\(.*/, "", n)
		sub(/.*[^A-Za-z0-9_]/, "", n)
		if (n != "")
			print n
	}' "$1" | sort -u
}

# defined FILE - the functions a .c file exports: a definition at the left
# margin, not static
defined() {
	awk '/^[a-z]/ && /\(/ && !/^static/ && !/;[ \t]*$/ {
		n = $0
		if (index(n, "=") && index(n, "=") < index(n, "("))
			next
		sub(/\(.*/, "", n)
		sub(/.*[^A-Za-z0-9_]/, "", n)
		if (n != "")
			print n
	}' "$1" | sort -u
}

# check_headers DIR - one header per module: prints what is wrong
check_headers() {
	local dir=$1 bad=0 f m h n fn c found

	for f in "$dir"/sched_latency*.c; do
		m=$(module "$f")
		n=0
		for h in "$dir"/sched_latency*.h; do
			[ "$(module "$h")" = "$m" ] && n=$((n + 1))
		done
		if [ "$n" -ne 1 ]; then
			echo "${f##*/}: its module ($m) has $n headers"
			bad=1
		fi
	done
	for h in "$dir"/sched_latency*.h; do
		m=$(module "$h")
		for fn in $(prototypes "$h"); do
			found=
			for c in "$dir"/sched_latency*.c; do
				[ "$(module "$c")" = "$m" ] &&
					defined "$c" | grep -qxF "$fn" && found=${c##*/}
			done
			[ -n "$found" ] && continue
			echo "${h##*/} declares $fn(), which no file of $m defines"
			bad=1
		done
	done
	for c in "$dir"/sched_latency*.c; do
		m=$(module "$c")
		for fn in $(defined "$c"); do
			found=
			for h in "$dir"/sched_latency*.h; do
				prototypes "$h" | grep -qxF "$fn" || continue
				[ "$(module "$h")" = "$m" ] && found=own || found=${h##*/}
				break
			done
			[ "$found" = own ] && continue
			echo "${c##*/} defines $fn(), declared ${found:+in $found, not }in its own header"
			bad=1
		done
	done
	return $bad
}

# check_includes DIR - each header of ours a file includes is used there:
# the file names something the header declares, or reaches a member that
# only the header's structs have (-> or .); prints what is wrong
check_includes() {
	local dir=$1 bad=0 f h m o

	for f in "$dir"/sched_latency*.[ch]; do
		for h in $(sed -n 's/^#include "\(sched_latency[^"]*\.h\)".*/\1/p' "$f"); do
			[ -f "$dir/$h" ] || continue
			[ "$dir/$h" = "${f%.c}.h" ] && continue
			grep -v '^#include' "$f" |
				grep -qwF -f <(declared "$dir/$h") && continue
			m=$(comm -23 <(members "$dir/$h") <(for o in "$dir"/sched_latency*.h; do
				[ "$o" = "$dir/$h" ] || members "$o"
			done | sort -u) | paste -sd '|')
			[ -n "$m" ] && grep -v '^#include' "$f" |
				grep -qE "(->|\.)($m)([^A-Za-z0-9_]|$)" && continue
			echo "${f##*/} includes $h and uses nothing it declares"
			bad=1
		done
	done
	return $bad
}

out=$(check_headers "$SRC")
ok $? "one header per module, with the module's functions and no other's"
[ -n "$out" ] && diag "$out"

out=$(check_includes "$SRC")
ok $? "no include block copied across files: each header included is used"
[ -n "$out" ] && diag "$out"

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

# and the properties: a catch-all header, a function declared elsewhere, a
# module with two headers, a copied include block
rm -f "$tmp"/*
printf 'int sl_core_a(void);\nint sl_events_b(void);\n' > "$tmp/sched_latency_core.h"
printf 'int sl_core_a(void)\n{\n\treturn 0;\n}\n' > "$tmp/sched_latency_core.c"
printf '#include "sched_latency_core.h"\n' > "$tmp/sched_latency_events.h"
printf 'int sl_events_b(void)\n{\n\treturn 1;\n}\n' > "$tmp/sched_latency_events.c"
out=$(check_headers "$tmp")
[ $? -ne 0 ] && grep -q "core.h declares sl_events_b()" <<< "$out" &&
	grep -q "events.c defines sl_events_b(), declared in sched_latency_core.h" <<< "$out"
ok $? "a header declaring another module's function is caught"

rm -f "$tmp"/*
printf 'int sl_core_a(void);\n' > "$tmp/sched_latency_core.h"
printf 'int sl_core_a(void)\n{\n\treturn 0;\n}\nint sl_core_b(void)\n{\n\treturn 0;\n}\n' \
	> "$tmp/sched_latency_core.c"
! check_headers "$tmp" > /dev/null
ok $? "a module function no header declares is caught"

rm -f "$tmp"/*
printf 'struct sl_output;\n#define SL_EXIT_OK 0\n' > "$tmp/sched_latency_core.h"
printf 'void sl_json(void);\n' > "$tmp/sched_latency_json.h"
printf '#include "sched_latency_core.h"\n#include "sched_latency_json.h"\n' \
	> "$tmp/sched_latency_svg.c"
printf 'int sl_svg(void)\n{\n\treturn SL_EXIT_OK;\n}\n' >> "$tmp/sched_latency_svg.c"
out=$(check_includes "$tmp")
[ $? -ne 0 ] && [ "$out" = "sched_latency_svg.c includes sched_latency_json.h and uses nothing it declares" ]
ok $? "a header included and not used (a copied include block) is caught"

tap_done
