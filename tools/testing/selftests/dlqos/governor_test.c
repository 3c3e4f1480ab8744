// SPDX-License-Identifier: GPL-2.0
/*
 * The dlqos cpuidle governor, with the test cpuidle driver's spr table
 * (POLL, C1 1 us, C1E 2 us, C6 290 us exit latency), or on arm64 with
 * cpuidle-psci and the device tree's states at the same indices (WFI 1 us,
 * cpu-ret-1 1 us, cpu-ret-2 2 us, cpu-ret-deep 290 us).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "dlqos_util.h"
#include "dlqos_limit.h"

#define C1E		2
#define C6		3

/* The deadline tasks a test started: the teardown stops them. */
struct tasks {
	struct dl_child c[4];
	int nr;
};

FIXTURE(gov) {
	char saved[32];
	char driver[32];	/* platform driver, or "" for test_cpuidle */
	struct tasks t;
};

FIXTURE_SETUP(gov)
{
	char buf[64];

	self->t.nr = 0;
	self->driver[0] = '\0';
	if (!platform_idle_driver(self->driver, sizeof(self->driver))) {
		self->driver[0] = '\0';
		if (access(test_module_path(), R_OK))
			SKIP(return, "no test module at %s", test_module_path());
		if (!read_file(CPUIDLE_SYSFS "/current_driver", buf,
			       sizeof(buf)) && !strcmp(buf, "test_cpuidle"))
			ASSERT_EQ(0, unload_test_driver());
		ASSERT_EQ(0, load_test_driver("table=spr"));
	}
	ASSERT_EQ(4, nr_states(0));
	/* The tests' slacks, 200 us and 400 us, fall between C1E and C6. */
	ASSERT_GE(200, state_ll(0, C1E, "latency"));
	ASSERT_LT(200, state_ll(0, C6, "latency"));
	ASSERT_GE(400, state_ll(0, C6, "latency"));
	/* No deadline task of an earlier test is left. */
	ASSERT_EQ(0, wait_no_dl_tasks(60));
	ASSERT_EQ(0, get_governor(self->saved, sizeof(self->saved)));
	ASSERT_EQ(0, write_file(SYSCTL, "1"));
}

FIXTURE_TEARDOWN(gov)
{
	dl_children_stop(self->t.c, self->t.nr);
	partition_remove();
	set_governor(self->saved);
	write_file(SYSCTL, "1");
	if (self->driver[0])
		enable_all_states();
	else
		unload_test_driver();
}

TEST_F(gov, select_via_sysfs)
{
	char buf[64];

	ASSERT_EQ(0, set_governor("dlqos"));
	ASSERT_EQ(0, get_governor(buf, sizeof(buf)));
	EXPECT_STREQ("dlqos", buf);
	ASSERT_EQ(0, read_file(CPUIDLE_SYSFS "/available_governors", buf,
			       sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "dlqos"));
	/* Unknown, empty-ish and overlong names fail and change nothing. */
	EXPECT_EQ(-EINVAL, set_governor("nosuch"));
	EXPECT_EQ(-EINVAL, set_governor("dlqosdlqosdlqosdlqos"));
	EXPECT_EQ(-EINVAL, set_governor("\n"));
	ASSERT_EQ(0, get_governor(buf, sizeof(buf)));
	EXPECT_STREQ("dlqos", buf);
	ASSERT_EQ(0, set_governor("teo"));
	ASSERT_EQ(0, get_governor(buf, sizeof(buf)));
	EXPECT_STREQ("teo", buf);
}

/* make test boots with cpuidle.governor=dlqos. */
TEST_F(gov, boot_parameter)
{
	char cmdline[1024], want[64], *p;
	int n;

	ASSERT_EQ(0, read_file("/proc/cmdline", cmdline, sizeof(cmdline)));
	p = strstr(cmdline, "cpuidle.governor=");
	if (!p)
		SKIP(return, "no cpuidle.governor= on the kernel command line");
	n = sscanf(p + strlen("cpuidle.governor="), "%63s", want);
	ASSERT_EQ(1, n);
	/* The governor the kernel started with (tests restore it). */
	EXPECT_STREQ(want, self->saved);
}

/* Admit blocked deadline tasks with the given slack. */
static void admit_blocked(struct __test_metadata *_metadata,
			  struct tasks *t, uint64_t runtime, uint64_t deadline,
			  int n)
{
	int i;

	for (i = 0; i < n; i++)
		ASSERT_EQ(0, dl_child_start(&t->c[t->nr++], runtime, deadline,
					    100 * MS, DL_CHILD_BLOCK));
}

