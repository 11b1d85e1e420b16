#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every patch of the three series passes checkpatch.pl --strict with no
# error and no warning, and is listed in its series file; each series has
# the patches it should (the mainline one: 15 kernel and rtla shared-code
# patches, then rtla sched-latency's 8), and each kernel tree of build/
# holds its series: kernel-patches/ in build/linux, kernel-patches/6.12 in
# build/linux-6.12, kernel-patches/6.1 on Debian 12's patches-rt (tag rt)
# in build/linux-6.1-rt. make dist writes the first two as they are, so
# they are what upstream gets. The 6.1 tree is made by make test-distro
# only: without it, its series is checked with the 6.12 tree's script,
# which adds the same files under the same MAINTAINERS entry.
#
# One warning is answered rather than failed: "added, moved or deleted
# file(s), does MAINTAINERS need updating?" (FILE_PATH_CHANGES). It passes
# when every file the patch adds, moves or deletes falls under an entry of
# the tree's MAINTAINERS other than THE REST (an F: pattern), and fails
# when one does not. The CHECKs are shown, and each kind of them must be
# named in the patch's note below its --- line, with its reason (the notes
# are kept in kernel-patches/notes/, see scripts/patch-notes.sh): a patch
# that has a CHECK its note does not name fails.
#
# A second is answered too: "Unknown commit id" (UNKNOWN_COMMIT_ID), which
# checkpatch gives for every id when the tree has no history before base,
# as build/'s trees from source packages do. It passes when the id is in
# upstream-commits.txt, checked by hand, with the subject the patch quotes.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

# Patches each series must have
EXPECT_mainline=25
EXPECT_lts=8
EXPECT_distro=8

# moved_files PATCH - the files a patch adds, deletes or renames (both
# names of a rename), one per line
moved_files() {
	awk '
		/^diff --git / { f = substr($4, 3) }
		/^(new|deleted) file mode / { print f }
		/^rename (from|to) / { print $3 }' "$1"
}

# unmaintained KTREE FILE... - the FILEs no entry of KTREE's MAINTAINERS
# covers but THE REST: an F: pattern ending in / covers what is below it,
# another is a glob (* and ? within a path component) that covers the file
# itself, or a directory above it
unmaintained() {
	local ktree=$1

	shift
	awk -v list="$*" '
		BEGIN { n = split(list, file, " ") }
		/^THE REST$/ { rest = 1 }
		/^$/ { rest = 0 }
		/^F:\t/ && !rest {
			p = $2
			if (p ~ /\/$/) {
				for (i = 1; i <= n; i++)
					if (index(file[i], p) == 1)
						covered[i] = 1
				next
			}
			gsub(/[.+^$(){}|\[\]\\]/, "\\\\&", p)
			gsub(/\*/, "[^/]*", p)
			gsub(/\?/, "[^/]", p)
			for (i = 1; i <= n; i++)
				if (file[i] ~ ("^" p "(/|$)"))
					covered[i] = 1
		}
		END {
			for (i = 1; i <= n; i++)
				if (!covered[i])
					print file[i]
		}' "$ktree/MAINTAINERS"
}

