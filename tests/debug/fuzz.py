#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.py - random input into every file of a latency_parser instance, for
# tests/debug/stress.t: random bytes, huge and negative numbers, empty and
# oversized writes, cpu lists, at random offsets; reads in random pieces
# and from random offsets; the instance's tracing and its events turned off
# and on, its tracer switched away and back now and then (files held open
# across).
# A window over a random stop_tracing_us stops the instance: each stop is
# counted and the instance turned on again.
#
# usage: fuzz.py INSTANCE_DIR SECONDS [SEED]
# Prints one line of counts at the end; exits 1 only on an error of its own
# (a Python exception), never on an errno the kernel answers.

import collections
import errno
import os
import random
import sys
import time

inst, secs = sys.argv[1], float(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
lp = os.path.join(inst, "latency_parser")
NAMES = ["cpus", "stop_tracing_us", "hist_bucket_ns",
         "hist_buckets", "max", "reset", "hist/poid", "hist/psd",
         "hist/dst", "hist/paie", "hist/irq", "hist/nmi"]

stats = collections.Counter()
errnos = collections.Counter()


def listed():
    """The files of latency_parser/ as the kernel lists them right now."""
    found = []
    for root, _, names in os.walk(lp):
        found += [os.path.join(root, n) for n in names]
    return found or [os.path.join(lp, n) for n in NAMES]


def write_file(path, data):
    """A plain write, as echo DATA > PATH."""
    try:
        with open(path, "w") as f:
            f.write(data)
    except OSError as e:
        errnos[errno.errorcode.get(e.errno, str(e.errno))] += 1


def read_file(path):
    """The file's content, empty if it cannot be read."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


NUMBERS = [0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**61, 2**63 - 1, 2**63,
           2**64 - 1, 2**64, 10**30, 18446744073709551, 18446744073709552,
           4294967296, 2305843009213693952, 9223372036854775808, 10000, 10001]
CPULISTS = [b"0", b"1", b"0-1", b"1-0", b"0,1", b"1,0", b"0-", b"-1", b"2",
            b"0-2", b"N", b"all", b"0-1:1/2", b"0-1:0/2", b"0-4095", b"4096",
            b" 0 ", b"0\n1", b",", b"0-1\n", b"1\n", b"0,,1", b"00", b"1-1",
            b"0-18446744073709551615", b"-", b":", b"0-1:2/1"]


def payload(name):
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


def fuzz_write(path):
    name = os.path.relpath(path, lp)
    data = payload(os.path.basename(name))
    flags = rng.choice([os.O_WRONLY, os.O_WRONLY | os.O_TRUNC, os.O_RDWR,
                        os.O_WRONLY | os.O_APPEND])
    try:
        fd = os.open(path, flags)
    except OSError as e:
        errnos["open " + errno.errorcode.get(e.errno, str(e.errno))] += 1
        return
    try:
        how = rng.randrange(4)
        if how == 0:
            os.pwrite(fd, data, rng.choice([1, 7, 4096, 2**40]))
        elif how == 1:
            # several writes on one open file: the offset moves
            os.write(fd, data)
            os.write(fd, payload(os.path.basename(name)))
        else:
            os.write(fd, data)
        stats["writes ok"] += 1
    except OSError as e:
        errnos[errno.errorcode.get(e.errno, str(e.errno))] += 1
    finally:
        os.close(fd)
    stats["writes"] += 1


def fuzz_read(path):
    try:
        fd = os.open(path, rng.choice([os.O_RDONLY, os.O_RDWR]))
    except OSError as e:
        errnos["open " + errno.errorcode.get(e.errno, str(e.errno))] += 1
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
        errnos[errno.errorcode.get(e.errno, str(e.errno))] += 1
    finally:
        os.close(fd)
    stats["reads"] += 1


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
we_turned_off = False
end = time.monotonic() + secs
while time.monotonic() < end:
    stats["rounds"] += 1
    # a stop by a threshold: count it, then go on tracing
    if read_file(tracing_on).strip() == "0":
        if not we_turned_off:
            stats["threshold stops"] += 1
        if rng.random() < 0.5:
            write_file(os.path.join(lp, "stop_tracing_us"), "0")
        write_file(tracing_on, "1")
        we_turned_off = False
    r = rng.random()
    if r < 0.05:
        # tracing off: geometry changes apply (and swap the results)
        write_file(tracing_on, "0")
        we_turned_off = True
    elif r < 0.06:
        # the execution, new_max and threshold_stop events of the instance
        write_file(events, rng.choice(["0", "1"]))
        stats["event toggles"] += 1
    elif r < 0.062:
        write_file(current_tracer, "nop")
        write_file(current_tracer, "latency_parser")
        stats["tracer switches"] += 1
    elif r < 0.09 and held:
        path, fd = rng.choice(held)
        try:
            if rng.random() < 0.5:
                os.pwrite(fd, payload(os.path.basename(path)), 0)
            else:
                os.pread(fd, 4096, 0)
        except OSError as e:
            errnos["held " + errno.errorcode.get(e.errno, str(e.errno))] += 1
        stats["held"] += 1
    paths = listed()
    for _ in range(10):
        path = rng.choice(paths)
        if rng.random() < 0.7:
            fuzz_write(path)
        else:
            fuzz_read(path)

for _, fd in held:
    os.close(fd)
write_file(os.path.join(lp, "stop_tracing_us"), "0")
write_file(tracing_on, "1")
print("seed %d; %s; errno %s" % (
    seed, ", ".join("%s %d" % kv for kv in sorted(stats.items())),
    ", ".join("%s %d" % kv for kv in sorted(errnos.items()))))
