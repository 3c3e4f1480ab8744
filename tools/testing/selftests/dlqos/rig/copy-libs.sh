#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# copy-libs.sh ROOTFS: copy into ROOTFS the shared libraries (and the
# dynamic loader) needed by every dynamically linked executable under it,
# at the same paths as on the host.
set -e
root=$1
[ -d "$root" ] || { echo "usage: $0 ROOTFS" >&2; exit 2; }

find "$root" -type f -perm -u+x | while read -r f; do
	ldd "$f" 2>/dev/null || true
done | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
sort -u | while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
