# SPDX-License-Identifier: GPL-2.0
#
# rtla_sched_latency.sh - helpers of the rtla sched-latency VM tests, sourced after
# lib.sh and lp.sh.

SL_OUT=$(mktemp -d /tmp/rtla_sched_latency.XXXXXX)

# sl - run rtla sched-latency (in the background, run "$RTLA" itself, so
# that $! is rtla's pid)
sl() {
	"$RTLA" sched-latency "$@"
}

# sl_instances - the sched_latency_* instances that exist
sl_instances() {
	ls -d "$TRACEFS"/instances/sched_latency_* 2>/dev/null
}

# sl_no_instance - no sched_latency_* instance is left
sl_no_instance() {
	local left

	left=$(sl_instances)
	[ -z "$left" ] && return 0
	diag "left behind: $left"
	return 1
}

# sl_wait_instance PID - wait until rtla PID measures (60 s max): its
# instance runs the tracer with tracing on. rtla creates it with tracing
# off and reads every event format first, which takes seconds under TCG.
sl_wait_instance() {
	local dir=$TRACEFS/instances/sched_latency_$1 i

	for i in $(seq 600); do
		if [ "$(cat "$dir/current_tracer" 2>/dev/null)" = latency_parser ] &&
		   [ "$(cat "$dir/tracing_on" 2>/dev/null)" = 1 ]; then
			return 0
		fi
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	diag "rtla $1 never started to measure"
	return 1
}

