#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 7.3's own rtla tests of the other tools (tools/tracing/rtla/tests/
# osnoise.t, timerlat.t, hwnoise.t) run twice in one boot of the patched
# kernel: with the rtla of the pristine tree (make rtla-pristine, the
# tree's commit "base") and with the rtla of the series (make rtla). The
# series' shared-code patches (0011-0017) must change nothing for those
# tools, so every test must end the same way with both: one TAP line per
# test of 7.3, failed when the two results differ. A test that fails
# with both is the same result: what this guest cannot give the tool
# (under TCG, timerlat's user threads and its -c action have been seen
# failing with both), its pristine output printed. Each rtla runs its own
# tree's copy of the tests, which the series leaves unchanged (checked
# first). The guest mounts cgroup v2 for the -C tests. About 15 minutes
# per tool and rtla under TCG (timerlat.t took 950 s alone);
# RTLA_SAME_TOOLS="osnoise hwnoise" chooses the tools.
#
# Run it on an idle machine. 7.3's run_tool() takes a threshold stop for
# the user's when the duration's alarm fires while the threshold action
# still runs (stopped = trace off && !stop_tracing), and exits 0 where
# osnoise.t's -P, -C, -c and -H tests (-d 10s -S 1, a shell action)
# expect 2. Under load the action's shell takes seconds and the alarm
# often wins, in either rtla: the series leaves that code as it is. Seen
# here on 2026-12-01 with kernels building beside the VM: the pristine
# rtla failed two of those tests that the patched one passed (50 of 55
# the same, 3 failing with both).

VM_TIMEOUT=${VM_TIMEOUT:-5400}
. "$(dirname "$0")/../vm/lib.sh"

pristine=$top/build/rtla-pristine/tools/tracing/rtla
patched=$(dirname "$RTLA")
tools=${RTLA_SAME_TOOLS:-osnoise timerlat hwnoise}

if [ ! -x "$pristine/rtla" ] || [ ! -x "$patched/rtla" ]; then
	echo "1..0 # SKIP no pristine or patched rtla (make rtla rtla-pristine)"
	exit 0
fi
for side in pristine patched; do
	diag "$side: $("${!side}/rtla" 2>&1 | grep -m1 version), $(git -C "${!side}" log -1 --format='%h %s') in ${!side}"
done
# rtla's -C/--cgroup moves its workload into a cgroup v2 hierarchy
if ! grep -q ' cgroup2 ' /proc/mounts; then
	mount -t cgroup2 none /sys/fs/cgroup 2> /dev/null ||
		diag "no cgroup v2 here: the -C tests fail with both"
fi

out=$(mktemp -d /tmp/rtla_same.XXXXXX)
trap 'rm -rf "$out"' EXIT

# results SIDE TOOL - run tests/TOOL.t of SIDE's tree (pristine or
# patched) with its rtla: its TAP lines as "N<TAB>ok|not ok<TAB>name" in
# $out/TOOL.SIDE, its whole output in $out/TOOL.SIDE.log
results() {
	local side=$1 tool=$2 dir

	dir=${!side}
	(cd "$dir" && RTLA=$dir/rtla bash "tests/$tool.t") > "$out/$tool.$side.log" 2>&1
	sed -nE 's/^(not ok|ok) ([0-9]+) - (.*)$/\2\t\1\t\3/p' "$out/$tool.$side.log" \
		> "$out/$tool.$side"
}

for tool in $tools; do
	check "$tool.t is the same test in both trees" \
		cmp -s "$pristine/tests/$tool.t" "$patched/tests/$tool.t"
	start=$SECONDS
	results pristine "$tool"
	results patched "$tool"
	diag "$tool.t: $(wc -l < "$out/$tool.pristine") tests with each rtla, $((SECONDS - start)) s"
	check "$tool.t: the patched rtla ran as many tests as the pristine one" \
		test "$(wc -l < "$out/$tool.pristine")" -eq "$(wc -l < "$out/$tool.patched")" -a \
		"$(wc -l < "$out/$tool.pristine")" -gt 0
	while IFS=$'\t' read -r n result name; do
		other=$(awk -F'\t' -v n="$n" '$1 == n { print $2 "\t" $3 }' "$out/$tool.patched")
		if [ "$other" != "$result"$'\t'"$name" ]; then
			for side in pristine patched; do
				diag "$side:"$'\n'"$(grep -A20 "^not ok $n - " "$out/$tool.$side.log")"
			done
			ok 1 "$tool.t $n ($name): pristine $result, patched ${other%%$'\t'*}"
		elif [ "$result" != ok ]; then
			diag "$(grep -A12 "^not ok $n - " "$out/$tool.pristine.log")"
			ok 0 "$tool.t $n ($name): fails with both, the guest's (pristine output above)"
		else
			ok 0 "$tool.t $n ($name): ok with both"
		fi
	done < "$out/$tool.pristine"
	diag "$tool.t: $(grep -c $'\tok\t' "$out/$tool.pristine") of $(wc -l < "$out/$tool.pristine") passed with the pristine rtla"
done

done_testing
