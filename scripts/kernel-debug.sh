#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-debug.sh - configure one kernel of make test-debug: the same tree
# and fragments as make kernel plus a config/debug-*.config (the checkers
# of locks and contexts, or those of memory), in a worktree of its own so
# that every kernel stays built.
#
# usage: kernel-debug.sh KTREE DEST FRAGMENT...
#   DEST: a git worktree of KTREE at its HEAD, configured in place.

set -euo pipefail

ktree=$1
dest=$2
shift 2

. "$(dirname "$0")/worktree.sh"
worktree_at_head "$ktree" "$dest"

# Configure only when a fragment changed: a new .config rebuilds everything.
stamp=$dest/.debug-config.sum
sum=$(cat "$@" | sha1sum)
if [ ! -f "$dest/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
	"$(dirname "$0")/kernel-config.sh" "$dest" "$@"
	echo "$sum" > "$stamp"
fi
