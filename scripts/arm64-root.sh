#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# arm64-root.sh - the arm64 guest's root file system (make test-arm64):
# Debian's arm64 packages of the machine's own suite, unpacked by
# debootstrap's first stage (no package is configured: that would run arm64
# code), with what the VM tests run inside (bash, cyclictest, stress-ng,
# trace-cmd, python3, kmod, a static busybox for the initramfs) and what
# rtla is cross-built against (libtracefs, libtraceevent, libc's headers).
# The few steps the packages' scripts would have done and the VM needs are
# done here: /bin/sh, the dynamic linker's cache, the mount points of the
# repository and the modules.
#
# usage: arm64-root.sh ROOT REPO
#   ROOT: where to unpack; REPO: the repository, whose path the guest binds
#   in place from the host

set -euo pipefail

root=$(realpath -m "$1")
repo=$(realpath "$2")
suite=${ARM64_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages=bash,coreutils,kmod,procps,util-linux,busybox-static,python3
packages+=,rt-tests,stress-ng,trace-cmd
packages+=,libtracefs1,libtraceevent1,libnuma1,libcap2
packages+=,libc6-dev,libtracefs-dev,libtraceevent-dev,libnuma-dev,libcap-dev
# perf, for the pseudo-NMI test's PMU interrupts (the suite's perf: older
# than the kernel, which perf_event_open's ABI allows)
packages+=,linux-perf
# A new list is a new root
stamp=$root/.arm64-root-$suite-$(md5sum <<< "$packages" | cut -c1-8)

command -v debootstrap >/dev/null ||
	{ echo "arm64-root: debootstrap is missing (make deps-arm64)" >&2; exit 1; }

if [ ! -f "$stamp" ]; then
	rm -rf "$root"
	echo "arm64-root: Debian $suite arm64 from $mirror into $root" >&2
	debootstrap --foreign --arch=arm64 --variant=minbase \
		--include="$packages" "$suite" "$root" "$mirror" >&2 ||
		{ echo "arm64-root: debootstrap failed (see $root/debootstrap/debootstrap.log)" >&2; exit 1; }
	touch "$stamp"
fi
# The first stage unpacks the required packages only; the others, the
# --include list with what it depends on, wait in its cache for the second
# stage, whose unpacking is all the VM needs of it
if [ ! -f "$stamp.base" ]; then
	for pkg in $(cat "$root/debootstrap/base"); do
		deb=$(compgen -G "$root/var/cache/apt/archives/${pkg}_*_arm64.deb" ||
		      compgen -G "$root/var/cache/apt/archives/${pkg}_*_all.deb") ||
			{ echo "arm64-root: $pkg was not downloaded" >&2; exit 1; }
		dpkg-deb --fsys-tarfile "$deb" |
			tar -C "$root" -xf - --keep-directory-symlink --no-same-owner
	done
	touch "$stamp.base"
fi

# No ld.so.cache without ldconfig's trigger: the linker's built-in paths
# then miss nothing on Debian (multiarch is in them), but a cache avoids a
# search per library
/sbin/ldconfig -r "$root" 2>/dev/null || true
# The one command of the tests that Debian installs through
# update-alternatives, in a maintainer script
[ -e "$root/usr/bin/awk" ] || ln -s mawk "$root/usr/bin/awk"
# The first stage leaves /proc a link to the host's, for its second
# stage; the guest mounts its own proc there
[ ! -L "$root/proc" ] || { rm "$root/proc" && mkdir "$root/proc"; }
# The guest's root is read-only: the directories it binds over must exist
mkdir -p "$root$repo" "$root/lib/modules"
file -L "$root/bin/busybox" | grep -q 'ARM aarch64.*statically linked' ||
	{ echo "arm64-root: $root/bin/busybox is not a static arm64 busybox" >&2; exit 1; }
echo "arm64-root: $root ($suite, $(du -sh "$root" | cut -f1))"
