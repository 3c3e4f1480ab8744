#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-log.py: the verdict of a make test run, from the guest console log.

  check-log.py [--manifest FILE] [--variant "TAG ..."] [--tests "T ..."] LOG
  check-log.py --selftest
  check-log.py --manifest FILE --check-tests "T ..."

Prints one line per result and per rig check, then "N passed, N failed" as
the last line; exits non-zero when anything failed.  What fails the run:

  - a result line that says "not ok" (not a SKIP or TODO), at any depth: a
    test case, a kselftest program as the runner reports it (its exit
    status, "# TIMEOUT", "# exit=N"), a KUnit suite;
  - a TAP block whose results do not match its plan ("1..N");
  - a test of the manifest (rig/expected) that should have run on this
    variant and did not, a skip the manifest does not allow on this variant
    (or allows for another reason), a result the manifest does not know, a
    result reported twice;
  - the kselftest runner's exit status, which the guest prints as
    "DLQOS-RIG-KSELFTEST-EXIT N", missing or non-zero;
  - a kernel report (BUG, WARNING, lockdep, KASAN, UBSAN, kmemleak, RCU
    stall, soft or hard lockup, deadline class reports, an unstable
    clocksource, ...), with one exception: the deadline class's lateness
    report "DL replenish lagged too much" stamped inside a phase in which a
    test lets deadline tasks be late on purpose, and says so in the kernel
    log ("dlqos-rig: lateness allowed begin: WHY" ... "end: WHY",
    lateness_allowed() in dlqos_util.h): a CPU hotplug operation
    (stop_machine() holds every CPU with interrupts off), the churn test's
    random operations (the limit and admission control turned off, any
    governor), a governor run that must miss.  The checker prints the
    reason of each report it excuses;
  - a guest that did not reach DLQOS-RIG-DONE (hang, panic, timeout).

Every result line counts, at every depth: a program that passes all its
cases counts once for each case and once for itself.

--selftest feeds the checker logs with one known defect each (a program
killed in mid-run, an extra skip, a plan mismatch, a splat, ...) and
reports, as results named "rig: check-log: ...", whether each was caught.
make test runs it before every boot.

