#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# measure.sh - the main job, run inside the VM by `make run`: measure the
# scheduling latency of the patched kernel under a cyclictest load, and print
# the result. MEASURE_SECONDS sets the duration (default 20).

secs=${MEASURE_SECONDS:-20}
top=$(cd "$(dirname "$0")/.." && pwd)
rtla=$top/build/linux/tools/tracing/rtla/rtla

echo "== $(uname -sr) $(uname -v)"
echo "== cyclictest (SCHED_FIFO 95, one thread per CPU) and stress-ng for ${secs}s"
stress-ng --cpu 1 --cpu-load 50 --timeout "${secs}s" -q &
cyclictest -q -m -p 95 -t -a -i 1000 -D "$secs" > /tmp/cyclictest.txt 2>&1 &
"$rtla" timerlat top -q -d "${secs}s"
status=$?
wait
echo "== cyclictest"
cat /tmp/cyclictest.txt
exit $status
