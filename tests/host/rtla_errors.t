#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency on the host, without the tracer: the usage, the
# errors of bad options and of a system that cannot measure, and the man
# pages against --help. As in every rtla tool, --help and a usage error
# (an unknown option, a malformed option value: rtla's option parser says
# which, then prints the usage) exit 129; options that contradict each
# other and a system that cannot measure are a one-line error, exit 1.
# Runs the built rtla (make rtla); the root-only checks skip when not root.

top=$(cd "$(dirname "$0")/../.." && pwd)
RTLA=${RTLA:-$top/build/linux/tools/tracing/rtla/rtla}
DOC=$top/Documentation/tools/rtla
. "$top/tests/tap.sh"

# expect - run rtla ARGS, want exit status STATUS and REGEX in its output:
# expect DESCRIPTION STATUS REGEX ARGS...
expect() {
	local what=$1 want=$2 regex=$3 out status
	shift 3
	out=$("$RTLA" "$@" 2>&1)
	status=$?
	if [ "$status" -ne "$want" ] || ! grep -qE -- "$regex" <<< "$out"; then
		diag "rtla $* -> exit $status (want $want, /$regex/):"
		diag "$out"
		ok 1 "$what"
		return
	fi
	ok 0 "$what"
}

# expect_usage - a usage error: exit 129, REGEX on the first line (the
# error), then the usage: expect_usage DESCRIPTION REGEX ARGS...
expect_usage() {
	local what=$1 regex=$2 out status
	shift 2
	out=$("$RTLA" "$@" 2>&1)
	status=$?
	if [ "$status" -ne 129 ] || ! head -1 <<< "$out" | grep -qE -- "$regex" ||
	   ! grep -q "Usage: rtla sched-latency" <<< "$out"; then
		diag "rtla $* -> exit $status (want 129, /$regex/ first, then the usage):"
		diag "$out"
		ok 1 "$what"
		return
	fi
	ok 0 "$what"
}

# expect_one_line - as expect, and the error is a single line
expect_one_line() {
	local what=$1 want=$2 regex=$3 out
	shift 3
	expect "$what" "$want" "$regex" "$@"
	out=$("$RTLA" "$@" 2>&1)
	[ "$(wc -l <<< "$out")" -eq 1 ]
	ok $? "$what: one line"
}

if [ ! -x "$RTLA" ]; then
	echo "1..0 # SKIP no rtla at $RTLA (make rtla)"
	exit 0
fi

# The usage.
# No mode runs top, as rtla timerlat and osnoise do: its errors prove it.
expect_usage "sched-latency with an option first runs top" "--duration: '0' is not a valid duration" \
	sched-latency -d 0
expect "sched-latency alone runs top (here: it cannot measure)" 1 \
	"latency_parser tracer|tracefs is not mounted|needs root" sched-latency
expect "sched-latency --help lists top" 129 "^ +top +- " sched-latency --help
expect "sched-latency --help lists hist" 129 "^ +hist +- " sched-latency --help
expect "an unknown mode fails" 129 "unknown mode 'foo'" sched-latency foo
expect "top --help" 129 "Usage: rtla sched-latency \[top\]" sched-latency top --help
expect "hist --help" 129 "Usage: rtla sched-latency hist" sched-latency hist --help
expect "rtla --help lists sched-latency" 129 "sched-latency" --help

