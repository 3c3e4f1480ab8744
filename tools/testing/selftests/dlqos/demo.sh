#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh: what `make run` shows in the guest.  Loads the test cpuidle
# driver (unless the kernel has a driver, as cpuidle-psci on arm64),
# prints the idle states, the governor and the cpu_latency_qos value, then
# admits and removes SCHED_DEADLINE tasks and shows the limit dl_idle_qos
# derives from them, the requests it publishes (global, and per CPU), and
# which idle states the CPUs used.
here=$(dirname "$0")
table=${DLQOS_IDLE_TABLE:-spr}
state=/sys/kernel/debug/dl_idle_qos/state
cpuidle=/sys/devices/system/cpu/cpuidle

loaded=
if [ "$(cat $cpuidle/current_driver)" = none ]; then
	insmod "$here/test_cpuidle.ko" table="$table" || exit 1
	loaded=1
fi

echo "== idle driver $(cat $cpuidle/current_driver)," \
	"governor $(cat $cpuidle/current_governor)" \
	"(available: $(cat $cpuidle/available_governors))"
for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
	printf '   %-6s %-16s exit latency %5s us, target residency %5s us, %5s mW\n' \
		"${s##*/}" "$(cat $s/name)" "$(cat $s/latency)" \
		"$(cat $s/residency)" "$(cat $s/power)"
done

qos()
{
	# /dev/cpu_dma_latency reads the current constraint as a binary s32.
	od -An -td4 /dev/cpu_dma_latency | tr -d ' '
}

limit()
{
	if [ ! -r $state ]; then
		echo "   (no $state: kernel without CONFIG_DL_IDLE_QOS)"
		return
	fi
	awk -F': ' '{ v[$1] = $2 }
		$1 ~ /^cpu[0-9]+$/ {
			n = split($2, f, " ")
			for (i = 1; i < n; i += 2)
				if (f[i] == "published_us")
					req = req sprintf(" %s %s", $1, f[i + 1])
		} END {
		printf "   tasks %s: rule1 %s ns, rule2 %s ns", \
			v["tasks"], v["rule1_ns"], v["rule2_ns"]
		printf " -> limit %s us; published: global %s us,", \
			v["limit_us"], v["published_us"]
		printf " per CPU%s us", req }' $state
	echo "; cpu_dma_latency $(qos) us"
}

usage()
{
	for s in /sys/devices/system/cpu/cpu*/cpuidle/state*; do
		echo "${s##*/} $(cat $s/name) $(cat $s/usage)"
	done | awk '{ n[$1] = $2; u[$1] += $3 } END {
		for (s in n) printf "%s %s %d\n", s, n[s], u[s] }' | sort
}

# Idle for a while and print how often each state was entered.
idle_usage()
{
	usage > /tmp/before
	sleep "$1"
	usage > /tmp/after
	printf '   state usage over %ss:' "$1"
	paste /tmp/before /tmp/after | awk '{ printf " %s +%d", $2, $6 - $3 }'
	echo
}

echo "== no deadline task"
limit
idle_usage 2

pids=""
admit()
{
	"$here/dl_task" "$@" > /dev/null &
	pids="$pids $!"
	sleep 0.2
	echo "== admitted runtime $1 us, deadline $2 us, period $3 us (slack $(($2 - $1)) us)"
	limit
}

admit 1000 10000 20000 30
admit 2000 2500 10000 30
admit 300 500 1000 30
idle_usage 2

if [ "$(cat $cpuidle/current_governor)" = dlqos ]; then
	echo "== governor menu: the global request is published again"
	echo menu > $cpuidle/current_governor
	sleep 0.1
	limit
	echo dlqos > $cpuidle/current_governor
	sleep 0.1
	echo "== governor dlqos: it reads each CPU's limit; the global request is withdrawn"
	limit
fi

echo "== publication off (/proc/sys/kernel/sched_dl_idle_qos = 0)"
echo 0 > /proc/sys/kernel/sched_dl_idle_qos
limit
echo 1 > /proc/sys/kernel/sched_dl_idle_qos

for p in $pids; do
	kill "$p"
	wait "$p" 2>/dev/null
	sleep 0.1
	echo "== removed one task"
	limit
done
idle_usage 2
[ -z "$loaded" ] || rmmod test_cpuidle
