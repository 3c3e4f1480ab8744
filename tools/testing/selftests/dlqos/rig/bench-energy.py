#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-energy.py OUTDIR LOG...: tables and plot of the energy benchmark.

Reads the guest console logs of `make bench` (rig.mode=energy, one per idle
table, written by tools/testing/selftests/dlqos/bench_energy.sh) and writes
OUTDIR/energy.md (markdown table), OUTDIR/energy.dat and OUTDIR/energy.gp
(gnuplot data and script; the Makefile renders OUTDIR/energy.png).

Per cell (idle table, workload, policy):

- deadline misses: jobs that completed after their own release + D, the
  release being the kernel's (dl_bench: the last point of the task's
  period grid before the job started); slips: periods lost between two
  jobs (a release more than one period after the previous one, as after
  a job that overran its runtime and was throttled), so that one overrun
  counts as one miss and one slip, not as a miss of every later job;
  wakeup latency: start - release of every job but the first of each
  task (its release is the sched_setattr() call), worst and 99th
  percentile;
- residency: share of the idle time spent in each state (sysfs "time"
  counters, summed over the CPUs);
- idle energy, by the model of the Benchmarks section of
  Documentation/scheduler/sched-deadline-idle.rst: an idle period of length
  t in state s costs P(s) * t + E(s), where P(s) is the state's power_usage
  and the entry/exit energy E(s) is set so that the target residency of s
  is its break-even time against the next shallower state:
  E(0) = 0, E(s) = E(s-1) + (P(s-1) - P(s)) * R(s).  t is the time from
  the state's entry to the wakeup event (the exit latency is in E(s));
- the oracle: for each idle period actually observed, the state of least
  modelled energy among those whose exit latency would not have made any
  job miss its deadline.  A job is affected by the idle period that ends
  just before its CPU runs it: the period's exit latency x delayed every
  job that started on that CPU before it next went idle; a state of exit
  latency x' makes such a job miss iff x' - x > deadline - finish.  For
  cyclicdeadline, whose jobs are not logged, a state fits if its exit
  latency is at most min(D - C) of its threads (runtime C as
  cyclicdeadline sets it);
- saving: (E_poll - E) / (E_poll - E_oracle), where E_poll is the energy
  of the same idle periods spent polling (state 0): the share of the
  oracle's saving over polling that the policy achieved.
