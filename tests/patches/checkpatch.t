#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every patch of both series passes checkpatch.pl --strict with no error and
# is listed in its series file, and each kernel tree of build/ holds its
# series: kernel-patches/ in build/linux, kernel-patches/6.12 in
# build/linux-6.12. The rtla patch is checked as upstream gets it too, in
# the make dist form (build/dist/mainline), with our sources in it.
# Warnings are counted and shown, not failed.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

# check_patch KTREE PATCH LABEL - checkpatch --strict with KTREE's script
check_patch() {
	local out errors warnings

	out=$(cd "$1" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$2" 2>&1)
	errors=$(grep -c '^ERROR:' <<< "$out")
	warnings=$(grep -c '^\(WARNING\|CHECK\):' <<< "$out")
	[ "$errors" -eq 0 ] || sed 's/^/# /' <<< "$out"
	[ "$warnings" -eq 0 ] || grep '^\(WARNING\|CHECK\):' <<< "$out" | sed 's/^/# /'
	ok "$errors" "$3: checkpatch --strict, no error ($warnings warnings and checks)"
}

# check_series NAME KTREE PATCHDIR
check_series() {
	local name=$1 ktree=$2 patches=$3 patch base listed applied

	if [ ! -x "$ktree/scripts/checkpatch.pl" ]; then
		skip "the $name series" "no $ktree (make kernel-src, kernel-src-lts)"
		return
	fi
	for patch in "$patches"/[0-9]*.patch; do
		base=$(basename "$patch")
		case "$base" in 0000-*) continue ;; esac
		check_patch "$ktree" "$patch" "$name/$base"
		grep -qxF "$base" "$patches/series"
		ok $? "$name/$base is in series"
	done
	listed=$(grep -vc '^#' "$patches/series" 2>/dev/null || echo 0)
	applied=$(git -C "$ktree" rev-list --count base..HEAD)
	[ "$listed" = "$applied" ]
	ok $? "$ktree holds the $listed patches of $name ($applied commits on base)"
}

check_series mainline "$top/build/linux" "$top/kernel-patches"
check_series 6.12 "$top/build/linux-6.12" "$top/kernel-patches/6.12"

dist_rtla=$(ls "$top"/build/dist/mainline/[0-9]*-rtla-*.patch 2>/dev/null | tail -1)
if [ -n "$dist_rtla" ]; then
	check_patch "$top/build/linux" "$dist_rtla" "make dist's $(basename "$dist_rtla")"
else
	skip "the rtla patch of make dist" "no build/dist/mainline (make dist)"
fi

tap_done
