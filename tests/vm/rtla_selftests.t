#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla's own tests (tools/tracing/rtla/tests/*.t on its engine.sh) in the
# booted kernel, with the rtla of the mainline tree: sched-latency.t, ours,
# by default; RTLA_SELFTESTS="osnoise timerlat hwnoise sched-latency" runs
# mainline's own beside it. make test-rtla compares mainline's with the
# pristine rtla's results instead (tests/rtla/selftests_same.t), to show
# that the series changes nothing for the other tools. RTLA=.../rtla runs
# another build's, with the tests beside it. Each line of their TAP becomes
# one of this test's.

VM_TIMEOUT=${VM_TIMEOUT:-1800}
. "$(dirname "$0")/lib.sh"

rtla_dir=$(dirname "$RTLA")
selftests=${RTLA_SELFTESTS:-sched-latency}

if [ ! -x "$RTLA" ] || [ ! -f "$rtla_dir/tests/engine.sh" ]; then
	echo "1..0 # SKIP no rtla with its tests in $rtla_dir (make rtla)"
	exit 0
fi

# engine.sh sources itself from tests/ and writes only in mktemp dirs
cd "$rtla_dir" || exit 1
for t in $selftests; do
	if [ ! -f "tests/$t.t" ]; then
		ok 1 "rtla's tests/$t.t exists"
		continue
	fi
	start=$SECONDS
	out=$(RTLA=$RTLA bash "tests/$t.t" 2>&1)
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<< "$out" | head -1)
	ran=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*)
			ran=$((ran + 1))
			ok 0 "$t.t: ${line#ok * - }" ;;
		"not ok "*)
			ran=$((ran + 1))
			ok 1 "$t.t: ${line#not ok * - }" ;;
		"#"*)
			echo "$line" ;;
		esac
	done <<< "$out"
	check "$t.t ran its whole plan ($ran of ${plan:-?}, $((SECONDS - start)) s)" \
		test "$ran" = "${plan:-none}"
done

done_testing
