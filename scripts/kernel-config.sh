#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-config.sh - write the guest .config of a kernel tree: x86_64_defconfig
# plus kvm_guest.config, then the fragments given, then olddefconfig; and fail
# loudly if any option of a fragment did not survive.
#
# With -b BASE, a distribution's config (a .config, or its .xz) is the base
# instead of the defconfig: make kernel-rt's Debian rt flavour. -M then
# drops every module of the base (each =m off) before the fragments, so a
# VM test kernel builds the base's built-in kernel and what the fragments
# ask for, not a distribution's few thousand drivers.
#
# With -a arm64, the guest is qemu's arm64 virt machine (make test-arm64),
# built with Debian's cross compiler into the output directory given by -O:
# arm64's defconfig, without its modules and its SoC platforms (a virt
# machine is none of them: their drivers would be most of the build), then
# the fragments.
#
# usage: kernel-config.sh [-a arm64] [-O OUTDIR] [-b BASE [-M]] KTREE FRAGMENT...

set -euo pipefail

base=
no_modules=
arch=x86_64
out=
while getopts "a:O:b:M" opt; do
	case $opt in
	a) arch=$OPTARG ;;
	O) out=$OPTARG ;;
	b) base=$OPTARG ;;
	M) no_modules=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

ktree=$1
shift
out=${out:-$ktree}
cross=
case $arch in
x86_64) ;;
arm64) cross=aarch64-linux-gnu- ;;
*) echo "kernel-config: no guest known for ARCH=$arch" >&2; exit 2 ;;
esac
mkdir -p "$out"
objdir=
[ "$(realpath "$out")" = "$(realpath "$ktree")" ] || objdir="O=$(realpath "$out")"
make_k() {
	make -s -C "$ktree" $objdir ARCH="$arch" CROSS_COMPILE="$cross" "$@"
}
drop_modules() {
	sed -i 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' "$out/.config"
}

if [ -n "$base" ]; then
	case "$base" in
	*.xz) xz -dc "$base" > "$out/.config" ;;
	*) cp "$base" "$out/.config" ;;
	esac
	[ -z "$no_modules" ] || drop_modules
elif [ "$arch" = arm64 ]; then
	make_k defconfig
	drop_modules
	for platform in $(sed -n 's/^config \(ARCH_[A-Z0-9_]*\)$/\1/p' \
			"$ktree/arch/arm64/Kconfig.platforms"); do
		sed -i "s/^CONFIG_$platform=y$/# CONFIG_$platform is not set/" "$out/.config"
	done
else
	make_k x86_64_defconfig
	make_k kvm_guest.config >/dev/null
fi
"$ktree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" >/dev/null
make_k olddefconfig

# Compare each fragment line with the resulting .config. An option a fragment
# turns off may also be absent from .config (its menu is gone): that is off.
lost=0
for frag in "$@"; do
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			opt=${line%%=*}
			want=$line ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			want= ;;
		*) continue ;;
		esac
		have=$(grep -E "^$opt=" "$out/.config" || true)
		if [ "$have" != "$want" ]; then
			echo "kernel-config: $(basename "$frag"): wanted '${want:-$opt off}', got '${have:-$opt off}'" >&2
			lost=1
		fi
	done < "$frag"
done
if [ "$lost" -ne 0 ]; then
	echo "kernel-config: options of the fragments did not survive olddefconfig" >&2
	exit 1
fi
echo "kernel-config: $out/.config has every option of $*"
