#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-src.sh - make a kernel tree of build/: a git tree whose first
# commit is the pristine kernel source and whose next commits are the
# patches of a series (kernel-patches/ or kernel-patches/6.12), one
# commit per patch, applied with git am in the order of its series file.
#
# usage: kernel-src.sh DEST PATCHDIR SOURCE
#   SOURCE a tarball: Debian's linux-source-X.Y.tar.xz, unpacked.
#   SOURCE a tree: that tree is copied (a git tree is cloned at its HEAD).

set -euo pipefail

dest=$1
patchdir=$2
ksrc=$3

die() { echo "kernel-src: $*" >&2; exit 1; }

if [ -d "$dest/.git" ]; then
	echo "kernel-src: $dest exists, keeping it (rm -rf it to start over)"
	exit 0
fi
rm -rf "$dest" "$dest.tmp"
mkdir -p "$(dirname "$dest")"

git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")

if [ -f "$ksrc" ]; then
	echo "kernel-src: unpacking $ksrc"
	mkdir -p "$dest.tmp"
	tar xf "$ksrc" -C "$dest.tmp" --strip-components=1
	base_msg="Linux $(make -s -C "$dest.tmp" kernelversion) (Debian $(basename "$ksrc" .tar.xz))"
elif [ -d "$ksrc/.git" ] || git -C "$ksrc" rev-parse --git-dir >/dev/null 2>&1; then
	echo "kernel-src: cloning $ksrc at HEAD"
	git clone -q --shared "$ksrc" "$dest.tmp"
	git -C "$dest.tmp" checkout -q -B sched-latency
	git -C "$dest.tmp" tag -f base >/dev/null
	base_msg=
elif [ -f "$ksrc/Makefile" ] && [ -d "$ksrc/kernel" ]; then
	echo "kernel-src: copying $ksrc"
	mkdir -p "$dest.tmp"
	rsync -a --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' "$ksrc"/ "$dest.tmp"/
	base_msg="Linux $(make -s -C "$dest.tmp" kernelversion) (from $ksrc)"
else
	die "KSRC=$ksrc is not a kernel source tree"
fi

if [ -n "$base_msg" ]; then
	echo "kernel-src: committing the pristine tree"
	git -C "$dest.tmp" init -q -b sched-latency
	# The first commit leaves 90 000 loose objects: git's automatic gc
	# would pack them in the background, minutes of a CPU that the kernel's
	# compile, started next, wants
	git -C "$dest.tmp" config gc.auto 0
	# A tarball tree can carry a .gitignore that hides tracked files of the
	# source itself (debian/): add everything, forced.
	git -C "$dest.tmp" add -A -f .
	git -C "$dest.tmp" "${git_id[@]}" commit -q -m "$base_msg"
	git -C "$dest.tmp" tag base
fi

if [ -f "$patchdir/series" ]; then
	while read -r patch; do
		case "$patch" in ''|'#'*) continue ;; esac
		echo "kernel-src: applying $patch"
		git -C "$dest.tmp" "${git_id[@]}" am -q --keep-cr "$(realpath "$patchdir/$patch")" ||
			die "$patch does not apply"
	done < "$patchdir/series"
fi

mv "$dest.tmp" "$dest"
echo "kernel-src: $dest ready ($(git -C "$dest" rev-list --count base..HEAD) patches on base)"