/* Wake every CPU up, so that each selects its idle state anew. */
static void kick_cpus(void)
{
	cpu_set_t set;
	int cpu;
	pid_t pid;

	for (cpu = 0; cpu < nr_cpus(); cpu++) {
		pid = fork();
		if (!pid) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/*
 * Per-state usage over @ms of idle.  A state's usage counts exits, so a
 * CPU that entered a state before a change leaves it, and counts it, after
 * the change: wake all CPUs up and let 100 ms pass first.
 */
static void idle_deltas(long long *d, int ms)
{
	long long before[MAX_STATES], after[MAX_STATES];
	int s, n = nr_states(0);

	kick_cpus();
	usleep(100 * 1000);
	state_sums("usage", before, n);
	usleep(ms * 1000);
	state_sums("usage", after, n);
	for (s = 0; s < n; s++)
		d[s] = after[s] - before[s];
}

/*
 * With deadline tasks of 200 us slack, no CPU enters C6 (290 us) while
 * they exist, C1E is still used, and C6 comes back once they are gone.
 * Publication is off: dlqos reads the limit itself.
 */
TEST_F(gov, dlqos_avoids_c6_for_deadline_tasks)
{
	long long d[MAX_STATES];

	ASSERT_EQ(0, set_governor("dlqos"));
	ASSERT_EQ(0, write_file(SYSCTL, "0"));
	idle_deltas(d, 1000);
	TH_LOG("no task: C1E +%lld, C6 +%lld", d[C1E], d[C6]);
	EXPECT_GT(d[C6], 0);

	admit_blocked(_metadata, &self->t, 100 * US, 300 * US, 2);
	idle_deltas(d, 2000);
	TH_LOG("slack 200 us: C1E +%lld, C6 +%lld", d[C1E], d[C6]);
	EXPECT_EQ(0, d[C6]);
	EXPECT_GT(d[C1E], 0);

	dl_child_stop(&self->t.c[0]);
	dl_child_stop(&self->t.c[1]);
	usleep(200 * 1000);
	idle_deltas(d, 2000);
	TH_LOG("tasks gone: C1E +%lld, C6 +%lld", d[C1E], d[C6]);
	EXPECT_GT(d[C6], 0);
}

/* A slack above C6's exit latency keeps C6 available. */
TEST_F(gov, dlqos_keeps_c6_when_it_fits)
{
	long long d[MAX_STATES];

	ASSERT_EQ(0, set_governor("dlqos"));
	admit_blocked(_metadata, &self->t, 100 * US, 500 * US, 1);
	idle_deltas(d, 2000);
	TH_LOG("slack 400 us: C1E +%lld, C6 +%lld", d[C1E], d[C6]);
	EXPECT_GT(d[C6], 0);
}

/* menu and teo honour the published request, and only that. */
static void published_request(struct __test_metadata *_metadata,
			      struct tasks *t, const char *governor)
{
	long long d[MAX_STATES];

	ASSERT_EQ(0, set_governor(governor));
	admit_blocked(_metadata, t, 100 * US, 300 * US, 1);
	idle_deltas(d, 2000);
	TH_LOG("%s, published: C1E +%lld, C6 +%lld", governor, d[C1E], d[C6]);
	EXPECT_EQ(0, d[C6]);
	ASSERT_EQ(0, write_file(SYSCTL, "0"));
	idle_deltas(d, 2000);
	TH_LOG("%s, publication off: C1E +%lld, C6 +%lld", governor, d[C1E],
	       d[C6]);
	EXPECT_GT(d[C6], 0);
}

/*
 * Pin the calling process to @cpu, entering the cpuset partition if @cpu
 * is not in the current cpuset.
 */
static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		return 0;
	if (partition_enter(1))
		return -1;
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Per-CPU usage of @state over @ms, into d[cpu].  A process on each CPU
 * sleeps 10 ms at a time meanwhile: every CPU, the partition's included,
 * goes idle and wakes up at least 100 times a second, with a sleep length
 * above every state's target residency.
 */
static void idle_deltas_per_cpu(long long *d, int state, int ms)
{
	long long before[MAX_CPUS];
	pid_t pid[MAX_CPUS];
	int cpu, n = nr_cpus();

	for (cpu = 0; cpu < n; cpu++) {
		pid[cpu] = fork();
		if (!pid[cpu]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (pin_to(cpu))
				_exit(1);
			for (;;)
				usleep(10000);
		}
	}
	usleep(100 * 1000);
	for (cpu = 0; cpu < n; cpu++)
		before[cpu] = state_ll(cpu, state, "usage");
	usleep(ms * 1000);
	for (cpu = 0; cpu < n; cpu++)
		d[cpu] = state_ll(cpu, state, "usage") - before[cpu];
	for (cpu = 0; cpu < n; cpu++) {
		if (pid[cpu] > 0) {
			kill(pid[cpu], SIGKILL);
			waitpid(pid[cpu], NULL, 0);
		}
	}
}

/*
 * Two root domains, a cpuset partition on the last CPU and the other
 * CPUs; a deadline task with 200 us slack in one of them.  dlqos keeps
 * that domain's CPUs out of C6 (290 us) and lets the other domain's use
 * it: each CPU has its own domain's limit.  menu, which takes the global
 * request (the smallest limit) for every CPU, keeps all of them out.
 */
TEST_F(gov, dlqos_per_root_domain)
{
	long long d[MAX_CPUS];
	int cpu, part, in;
	char why[128];

	if (nr_cpus() < 2)
		SKIP(return, "needs two CPUs");
	part = nr_cpus() - 1;
	if (partition_make(part, why, sizeof(why)))
		SKIP(return, "%s", why);
	for (in = 0; in < 2; in++) {
		const char *where = in ? "partition" : "root cpuset";

		ASSERT_EQ(0, set_governor("dlqos"));
		ASSERT_EQ(0, partition_enter(in));
		admit_blocked(_metadata, &self->t, 100 * US, 300 * US, 1);
		ASSERT_EQ(0, partition_enter(0));
		idle_deltas_per_cpu(d, C6, 2000);
		for (cpu = 0; cpu <= part; cpu++) {
			TH_LOG("dlqos, task in the %s: cpu%d C6 +%lld", where,
			       cpu, d[cpu]);
			/* C6 only where no task of 200 us slack is. */
			EXPECT_EQ(cpu == part ? !in : in, d[cpu] > 0);
		}
		ASSERT_EQ(0, set_governor("menu"));
		idle_deltas_per_cpu(d, C6, 2000);
		for (cpu = 0; cpu <= part; cpu++) {
			TH_LOG("menu, task in the %s: cpu%d C6 +%lld", where,
			       cpu, d[cpu]);
			EXPECT_EQ(0, d[cpu]);
		}
		dl_child_stop(&self->t.c[--self->t.nr]);
		ASSERT_EQ(0, wait_no_dl_tasks(60));
	}
}

TEST_F(gov, menu_honours_published_limit)
{
	published_request(_metadata, &self->t, "menu");
}

TEST_F(gov, teo_honours_published_limit)
{
	published_request(_metadata, &self->t, "teo");
}

TEST_F(gov, disabled_states_never_entered)
{
	long long d[MAX_STATES];

	ASSERT_EQ(0, set_governor("dlqos"));
	ASSERT_EQ(0, set_state_disabled(C6, 1));
	ASSERT_EQ(0, set_state_disabled(1, 1));
	idle_deltas(d, 1500);
	TH_LOG("C1, C6 disabled: POLL +%lld C1 +%lld C1E +%lld C6 +%lld",
	       d[0], d[1], d[C1E], d[C6]);
	EXPECT_EQ(0, d[1]);
	EXPECT_EQ(0, d[C6]);
	EXPECT_GT(d[C1E], 0);
	enable_all_states();
}

/*
 * A latency bound of 0 keeps the CPUs in state 0: polling (test driver)
 * or WFI (psci_idle), the state used when no state fits.
 */
TEST_F(gov, zero_bound_polls)
{
	long long d[MAX_STATES];
	int32_t zero = 0;
	int fd;

	ASSERT_EQ(0, set_governor("dlqos"));
	fd = open("/dev/cpu_dma_latency", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(zero), write(fd, &zero, sizeof(zero)));
	idle_deltas(d, 1000);
	close(fd);
	TH_LOG("bound 0: POLL +%lld C1 +%lld C1E +%lld C6 +%lld",
	       d[0], d[1], d[C1E], d[C6]);
	EXPECT_GT(d[0], 0);
	EXPECT_EQ(0, d[1] + d[C1E] + d[C6]);
}

/*
 * Whether the timing tests cannot run here, and why, into @why: a
 * platform idle driver (QEMU does not emulate its exit latencies), or a
 * guest without -icount.
 */
static bool no_timing(const char *driver, char *why, size_t len)
{
	if (driver[0])
		snprintf(why, len,
			 "%s: QEMU does not emulate the states' exit latency",
			 driver);
	else if (!getenv("DLQOS_ICOUNT"))
		snprintf(why, len,
			 "timing assertions need the guest run with -icount (ICOUNT=1)");
	else
		return false;
	return true;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

#define SLEEPS		41

/*
 * The runtime charged to a deadline task across each of SLEEPS sleeps of
 * 3 ms: its thread CPU time after the wakeup less before the sleep, the
 * median into @median and the largest into @max (ns).
 */
static void charged_across_sleeps(struct __test_metadata *_metadata,
				  long long *median, long long *max)
{
	long long v[SLEEPS], c0;
	int i;

	ASSERT_EQ(0, set_deadline(0, 2 * MS, 10 * MS, 10 * MS));
	for (i = 0; i < SLEEPS; i++) {
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		sleep_until(CLOCK_MONOTONIC, now_ns(CLOCK_MONOTONIC) + 3 * MS);
		v[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	}
	ASSERT_EQ(0, set_other(0));
	qsort(v, SLEEPS, sizeof(v[0]), cmp_ll);
	*median = v[SLEEPS / 2];
	*max = v[SLEEPS - 1];
}

/*
 * A deadline task woken on an idle CPU is charged runtime only from the
 * moment it runs, not for the idle state's exit.  The test driver takes
 * the wakeup interrupt before it spins the exit latency (HLT on x86), as
 * the time after the wakeup that the idle task spends leaving idle
 * (cpuidle, the tick, softirqs) before it schedules: if the scheduler
 * skips its clock update for that switch, the task's runtime pays for it.
 * Charged across a sleep, polling (no exit latency) and with C6 the only
 * state (290 us), the medians must differ by less than half of C6's exit
 * latency; the task's own work, the same both ways, cancels out.
 */
TEST_F(gov, idle_exit_not_charged)
{
	long long poll_med, poll_max, c6_med, c6_max, before, after, lat;
	int32_t zero = 0;
	char why[128];
	int fd, s;

	if (no_timing(self->driver, why, sizeof(why)))
		SKIP(return, "%s", why);
	lat = state_ll(0, C6, "latency") * 1000;
	ASSERT_EQ(0, set_governor("menu"));
	ASSERT_EQ(0, write_file(SYSCTL, "0"));

	fd = open("/dev/cpu_dma_latency", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(zero), write(fd, &zero, sizeof(zero)));
	charged_across_sleeps(_metadata, &poll_med, &poll_max);
	close(fd);

	for (s = 0; s < C6; s++)
		ASSERT_EQ(0, set_state_disabled(s, 1));
	before = state_sum(C6, "usage");
	charged_across_sleeps(_metadata, &c6_med, &c6_max);
	after = state_sum(C6, "usage");
	enable_all_states();

	TH_LOG("charged across a sleep (ns): polling median %lld max %lld",
	       poll_med, poll_max);
	TH_LOG("from C6 (%lld entries, exit latency %lld): median %lld max %lld",
	       after - before, lat, c6_med, c6_max);
	EXPECT_GE(after - before, SLEEPS / 2);
	EXPECT_LT(c6_med - poll_med, lat / 2);
}

/*
 * A periodic deadline task whose jobs check their completion against
 * their absolute deadline: WORK_US of work, a runtime 100 us above it and
 * a deadline @slack_us above it, every 10 ms.  Returns its misses and sets
 * *jobs and *worst_us (the largest delay between a release and the job
 * starting to run).  Needs -icount for exact guest time.
 */
#define WORK_US		600

static long run_dl_task(struct __test_metadata *_metadata, long slack_us,
			long *jobs, long *worst_us)
{
	char cmd[256], out[128];
	long misses = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s/dl_task %d %ld 10000 2 %d",
		 getenv("DLQOS_DIR") ? getenv("DLQOS_DIR") : ".",
		 WORK_US + 100, WORK_US + slack_us, WORK_US);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	out[0] = '\0';
	if (fgets(out, sizeof(out), f))
		sscanf(out, "jobs %ld misses %ld worst_start_us %ld", jobs,
		       &misses, worst_us);
	pclose(f);
	TH_LOG("slack %ld us: %s", slack_us, out);
	return misses;
}

/*
 * Deadline misses with and without the limit.  The slack a job has for
 * starting late is sized from the wakeup path's own cost W, measured first
 * with the CPUs kept polling (no exit latency at all): W + 60 us, at least
 * 200 us.  The limit is then that slack less the 100 us of runtime above
 * the work, below C6's 290 us exit latency whenever W is below 330 us, so
 * dlqos keeps the CPUs out of C6 and no job misses, while menu with the
 * publication off lets them enter C6 and every wakeup from it makes its
 * job late.  The same slack is tried once more with the CPUs polling: the
 * wakeup path alone must keep every job in, or a miss under dlqos would
 * say nothing about the governor.  On a kernel whose wakeup path alone
 * costs 330 us or more, or misses at that slack (DEBUG=1's varies between
 * runs, from below 100 us to milliseconds), no slack separates the two,
 * and the test says so with the figures.
 */
TEST_F(gov, deadline_misses)
{
	long jobs = 0, misses, worst = -1, slack, tried = 1000;
	int32_t zero = 0;
	char why[128];
	bool fits = false;
	int fd;

	if (no_timing(self->driver, why, sizeof(why)))
		SKIP(return, "%s", why);

	ASSERT_EQ(0, set_governor("dlqos"));
	ASSERT_EQ(0, write_file(SYSCTL, "0"));
	/* W: the CPUs poll while the request of 0 us is held. */
	fd = open("/dev/cpu_dma_latency", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(zero), write(fd, &zero, sizeof(zero)));
	misses = run_dl_task(_metadata, tried, &jobs, &worst);
	slack = worst + 60 > 200 ? worst + 60 : 200;
	TH_LOG("wakeup path: worst start %ld us (CPUs polling), %ld of %ld late; slack %ld us",
	       worst, misses, jobs, slack);
	if (worst >= 0 && slack - 100 < state_ll(0, C6, "latency")) {
		fits = true;
		tried = slack;
		misses = run_dl_task(_metadata, tried, &jobs, &worst);
	}
	close(fd);
	ASSERT_LE(0, worst);
	if (!fits || misses)
		SKIP(return,
		     "the wakeup path alone delays a job by %ld us (CPUs polling: %ld of %ld late with %ld us of slack): no slack keeps C6 out and the job in",
		     worst, misses, jobs, tried);

	misses = run_dl_task(_metadata, slack, &jobs, &worst);
	EXPECT_GE(jobs, 150);
	EXPECT_EQ(0, misses);

	ASSERT_EQ(0, set_governor("menu"));
	lateness_allowed(1, "governor_test: menu with the limit off must miss");
	misses = run_dl_task(_metadata, slack, &jobs, &worst);
	lateness_allowed(0, "governor_test: menu with the limit off must miss");
	EXPECT_GE(jobs, 150);
	EXPECT_GT(misses, jobs / 2);
}

/* dl_bench's tasks and jobs, as read_bench() counts them. */
#define BENCH_TASKS	2
#define BENCH_JOBS	1024
#define BENCH_LOGGED	10

struct bench_result {
	long jobs, misses, slips;
	long long worst_late;		/* the largest finish - deadline, ns */
	long long worst_start;		/* that job's start - release, ns */
	int worst_task;			/* and its task */
	unsigned long long cpus;	/* the CPUs the jobs ran on, a mask */
	/* the releases of each task's first BENCH_JOBS jobs */
	long nr_rel[BENCH_TASKS];
	long long rel[BENCH_TASKS][BENCH_JOBS];
};

/*
 * dl_bench's output on @f, its first BENCH_TASKS tasks: each job against
 * its own (the kernel's) release, a miss when it finishes after release +
 * deadline, and the periods each task lost ("slips": a job that overran
 * its runtime and was throttled pushes every later release of its task a
 * period or more).  The first BENCH_LOGGED misses and slips are logged.
 */
static void read_bench(struct __test_metadata *_metadata, FILE *f,
		       struct bench_result *r)
{
	long long c, d, p, w, rel, start, fin, late;
	long long dl[BENCH_TASKS] = { 0 }, period[BENCH_TASKS] = { 0 };
	long long last[BENCH_TASKS] = { -1, -1 };
	char line[256];
	int task, cpu;
	long gap;

	memset(r, 0, sizeof(*r));
	r->worst_late = LLONG_MIN;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "T %d %lld %lld %lld %lld", &task, &c, &d, &p,
			   &w) == 5 && task >= 0 && task < BENCH_TASKS) {
			dl[task] = d;
			period[task] = p;
			continue;
		}
		if (sscanf(line, "J %d %d %lld %lld %lld", &task, &cpu, &rel,
			   &start, &fin) != 5 || task < 0 ||
		    task >= BENCH_TASKS || !period[task])
			continue;
		r->jobs++;
		if (cpu >= 0 && cpu < 64)
			r->cpus |= 1ull << cpu;
		if (r->nr_rel[task] < BENCH_JOBS)
			r->rel[task][r->nr_rel[task]++] = rel;
		late = fin - rel - dl[task];
		if (late > r->worst_late) {
			r->worst_late = late;
			r->worst_start = start - rel;
			r->worst_task = task;
		}
		if (late > 0 && r->misses++ < BENCH_LOGGED)
			TH_LOG("task %d: job of %lld ns late by %lld ns", task,
			       rel, late);
		gap = last[task] < 0 ? 1 :
		      (rel - last[task] + period[task] / 2) / period[task];
		if (gap > 1 && r->slips < BENCH_LOGGED)
			TH_LOG("task %d: %ld period(s) lost before %lld ns",
			       task, gap - 1, rel);
		if (gap > 1)
			r->slips += gap - 1;
		last[task] = rel;
	}
}

