#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# stress.py - the tracefs side of tests/debug/stress.t, in one process: on
# the debug kernel under TCG every program started costs seconds (the
# binaries come over 9p, KASAN checks every access), so the loops run as
# threads here rather than as shell loops of mkdir, rmdir, cat and sleep.
# For SECONDS, and on until the churn is done, at once:
# - fuzz: random input into every file of INSTANCE's latency_parser/ and
#   hist/ (random bytes, huge and negative numbers, empty and oversized
#   writes, cpu lists, valid values, at random offsets and on files held
#   open since the start), reads in random pieces and from random offsets;
#   the instance's tracing and its events turned off and on, its tracer
#   switched away and back now and then; triggers (stack traces, hist,
#   enabling another event) and filters, valid and random, set on the
#   tracer's events and taken off again, and the instance's tracing_cpumask
#   given random CPU lists. A window over a random
#   stop_tracing_us stops the instance: each stop is counted and the
#   instance turned on again.
# - churn: 100 other instances made and removed, five at a time, spread
#   over SECONDS at least: one in five stays nop, the others select
#   latency_parser with random CPUs, events, stack traces and thresholds;
#   every other one is removed while the tracer runs. After each five, a
#   "# churn" line to standard error.
# - hotplug: CPU 1 offline and back, again and again, once the file named
#   by $STRESS_HOTPLUG_AFTER exists (stress.t makes it when its loads have
#   started: stress-ng 0.15 corrupts its own memory when a CPU goes away
#   during its start, see stress.t).
# - reader: INSTANCE's trace_pipe consumed, its trace read.
#
# - watchdog: a thread whose loop has not come round for 600 s hangs in
#   the kernel (the debug kernel has no hung task detector): "hang THREAD"
#   goes to HANG_FILE, for stress.t to report, and every thread's Python
#   stack to standard error.
#
# usage: stress.py INSTANCE_DIR SECONDS HANG_FILE [SEED]
# Prints a line per thread ("fuzz ...", "churn MADE GONE SECONDS",
# "hotplug CYCLES REFUSED SECONDS FIRST_OFFLINE_UPTIME", "reader ROUNDS",
# "stops N"), then exits
# 1 only on an error of its own (a Python exception), never on an errno the
# kernel answers.

import collections
import errno
import faulthandler
import os
import random
import signal
import sys
import threading
import time

# stress.t's watchdog asks for every thread's stack with SIGUSR1
faulthandler.register(signal.SIGUSR1, all_threads=True)

inst, secs, hang_file = sys.argv[1], float(sys.argv[2]), sys.argv[3]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else int.from_bytes(os.urandom(4), "little")
TRACEFS = "/sys/kernel/tracing"
CPU1 = "/sys/devices/system/cpu/cpu1/online"
lp = os.path.join(inst, "latency_parser")
NAMES = ["cpus", "stop_tracing_us", "hist_bucket_ns", "hist_buckets", "max",
         "reset", "hist/poid", "hist/psd", "hist/dst", "hist/paie",
         "hist/irq", "hist/nmi"]
EXECUTIONS = ["irq_execution", "vector_execution", "nmi_execution"]

HANG = 600
lock = threading.Lock()
errnos = collections.Counter()
results = {}
failures = []
# when each thread's loop last came round
alive = {}
churn_done = threading.Event()
start = time.monotonic()


def count_errno(where, e):
    with lock:
        errnos[where + " " + errno.errorcode.get(e.errno, str(e.errno))] += 1


def write_file(path, data, where="set"):
    """A plain write, as echo DATA > PATH; False on an errno."""
    try:
        with open(path, "w") as f:
            f.write(data)
        return True
    except OSError as e:
        count_errno(where, e)
        return False


def read_file(path, size=-1):
    """The file's content, empty if it cannot be read."""
    try:
        with open(path) as f:
            return f.read(size)
    except OSError:
        return ""


def uptime():
    """Seconds since boot, as /proc/uptime says them"""
    return read_file("/proc/uptime").split(" ")[0]


def until(end):
    return time.monotonic() < end


def going_on(name):
    """Another round: for SECONDS, and on until the churn is done."""
    alive[name] = time.monotonic()
    return not churn_done.is_set() or until(start + secs)


#
# fuzz
#

NUMBERS = [0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**61, 2**63 - 1, 2**63,
           2**64 - 1, 2**64, 10**30, 18446744073709551, 18446744073709552,
           4294967296, 2305843009213693952, 9223372036854775808, 10000, 10001]
CPULISTS = [b"0", b"1", b"0-1", b"1-0", b"0,1", b"1,0", b"0-", b"-1", b"2",
            b"0-2", b"N", b"all", b"0-1:1/2", b"0-1:0/2", b"0-4095", b"4096",
            b" 0 ", b"0\n1", b",", b"0-1\n", b"1\n", b"0,,1", b"00", b"1-1",
            b"0-18446744073709551615", b"-", b":", b"0-1:2/1"]


