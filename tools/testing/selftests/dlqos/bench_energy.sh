#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench_energy.sh: the guest half of the energy and deadline-miss benchmark
# of `make bench` (rig.mode=energy).  Loads the test cpuidle driver with its
# idle log, then runs every workload under every policy for
# DLQOS_BENCH_SECONDS (default 3) of guest time and prints, per cell:
#
#   CELL table workload policy
#   LIMIT limit_us                 dl_idle_qos limit while the tasks run
#   T ... / J ...                  dl_bench's tasks and jobs
#   CD thread deadline_us cycles min_us avg_us max_us   (cyclicdeadline)
#   RES cpu state usage time_us    sysfs counters, deltas over the run
#   I cpu state entry_ns length_ns flags   the driver's idle log
#   DROPPED cpuN n
#   END
#
# The host (rig/bench-energy.py) turns that into the tables and the plot.
#
# bench_energy.sh select (rig.mode=select, on a kernel with the function
# profiler): the mixed workload under each governor, and the profiler's
# hits and mean time (us) of the governors' select functions:
#   SELECT governor function hits avg_us
# local_touch_nmi, an empty function called once per idle loop, shows what
# the profiler itself adds to each call.
#
# bench_energy.sh partition (rig.mode=partition, two CPUs): two root
# domains, CPU 0 (the root cpuset) and a cpuset partition on CPU 1, each
# running a task set of its own.  Workloads (DLQOS_BENCH_WORKLOADS):
#   tight-light   CPU 0 tasks of 100 us slack, CPU 1 the light workload's
#                 periods; under menu with the publication off and on,
#                 and dlqos
#   partitioned   each CPU the heavy workload's tasks; under dlqos,
#                 teo-pub and rt-static
# (DLQOS_BENCH_POLICIES, if set, for both; DLQOS_BENCH_WORKLOADS picks
# among these two, if it names any).  Under -icount a CPU that
# runs or polls slows the other down in guest time (up to twice), so
# WORK is 0.4 RUNTIME here, not 0.8: a job still completes within its
# runtime and deadline when both CPUs run.  Per workload and policy:
#   PCELL workload policy
#   LIMIT cpu limit_ns             that CPU's limit while the tasks run
#   RES cpu state usage time_us    as above
#   PT cpu ... / PJ cpu ...        the T and J lines of the dl_bench run
#                                  of that CPU's tasks
# The host (rig/bench-partition.py) counts the misses and slips.
# Workloads are periodic deadline task sets for one CPU (the benchmark
# boots one: under -icount all CPUs share one instruction clock, so a busy
# or polling CPU would slow the others down in guest time), given as
# RUNTIME:DEADLINE:PERIOD:WORK[:OFFSET] in microseconds, WORK = 0.8 RUNTIME;
# see the Benchmarks section of Documentation/scheduler/sched-deadline-idle.rst.
here=$(dirname "$0")
table=${DLQOS_IDLE_TABLE:-spr}
secs=${DLQOS_BENCH_SECONDS:-3}
cpuidle=/sys/devices/system/cpu/cpuidle
state=/sys/kernel/debug/dl_idle_qos/state
log=/sys/kernel/debug/test_cpuidle/intervals
sysctl=/proc/sys/kernel/sched_dl_idle_qos
rule2=/proc/sys/kernel/sched_dl_idle_qos_rule2
reserve=/proc/sys/kernel/sched_dl_idle_reserve_us
policies="menu teo ladder menu-pub teo-pub dlqos dlqos-bandwidth dlqos-rule1"
policies="$policies dlqos-reserve rt-static"

workload()
{
	case $1 in
	light)	echo 500:5000:5000:400 1000:10000:10000:800:2000 ;;
	medium)	echo 1500:10000:10000:1200 1500:10000:10000:1200:5000 \
		     3000:20000:20000:2400:2500 3000:20000:20000:2400:7500 ;;
	heavy)	echo 2000:10000:10000:1600 2000:10000:10000:1600 \
		     2000:10000:10000:1600 2000:10000:10000:1600 ;;
	tight)	echo 700:800:10000:560 1200:1400:20000:960:5000 ;;
	mixed)	echo 150:1000:1000:120 400:4000:5000:320:300 \
		     2000:20000:20000:1600:600 10000:100000:100000:8000:900 ;;
	esac
}