# check_commit_ids KTREE PATCH LABEL OUT - each id checkpatch could not find
# (OUT: its output) is one it could not look up, since KTREE has no history
# before base, and upstream-commits.txt lists it with the subject PATCH
# quotes for it
check_commit_ids() {
	local id full subject quoted bad= root=base

	# a tree of Debian's patches-rt starts at the pristine tarball, tag debian
	git -C "$1" rev-parse -q --verify base >/dev/null || root=debian
	if [ "$(git -C "$1" rev-list --count "$root" 2>/dev/null)" != 1 ]; then
		bad="$1 has history before $root: checkpatch could look the ids up"
	fi
	for id in $(sed -n "s/^WARNING:UNKNOWN_COMMIT_ID: Unknown commit id '\([0-9a-f]*\)'.*/\1/p" <<< "$4"); do
		full=$(grep -v '^#' "$top/tests/patches/upstream-commits.txt" | grep "^$id")
		subject=${full#* }
		quoted=$(sed -n "s/.*\b$id[0-9a-f]* (\"\(.*\)\").*/\1/p" "$2" | head -1)
		if [ -z "$full" ]; then
			bad+=" $id is not in upstream-commits.txt;"
		elif [ "$subject" != "$quoted" ]; then
			bad+=" $id is \"$subject\" upstream, the patch quotes \"$quoted\";"
		fi
	done
	[ -z "$bad" ] || diag "$bad"
	ok "$([ -z "$bad" ]; echo $?)" "$3: the commit ids checkpatch cannot look up are upstream's, as quoted"
}

# below_the_line PATCH - what PATCH says between its --- line and the
# diffstat: the note git am skips (scripts/patch-notes.sh writes it)
below_the_line() {
	awk '$0 == "---" { on = 1; next }
		on && (/^ .*\| +[0-9]+/ || /^ .* => / || /^ [0-9]+ files? changed/ || /^diff --git /) { exit }
		on { print }' "$1"
}

# checks_unanswered PATCH OUT - the kinds of CHECK in checkpatch's output
# OUT (--show-types) that PATCH's note does not name
checks_unanswered() {
	local note type

	note=$(below_the_line "$1")
	for type in $(sed -n 's/^CHECK:\([A-Z_]*\):.*/\1/p' <<< "$2" | sort -u); do
		grep -qw "$type" <<< "$note" || printf ' %s' "$type"
	done
}

# check_patch KTREE PATCH LABEL - checkpatch --strict with KTREE's script;
# each kind of CHECK it leaves must be answered below the --- line
check_patch() {
	local out errors warnings checks moved missing unanswered

	out=$(cd "$1" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q \
		--show-types "$2" 2>&1)
	errors=$(grep -c '^ERROR:' <<< "$out")
	warnings=$(grep '^WARNING:' <<< "$out" |
		grep -v '^WARNING:FILE_PATH_CHANGES:' | grep -vc '^WARNING:UNKNOWN_COMMIT_ID:')
	checks=$(grep -c '^CHECK:' <<< "$out")
	[ $((errors + warnings)) -eq 0 ] || sed 's/^/# /' <<< "$out"
	[ "$checks" -eq 0 ] || grep '^CHECK:' <<< "$out" | sort | uniq -c | sed 's/^/# /'
	ok $((errors + warnings)) "$3: checkpatch --strict, $errors errors, $warnings warnings ($checks checks)"
	if [ "$checks" -gt 0 ]; then
		unanswered=$(checks_unanswered "$2" "$out")
		[ -z "$unanswered" ] || diag "$3: no word below its --- line on$unanswered"
		ok "$([ -z "$unanswered" ]; echo $?)" "$3: its note answers each kind of CHECK"
	fi

	if grep -q '^WARNING:UNKNOWN_COMMIT_ID:' <<< "$out"; then
		check_commit_ids "$1" "$2" "$3" "$out"
	fi
	grep -q '^WARNING:FILE_PATH_CHANGES:' <<< "$out" || return 0
	moved=$(moved_files "$2")
	missing=$(unmaintained "$1" $moved)
	[ -z "$missing" ] || sed 's/^/# not in MAINTAINERS: /' <<< "$missing"
	[ -n "$moved" ] && [ -z "$missing" ]
	ok $? "$3: MAINTAINERS covers the $(wc -w <<< "$moved") files it adds, moves or deletes"
}

# check_series NAME KTREE PATCHDIR EXPECT [BASE [FALLBACK]] - BASE: the
# ref the series starts from in KTREE (base); FALLBACK: the tree whose
# checkpatch checks the series when there is no KTREE
check_series() {
	local name=$1 ktree=$2 patches=$3 expect=$4 from=${5:-base} fallback=${6:-}
	local patch base listed applied checker=$2

	if [ ! -x "$ktree/scripts/checkpatch.pl" ] && [ -n "$fallback" ] &&
	   [ -x "$fallback/scripts/checkpatch.pl" ]; then
		checker=$fallback
		diag "no $ktree: the $name series is checked with $fallback's checkpatch"
	fi
	if [ ! -x "$checker/scripts/checkpatch.pl" ]; then
		skip "the $name series" "no $ktree (make kernel-src, kernel-src-lts)"
		return
	fi
	for patch in "$patches"/[0-9]*.patch; do
		base=$(basename "$patch")
		case "$base" in 0000-*) continue ;; esac
		check_patch "$checker" "$patch" "$name/$base"
		grep -qxF "$base" "$patches/series"
		ok $? "$name/$base is in series"
	done
	listed=$(grep -vc '^#' "$patches/series" 2>/dev/null || echo 0)
	[ "$listed" = "$expect" ]
	ok $? "the $name series has $expect patches ($listed)"
	[ "$checker" = "$ktree" ] || return
	applied=$(git -C "$ktree" rev-list --count "$from..HEAD")
	[ "$listed" = "$applied" ]
	ok $? "$ktree holds the $listed patches of $name ($applied commits on $from)"
}

check_series mainline "$top/build/linux" "$top/kernel-patches" "$EXPECT_mainline"
check_series 6.12 "$top/build/linux-6.12" "$top/kernel-patches/6.12" "$EXPECT_lts"
check_series 6.1 "$top/build/linux-6.1-rt" "$top/kernel-patches/6.1" "$EXPECT_distro" \
	rt "$top/build/linux-6.12"

tap_done
