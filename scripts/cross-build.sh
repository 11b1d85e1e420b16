#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cross-build.sh - compile the mainline series for another architecture
# with Debian's cross compiler: the architecture's defconfig with the
# series' fragments (PREEMPT_RT, the tracers, the keyed hooks, the KUnit
# suites), then the directories the series touches or whose every file
# includes what it touches (preempt.h, irqflags.h, hardirq.h): kernel/ and
# arch/ARCH/ (entry, KVM where the defconfig has it). Not a whole vmlinux:
# on two cores that is an hour per architecture; the headers' include
# cycles that stopped an earlier series on other architectures show in
# every file.
#
# usage: cross-build.sh SRCTREE OUTDIR ARCH [TARGET...]
#   ARCH: arm64, riscv or powerpc (64-bit little endian); the options the
#   fragments ask for and the defconfig lost are an error, named.

set -euo pipefail

src=$(realpath "$1")
out=$(realpath -m "$2")
arch=$3
shift 3

top=$(cd "$(dirname "$0")/.." && pwd)

case $arch in
arm64)	cross=aarch64-linux-gnu-; defconfig=defconfig ;;
riscv)	cross=riscv64-linux-gnu-; defconfig=defconfig ;;
powerpc) cross=powerpc64le-linux-gnu-; defconfig=ppc64le_defconfig ;;
*)	echo "cross-build: no cross compiler known for ARCH=$arch" >&2; exit 2 ;;
esac
command -v "${cross}gcc" >/dev/null ||
	{ echo "cross-build: ${cross}gcc is missing (make deps installs it)" >&2; exit 1; }

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(kernel/ "arch/$arch/")

fragments=("$top/config/sched-latency.config" "$top/config/mainline.config"
	"$top/config/cross.config")
kmake() {
	make -s -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" LOCALVERSION= "$@"
}

mkdir -p "$out"
kmake "$defconfig"
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"${fragments[@]}" >/dev/null
kmake olddefconfig

# An architecture without ARCH_SUPPORTS_RT (powerpc in 7.3) has no
# PREEMPT_RT, so no latency_parser: what is left to compile there is the
# keyed hooks, and the run says so instead of failing
rt_only='CONFIG_PREEMPT_RT=y CONFIG_LATENCY_PARSER_TRACER=y CONFIG_LATENCY_PARSER_KUNIT_TEST=y'
no_rt=
grep -q '^CONFIG_ARCH_SUPPORTS_RT=y' "$out/.config" || no_rt=1

lost=
for frag in "${fragments[@]}"; do
	while read -r line; do
		case $line in
		CONFIG_*=*)
			[ -n "$no_rt" ] && [[ " $rt_only " == *" $line "* ]] && continue
			grep -qxF "$line" "$out/.config" || lost+=" $line" ;;
		esac
	done < "$frag"
done
[ -z "$no_rt" ] ||
	echo "cross-build: ARCH=$arch has no PREEMPT_RT here (no ARCH_SUPPORTS_RT): the keyed hooks only, no latency_parser"

if [ -n "$lost" ]; then
	echo "cross-build: ARCH=$arch lost:$lost" >&2
	exit 1
fi

echo "cross-build: ARCH=$arch, ${cross}gcc $("${cross}gcc" -dumpversion): ${targets[*]}"
kmake -j"$(($(nproc) + 1))" "${targets[@]}"
echo "cross-build: ARCH=$arch built ${targets[*]}"
