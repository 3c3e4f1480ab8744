#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-partition.py LOG OUT.md: table of the two-root-domain benchmark.

Reads the guest console log of rig.mode=partition (bench_energy.sh
partition: CPU 0 in the root cpuset and a cpuset partition on CPU 1, each
its own root domain; workload tight-light: CPU 0 runs tasks of 100 us
slack, CPU 1 the light workload's periods; workload partitioned: each CPU
the heavy workload's tasks) and writes, per workload, policy and CPU, the
CPU's limit while the tasks ran, the share of its idle time
in each state (sysfs "time" counters), its mean idle power by the states'
power_usage (the entry and exit energy of the energy benchmark's model is
left out), and its jobs, deadline misses and slips, counted from the
dl_bench T and J lines of each CPU as the energy benchmark counts them
(rig/bench-energy.py's count_jobs()).

Job 0 of a task is counted as any other, but its release is the time
just before its sched_setattr() call (dl_bench), not a release of the
kernel's: a call that waits (on the cpuset lock, say) makes job 0 late by
that wait.  The table shows, apart, how late each late job 0 was.
"""
import importlib.util
import os
import sys

DESC = {
    "menu": "menu, publication off",
    "menu-pub": "menu, publication on",
    "dlqos": "dlqos (publication on)",
    "teo-pub": "teo, publication on",
    "rt-static": "cpu_dma_latency = 0 (menu)",
}


def load_bench_energy():
    """rig/bench-energy.py as a module (its name is no identifier)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "bench-energy.py")
    spec = importlib.util.spec_from_file_location("bench_energy", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


count_jobs = load_bench_energy().count_jobs


def parse(lines):
    states, cells, cell = {}, [], None
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == "STATE" and len(w) == 6:
            states[int(w[1])] = (w[2], int(w[5]))
        elif w[0] == "PCELL" and len(w) == 3:
            cell = {"workload": w[1], "policy": w[2], "limit": {},
                    "res": {}, "tasks": {}, "jobs": {}}
            cells.append(cell)
        elif cell is None:
            continue
        elif w[0] == "LIMIT" and len(w) == 3:
            cell["limit"][int(w[1])] = w[2]
        elif w[0] == "RES" and len(w) == 5:
            cpu, state = int(w[1]), int(w[2])
            cell["res"].setdefault(cpu, {})[state] = int(w[4])
        elif w[0] == "PT" and len(w) == 7:
            cell["tasks"].setdefault(int(w[1]), {})[int(w[2])] = \
                tuple(int(x) for x in w[3:])
        elif w[0] == "PJ" and len(w) == 7:
            cell["jobs"].setdefault(int(w[1]), []).append(
                tuple(int(x) for x in w[2:]))
        elif w[0] == "ERROR":
            sys.exit("bench-partition: " + line.strip())
    return states, cells


def jobs_of(cell, cpu):
    """Jobs, misses, slips and the lateness (ns) of each late job 0."""
    tasks, jobs = cell["tasks"].get(cpu, {}), cell["jobs"].get(cpu, [])
    misses, slips, _ = count_jobs(tasks, jobs)
    late0, seen = [], set()
    for task, _, rel, _, fin in jobs:
        if task in seen:
            continue
        seen.add(task)
        if fin > rel + tasks[task][1]:
            late0.append(fin - rel - tasks[task][1])
    return len(jobs), misses, slips, late0


def table(states, cells):
    names = [states[s][0] for s in sorted(states)]
    out = ["| workload | policy | CPU | limit (us) | "
           + " | ".join("%s %%" % n for n in names)
           + " | idle power (mW) | jobs | misses | slips | job 0 late (us) |",
           "|---|---|---|---|" + "---|" * len(names) + "---|---|---|---|---|"]
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
            jobs, misses, slips, late0 = jobs_of(c, cpu)
            out.append("| %s | %s | %d | %s | %s | %.0f | %d | %d | %d | %s |"
                       % (c["workload"], DESC.get(c["policy"], c["policy"]),
                          cpu, limit,
                          " | ".join(shares), power, jobs, misses, slips,
                          ", ".join("%.0f" % (t / 1000) for t in late0)
                          or "-"))
    out.append("")
    out.append("misses: jobs that completed after their release + D; "
               "slips: periods lost between two jobs of a task (a "
               "throttled job is one miss and one slip), as in the "
               "energy benchmark.  Every job counts, job 0 too, but "
               "job 0's release is the time just before the task's "
               "sched_setattr() call, not the kernel's: \"job 0 late\" "
               "shows by how much each late job 0 (one per task) "
               "missed, and is included in misses.  Workloads: "
               "tight-light = CPU 0 250:350:10000 and 250:350:20000, "
               "CPU 1 light (500:5000:5000, 1000:10000:10000); "
               "partitioned = each CPU heavy (4 x 2000:10000:10000); "
               "WORK 0.4 RUNTIME (runtime:deadline:period in us).  "
               "Idle power: sum of P(state) * time(state) / idle time.")
    return out


# --selftest: a log of one cell, its rows computed by hand.  CPU 0: one
# task (C 250 us, D 350 us, P 10 ms), job 0 150 us late, job 2 throttled
# (50 us late, the next release a period later): 4 jobs, 2 misses, 1
# slip; idle 300 us in C1E (800 mW), 700 us in C6 (100 mW): 310 mW.
# CPU 1: two jobs on time, idle all in C6.
ST_LOG = """\
STATE 0 POLL 0 0 1000
STATE 1 C1E 2 2 800
STATE 2 C6 290 800 100
PT 0 0 1 2 3 4
PCELL partitioned dlqos\r
LIMIT 0 100000
LIMIT 1 4500000
RES 0 0 0 0
RES 0 1 3 300
RES 0 2 7 700
RES 1 0 0 0
RES 1 1 0 0
RES 1 2 2 1000
PT 0 0 250000 350000 10000000 100000
PJ 0 0 0 0 100000 500000
PJ 0 0 0 10000000 10000000 10000100
[    9.876543] a kernel message
PJ 0 0 0 20000000 20000000 20400000
PJ 0 0 0 40000000 40000000 40000100
PT 1 0 500000 5000000 5000000 200000
PJ 1 0 1 0 10 210
PJ 1 0 1 5000000 5000010 5000210
"""
ST_ROWS = [
    "| partitioned | dlqos (publication on) | 0 | 100 | 0.0 | 30.0 | 70.0 "
    "| 310 | 4 | 2 | 1 | 150 |",
    "| partitioned | dlqos (publication on) | 1 | 4500 | 0.0 | 0.0 | 100.0 "
    "| 100 | 2 | 0 | 0 | - |",
]


def selftest():
    rows = table(*parse(ST_LOG.splitlines(True)))[2:4]
    ok = rows == ST_ROWS
    print("%s 1 bench-partition: limits, residency, misses, slips and "
          "job 0 of a cell%s" % ("ok" if ok else "not ok", "" if ok else
                                 " (rows %s, expected %s)" % (rows, ST_ROWS)))
    return not ok


def main():
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(1 if selftest() else 0)
    if len(sys.argv) != 3:
        sys.exit("usage: bench-partition.py LOG OUT.md")
    with open(sys.argv[1], errors="replace") as f:
        states, cells = parse(f)
    if not states or not cells:
        sys.exit("bench-partition: no results in " + sys.argv[1])
    out = table(states, cells)
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
