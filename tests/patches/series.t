#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One source of truth for both series: every file the mainline series adds
# is in the 6.12 backport too, byte for byte, so that the state machine,
# its cases, the tests and the documentation the backport ships are
# mainline's. The only exceptions are the files listed in ADAPTED, which
# follow an API that changed between the two kernels; their differences
# are shown. The host tests (tests/unit) build the mainline tree's files.

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

# Files whose one section describes the series it ships with: the tracer
# doc's Cost section gives each kernel's own figures, and only mainline's
# has the keyed hooks. The rest of the file is compared.
OWN_SECTION="Documentation/trace/latency-parser.rst:Cost"

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

for tree in "$main" "$lts"; do
	if [ ! -d "$tree/.git" ]; then
		echo "1..0 # SKIP no $tree (make kernel-src kernel-src-lts)"
		exit 0
	fi
done

added=$(git -C "$main" diff --name-only --diff-filter=A base..HEAD -- \
	':!tools/tracing/rtla')
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
	section=
	for own in $OWN_SECTION; do
		[ "${own%%:*}" = "$f" ] && section=${own#*:}
	done
	if [ -n "$section" ]; then
		diff <(without_section "$main/$f" "$section") \
			<(without_section "$lts/$f" "$section") | sed 's/^/# /'
		cmp -s <(without_section "$main/$f" "$section") \
			<(without_section "$lts/$f" "$section")
		ok $? "$f: the same in both series but its $section section"
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
