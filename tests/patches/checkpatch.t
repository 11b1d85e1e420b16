#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every patch of kernel-patches/ passes checkpatch.pl --strict with no error
# and is listed in series; build/linux (make kernel-src) holds the series.

top=$(cd "$(dirname "$0")/../.." && pwd)
ktree=$top/build/linux
patches=$top/kernel-patches
. "$top/tests/tap.sh"

if [ ! -x "$ktree/scripts/checkpatch.pl" ]; then
	echo "1..0 # SKIP no $ktree (make kernel-src)"
	exit 0
fi

for patch in "$patches"/[0-9]*.patch; do
	name=$(basename "$patch")
	case "$name" in 0000-*) continue ;; esac
	out=$(cd "$ktree" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q "$patch" 2>&1)
	errors=$(grep -c '^ERROR:' <<< "$out")
	[ "$errors" -eq 0 ] || sed 's/^/# /' <<< "$out"
	ok "$errors" "$name: checkpatch --strict, no error"
	grep -qxF "$name" "$patches/series"
	ok $? "$name is in series"
done

listed=$(grep -vc '^#' "$patches/series" 2>/dev/null || echo 0)
applied=$(git -C "$ktree" rev-list --count base..HEAD)
[ "$listed" = "$applied" ]
ok $? "build/linux holds the $listed patches of series ($applied commits on base)"

tap_done
