#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh SECONDS SYSTEM_MAP QEMU [ARGS...]
#
# Run QEMU for at most SECONDS, like timeout(1) (exit status 124 when the
# time runs out).  Before stopping a guest that ran out of time, ask QEMU's
# monitor where every vCPU is (info registers -a) and print each one's
# program counter resolved with SYSTEM_MAP: a hang then leaves more than a
# silent console, even when the guest can no longer report anything itself
# (under -icount, a guest that stops executing also stops its clock, so its
# own hung-task and RCU stall detectors never fire).
secs=$1
map=$2
shift 2
sock=$(mktemp -u "${TMPDIR:-/tmp}/dlqos-qemu.XXXXXX") || exit 1
trap 'rm -f "$sock"' EXIT

"$@" -monitor "unix:$sock,server=on,wait=off" &
pid=$!
elapsed=0
while kill -0 "$pid" 2>/dev/null && [ "$elapsed" -lt "$secs" ]; do
	sleep 1
	elapsed=$((elapsed + 1))
done
if ! kill -0 "$pid" 2>/dev/null; then
	wait "$pid"
	exit $?
fi

echo "rig: QEMU still running after $secs s; where the vCPUs are:"
python3 - "$sock" "$map" <<'EOF'
import bisect, re, socket, sys

out = b""
try:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(3)
    s.connect(sys.argv[1])
    s.sendall(b"info registers -a\n")
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
except OSError:
    pass
syms = []
try:
    with open(sys.argv[2]) as f:
        for line in f:
            addr, _, name = line.split()[:3]
            syms.append((int(addr, 16), name))
except (OSError, ValueError):
    pass
syms.sort()
keys = [a for a, _ in syms]
cpu = 0
for line in out.decode(errors="replace").splitlines():
    m = re.search(r"\b(?:RIP|PC)=([0-9a-f]{8,16})", line, re.I)
    if not m:
        continue
    pc = int(m.group(1), 16)
    i = bisect.bisect_right(keys, pc) - 1
    where = "%s+0x%x" % (syms[i][1], pc - keys[i]) if i >= 0 else "?"
    print("rig: vCPU %d at 0x%x %s" % (cpu, pc, where))
    cpu += 1
if not cpu:
    print("rig: no answer from the QEMU monitor")
EOF
kill "$pid" 2>/dev/null
wait "$pid"
exit 124
