#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The dlqos patch series, assembled from patches/ and the project's own
# files as patches/series describes (see its header).  Run from the top of
# the project by the Makefile:
#
#   series.sh files
#	check that every project file is added by exactly one patch or
#	excluded, and list what each patch adds
#   series.sh format KTAR OUT
#	git format-patch of the series against the pristine tree in the
#	tarball KTAR, with the cover letter patches/cover-letter.txt, into
#	OUT; then checkpatch --strict on every patch and kernel-doc on the
#	new sources: any report fails
#   series.sh check KTAR SERIES TREE OBJ FRAGMENT JOBS
#	unpack KTAR into TREE, apply the patches of SERIES one at a time and
#	build the kernel in OBJ (tinyconfig + FRAGMENT) after each one; any
#	compiler warning fails; at the end build the touched objects with W=1
#	(also in OBJ-nokunit, without KUnit), sparse on them (no report that the pristine tree does not have), the
#	documentation book the series adds to (htmldocs) and the new ABI
#	entries (scripts/get_abi.pl)
#   series.sh apply SERIES KDIR
#	apply the series to the 6.12.y kernel tree KDIR, or refuse without
#	touching it

set -eu

die()
{
	echo "series: $*" >&2
	exit 1
}

# The entries of patches/series, one per line:
#   P patch		a patch, in order
#   F patch path	a project file or directory (ending in /) it adds
#   X path		an excluded file or directory
entries()
{
	awk '
	/^[ \t]*(#|$)/ { next }
	/^exclude[ \t]/ { print "X", $2; next }
	/^[ \t]/ { for (i = 1; i <= NF; i++) print "F", cur, $i; next }
	{ cur = $1; print "P", cur; for (i = 2; i <= NF; i++) print "F", cur, $i }
	' patches/series
}

project_files()
{
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files kernel drivers include Documentation tools
	else
		find kernel drivers include Documentation tools -type f | sort
	fi
}

# "patch file" for every project file, after checking that each one is
# claimed by exactly one patch or excluded, and that each claim exists.
claims()
{
	entries > "$tmp/entries"
	project_files > "$tmp/files"
	awk '
	FNR == NR {
		if ($1 == "F") { n++; cpatch[n] = $2; cpath[n] = $3; used[n] = 0 }
		if ($1 == "X") { x++; xpath[x] = $2 }
		next
	}
	function covers(p, f) {
		return p == f || (p ~ /\/$/ && substr(f, 1, length(p)) == p)
	}
	{
		f = $0
		for (i = 1; i <= x; i++)
			if (covers(xpath[i], f)) { xused[i] = 1; next }
		owner = ""; k = 0
		for (i = 1; i <= n; i++)
			if (covers(cpath[i], f)) { owner = cpatch[i]; used[i] = 1; k++ }
		if (k == 0) { print "series: " f ": not added by any patch (patches/series)" > "/dev/stderr"; bad = 1 }
		else if (k > 1) { print "series: " f ": added by " k " patches" > "/dev/stderr"; bad = 1 }
		else print owner, f
	}
	END {
		for (i = 1; i <= n; i++)
			if (!used[i]) { print "series: " cpath[i] ": listed in patches/series but not in the project" > "/dev/stderr"; bad = 1 }
		for (i = 1; i <= x; i++)
			if (!xused[i]) { print "series: " xpath[i] ": excluded but not in the project" > "/dev/stderr"; bad = 1 }
		exit bad
	}' "$tmp/entries" "$tmp/files" || die "patches/series does not match the project files"
}

patches()
{
	entries | awk '$1 == "P" { print $2 }'
}

# Existing files a patch modifies (not those it creates).
touched()
{
	awk '/^diff --git / { f = substr($3, 3) }
	     /^--- a\// { print f }' "$@" | sort -u
}

# Top-level directory of the kernel tarball.
tar_top()
{
	tar -tf "$1" 2>/dev/null | head -n 1 | cut -d/ -f1
}

kernel_version()
{
	awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 }
	     /^SUBLEVEL =/ { s = $3 } END { print v "." p "." s }' "$1/Makefile"
}

# A field of the git mailinfo output in $tmp/info.
field()
{
	sed -n "s/^$1: //p" "$tmp/info"
}

cmd_files()
{
	claims | awk '{ n[$1]++ } END { for (p in n) print n[p], p }' | sort -k2
}