--check-tests validates make test's TESTS against the manifest's programs.
"""
import os
import re
import subprocess
import sys

# Kernel reports that fail a run, anywhere in the log.
SPLAT = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|general protection fault|"
    r"possible recursive locking|possible circular locking|"
    r"inconsistent lock state|suspicious RCU usage|KASAN|UBSAN|"
    r"unreferenced object|INFO: task .* blocked|rcu: INFO|"
    r"Unable to handle|stack-protector|BUG kmalloc|refcount_t:|"
    # the deadline class's own reports (printk_deferred_once)
    r"DL replenish lagged too much|REPLENISH flag missing|"
    # the clocksource watchdog: guest time went wrong
    r"clocksource.*unstable|Marking clocksource|"
    # the lockup detectors (soft lockups also say BUG:)
    r"soft lockup|hard LOCKUP|Watchdog detected hard LOCKUP")

# A lateness report, excused inside a marked phase of allowed lateness only.
LATENESS = re.compile(r"DL replenish lagged too much")
LATENESS_MARK = re.compile(r"dlqos-rig: lateness allowed (begin|end): (.*)$")
STAMP = re.compile(r"^\[\s*([0-9]+\.[0-9]+)\]")
RESULT = re.compile(r"^(not ok|ok) ([0-9]+)(?: -)?(?: (.*))?$")
PLAN = re.compile(r"^1\.\.([0-9]+)")
HEADER = re.compile(r"^(?:selftests|Subtest): (.*)$")
VERSION = re.compile(r"^K?TAP version")


def depth(line):
    """Nesting of a TAP line: kselftest nests with "# ", KUnit with 4 spaces."""
    d = 0
    while True:
        if line.startswith("# "):
            line = line[2:]
        elif line.startswith("    "):
            line = line[4:]
        else:
            return d, line
        d += 1


def split_directive(text):
    """"name # SKIP why" -> ("name", "SKIP", "why")."""
    name, sep, directive = text.partition(" # ")
    if not sep and text.startswith("# "):
        name, directive = "", text[2:]
    directive = directive.strip()
    word = directive.split(" ", 1)[0].upper() if directive else ""
    if word in ("SKIP", "TODO"):
        return name.strip(), word, directive[len(word):].strip()
    return name.strip(), "", directive


class Block:
    """One TAP document or subtest: its plan and how many results it had."""

    def __init__(self, name):
        self.name = name
        self.plan = None
        self.count = 0
        self.failed_leaf = False


class Log:
    """What a console log says: results, plan mismatches, rig markers."""

    def __init__(self, lines):
        self.results = []	# (name, status, directive text, leaf)
        self.plan_errors = []
        self.runner_exit = None
        self.done = False
        self.banner = None
        self.splats = []
        self.excused = []
        self.dump_start = None	# stamp of the dmesg dump's first record
        self._parse(lines)

    def _close(self, blocks, d):
        """Close the block at depth d and every deeper one."""
        for k in sorted([k for k in blocks if k >= d], reverse=True):
            b = blocks.pop(k)
            if b.plan is not None and b.plan != b.count:
                self.plan_errors.append("%s: planned %d results, got %d" %
                                        (b.name or "top level", b.plan,
                                         b.count))

    def _parse(self, lines):
        blocks = {}
        child = {}
        ctx = ""
        in_tap = True
        reports = []
        windows = []	# (begin, end, why) of marked phases
        begun = {}
        for n, raw in enumerate(lines, 1):
            line = raw.rstrip("\r\n")
            stamp = STAMP.match(line)
            stamp = float(stamp.group(1)) if stamp else None
            if SPLAT.search(line):
                reports.append((n, line, stamp))
            m = LATENESS_MARK.search(line)
            if m and stamp is not None:
                if m.group(1) == "begin":
                    begun[m.group(2)] = stamp
                elif m.group(2) in begun:
                    windows.append((begun.pop(m.group(2)), stamp,
                                    m.group(2)))
            if line.startswith("DLQOS-RIG: ") and self.banner is None:
                self.banner = line
            m = re.match(r"^DLQOS-RIG-KSELFTEST-EXIT (-?[0-9]+)$", line)
            if m:
                self.runner_exit = int(m.group(1))
            if line.startswith("DLQOS-RIG-DONE"):
                self.done = True
            # The dmesg dump after the tests is not TAP.
            if line.startswith("--- dmesg ---"):
                in_tap = False
            if not in_tap:
                if self.dump_start is None and stamp is not None:
                    self.dump_start = stamp
                continue
            d, rest = depth(line)
            if VERSION.match(rest):
                self._close(blocks, d)
                blocks[d] = Block(ctx if d else "")
                continue
            m = PLAN.match(rest)
            if m:
                if d not in blocks or blocks[d].plan is not None:
                    self._close(blocks, d)
                    blocks[d] = Block(ctx if d else "")
                blocks[d].plan = int(m.group(1))
                continue
            m = HEADER.match(rest)
            if m:
                ctx = m.group(1)
                continue
            m = RESULT.match(rest)
            if not m:
                continue
            ok = m.group(1) == "ok"
            name, word, why = split_directive(m.group(3) or "")
            leaf = not child.get(d, False)
            child[d] = False
            for k in range(d):
                child[k] = True
            # This result ends its children's block.
            self._close(blocks, d + 1)
            if d not in blocks:
                blocks[d] = Block(ctx if d else "")
            blocks[d].count += 1
            if name.startswith("selftests: "):
                name = name[len("selftests: "):]
            elif d > 0 and ctx:
                name = "%s: %s" % (ctx, name)
            if word == "SKIP":
                status = "SKIP"
            elif not ok and word != "TODO":
                status = "FAIL"
            else:
                status = "PASS"
            self.results.append((name, status, why, leaf))
        self._close(blocks, 0)
        for n, line, stamp in reports:
            why = []
            if LATENESS.search(line) and stamp is not None:
                why = [w for b, e, w in windows if b <= stamp <= e]
            if why:
                self.excused.append("%d: %s (%s)" % (n, line, why[0]))
            else:
                self.splats.append("%d: %s" % (n, line))


class Manifest:
    """rig/expected: the tests that must run, and where each may skip."""

    def __init__(self, text, origin="manifest"):
        self.tests = []		# (name, only, skips)
        self.errors = []
        for n, line in enumerate(text.splitlines(), 1):
            line = line.rstrip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            name, only, skips = parts[0], None, []
            for p in parts[1:]:
                m = re.match(r"^(skip|only) ([^:]+)(?:: (.*))?$", p)
                if not m:
                    self.errors.append("%s:%d: cannot read \"%s\"" %
                                       (origin, n, p))
                elif m.group(1) == "only":
                    only = m.group(2)
                elif not m.group(3):
                    self.errors.append("%s:%d: a skip needs its reason" %
                                       (origin, n))
                else:
                    skips.append((m.group(2), m.group(3)))
            self.tests.append((name, only, skips))

    @staticmethod
    def matches(cond, tags):
        """"a+b,c": (a and b) or c, each a tag of the variant."""
        return any(all(t in tags for t in alt.split("+"))
                   for alt in cond.split(","))

    def programs(self):
        """The kselftest programs: "dlqos: X" of the names "dlqos: X: case"."""
        return sorted({n.split(": ")[1] for n, _, _ in self.tests
                       if n.startswith("dlqos: ")})

    def selected(self, name, tests):
        """Whether make test TESTS=... runs this test (KUnit, rig: always)."""
        if not tests or not name.startswith("dlqos: "):
            return True
        return name.split(": ")[1] in tests


def check(log, manifest, tags, tests):
    """Lines to print, and the numbers passed and failed."""
    out = []
    passed = failed = skipped = 0
    seen = {}
    for name, status, why, leaf in log.results:
        seen.setdefault(name, []).append((status, why))
    expected = {}
    for name, only, skips in manifest.tests:
        if only and not Manifest.matches(only, tags):
            continue
        if not manifest.selected(name, tests):
            continue
        expected[name] = skips

    for name, status, why, leaf in log.results:
        if status == "PASS":
            passed += 1
            out.append("PASS  %s" % name)
        elif status == "FAIL":
            failed += 1
            out.append("FAIL  %s%s" % (name, " (%s)" % why if why else ""))
        else:
            skipped += 1
            allowed = [r for c, r in expected.get(name, [])
                       if Manifest.matches(c, tags) and r in why]
            if allowed:
                out.append("SKIP  %s (%s)" % (name, why))
            else:
                failed += 1
                out.append("FAIL  %s: skipped (%s), which the manifest does "
                           "not allow here" % (name, why))
    for e in manifest.errors:
        failed += 1
        out.append("FAIL  rig: %s" % e)
    for name in expected:
        if name not in seen:
            failed += 1
            out.append("FAIL  %s: did not run (rig/expected lists it)" % name)
    for name in seen:
        if name not in expected:
            failed += 1
            out.append("FAIL  %s: not in rig/expected for this variant" % name)
        elif len(seen[name]) > 1:
            failed += 1
            out.append("FAIL  %s: reported %d times" % (name, len(seen[name])))
    for e in log.plan_errors:
        failed += 1
        out.append("FAIL  rig: plan: %s" % e)
    if log.runner_exit is None:
        failed += 1
        out.append("FAIL  rig: no exit status of the kselftest runner")
    elif log.runner_exit != 0:
        failed += 1
        out.append("FAIL  rig: the kselftest runner exited with %d" %
                   log.runner_exit)
    # The phases of allowed lateness are marked at notice level, which the
    # console does not print: only the dump has them.  A dump that does not
    # begin at boot lost records, and a report could be excused or missed.
    if log.dump_start is None:
        failed += 1
        out.append("FAIL  rig: no dmesg dump after the tests")
    elif log.dump_start != 0.0:
        failed += 1
        out.append("FAIL  rig: the dmesg dump begins at %.6f s, not at boot: "
                   "the kernel log buffer overflowed (log_buf_len)" %
                   log.dump_start)
    out.extend("NOTE  rig: excused, lateness allowed there: %s" % s
               for s in log.excused)
    if log.splats:
        failed += 1
        out.append("FAIL  rig: kernel report in the log:")
        out.extend("      %s" % s for s in log.splats[:20])
    if not log.done:
        failed += 1
        out.append("FAIL  rig: the guest did not finish the run "
                   "(hang, panic or timeout)")
    return out, passed, failed, skipped


# --selftest: one log per defect; each must fail, the clean one must pass.
ST_MANIFEST = """\
dl_idle_qos: case_a
dl_idle_qos
dlqos: prog_a: f.one
dlqos: prog_a: f.two | skip arm64: no exit latency
dlqos: prog_a
dlqos: prog_b: g.one
dlqos: prog_b
"""
ST_HEAD = """\
DLQOS-RIG: kernel test, 2 CPUs
KTAP version 1
1..1
    KTAP version 1
    # Subtest: dl_idle_qos
    1..1
    ok 1 case_a