/*
 * make bench's light workload (spr: runtime 500 us, work 400 us every 5 ms,
 * and 1000 us, 800 us every 10 ms) under dlqos with the limit published,
 * for 2 s: dl_bench's jobs, each against its own (the kernel's) release,
 * miss no deadline and lose no period (a job that overran its runtime and
 * was throttled pushes every later release of its task a period or more).
 * The limit, 4.5 ms (the first task's slack; rule 2 allows 5.3 ms), lets
 * the CPUs enter C6: a job may start 290 us late, and its runtime must
 * still cover its work, with 100 us and 200 us to spare.
 */
TEST_F(gov, light_workload)
{
	static struct bench_result r;
	char cmd[256], why[128];
	FILE *f;

	if (no_timing(self->driver, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, set_governor("dlqos"));
	snprintf(cmd, sizeof(cmd),
		 "%s/dl_bench 2 500:5000:5000:400 1000:10000:10000:800:2000",
		 getenv("DLQOS_DIR") ? getenv("DLQOS_DIR") : ".");
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	read_bench(_metadata, f, &r);
	ASSERT_EQ(0, pclose(f));
	TH_LOG("light workload: %ld jobs, %ld misses, %ld slips", r.jobs,
	       r.misses, r.slips);
	/*
	 * A DEBUG=1 kernel's own wakeup path stalls jobs by up to
	 * milliseconds at times (deadline_misses measures it): CI saw both
	 * tasks overrun at once, by 0.59 and 0.73 ms.  Reported, not
	 * asserted, there.
	 */
	if (getenv("DLQOS_DEBUG") && (r.misses || r.slips))
		SKIP(return,
		     "debug kernel: %ld misses, %ld slips in %ld jobs, its own wakeup path stalls jobs",
		     r.misses, r.slips, r.jobs);
	/* 2 s: 400 jobs of the first task, 200 of the second, give or take. */
	EXPECT_GE(r.jobs, 590);
	EXPECT_EQ(0, r.misses);
	EXPECT_EQ(0, r.slips);
}

/* A "domain CPUS:" line of the state view, where no value is "none". */
struct domain_line {
	long tasks;
	unsigned long long rule1_ns, rule2_ns, limit_ns, demand_ns;
	char demand[16];
};

/* The line of the root domain of @cpus (a cpulist): 0, or -1 if none. */
static int read_domain(const char *cpus, struct domain_line *dom)
{
	FILE *f = fopen(STATE_FILE, "r");
	char line[512], name[64];
	struct domain_line d;
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line,
			   "domain %63[^:]: tasks %ld capacity_ppb %*u reserved_ppb %*u rule1_ns %llu rule2_ns %llu limit_ns %llu demand_ns %llu demand %15s",
			   name, &d.tasks, &d.rule1_ns, &d.rule2_ns, &d.limit_ns,
			   &d.demand_ns, d.demand) != 7 || strcmp(name, cpus))
			continue;
		*dom = d;
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * Read the line of the root domain of @cpus into @dom until its demand
 * state is not "bound", for up to @seconds: the state view does not wait
 * for the exact demand-bound computation.  0, or -1 (@dom: the last line
 * read, demand state "" if none).
 */
