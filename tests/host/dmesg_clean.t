#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dmesg_clean of tests/vm/lib.sh, the last check of every VM test, on logs
# written here: a report fails it unless its first line and the line after
# it name a known bug of 6.12 itself (DMESG_KNOWN_BUG, DMESG_KNOWN), which
# is only counted.

top=$(cd "$(dirname "$0")/../.." && pwd)
IN_VM=1 . "$top/tests/vm/lib.sh"

logfile=$(mktemp)
trap 'rm -f "$logfile"' EXIT
# dmesg - the log the test wrote, in place of the kernel's (not $log:
# dmesg_clean has a local of that name)
dmesg() {
	cat "$logfile"
}
known() {
	echo "[  535.755812] BUG: using smp_processor_id() in preemptible [00000000] code: kworker/1:0/30"
	echo "[  535.756282] caller is osnoise_hotplug_workfn+0xd/0xd0"
	echo "[  535.757031] CPU: 0 UID: 0 PID: 30 Comm: kworker/1:0 Tainted: G N 6.12.117 #1"
	echo "[  535.757310] Workqueue: events osnoise_hotplug_workfn"
}

echo "[    0.000000] Linux version 6.12.117" > "$logfile"
check "a boot log is clean" dmesg_clean

{ known; known; } >> "$logfile"
out=$(dmesg_clean)
ok $? "the osnoise hotplug report of 6.12 is known"
check "and counted" grep -q "2 known report(s)" <<< "$out"

echo "[  600.1] BUG: sleeping function called from invalid context at kernel/locking/spinlock_rt.c:48" >> "$logfile"
echo "[  600.2] in_atomic(): 1, irqs_disabled(): 1" >> "$logfile"
out=$(dmesg_clean)
check "another report after it fails" test $? -ne 0
check "the log is shown from that report on" \
	grep -q "^# \[  600.1\] BUG: sleeping" <<< "$(head -n 1 <<< "$out")"

known > "$logfile"
sed -i 's/osnoise_hotplug_workfn+/osnoise_hotplug_workfn_other+/' "$logfile"
check "a caller that only starts like it fails" test "$(dmesg_clean >/dev/null; echo $?)" -ne 0

# On SMP two CPUs' lines interleave: another report just before a known
# caller line is still a report
{ echo "[    1.0] BUG: sleeping function called from invalid context at kernel/trace/trace.c:1"; \
  known | sed -n 2p; } > "$logfile"
check "another report followed by a known caller line fails" \
	test "$(dmesg_clean >/dev/null; echo $?)" -ne 0

{ echo "[    1.0] WARNING: CPU: 0 PID: 1 at kernel/trace/trace_latency_parser.c:10"; \
  known; } > "$logfile"
check "a warning just before a known report fails" test "$(dmesg_clean >/dev/null; echo $?)" -ne 0

for bad in "possible circular locking dependency detected" \
	   "BUG: KASAN: slab-use-after-free in foo" "WARNING: suspicious RCU usage" \
	   "ODEBUG: free active (active state 0) object: x" "list_del corruption. prev->next"; do
	echo "[    2.0] $bad" > "$logfile"
	check "fails on: $bad" test "$(dmesg_clean >/dev/null; echo $?)" -ne 0
done
# lockdep_on, the other check of a debug kernel's run, on its stats file
printf ' lock-classes:                 1203 [max: 8192]\n debug_locks:                            1\n' > "$logfile"
check "lockdep_on: debug_locks 1 is lockdep on" lockdep_on "$logfile"
sed -i 's/ 1$/ 0/' "$logfile"
check "lockdep_on: debug_locks 0 is lockdep off" test "$(lockdep_on "$logfile"; echo $?)" -ne 0
tap_done
