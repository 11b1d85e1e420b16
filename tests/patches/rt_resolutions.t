#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-rt/ holds the patches of the 6.12 series resolved by hand for
# Debian's kernel-rt (patches-rt changes the code they touch): make
# kernel-src-rt applies each in place of the series' patch of the same
# name. A resolution is that patch with its conflicting hunks moved, not
# another change: the same subject and message, the same files, and the
# same lines added or removed but for the few the conflict changed (shown).

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

lts=$top/kernel-patches/6.12
rt=$top/kernel-rt

# the commit message of a patch: from its Subject to the --- line, the
# [PATCH n/m] prefix dropped
message() {
	sed -n '/^Subject: /,/^---$/p' "$1" | sed 's/^Subject: \[PATCH[^]]*\] /Subject: /'
}

# the lines a patch adds or removes, in order
changes() {
	sed -n '/^---$/,$p' "$1" | grep -E '^[-+]' | grep -vE '^(---|\+\+\+) '
}

resolutions=$(ls "$rt"/[0-9]*.patch 2>/dev/null)
if [ -z "$resolutions" ]; then
	echo "1..0 # SKIP no resolution in kernel-rt/"
	exit 0
fi

for res in $resolutions; do
	name=$(basename "$res")
	orig=$lts/$name
	grep -qxF "$name" "$lts/series"
	ok $? "$name: a patch of kernel-patches/6.12/series"
	[ -f "$orig" ] || continue
	cmp -s <(message "$orig") <(message "$res")
	ok $? "$name: the same subject and message"
	cmp -s <(grep '^diff --git ' "$orig") <(grep '^diff --git ' "$res")
	ok $? "$name: the same files"
	moved=$(diff <(changes "$orig") <(changes "$res") | grep -c '^[<>]')
	diff <(changes "$orig") <(changes "$res") | sed 's/^/# /'
	# a resolution moves a hunk or two, it does not rewrite the patch
	[ "$moved" -le 4 ]
	ok $? "$name: the same changes but $moved lines"
done

tap_done