static int wait_domain(const char *cpus, struct domain_line *dom,
		       int seconds)
{
	int i;

	memset(dom, 0, sizeof(*dom));
	for (i = 0; i < seconds * 100; i++) {
		if (i)
			usleep(10 * 1000);
		if (!read_domain(cpus, dom) && strcmp(dom->demand, "bound"))
			return 0;
	}
	return -1;
}

/* The idle log's length, per CPU. */
#define IDLE_LOG_LEN	4096

/*
 * Tasks A and B of gov.demand_tight (us): releases in common, deadlines in
 * common, 2.8 ms of work due 5 ms after each release.
 */
#define DEMAND_A	"2000:5000:20000:1900"
#define DEMAND_B	"1000:5000:20000:900"
#define DEMAND_SECONDS	3

static const struct task_param demand_tasks[] = {
	{ 2000 * US, 5000 * US, 20000 * US },
	{ 1000 * US, 5000 * US, 20000 * US },
};

/*
 * What the exact model of dlqos_limit.h (GMP) makes of the partition of
 * CPU @part while it holds demand_tasks[], started as @c[]: into @rule1,
 * @bound and @limit its rule 1, its demand bound and its limit, each
 * rounded down to ns.  Returns 0, or -1 (all three -1) unless the model
 * finds the demand bound exactly.
 */