# Bad option values: a usage error (129); options that contradict each
# other: one line, exit 1; both before anything is touched.
ncpus=$(getconf _NPROCESSORS_CONF)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in top hist; do
	expect_usage "$mode: a cpu out of range" "--cpus: '$ncpus' is not a valid cpu set" \
		sched-latency $mode -c "$ncpus"
	expect_usage "$mode: a malformed cpu list" "--cpus: 'x' is not a valid cpu set" \
		sched-latency $mode -c x
	expect_one_line "$mode: a negative duration" 1 "invalid -d duration" \
		sched-latency $mode -d -5
	expect_usage "$mode: a zero duration" "--duration: '0' is not a valid duration" \
		sched-latency $mode -d 0
	expect_usage "$mode: a duration of words" "--duration: 'abc' is not a valid duration" \
		sched-latency $mode -d abc
	expect_usage "$mode: an unknown --stop-on variable" "--stop-on: 'foo' is not a variable" \
		sched-latency $mode -T 10 --stop-on foo
	expect_one_line "$mode: --stop-on without -T" 1 "needs a threshold" \
		sched-latency $mode --stop-on poid
	expect_usage "$mode: an unknown --model" "--model: 'foo' is not a model" \
		sched-latency $mode --model foo
	expect_usage "$mode: an unknown --max-var variable" "--max-var: 'st' is not a variable" \
		sched-latency $mode --max-var poid=10,st=5
	expect_usage "$mode: a --max-var without its limit" "--max-var: 'poid' is not var=us" \
		sched-latency $mode --max-var poid
	expect_usage "$mode: a malformed --max-var limit" "--max-var: '10us' is not a valid number" \
		sched-latency $mode --max-var poid=10us
	expect_usage "$mode: a zero --max-var limit" "--max-var: '0' is out of range" \
		sched-latency $mode --max-var irq=0
	expect_usage "$mode: a --max-var limit above the tracer's" "--max-var: '4294968' is out of range" \
		sched-latency $mode --max-var irq=4294968
	expect_one_line "$mode: --tolerance without --baseline" 1 "--tolerance needs --baseline" \
		sched-latency $mode --tolerance 5
	expect_usage "$mode: a negative --tolerance" "--tolerance value -1 is out of range" \
		sched-latency $mode --baseline /dev/null --tolerance -1
	expect_one_line "$mode: a --baseline that does not exist" 1 \
		"cannot read the --baseline file /nonexistent/b.json: No such file" \
		sched-latency $mode --baseline /nonexistent/b.json
	expect_one_line "$mode: a --baseline that is not JSON" 1 \
		"the --baseline file /etc/hostname cannot be used: not a JSON object" \
		sched-latency $mode --baseline /etc/hostname
	echo '{"version": 3, "cpus": {}}' > "$tmp/empty.json"
	expect_one_line "$mode: a --baseline without a cpu" 1 \
		"the --baseline file $tmp/empty.json cannot be used: no cpu was measured in it" \
		sched-latency $mode --baseline "$tmp/empty.json"
	echo '{"version": 1, "cpus": {"0": {"poid_ns": 1}}}' > "$tmp/v1.json"
	expect_one_line "$mode: a --baseline of an unknown version" 1 \
		"the --baseline file $tmp/v1.json cannot be used: not an rtla sched-latency --json report of version 2 to 3" \
		sched-latency $mode --baseline "$tmp/v1.json"
	expect_usage "$mode: a malformed threshold" "--threshold: '12us' is not a valid number" \
		sched-latency $mode -T 12us
	expect_usage "$mode: a zero threshold" "--threshold value 0 is out of range" \
		sched-latency $mode -T 0
	expect_usage "$mode: a zero --max-bound" "--max-bound value 0 is out of range" \
		sched-latency $mode --max-bound 0
	expect_usage "$mode: a malformed --max-bound" "--max-bound: '1ms' is not a valid number" \
		sched-latency $mode --max-bound 1ms
	expect_one_line "$mode: --json - and --svg - at once" 1 \
		"cannot both write to standard output" sched-latency $mode --json - --svg -
	expect_usage "$mode: an unknown action" "--on-threshold: 'mail' is not a valid action" \
		sched-latency $mode --on-threshold mail
	expect_usage "$mode: a signal action without its pid" \
		"--on-end: 'signal,num=10' is not a valid action" \
		sched-latency $mode --on-end signal,num=10
	expect_usage "$mode: a shell action without its command" \
		"--on-threshold: 'shell' is not a valid action" \
		sched-latency $mode --on-threshold shell
	expect_usage "$mode: a bad -H cpu list" "--house-keeping: 'x' is not a valid cpu set" \
		sched-latency $mode -H x
	expect_one_line "$mode: -e without -t" 1 "-e needs -t" \
		sched-latency $mode -e sched:sched_switch
	expect_usage "$mode: a bad priority" "--priority: 'x:1' is not a valid priority" \
		sched-latency $mode -P x:1
	expect_one_line "$mode: a workload without --" 1 "a workload goes after --" \
		sched-latency $mode -d 1s sleep 1
	expect_usage "$mode: an unknown option" "unknown option .no-such-option" \
		sched-latency $mode --no-such-option
done
expect_usage "hist: a zero bucket size" "--bucket-size value 0 is out of range" \
	sched-latency hist -b 0
expect_usage "hist: an unknown --vars variable" "--vars: 'st' is not a variable" \
	sched-latency hist --vars poid,st
