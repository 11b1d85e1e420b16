# SPDX-License-Identifier: GPL-2.0
#
# worktree.sh - sourced by the scripts that build a second kernel from the
# tree of make kernel (kernel-untraced.sh, kernel-debug.sh).

# worktree_at_head KTREE DEST - DEST is a git worktree of KTREE at its HEAD
worktree_at_head() {
	local ktree=$1 dest=$2 head

	head=$(git -C "$ktree" rev-parse HEAD)
	if [ ! -e "$dest/.git" ]; then
		git -C "$ktree" worktree prune
		git -C "$ktree" worktree add -q -f --detach "$dest" "$head"
	elif [ "$(git -C "$dest" rev-parse HEAD)" != "$head" ]; then
		git -C "$dest" checkout -q --detach "$head"
	fi
}
