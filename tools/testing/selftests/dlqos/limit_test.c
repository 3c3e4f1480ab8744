// SPDX-License-Identifier: GPL-2.0
/*
 * The deadline-derived idle latency limit, checked against an independent
 * exact recomputation.
 *
 * For the SCHED_DEADLINE tasks the test admits (runtime C, deadline D,
 * period P), the fair servers of the online CPUs (read from debugfs), the
 * admission cap (sched_rt_runtime_us / sched_rt_period_us) and the number
 * of online CPUs M, the exact limit is
 *
 *   L* = min(min(D - C), (cap * M - sum(C/P) - sum(servers)) / sum(1/P))
 *
 * computed here in exact rational arithmetic (GMP).  The kernel's limit_ns
 * must be floor(L*) or 1 ns below, and the published value (microseconds)
 * must satisfy published * 1000 <= L* <= (published + 1) * 1000.
 */
#include <gmp.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "dlqos_util.h"

#define US		1000ull
#define MS		1000000ull
#define NONE		UINT64_MAX
#define MAX_TASKS	256
#define STATE_FILE	"/sys/kernel/debug/dl_idle_qos/state"
#define SYSCTL		"/proc/sys/kernel/sched_dl_idle_qos"
#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define RT_PERIOD	"/proc/sys/kernel/sched_rt_period_us"
#define TRACE		"/sys/kernel/tracing"
#define PM_QOS_DEFAULT	2000000000

/* The kernel's view, from debugfs. */
struct state {
	int publication;
	long tasks;
	uint64_t rule1_ns, rule2_ns, limit_ns;
	long long limit_us, published_us;	/* -1: none */
	long cpus;
};

static uint64_t parse_u64(const char *v)
{
	return strncmp(v, "none", 4) ? strtoull(v, NULL, 10) : NONE;
}

static long long parse_us(const char *v)
{
	return strncmp(v, "none", 4) ? strtoll(v, NULL, 10) : -1;
}

static int read_state(struct state *s)
{
	FILE *f = fopen(STATE_FILE, "r");
	char line[256], *v;

	if (!f)
		return -errno;
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		*v++ = '\0';
		while (*v == ' ')
			v++;
		if (!strcmp(line, "publication"))
			s->publication = !strncmp(v, "on", 2);
		else if (!strcmp(line, "tasks"))
			s->tasks = atol(v);
		else if (!strcmp(line, "rule1_ns"))
			s->rule1_ns = parse_u64(v);
		else if (!strcmp(line, "rule2_ns"))
			s->rule2_ns = parse_u64(v);
		else if (!strcmp(line, "limit_ns"))
			s->limit_ns = parse_u64(v);
		else if (!strcmp(line, "limit_us"))
			s->limit_us = parse_us(v);
		else if (!strcmp(line, "published_us"))
			s->published_us = parse_us(v);
		else if (!strcmp(line, "cpus"))
			s->cpus = atol(v);
	}
	fclose(f);
	return 0;
}

/* The value of the cpu_latency_qos constraint, as user space sees it. */
static long long read_cpu_dma_latency(void)
{
	int fd = open("/dev/cpu_dma_latency", O_RDONLY);
	int32_t v;

	if (fd < 0)
		return -1;
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = -1;
	close(fd);
	return v;
}

/* What the test admitted, and the independent model of the limit. */
struct task_param {
	uint64_t runtime, deadline, period;
};

struct model {
	struct task_param t[MAX_TASKS];
	struct dl_child c[MAX_TASKS];
	int n;
};

static int cpu_online(int cpu)
{
	char path[64];

	if (!cpu)
		return 1;
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	return read_ll(path) == 1;
}

/* The fair server of an online CPU: 0 and its parameters (ns), or -1. */
static int server_params(int cpu, long long *runtime, long long *period)
{
	char path[128];

	if (!cpu_online(cpu))
		return -1;
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu);
	*runtime = read_ll(path);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/period", cpu);
	*period = read_ll(path);
	return *runtime >= 0 && *period > 0 ? 0 : -1;
}

