#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# measure.sh - the main job, run inside the VM by `make run`: measure the
# scheduling latency of the patched kernel with rtla sched-latency while
# cyclictest runs as its workload under a CPU load, and print the breakdown
# of the bound beside cyclictest's maxima.
#
# MEASURE_SECONDS sets the duration (default 20); MEASURE_JSON=FILE also
# writes rtla's JSON report there (tests/vm/main_job.t reads it).
#
# The exit status is rtla sched-latency's verdict (0 measured and sound, 1
# error, 2 a limit exceeded, 3 the workload failed, 4 unsound, 5 no
# latency_parser tracer), or 1 when
# something the job needs is missing: an rtla without sched-latency is an
# error, never a reason to measure something else.

secs=${MEASURE_SECONDS:-20}
top=$(cd "$(dirname "$0")/.." && pwd)
rtla=${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}

die() {
	echo "measure.sh: $*" >&2
	exit 1
}

case $secs in
'' | *[!0-9]* | 0*) die "MEASURE_SECONDS must be a positive whole number of seconds, not '$secs'" ;;
esac
[ -x "$rtla" ] || die "no rtla at $rtla (make rtla)"

# Whether this rtla has sched-latency is read from what it prints: rtla
# exits 129 on --help and on an unknown command alike, so the exit status
# cannot tell the two apart. An rtla without the command prints its own
# list of commands instead of the mode's usage.
"$rtla" sched-latency --help 2>&1 | grep -q "usage: rtla sched-latency" ||
	die "$rtla has no sched-latency command: it was not built with this repository's tools/tracing/rtla (make rtla)"
for tool in cyclictest stress-ng; do
	command -v "$tool" > /dev/null || die "no $tool in the guest (make deps installs it)"
done

echo "== $(uname -sr) $(uname -v)"
if grep -q 'vm.icount=' /proc/cmdline; then
	echo "== a VM on qemu's instruction counter: 1 ns is one instruction, so the figures repeat from run to run but are not a real machine's"
fi
echo "== rtla sched-latency top, ${secs}s, cyclictest as the workload, stress-ng as load"

cd /tmp || die "no /tmp"
stress-ng --cpu 1 --cpu-load 50 --timeout "${secs}s" --temp-path /tmp -q &
load=$!

json=()
[ -n "${MEASURE_JSON:-}" ] && json=(--json "$MEASURE_JSON")
"$rtla" sched-latency top -q -d "${secs}s" "${json[@]}" -- \
	cyclictest -q -m -p 95 -t -a -i 1000 -D "$secs"
status=$?

# the load ends by its own timeout; a stop of rtla must not leave it behind
kill "$load" 2> /dev/null
wait "$load" 2> /dev/null
echo "== rtla sched-latency exited $status (0 sound and within limits, 2 a limit exceeded, 3 the workload failed, 4 unsound, 5 no tracer)"
exit $status
