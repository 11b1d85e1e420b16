# SPDX-License-Identifier: GPL-2.0
#
# modules.sh - the VM tests' own kernel modules (tests/vm/modules/), for a
# *.t that sources this file before lib.sh. On the host, before the VM
# boots, they are built against the tree of the kernel that boots
# (build/linux, or the tree of $KERNEL: make test-debug boots another;
# VM_KTREE names another) in a directory of the test's own, which becomes
# the script's first argument: in the VM, $VM_MODULES is that directory.

if [ -z "${IN_VM:-}" ]; then
	vm_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	# VM_ARCH=arm64: build/arm64's kernel, an output directory of its own
	# (tests/vm/run)
	case ${VM_ARCH:-x86_64} in
	arm64)	vm_kernel=${KERNEL:-$vm_top/build/arm64/linux/arch/arm64/boot/Image}
		vm_make=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
	*)	vm_kernel=${KERNEL:-$vm_top/build/linux/arch/x86/boot/bzImage}
		vm_make=(ARCH=x86_64) ;;
	esac
	vm_tree=${VM_KTREE:-$(cd "$(dirname "$vm_kernel")/../../.." && pwd)}
	VM_MODULES=$vm_top/build/vm/modules/${VM_ARCH:+$VM_ARCH-}$(basename "$vm_tree")/$(basename "$0" .t)
	rm -rf "$VM_MODULES" && mkdir -p "$VM_MODULES" &&
		cp "$vm_top/tests/vm/modules/Kbuild" "$vm_top"/tests/vm/modules/*.c "$VM_MODULES" &&
		make -s -C "$vm_tree" "${vm_make[@]}" LOCALVERSION= M="$VM_MODULES" modules \
			> "$VM_MODULES/build.log" 2>&1 ||
		echo "# the test modules did not build against $vm_tree: see $VM_MODULES/build.log" >&2
	set -- "$VM_MODULES" "$@"
else
	VM_MODULES=$1
	shift
fi