static int demand_model(int part, const struct dl_child *c, long long *rule1,
			long long *bound, long long *limit)
{
	static struct model m;
	mpq_t r1, r2, l;
	uint64_t demand;
	int i, ret = -1;

	*rule1 = *bound = *limit = -1;
	memset(&m, 0, sizeof(m));
	m.domains = 2;
	m.part_cpu = part;
	for (i = 0; i < ARRAY_SIZE(demand_tasks); i++) {
		m.t[i] = demand_tasks[i];
		m.c[i] = c[i];	/* the model counts a task while its child runs */
		m.dom[i] = 1;
	}
	m.n = i;
	if (model_demand(&m, 1, &demand) != DEMAND_EXACT)
		return -1;
	mpq_inits(r1, r2, l, NULL);
	if (exact_domain_rules(&m, 1, r1, r2) == 1 &&
	    exact_domain_limit(&m, 1, l) == 1) {
		*rule1 = mpq_floor_u64(r1);
		*bound = demand;
		*limit = mpq_floor_u64(l);
		ret = 0;
	}
	mpq_clears(r1, r2, l, NULL);
	return ret;
}

/* One run of gov.demand_tight. */
struct demand_run {
	long long exit_us;
	struct bench_result b;
	long long usage;	/* entries into the state on the CPU */
	long woken;		/* jobs released while the CPU was in it */
	long long offset;	/* between the tasks' release grids (ns) */
	struct domain_line dom;	/* the partition, while the tasks ran */
	int dom_found;
	int status;		/* dl_bench's exit status */
};

