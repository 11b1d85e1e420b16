#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patched kernel boots as PREEMPT_RT, and the tools the project builds on
# (rtla timerlat, cyclictest) run in it.

. "$(dirname "$0")/lib.sh"

diag "$(uname -a)"
check "the kernel is PREEMPT_RT" grep -q PREEMPT_RT <<< "$(uname -v)"
# VM_ARCH names the kernel's architecture, uname -m the machine's
want=${VM_ARCH:-x86_64}
[ "$want" = arm64 ] && want=aarch64
check "the guest is $want (VM_ARCH=${VM_ARCH:-x86_64})" test "$(uname -m)" = "$want"
# ELF's e_machine: 62 is x86-64, 183 AArch64
machine=$(od -An -tu2 -j18 -N2 "$RTLA" | tr -d ' ')
check "rtla is built for it (e_machine $machine)" \
	test "$machine" = "$([ "$want" = aarch64 ] && echo 183 || echo 62)"

out=$("$RTLA" timerlat top -d 5s -q 2>&1)
ok $? "rtla timerlat top -d 5s -q runs"
diag "$out"
check "rtla timerlat top printed a CPU row" grep -qE '^ +[0-9]+ +#[0-9]+' <<< "$out"

out=$(cyclictest -D 5 -q -m -p 95 -t 2 -a 2>&1)
ok $? "cyclictest runs for 5 s"
diag "$out"
check "cyclictest printed a max latency" grep -qE 'Max: +[0-9]+' <<< "$out"

done_testing