/* What the fair servers of the online CPUs hold in dl_bw->total_bw. */
static long long servers_total_bw(void)
{
	long long sum = 0, r, p;
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!server_params(cpu, &r, &p))
			sum += dl_to_ratio(p, r);
	return sum;
}

static int live_tasks(struct model *m)
{
	int i, nr = 0;

	for (i = 0; i < m->n; i++)
		nr += m->c[i].pid > 0;
	return nr;
}

/*
 * Exact L* as a rational, into l.  Returns 0 when there is no task (no
 * limit).
 */
static int exact_limit(struct model *m, mpq_t l)
{
	mpq_t spare, freq, term, rule1;
	long long rt_runtime = read_ll(RT_RUNTIME);
	long long rt_period = read_ll(RT_PERIOD);
	long long r, p;
	int i, cpu;

	if (!live_tasks(m))
		return 0;

	mpq_inits(spare, freq, term, rule1, NULL);
	/* cap * M */
	if (rt_runtime < 0)
		mpq_set_ui(spare, nr_cpus(), 1);
	else
		mpq_set_ui(spare, rt_runtime * nr_cpus(), rt_period);
	mpq_canonicalize(spare);
	/* - fair servers of the online CPUs */
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (server_params(cpu, &r, &p))
			continue;
		mpq_set_ui(term, r, p);
		mpq_canonicalize(term);
		mpq_sub(spare, spare, term);
	}
	/* - tasks; rule 1 */
	mpq_set_si(rule1, -1, 1);
	for (i = 0; i < m->n; i++) {
		struct task_param *t = &m->t[i];

		if (m->c[i].pid <= 0)
			continue;
		mpq_set_ui(term, t->runtime, t->period);
		mpq_canonicalize(term);
		mpq_sub(spare, spare, term);
		mpq_set_ui(term, 1, t->period);
		mpq_add(freq, freq, term);
		mpq_set_ui(term, t->deadline - t->runtime, 1);
		if (mpq_sgn(rule1) < 0 || mpq_cmp(term, rule1) < 0)
			mpq_set(rule1, term);
	}
	if (mpq_sgn(spare) <= 0)
		mpq_set_ui(l, 0, 1);
	else
		mpq_div(l, spare, freq);
	if (mpq_cmp(rule1, l) < 0)
		mpq_set(l, rule1);
	mpq_clears(spare, freq, term, rule1, NULL);
	return 1;
}

/* floor of a non-negative rational, saturated to UINT64_MAX. */
static uint64_t mpq_floor_u64(mpq_t q)
{
	mpz_t z;
	uint64_t v;

	mpz_init(z);
	mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
	v = mpz_sizeinbase(z, 2) > 64 ? UINT64_MAX :
	    (uint64_t)mpz_get_ui(z);
	mpz_clear(z);
	return v;
}

/* published * 1000 <= l <= (published + 1) * 1000 */
static int us_brackets(long long published, mpq_t l)
{
	mpq_t lo, hi;
	int ok;

	mpq_inits(lo, hi, NULL);
	mpq_set_ui(lo, published * 1000, 1);
	mpq_set_ui(hi, (published + 1) * 1000, 1);
	ok = mpq_cmp(lo, l) <= 0 && mpq_cmp(l, hi) <= 0;
	mpq_clears(lo, hi, NULL);
	return ok;
}

/*
 * Wait (up to @seconds) for the kernel to account @n tasks.  Releases
 * happen at the tasks' 0-lag time, not at once, and a dying task with a
 * small runtime needs several periods to run its exit path under TCG.
 */
