/* SPDX-License-Identifier: GPL-2.0 */
/* ARRAY_SIZE, for the kernel sources built on the host (see types.h). */
#ifndef _LP_HOST_SHIM_ARRAY_SIZE_H
#define _LP_HOST_SHIM_ARRAY_SIZE_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* _LP_HOST_SHIM_ARRAY_SIZE_H */
