#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One source of truth for both series: every file the mainline series adds
# is in the 6.12 backport too, byte for byte, so that the state machine,
# its cases, the tests and the documentation the backport ships are
# mainline's. The only exceptions are the files listed in ADAPTED, which
# follow an API that changed between the two kernels; their differences
# are shown. The host tests (tests/unit) build the mainline tree's files.
#
# And one source of truth for rtla sched-latency: its files are both in
# the overlay (tools/tracing/rtla and Documentation/tools/rtla here, what
# make rtla lays over the tree) and in the mainline series' rtla patches.
# The files the series adds there, made from kernel-patches/ alone, must be
# the overlay's, file for file and byte for byte.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

main=$top/build/linux
lts=$top/build/linux-6.12

# Files of both series whose code follows a kernel API that changed:
# trace flags are TRACE_ITER(STACKTRACE) in 7.x, TRACE_ITER_STACKTRACE in
# 6.12.
ADAPTED="kernel/trace/trace_latency_parser.c"

# Files of the mainline series only: the keyed toggle hooks ("tracing:
# Jump over the toggle hooks while nothing listens") are not backported
# to 6.12 yet.
MAINLINE_ONLY="kernel/trace/trace_preemptirq_kunit.c"

# Sections of a file that describe the series it ships with: the tracer
# doc's Cost section gives each kernel's own figures, and only mainline's
# has the keyed hooks; its Architectures section names what each series
# was built and booted on, and only mainline's has the arm64 entry fix.
# The rest of the file is compared.
OWN_SECTION="Documentation/trace/latency-parser.rst:Cost
Documentation/trace/latency-parser.rst:Architectures"

# without_section FILE TITLE - FILE without its reST section TITLE: from
# the title line to the line before the next title underlined with "="
without_section() {
	awk -v t="$2" '
		{ line[NR] = $0 }
		END {
			for (i = 1; i < NR; i++)
				if (line[i] == t && line[i + 1] ~ /^=+$/)
					break
			for (j = i + 2; j < NR; j++)
				if (line[j] != "" && line[j + 1] ~ /^=+$/)
					break
			if (j >= NR)
				j = NR + 1
			if (i >= NR)
				j = i
			for (k = 1; k <= NR; k++)
				if (k < i || k >= j)
					print line[k]
		}' "$1"
}

# The rtla files of the overlay: rtla is mainline's only (the backport has
# no rtla patch), and its man pages are rtla's.
OVERLAY="tools/tracing/rtla Documentation/tools/rtla"

