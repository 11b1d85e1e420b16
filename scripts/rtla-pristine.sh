#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtla-pristine.sh - build the rtla of the mainline tree without the
# series (its commit "base"), beside the patched one, so that make
# test-rtla can run 7.3's own rtla tests with both on one kernel and
# compare the results (tests/rtla/): the series' shared-code patches
# must change nothing for timerlat, osnoise and hwnoise.
#
# usage: rtla-pristine.sh KTREE DEST
#   DEST: a git worktree of KTREE at base; rtla and its unit tests built
#   in DEST/tools/tracing/rtla with the tree's own Makefile.

set -euo pipefail

ktree=$(realpath "$1")
dest=$(realpath -m "$2")
top=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/worktree.sh"
worktree_at "$ktree" "$dest" base

rtla_dir=$dest/tools/tracing/rtla
make -s -C "$rtla_dir" > /dev/null
# Debian's libcheck needs libsubunit and libm after it (tests/host/libcheck.sh)
. "$top/tests/host/libcheck.sh"
make -s -C "$rtla_dir" "$rtla_dir/unit_tests" LDFLAGS="-L$shim" > /dev/null
echo "rtla-pristine: $rtla_dir/rtla ($(git -C "$dest" log -1 --format=%s))"