/*
 * dl_bench -a with tasks A and B in the partition of CPU @cpu, whose
 * idle states are polling and one state of exit latency @exit_us (target
 * residency twice that: the 15 ms of idle in each period select it).
 * Into @r: the jobs; the kernel's line of the partition, read while the
 * tasks run; how often CPU @cpu entered the state (usage) and how many
 * jobs were released while it was in the state or paying its exit latency
 * (the driver's idle log): a job released then starts that late.
 */
static void demand_run(struct __test_metadata *_metadata, int cpu,
		       long long exit_us, struct demand_run *r)
{
	static struct idle_period p[2 * IDLE_LOG_LEN];
	long long usage, x, exit_ns = exit_us * 1000;
	unsigned long long rel;
	char params[128], cmd[256], cpus[16];
	int i, k, n, task, in_part;
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->exit_us = exit_us;
	unload_test_driver();
	snprintf(params, sizeof(params), "table=X:%lld:%lld:100 log=%d",
		 exit_us, 2 * exit_us, IDLE_LOG_LEN);
	ASSERT_EQ(0, load_test_driver(params));
	ASSERT_EQ(2, nr_states(cpu));
	ASSERT_EQ(exit_us, state_ll(cpu, 1, "latency"));
	ASSERT_EQ(0, set_governor("menu"));

	snprintf(cmd, sizeof(cmd), "%s/dl_bench -a %d %s %s",
		 getenv("DLQOS_DIR") ? getenv("DLQOS_DIR") : ".",
		 DEMAND_SECONDS, DEMAND_A, DEMAND_B);
	snprintf(cpus, sizeof(cpus), "%d", cpu);
	ASSERT_EQ(0, write_file(IDLE_LOG, "1"));
	usage = state_ll(cpu, 1, "usage");
	/* dl_bench starts in the partition: its threads run on @cpu. */
	ASSERT_EQ(0, partition_enter(1));
	f = popen(cmd, "r");
	in_part = partition_enter(0);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, in_part);
	for (i = 0; i < 300; i++) {
		usleep(10 * 1000);
		r->dom_found = !read_domain(cpus, &r->dom);
		/* Until the exact demand bound is in (not "bound"). */
		if (r->dom_found && r->dom.tasks == 2 &&
		    strcmp(r->dom.demand, "bound"))
			break;
	}
	read_bench(_metadata, f, &r->b);
	r->status = pclose(f);
	r->usage = state_ll(cpu, 1, "usage") - usage;

	n = read_idle_log(p, ARRAY_SIZE(p));
	ASSERT_LE(0, n);
	for (task = 0; task < BENCH_TASKS; task++) {
		for (i = 0; i < r->b.nr_rel[task]; i++) {
			rel = r->b.rel[task][i];
			for (k = 0; k < n; k++)
				if (p[k].cpu == cpu && p[k].state == 1 &&
				    p[k].entry < rel &&
				    rel <= p[k].entry + p[k].length + exit_ns)
					break;
			r->woken += k < n;
		}
	}
	if (r->b.nr_rel[0] && r->b.nr_rel[1]) {
		x = r->b.rel[1][0] - r->b.rel[0][0];
		r->offset = x < 0 ? -x : x;
	}
	TH_LOG("exit latency %lld us: %ld jobs, %ld misses, %ld slips",
	       exit_us, r->b.jobs, r->b.misses, r->b.slips);
	TH_LOG("  worst lateness %lld us (task %d, started %lld us after its release)",
	       r->b.worst_late / 1000, r->b.worst_task,
	       r->b.worst_start / 1000);
	TH_LOG("  cpu%d: state entered %lld times, %ld jobs released in it or its exit",
	       cpu, r->usage, r->woken);
	TH_LOG("  the tasks' release grids %lld us apart", r->offset / 1000);
	if (r->dom_found)
		TH_LOG("  domain %d: tasks %ld limit_ns %llu demand_ns %llu demand %s",
		       cpu, r->dom.tasks, r->dom.limit_ns, r->dom.demand_ns,
		       r->dom.demand);
}

