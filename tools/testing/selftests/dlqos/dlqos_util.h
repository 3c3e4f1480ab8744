/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the dlqos selftests: the test cpuidle driver, sysfs,
 * cpuidle states and governors, SCHED_DEADLINE tasks and time.
 */
#ifndef DLQOS_UTIL_H
#define DLQOS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/types.h>

/*
 * A deadline task with a small runtime needs many periods to run its exit
 * path, and a debug kernel under TCG is slow: allow each test case more
 * than the harness's default 30 s.
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#endif

#define CPUIDLE_SYSFS	"/sys/devices/system/cpu/cpuidle"
#define CPU_SYSFS	"/sys/devices/system/cpu"
#define MAX_STATES	10
#define MAX_CPUS	64

/* Read a whole small file into buf, without the trailing newline. */
static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

/* Write str to path; returns 0 or -errno of the write. */
static inline int write_file(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return 0;
}

/*
 * Mark in the kernel log a phase in which a test lets deadline tasks be
 * late on purpose (@on 1: begins, 0: ends; @why says how, the same text
 * for both).  The deadline class reports lateness once per boot: "DL
 * replenish lagged too much", when a replenishment finds the task's new
 * deadline already behind the clock (its timer handled more than its
 * relative deadline late, or the task run that late).  The rig's log
 * checker fails a run on that report except between the marks of such a
 * phase, and prints the phase's reason for each report it excuses.  At
 * the end the report is re-armed (clear_warn_once), so that lateness
 * after the phase is still seen.
 */
static inline void lateness_allowed(int on, const char *why)
{
	char mark[256];

	snprintf(mark, sizeof(mark), "<5>dlqos-rig: lateness allowed %s: %s\n",
		 on ? "begin" : "end", why);
	write_file("/dev/kmsg", mark);
	if (!on)
		write_file("/sys/kernel/debug/clear_warn_once", "1");
}

/*
 * Take CPU @cpu offline (@online 0) or bring it online, through sysfs;
 * 0 or -errno.  CPU hotplug stops every CPU with interrupts off
 * (stop_machine()), under TCG for longer than the shortest deadlines the
 * tests admit: SCHED_DEADLINE makes no promise across it.
 */
static inline int set_cpu_online(int cpu, int online)
{
	char path[64], why[96];
	int ret;

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	snprintf(why, sizeof(why),
		 "cpu%d %s, every CPU stopped with interrupts off", cpu,
		 online ? "online" : "offline");
	lateness_allowed(1, why);
	ret = write_file(path, online ? "1" : "0");
	lateness_allowed(0, why);
	return ret;
}

static inline long long read_ll(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

static inline int nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Test cpuidle driver: load with params ("table=spr"), unload. */
static inline const char *test_module_path(void)
{
	const char *p = getenv("DLQOS_TEST_MODULE");

	return p ? p : "./test_cpuidle.ko";
}

static inline int load_test_driver(const char *params)
{
	int fd = open(test_module_path(), O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static inline int unload_test_driver(void)
{
	return syscall(__NR_delete_module, "test_cpuidle", O_NONBLOCK) ? -errno : 0;
}

static inline const char *default_table(void)
{
	const char *t = getenv("DLQOS_IDLE_TABLE");

	return t ? t : "spr";
}

/* Make sure the test driver is loaded with table=default_table(). */
static inline int ensure_test_driver(void)
{
	char buf[64], params[300];

	if (!read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)) &&
	    !strcmp(buf, "test_cpuidle"))
		return 0;
	snprintf(params, sizeof(params), "table=%s", default_table());
	return load_test_driver(params);
}

/* The test driver's idle log (load it with log=N): one line a period. */
#define IDLE_LOG	"/sys/kernel/debug/test_cpuidle/intervals"

/* One line of IDLE_LOG: "cpu state entry_ns length_ns flags". */
struct idle_period {
	int cpu, state, flags;
	unsigned long long entry, length;
};

/**
 * read_idle_log() - read the test driver's idle log
 * @p: where to store the periods
 * @max: how many @p holds
 *
 * The periods of every CPU, in the order of the file (CPU by CPU, each
 * CPU's oldest first); the log keeps N periods per CPU, so @max may need
 * to be N times the number of CPUs.  Reading stops at @max periods or at
 * the first line that does not parse.  Writing to IDLE_LOG clears it.
 *
 * Return: the number of periods stored, or -errno if IDLE_LOG cannot be
 * opened (no test driver, or loaded without log=).
 */
static inline int read_idle_log(struct idle_period *p, int max)
{
	FILE *f = fopen(IDLE_LOG, "r");
	int n = 0;

	if (!f)
		return -errno;
	while (n < max && fscanf(f, "%d %d %llu %llu %d", &p[n].cpu,
				 &p[n].state, &p[n].entry, &p[n].length,
				 &p[n].flags) == 5)
		n++;
	fclose(f);
	return n;
}

/*
 * The cpuidle driver the kernel registered at boot, if any: psci_idle on
 * arm64 (cpuidle-psci, with the idle states of rig/virt-idle-states.dtsi),
 * none on x86, where the tests load test_cpuidle.  The test driver cannot
 * register next to a platform driver, and QEMU does not emulate the exit
 * latency of a platform driver's states.  Returns 1 with the driver's name
 * in @buf, or 0.
 */
static inline int platform_idle_driver(char *buf, size_t len)
{
	if (read_file(CPUIDLE_SYSFS "/current_driver", buf, len))
		return 0;
	return strcmp(buf, "none") && strcmp(buf, "test_cpuidle");
}

/* One idle state attribute of one CPU. */
static inline int state_attr(int cpu, int state, const char *attr,
			     char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpuidle/state%d/%s",
		 cpu, state, attr);
	return read_file(path, buf, len);
}

