#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla-arm64.sh - cross-build the mainline tree's rtla (with this repo's
# files laid over it by make rtla) for the arm64 guest, against the
# libtracefs and libtraceevent of its root file system (arm64-root.sh).
#
# Debian's cross gcc searches the host's /usr/include, where the arm64
# multiarch headers are not: a wrapper named like the compiler puts the
# guest's root in as the sysroot, with its multiarch directories, for every
# compile and link of rtla's build and of the tools libraries it builds.
#
# usage: rtla-arm64.sh KTREE ROOT OUTDIR

set -euo pipefail

ktree=$(realpath "$1")
root=$(realpath "$2")
out=$(realpath -m "$3")
triplet=aarch64-linux-gnu
lib=$root/usr/lib/$triplet

[ -f "$lib/pkgconfig/libtracefs.pc" ] ||
	{ echo "rtla-arm64: no arm64 libtracefs in $root (make arm64-root)" >&2; exit 1; }

mkdir -p "$out/bin"
cat > "$out/bin/$triplet-gcc" <<EOF
#!/bin/sh
exec /usr/bin/$triplet-gcc --sysroot="$root" -isystem "$root/usr/include/$triplet" \\
	-B"$lib" -L"$lib" -Wl,-rpath-link,"$lib" "\$@"
EOF
chmod +x "$out/bin/$triplet-gcc"

PATH=$out/bin:$PATH \
PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$lib/pkgconfig:$root/usr/share/pkgconfig \
	make -s -C "$ktree/tools/tracing/rtla" O="$out" ARCH=arm64 \
		CROSS_COMPILE=$triplet- LD=$triplet-ld AR=$triplet-ar >/dev/null
file "$out/rtla" | grep -q 'ARM aarch64' ||
	{ echo "rtla-arm64: $out/rtla is not an arm64 binary" >&2; exit 1; }
echo "rtla-arm64: $out/rtla"