#define OVER_LIMIT	"governor_test: an exit latency 1.3 times the demand bound must miss"

/*
 * The demand rule is tight and safe.  Two deadline tasks on a CPU of its
 * own (a 1-CPU cpuset partition), released together every 20 ms:
 * A runtime 2 ms, B 1 ms, both due 5 ms after the release.  dbf(5 ms) =
 * 3 ms, so the demand bound is 2 ms, below rule 1 (3 ms, the smaller
 * slack) and rule 2 (7.5 ms): the kernel's limit must be that, computed
 * here by the exact model of dlqos_limit.h (demand_model()).  Then, with
 * publication off (no governor is held by the limit) and menu choosing
 * between polling and one state (15 ms of idle in each period select
 * it), dl_bench -a runs the tasks with their releases aligned, so that
 * every release, after the CPU idled, is a critical instant: both jobs
 * wait for the state's exit latency and run back to back, 2.8 ms of work
 * with 3 ms of runtime.  With an exit latency of exactly the limit no job
 * misses its deadline and no period is lost; with 1.3 times the limit
 * (2.6 ms, still below rule 1) the second job of each release misses.
 * Both runs must show the state entered about once a period (its usage)
 * and, in the driver's idle log, the jobs released while the CPU was in
 * it or paying its exit latency, or the first would say nothing.  On a
 * debug kernel, whose own wakeup path stalls jobs, the timing at the
 * limit is reported, not asserted.
 */
