/* SPDX-License-Identifier: GPL-2.0 */
/* READ_ONCE and friends, for the kernel sources built on the host. */
#ifndef _LP_HOST_SHIM_COMPILER_H
#define _LP_HOST_SHIM_COMPILER_H

#include "types.h"

#endif /* _LP_HOST_SHIM_COMPILER_H */
