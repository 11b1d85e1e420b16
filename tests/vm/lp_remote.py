#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
lp_remote.py - the remote wakeups of lp_remote, read from the buffer of the
instance it ran in (latency_parser_remote.t).

usage: lp_remote.py PHASES TRACE

PHASES holds lp_remote's "phase NAME waker TID target TID hog TID" lines,
TRACE the instance's trace: the markers lp_remote wrote before each round,
sched_waking, sched_wakeup, sched_switch, sched_migrate_task,
power:cpu_idle, the tracer's interrupt executions and its new_max events.

One line per remote wakeup of a round (the waker's of the target, then the
target's answer, which wakes the waker on the other CPU), tab-separated,
after a header line naming the fields. Times are sched_clock() ns; the
trace's own timestamps have microseconds only, so a wakeup's times are
floored (w) or rounded up (u) to the microsecond:

  phase, round  the marker's
  kind          target (CPU 0 wakes the target on CPU 1) or answer
  waker, cpu    the waker's CPU, the woken thread's
  w             the waker's sched_waking: the wakeup begins
  u             its sched_wakeup: need_resched was set in between, and the
                tracer's probe read the waker's clock for its post
  s             the woken thread's sched_switch on its CPU
  state         the woken thread's CPU at w: asleep (the idle task in its
                sleep), hog (lp_remote's SCHED_IDLE load) or other
  clean         1 if nothing else could have set that CPU's need_resched
                since its last context switch: no other wakeup or migration
                onto it and no event of its own with TIF_NEED_RESCHED set,
                up to u
  paie, start   the PAIE that ended at the switch to the woken thread: the
                CPU's last new_max paie event before s, with no other switch
                in between (the round began by clearing the maxima, so the
                first PAIE of each CPU is a new maximum), or "-"
  early         new_max paie events of the woken CPU between the wakeup and
                s that started in [w, u] at a time that is no interrupt's
                start: at a post of the waker's clock. A PAIE that starts
                at an interrupt of that CPU is the CPU's own: the tick that
                upgrades the lazy flag in flight (its start may fall in
                [w, u] too, and then the waker posted nothing)
  tick          those let through by that rule, each named by what started
                there: the vector (236 is the local timer) or irq number,
                joined by "+" ("-" when there is none), so that a start at
                another interrupt than the tick shows in the test's output
  end           the start of the PSD of that switch (the PAIE's end): the
                first new_max psd event after s, if it started before s
  irq           the interrupt time of the CPU that started in [start, end)
  flight        from the PAIE's start to the first interrupt of the CPU
                that started after it (the reschedule IPI, when one came)
  inflight      1 if the PAIE starts at an interrupt of the CPU that was
                running at the post (the tracer then discounts it whole)
  atirq         1 if the PAIE starts where an interrupt of the CPU that
                began after the post returned (as it would if no post came
                and the reschedule IPI's return started it)
  preempted     1 if the hog was preempted (prev_state R+) between w and s
  ipis          reschedule IPIs (vector 253) the CPU took between w and s
"""
import re
import sys

TIF_NR = set("BNbn")	# need-resched column letters with TIF_NEED_RESCHED
RESCHEDULE_VECTOR = "253"

LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+)\.(\d{6}): (\w+): (.*)$")


def fields(rest):
    return dict(re.findall(r"(\w+)=(\S+)", rest))


def main(phases_path, trace_path):
    phases = {}
    for line in open(phases_path):
        m = re.match(r"phase (\S+) waker (\d+) target (\d+) hog (\d+)", line)
        if m:
            phases[m.group(1)] = {"waker": int(m.group(2)), "target": int(m.group(3)),
                                  "hog": int(m.group(4))}

    events = []
    for line in open(trace_path):
        m = LINE.match(line)
        if not m:
            continue
        _, pid, cpu, flags, sec, usec, name, rest = m.groups()
        events.append({"pid": int(pid), "cpu": int(cpu), "flags": flags,
                       "ts": int(sec) * 10**9 + int(usec) * 1000,
                       "name": name, "rest": rest})

    # every interrupt execution of each CPU: (start, duration), and what
    # each start was ("vector:N", "irq:N" or "nmi")
    irqs, what = {}, {}
    for e in events:
        if e["name"] in ("irq_execution", "vector_execution", "nmi_execution"):
            m = re.search(r"start (\d+) duration (\d+)", e["rest"])
            if m:
                st = int(m.group(1))
                irqs.setdefault(e["cpu"], []).append((st, int(m.group(2))))
                kind = e["name"].split("_")[0]
                if kind != "nmi":
                    kind += ":" + e["rest"].split()[0]
                what[(e["cpu"], st)] = kind

    cur, asleep, dirty = {}, {}, {}
    waking = {}		# pid -> its last sched_waking
    phase, rnd, round_pids = None, None, set()
    wakes = []		# every wakeup of a round
    open_wakes = []	# those whose thread has not run yet
    done = []		# those whose thread ran, still looking for the PSD

    for e in events:
        name, c = e["name"], e["cpu"]
        if c not in dirty:
            dirty[c] = False
        if len(e["flags"]) > 1 and e["flags"][1] in TIF_NR:
            dirty[c] = True

        if name == "tracing_mark_write":
            m = re.search(r"lp_remote (\S+) round (\d+)", e["rest"])
            if m and m.group(1) in phases:
                phase, rnd = m.group(1), int(m.group(2))
                round_pids = {"target", "answer"}
            continue

        if name == "sched_waking":
            f = fields(e["rest"])
            waking[int(f.get("pid", -1))] = e
            continue

        if name == "sched_migrate_task":
            f = fields(e["rest"])
            if "dest_cpu" in f:
                dirty[int(f["dest_cpu"])] = True
            continue

        if name == "sched_wakeup":
            f = fields(e["rest"])
            if "pid" not in f or "target_cpu" not in f:
                continue
            pid, b = int(f["pid"]), int(f["target_cpu"])
            p = phases.get(phase)
            kind = None
            if p and b != c and pid in waking and waking[pid]["cpu"] == c:
                if pid == p["target"] and "target" in round_pids:
                    kind = "target"
                elif pid == p["waker"] and "answer" in round_pids and \
                        "target" not in round_pids:
                    kind = "answer"
            if kind is None:
                # another CPU's wakeup (a local one shows in the flags)
                if b != c:
                    dirty[b] = True
                continue
            round_pids.discard(kind)
            w = waking.pop(pid)["ts"]
            hog = p["hog"]
            if cur.get(b) == 0 and asleep.get(b):
                state = "asleep"
            elif hog and cur.get(b) == hog:
                state = "hog"
            else:
                state = "other"
            wakes.append({
                "phase": phase, "round": rnd, "kind": kind, "pid": pid,
                "waker": c, "cpu": b, "w": w, "u": e["ts"] + 999, "s": None,
                "state": state, "clean": 0 if dirty.get(b) else 1, "hog": hog,
                "paie": None, "news": [], "end": None, "preempted": 0,
                "ipis": 0})
            open_wakes.append(wakes[-1])
            continue

        if name == "cpu_idle":
            f = fields(e["rest"])
            if "state" in f:
                asleep[c] = f["state"] != "4294967295"
            continue

        if name == "vector_execution":
            for r in open_wakes:
                if r["cpu"] == c and e["rest"].split()[0] == RESCHEDULE_VECTOR:
                    r["ipis"] += 1
            continue

        if name == "new_max":
            m = re.match(r"(\w+) (\d+) ns start (\d+)", e["rest"])
            if not m:
                continue
            var, val, start = m.group(1), int(m.group(2)), int(m.group(3))
            if var == "paie":
                for r in open_wakes:
                    if r["cpu"] == c:
                        r["paie"] = (val, start)
                        r["news"].append(start)
            elif var == "psd":
                for r in done:
                    if r["cpu"] == c and r["end"] is None:
                        r["end"] = start
                done = [r for r in done if r["cpu"] != c]
            continue

        if name == "sched_switch":
            f = fields(e["rest"])
            if "next_pid" not in f:
                continue
            prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
            # a switch's PSD ends before the CPU switches again: a wakeup
            # whose PSD was no new maximum by now has none to show
            done = [r for r in done if r["cpu"] != c]
            for r in list(open_wakes):
                if r["cpu"] != c:
                    continue
                if r["hog"] and prev == r["hog"] and f.get("prev_state", "").startswith("R+"):
                    r["preempted"] = 1
                if nxt == r["pid"]:
                    r["s"] = e["ts"]
                    open_wakes.remove(r)
                    done.append(r)
                else:
                    r["paie"] = None	# not the PAIE of this wakeup's switch
            cur[c] = nxt
            dirty[c] = False

    keys = ["phase", "round", "kind", "waker", "cpu", "w", "u", "s", "state", "clean",
            "paie", "start", "early", "tick", "end", "irq", "flight", "inflight", "preempted", "ipis",
            "atirq"]
    print("\t".join(keys))
    for r in wakes:
        b = r["cpu"]
        cpu_irqs = irqs.get(b, [])
        # interrupts of the CPU running at the post, which lies in [w, u]
        running = [st for (st, d) in cpu_irqs if st <= r["u"] and st + d >= r["w"]]
        starts = {st for (st, d) in cpu_irqs}
        in_post = [st for st in r["news"] if r["w"] <= st <= r["u"]]
        r["early"] = sum(1 for st in in_post if st not in starts)
        r["tick"] = "+".join(what[(b, st)] for st in in_post if st in starts) or "-"
        r["atirq"] = 0
        if r["paie"] is None:
            r["paie"], r["start"] = "-", "-"
            r["irq"], r["flight"], r["inflight"] = "-", "-", 0
        else:
            val, start = r["paie"]
            r["paie"], r["start"] = val, start
            r["inflight"] = 1 if start in running else 0
            r["atirq"] = 1 if any(st >= r["w"] and 0 <= start - (st + d) <= 1000
                                  for (st, d) in cpu_irqs) else 0
            after = [st for (st, d) in cpu_irqs if st > start]
            r["flight"] = min(after) - start if after else "-"
            end = r["end"]
            if end is not None and r["s"] is not None and start <= end <= r["s"] + 999:
                r["irq"] = sum(d for (st, d) in cpu_irqs if start <= st < end)
            else:
                r["end"], r["irq"] = None, "-"
        for k in ("end", "s"):
            if r[k] is None:
                r[k] = "-"
        print("\t".join(str(r[k]) for k in keys))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(next(line for line in __doc__.splitlines() if line.startswith("usage:")))
    main(sys.argv[1], sys.argv[2])
