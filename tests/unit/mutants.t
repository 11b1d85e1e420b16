#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.t - the ground-truth property test has teeth: each old fault of
# the state machine, put back by a patch of mutants/ on a copy of
# trace_latency_parser_sm.c, makes test_parser_truth fail, or, for a
# mutant the ground truth does not see, test_parser_fast (the fast path
# parts from the general one: a fault of its own, whatever its effect),
# or, for one neither sees (an over-measure: the ground truth holds the
# parser to no more than the truth only where the parser sees both ends of
# a window), test_parser, the named cases with their exact records.
# Each line names the first seed, sequence or case that caught it.
#
# The bound engine's tests have teeth too: a patch of
# tools/tracing/rtla/src/sched_latency_bound.c puts a fault back in a copy
# of the engine, under rtla's unit tests of it
# (tools/tracing/rtla/tests/unit/sched_latency_bound.c, run alone by
# rtla_bound_suite.c), and each test its "Caught by:" line names must fail.
#
# A patch that no longer applies fails too: the mutant must follow the code
# it breaks. LP_MUTANT_SEEDS=<n> sets how many seeds a parser mutant gets
# (default 100000), and test_parser_fast as many generated sequences.
# LP_MUTANT_JOBS=<n> runs that many mutants at once (default 2; the results
# are printed in order). LP_SM_TREE=<dir> takes the state machine from
# another kernel tree than build/linux (a change to it not in the tree yet,
# with the mutants that follow it).

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
# libcheck's runner sends a Ctrl-C's SIGINT again to its whole process
# group: each test binary runs in a group of its own
group=$root/tests/run-own-group
unit=$root/tests/unit
ktree=${LP_SM_TREE:-$root/build/linux}
ktrace=$ktree/kernel/trace
rtla=$root/tools/tracing/rtla
out=$root/build/unit/mutants
seeds=${LP_MUTANT_SEEDS:-100000}
jobs=${LP_MUTANT_JOBS:-2}
export LP_FAST_SEEDS=$seeds

if [ ! -f "$ktrace/trace_latency_parser_sm.c" ]; then
	echo "1..0 # SKIP parser source missing"
	exit 0