static inline long long state_ll(int cpu, int state, const char *attr)
{
	char buf[64];

	if (state_attr(cpu, state, attr, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

static inline int nr_states(int cpu)
{
	char buf[64];
	int n = 0;

	while (n < MAX_STATES && !state_attr(cpu, n, "name", buf, sizeof(buf)))
		n++;
	return n;
}

/* Disable (1) or enable (0) one state on every online CPU. */
static inline int set_state_disabled(int state, int disabled)
{
	char path[128];
	int cpu, ret;

	for (cpu = 0; cpu < nr_cpus(); cpu++) {
		snprintf(path, sizeof(path),
			 CPU_SYSFS "/cpu%d/cpuidle/state%d/disable", cpu, state);
		ret = write_file(path, disabled ? "1" : "0");
		if (ret)
			return ret;
	}
	return 0;
}

static inline void enable_all_states(void)
{
	int s;

	for (s = 0; s < nr_states(0); s++)
		set_state_disabled(s, 0);
}

/* Sum of a state counter ("usage", "time", "rejected") over all CPUs. */
static inline long long state_sum(int state, const char *attr)
{
	long long sum = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus(); cpu++)
		sum += state_ll(cpu, state, attr);
	return sum;
}

/* state_sum() of states 0..@n - 1 into @sums. */
static inline void state_sums(const char *attr, long long *sums, int n)
{
	int s;

	for (s = 0; s < n; s++)
		sums[s] = state_sum(s, attr);
}

static inline int get_governor(char *buf, size_t len)
{
	return read_file(CPUIDLE_SYSFS "/current_governor", buf, len);
}

static inline int set_governor(const char *name)
{
	return write_file(CPUIDLE_SYSFS "/current_governor", name);
}

static inline uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ull,
		.tv_nsec = ns % 1000000000ull,
	};

	return ts;
}