cmd_format()
{
	ktar=$1
	out=$2
	git_dir=$out.git
	tools=$out.tools

	claims > "$tmp/claims"
	for p in $(patches); do
		[ -f "patches/$p" ] || die "patches/$p: no such patch"
	done
	list=$(patches)
	(cd patches && touched $list) > "$tmp/touched"

	# The pristine files the series modifies, plus checkpatch and kernel-doc.
	rm -rf "$git_dir" "$tools" "$out"
	mkdir -p "$git_dir" "$tools" "$out"
	top=$(tar_top "$ktar")
	sed "s|^|$top/|" "$tmp/touched" > "$tmp/extract"
	for f in Makefile scripts/checkpatch.pl scripts/spelling.txt \
		 scripts/const_structs.checkpatch scripts/kernel-doc; do
		echo "$top/$f" >> "$tmp/extract"
	done
	tar -xf "$ktar" -C "$git_dir" --strip-components=1 -T "$tmp/extract"
	mv "$git_dir/scripts" "$tools/"
	version=$(kernel_version "$git_dir")

	# One commit per patch, dated as the patch, so that the output is
	# reproducible.
	proj=$(pwd)
	cd "$git_dir"
	git init -q -b dlqos
	git add -A
	GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
	GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
	GIT_AUTHOR_DATE=2024-11-17T00:00:00Z \
	GIT_COMMITTER_DATE=2024-11-17T00:00:00Z \
		git commit -q -m "Linux $version (the files the series touches)"
	base=$(git rev-parse HEAD)
	for p in $list; do
		git mailinfo "$tmp/msg" "$tmp/diff" < "$proj/patches/$p" > "$tmp/info"
		if [ -s "$tmp/diff" ]; then
			git apply --index "$tmp/diff" ||
				die "patches/$p does not apply on Linux $version"
		fi
		awk -v p="$p" '$1 == p { print $2 }' "$tmp/claims" |
		while read -r f; do
			mkdir -p "$(dirname "$f")"
			cp -p "$proj/$f" "$f"
			git add "$f"
		done
		{ field Subject; echo; cat "$tmp/msg"; } > "$tmp/message"
		GIT_AUTHOR_NAME=$(field Author) GIT_AUTHOR_EMAIL=$(field Email) \
		GIT_AUTHOR_DATE=$(field Date) \
		GIT_COMMITTER_NAME=$(field Author) \
		GIT_COMMITTER_EMAIL=$(field Email) \
		GIT_COMMITTER_DATE=$(field Date) \
			git commit -q --allow-empty -F "$tmp/message"
	done

	# The cover letter: first line subject, then the body.
	sed "s/@KERNELVERSION@/$version/g" "$proj/patches/cover-letter.txt" \
		> "$tmp/cover"
	git config branch.dlqos.description "$(cat "$tmp/cover")"
	git format-patch -q --cover-letter --cover-from-description=subject \
		-o "$out" "$base..HEAD"
	cd "$proj"

	# checkpatch and kernel-doc.  The Fixes: tags name upstream commits
	# that no tree here has (Debian's source has no history), so
	# checkpatch cannot resolve them: UNKNOWN_COMMIT_ID is ignored.
	# A backport of an upstream commit (its message has the stable line
	# "commit <sha> upstream.") keeps upstream's code and message as they
	# are: it is checked without --strict, and without the three reports
	# its form always draws (the stable line itself, upstream's long log
	# lines, upstream's BUG_ON()).
	status=0
	for p in "$out"/0*.patch; do
		case $p in *0000-cover-letter.patch) continue ;; esac
		opts="--strict --ignore UNKNOWN_COMMIT_ID"
		if grep -Eq '^commit [0-9a-f]{40} upstream\.$' "$p"; then
			opts="--ignore UNKNOWN_COMMIT_ID,GIT_COMMIT_ID,COMMIT_LOG_LONG_LINE,AVOID_BUG"
			echo "series: $(basename "$p"): upstream backport, checkpatch $opts"
		fi
		r=$(cd "$out" && perl "$tools/scripts/checkpatch.pl" $opts \
			--no-tree --showfile "$p" 2>&1) || true
		if ! echo "$r" | grep -Eq '^total: 0 errors, 0 warnings, (0 checks, )?[0-9]+ lines'; then
			echo "$r"
			status=1
		fi
	done
	awk '{ print $2 }' "$tmp/claims" | grep -E '^(kernel|drivers|include)/.*\.[ch]$' |
	while read -r f; do
		r=$(perl "$tools/scripts/kernel-doc" -none -Wall "$f" 2>&1)
		[ -z "$r" ] || { echo "$r"; echo "kernel-doc: $f" > "$tmp/kdoc"; }
	done
	[ ! -e "$tmp/kdoc" ] || status=1
	[ "$status" = 0 ] || die "checkpatch or kernel-doc reports above"
	n=$(ls "$out"/0*.patch | grep -vc cover-letter)
	echo "series: $n patches for Linux $version in $out, checkpatch (--strict but for upstream backports) and kernel-doc clean"
}

# $(kmake) for cmd_check.
kmake()
{
	make -s -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc" \
		HOSTCC="ccache gcc" -j"$jobs" "$@"
}

