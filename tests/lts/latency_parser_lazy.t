#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm/latency_parser_lazy.t on the 6.12 backport (lts.sh)
. "$(dirname "$0")/lts.sh"
