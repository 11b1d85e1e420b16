/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types the latency parser's state machine uses, for building
 * it unchanged on the host (tests/unit): this directory comes first on the
 * include path.
 */
#ifndef _LP_HOST_SHIM_TYPES_H
#define _LP_HOST_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()	__asm__ __volatile__("" ::: "memory")

#endif /* _LP_HOST_SHIM_TYPES_H */
