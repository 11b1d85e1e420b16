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
# usage: kernel-config.sh [-b BASE [-M]] KTREE FRAGMENT...

set -euo pipefail

base=
no_modules=
while getopts "b:M" opt; do
	case $opt in
	b) base=$OPTARG ;;
	M) no_modules=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

ktree=$1
shift
make_k() { make -s -C "$ktree" ARCH=x86_64 "$@"; }

if [ -z "$base" ]; then
	make_k x86_64_defconfig
	make_k kvm_guest.config >/dev/null
else
	case "$base" in
	*.xz) xz -dc "$base" > "$ktree/.config" ;;
	*) cp "$base" "$ktree/.config" ;;
	esac
	[ -z "$no_modules" ] ||
		sed -i 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' "$ktree/.config"
fi
"$ktree/scripts/kconfig/merge_config.sh" -m -O "$ktree" "$ktree/.config" "$@" >/dev/null
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
		have=$(grep -E "^$opt=" "$ktree/.config" || true)
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
echo "kernel-config: $ktree/.config has every option of $*"
