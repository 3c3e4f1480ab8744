#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# copy-libs.sh ROOTFS [TRIPLET]: copy into ROOTFS the shared libraries (and
# the dynamic loader) needed by every dynamically linked executable under
# it, at the same paths as on the host.
#
# With a multiarch TRIPLET (aarch64-linux-gnu), for executables of another
# architecture, which ldd cannot run: read their interpreter and NEEDED
# entries with readelf, take the libraries from the host's /lib/TRIPLET or
# /usr/lib/TRIPLET (Debian's PKG:ARCH packages), and repeat for the
# libraries copied until none is missing.
set -e
root=$1
triplet=$2
[ -d "$root" ] || { echo "usage: $0 ROOTFS [TRIPLET]" >&2; exit 2; }

copy()
{
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}

if [ -z "$triplet" ]; then
	find "$root" -type f -perm -u+x | while read -r f; do
		ldd "$f" 2>/dev/null || true
	done | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
	sort -u | while read -r lib; do
		copy "$lib"
	done
	exit 0
fi

# The interpreter (absolute path) and NEEDED names of the ELF files in ROOTFS.
needed()
{
	find "$root" -type f | while read -r f; do
		readelf -ldW "$f" 2>/dev/null || true
	done | sed -n 's/.*Requesting program interpreter: \(\/[^]]*\)\]/\1/p;
		       s/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u
}

while :; do
	copied=0
	for n in $(needed); do
		case $n in
		/*)	paths=$n ;;
		*)	paths="/lib/$triplet/$n /usr/lib/$triplet/$n" ;;
		esac
		found=
		for p in $paths; do
			[ -e "$root$p" ] && { found=$p; break; }
		done
		[ -n "$found" ] && continue
		for p in $paths; do
			[ -e "$p" ] && { found=$p; break; }
		done
		[ -n "$found" ] || { echo "$0: $n not found for $triplet" >&2; exit 1; }
		copy "$found"
		copied=1
	done
	[ $copied = 1 ] || break
done