# overlay_of_series PATCHDIR DEST [DIRS] - write into DEST the files the
# series of PATCHDIR adds under DIRS (default OVERLAY; "." for all),
# applying its patches in order to those files only; print their paths
overlay_of_series() {
	local patchdir=$1 dest=$2 dirs=${3:-$OVERLAY} files patch dir
	local -a include=()

	files=$(sed "s|^|$patchdir/|" "$patchdir/series" | xargs cat | awk '
		/^diff --git / { f = substr($4, 3) }
		/^new file mode / { live[f] = 1 }
		/^deleted file mode / { delete live[f] }
		END { for (f in live) print f }' | sort)
	for f in $files; do
		for dir in $dirs; do
			if [ "$dir" = . ] || [[ "$f" == "$dir"/* ]]; then
				include+=("--include=$f")
				break
			fi
		done
	done
	[ ${#include[@]} -gt 0 ] || return 0
	while read -r patch; do
		(cd "$dest" && git apply "${include[@]}" "$patchdir/$patch") ||
			echo "# $patch does not apply to the overlay's files"
	done < "$patchdir/series"
	(cd "$dest" && find . -type f | sed 's|^\./||' | sort)
}

made=$(mktemp -d)
trap 'rm -rf "$made"' EXIT
from_series=$(overlay_of_series "$top/kernel-patches" "$made")
overlay=$(cd "$top" && find $OVERLAY -type f | sort)
[ -n "$from_series" ]
ok $? "the mainline series adds rtla's files ($(wc -w <<< "$from_series"))"
diff <(echo "$overlay") <(echo "$from_series") | grep '^[<>]' |
	sed 's/^</# only in the overlay:/; s/^>/# only in the series:/'
[ "$overlay" = "$from_series" ]
ok $? "the overlay has the files the series' rtla patches add, no more"
differ=
for f in $from_series; do
	[ -f "$top/$f" ] || continue
	cmp -s "$made/$f" "$top/$f" || differ="$differ $f"
done
for f in $differ; do
	diff -u "$made/$f" "$top/$f" | head -20 | sed 's/^/# /'
done
[ -z "$differ" ]
ok $? "each of them is the series' byte for byte${differ:+ (differ:$differ)}"

# The 6.1 backport (Debian 12's kernel-rt, make test-distro) is the 6.12
# one on older APIs: every file the 6.12 series adds, it adds too, the same
# but for the lines of DISTRO_ADAPTED, which follow 6.1's API: __assign_str()
# with its source, struct_size() for struct_size_t(), sched_clock() for
# sched_clock_noinstr().
# Compared from the patches, so that no 6.1 tree is needed.
DISTRO_ADAPTED="kernel/trace/trace_latency_parser.c include/trace/events/latency_parser.h"
DISTRO_MAX_LINES=20

lts_files=$(mkdir "$made/lts" && overlay_of_series "$top/kernel-patches/6.12" "$made/lts" .)
distro_files=$(mkdir "$made/distro" && overlay_of_series "$top/kernel-patches/6.1" "$made/distro" .)
diff <(echo "$lts_files") <(echo "$distro_files") | grep '^[<>]' |
	sed 's/^</# only in 6.12:/; s/^>/# only in 6.1:/'
[ -n "$distro_files" ] && [ "$lts_files" = "$distro_files" ]
ok $? "the 6.1 backport adds the files the 6.12 one does ($(wc -w <<< "$distro_files"))"
for f in $distro_files; do
	[ -f "$made/lts/$f" ] || continue
	if grep -qxF "$f" <<< "${DISTRO_ADAPTED// /$'\n'}"; then
		lines=$(diff "$made/lts/$f" "$made/distro/$f" | grep -c '^[<>]')
		diff "$made/lts/$f" "$made/distro/$f" | sed 's/^/# /'
		[ "$lines" -le "$DISTRO_MAX_LINES" ]
		ok $? "$f: adapted to 6.1 in $lines lines"
	else
		cmp -s "$made/lts/$f" "$made/distro/$f"
		ok $? "$f: the same in the 6.12 and 6.1 backports"
	fi
done
# On 6.1-rt, tif_need_resched() is TIF_NEED_RESCHED or TIF_NEED_RESCHED_LAZY:
# a probe reading it would take a lazy wakeup (a SCHED_OTHER task's, which
# preempts no one until the next tick) for the model's need_resched, and
# open PAIEs that do not exist. Every series reads TIF_NEED_RESCHED
# through lp_ti_need_resched(), whose KUnit case (latency_parser_kunit.t)
# sets the lazy flag; here, that no probe reads it another way.
mkdir "$made/mainline" && overlay_of_series "$top/kernel-patches" "$made/mainline" kernel >/dev/null
for series in mainline:mainline 6.12:lts 6.1:distro; do
	src=$made/${series#*:}/kernel/trace/trace_latency_parser.c
	[ -f "$src" ] && ! grep -nE 'tif_need_resched\(\)|thread_flag\(TIF_NEED_RESCHED' "$src" |
		sed 's/^/# /' | grep . &&
		[ "$(grep -c 'lp_ti_need_resched(current_thread_info())' "$src")" -eq 2 ]
	ok $? "${series%%:*}: the probes read need_resched through lp_ti_need_resched() alone"
done

for tree in "$main" "$lts"; do
	if [ ! -d "$tree/.git" ]; then
		skip "the files both series add" "no $tree (make kernel-src kernel-src-lts)"
		tap_done
	fi
done

added=$(git -C "$main" diff --name-only --diff-filter=A base..HEAD -- \
	':!tools/tracing/rtla' ':!Documentation/tools/rtla')
[ -n "$added" ]
ok $? "the mainline series adds files ($(wc -w <<< "$added"))"

for f in $added; do
	if grep -qxF "$f" <<< "${MAINLINE_ONLY// /$'\n'}"; then
		[ ! -f "$lts/$f" ]
		ok $? "$f: mainline only"
		continue
	fi
	if [ ! -f "$lts/$f" ]; then
		ok 1 "$f: in the 6.12 backport too"
		continue
	fi
	sections=
	for own in $OWN_SECTION; do
		[ "${own%%:*}" = "$f" ] && sections+=" ${own#*:}"
	done
	if [ -n "$sections" ]; then
		main_rest=$(cat "$main/$f")
		lts_rest=$(cat "$lts/$f")
		for section in $sections; do
			main_rest=$(without_section /dev/stdin "$section" <<< "$main_rest")
			lts_rest=$(without_section /dev/stdin "$section" <<< "$lts_rest")
		done
		diff <(echo "$main_rest") <(echo "$lts_rest") | sed 's/^/# /'
		[ "$main_rest" = "$lts_rest" ]
		ok $? "$f: the same in both series but its sections:$sections"
		continue
	fi
	if grep -qxF "$f" <<< "${ADAPTED// /$'\n'}"; then
		lines=$(diff "$main/$f" "$lts/$f" | grep -c '^[<>]')
		diff "$main/$f" "$lts/$f" | sed 's/^/# /'
		# an adaptation to an API is a few lines, not a fork
		[ "$lines" -le 8 ]
		ok $? "$f: adapted to 6.12 in $lines lines"
	else
		cmp -s "$main/$f" "$lts/$f"
		ok $? "$f: the same in both series"
	fi
done

tap_done
