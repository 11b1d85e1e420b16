#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist.sh - write the whole upstream-style series into DIST: the kernel
# patches of build/linux, whose last one registers rtla's sched-latency
# command, with that last patch completed by the command's sources and man
# pages from this repository; numbered, with a cover letter. Then check that
# the series applies with git am on the pristine tree.
#
# usage: dist.sh KTREE REPO DIST

set -euo pipefail

ktree=$1
repo=$2
dist=$3
work=$dist.tree
git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

die() { echo "dist: $*" >&2; exit 1; }

[ -d "$ktree/.git" ] || die "no $ktree (make kernel-src)"
last=$(git -C "$ktree" log -1 --format=%s)
case "$last" in
rtla*) ;;
*) die "the last patch of $ktree is not rtla's (\"$last\")" ;;
esac

rm -rf "$work" "$dist"
git clone -q --shared "$ktree" "$work"
git -C "$work" tag -f base "$(git -C "$ktree" rev-parse base)" >/dev/null

# The command's files join the patch that registers it, so that every patch
# of the series builds.
cp "$repo"/tools/tracing/rtla/src/sched_latency* "$work/tools/tracing/rtla/src/"
cp "$repo"/Documentation/tools/rtla/*sched-latency*.rst "$work/Documentation/tools/rtla/"
index=$work/Documentation/tools/rtla/index.rst
for page in rtla-sched-latency rtla-sched-latency-top rtla-sched-latency-hist \
	    sched-latency-bound; do
	[ -f "$work/Documentation/tools/rtla/$page.rst" ] || continue
	grep -qx "   $page" "$index" || sed -i "/^   rtla-hwnoise$/a\\   $page" "$index"
done
git -C "$work" add -f tools/tracing/rtla/src Documentation/tools/rtla
git -C "$work" "${git_id[@]}" commit -q --amend --no-edit

mkdir -p "$dist"
git -C "$work" "${git_id[@]}" \
	-c branch.sched-latency.description="$(cat "$repo/kernel-patches/cover-letter.txt")" \
	format-patch -q --cover-letter --cover-from-description=subject \
	--base=base -o "$dist" base..HEAD
(cd "$dist" && ls [0-9]*.patch | grep -v '^0000-' > series)

# The check: a pristine tree takes the series with git am.
git -C "$work" checkout -q --detach base
git -C "$work" "${git_id[@]}" am -q $(sed "s|^|$dist/|" "$dist/series") ||
	die "the series does not apply on the pristine tree"
rm -rf "$work"
echo "dist: $(wc -l < "$dist/series") patches in $dist, applied with git am on base"