static inline void sleep_until(clockid_t clk, uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	while (clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* SCHED_DEADLINE, as in include/uapi/linux/sched/types.h. */
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

struct dlqos_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

/* sched_setattr() with every field the tests vary; 0 or -errno. */
static inline int setattr(pid_t pid, uint32_t size, uint32_t policy,
			  uint64_t flags, uint64_t runtime, uint64_t deadline,
			  uint64_t period)
{
	struct dlqos_sched_attr attr = {
		.size = size,
		.sched_policy = policy,
		.sched_flags = flags,
		.sched_runtime = runtime,
		.sched_deadline = deadline,
		.sched_period = period,
	};

	return syscall(__NR_sched_setattr, pid, &attr, 0) ? -errno : 0;
}

static inline int set_deadline(pid_t pid, uint64_t runtime, uint64_t deadline,
			       uint64_t period)
{
	return setattr(pid, sizeof(struct dlqos_sched_attr), SCHED_DEADLINE, 0,
		       runtime, deadline, period);
}

static inline int set_other(pid_t pid)
{
	return setattr(pid, sizeof(struct dlqos_sched_attr), 0, 0, 0, 0, 0);
}

/*
 * A child process that makes itself SCHED_DEADLINE and then either blocks
 * (reading a pipe) or spins, until the parent closes the pipe or kills it.
 */
struct dl_child {
	pid_t pid;
	int ctl;	/* write end: closing it makes a blocked child exit */
	/*
	 * Optional, set before dl_child_start(): shared memory (MAP_SHARED)
	 * that a spinning child advances on every turn of its loop, and a
	 * process-shared mutex (robust, so that a child started after one
	 * that was killed can take it) that the child locks before it makes
	 * itself SCHED_DEADLINE and holds until it exits.
	 */
	unsigned long *count;
	pthread_mutex_t *hold;
	/* Optional: the child starts on CPU start_cpu - 1 (0: anywhere). */
	int start_cpu;
	/* Set by dl_child_start(): CLOCK_MONOTONIC after its sched_setattr(). */
	uint64_t started;
};

enum dl_child_mode {
	DL_CHILD_BLOCK,
	DL_CHILD_SPIN,
	/*
	 * Spin; once found outside SCHED_DEADLINE (set_other() by the
	 * parent), block until one byte is written to the pipe, then spin
	 * again.  A child that was throttled blocks in that state.
	 */
	DL_CHILD_SPIN_BLOCK_ONCE,
};

static inline void dl_child_main(struct dl_child *c, int ctl,
				 enum dl_child_mode mode)
{
	int blocked = mode != DL_CHILD_SPIN_BLOCK_ONCE;
	char b;

	if (mode == DL_CHILD_BLOCK) {
		while (read(ctl, &b, 1) > 0)
			;
		_exit(0);
	}
	for (;;) {
		if (c->count)
			__atomic_fetch_add(c->count, 1, __ATOMIC_RELAXED);
		if (!blocked && sched_getscheduler(0) != SCHED_DEADLINE) {
			blocked = 1;
			if (read(ctl, &b, 1) != 1)
				_exit(0);
		}
	}
}

/* Returns 0, or -errno of the child's sched_setattr (child gone then). */
static inline int dl_child_start(struct dl_child *c, uint64_t runtime,
				 uint64_t deadline, uint64_t period,
				 enum dl_child_mode mode)
{
	int ctl[2], ack[2], err = 0;

	if (pipe(ctl) || pipe(ack))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (!c->pid) {
		close(ctl[1]);
		close(ack[0]);
		/* Do not outlive a test that was killed (timeout). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (c->start_cpu) {
			cpu_set_t set;
			int cpu;

			/*
			 * Move there, then allow every CPU again (as
			 * SCHED_DEADLINE requires): a running task stays.
			 */
			CPU_ZERO(&set);
			CPU_SET(c->start_cpu - 1, &set);
			sched_setaffinity(0, sizeof(set), &set);
			for (cpu = 0; cpu < nr_cpus(); cpu++)
				CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		err = c->hold ? pthread_mutex_lock(c->hold) : 0;
		/* A robust mutex whose earlier holder was killed. */
		if (err == EOWNERDEAD)
			err = pthread_mutex_consistent(c->hold);
		err = -err;
		if (!err)
			err = set_deadline(0, runtime, deadline, period);
		if (write(ack[1], &err, sizeof(err)) != sizeof(err) || err)
			_exit(1);
		dl_child_main(c, ctl[0], mode);
	}
	close(ctl[0]);
	close(ack[1]);
	if (read(ack[0], &err, sizeof(err)) != sizeof(err))
		err = -EIO;
	c->started = now_ns(CLOCK_MONOTONIC);
	close(ack[0]);
	c->ctl = ctl[1];
	if (err) {
		close(c->ctl);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
	return err;
}

/* Make the child exit and reap it. */
static inline void dl_child_stop(struct dl_child *c)
{
	if (c->pid <= 0)
		return;
	kill(c->pid, SIGKILL);
	close(c->ctl);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/*
 * Stop @n children: signal them all first, then reap them, so that their
 * exit paths (slow for small runtimes: a few microseconds per period) run
 * in parallel.
 */
static inline void dl_children_stop(struct dl_child *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].pid > 0)
			kill(c[i].pid, SIGKILL);
	for (i = 0; i < n; i++)
		dl_child_stop(&c[i]);
}

/* How far a child with a count has got. */
static inline unsigned long dl_child_count(struct dl_child *c)
{
	return __atomic_load_n(c->count, __ATOMIC_RELAXED);
}

/* The kernel's to_ratio(): bandwidth in units of 2^-20 (BW_SHIFT). */
static inline long long dl_to_ratio(uint64_t period, uint64_t runtime)
{
	return (runtime << 20) / period;
}

/* A field of CPU 0's dl_rq in the scheduler's debugfs file, or -1. */
static inline long long dl_rq_field(const char *field)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, field);

		if (!p || p[strlen(field)] != ' ')
			continue;
		p = strchr(p, ':');
		if (p) {
			v = strtoll(p + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* dl_bw->total_bw of the root domain of CPU 0. */
static inline long long dl_total_bw(void)
{
	return dl_rq_field(".dl_bw->total_bw");
}

/* What admission control lets tasks and servers hold per CPU (BW_SHIFT). */
static inline long long dl_bw_bw(void)
{
	return dl_rq_field(".dl_bw->bw");
}

/*
 * Wait up to @seconds for dl_idle_qos to account no deadline task (the
 * tasks of an earlier test are released at their 0-lag time).  Returns 0,
 * or -1 on timeout; 0 at once without CONFIG_DL_IDLE_QOS.
 */
static inline int wait_no_dl_tasks(int seconds)
{
	char buf[2048], *p;
	int i;

	for (i = 0; i < seconds * 10; i++) {
		if (read_file("/sys/kernel/debug/dl_idle_qos/state", buf,
			      sizeof(buf)))
			return 0;
		p = strstr(buf, "tasks: ");
		if (p && atoi(p + 7) == 0)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

/*
 * Field @n (numbered as in proc(5), 3 or more) of /proc/PID/stat, read into
 * @buf.  Returns a pointer to it in @buf, or NULL if the task is gone or
 * the line has no such field (or does not fit in @buf up to it).
 */
static inline const char *proc_stat_field(pid_t pid, int n, char *buf,
					  size_t size)
{
	char path[64];
	const char *s;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, size))
		return NULL;
	/* Fields 3 on follow the ")" that ends the command name. */
	s = strrchr(buf, ')');
	for (field = 2; s && field < n; field++)
		s = strchr(s + 1, ' ');
	return s && field == n && s[1] ? s + 1 : NULL;
}

/* The one-letter state of a task (field 3 of /proc/PID/stat), or '?'. */
static inline char proc_task_state(pid_t pid)
{
	char buf[512];
	const char *s = proc_stat_field(pid, 3, buf, sizeof(buf));

	return s ? *s : '?';
}

/* The CPU a task last ran on (field 39 of /proc/PID/stat), or -1. */
static inline int proc_task_cpu(pid_t pid)
{
	char buf[512];
	const char *s = proc_stat_field(pid, 39, buf, sizeof(buf));

	return s ? atoi(s) : -1;
}

/*
 * The /proc/PID/sched line "@field : value" (CONFIG_SCHED_DEBUG), into
 * @val.  0, or -1 if there is no such line.
 */
static inline int proc_sched_field(pid_t pid, const char *field,
				   long long *val)
{
	char path[64], line[256];
	size_t len = strlen(field);
	int ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	while (f && ret && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ' ' &&
		    strchr(line, ':'))
			ret = sscanf(strchr(line, ':') + 1, "%lld", val) == 1 ?
			      0 : -1;
	if (f)
		fclose(f);
	return ret;
}

/* A cpuset partition of its own (a root domain) for one CPU. */
#define CGROUP		"/sys/fs/cgroup"
#define PARTITION	CGROUP "/dlqos_partition"

static inline void partition_remove(void)
{
	if (access(PARTITION, F_OK))
		return;
	write_file(PARTITION "/cpuset.cpus.partition", "member");
	rmdir(PARTITION);
}

/* 0, or why the partition could not be made, in @why. */
static inline int partition_make(int cpu, char *why, size_t len)
{
	char buf[64];

	if (mount("cgroup2", CGROUP, "cgroup2", 0, NULL) && errno != EBUSY) {
		snprintf(why, len, "cannot mount cgroup2: %s", strerror(errno));
		return -1;
	}
	if (write_file(CGROUP "/cgroup.subtree_control", "+cpuset")) {
		snprintf(why, len, "no cpuset controller");
		return -1;
	}
	if (mkdir(PARTITION, 0755) && errno != EEXIST) {
		snprintf(why, len, "mkdir %s: %s", PARTITION, strerror(errno));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%d", cpu);
	if (write_file(PARTITION "/cpuset.cpus", buf) ||
	    write_file(PARTITION "/cpuset.cpus.partition", "root") ||
	    read_file(PARTITION "/cpuset.cpus.partition", buf, sizeof(buf)) ||
	    strcmp(buf, "root")) {
		snprintf(why, len, "CPU %d: partition \"%s\"", cpu, buf);
		partition_remove();
		return -1;
	}
	return 0;
}

/*
 * Move the calling process into the partition (@in) or back to the root
 * cpuset: the children it starts meanwhile inherit it.
 */
static inline int partition_enter(int in)
{
	return write_file(in ? PARTITION "/cgroup.procs" :
			       CGROUP "/cgroup.procs", "0");
}

#endif /* DLQOS_UTIL_H */
