#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-build.sh - prove that every patch of the whole series (make dist)
# builds on its own: apply the patches one by one with git am on the
# pristine tree, and after each build what it touches (the kernel with
# build/linux's .config, rtla, or nothing for a documentation patch).
# A kernel build per patch: slow from a cold compiler cache.
#
# usage: bisect-build.sh KTREE DIST WORK [FROM]
#   FROM: the number of the first patch to build (default 1). The patches
#   before it are applied but not built, each reported as a skip: for a
#   series whose first patches an earlier full run built unchanged.

set -euo pipefail

ktree=$1
dist=$2
work=$3
from=${4:-1}
jobs=${JOBS:-$(($(nproc) + 1))}
git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

die() { echo "bisect-build: $*" >&2; exit 1; }

[ -f "$dist/series" ] || die "no $dist/series (make dist)"
[ -f "$ktree/.config" ] || die "no $ktree/.config (make kernel-config)"
[[ $from =~ ^[1-9][0-9]*$ ]] || die "FROM must be a patch number from 1 on, not \"$from\""

rm -rf "$work"
git clone -q --shared "$ktree" "$work"
git -C "$work" checkout -q --detach "$(git -C "$ktree" rev-parse base)"
# The compiler cache keys on paths relative to the tree being built.
export CCACHE_BASEDIR=$work

# built WHAT CMD... - run one build of the current patch, quietly; its
# log's tail on failure
built() {
	local what=$1

	shift
	if "$@" >"$work.log" 2>&1; then
		return 0
	fi
	tail -20 "$work.log" >&2
	echo "not ok $n - $patch: $what does not build"
	failed=$((failed + 1))
	return 1
}

n=0
failed=0
while read -r patch; do
	n=$((n + 1))
	git -C "$work" "${git_id[@]}" am -q "$dist/$patch" ||
		die "$patch does not apply"
	if [ "$n" -lt "$from" ]; then
		echo "ok $n - $patch: applied # skip not built (FROM=$from)"
		continue
	fi
	files=$(git -C "$work" diff --name-only HEAD~1 HEAD)
	what=
	if grep -qv -e '^Documentation/' -e '^tools/' -e '^MAINTAINERS$' <<<"$files"; then
		cp "$ktree/.config" "$work/.config"
		built "the kernel" make -s -C "$work" ARCH=x86_64 CC="ccache gcc" \
			LOCALVERSION= -j"$jobs" olddefconfig bzImage modules || continue
		what+=" kernel"
	fi
	if grep -q '^tools/tracing/rtla/' <<<"$files"; then
		built rtla make -s -C "$work/tools/tracing/rtla" || continue
		what+=" rtla"
	fi
	what=${what# }
	echo "ok $n - $patch: builds (${what:-documentation only})"
done < "$dist/series"

rm -rf "$work" "$work.log"
[ "$from" -le "$n" ] || die "FROM=$from: the series has $n patches"
echo "bisect-build: $n patches, $((n - from + 1)) checked, $failed failed"
[ "$failed" -eq 0 ]
