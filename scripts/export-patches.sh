#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export-patches.sh - write the commits base..HEAD of a kernel tree of
# build/ back to its series in kernel-patches/: numbered patches, a cover
# letter from the series' cover-letter.txt, and the series file. BASE is
# the ref the series starts from (default base; rt for a tree of Debian's
# patches-rt, see kernel-src-rt.sh). Each patch gets its note from
# PATCHDIR/notes below its --- line (patch-notes.sh).
#
# usage: export-patches.sh KTREE PATCHDIR [BASE]

set -euo pipefail

ktree=$1
patchdir=$2
base=${3:-base}

[ -d "$ktree/.git" ] || { echo "patches: no $ktree (make kernel-src)" >&2; exit 1; }
mkdir -p "$patchdir"
rm -f "$patchdir"/*.patch
git -C "$ktree" -c user.name="rtla sched-latency authors" \
	-c user.email="sched-latency@localhost" \
	-c branch.sched-latency.description="$(cat "$patchdir/cover-letter.txt")" \
	format-patch -q --abbrev=9 --cover-letter --cover-from-description=subject \
	--base="$base" -o "$patchdir" "$base..HEAD"
(cd "$patchdir" && ls [0-9]*.patch | grep -v '^0000-' > series)
"$(dirname "$0")/patch-notes.sh" "$patchdir" "$patchdir/notes"
echo "patches: $(wc -l < "$patchdir/series") patches in $patchdir"