TEST_F(gov, demand_tight)
{
	static struct demand_run run[2];
	long long bound, rule1, expect, periods, limit_us;
	char why[128], buf[32], cpus[16];
	struct domain_line dom;
	bool timing_ok = true;
	int part, i;

	if (no_timing(self->driver, why, sizeof(why)))
		SKIP(return, "%s", why);
	if (nr_cpus() < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, read_file(RULE2, buf, sizeof(buf)));
	ASSERT_STREQ("demand", buf);
	part = nr_cpus() - 1;
	if (partition_make(part, why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(cpus, sizeof(cpus), "%d", part);
	ASSERT_EQ(0, write_file(SYSCTL, "0"));

	/* The limit, read with the tasks admitted (blocked) in the partition. */
	ASSERT_EQ(0, partition_enter(1));
	for (i = 0; i < ARRAY_SIZE(demand_tasks); i++)
		ASSERT_EQ(0, dl_child_start(&self->t.c[self->t.nr++],
					    demand_tasks[i].runtime,
					    demand_tasks[i].deadline,
					    demand_tasks[i].period,
					    DL_CHILD_BLOCK));
	ASSERT_EQ(0, partition_enter(0));
	ASSERT_EQ(0, demand_model(part, self->t.c, &rule1, &bound, &expect));
	TH_LOG("model: demand bound %lld ns, rule 1 %lld ns: limit %lld ns",
	       bound, rule1, expect);
	ASSERT_EQ(0, wait_domain(cpus, &dom, 5)) {
		TH_LOG("root domain %s: demand state \"%s\" after 5 s", cpus,
		       dom.demand);
	}
	EXPECT_EQ(2, dom.tasks);
	EXPECT_EQ(rule1, dom.rule1_ns);
	EXPECT_STREQ("exact", dom.demand);
	EXPECT_EQ(bound, dom.demand_ns);
	ASSERT_EQ(expect, dom.limit_ns);
	TH_LOG("kernel: rule1_ns %llu rule2_ns %llu demand_ns %llu (%s) limit_ns %llu",
	       dom.rule1_ns, dom.rule2_ns, dom.demand_ns, dom.demand,
	       dom.limit_ns);
	dl_children_stop(self->t.c, self->t.nr);
	self->t.nr = 0;
	ASSERT_EQ(0, wait_no_dl_tasks(60));

	/* At the limit (in us, rounded down), then 1.3 times it. */
	limit_us = dom.limit_ns / 1000;
	demand_run(_metadata, part, limit_us, &run[0]);
	ASSERT_EQ(0, wait_no_dl_tasks(60));
	lateness_allowed(1, OVER_LIMIT);
	demand_run(_metadata, part, (limit_us * 13 + 5) / 10, &run[1]);
	lateness_allowed(0, OVER_LIMIT);

	/* ~DEMAND_SECONDS of periods, less the start and the end. */
	periods = DEMAND_SECONDS * 1000 / 20 - 2;
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, run[i].status);
		EXPECT_GE(run[i].b.jobs, 2 * periods);
		EXPECT_EQ(1ull << part, run[i].b.cpus);
		EXPECT_TRUE(run[i].dom_found);
		EXPECT_EQ(2, run[i].dom.tasks);
		EXPECT_STREQ("exact", run[i].dom.demand);
		EXPECT_EQ(bound, run[i].dom.demand_ns);
		EXPECT_EQ(expect, run[i].dom.limit_ns);
		EXPECT_GE(run[i].usage, periods);
	}

	/*
	 * The timing: the grids closer than the 200 us the work leaves of
	 * the runtime; nine releases in ten, at least, in the state or its
	 * exit (menu polls through the first release or so, its history
	 * still that of dl_bench's start, and something wakes the CPU once
	 * a second: a few milliseconds before a release, that leaves too
	 * little time for the state); and at the limit, no job late and no
	 * period lost; at 1.3 times it, misses.  A DEBUG=1 kernel's
	 * sched_setattr() takes about 1 ms: the grids start that far apart
	 * (CI: 1100 us), no release is a critical instant, and 1.3 times
	 * the limit misses nothing.
	 */
	for (i = 0; i < 2; i++)
		timing_ok &= run[i].offset < 200 * US &&
			     run[i].woken >= run[i].b.jobs * 9 / 10;
	timing_ok &= !run[0].b.misses && !run[0].b.slips &&
		     run[1].b.misses > run[1].b.jobs / 4;
	/* As gov.light_workload: a debug kernel's wakeup path stalls jobs. */
	if (getenv("DLQOS_DEBUG") && !timing_ok &&
	    _metadata->exit_code != KSFT_FAIL)
		SKIP(return,
		     "debug kernel: at the limit %ld misses, %ld slips in %ld jobs, at 1.3x %ld, grids %lld us apart: its setattr and wakeup path are too slow",
		     run[0].b.misses, run[0].b.slips, run[0].b.jobs,
		     run[1].b.misses, run[0].offset / 1000);
	for (i = 0; i < 2; i++) {
		EXPECT_LT(run[i].offset, 200 * US);
		EXPECT_GE(run[i].woken, run[i].b.jobs * 9 / 10);
	}
	EXPECT_EQ(0, run[0].b.misses);
	EXPECT_EQ(0, run[0].b.slips);
	EXPECT_GT(run[1].b.misses, run[1].b.jobs / 4);
}

TEST_HARNESS_MAIN
