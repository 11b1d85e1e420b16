#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-build.sh - prove that every patch of the whole series (make dist)
# builds on its own: apply the patches one by one with git am on the
# pristine tree, and after each build what it touches (the kernel with
# build/linux's .config, rtla, or nothing for a documentation patch).
# A kernel build per patch: slow from a cold compiler cache.
#
# KARCH=arm64 builds the kernel patches for arm64 with Debian's cross
# compiler and KCONFIG's .config (make kernel-arm64's), and not rtla (the
# same C on every architecture; make rtla-arm64 cross-builds the last
# state). Not a whole Image per patch: on two cores that is about half an
# hour for each patch that changes a header every file includes (0001,
# 0002, 0005). What is compiled is kernel/ and arch/arm64/ (entry, KVM),
# where every C file of the series is and where every header it changes
# is included, as make cross-build does; the whole Image of the last
# patch is make kernel-arm64's, booted by make test-arm64.
#
# usage: [KARCH=arm64 KCONFIG=CONFIG] bisect-build.sh KTREE DIST WORK [FROM]
#   FROM: the number of the first patch to build (default 1). The patches
#   before it are applied but not built, each reported as a skip: for a
#   series whose first patches an earlier full run built unchanged.

set -euo pipefail

ktree=$1
dist=$2
work=$3
from=${4:-1}
jobs=${JOBS:-$(($(nproc) + 1))}
karch=${KARCH:-x86_64}
kconfig=${KCONFIG:-$ktree/.config}
git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

die() { echo "bisect-build: $*" >&2; exit 1; }

[ -f "$dist/series" ] || die "no $dist/series (make dist)"
[ -f "$kconfig" ] || die "no $kconfig (make kernel-config, or kernel-arm64's)"
case $karch in
x86_64)	kmake=(ARCH=x86_64 CC="ccache gcc")
	ktargets=(bzImage modules) ;;
arm64)	command -v aarch64-linux-gnu-gcc >/dev/null ||
		die "aarch64-linux-gnu-gcc is missing (make deps)"
	kmake=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
		CC="ccache aarch64-linux-gnu-gcc")
	ktargets=(kernel/ arch/arm64/) ;;
*)	die "KARCH must be x86_64 or arm64, not \"$karch\"" ;;
esac
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
		cp "$kconfig" "$work/.config"
		built "the kernel" make -s -C "$work" "${kmake[@]}" \
			LOCALVERSION= -j"$jobs" olddefconfig "${ktargets[@]}" || continue
		what+=" kernel"
		[ "$karch" = x86_64 ] || what+=" (${ktargets[*]})"
	fi
	if [ "$karch" = x86_64 ] && grep -q '^tools/tracing/rtla/' <<<"$files"; then
		built rtla make -s -C "$work/tools/tracing/rtla" || continue
		what+=" rtla"
	fi
	what=${what# }
	if [ -z "$what" ] && grep -q '^tools/tracing/rtla/' <<<"$files"; then
		echo "ok $n - $patch: rtla only # skip built patch by patch on x86_64"
		continue
	fi
	echo "ok $n - $patch: builds (${what:-nothing to compile: documentation, selftests})"
done < "$dist/series"

rm -rf "$work" "$work.log"
[ "$from" -le "$n" ] || die "FROM=$from: the series has $n patches"
echo "bisect-build: $karch: $n patches, $((n - from + 1)) checked, $failed failed"
[ "$failed" -eq 0 ]