expect_one_line "hist: every column left out" 1 "every variable is left out" \
	sched-latency hist --vars irq --no-irq
expect_one_line "hist: --no-index alone" 1 "--no-index needs --with-zeros" \
	sched-latency hist --no-index
expect_usage "-t FILE takes FILE, then parses on" "--cpus: 'x' is not a valid cpu set" \
	sched-latency top -t /tmp/sl_trace.txt -c x
expect_usage "-t=FILE as before" "--cpus: 'x' is not a valid cpu set" \
	sched-latency top -t=/tmp/sl_trace.txt -c x
expect_usage "hist: too many entries" "--entries value 20000 is out of range" \
	sched-latency hist -E 20000
expect_one_line "hist: a histogram too wide" 1 "too wide" \
	sched-latency hist -b 5000 -E 1000

# The system, as a user, then as root.
if command -v setpriv > /dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$RTLA" sched-latency top -d 1s 2>&1)
	status=$?
	[ $status -eq 1 ] && grep -q "needs root permission" <<< "$out" && [ "$(wc -l <<< "$out")" -eq 1 ]
	ok $? "not root: one line, exit 1"
	diag "$out"
else
	skip "not root: one line, exit 1" "no setpriv"
fi

if [ "$(id -u)" -ne 0 ]; then
	for t in "an unwritable --json" "an unwritable --svg" "tracefs not mounted" \
		 "the kernel lacks the tracer"; do
		skip "$t" "not root"
	done
else
	expect_one_line "an unwritable --json path" 1 "cannot write the --json file /nonexistent/x.json" \
		sched-latency top -d 1s --json /nonexistent/x.json
	expect_one_line "an unwritable --svg path" 1 "cannot write the --svg file /nonexistent/x.svg" \
		sched-latency hist -d 1s --svg /nonexistent/x.svg
	expect_one_line "a directory as --json" 1 "cannot write the --json file /tmp" \
		sched-latency top -d 1s --json /tmp

	# A private mount namespace: the host's mounts stay as they are.
	out=$(unshare -m sh -c 'umount -l /sys/kernel/tracing 2>/dev/null
		umount -R -l /sys/kernel/debug 2>/dev/null
		exec "$0" sched-latency top -d 1s' "$RTLA" 2>&1)
	status=$?
	[ $status -eq 1 ] && grep -q "tracefs is not mounted" <<< "$out"
	ok $? "tracefs not mounted: exit 1"
	diag "$out"

	# The kernel without the tracer: its own outcome, exit 5, and a
	# --json report that says so, with what the kernel is.
	nt=$(mktemp -d)
	out=$(unshare -m sh -c 'grep -q " /sys/kernel/tracing tracefs" /proc/mounts ||
			mount -t tracefs nodev /sys/kernel/tracing || exit 99
		grep -qw latency_parser /sys/kernel/tracing/available_tracers && exit 98
		exec "$0" sched-latency top -d 1s --json "$1"' "$RTLA" "$nt/nt.json" 2>&1)
	status=$?
	if [ $status -eq 98 ] || [ $status -eq 99 ]; then
		for t in "the kernel lacks the tracer" "its JSON report" "its JSON: the kernel" \
			 "its JSON: the tracer"; do
			skip "$t" "this kernel has it, or no tracefs"
		done
	else
		[ $status -eq 5 ] && grep -q "^rtla sched-latency: the kernel has no latency_parser tracer: it needs CONFIG_LATENCY_PARSER_TRACER=y" <<< "$out" &&
			[ "$(wc -l <<< "$out")" -eq 1 ]
		ok $? "the kernel lacks the tracer: the one-line error, exit 5"
		diag "$out"
		python3 - "$nt/nt.json" <<-'PY'
		import json, sys
		j = json.load(open(sys.argv[1]))
		assert j["version"] == 3 and j["verdict"] == "no_tracer", j
		assert j["exit_status"] == 5 and j["cpus"] == {} and j["system"] is None
		assert j["sound"] is None
		PY
		ok $? "the kernel lacks the tracer: its JSON report says no_tracer, exit_status 5"
		# the kernel's fields hold what this kernel exposes, checked
		# against the files they come from, independently of rtla
		python3 - "$nt/nt.json" <<-'PY'
		import gzip, json, os, re, sys
		k = json.load(open(sys.argv[1]))["kernel"]
		keys = {"preemption", "preemption_from", "preempt_dynamic", "realtime",
		        "realtime_from", "config_from", "config"}
		assert set(k) == keys, k
		assert k["preemption"] in (None, "none", "voluntary", "full", "lazy"), k
		assert k["preemption_from"] in (None, "debugfs", "cmdline", "config", "uname"), k
		assert (k["preemption"] is None) == (k["preemption_from"] is None), k
		uv = os.uname().version.split()
		if os.path.exists("/sys/kernel/realtime"):
		    rt = open("/sys/kernel/realtime").read().strip() == "1"
		    assert k["realtime_from"] == "sysfs", k
		else:
		    rt = "PREEMPT_RT" in uv
		    assert k["realtime_from"] == "uname", k
		assert k["realtime"] == rt, k
		try:
		    text = gzip.open("/proc/config.gz", "rt").read()
		    src = "/proc/config.gz"
		except OSError:
		    src = "/boot/config-" + os.uname().release
		    text = open(src).read() if os.path.exists(src) else None
		if text is None:
		    assert k["config_from"] is None and k["config"] is None, k
		else:
		    assert k["config_from"] == src, k
		    for bit, v in k["config"].items():
		        m = re.search(r"^%s=(\S+)$" % bit, text, re.M)
		        assert v == (m.group(1) if m else "n"), (bit, v)
		    assert "CONFIG_PREEMPT_RT" in k["config"] and "CONFIG_LATENCY_PARSER_TRACER" in k["config"]
		    if k["preemption_from"] == "config":
		        want = {"lazy": "CONFIG_PREEMPT_LAZY", "full": "CONFIG_PREEMPT",
		                "voluntary": "CONFIG_PREEMPT_VOLUNTARY", "none": "CONFIG_PREEMPT_NONE"}
		        assert k["config"][want[k["preemption"]]] == "y", k
		PY
		ok $? "its JSON: the kernel's preemption model, realtime and config bits"
		python3 - "$nt/nt.json" <<-'PY'
		import json, sys
		t = json.load(open(sys.argv[1]))["tracer"]
		assert t == {"name": "latency_parser", "available": False, "abi": None,
		             "files": None, "trace_clock": None}, t
		PY
		ok $? "its JSON: the tracer, unavailable, without ABI or clock"
	fi
	rm -rf "$nt"
	[ ! -e /nonexistent/x.json ]
	ok $? "no output file left by a failed run"
fi

# The man pages say what --help says: every option, in the same words.
for mode in top hist; do
	"$RTLA" sched-latency $mode --help 2>&1 | python3 -c '
import os, re, sys
rst = open(sys.argv[1]).read()
# the options both modes share come from an included file
rst = re.sub(r"^\.\. include:: (\S+)$",
             lambda m: open(os.path.join(os.path.dirname(sys.argv[1]), m.group(1))).read()
             if os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), m.group(1))) else "",
             rst, flags=re.M)