def payload(rng, name):
    """One random input, biased to what the file parses."""
    kind = rng.randrange(14)
    if kind == 0:
        return os.urandom(rng.randint(1, 64))
    if kind == 1:
        return os.urandom(rng.choice([127, 128, 4095, 4096, 4097, 65536]))
    if kind == 2:
        return b""
    if kind == 3:
        return rng.choice([b"\n", b"\0", b" ", b"\n\n", b"\t"])
    if kind == 4:
        return str(rng.choice(NUMBERS)).encode() + rng.choice([b"", b"\n"])
    if kind == 5:
        return b"-" + str(rng.choice(NUMBERS[1:])).encode()
    if kind == 6:
        return str(rng.randint(0, 10 ** rng.randint(0, 21))).encode() + \
            rng.choice([b"", b"\n", b" ", b"x", b"\0", b"\n5"])
    if kind == 7:
        return rng.choice([b"0x10", b"1e3", b"+5", b" 7", b"08", b"0b1",
                           b"1.5", b"00000000000000000000001", b"\xff\xfe1"])
    if kind == 8:
        return b"9" * rng.randint(20, 300)
    if kind in (9, 10):
        return rng.choice(CPULISTS)
    # what the file takes, so that the writes also succeed
    if name == "stop_tracing_us":
        # thresholds that TCG's windows cross: the instance stops
        return str(rng.choice([0, rng.randint(1, 20000)])).encode()
    if name == "hist_bucket_ns":
        return str(rng.randint(1, 400000)).encode()
    if name == "hist_buckets":
        return str(rng.randint(1, 10000)).encode()
    if name == "cpus":
        return rng.choice([b"0", b"1", b"0-1"])
    return b"1"


def fuzz_write(rng, stats, path):
    name = os.path.basename(path)
    flags = rng.choice([os.O_WRONLY, os.O_WRONLY | os.O_TRUNC, os.O_RDWR,
                        os.O_WRONLY | os.O_APPEND])
    try:
        fd = os.open(path, flags)
    except OSError as e:
        count_errno("fuzz open", e)
        return
    try:
        how = rng.randrange(4)
        if how == 0:
            os.pwrite(fd, payload(rng, name), rng.choice([1, 7, 4096, 2**40]))
        elif how == 1:
            # several writes on one open file: the offset moves
            os.write(fd, payload(rng, name))
            os.write(fd, payload(rng, name))
        else:
            os.write(fd, payload(rng, name))
        stats["writes ok"] += 1
    except OSError as e:
        count_errno("fuzz write", e)
    finally:
        os.close(fd)
    stats["writes"] += 1


def fuzz_read(rng, stats, path):
    try:
        fd = os.open(path, rng.choice([os.O_RDONLY, os.O_RDWR]))
    except OSError as e:
        count_errno("fuzz open", e)
        return
    try:
        how = rng.randrange(4)
        if how == 0:
            os.lseek(fd, rng.choice([1, 5, 100, 4096, 2**40, 2**62]), os.SEEK_SET)
            os.read(fd, 4096)
        elif how == 1:
            os.pread(fd, rng.choice([1, 64, 4096]), rng.choice([0, 3, 9999, 2**50]))
        else:
            # small pieces: the seq files restart their record
            size = rng.choice([1, 3, 17, 100, 4096])
            for _ in range(rng.randint(1, 50)):
                if not os.read(fd, size):
                    break
        stats["reads ok"] += 1
    except OSError as e:
        count_errno("fuzz read", e)
    finally:
        os.close(fd)
    stats["reads"] += 1


# Triggers and filters on the tracer's events: they run in the probes'
# context (IRQs off, or an NMI) when an event fires. No traceoff: a stop
# must be the threshold's, to be counted as one.
EVENTS = EXECUTIONS + ["new_max", "threshold_stop"]
TRIGGERS = ["stacktrace", "stacktrace:3", "hist:keys=common_pid",
            "hist:keys=var:vals=value:sort=value", "hist:keys=instance.hex",
            "hist:keys=id:vals=duration", "hist:keys=value.log2",
            "enable_event:latency_parser:irq_execution",
            "disable_event:latency_parser:vector_execution",
            "enable_event:sched:sched_switch:2"]
FILTERS = ["value > 1000", 'var == "poid"', 'instance ~ "stress*"',
           "duration > 5000 && id == 236", "common_pid != 0", "value & 1",
           "nonexistent == 1", "value >", '(((('] + \
          [str(n) for n in NUMBERS[:4]]


