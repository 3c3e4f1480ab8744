// SPDX-License-Identifier: GPL-2.0
/*
 * The dlqos cpuidle governor, with the test cpuidle driver's spr table
 * (POLL, C1 1 us, C1E 2 us, C6 290 us exit latency), or on arm64 with
 * cpuidle-psci and the device tree's states at the same indices (WFI 1 us,
 * cpu-ret-1 1 us, cpu-ret-2 2 us, cpu-ret-deep 290 us).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "dlqos_util.h"

#define US		1000ull
#define MS		1000000ull
#define SYSCTL		"/proc/sys/kernel/sched_dl_idle_qos"
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
	long long c, d, p, w, rel, start, fin;
	long long dl[2] = { 0 }, period[2] = { 0 }, last[2] = { -1, -1 };
	long jobs = 0, misses = 0, slips = 0, gap;
	char cmd[256], line[256], why[128];
	int task, cpu;
	FILE *f;

	if (no_timing(self->driver, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, set_governor("dlqos"));
	snprintf(cmd, sizeof(cmd),
		 "%s/dl_bench 2 500:5000:5000:400 1000:10000:10000:800:2000",
		 getenv("DLQOS_DIR") ? getenv("DLQOS_DIR") : ".");
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "T %d %lld %lld %lld %lld", &task, &c, &d, &p,
			   &w) == 5 && task >= 0 && task < 2) {
			dl[task] = d;
			period[task] = p;
		} else if (sscanf(line, "J %d %d %lld %lld %lld", &task, &cpu,
				  &rel, &start, &fin) == 5 && task >= 0 &&
			   task < 2 && period[task]) {
			jobs++;
			if (fin > rel + dl[task]) {
				misses++;
				TH_LOG("task %d: job of %lld ns late by %lld ns",
				       task, rel, fin - rel - dl[task]);
			}
			gap = last[task] < 0 ? 1 :
			      (rel - last[task] + period[task] / 2) / period[task];
			if (gap > 1) {
				slips += gap - 1;
				TH_LOG("task %d: %ld period(s) lost before %lld ns",
				       task, gap - 1, rel);
			}
			last[task] = rel;
		}
	}
	ASSERT_EQ(0, pclose(f));
	TH_LOG("light workload: %ld jobs, %ld misses, %ld slips", jobs, misses,
	       slips);
	/*
	 * A DEBUG=1 kernel's own wakeup path stalls jobs by up to
	 * milliseconds at times (deadline_misses measures it): CI saw both
	 * tasks overrun at once, by 0.59 and 0.73 ms.  Reported, not
	 * asserted, there.
	 */
	if (getenv("DLQOS_DEBUG") && (misses || slips))
		SKIP(return,
		     "debug kernel: %ld misses, %ld slips in %ld jobs, its own wakeup path stalls jobs",
		     misses, slips, jobs);
	/* 2 s: 400 jobs of the first task, 200 of the second, give or take. */
	EXPECT_GE(jobs, 590);
	EXPECT_EQ(0, misses);
	EXPECT_EQ(0, slips);
}

TEST_HARNESS_MAIN
