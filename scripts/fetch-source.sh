#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-source.sh - fetch one version of a Debian linux-source-X.Y package
# from a suite the machine's apt does not list (trixie-backports, sid), and
# print the path of the kernel tarball it holds. A private sources list and
# package lists under DIR: the machine's own apt setup is left as it is.
# The package is architecture-independent: dpkg-deb -x unpacks it.
#
# usage: fetch-source.sh PACKAGE VERSION SUITE DIR
#   e.g. fetch-source.sh linux-source-7.3 7.3.4-1~bpo13+1 trixie-backports build/src

set -euo pipefail

pkg=$1
version=$2
suite=$3
dir=$(realpath -m "$4")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
tarball=$dir/root/usr/src/$pkg.tar.xz
stamp=$dir/root/.$pkg=$version

die() { echo "fetch-source: $*" >&2; exit 1; }

if [ -f "$stamp" ] && [ -f "$tarball" ]; then
	echo "$tarball"
	exit 0
fi

mkdir -p "$dir/lists/partial" "$dir/archives"
echo "deb $mirror $suite main" > "$dir/sources.list"
apt_private=(-o Dir::Etc::sourcelist="$dir/sources.list"
	     -o Dir::Etc::sourceparts=/dev/null
	     -o Dir::State::Lists="$dir/lists"
	     -o Debug::NoLocking=1)

echo "fetch-source: $pkg=$version from $suite ($mirror)" >&2
apt-get -qq "${apt_private[@]}" update >&2 ||
	die "cannot read the package lists of $suite from $mirror"
# apt's download runs as the _apt user where it can: give it the folder
chown _apt "$dir/archives" 2>/dev/null || true
(cd "$dir/archives" && apt-get -qq "${apt_private[@]}" download "$pkg=$version" >&2) ||
	die "$pkg=$version is not in $suite any more: apt-cache ${apt_private[*]} madison $pkg lists what is"
rm -rf "$dir/root"
dpkg-deb -x "$dir/archives/${pkg}_${version//:/%3a}_all.deb" "$dir/root" ||
	die "cannot unpack $dir/archives/${pkg}_${version}_all.deb"
[ -f "$tarball" ] || die "no $tarball in $pkg"
touch "$stamp"
echo "$tarball"
