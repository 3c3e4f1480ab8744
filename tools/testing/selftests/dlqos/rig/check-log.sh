#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-log.sh LOG: summarize the TAP results in a guest console log.
#
# Prints every leaf result (a test case, not the aggregate line of the
# program or suite that ran it), then "N passed, N failed" as the last
# line.  Exits non-zero when a test failed, when the guest did not reach
# the end of the run (hang, panic, timeout), or when the kernel printed a
# splat (BUG, WARNING, lockdep, KASAN, UBSAN, kmemleak, RCU stall, ...).
log=$1
[ -r "$log" ] || { echo "usage: $0 LOG" >&2; exit 2; }

results=$(awk '
# Depth of a TAP line: kselftest nests with "# ", KUnit with 4 spaces.
function depth(s,   d) {
	d = 0
	while (1) {
		if (substr(s, 1, 2) == "# ") { s = substr(s, 3); d++ }
		else if (substr(s, 1, 4) == "    ") { s = substr(s, 5); d++ }
		else break
	}
	rest = s
	return d
}
{
	sub(/\r$/, "")
	d = depth($0)
	if (rest ~ /^selftests: / || rest ~ /^Subtest: /) {
		sub(/^(selftests|Subtest): /, "", rest)
		ctx = rest
		next
	}
	if (rest !~ /^(not )?ok [0-9]+/)
		next
	leaf = !child[d]
	child[d] = 0
	for (k = 0; k < d; k++)
		child[k] = 1
	if (!leaf)
		next
	name = rest
	sub(/^(not )?ok [0-9]+ (- )?/, "", name)
	where = (d > 0 && ctx != "") ? ctx ": " : ""
	if (rest ~ /# *SKIP/) {
		skipped++
		printf "SKIP  %s%s\n", where, name
	} else if (rest ~ /^not ok/ && rest !~ /# *TODO/) {
		failed++
		printf "FAIL  %s%s\n", where, name
	} else {
		passed++
		printf "PASS  %s%s\n", where, name
	}
}
END {
	printf "@@ %d %d %d\n", passed, failed, skipped
}' "$log")
echo "$results" | grep -v '^@@ '
set -- $(echo "$results" | sed -n 's/^@@ //p')
passed=$1 failed=$2 skipped=$3

splat='BUG:|WARNING:|Oops|Kernel panic|general protection fault|'\
'possible recursive locking|possible circular locking|'\
'inconsistent lock state|suspicious RCU usage|KASAN|UBSAN|'\
'unreferenced object|INFO: task .* blocked|rcu: INFO|'\
'Unable to handle|stack-protector|BUG kmalloc|refcount_t:'
status=0
if grep -Eq "$splat" "$log"; then
	echo "kernel splat in $log:"
	grep -En "$splat" "$log" | head -20
	failed=$((failed + 1))
	status=1
fi
if ! grep -q '^DLQOS-RIG-DONE' "$log"; then
	echo "the guest did not finish the run (hang, panic or timeout): see $log"
	tail -5 "$log"
	failed=$((failed + 1))
	status=1
fi
[ "$failed" -eq 0 ] || status=1
[ "$passed" -gt 0 ] || status=1
grep -m1 '^DLQOS-RIG: ' "$log"
[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
exit $status