# Policy: governor, publication of the limit, rule 2 mode, idle
# reservation, cpu_dma_latency held at 0.
policy()
{
	exec 3>&-
	# The kernel's default: the demand rule on a one-CPU root domain.
	[ -w $rule2 ] && echo demand > $rule2
	[ -w $reserve ] && echo 0 0 > $reserve
	case $1 in
	*-pub)	echo 1 > $sysctl ;;
	*)	[ -w $sysctl ] && echo 0 > $sysctl ;;
	esac
	case $1 in
	dlqos)	echo 1 > $sysctl ;;
	dlqos-bandwidth)
		echo 1 > $sysctl
		echo bandwidth > $rule2 ;;
	dlqos-rule1)
		echo 1 > $sysctl
		echo off > $rule2 ;;
	dlqos-reserve)
		# 5% of every CPU kept idle: 0.5 ms every 10 ms.
		echo 1 > $sysctl
		echo 500 10000 > $reserve ;;
	rt-static)
		exec 3> /dev/cpu_dma_latency
		echo 0 >&3 ;;
	esac
	gov=${1%-pub}
	gov=${gov%-rule1}
	gov=${gov%-bandwidth}
	gov=${gov%-reserve}
	[ "$gov" = rt-static ] && gov=menu
	echo "$gov" > $cpuidle/current_governor
}

# Wait until the tasks of the previous cell are released (0-lag time).
settle()
{
	i=0
	while [ -r $state ] && ! grep -q '^tasks: 0$' $state && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
}

counters()
{
	for d in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		c=${d%/cpuidle/*}
		echo "${c##*cpu} ${d##*state} $(cat $d/usage) $(cat $d/time)"
	done
}

limit_us()
{
	sleep 0.3
	if [ -r $state ]; then
		sed -n 's/^limit_us: //p' $state
	else
		echo none
	fi
}

# Governor select() cost, from the function profiler.
select_cost()
{
	insmod "$here/test_cpuidle.ko" table="$table" || exit 1
	t=/sys/kernel/tracing
	for f in ladder_select_state menu_select teo_select dlqos_select \
		 local_touch_nmi; do
		echo "$f" >> $t/set_ftrace_filter
	done
	for g in ladder menu teo dlqos; do
		echo "$g" > $cpuidle/current_governor
		settle
		echo 1 > $t/function_profile_enabled
		"$here/dl_bench" "$secs" $(workload mixed) > /dev/null
		echo 0 > $t/function_profile_enabled
		awk -v g="$g" '$1 ~ /_select|local_touch_nmi/ {
			print "SELECT", g, $1, $2, $5 }' $t/trace_stat/function0
	done
}

print_states()
{
	for d in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		echo "STATE ${d##*state} $(cat $d/name) $(cat $d/latency)" \
			"$(cat $d/residency) $(cat $d/power)"
	done
}

# The T and J lines of a dl_bench run on CPU $1, as PT and PJ lines.
bench_lines()
{
	sed -n "s/^\([TJ]\) /P\1 $1 /p" "$2"
}

# Tasks of CPU $2 in partition workload $1, WORK 0.4 RUNTIME.
partition_tasks()
{
	case $1-$2 in
	tight-light-0)
		echo 250:350:10000:100 250:350:20000:100:5000 ;;
	tight-light-1)
		echo 500:5000:5000:200 1000:10000:10000:400:2000 ;;
	partitioned-*)
		echo $(workload heavy) | tr ' ' '\n' |
			awk -F: -v OFS=: '{ $4 = $1 * 2 / 5; print }' ;;
	esac
}

# One cell: the tasks of workload $1 on both CPUs under policy $2, CPU 1's
# in the partition.
partition_cell()
{
	policy "$2"
	settle
	echo "PCELL $1 $2"
	counters > /tmp/before
	"$here/dl_bench" "$secs" $(partition_tasks "$1" 0) > /tmp/out0 &
	pid0=$!
	(echo 0 > $cg/part/cgroup.procs &&
		exec "$here/dl_bench" "$secs" $(partition_tasks "$1" 1)) \
		> /tmp/out1 &
	pid1=$!
	sleep 0.3
	sed -n 's/^cpu\([0-9]*\): .* limit_ns \([^ ]*\) .*/LIMIT \1 \2/p' $state
	wait $pid0 || echo "ERROR dl_bench failed"
	wait $pid1 || echo "ERROR dl_bench failed"
	counters > /tmp/after
	paste -d' ' /tmp/before /tmp/after |
		awk '{ print "RES", $1, $2, $7 - $3, $8 - $4 }'
	bench_lines 0 /tmp/out0
	bench_lines 1 /tmp/out1
}

partition_bench()
{
	cg=/sys/fs/cgroup

	insmod "$here/test_cpuidle.ko" table="$table" || exit 1
	print_states
	mount -t cgroup2 cgroup2 $cg || exit 1
	echo +cpuset > $cg/cgroup.subtree_control
	mkdir -p $cg/part
	echo 1 > $cg/part/cpuset.cpus
	echo root > $cg/part/cpuset.cpus.partition
	[ "$(cat $cg/part/cpuset.cpus.partition)" = root ] || exit 1
	# The partition workloads of DLQOS_BENCH_WORKLOADS, if it names any
	# (it may name the energy benchmark's only): all by default.
	ws=
	for w in $DLQOS_BENCH_WORKLOADS; do
		case $w in
		tight-light|partitioned)	ws="$ws $w" ;;
		esac
	done
	for w in ${ws:-tight-light partitioned}; do
		case $w in
		tight-light)	ps="menu menu-pub dlqos" ;;
		partitioned)	ps="dlqos teo-pub rt-static" ;;
		esac
		for p in ${DLQOS_BENCH_POLICIES:-$ps}; do
			partition_cell "$w" "$p"
		done
	done
	exec 3>&-
}

