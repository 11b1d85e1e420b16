#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/rtla_selftests.t on the 6.12 backport (lts.sh): mainline rtla's own
# sched-latency.t on the 6.12 kernel
. "$(dirname "$0")/lts.sh"
