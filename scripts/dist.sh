#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist.sh - write one whole series into DIST: the patches of a tree of
# build/, numbered, with the cover letter of its series. The series is
# kernel-patches/ as it is, each patch with its note below the --- line
# (patch-notes.sh): the mainline one carries rtla sched-latency's
# patches whole (sources, tests, man pages), the 6.12 backport has no rtla
# patch (rtla runs on older kernels, and mainline's measures 6.12 too).
# Then check that the series applies with git am on the pristine tree.
#
# usage: dist.sh KTREE PATCHDIR DIST

set -euo pipefail

ktree=$1
patchdir=$2
dist=$3
work=$dist.tree
git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

die() { echo "dist: $*" >&2; exit 1; }

[ -d "$ktree/.git" ] || die "no $ktree (make kernel-src)"
rm -rf "$work" "$dist"
git clone -q --shared "$ktree" "$work"
git -C "$work" tag -f base "$(git -C "$ktree" rev-parse base)" >/dev/null

mkdir -p "$dist"
git -C "$work" "${git_id[@]}" \
	-c branch.sched-latency.description="$(cat "$patchdir/cover-letter.txt")" \
	format-patch -q --abbrev=9 --cover-letter --cover-from-description=subject \
	--base=base -o "$dist" base..HEAD
(cd "$dist" && ls [0-9]*.patch | grep -v '^0000-' > series)
"$(dirname "$0")/patch-notes.sh" "$dist" "$patchdir/notes"

# The check: a pristine tree takes the series with git am.
git -C "$work" checkout -q --detach base
git -C "$work" "${git_id[@]}" am -q $(sed "s|^|$dist/|" "$dist/series") ||
	die "the series does not apply on the pristine tree"
rm -rf "$work"
echo "dist: $(wc -l < "$dist/series") patches in $dist, applied with git am on base"