case $1 in
select)
	select_cost
	exit 0 ;;
partition)
	partition_bench
	exit 0 ;;
esac

insmod "$here/test_cpuidle.ko" table="$table" log=262144 || exit 1
print_states

for w in ${DLQOS_BENCH_WORKLOADS:-light medium heavy tight mixed cyclicdeadline}; do
	for p in ${DLQOS_BENCH_POLICIES:-$policies}; do
		policy "$p"
		settle
		echo "CELL $table $w $p"
		counters > /tmp/before
		echo 1 > $log
		if [ "$w" = cyclicdeadline ]; then
			# 2 threads, deadline = period 10 ms and 10.5 ms, runtime
			# 40% (80% over 2 threads on 1 CPU); -D does not end the
			# run on x86: SIGINT does.
			timeout -s INT $((secs + 1)) cyclicdeadline -q -t 2 \
				-i 10000 -s 500 > /tmp/out 2>&1 &
			pid=$!
			echo "LIMIT $(limit_us)"
			wait $pid
			# "T: 0 (tid) I:10000 C: n Min: n Act: n Avg: n Max: n"
			awk '/^T:/ {
				gsub(/: +/, ":")
				for (i = 1; i <= NF; i++) {
					split($i, kv, ":")
					v[kv[1]] = kv[2]
				}
				print "CD", v["T"], v["I"], v["C"], v["Min"], v["Avg"], v["Max"]
			}' /tmp/out
		else
			"$here/dl_bench" "$secs" $(workload "$w") > /tmp/out &
			pid=$!
			echo "LIMIT $(limit_us)"
			wait $pid || echo "ERROR dl_bench failed"
			cat /tmp/out
		fi
		counters > /tmp/after
		paste -d' ' /tmp/before /tmp/after |
			awk '{ print "RES", $1, $2, $7 - $3, $8 - $4 }'
		sed 's/^/I /' $log
		sed 's/^/DROPPED /' /sys/kernel/debug/test_cpuidle/dropped
		echo END
	done
done
exec 3>&-