kconfig()
{
	kmake tinyconfig >/dev/null
	(cd "$obj" && ARCH=x86_64 "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "$fragment" >/dev/null)
	kmake olddefconfig >/dev/null
}

# The objects in $obj built from a C file that the patches "$@" add or
# change (tools/ aside), as kbuild targets.
w1_targets()
{
	objs=$(cd "$tree" && touched "$@" | grep '\.c$' || true)
	objs="$objs $(grep -h '^+++ b/.*\.c$' "$@" | sed 's|^+++ b/||')"
	targets=""
	for c in $objs; do
		case $c in tools/*) continue ;; esac
		o=$(grep -lE "/$c( |$)" "$obj/$(dirname "$c")"/.*.o.cmd 2>/dev/null |
			sed -e "s|^$obj/||" -e 's|/\.\([^/]*\)\.cmd$|/\1|' | head -n 1)
		[ -n "$o" ] && targets="$targets $o"
	done
	echo "$targets" | tr ' ' '\n' | sort -u | tr '\n' ' '
}

# Build the kbuild targets "$@" in $obj with W=1: any warning fails.
w1()
{
	kmake W=1 "$@" > "$tmp/w1.log" 2>&1 || {
		cat "$tmp/w1.log"
		die "W=1 build failed"
	}
	if grep -q 'warning:' "$tmp/w1.log"; then
		grep -A4 'warning:' "$tmp/w1.log"
		die "W=1 warnings"
	fi
}

cmd_check()
{
	ktar=$1
	series=$(cd "$2" && pwd)
	tree=$3
	obj=$4
	fragment=$5
	jobs=$6
	set -- "$series"/0*.patch
	[ -f "$1" ] || die "no series in $series: make series first"

	rm -rf "$tree"
	mkdir -p "$tree" "$obj"
	tar -xf "$ktar" -C "$tree" --strip-components=1
	version=$(kernel_version "$tree")
	i=0
	for p in "$@"; do
		case $p in *0000-cover-letter.patch) continue ;; esac
		i=$((i + 1))
		patch -s -p1 -N --batch -d "$tree" < "$p" ||
			die "$(basename "$p") does not apply"
		kconfig
		echo "series-check: [$i] $(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$p")"
		kmake bzImage modules > "$tmp/build.log" 2>&1 || {
			cat "$tmp/build.log"
			die "the kernel does not build after $(basename "$p")"
		}
		if grep -q 'warning:' "$tmp/build.log"; then
			grep -B2 -A4 'warning:' "$tmp/build.log"
			die "compiler warnings after $(basename "$p")"
		fi
	done
	missing=$(grep '^CONFIG_.*=y' "$fragment" |
		while read -r l; do grep -qx "$l" "$obj/.config" || echo "$l"; done)
	[ -z "$missing" ] || die "options of $fragment not set at the end: $missing"

	# W=1 on every object built from a C file the series adds or changes.
	targets=$(w1_targets "$@")
	echo "series-check: W=1 $targets"
	w1 $targets

	# Again without KUnit, as most kernels are built: code that only the
	# KUnit tests use must not warn there (-Wunused-function).
	kunit_obj=$obj
	kunit_fragment=$fragment
	obj=$obj-nokunit
	fragment=$tmp/fragment
	mkdir -p "$obj"
	grep -v KUNIT "$kunit_fragment" > "$fragment"
	kconfig
	kmake bzImage modules > "$tmp/build.log" 2>&1 || {
		cat "$tmp/build.log"
		die "the kernel without KUnit does not build"
	}
	nokunit_targets=$(w1_targets "$@")
	echo "series-check: W=1 without KUnit $nokunit_targets"
	w1 $nokunit_targets
	obj=$kunit_obj
	fragment=$kunit_fragment

	# sparse on the same objects, against the pristine tree: the
	# scheduler has reports of its own (rq->curr is __rcu), the series
	# must add none.  Messages are compared without their line numbers.
	if command -v sparse >/dev/null; then
		kmake C=2 $targets > "$tmp/sparse.new" 2>&1 || true
		for p in $(printf '%s\n' "$@" | grep -v cover-letter | sort -r); do
			patch -s -p1 -R --batch -d "$tree" < "$p"
		done
		old=""
		for o in $targets; do
			[ -f "$tree/${o%.o}.c" ] && old="$old $o"
		done
		kmake C=2 $old > "$tmp/sparse.old" 2>&1 || true
		for p in $(printf '%s\n' "$@" | grep -v cover-letter); do
			patch -s -p1 -N --batch -d "$tree" < "$p"
		done
		kconfig
		for f in old new; do
			grep -E '(warning|error):' "$tmp/sparse.$f" |
				sed -E 's/:[0-9]+:[0-9]+:/:/' | sort > "$tmp/sparse.$f.n"
		done
		if comm -13 "$tmp/sparse.old.n" "$tmp/sparse.new.n" | grep .; then
			die "new sparse reports (above)"
		fi
		echo "series-check: sparse: no new reports ($(wc -l < "$tmp/sparse.old.n") before, $(wc -l < "$tmp/sparse.new.n") after)"
	else
		echo "series-check: sparse not installed, skipped"
	fi

	# The documentation: the kernel's own Sphinx build of the book the
	# new page is in, and the ABI parser on the new ABI entries.
	docs=$(grep -h '^+++ b/Documentation/' "$@" | sed 's|^+++ b/||' | sort -u)
	books=$(echo "$docs" | sed -n 's|^Documentation/\([^/]*\)/.*\.rst$|\1|p' | sort -u)
	for b in $books; do
		echo "series-check: htmldocs SPHINXDIRS=$b"
		kmake htmldocs SPHINXDIRS="$b" > "$tmp/docs.log" 2>&1 || {
			cat "$tmp/docs.log"
			die "htmldocs failed"
		}
		for d in $docs; do
			if grep -E 'WARNING|ERROR|SEVERE' "$tmp/docs.log" | grep -F "$d"; then
				die "htmldocs reports on $d"
			fi
		done
	done
	(cd "$tree" && perl scripts/get_abi.pl validate --dir Documentation/ABI) \
		> "$tmp/abi.log" 2>&1
	for d in $docs; do
		case $d in Documentation/ABI/*) ;; *) continue ;; esac
		! grep -F "$d" "$tmp/abi.log" || die "get_abi.pl reports on $d"
		(cd "$tree" && perl scripts/get_abi.pl search . \
			--dir Documentation/ABI 2>/dev/null) |
			grep -qF "$d" || die "get_abi.pl does not parse $d"
	done
	echo "series-check: $i patches on Linux $version: each one builds without warnings; W=1 (with and without KUnit), htmldocs and ABI clean"
}

cmd_apply()
{
	series=$(cd "$1" && pwd)
	kdir=$(cd "$2" && pwd)
	set -- "$series"/0*.patch
	[ -f "$1" ] || die "no series in $series: make series first"
	[ -f "$kdir/Makefile" ] && [ -d "$kdir/kernel/sched" ] ||
		die "$kdir is not a kernel source tree"
	version=$(kernel_version "$kdir")
	case $version in
	6.12.*) ;;
	*) die "$kdir is Linux $version; the series is for 6.12.y" ;;
	esac

	# Try the whole series on a copy of the files it touches first.
	mkdir -p "$tmp/try"
	(cd "$kdir" && touched "$@" | while read -r f; do
		[ -f "$f" ] || continue
		mkdir -p "$tmp/try/$(dirname "$f")"
		cp -p "$f" "$tmp/try/$f"
	done)
	for p in "$@"; do
		case $p in *0000-cover-letter.patch) continue ;; esac
		if ! patch -s -p1 -N --batch -d "$tmp/try" < "$p" > "$tmp/log" 2>&1; then
			if patch -s -p1 -R -f --dry-run -d "$kdir" < "$p" \
				> /dev/null 2>&1; then
				die "$kdir already has $(basename "$p") applied; nothing changed"
			fi
			cat "$tmp/log" >&2
			die "$(basename "$p") does not apply to $kdir (Linux $version); nothing changed"
		fi
	done

	if [ "$(git -C "$kdir" rev-parse --show-toplevel 2>/dev/null)" = \
	     "$(cd "$kdir" && pwd -P)" ] &&
	   git -C "$kdir" diff --quiet HEAD 2>/dev/null; then
		git -C "$kdir" am -q $(for p in "$@"; do
			case $p in *0000-cover-letter.patch) ;; *) echo "$p" ;; esac
		done)
		echo "series: committed $(($# - 1)) patches in $kdir (git am)"
	else
		for p in "$@"; do
			case $p in *0000-cover-letter.patch) continue ;; esac
			patch -s -p1 -N --batch -d "$kdir" < "$p"
		done
		echo "series: applied $(($# - 1)) patches to $kdir"
	fi
	echo "series: enable CONFIG_DL_IDLE_QOS and CONFIG_CPU_IDLE_GOV_DLQOS"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
files)	cmd_files ;;
format)	[ $# = 2 ] || die "usage: series.sh format KTAR OUT"; cmd_format "$@" ;;
check)	[ $# = 6 ] || die "usage: series.sh check KTAR SERIES TREE OBJ FRAGMENT JOBS"
	cmd_check "$@" ;;
apply)	[ $# = 2 ] || die "usage: series.sh apply SERIES KDIR"; cmd_apply "$@" ;;
*)	die "usage: series.sh files|format|check|apply ..." ;;
esac
