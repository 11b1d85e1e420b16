# SPDX-License-Identifier: GPL-2.0
#
# worktree.sh - sourced by the scripts that build a second tree from the
# tree of make kernel (kernel-untraced.sh, kernel-debug.sh,
# rtla-pristine.sh).

# worktree_at KTREE DEST REV - DEST is a git worktree of KTREE at REV
worktree_at() {
	local ktree=$1 dest=$2 rev

	rev=$(git -C "$ktree" rev-parse "$3^{commit}")
	if [ ! -e "$dest/.git" ]; then
		git -C "$ktree" worktree prune
		git -C "$ktree" worktree add -q -f --detach "$dest" "$rev"
	elif [ "$(git -C "$dest" rev-parse HEAD)" != "$rev" ]; then
		git -C "$dest" checkout -q --detach "$rev"
	fi
}

# worktree_at_head KTREE DEST - DEST is a git worktree of KTREE at its HEAD
worktree_at_head() {
	worktree_at "$1" "$2" HEAD
}
