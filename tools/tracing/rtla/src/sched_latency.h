/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla sched-latency: bounds the scheduling latency of each cpu with the
 * kernel's latency_parser tracer (see rtla-sched-latency(1)).
 */
#ifndef __SCHED_LATENCY_H
#define __SCHED_LATENCY_H

int sched_latency_main(int argc, char *argv[]);

#endif /* __SCHED_LATENCY_H */
