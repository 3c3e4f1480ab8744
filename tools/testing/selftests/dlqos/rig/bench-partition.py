#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-partition.py LOG OUT.md: table of the two-root-domain benchmark.

Reads the guest console log of rig.mode=partition (bench_energy.sh
partition: CPU 0 runs the tight workload in the root cpuset, a cpuset
partition on CPU 1 the light one) and writes, per policy and CPU, the
CPU's limit while the tasks ran, the share of its idle time in each state
(sysfs "time" counters), its mean idle power by the states' power_usage
(the entry and exit energy of the energy benchmark's model is left out),
and its jobs and deadline misses.
"""
import sys

DESC = {
    "menu": "menu, publication off",
    "menu-pub": "menu, publication on",
    "dlqos": "dlqos (publication on)",
}


def parse(path):
    states, cells, cell = {}, [], None
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "STATE" and len(w) == 6:
                states[int(w[1])] = (w[2], int(w[5]))
            elif w[0] == "PCELL":
                cell = {"policy": w[1], "limit": {}, "res": {}, "jobs": {}}
                cells.append(cell)
            elif cell is None:
                continue
            elif w[0] == "LIMIT" and len(w) == 3:
                cell["limit"][int(w[1])] = w[2]
            elif w[0] == "RES" and len(w) == 5:
                cpu, state = int(w[1]), int(w[2])
                cell["res"].setdefault(cpu, {})[state] = int(w[4])
            elif w[0] == "JOBS" and len(w) == 4:
                cell["jobs"][int(w[1])] = (int(w[2]), int(w[3]))
            elif w[0] == "ERROR":
                sys.exit("bench-partition: " + line.strip())
    return states, cells


def main():
    states, cells = parse(sys.argv[1])
    if not states or not cells:
        sys.exit("bench-partition: no results in " + sys.argv[1])
    names = [states[s][0] for s in sorted(states)]
    out = ["| policy | CPU | limit (us) | "
           + " | ".join("%s %%" % n for n in names)
           + " | idle power (mW) | jobs | misses |",
           "|---|---|---|" + "---|" * len(names) + "---|---|---|"]
    for c in cells:
        for cpu in sorted(c["res"]):
            res = c["res"][cpu]
            total = sum(res.values())
            shares = ["%.1f" % (100.0 * res.get(s, 0) / total if total else 0)
                      for s in sorted(states)]
            power = (sum(res.get(s, 0) * states[s][1] for s in states) / total
                     if total else 0)
            limit = c["limit"].get(cpu, "?")
            if limit not in ("none", "?"):
                limit = "%.0f" % (int(limit) / 1000)
            jobs, misses = c["jobs"].get(cpu, (0, 0))
            out.append("| %s | %d | %s | %s | %.0f | %d | %d |"
                       % (DESC.get(c["policy"], c["policy"]), cpu, limit,
                          " | ".join(shares), power, jobs, misses))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
