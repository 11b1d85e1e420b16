#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist.sh - write one whole series into DIST: the kernel patches of a tree
# of build/, numbered, with the cover letter of its series. When the last
# patch registers rtla's sched-latency command (the mainline series), it is
# completed by the command's sources, tests and man pages from this
# repository, so that every patch builds. The 6.12 backport has no rtla
# patch: rtla runs on older kernels, and mainline's measures 6.12 too.
# Then check that the series applies with git am on the pristine tree.
#
# usage: dist.sh KTREE PATCHDIR REPO DIST

set -euo pipefail

ktree=$1
patchdir=$2
repo=$3
dist=$4
work=$dist.tree
git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

die() { echo "dist: $*" >&2; exit 1; }

[ -d "$ktree/.git" ] || die "no $ktree (make kernel-src)"
rm -rf "$work" "$dist"
git clone -q --shared "$ktree" "$work"
git -C "$work" tag -f base "$(git -C "$ktree" rev-parse base)" >/dev/null

# The command's files join the patch that registers it, so that every patch
# of the series builds.
case "$(git -C "$ktree" log -1 --format=%s)" in
rtla*)
	rtla=$work/tools/tracing/rtla
	cp "$repo"/tools/tracing/rtla/src/sched_latency* "$rtla/src/"
	if [ -d "$repo/tools/tracing/rtla/tests" ]; then
		cp -r "$repo"/tools/tracing/rtla/tests/. "$rtla/tests/"
	fi
	cp "$repo"/Documentation/tools/rtla/*sched-latency* "$work/Documentation/tools/rtla/"
	index=$work/Documentation/tools/rtla/index.rst
	for page in rtla-sched-latency rtla-sched-latency-top rtla-sched-latency-hist \
		    sched-latency-bound; do
		[ -f "$work/Documentation/tools/rtla/$page.rst" ] || continue
		grep -qx "   $page" "$index" || sed -i "/^   rtla-hwnoise$/a\\   $page" "$index"
	done
	git -C "$work" add -f tools/tracing/rtla Documentation/tools/rtla
	git -C "$work" "${git_id[@]}" commit -q --amend --no-edit
	;;
*)
	echo "dist: $(basename "$patchdir"): no rtla patch, the series is the kernel's"
	;;
esac

mkdir -p "$dist"
git -C "$work" "${git_id[@]}" \
	-c branch.sched-latency.description="$(cat "$patchdir/cover-letter.txt")" \
	format-patch -q --cover-letter --cover-from-description=subject \
	--base=base -o "$dist" base..HEAD
(cd "$dist" && ls [0-9]*.patch | grep -v '^0000-' > series)

# The check: a pristine tree takes the series with git am.
git -C "$work" checkout -q --detach base
git -C "$work" "${git_id[@]}" am -q $(sed "s|^|$dist/|" "$dist/series") ||
	die "the series does not apply on the pristine tree"
rm -rf "$work"
echo "dist: $(wc -l < "$dist/series") patches in $dist, applied with git am on base"
