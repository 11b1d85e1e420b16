#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-src-rt.sh - make Debian's 6.12 kernel-rt tree with the backport on
# top, as Debian builds its rt flavour: a git tree whose first commit (tag
# debian) is the pristine linux-source-6.12 tarball, then one commit per
# entry of debian/patches-rt/series from the same Debian version's
# debian.tar.xz (tag rt after the last), then one commit per patch of the
# 6.12 series (kernel-patches/6.12/series). Every patch goes in with
# git am -3: a patch that does not apply stops the script, never a fuzzy
# patch(1).
#
# A patch of the series that does not apply on the rt tree is resolved once
# by hand in the tree, and the resolved commit kept, as git format-patch
# writes it, under the same name in RESOLUTIONS (kernel-rt/ of this
# repository): when the series' patch fails, its resolution is applied
# instead (git am -3 too), with a note of it. It must touch the same files
# and carry the same subject; the series itself stays as it is.
#
# usage: kernel-src-rt.sh DEST TARBALL DEBIAN_TAR PATCHDIR [RESOLUTIONS]

set -euo pipefail

dest=$(realpath -m "$1")
tarball=$2
debian_tar=$3
patchdir=$4
resolutions=${5:-}

die() { echo "kernel-src-rt: $*" >&2; exit 1; }

if [ -d "$dest/.git" ]; then
	echo "kernel-src-rt: $dest exists, keeping it (rm -rf it to start over)"
	exit 0
fi
[ -f "$tarball" ] || die "no $tarball"
[ -f "$debian_tar" ] || die "no $debian_tar"
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"

git_id=(-c user.name="rtla sched-latency authors" -c user.email="sched-latency@localhost")
g() { git -C "$dest.tmp" "${git_id[@]}" "$@"; }

echo "kernel-src-rt: unpacking $tarball"
tar xf "$tarball" -C "$dest.tmp" --strip-components=1
g init -q -b sched-latency
# no background gc of the first commit's loose objects (kernel-src.sh)
g config gc.auto 0
# Debian's tree ignores new top-level paths: add everything, forced.
g add -A -f .
g commit -q -m "Linux $(make -s -C "$dest.tmp" kernelversion) (Debian $(basename "$tarball" .tar.xz), $(basename "$debian_tar" .debian.tar.xz))"
g tag debian

# debian/patches-rt of the same version, outside the work tree
rtdir=$dest.tmp/.git/debian-patches-rt
mkdir -p "$rtdir"
tar xf "$debian_tar" -C "$rtdir" --strip-components=2 debian/patches-rt
[ -f "$rtdir/series" ] || die "no debian/patches-rt/series in $debian_tar"
n=0
while read -r patch _; do
	case "$patch" in ''|'#'*) continue ;; esac
	g am -q -3 --keep-cr "$rtdir/$patch" >/dev/null ||
		die "patches-rt/$patch does not apply (git am -3)"
	n=$((n + 1))
done < "$rtdir/series"
g tag rt
echo "kernel-src-rt: $n patches of debian/patches-rt applied (tag rt)"

# the files a patch touches and its subject, to compare a resolution with
patch_shape() {
	grep -E '^(diff --git |Subject: )' "$1" | sed 's/\[PATCH[^]]*\] //'
}

while read -r patch; do
	case "$patch" in ''|'#'*) continue ;; esac
	echo "kernel-src-rt: applying $patch"
	if g am -q -3 --keep-cr "$(realpath "$patchdir/$patch")" >"$dest.tmp/.git/am.log" 2>&1; then
		continue
	fi
	resolved=${resolutions:+$resolutions/$patch}
	if [ -n "$resolved" ] && [ -f "$resolved" ]; then
		g am --abort
		[ "$(patch_shape "$patchdir/$patch")" = "$(patch_shape "$resolved")" ] ||
			die "$resolved does not touch the files of $patch, or has another subject"
		g am -q -3 --keep-cr "$(realpath "$resolved")" ||
			die "the resolution $resolved does not apply either"
		echo "kernel-src-rt:   $patch conflicts with patches-rt: its resolution $resolved applied"
		continue
	fi
	cat "$dest.tmp/.git/am.log" >&2
	mv "$dest.tmp" "$dest"
	die "$patch does not apply on the rt tree: resolve it in $dest (git am --show-current-patch=diff, fix, git add -f, git am --continue), then keep the commit: git -C $dest format-patch -1 -o ${resolutions:-RESOLUTIONS} HEAD (under the series' name of the patch)"
done < "$patchdir/series"

mv "$dest.tmp" "$dest"
echo "kernel-src-rt: $dest ready ($(git -C "$dest" rev-list --count rt..HEAD) patches on rt, $n on debian)"
