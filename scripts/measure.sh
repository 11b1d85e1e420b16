#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# measure.sh - the main job, run inside the VM by `make run`: measure the
# scheduling latency of the patched kernel with rtla sched-latency while
# cyclictest runs as its workload under a CPU load, and print the breakdown
# of the bound beside cyclictest's maxima. MEASURE_SECONDS sets the duration
# (default 20).

secs=${MEASURE_SECONDS:-20}
top=$(cd "$(dirname "$0")/.." && pwd)
rtla=$top/build/linux/tools/tracing/rtla/rtla

echo "== $(uname -sr) $(uname -v)"
if grep -q 'vm.icount=' /proc/cmdline; then
	echo "== a VM on qemu's instruction counter: 1 ns is one instruction, so the figures repeat from run to run but are not a real machine's"
fi
echo "== rtla sched-latency top, ${secs}s, cyclictest as the workload, stress-ng as load"
stress-ng --cpu 1 --cpu-load 50 --timeout "${secs}s" --temp-path /tmp -q &
cd /tmp || exit 1
if "$rtla" sched-latency --help > /dev/null 2>&1; then
	"$rtla" sched-latency top -q -d "${secs}s" -- \
		cyclictest -q -m -p 95 -t -a -i 1000 -D "$secs"
	status=$?
else
	echo "== (this rtla has no sched-latency: rtla timerlat top instead)"
	cyclictest -q -m -p 95 -t -a -i 1000 -D "$secs" &
	"$rtla" timerlat top -q -d "${secs}s"
	status=$?
fi
wait
exit $status