def fuzz_event(rng, stats, triggers):
    """A trigger or a filter set on (or taken off) one of the events."""
    name = rng.choice(EVENTS)
    d = os.path.join(inst, "events", "latency_parser", name)
    if rng.random() < 0.5:
        if name in triggers and rng.random() < 0.5:
            write_file(os.path.join(d, "trigger"), "!" + triggers.pop(name),
                       "fuzz trigger")
        elif name not in triggers:
            trigger = rng.choice(TRIGGERS)
            if write_file(os.path.join(d, "trigger"), trigger, "fuzz trigger"):
                triggers[name] = trigger
        stats["triggers"] += 1
    else:
        if rng.random() < 0.2:
            data = os.urandom(rng.randint(1, 64))
        else:
            data = rng.choice(FILTERS + ["0"]).encode()
        try:
            with open(os.path.join(d, "filter"), "wb") as f:
                f.write(data)
        except OSError as e:
            count_errno("fuzz filter", e)
        stats["filters"] += 1


def listed():
    """The files of latency_parser/ as the kernel lists them right now."""
    found = []
    for root, _, names in os.walk(lp):
        found += [os.path.join(root, n) for n in names]
    return found or [os.path.join(lp, n) for n in NAMES]


def fuzz(rng):
    stats = collections.Counter()
    # Files held open from the start: they outlive tracer switches.
    held = []
    for path in listed():
        try:
            held.append((path, os.open(path, os.O_RDWR)))
        except OSError:
            pass

    tracing_on = os.path.join(inst, "tracing_on")
    events = os.path.join(inst, "events", "latency_parser", "enable")
    current_tracer = os.path.join(inst, "current_tracer")
    cpumask = os.path.join(inst, "tracing_cpumask")
    triggers = {}
    we_turned_off = False
    while going_on("fuzz"):
        stats["rounds"] += 1
        # a stop by a threshold: count it, then go on tracing
        if read_file(tracing_on).strip() == "0":
            if not we_turned_off:
                stats["threshold stops"] += 1
            if rng.random() < 0.5:
                write_file(os.path.join(lp, "stop_tracing_us"), "0", "fuzz")
            write_file(tracing_on, "1", "fuzz")
            we_turned_off = False
        r = rng.random()
        if r < 0.05:
            # tracing off: geometry changes apply (and swap the results)
            write_file(tracing_on, "0", "fuzz")
            we_turned_off = True
        elif r < 0.06:
            # the execution, new_max and threshold_stop events of the instance
            write_file(events, rng.choice(["0", "1"]), "fuzz")
            stats["event toggles"] += 1
        elif r < 0.062:
            write_file(current_tracer, "nop", "fuzz switch")
            write_file(current_tracer, "latency_parser", "fuzz switch")
            stats["tracer switches"] += 1
        elif r < 0.14:
            fuzz_event(rng, stats, triggers)
        elif r < 0.15:
            write_file(cpumask, rng.choice(["1", "2", "3", "0", "ffff", "x",
                                            "", "3\n", "-1"]), "fuzz cpumask")
        elif r < 0.18 and held:
            path, fd = rng.choice(held)
            try:
                if rng.random() < 0.5:
                    os.pwrite(fd, payload(rng, os.path.basename(path)), 0)
                else:
                    os.pread(fd, 4096, 0)
            except OSError as e:
                count_errno("fuzz held", e)
            stats["held"] += 1
        paths = listed()
        for _ in range(10):
            path = rng.choice(paths)
            if rng.random() < 0.7:
                fuzz_write(rng, stats, path)
            else:
                fuzz_read(rng, stats, path)

    for _, fd in held:
        os.close(fd)
    for name, trigger in triggers.items():
        write_file(os.path.join(inst, "events", "latency_parser", name,
                                "trigger"), "!" + trigger, "fuzz trigger")
    for name in EVENTS:
        write_file(os.path.join(inst, "events", "latency_parser", name,
                                "filter"), "0", "fuzz filter")
    write_file(cpumask, "3", "fuzz cpumask")
    write_file(os.path.join(lp, "stop_tracing_us"), "0", "fuzz")
    write_file(tracing_on, "1", "fuzz")
    results["stops"] = "%d" % stats["threshold stops"]
    results["fuzz"] = "seed %d; %s" % (
        seed, ", ".join("%s %d" % kv for kv in sorted(stats.items())))


#
# churn
#