static int wait_tasks(long n, struct state *s, int seconds)
{
	int i;

	for (i = 0; i < seconds * 100; i++) {
		if (read_state(s))
			return -1;
		if (s->tasks == n)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* The whole check: the kernel's state against the model. */
static void check_limit(struct __test_metadata *_metadata, struct model *m)
{
	struct state s;
	uint64_t floor_ns;
	mpq_t l;

	ASSERT_EQ(0, wait_tasks(live_tasks(m), &s, 10)) {
		TH_LOG("kernel accounts %ld tasks, the test admitted %d",
		       s.tasks, live_tasks(m));
	}
	EXPECT_EQ(nr_cpus(), s.cpus);
	mpq_init(l);
	if (!exact_limit(m, l)) {
		EXPECT_EQ(NONE, s.limit_ns);
		EXPECT_EQ(NONE, s.rule1_ns);
		EXPECT_EQ(NONE, s.rule2_ns);
		EXPECT_EQ(-1, s.limit_us);
		if (s.publication)
			EXPECT_EQ(-1, s.published_us);
		mpq_clear(l);
		return;
	}
	floor_ns = mpq_floor_u64(l);
	TH_LOG("tasks %ld: L* %.3f us, kernel %llu ns (rule1 %llu, rule2 %llu), published %lld us",
	       s.tasks, mpq_get_d(l) / 1000, (unsigned long long)s.limit_ns,
	       (unsigned long long)s.rule1_ns, (unsigned long long)s.rule2_ns,
	       s.published_us);
	EXPECT_LE(s.limit_ns, floor_ns);
	EXPECT_GE(s.limit_ns + 1, floor_ns);
	EXPECT_EQ(s.limit_ns, s.rule1_ns < s.rule2_ns ? s.rule1_ns : s.rule2_ns);
	EXPECT_EQ((long long)(s.limit_ns / 1000), s.limit_us);
	EXPECT_TRUE(us_brackets(s.limit_us, l));
	if (s.publication) {
		EXPECT_EQ(s.limit_us, s.published_us);
		EXPECT_EQ(s.limit_us, read_cpu_dma_latency());
	} else {
		EXPECT_EQ(-1, s.published_us);
		EXPECT_EQ(PM_QOS_DEFAULT, read_cpu_dma_latency());
	}
	mpq_clear(l);
}

static int admit(struct model *m, uint64_t runtime, uint64_t deadline,
		 uint64_t period, enum dl_child_mode mode)
{
	int ret;

	if (m->n == MAX_TASKS)
		return -ENOSPC;
	ret = dl_child_start(&m->c[m->n], runtime, deadline, period, mode);
	if (ret)
		return ret;
	m->t[m->n] = (struct task_param){ runtime, deadline, period };
	m->n++;
	return 0;
}

FIXTURE(limit) {
	struct model m;
	long long rt_runtime;
};

FIXTURE_SETUP(limit)
{
	struct state s;

	if (access(STATE_FILE, R_OK))
		SKIP(return, "no %s (CONFIG_DL_IDLE_QOS=n?)", STATE_FILE);
	self->m.n = 0;
	self->rt_runtime = read_ll(RT_RUNTIME);
	ASSERT_EQ(0, write_file(SYSCTL, "1"));
	/*
	 * No deadline task of an earlier test is left, and the kernel's
	 * own accounting holds only the fair servers: nothing leaked.
	 */
	ASSERT_EQ(0, wait_tasks(0, &s, 120));
	ASSERT_EQ(servers_total_bw(), dl_total_bw());
}

FIXTURE_TEARDOWN(limit)
{
	struct state s;
	char buf[32];
	int i;

	dl_children_stop(self->m.c, self->m.n);
	/*
	 * Let the dead tasks reach their 0-lag time before touching the rt
	 * sysctls or CPU hotplug: both rebuild the root domains, and 6.12
	 * does not re-account a dead task still waiting for its inactive
	 * timer, which then subtracts its bandwidth a second time.
	 */
	wait_tasks(0, &s, 10);
	if (read_ll(RT_RUNTIME) != self->rt_runtime) {
		snprintf(buf, sizeof(buf), "%lld", self->rt_runtime);
		write_file(RT_RUNTIME, buf);
	}
	write_file(SYSCTL, "1");
	for (i = 1; i < MAX_CPUS; i++) {
		char path[64];

		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", i);
		if (read_ll(path) == 0)
			write_file(path, "1");
	}
}

TEST_F(limit, no_task)
{
	check_limit(_metadata, &self->m);
	EXPECT_EQ(PM_QOS_DEFAULT, read_cpu_dma_latency());
}

/* Rule 1 binds: 10 ms of runtime in a 50 ms deadline. */
TEST_F(limit, one_task_rule1)
{
	ASSERT_EQ(0, admit(&self->m, 10 * MS, 50 * MS, 100 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, &self->m);
}

/* Rule 2 binds: implicit deadlines, little spare bandwidth. */
TEST_F(limit, rule2_binds)
{
	int i;

	for (i = 0; i < 2 * nr_cpus(); i++)
		ASSERT_EQ(0, admit(&self->m, 40 * MS, 100 * MS, 100 * MS,
				   DL_CHILD_BLOCK));
	check_limit(_metadata, &self->m);
}

/* Periods that are not a product of 2s and 5s (inexact fixed point). */
TEST_F(limit, odd_periods)
{
	ASSERT_EQ(0, admit(&self->m, 1234567, 7777777, 9999991, DL_CHILD_BLOCK));
	ASSERT_EQ(0, admit(&self->m, 333333, 3333333, 3333333, DL_CHILD_BLOCK));
	ASSERT_EQ(0, admit(&self->m, 1024, 30011, 100003, DL_CHILD_BLOCK));
	check_limit(_metadata, &self->m);
}

TEST_F(limit, change_parameters)
{
	struct model *m = &self->m;

	ASSERT_EQ(0, admit(m, 10 * MS, 50 * MS, 100 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	ASSERT_EQ(0, set_deadline(m->c[0].pid, 2 * MS, 3 * MS, 10 * MS));
	m->t[0] = (struct task_param){ 2 * MS, 3 * MS, 10 * MS };
	check_limit(_metadata, m);
	ASSERT_EQ(0, set_deadline(m->c[0].pid, 20 * MS, 200 * MS, 200 * MS));
	m->t[0] = (struct task_param){ 20 * MS, 200 * MS, 200 * MS };
	check_limit(_metadata, m);
}

TEST_F(limit, task_exits)
{
	struct model *m = &self->m;

	ASSERT_EQ(0, admit(m, 1 * MS, 2 * MS, 10 * MS, DL_CHILD_BLOCK));
	ASSERT_EQ(0, admit(m, 5 * MS, 20 * MS, 20 * MS, DL_CHILD_SPIN));
	check_limit(_metadata, m);
	dl_child_stop(&m->c[0]);
	check_limit(_metadata, m);
	dl_child_stop(&m->c[1]);
	check_limit(_metadata, m);
}

/* A task switched to SCHED_OTHER leaves the limit at its 0-lag time. */
static void switch_to_other(struct __test_metadata *_metadata,
			    struct model *m, enum dl_child_mode mode)
{
	struct dl_child other;

	ASSERT_EQ(0, admit(m, 1 * MS, 2 * MS, 10 * MS, mode));
	ASSERT_EQ(0, admit(m, 2 * MS, 20 * MS, 20 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	usleep(50 * 1000);
	ASSERT_EQ(0, set_other(m->c[0].pid));
	/* Still running as SCHED_OTHER, but no longer counted. */
	other = m->c[0];
	m->c[0].pid = 0;
	check_limit(_metadata, m);
	m->c[0] = other;
}

TEST_F(limit, running_task_switched_to_other)
{
	switch_to_other(_metadata, &self->m, DL_CHILD_SPIN);
}

TEST_F(limit, blocked_task_switched_to_other)
{
	switch_to_other(_metadata, &self->m, DL_CHILD_BLOCK);
}

/* Many tasks with different parameters; then half of them exit. */
TEST_F_TIMEOUT(limit, many_tasks, 900)
{
	struct model *m = &self->m;
	int i;

	for (i = 0; i < 200; i++)
		ASSERT_EQ(0, admit(m, 20 * US + i * US,
				   5 * MS + i * 37 * US,
				   20 * MS + i * 101 * US, DL_CHILD_BLOCK)) {
			TH_LOG("task %d refused", i);
		}
	check_limit(_metadata, m);
	for (i = 0; i < 200; i += 2)
		if (m->c[i].pid > 0)
			kill(m->c[i].pid, SIGKILL);
	for (i = 0; i < 200; i += 2)
		dl_child_stop(&m->c[i]);
	check_limit(_metadata, m);
}

/* A refused admission changes nothing. */
TEST_F(limit, refused_admission)
{
	struct model *m = &self->m;
	struct state before, after;
	struct dl_child c = { 0 };
	int i, cpus = nr_cpus();

	/*
	 * Two tasks of 44% per CPU and the fair servers (5% per CPU)
	 * reserve 0.93 * M of the 0.95 * M the admission test allows:
	 * 0.02 * M is left.
	 */
	for (i = 0; i < 2 * cpus; i++)
		ASSERT_EQ(0, admit(m, 44 * MS, 100 * MS, 100 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	ASSERT_EQ(0, read_state(&before));
	/* A new task of 0.07 * M + 0.1 does not fit. */
	EXPECT_EQ(-EBUSY, dl_child_start(&c, (7 * cpus + 10) * MS, 100 * MS,
					 100 * MS, DL_CHILD_BLOCK));
	/* Nor does growing one task by as much. */
	EXPECT_EQ(-EBUSY, set_deadline(m->c[0].pid, (51 + 7 * cpus) * MS,
				       100 * MS, 100 * MS));
	ASSERT_EQ(0, read_state(&after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	check_limit(_metadata, m);
}

/* Invalid parameters are refused and change nothing. */
TEST_F(limit, invalid_parameters)
{
	struct model *m = &self->m;

	ASSERT_EQ(0, admit(m, 1 * MS, 5 * MS, 10 * MS, DL_CHILD_BLOCK));
	EXPECT_EQ(-EINVAL, set_deadline(m->c[0].pid, 0, 5 * MS, 10 * MS));
	EXPECT_EQ(-EINVAL, set_deadline(m->c[0].pid, 6 * MS, 5 * MS, 10 * MS));
	EXPECT_EQ(-EINVAL, set_deadline(m->c[0].pid, 1 * MS, 11 * MS, 10 * MS));
	EXPECT_EQ(-EINVAL, set_deadline(m->c[0].pid, 1000, 5 * MS, 10 * MS));
	check_limit(_metadata, m);
}

/* The admission cap follows sched_rt_runtime_us, including -1 (off). */
TEST_F(limit, rt_runtime_sysctl)
{
	struct model *m = &self->m;
	int i;

	for (i = 0; i < nr_cpus(); i++)
		ASSERT_EQ(0, admit(m, 60 * MS, 100 * MS, 100 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(RT_RUNTIME, "800000"));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(RT_RUNTIME, "-1"));
	check_limit(_metadata, m);
	/* Would leave less than the admitted bandwidth: refused. */
	EXPECT_EQ(-EBUSY, write_file(RT_RUNTIME, "500000"));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(RT_RUNTIME, "950000"));
	check_limit(_metadata, m);
}

TEST_F(limit, cpu_offline_online)
{
	struct model *m = &self->m;
	char path[64];
	int cpu = nr_cpus() - 1;

	if (cpu < 1)
		SKIP(return, "needs two CPUs");
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	if (access(path, W_OK))
		SKIP(return, "CPU %d cannot go offline", cpu);
	ASSERT_EQ(0, admit(m, 30 * MS, 100 * MS, 100 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(path, "0"));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(path, "1"));
	check_limit(_metadata, m);
}

TEST_F(limit, publication_off_on)
{
	struct model *m = &self->m;
	char buf[16];

	ASSERT_EQ(0, admit(m, 1 * MS, 3 * MS, 10 * MS, DL_CHILD_BLOCK));
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(SYSCTL, "0"));
	ASSERT_EQ(0, read_file(SYSCTL, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	check_limit(_metadata, m);
	/* Changes while off are published when it is turned back on. */
	ASSERT_EQ(0, set_deadline(m->c[0].pid, 1 * MS, 5 * MS, 10 * MS));
	m->t[0] = (struct task_param){ 1 * MS, 5 * MS, 10 * MS };
	check_limit(_metadata, m);
	ASSERT_EQ(0, write_file(SYSCTL, "1"));
	check_limit(_metadata, m);
}

TEST_F(limit, sysctl_bad_input)
{
	static const char * const bad[] = { "2", "-1", "x", "1x",
		"99999999999999999999" };
	char buf[16];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, write_file(SYSCTL, bad[i])) {
			TH_LOG("accepted bad input %d", i);
		}
	ASSERT_EQ(0, read_file(SYSCTL, buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	EXPECT_NE(0, write_file(STATE_FILE, "0"));
}

/* The tracepoint carries the components of the new limit. */
TEST_F(limit, tracepoint)
{
	struct model *m = &self->m;
	unsigned long long r1, r2, lim, res, cap;
	char line[512], last[512] = "";
	unsigned int nr;
	struct state s;
	int target, fd, n;
	FILE *f;

	if (access(TRACE "/events/dl_idle_qos/dl_idle_qos_limit/enable", W_OK))
		SKIP(return, "no tracefs event");
	fd = open(TRACE "/trace", O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, write_file(TRACE "/events/dl_idle_qos/dl_idle_qos_limit/enable", "1"));
	ASSERT_EQ(0, admit(m, 3 * MS, 7 * MS, 20 * MS, DL_CHILD_BLOCK));
	ASSERT_EQ(0, admit(m, 4 * MS, 30 * MS, 30 * MS, DL_CHILD_BLOCK));
	write_file(TRACE "/events/dl_idle_qos/dl_idle_qos_limit/enable", "0");
	check_limit(_metadata, m);
	ASSERT_EQ(0, read_state(&s));

	f = fopen(TRACE "/trace", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "dl_idle_qos_limit:"))
			snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	n = sscanf(strstr(last, "rule1_ns="),
		   "rule1_ns=%llu rule2_ns=%llu limit_ns=%llu nr_tasks=%u reserved_ppb=%llu capacity_ppb=%llu target_us=%d",
		   &r1, &r2, &lim, &nr, &res, &cap, &target);
	ASSERT_EQ(7, n) {
		TH_LOG("last event: %s", last);
	}
	EXPECT_EQ(2, nr);
	EXPECT_EQ(s.rule1_ns, r1);
	EXPECT_EQ(4 * MS, r1);
	EXPECT_EQ(s.rule2_ns, r2);
	EXPECT_EQ(s.limit_ns, lim);
	EXPECT_EQ(s.limit_us, target);
	/* cap * M and U in parts per billion, from the sysctls and servers. */
	EXPECT_EQ(read_ll(RT_RUNTIME) * 1000000000ull * nr_cpus() /
		  read_ll(RT_PERIOD), cap);
	/*
	 * floor(10^9 * (3/20 + 4/30 + M * 50/1000)): the tasks, and the
	 * default fair servers (50 ms every second on each CPU).
	 */
	EXPECT_EQ(150000000ull + 133333333ull + 50000000ull * nr_cpus(),
		  res);
}

TEST_HARNESS_MAIN
