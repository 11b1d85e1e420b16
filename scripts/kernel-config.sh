#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-config.sh - write the guest .config of a kernel tree: x86_64_defconfig
# plus kvm_guest.config, then the fragments given, then olddefconfig; and fail
# loudly if any option of a fragment did not survive.
#
# usage: kernel-config.sh KTREE FRAGMENT...

set -euo pipefail

ktree=$1
shift
make_k() { make -s -C "$ktree" ARCH=x86_64 "$@"; }

make_k x86_64_defconfig
make_k kvm_guest.config >/dev/null
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