fi
patches=("$unit"/mutants/*.patch)
echo "1..$((${#patches[@]} + 1))"
mkdir -p "$out" || exit 1

CFLAGS="-O2 -Wall -Wextra -Werror -std=gnu11 -I$unit/shim -I$ktrace -I$unit \
	-I$rtla/src $(pkg-config --cflags check)"
LIBS="$(pkg-config --libs check) -lm"
# rtla's suite of the engine takes <linux/kernel.h> from the tree's tools/
ENGINE_CFLAGS="-O2 -Wall -Wextra -Werror -std=gnu11 -I$ktree/tools/include \
	-I$rtla/src $(pkg-config --cflags check)"

# What no mutant touches is compiled once, in $out/common: each mutant
# then compiles only its copy of the state machine and links.
common=$out/common
common_objs=
rm -rf "$common" && mkdir -p "$common" || exit 1
for src in "$unit/test_parser_truth.c" "$unit/lp_generator.c" "$unit/lp_oracle.c" \
	   "$unit/lp_sm_run.c" "$root/tools/tracing/rtla/src/sched_latency_bound.c"; do
	obj=$common/$(basename "$src" .c).o
	if ! gcc $CFLAGS -c -o "$obj" "$src" 2>>"$common/build.log"; then
		echo "Bail out! $(basename "$src") does not build (see $common/build.log)"
		exit 1
	fi
	common_objs+=" $obj"
done
# rtla's suite of the engine: its source has the engine's name
for src in "$rtla/tests/unit/sched_latency_bound.c" "$unit/rtla_bound_suite.c"; do
	obj=$common/rtla_unit_$(basename "$src" .c).o
	if ! gcc $ENGINE_CFLAGS -c -o "$obj" "$src" 2>>"$common/build.log"; then
		echo "Bail out! rtla's $(basename "$src") does not build (see $common/build.log)"
		exit 1
	fi
done

# A mutant's own sources are compiled at -O1: half the time of -O2, of
# which a mutant spends more compiling than running (its state machine is a
# few percent of a seed's time); what no mutant touches stays at -O2
MUTANT_CFLAGS="$CFLAGS -O1"

# build - test_parser_truth against the state machine in $1
build() {
	gcc -I"$1" $MUTANT_CFLAGS -o "$1/test_parser_truth" "$1/trace_latency_parser_sm.c" \
		$common_objs $LIBS
}

# build_fast - test_parser_fast against it (it includes the source: -I"$1"
# first), only for a mutant the ground truth does not catch
build_fast() {
	gcc -I"$1" $MUTANT_CFLAGS -o "$1/test_parser_fast" "$unit/test_parser_fast.c" \
		"$common/lp_generator.o" "$common/lp_sm_run.o" $LIBS
}

# build_named - test_parser, the named cases, against it (only for a
# mutant that neither of the two above catches)
build_named() {
	gcc -I"$1" $MUTANT_CFLAGS -o "$1/test_parser" "$unit/test_parser.c" \
		"$1/trace_latency_parser_sm.c" "$common/lp_sm_run.o" \
		"$unit/lp_reference.c" $LIBS
}

# build_engine - rtla's suite of the engine against the engine in $1
build_engine() {
	gcc $ENGINE_CFLAGS -o "$1/rtla_bound" "$1/sched_latency_bound.c" \
		"$common/rtla_unit_sched_latency_bound.o" \
		"$common/rtla_unit_rtla_bound_suite.o" $LIBS
}

# run_engine - rtla's suite of the engine built in $1, as TAP in $1/run.log
run_engine() {
	CK_TAP_LOG_FILE_NAME=- CK_FORK=yes CK_VERBOSITY=silent \
		"$group" "$1/rtla_bound" >"$1/run.log" 2>&1
}

# first_failure - the first failing test's message in the TAP log $1
first_failure() {
	grep -m1 '^not ok' "$1" | sed 's/^not ok [0-9]* - //; s/^[^:]*:[^:]*:[^:]*: //'
}

# run_none - the unmutated parser passes the same run, and the unmutated
# engine rtla's suite, or no failure below means much: test 1
run_none() {
	local dir=$out/none

	mkdir -p "$dir/engine" && cp "$ktrace"/trace_latency_parser_sm{.c,_fast.h} "$dir/"
	cp "$rtla/src/sched_latency_bound.c" "$dir/engine/"
	if build "$dir" >"$dir/build.log" 2>&1 &&
	   build_fast "$dir" >>"$dir/build.log" 2>&1 &&
	   LP_TRUTH_SEEDS=$seeds CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent \
		"$group" "$dir/test_parser_truth" >"$dir/run.log" 2>&1 &&
	   CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent \
		"$group" "$dir/test_parser_fast" >"$dir/fast.log" 2>&1 &&
	   build_engine "$dir/engine" >"$dir/engine/build.log" 2>&1 &&
	   run_engine "$dir/engine"; then
		echo "ok 1 - the parser as it is passes $seeds seeds, the engine rtla's suite"
	else
		echo "not ok 1 - the parser as it is fails $seeds seeds," \
		     "or the engine rtla's suite (see $dir)"
	fi
}

# run_engine_mutant N PATCH - one mutant of the engine, as a TAP line: each
# test its "Caught by:" line names must fail
run_engine_mutant() {
	local n=$1 p=$2 name dir want t caught= missed=

	name=$(basename "$p" .patch)
	dir=$out/$name
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$rtla/src/sched_latency_bound.c" "$dir/"
	if ! patch -s -d "$dir" -p5 <"$p" >"$dir/patch.log" 2>&1; then
		echo "not ok $n - $name: the patch no longer applies"
		return
	fi
	if ! build_engine "$dir" >"$dir/build.log" 2>&1; then
		echo "not ok $n - $name: does not build"
		return
	fi
	want=$(sed -n 's/^Caught by: //p' "$p" | grep -o 'test_[a-z0-9_]*')
	if [ -z "$want" ]; then
		echo "not ok $n - $name: no test of rtla's suite named to catch it"
		return
	fi
	run_engine "$dir"
	for t in $want; do
		if grep -q "^not ok .*:$t:" "$dir/run.log"; then
			caught+="${caught:+; }$(grep -m1 "^not ok .*:$t:" "$dir/run.log" |
				sed 's/^not ok [0-9]* - [^:]*:[^:]*://')"
		else
			missed+=" $t"
		fi
	done
	if [ -z "$missed" ]; then
		echo "ok $n - $name caught: $caught"
	else
		echo "not ok $n - $name: not caught by$missed"
	fi
}

# run_mutant N PATCH - one mutant, as a TAP line
run_mutant() {
	local n=$1 p=$2 name dir caught= want

	name=$(basename "$p" .patch)
	dir=$out/$name
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$ktrace"/trace_latency_parser_sm{.c,_fast.h} "$dir/"
	if ! patch -s -d "$dir" -p3 <"$p" >"$dir/patch.log" 2>&1; then
		echo "not ok $n - $name: the patch no longer applies"
		return
	fi
	if ! build "$dir" >"$dir/build.log" 2>&1; then
		echo "not ok $n - $name: does not build"
		return
	fi
	# A mutant the ground truth cannot catch by design (an over-measure,
	# or the fast path apart from the general one) names its catcher in
	# a "Caught by:" line: only that one runs, and it must catch it.
	want=$(sed -n 's/^Caught by: \(.*\)\.$/\1/p' "$p")
	case "$want" in
	"" | "the fast path check" | "a named case") ;;
	*)	echo "not ok $n - $name: no such catcher: $want"
		return ;;
	esac
	if [ -z "$want" ]; then
		LP_TRUTH_SEEDS=$seeds LP_TRUTH_STOP=1 CK_TAP_LOG_FILE_NAME=- \
			CK_VERBOSITY=silent "$group" "$dir/test_parser_truth" >"$dir/run.log" 2>&1
		caught=$(first_failure "$dir/run.log")
	fi
	if [ -z "$caught" ] && [ "$want" != "a named case" ] &&
	   build_fast "$dir" >>"$dir/build.log" 2>&1; then
		CK_TAP_LOG_FILE_NAME=- CK_VERBOSITY=silent \
			"$group" "$dir/test_parser_fast" >"$dir/fast.log" 2>&1
		caught=$(first_failure "$dir/fast.log")
		[ -n "$caught" ] && caught="the fast path parts: $caught"
	fi
	if [ -z "$caught" ] && [ "$want" != "the fast path check" ] &&
	   build_named "$dir" >>"$dir/build.log" 2>&1; then
		CK_TAP_LOG_FILE_NAME=- CK_FORK=yes CK_VERBOSITY=silent \
			"$group" "$dir/test_parser" >"$dir/named.log" 2>&1
		caught=$(first_failure "$dir/named.log")
		[ -n "$caught" ] && caught="only by a named case: $caught"
	fi
	if [ -n "$caught" ]; then
		echo "ok $n - $name caught: $caught"
	else
		echo "not ok $n - $name: not caught${want:+ by $want} in $seeds seeds"
	fi
}

# Two at a time by default: the tests of a mutant are single-threaded.
run_none >"$out/none.tap" &
n=1
for p in "${patches[@]}"; do
	n=$((n + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	if grep -q '^+++ b/tools/tracing/rtla/src/sched_latency_bound.c' "$p"; then
		run_engine_mutant "$n" "$p" >"$out/$(basename "$p" .patch).tap" &
	else
		run_mutant "$n" "$p" >"$out/$(basename "$p" .patch).tap" &
	fi
done
wait
cat "$out/none.tap"
for p in "${patches[@]}"; do
	cat "$out/$(basename "$p" .patch).tap"
done