# sl_json FILE EXPR - a Python expression on the JSON document j
sl_json() {
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# sl_json_valid FILE - json.tool accepts it
sl_json_valid() {
	python3 -m json.tool "$1" > /dev/null
}

# sl_json_keys FILE - every documented key is there, with the right types
sl_json_keys() {
	python3 - "$1" <<'EOF'
import json, sys

MODELS = ["no_interrupts", "worst_single", "worst_each", "sporadic",
          "sliding_window", "sliding_window_owcet"]
VARS = ["poid_ns", "psd_ns", "dst_ns", "paie_ns", "lif_ns"]
errors = []

def need(obj, key, where, types):
    if not isinstance(obj, dict) or key not in obj:
        errors.append("%s: no %s" % (where, key))
        return None
    if not isinstance(obj[key], types) or isinstance(obj[key], bool) != (bool in types):
        errors.append("%s.%s: %r is not %s" % (where, key, obj[key], types))
    return obj[key]

def check_cpu(c, where):
    for v in VARS:
        need(c, v, where, (int,))
    for k in ("irq", "nmi"):
        sub = need(c, k, where, (dict,))
        need(sub, "count", where + "." + k, (int,))
        need(sub, "max_ns", where + "." + k, (int,))
    b = need(c, "bound_ns", where, (dict,))
    for m in MODELS:
        need(b, m, where + ".bound_ns", (int, type(None)))

j = json.load(open(sys.argv[1]))
if need(j, "version", "", (int,)) != 3:
    errors.append("version is not 3")
# the envelope a pipeline files the run under
for k in ("tool", "cmdline", "start_time", "end_time", "verdict"):
    need(j, k, "", (str,))
need(j, "exit_status", "", (int,))
need(j, "cpus_over_max_bound", "", (int,))
need(j, "rtla_version", "", (str, type(None)))
u = need(j, "uname", "", (dict,))
for k in ("sysname", "release", "version", "machine"):
    need(u, k, "uname", (str,))
st = need(j, "settings", "", (dict,))
need(st, "cpus", "settings", (str,))
for k in ("hist_bucket_ns", "hist_buckets", "threshold_us", "trace_buffer_size_kb"):
    need(st, k, "settings", (int,))
need(st, "max_bound_us", "settings", (int, type(None)))
mv = need(st, "max_var_us", "settings", (dict, type(None)))
for v, us in (mv or {}).items():
    if v not in ("poid", "psd", "dst", "paie", "irq", "nmi") or not isinstance(us, int):
        errors.append("settings.max_var_us: %r: %r" % (v, us))
for o in need(j, "over_max_var", "", (list,)) or []:
    for k in ("cpu", "value_ns", "max_us"):
        need(o, k, "over_max_var[]", (int,))
    need(o, "variable", "over_max_var[]", (str,))
# the kernel and the tracer, on a kernel that has it
k = need(j, "kernel", "", (dict,))
for key in ("preemption", "preemption_from", "config_from"):
    need(k, key, "kernel", (str, type(None)))
for key in ("preempt_dynamic", "realtime"):
    need(k, key, "kernel", (bool, type(None)))
need(k, "realtime_from", "kernel", (str,))
for bit, v in (need(k, "config", "kernel", (dict, type(None))) or {}).items():
    if not bit.startswith("CONFIG_") or v not in ("y", "m", "n"):
        errors.append("kernel.config: %r: %r" % (bit, v))
t = need(j, "tracer", "", (dict,))
need(t, "name", "tracer", (str,))
need(t, "available", "tracer", (bool,))
need(t, "abi", "tracer", (int, type(None)))
need(t, "files", "tracer", (list, type(None)))
need(t, "trace_clock", "tracer", (str, type(None)))
bl = need(j, "baseline", "", (dict, type(None)))
if bl is not None:
    need(bl, "file", "baseline", (str,))
    for key in ("tolerance_pct", "slack_ns", "compared"):
        need(bl, key, "baseline", (int,))
    for r in need(bl, "regressions", "baseline", (list,)) or []:
        need(r, "cpu", "baseline.regressions[]", (int,))
        need(r, "variable", "baseline.regressions[]", (str,))
        need(r, "value_ns", "baseline.regressions[]", (int, type(None)))
        need(r, "baseline_ns", "baseline.regressions[]", (int,))
if j.get("verdict") not in ("passed", "exceeded", "workload_failed", "unsound"):
    errors.append("verdict %r" % j.get("verdict"))
need(j, "duration_s", "", (int, float))
need(j, "sound", "", (bool,))
need(j, "lost_events", "", (int,))
cpus = need(j, "cpus", "", (dict,)) or {}
if not cpus:
    errors.append("no cpu")
for cpu, c in cpus.items():
    if not cpu.isdigit():
        errors.append("cpu key %r" % cpu)
    check_cpu(c, "cpus." + cpu)
    terms = need(c, "terms_ns", "cpus." + cpu, (dict,)) or {}
    for m in MODELS:
        t = need(terms, m, "cpus.%s.terms_ns" % cpu, (dict,))
        w = "cpus.%s.terms_ns.%s" % (cpu, m)
        for k in ("blocking", "paie", "psd"):
            need(t, k, w, (int,))
        need(t, "blocking_by", w, (str,))
        for k in ("nmi", "irq"):
            need(t, k, w, (int, type(None)))
        need(t, "irq_sources", w, (dict, type(None)))
        if t and c["bound_ns"].get(m) is not None and t.get("irq") is not None and \
                sum(t[k] for k in ("blocking", "paie", "psd", "nmi", "irq")) != c["bound_ns"][m]:
            errors.append(w + ": the terms do not add up to the bound")
check_cpu(need(j, "system", "", (dict,)), "system")
stop = need(j, "stop", "", (dict, type(None)))
if stop is not None:
    need(stop, "cpu", "stop", (int,))
    need(stop, "variable", "stop", (str,))
    need(stop, "value_ns", "stop", (int, type(None)))
wl = need(j, "workload", "", (dict, type(None)))
if wl is not None:
    need(wl, "command", "workload", (str,))
    need(wl, "exit_status", "workload", (int,))
    lat = need(wl, "max_latency_us", "workload", (dict,)) or {}
    for cpu, v in lat.items():
        if not cpu.isdigit() or not isinstance(v, int):
            errors.append("workload.max_latency_us: %r: %r" % (cpu, v))
for e in errors:
    print("# " + e)
sys.exit(1 if errors else 0)
EOF
}

# sl_ge VALUE MIN - VALUE (a JSON number, or None for unbounded) >= MIN
sl_ge() {
	[ "$1" = None ] && return 0
	[ -n "$1" ] && [ "$1" -ge "$2" ]
}

# sl_delay_cmd MODE US CPU - a shell command making one window of US us
sl_delay_cmd() {
	echo "modprobe preemptirq_delay_test test_mode=$1 delay=$2 cpu_affinity=$3 && rmmod preemptirq_delay_test"
}
