#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# patch-notes.sh - put each patch's note below its --- line, where git am
# skips it and a reviewer reads it: what checkpatch --strict still says of
# the patch and why it stays. The notes live in NOTESDIR, one file per
# patch, named after the patch without its number (0022-rtla-foo.patch:
# NOTESDIR/rtla-foo), so that they survive a renumbering and the git am
# that rebuilds the tree from the series. A patch with no note is left as
# it is; a note whose patch is gone is an error, not dropped silently.
#
# usage: patch-notes.sh PATCHDIR NOTESDIR

set -euo pipefail

patchdir=$1
notes=$2

[ -d "$notes" ] || exit 0
for note in "$notes"/*; do
	[ -f "$note" ] || continue
	name=$(basename "$note")
	patch=$(ls "$patchdir"/[0-9][0-9][0-9][0-9]-"$name".patch 2>/dev/null | head -1)
	if [ -z "$patch" ]; then
		echo "patch-notes: $note has no patch $patchdir/NNNN-$name.patch" >&2
		exit 1
	fi
	# Once: a patch that has its note already keeps it as it is.
	awk -v note="$note" '
		!done && $0 == "---" {
			print
			done = 1
			if ((getline next_line) <= 0)
				exit
			if ((getline first < note) > 0 && next_line != first) {
				print first
				while ((getline line < note) > 0)
					print line
				print ""
			}
			print next_line
			next
		}
		{ print }
		END { if (!done) exit 1 }' "$patch" > "$patch.tmp" || {
		rm -f "$patch.tmp"
		echo "patch-notes: $patch has no --- line" >&2
		exit 1
	}
	mv "$patch.tmp" "$patch"
done