# the text of the man page without its markup, whitespace folded
plain = " ".join(re.sub(r"[*\\`]", "", rst).split())
bad = 0
# the rtla option parser: "-c, --cpus <cpu-list>  text", the text on the
# next line when the option is long
lines = sys.stdin.read().splitlines()
seen = 0
for i, line in enumerate(lines):
    m = re.match(r"\s+(?:-(\w), )?--([\w-]+)(?:\[\S*\]| <[^>]*>)?(?:\s{2,}(\S.*))?$", line)
    if not m:
        continue
    short, long, text = m.groups()
    if long == "help":
        continue
    if text is None:
        text = lines[i + 1].strip() if i + 1 < len(lines) else ""
    seen += 1
    head = ("-%s, " % short if short else "") + "--" + long
    if head not in plain:
        print("# %s: no %s in the man page" % (sys.argv[1], head)); bad = 1
        continue
    words = text[0].upper() + text[1:] + "."
    if words not in plain:
        print("# %s: %s: not in the same words: %s" % (sys.argv[1], head, words)); bad = 1
if seen < 20:
    print("# %s: only %d options in --help" % (sys.argv[1], seen)); bad = 1
sys.exit(bad)
' "$DOC/rtla-sched-latency-$mode.rst"
	ok $? "$mode --help matches rtla-sched-latency-$mode.rst"
done
for f in "$DOC"/rtla-sched-latency*.rst; do
	grep -q '^:Manual section: 1' "$f"
	ok $? "$(basename "$f") is a man page"
done

tap_done