ok 1 dl_idle_qos
TAP version 13
1..2
# timeout set to 3000
# selftests: dlqos: prog_a
# TAP version 13
# 1..2
# # Starting 2 tests from 1 test cases.
# #  RUN           f.one ...
# #            OK  f.one
# ok 1 f.one
"""
ST_PROG_A_END = """\
# #  RUN           f.two ...
# #            OK  f.two
# ok 2 f.two
# # PASSED: 2 / 2 tests passed.
# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 1 selftests: dlqos: prog_a
"""
ST_PROG_B = """\
# timeout set to 3000
# selftests: dlqos: prog_b
# TAP version 13
# 1..1
# ok 1 g.one
ok 2 selftests: dlqos: prog_b
"""
ST_TAIL = """\
DLQOS-RIG-KSELFTEST-EXIT 0
--- dmesg ---
[    0.000000] Linux version 6.12
DLQOS-RIG-DONE
"""
ST_CLEAN = ST_HEAD + ST_PROG_A_END + ST_PROG_B + ST_TAIL
ST_CASES = [
    # (name, log, tags, tests, the failure it must report, or None)
    ("a clean log passes", ST_CLEAN, {"x86_64"}, [], None),
    ("an allowed skip passes",
     ST_CLEAN.replace("# ok 2 f.two", "# ok 2 f.two # SKIP no exit latency "
                      "on psci_idle"), {"arm64"}, [], None),
    ("TESTS=prog_b expects prog_b only",
     ST_HEAD.split("TAP version 13")[0] +
     "TAP version 13\n1..1\n" + ST_PROG_B.replace("ok 2", "ok 1") + ST_TAIL,
     {"x86_64"}, ["prog_b"], None),
    ("a program killed in mid-run fails",
     ST_HEAD + "#\nnot ok 1 selftests: dlqos: prog_a # TIMEOUT 3000 seconds\n" +
     ST_PROG_B + ST_TAIL, {"x86_64"}, [], "FAIL  dlqos: prog_a (TIMEOUT"),
    ("a program that exits non-zero after passing fails",
     ST_CLEAN.replace("ok 1 selftests: dlqos: prog_a",
                      "not ok 1 selftests: dlqos: prog_a # exit=1"),
     {"x86_64"}, [], "FAIL  dlqos: prog_a (exit=1)"),
    ("a skip the manifest does not allow fails",
     ST_CLEAN.replace("# ok 2 f.two", "# ok 2 f.two # SKIP no exit latency"),
     {"x86_64"}, [], "f.two: skipped (no exit latency), which"),
    ("a skip for another reason fails",
     ST_CLEAN.replace("# ok 2 f.two", "# ok 2 f.two # SKIP no test module"),
     {"arm64"}, [], "f.two: skipped (no test module), which"),
    ("a missing test fails",
     ST_CLEAN.replace("# ok 1 g.one\n", "").replace("# 1..1\n", "# 1..0\n"),
     {"x86_64"}, [], "FAIL  dlqos: prog_b: g.one: did not run"),
    ("a plan mismatch fails",
     ST_CLEAN.replace("# 1..1\n", "# 1..2\n"), {"x86_64"}, [],
     "plan: dlqos: prog_b: planned 2 results, got 1"),
    ("a test not in the manifest fails",
     ST_CLEAN.replace("# ok 1 g.one\n", "# ok 1 g.one\n# ok 2 g.two\n")
     .replace("# 1..1\n", "# 1..2\n"), {"x86_64"}, [],
     "g.two: not in rig/expected"),
    ("a missing program (no /kselftest) fails",
     ST_HEAD.split("TAP version 13")[0] + ST_TAIL, {"x86_64"}, [],
     "FAIL  dlqos: prog_a: did not run"),
    ("a failed case fails",
     ST_CLEAN.replace("# ok 1 g.one", "# not ok 1 g.one"), {"x86_64"}, [],
     "FAIL  dlqos: prog_b: g.one"),
    ("a runner exit status 1 fails",
     ST_CLEAN.replace("KSELFTEST-EXIT 0", "KSELFTEST-EXIT 1"), {"x86_64"},
     [], "runner exited with 1"),
    ("no runner exit status fails",
     ST_CLEAN.replace("DLQOS-RIG-KSELFTEST-EXIT 0\n", ""), {"x86_64"}, [],
     "no exit status of the kselftest runner"),
    ("no DLQOS-RIG-DONE fails",
     ST_CLEAN.replace("DLQOS-RIG-DONE\n", ""), {"x86_64"}, [],
     "did not finish the run"),
    ("a failed KUnit suite fails",
     ST_CLEAN.replace("ok 1 dl_idle_qos", "not ok 1 dl_idle_qos"),
     {"x86_64"}, [], "FAIL  dl_idle_qos"),
]
ST_LAG = "[    2.500000] sched: DL replenish lagged too much\n"
ST_WINDOW = ("[    2.000000] dlqos-rig: lateness allowed begin: cpu1 offline\n" +
             ST_LAG +
             "[    3.000000] dlqos-rig: lateness allowed end: cpu1 offline\n")
ST_CASES += [
    ("a lag report inside a phase of allowed lateness passes",
     ST_CLEAN.replace("DLQOS-RIG-DONE", ST_WINDOW + "DLQOS-RIG-DONE"),
     {"x86_64"}, [], None),
    ("a lag report inside nested phases passes",
     ST_CLEAN.replace("DLQOS-RIG-DONE",
                      "[    1.000000] dlqos-rig: lateness allowed begin: churn\n" +
                      ST_WINDOW.replace("[    2.500000]", "[    2.000001]") +
                      ST_LAG.replace("[    2.500000]", "[    3.500000]") +
                      "[    4.000000] dlqos-rig: lateness allowed end: churn\n" +
                      "DLQOS-RIG-DONE"),
     {"x86_64"}, [], None),
    ("a lag report after a phase of allowed lateness fails",
     ST_CLEAN.replace("DLQOS-RIG-DONE", ST_WINDOW.replace(
         "[    2.500000]", "[    3.500000]") + "DLQOS-RIG-DONE"),
     {"x86_64"}, [], ": [    3.500000] sched: DL replenish lagged"),
    ("a lag report in a phase never ended fails",
     ST_CLEAN.replace("DLQOS-RIG-DONE", "".join(
         ST_WINDOW.splitlines(True)[:2]) + "DLQOS-RIG-DONE"),
     {"x86_64"}, [], ": [    2.500000] sched: DL replenish lagged"),
    ("another report inside a phase of allowed lateness fails",
     ST_CLEAN.replace("DLQOS-RIG-DONE", ST_WINDOW.replace(
         "sched: DL replenish lagged too much",
         "WARNING: CPU: 0 PID: 1 at kernel/sched/deadline.c:1 f+0x0/0x1") +
         "DLQOS-RIG-DONE"),
     {"x86_64"}, [], ": [    2.500000] WARNING: CPU: 0"),
    ("a dmesg dump that lost its beginning fails",
     ST_CLEAN.replace("[    0.000000] Linux version 6.12",
                      "[    2.000000] dlqos-rig: lateness allowed end: x"),
     {"x86_64"}, [], "the dmesg dump begins at 2.000000 s, not at boot"),
    ("a log without a dmesg dump fails",
     ST_CLEAN.replace("--- dmesg ---\n[    0.000000] Linux version 6.12\n",
                      ""),
     {"x86_64"}, [], "no dmesg dump after the tests"),
]
ST_SPLATS = [
    "sched: DL replenish lagged too much",
    "DL de-boosted task PID 42: REPLENISH flag missing",
    "clocksource: timekeeping watchdog on CPU1: Marking clocksource 'tsc' "
    "as unstable because the skew is too large:",
    "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [dl_task:99]",
    "Watchdog detected hard LOCKUP on cpu 1",
    "BUG: KASAN: slab-use-after-free in dl_idle_qos_task_admit+0x1/0x2",
    "WARNING: CPU: 0 PID: 1 at kernel/sched/deadline.c:1 f+0x0/0x1",
    "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
]


def selftest():
    manifest = Manifest(ST_MANIFEST, "selftest manifest")
    cases = list(ST_CASES)
    for s in ST_SPLATS:
        cases.append(("a report fails: %s" % s[:40],
                      ST_CLEAN.replace("DLQOS-RIG-DONE",
                                       "[    1.000000] " + s +
                                       "\nDLQOS-RIG-DONE"),
                      {"x86_64"}, [], ": [    1.000000] " + s))
    out = []
    for name, text, tags, tests, expect in cases:
        lines, _, failed, _ = check(Log(text.splitlines(True)), manifest,
                                    tags, tests)
        if expect is None:
            ok = failed == 0
        else:
            ok = failed > 0 and any(expect in line for line in lines)
        out.append((ok, "rig: check-log: " + name, [] if ok else lines))
    return out


def bench_selftest():
    """The benchmarks' self-tests: their counting of misses and slips."""
    out = []
    for name in ("bench-energy", "bench-partition"):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            name + ".py")
        r = subprocess.run([sys.executable, path, "--selftest"],
                           capture_output=True, text=True)
        cases = []
        for line in r.stdout.splitlines():
            m = re.match(r"^(ok|not ok) [0-9]+ (.*)$", line)
            if m:
                cases.append((m.group(1) == "ok", "rig: " + m.group(2),
                              [] if m.group(1) == "ok" else [line]))
        if not cases or r.returncode != (0 if all(c[0] for c in cases)
                                         else 1):
            cases.append((False, "rig: %s --selftest (exit %d)" %
                          (name, r.returncode), r.stderr.splitlines()[-5:]))
        out.extend(cases)
    return out


