#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# core_words.py CORE ADDR - where a faulting address lives in a core dump
#
# A load of stress.t died of a fault on a pointer that looked like a good
# one with a byte cleared (0x00f80f1cb440 where the heap was 0x55f8...),
# with no kernel report. The question that decides where to look: is the
# bad value in the process's memory (something wrote it there), or only in
# a register (something clobbered the task's state)? This prints every
# 8-byte-aligned word of the core's memory whose low five bytes are those
# of ADDR: the bad value itself, and the good one it may have been, with
# the words around each.

import struct
import sys

PT_LOAD = 1
MAX_HITS = 16


def segments(core):
    """(vaddr, bytes) of each PT_LOAD segment held in the core"""
    phoff, = struct.unpack_from('<Q', core, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', core, 0x36)
    for i in range(phnum):
        (ptype, _flags, offset, vaddr, _paddr,
         filesz, _memsz, _align) = struct.unpack_from('<IIQQQQQQ', core, phoff + i * phentsize)
        if ptype == PT_LOAD and filesz:
            yield vaddr, core[offset:offset + filesz]


def main():
    with open(sys.argv[1], 'rb') as f:
        core = f.read()
    if core[:4] != b'\x7fELF':
        sys.exit(f'{sys.argv[1]}: not an ELF core')
    addr = int(sys.argv[2], 16)
    low = addr.to_bytes(8, 'little')[:5]
    hits = 0
    for vaddr, data in segments(core):
        at = data.find(low)
        while at >= 0 and hits < MAX_HITS:
            if at % 8 == 0:
                word, = struct.unpack_from('<Q', data, at)
                start = max(0, min(at - 16, len(data) - 32))
                around = ' '.join(f'{w:016x}' for w in
                                  struct.unpack_from('<4Q', data, start))
                kind = 'the fault address' if word == addr else 'same low bytes'
                print(f'{vaddr + at:#x}: {word:#018x} ({kind}); around: {around}')
                hits += 1
            at = data.find(low, at + 1)
    if not hits:
        print(f'no word of the core has the low bytes of {addr:#x}: '
              'the value lived only in registers')


if __name__ == '__main__':
    main()
