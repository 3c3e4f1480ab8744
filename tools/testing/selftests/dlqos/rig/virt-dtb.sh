#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# virt-dtb.sh OUT QEMU [ARGS...]: write to OUT the device tree of QEMU's
# arm64 "virt" machine (QEMU -M virt ARGS: pass the -cpu, -smp and -m of
# the boot), with the idle states of virt-idle-states.dtsi added and
# referenced from every CPU node, for booting with -M virt ARGS -dtb OUT.
# Needs dtc (Debian: device-tree-compiler).
set -e
out=$1
qemu=$2
if [ -z "$out" ] || [ -z "$qemu" ]; then
	echo "usage: $0 OUT QEMU [ARGS...]" >&2
	exit 2
fi
shift 2
here=$(dirname "$0")

# QEMU writes the device tree it would boot with, and exits.
if ! "$qemu" -M virt,dumpdtb="$out.dtb" "$@" -display none \
		> "$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
dtc -q -I dtb -O dts -o "$out.dts" "$out.dtb"
cpus=$(sed -n 's/^\t\t\(cpu@[0-9a-f]*\) {$/\1/p' "$out.dts")
[ -n "$cpus" ] || { echo "$0: no CPU node in QEMU's device tree" >&2; exit 1; }

{
	cat "$out.dts" "$here/virt-idle-states.dtsi"
	for c in $cpus; do
		printf '&{/cpus/%s} {\n\tcpu-idle-states = <%s>;\n};\n' "$c" \
			'&CPU_RET_1 &CPU_RET_2 &CPU_RET_DEEP'
	done
} | dtc -q -I dts -O dtb -o "$out" -
rm -f "$out.dtb" "$out.dts" "$out.log"