"""
import math
import os
import re
import sys

POLICIES = ["menu", "teo", "ladder", "menu-pub", "teo-pub", "dlqos",
            "dlqos-bandwidth", "dlqos-rule1", "dlqos-reserve", "rt-static"]
POLICY_DESC = {
    "menu": "menu, publication off",
    "teo": "teo, publication off",
    "ladder": "ladder, publication off",
    "menu-pub": "menu, publication on",
    "teo-pub": "teo, publication on",
    "dlqos": "dlqos (publication on, rule 2 demand: the default)",
    "dlqos-bandwidth": "dlqos, rule 2 bandwidth (publication on)",
    "dlqos-rule1": "dlqos, rule 2 off (publication on)",
    "dlqos-reserve": "dlqos, idle reservation 0.5 ms / 10 ms (publication on)",
    "rt-static": "cpu_dma_latency = 0 (menu)",
}


class Cell:
    def __init__(self, table, workload, policy):
        self.table, self.workload, self.policy = table, workload, policy
        self.limit = None
        self.tasks = {}         # task -> (C, D, P, W) ns
        self.jobs = []          # (task, cpu, release, start, finish)
        self.cd = []            # cyclicdeadline: (thread, D us, cycles, min, avg, max)
        self.res = {}           # state -> [usage, time_us] over CPUs
        self.intervals = []     # (cpu, state, entry, length, flags)
        self.dropped = 0
        self.errors = []


def parse(path):
    """States per table, cells, and settings from one console log."""
    states, cells, info = [], [], {}
    cell = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            w = line.split()
            if not w:
                continue
            tag = w[0]
            if tag == "I" and cell and len(w) == 6:
                cell.intervals.append(tuple(int(x) for x in w[1:]))
            elif tag == "J" and cell and len(w) == 6:
                cell.jobs.append(tuple(int(x) for x in w[1:]))
            elif tag == "T" and cell and len(w) == 6:
                cell.tasks[int(w[1])] = tuple(int(x) for x in w[2:])
            elif tag == "RES" and cell and len(w) == 5:
                r = cell.res.setdefault(int(w[2]), [0, 0])
                r[0] += int(w[3])
                r[1] += int(w[4])
            elif tag == "CD" and cell and len(w) == 7:
                cell.cd.append(tuple(int(x) for x in w[1:]))
            elif tag == "LIMIT" and cell:
                cell.limit = w[1] if len(w) > 1 else "?"
            elif tag == "DROPPED" and cell and len(w) == 3:
                cell.dropped += int(w[2])
            elif tag == "ERROR" and cell:
                cell.errors.append(line)
            elif tag == "STATE" and len(w) == 6:
                states.append((int(w[1]), w[2], int(w[3]) * 1000,
                               int(w[4]) * 1000, int(w[5])))
            elif tag == "CELL" and len(w) == 4:
                cell = Cell(w[1], w[2], w[3])
                cells.append(cell)
            elif tag == "END":
                cell = None
            elif line.startswith("DLQOS-RIG: "):
                m = re.search(r"kernel (\S+), (\d+) CPUs", line)
                if m:
                    info["kernel"], info["cpus"] = m.group(1), m.group(2)
    return states, cells, info


class Model:
    """The energy model of one idle table; energies in nJ (mW * us)."""

    def __init__(self, states):
        self.states = sorted(states)
        self.exit = [s[2] for s in self.states]
        self.power = [s[4] for s in self.states]
        self.entry = [0.0]
        for i in range(1, len(self.states)):
            self.entry.append(self.entry[-1] + (self.power[i - 1] -
                              self.power[i]) * self.states[i][3] / 1000.0)

    def energy(self, state, length_ns):
        return self.power[state] * length_ns / 1000.0 + self.entry[state]

    def best(self, length_ns, tolerance_ns):
        """Least energy over the states whose exit latency fits."""
        fit = [s for s in range(len(self.states))
               if self.exit[s] <= tolerance_ns] or [0]
        return min(self.energy(s, length_ns) for s in fit)


def percentile(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(math.ceil(p / 100.0 * len(v))) - 1)]


def count_jobs(tasks, jobs):
    """Misses, slips and wakeup latencies of J lines.

    tasks: task -> (C, D, P, W) ns; jobs: (task, cpu, release, start,
    finish) in each task's job order.
    """
    lat, misses, slips, last = [], 0, 0, {}
    for task, cpu, rel, start, fin in jobs:
        deadline, period = tasks[task][1], tasks[task][2]
        if fin > rel + deadline:
            misses += 1
        if task in last:
            lat.append(start - rel)
            # Whole periods between the releases, less the one expected.
            slips += max(0, (rel - last[task] + period // 2) // period - 1)
        last[task] = rel
    return misses, slips, lat


def analyse(cell, model, cpus):
    r = {"cell": cell}
    # Jobs: misses, slips and wakeup latency.
    misses, slips, lat = count_jobs(cell.tasks, cell.jobs)
    r["jobs"] = len(cell.jobs) if cell.jobs else None
    r["misses"] = misses if cell.jobs else None
    r["slips"] = slips if cell.jobs else None
    if cell.cd:
        r["jobs"] = sum(c[2] for c in cell.cd)
        r["worst"] = max(c[5] for c in cell.cd) * 1000
        r["p99"] = None
    else:
        r["worst"] = max(lat) if lat else None
        r["p99"] = percentile(lat, 99)

    # The window the workload ran in.
    if cell.jobs:
        lo = min(j[2] for j in cell.jobs)
        hi = max(j[4] for j in cell.jobs)
    else:
        lo = min((i[2] for i in cell.intervals), default=0)
        hi = max((i[2] + i[3] for i in cell.intervals), default=0)

    # Idle periods per CPU: the time the idle task ran without running a
    # task; a continued record (no task ran since the previous one ended)
    # extends the previous period.
    per_cpu = {}
    for cpu, state, entry, length, flags in sorted(cell.intervals,
                                                   key=lambda i: (i[0], i[2])):
        if entry < lo or entry + length > hi:
            continue
        periods = per_cpu.setdefault(cpu, [])
        if flags & 1 and periods:
            periods[-1].append((state, entry, length))
        else:
            periods.append([(state, entry, length)])

    # Jobs by the CPU they started on, in start order.
    starts = {}
    for task, cpu, rel, start, fin in cell.jobs:
        starts.setdefault(cpu, []).append(
            (start, rel + cell.tasks[task][1] - fin))
    for v in starts.values():
        v.sort()

    if cell.cd:
        # cyclicdeadline: runtime = 60% of the deadline, or 80% * CPUs
        # shared by the threads when there are more threads than CPUs.
        threads = len(cell.cd)
        pct = 60 if threads <= cpus else cpus * 80 // threads
        static_tol = min((c[1] - c[1] * pct // 100) * 1000 for c in cell.cd)
    e_act = e_orc = e_poll = 0.0
    n_periods = 0
    for cpu, periods in per_cpu.items():
        js = starts.get(cpu, [])
        k = 0
        for idx, p in enumerate(periods):
            first_entry = p[0][1]
            last_state, last_entry, last_len = p[-1]
            wake = last_entry + last_len
            length = wake - first_entry
            nxt = periods[idx + 1][0][1] if idx + 1 < len(periods) else hi
            if cell.cd:
                tol = static_tol
            else:
                while k < len(js) and js[k][0] < wake:
                    k += 1
                margin = None
                m = k
                while m < len(js) and js[m][0] < nxt:
                    margin = js[m][1] if margin is None else min(margin, js[m][1])
                    m += 1
                tol = math.inf if margin is None else \
                    model.exit[last_state] + margin
            e_act += sum(model.energy(s, ln) for s, _, ln in p)
            e_orc += model.best(length, tol)
            e_poll += model.energy(0, length)
            n_periods += 1
    r["periods"] = n_periods
    r["energy"] = e_act
    r["oracle"] = e_orc
    r["poll"] = e_poll
    r["saving"] = (100.0 * (e_poll - e_act) / (e_poll - e_orc)
                   if e_poll - e_orc > 0 else None)
    total = sum(v[1] for v in cell.res.values())
    r["residency"] = {s: (100.0 * v[1] / total if total else 0.0)
                      for s, v in cell.res.items()}
    return r


def fmt(v, spec="%d", none="-"):
    return none if v is None else spec % v


# --selftest: J lines of one task (C 500 us, D = P 5 ms), by hand.
ST_TASKS = {0: (500000, 5000000, 5000000, 400000)}
ST_CASES = [
    # (name, jobs, misses, slips)
    ("every job on time", [(0, 0, 0, 300, 700), (0, 0, 5000000, 5000300,
                                                 5000700)], 0, 0),
    ("a job finished after its deadline",
     [(0, 0, 0, 300, 700), (0, 0, 5000000, 5000300, 10000001)], 1, 0),
    # Job 1 overran: throttled, it ended in the next period; the kernel
    # released job 2 a period later than the grid, then on time again.
    ("one overrun is one miss and one slip",
     [(0, 0, 0, 300, 700), (0, 0, 5000000, 5306000, 10363000),
      (0, 0, 15000000, 15000300, 15000700),
      (0, 0, 20000000, 20000300, 20000700)], 1, 1),
    ("two periods lost are two slips",
     [(0, 0, 0, 300, 700), (0, 0, 15000000, 15000300, 15000700)], 0, 2),
    ("a late wakeup is no slip",
     [(0, 0, 0, 300, 700), (0, 0, 5000000, 9000000, 9400000)], 0, 0),
]


def selftest():
    failed = 0
    for n, (name, jobs, misses, slips) in enumerate(ST_CASES, 1):
        got = count_jobs(ST_TASKS, jobs)[:2]
        ok = got == (misses, slips)
        failed += not ok
        print("%s %d bench-energy: %s%s" % (
            "ok" if ok else "not ok", n, name,
            "" if ok else " (misses, slips %s, expected %s)" %
            (got, (misses, slips))))
    return failed


def main():
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(1 if selftest() else 0)
    if len(sys.argv) < 3:
        sys.exit("usage: bench-energy.py OUTDIR LOG...")
    out = sys.argv[1]
    rows, info, models, problems = [], {}, {}, []
    for path in sys.argv[2:]:
        states, cells, i = parse(path)
        info.update(i)
        if not cells:
            problems.append("%s: no benchmark cell (see the log)" % path)
            continue
        model = Model(states)
        models[cells[0].table] = model
        for c in cells:
            if c.dropped:
                problems.append("%s/%s/%s: %d idle periods not logged" %
                                (c.table, c.workload, c.policy, c.dropped))
            for e in c.errors:
                problems.append("%s/%s/%s: %s" % (c.table, c.workload,
                                                  c.policy, e))
            rows.append(analyse(c, model, int(i.get("cpus", 1))))

    md = []
    md.append("Energy and deadline misses: kernel %s, %s CPUs, QEMU TCG "
              "-icount shift=1 (guest time), test cpuidle driver." %
              (info.get("kernel", "?"), info.get("cpus", "?")))
    md.append("")
    for table, model in models.items():
        md.append("Idle table %s: %s." % (table, ", ".join(
            "%s %d/%d us %d mW" % (s[1], s[2] // 1000, s[3] // 1000, s[4])
            for s in model.states)))
    md.append("")
    md.append("| table | workload | policy | limit us | jobs | misses | "
              "slips | p99 lat us | worst lat us | "
              "residency % (state 0..n) | "
              "idle energy mJ | oracle mJ | % of oracle saving |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c = r["cell"]
        res = " / ".join("%.0f" % r["residency"].get(s, 0)
                         for s in range(len(models[c.table].states)))
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %s |"
                  % (c.table, c.workload, c.policy, c.limit or "-",
                     fmt(r["jobs"]), fmt(r["misses"]), fmt(r["slips"]),
                     fmt(r["p99"] and r["p99"] / 1000.0, "%.0f"),
                     fmt(r["worst"] and r["worst"] / 1000.0, "%.0f"),
                     res, r["energy"] / 1e6, r["oracle"] / 1e6,
                     fmt(r["saving"], "%.1f")))
    md.append("")
    md.append("Summary: % of the oracle's saving (deadline misses / jobs, "
              "and slips if any)")
    md.append("")
    md.append("| table | workload | " + " | ".join(POLICIES) + " |")
    md.append("|---|---|" + "---|" * len(POLICIES))
    by = {(r["cell"].table, r["cell"].workload, r["cell"].policy): r
          for r in rows}
    seen = []
    for r in rows:
        key = (r["cell"].table, r["cell"].workload)
        if key in seen:
            continue
        seen.append(key)
        cols = []
        for p in POLICIES:
            x = by.get(key + (p,))
            if not x:
                cols.append("")
                continue
            miss = ("%d/%d" % (x["misses"], x["jobs"])
                    if x["misses"] is not None else "-")
            if x.get("slips"):
                miss += ", %d slips" % x["slips"]
            cols.append("%s (%s)" % (fmt(x["saving"], "%.0f"), miss))
        md.append("| %s | %s | %s |" % (key[0], key[1], " | ".join(cols)))
    md.append("")
    md.append("Policies: " + "; ".join("%s = %s" % (p, POLICY_DESC[p])
                                       for p in POLICIES) + ".")
    md.append("limit us: dl_idle_qos limit while the tasks ran.  "
              "Oracle and energy model: see the Benchmarks section of "
              "Documentation/scheduler/sched-deadline-idle.rst.")
    if problems:
        md.append("")
        md.append("Problems:")
        md.extend("- " + p for p in problems)
    text = "\n".join(md) + "\n"
    with open(os.path.join(out, "energy.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)

    # Plot data: one block per table, rows = workloads, columns = policies.
    tables = list(models)
    workloads = []
    for r in rows:
        if r["cell"].workload not in workloads:
            workloads.append(r["cell"].workload)
    saving = {(r["cell"].table, r["cell"].workload, r["cell"].policy):
              r["saving"] for r in rows}
    with open(os.path.join(out, "energy.dat"), "w") as f:
        for t in tables:
            f.write("# table %s\nworkload %s\n" % (t, " ".join(POLICIES)))
            for w in workloads:
                f.write("%s %s\n" % (w, " ".join(
                    fmt(saving.get((t, w, p)), "%.1f", "NaN")
                    for p in POLICIES)))
            f.write("\n\n")
    with open(os.path.join(out, "energy.gp"), "w") as f:
        f.write("set terminal pngcairo size 1200,%d font ',10'\n" %
                (380 * len(tables)))
        f.write("set output '%s'\n" % os.path.join(out, "energy.png"))
        f.write("set multiplot layout %d,1\n" % len(tables))
        f.write("set style data histogram\nset style histogram cluster "
                "gap 1\nset style fill solid border -1\nset boxwidth 0.9\n"
                "set yrange [-50:*]\nset grid ytics\nset key outside "
                "right\nset ylabel '% of the oracle saving'\n"
                "set datafile missing 'NaN'\n")
        for i, t in enumerate(tables):
            f.write("set title 'idle energy saving vs polling, table %s "
                    "(100 = oracle)'\n" % t)
            f.write("plot '%s' index %d using 2:xtic(1) title columnhead"
                    % (os.path.join(out, "energy.dat"), i))
            for k in range(3, len(POLICIES) + 2):
                f.write(", '' index %d using %d title columnhead" % (i, k))
            f.write("\n")
        f.write("unset multiplot\n")


if __name__ == "__main__":
    main()
