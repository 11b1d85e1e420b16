#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-source.sh - fetch one version of a Debian linux-source-X.Y package
# from a suite the machine's apt does not list (trixie-backports, sid), and
# print the path of the kernel tarball it holds. A private sources list and
# package lists under DIR: the machine's own apt setup is left as it is.
# dpkg-deb -x unpacks the package (linux-source is architecture-independent,
# linux-config is amd64's). FILE, a path inside the package, is what to
# print instead of its usr/src/PACKAGE.tar.xz.
#
# With -s, SOURCE is a source package: its debian.tar.xz (Debian's own
# debian/ folder: patches-rt, config) is fetched through a private deb-src
# list, checked against the SHA256 of the suite's Sources index, and its
# path printed.
#
# usage: fetch-source.sh PACKAGE VERSION SUITE DIR [FILE]
#        fetch-source.sh -s SOURCE VERSION SUITE DIR
#   e.g. fetch-source.sh linux-source-7.3 7.3.4-1~bpo13+1 trixie-backports build/src
#        fetch-source.sh -s linux 6.12.95-1~bpo12+1 bookworm-backports build/src-rt/debian

set -euo pipefail

source_pkg=
if [ "${1:-}" = -s ]; then
	source_pkg=1
	shift
fi
pkg=$1
version=$2
suite=$3
dir=$(realpath -m "$4")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
tarball=$dir/root/${5:-usr/src/$pkg.tar.xz}
[ -z "$source_pkg" ] || tarball=$dir/${pkg}_${version//:/%3a}.debian.tar.xz
stamp=$dir/root/.$pkg=$version
[ -z "$source_pkg" ] || stamp=$tarball.ok

die() { echo "fetch-source: $*" >&2; exit 1; }

if [ -f "$stamp" ] && [ -f "$tarball" ]; then
	echo "$tarball"
	exit 0
fi

mkdir -p "$dir/lists/partial" "$dir/archives"
echo "deb${source_pkg:+-src} $mirror $suite main" > "$dir/sources.list"
apt_private=(-o Dir::Etc::sourcelist="$dir/sources.list"
	     -o Dir::Etc::sourceparts=/dev/null
	     -o Dir::State::Lists="$dir/lists"
	     -o Debug::NoLocking=1)

echo "fetch-source: ${source_pkg:+source }$pkg=$version from $suite ($mirror)" >&2
apt-get -qq "${apt_private[@]}" update >&2 ||
	die "cannot read the package lists of $suite from $mirror"

# The source package: only its debian.tar.xz, whose URL and SHA256 apt
# reads from the Sources index; apt-helper checks the hash as it downloads.
if [ -n "$source_pkg" ]; then
	uri=$(apt-get -qq "${apt_private[@]}" source --print-uris "$pkg=$version" |
		grep -F " ${pkg}_${version}.debian.tar.xz " || true)
	[ -n "$uri" ] ||
		die "no debian.tar.xz of $pkg=$version in $suite's Sources: apt-cache ${apt_private[*]} showsrc $pkg lists what is"
	read -r url _ _ hash <<< "$uri"
	url=${url//\'/}
	case "$hash" in SHA256:*) ;; *) die "no SHA256 for $url in $suite's Sources ($hash)" ;; esac
	rm -f "$tarball" "$stamp"
	chown _apt "$dir/archives" 2>/dev/null || true
	/usr/lib/apt/apt-helper download-file "$url" "$dir/archives/${tarball##*/}" "$hash" >&2 ||
		die "cannot fetch $url (or its SHA256 is not $hash)"
	mv "$dir/archives/${tarball##*/}" "$tarball"
	echo "fetch-source: $(basename "$tarball") ${hash}" >&2
	touch "$stamp"
	echo "$tarball"
	exit 0
fi
# apt's download runs as the _apt user where it can: give it the folder
chown _apt "$dir/archives" 2>/dev/null || true
(cd "$dir/archives" && apt-get -qq "${apt_private[@]}" download "$pkg=$version" >&2) ||
	die "$pkg=$version is not in $suite any more: apt-cache ${apt_private[*]} madison $pkg lists what is"
rm -rf "$dir/root"
deb=$(ls "$dir/archives/${pkg}_${version//:/%3a}"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir/root" ||
	die "cannot unpack $dir/archives/${pkg}_${version}_*.deb"
[ -f "$tarball" ] || die "no $tarball in $pkg"
touch "$stamp"
echo "$tarball"