def churn_one(rng, i):
    """Make instance churnI: one in five stays nop."""
    d = os.path.join(TRACEFS, "instances", "churn%d" % i)
    try:
        os.mkdir(d)
    except OSError as e:
        count_errno("churn mkdir", e)
        return False
    if i % 5 == 0:
        return True
    if not write_file(os.path.join(d, "current_tracer"), "latency_parser", "churn"):
        return True
    write_file(os.path.join(d, "latency_parser", "cpus"),
               rng.choice(["0-1", "1", "0"]), "churn")
    for ev in EXECUTIONS:
        write_file(os.path.join(d, "events", "latency_parser", ev, "enable"),
                   rng.choice(["0", "1"]), "churn")
    # 2 is refused
    write_file(os.path.join(d, "options", "stacktrace"), rng.choice("012"), "churn")
    # a threshold TCG's windows cross now and then: the instance stops
    write_file(os.path.join(d, "latency_parser", "stop_tracing_us"),
               rng.choice(["0", "5000", "10000"]), "churn")
    return True


def churn_gone(i):
    """Remove churnI: every other one while the tracer runs."""
    d = os.path.join(TRACEFS, "instances", "churn%d" % i)
    read_file(os.path.join(d, "latency_parser", "max"))
    read_file(os.path.join(d, "latency_parser", "hist", "poid"))
    if i % 2 == 0:
        write_file(os.path.join(d, "current_tracer"), "nop", "churn")
    try:
        os.rmdir(d)
        return True
    except OSError as e:
        count_errno("churn rmdir", e)
        return False


def churn(rng):
    made = gone = 0
    for batch in range(20):
        while time.monotonic() < start + batch * secs / 20:
            alive["churn"] = time.monotonic()
            time.sleep(0.5)
        numbers = range(batch * 5 + 1, batch * 5 + 6)
        for i in numbers:
            alive["churn"] = time.monotonic()
            made += churn_one(rng, i)
        time.sleep(1)
        for i in numbers:
            alive["churn"] = time.monotonic()
            gone += churn_gone(i)
        print("# churn: %d instances made, %d removed after %d s" %
              (made, gone, time.monotonic() - start), file=sys.stderr, flush=True)
    results["churn"] = "%d %d %d" % (made, gone, time.monotonic() - start)
    churn_done.set()


#
# hotplug, reader
#

def hotplug(rng):
    cycles = refused = 0
    first = None
    after = os.environ.get("STRESS_HOTPLUG_AFTER")
    while after and not os.path.exists(after) and going_on("hotplug"):
        time.sleep(1)
    while going_on("hotplug"):
        time.sleep(1)
        if first is None:
            first = uptime()
        if not write_file(CPU1, "0", "hotplug"):
            refused += 1
            continue
        time.sleep(1)
        while not write_file(CPU1, "1", "hotplug"):
            alive["hotplug"] = time.monotonic()
            refused += 1
            time.sleep(1)
        cycles += 1
    results["hotplug"] = "%d %d %d %s" % (cycles, refused, time.monotonic() - start, first)


def reader(rng):
    rounds = 0
    while going_on("reader"):
        try:
            fd = os.open(os.path.join(inst, "trace_pipe"), os.O_RDONLY | os.O_NONBLOCK)
            stop = time.monotonic() + 2
            while until(stop):
                try:
                    os.read(fd, 65536)
                except BlockingIOError:
                    time.sleep(0.1)
            os.close(fd)
        except OSError as e:
            count_errno("reader", e)
        read_file(os.path.join(inst, "trace"), 1 << 16)
        rounds += 1
        time.sleep(1)
    results["reader"] = "%d" % rounds


def run(job, rng):
    print("# %s: starts at %s s of uptime" % (job.__name__, uptime()),
          file=sys.stderr, flush=True)
    try:
        job(rng)
    except Exception as e:  # a bug of this script: the test fails
        failures.append("%s: %r" % (job.__name__, e))
        raise
    print("# %s: ends at %s s of uptime" % (job.__name__, uptime()),
          file=sys.stderr, flush=True)


def watchdog(threads):
    while any(t.is_alive() for t in threads):
        now = time.monotonic()
        for t in threads:
            if t.is_alive() and now - alive.get(t.name, now) > HANG:
                print("# watchdog: %s has not come round for %d s" %
                      (t.name, now - alive[t.name]), file=sys.stderr, flush=True)
                faulthandler.dump_traceback(sys.stderr, all_threads=True)
                with open(hang_file, "w") as f:
                    f.write("hang %s\n" % t.name)
                return
        time.sleep(10)


jobs = [fuzz, churn, hotplug, reader]
threads = [threading.Thread(target=run, name=job.__name__,
                            args=(job, random.Random(seed + n)))
           for n, job in enumerate(jobs)]
for t in threads:
    alive[t.name] = time.monotonic()
    t.start()
threading.Thread(target=watchdog, args=(threads,), daemon=True).start()
for t in threads:
    t.join()

for key in ["fuzz", "stops", "churn", "hotplug", "reader"]:
    print(key, results.get(key, "none"))
print("errno", ", ".join("%s %d" % kv for kv in sorted(errnos.items())))
for f in failures:
    print("failure", f)
sys.exit(1 if failures else 0)