def main(argv):
    args = {"--manifest": None, "--variant": "", "--tests": ""}
    files = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--manifest", "--variant", "--tests", "--check-tests"):
            args[a] = argv[i + 1] if i + 1 < len(argv) else ""
            i += 2
        elif a == "--selftest":
            args[a] = True
            i += 1
        else:
            files.append(a)
            i += 1
    if args.get("--selftest"):
        results = selftest()
        print("TAP version 13\n1..%d" % len(results))
        for n, (ok, name, detail) in enumerate(results, 1):
            print("%s %d %s" % ("ok" if ok else "not ok", n, name))
            print("".join("#   %s\n" % line for line in detail), end="")
        return 0 if all(ok for ok, _, _ in results) else 1
    manifest = None
    if args["--manifest"]:
        with open(args["--manifest"]) as f:
            manifest = Manifest(f.read(), args["--manifest"])
    if "--check-tests" in args:
        known = manifest.programs() if manifest else []
        unknown = [t for t in args["--check-tests"].split() if t not in known]
        if unknown:
            print("TESTS: no such kselftest: %s (known: %s)" %
                  (" ".join(unknown), " ".join(known)), file=sys.stderr)
            return 2
        return 0
    if len(files) != 1 or manifest is None:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(files[0], errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        print("check-log: %s" % e, file=sys.stderr)
        return 2
    log = Log(lines)
    out, passed, failed, skipped = check(log, manifest,
                                         set(args["--variant"].split()),
                                         args["--tests"].split())
    # The checker's own self-test: every defect it must catch, caught.
    for ok, name, detail in selftest() + bench_selftest():
        out.append("%s  %s" % ("PASS" if ok else "FAIL", name))
        out.extend("#   " + line for line in detail)
        passed += ok
        failed += not ok
    print("\n".join(out))
    if log.banner:
        print(log.banner)
    print("variant: %s%s" % (args["--variant"],
                             "; TESTS=%s" % args["--tests"]
                             if args["--tests"] else ""))
    if skipped:
        print("%d skipped" % skipped)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
