# SPDX-License-Identifier: GPL-2.0
#
# lts.sh - run one VM test of tests/vm/ on the 6.12 backport as Debian's
# kernel-rt carries it (build/linux-6.12-rt, make kernel-rt:
# linux-source-6.12, Debian's patches-rt, the backport, the rt flavour
# config with PREEMPT_LAZY), with mainline's rtla: what a distribution's
# 6.12 kernel-rt runs. Each tests/lts/NAME.t is NAME.t of tests/vm/
# through this file; make test-lts runs all of tests/vm/ on plain 6.12
# (build/linux-6.12, make kernel-lts).
#
# usage (from a tests/lts/*.t): . lts.sh

lts_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lts_tree=$lts_top/build/linux-6.12-rt
export KERNEL=$lts_tree/arch/x86/boot/bzImage
export MODULES=$lts_tree/modules-install

if [ ! -f "$KERNEL" ] || [ ! -d "$MODULES" ]; then
	echo "1..0 # SKIP no 6.12 kernel-rt in $lts_tree (make kernel-rt)"
	exit 0
fi
exec "$lts_top/tests/vm/$(basename "$0")"
