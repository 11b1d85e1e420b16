/* SPDX-License-Identifier: GPL-2.0 */
/* READ_ONCE and friends, for the kernel sources built on the host. */
#ifndef _LP_HOST_SHIM_COMPILER_H
#define _LP_HOST_SHIM_COMPILER_H

#include "types.h"

/* glibc's <sys/cdefs.h> has __always_inline already */
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define noinline	__attribute__((__noinline__))

#endif /* _LP_HOST_SHIM_COMPILER_H */
