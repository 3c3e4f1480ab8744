// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_DEADLINE task that overran its runtime is throttled until its
 * replenishment timer fires.  Here the task is switched to SCHED_OTHER
 * while throttled, the timer fires while it is SCHED_OTHER, and the task is
 * switched back to SCHED_DEADLINE before its 0-lag time (so the inactive
 * timer, which would have cleared its parameters, is cancelled).  It must
 * run again: still queued (it was spinning), or woken later (it blocked as
 * SCHED_OTHER).  Without "sched/deadline: Unthrottle a task whose timer
 * fired outside SCHED_DEADLINE", it stays throttled with no timer armed to
 * end the throttle, and never runs again.  The case "boosted" strands a
 * task the same way through a priority-inheritance boost (see there), and
 * the cases "offline" a throttled task left on a CPU that went offline;
 * "running" switches a throttled task back while it runs.
 */
#include <sched.h>
#include <sys/mman.h>
#include "../kselftest_harness.h"
#include "dlqos_util.h"

#define MS		1000000ull
#define RUNTIME		(1 * MS)
#define PERIOD		(1000 * MS)
/* The switch back comes this long after the replenishment instant. */
#define MARGIN		(10 * MS)
/* Children whose overrun is too small for the window are retried. */
#define TRIES		10
#define RUN_SECONDS	3

/* Wait up to @ms for the child's dl.runtime to go negative (throttled). */
static int wait_throttled(pid_t pid, int ms, long long *runtime)
{
	while (ms-- > 0) {
		if (!proc_sched_field(pid, "dl.runtime", runtime) && *runtime < 0)
			return 0;
		usleep(1000);
	}
	return -1;
}

/* Wait up to @ms for the child to block. */
static int wait_blocked(pid_t pid, int ms)
{
	while (ms-- > 0) {
		if (proc_task_state(pid) == 'S')
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * Start @c (RUNTIME, PERIOD) and wait until it is throttled, by enough for
 * a switch to SCHED_OTHER and back to fit before its inactive timer would
 * clear its parameters; *deadline is its throttled deadline.  Returns 0,
 * or -1 when the test was skipped.
 */
static int start_throttled(struct __test_metadata *_metadata,
			   struct dl_child *c, enum dl_child_mode mode,
			   long long *deadline)
{
	long long runtime = 0, window = 0;
	int try;

	/*
	 * The 0-lag time is the deadline plus overrun * PERIOD / RUNTIME
	 * (task_non_contending()); the overrun is below a tick, so a child
	 * that overran too little for the switch back to fit is retried.
	 */
	for (try = 0; try < TRIES; try++) {
		ASSERT_EQ(0, dl_child_start(c, RUNTIME, PERIOD, PERIOD, mode));
		if (proc_sched_field(c->pid, "dl.runtime", &runtime)) {
			dl_child_stop(c);
			SKIP(return -1, "no dl.runtime in /proc/PID/sched (CONFIG_SCHED_DEBUG)");
		}
		ASSERT_EQ(0, wait_throttled(c->pid, 200, &runtime)) {
			TH_LOG("child %d not throttled within 200 ms", c->pid);
			dl_child_stop(c);
		}
		window = -runtime * (long long)(PERIOD / RUNTIME);
		if (window > 3 * (long long)MARGIN)
			break;
		dl_child_stop(c);
	}
	ASSERT_LT(try, TRIES) {
		TH_LOG("no child overran by %llu ns in %d tries",
		       3 * MARGIN / (PERIOD / RUNTIME), TRIES);
	}
	ASSERT_EQ(0, proc_sched_field(c->pid, "dl.deadline", deadline));
	TH_LOG("overrun %lld ns, 0-lag time %lld ms after the deadline",
	       -runtime, window / (long long)MS);
	return 0;
}

/*
 * The child, stopped at count @before, must run within RUN_SECONDS; one
 * still throttled or stranded never does.
 */
static void expect_runs(struct __test_metadata *_metadata, struct dl_child *c,
			unsigned long before)
{
	uint64_t end = now_ns(CLOCK_MONOTONIC) + RUN_SECONDS * 1000000000ull;
	long long runtime = 0;

	while (dl_child_count(c) == before && now_ns(CLOCK_MONOTONIC) < end)
		usleep(1000);
	ASSERT_NE(before, dl_child_count(c)) {
		proc_sched_field(c->pid, "dl.runtime", &runtime);
		TH_LOG("child %d did not run for %d s: state %c, cpu %d, dl.runtime %lld",
		       c->pid, RUN_SECONDS, proc_task_state(c->pid),
		       proc_task_cpu(c->pid), runtime);
		/* Out of SCHED_DEADLINE it runs again, and can exit. */
		set_other(c->pid);
	}
	TH_LOG("child ran, on CPU %d, %lld ms after it started",
	       proc_task_cpu(c->pid),
	       (long long)(now_ns(CLOCK_MONOTONIC) - c->started) / (long long)MS);
}

/*
 * The child, throttled with deadline @deadline and now SCHED_DEADLINE
 * and runnable again (or about to be), must run in a new period.
 */
static void expect_runs_again(struct __test_metadata *_metadata,
			      struct dl_child *c, long long deadline)
{
	long long deadline2;

	/*
	 * A child that was running may go on until its CPU reschedules:
	 * count from a little later.  Given a new period, the child runs
	 * its 1 ms at once and then again one period later, within
	 * RUN_SECONDS; a child still throttled never does.
	 */
	usleep(50 * 1000);
	expect_runs(_metadata, c, dl_child_count(c));
	/*
	 * It runs in a new period: a later deadline than the throttled one.
	 * (Without the fix a child that was running when switched back may
	 * go on running as its CPU's current task, off the runqueue and
	 * never replenished: only its deadline shows it.)
	 */
	ASSERT_EQ(0, proc_sched_field(c->pid, "dl.deadline", &deadline2));
	EXPECT_GT(deadline2, deadline);
}

static unsigned long *shared_count(struct __test_metadata *_metadata)
{
	unsigned long *count = mmap(NULL, sizeof(*count),
				    PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, count);
	return count;
}

static void throttled_round_trip(struct __test_metadata *_metadata, int block)
{
	enum dl_child_mode mode = block ? DL_CHILD_SPIN_BLOCK_ONCE :
					  DL_CHILD_SPIN;
	struct dl_child c = { .count = shared_count(_metadata) };
	long long deadline;

	if (start_throttled(_metadata, &c, mode, &deadline))
		return;
	/* Throttled until the next period, c.started + PERIOD at the latest. */
	ASSERT_EQ(0, set_other(c.pid));
	if (block)
		ASSERT_EQ(0, wait_blocked(c.pid, 1000));
	/* The replenishment timer fires while the child is SCHED_OTHER. */
	sleep_until(CLOCK_MONOTONIC, c.started + PERIOD + MARGIN);
	ASSERT_EQ(0, set_deadline(c.pid, RUNTIME, PERIOD, PERIOD));
	if (block)
		ASSERT_EQ(1, write(c.ctl, "x", 1));
	expect_runs_again(_metadata, &c, deadline);
	dl_child_stop(&c);
	munmap(c.count, sizeof(*c.count));
}

TEST(queued)
{
	throttled_round_trip(_metadata, 0);
}

TEST(blocked)
{
	throttled_round_trip(_metadata, 1);
}

/*
 * A throttled child whose period is shortened: its replenishment instant,
 * deadline - D + P, follows its new parameters.  The child (1 ms every
 * 1000 ms, deadline 5 ms) spins and is throttled until c.started + 1000 ms;
 * @wait after it started, its parameters become 1 ms every @period with
 * deadline @deadline, which puts its next period at 5 ms - @deadline +
 * @period after the child's own sched_setattr() (between @forked and
 * c.started).  It must run again then (at once if that has passed), not
 * before, and not only when the timer armed for the old period fires.
 * Without "sched/deadline: Move the
 * replenishment of a throttled task to its new period", the timer keeps
 * the old instant: a task admitted at 1 ms every 100 ms gets no runtime
 * for a second, and when the timer fires its deadline is so far behind
 * that the kernel reports "DL replenish lagged too much".
 */
static void shorten_period(struct __test_metadata *_metadata,
			   uint64_t deadline, uint64_t period, uint64_t wait)
{
	struct dl_child c = { .count = shared_count(_metadata) };
	uint64_t forked, next, changed, ran, end;
	long long runtime, d0, d1;
	unsigned long before;

	forked = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, dl_child_start(&c, RUNTIME, 5 * MS, PERIOD, DL_CHILD_SPIN));
	ASSERT_EQ(0, wait_throttled(c.pid, 200, &runtime)) {
		dl_child_stop(&c);
	}
	ASSERT_EQ(0, proc_sched_field(c.pid, "dl.deadline", &d0));
	sleep_until(CLOCK_MONOTONIC, c.started + wait);
	ASSERT_EQ(0, set_deadline(c.pid, RUNTIME, deadline, period));
	changed = now_ns(CLOCK_MONOTONIC);
	before = dl_child_count(&c);
	/* The latest the new period can start; the earliest is forked + ... */
	next = c.started + 5 * MS - deadline + period;
	end = c.started + PERIOD / 2;
	while (dl_child_count(&c) == before && now_ns(CLOCK_MONOTONIC) < end)
		usleep(200);
	ran = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, proc_sched_field(c.pid, "dl.deadline", &d1));
	TH_LOG("throttled, dl.deadline %lld; setattr %lld us before the start",
	       d0, (long long)(c.started - forked) / 1000);
	TH_LOG("changed %lld us, next %lld us, ran %lld us after the start; dl.deadline %lld",
	       (long long)(changed - c.started) / 1000,
	       (long long)(next - c.started) / 1000,
	       (long long)(ran - c.started) / 1000, d1);
	/* Not before its new replenishment instant (if still to come)... */
	if (next - (c.started - forked) > changed)
		EXPECT_LE(next - (c.started - forked), ran);
	/* ...and at it (or at once, if it passed), within 20 ms. */
	EXPECT_GE((next > changed ? next : changed) + 20 * MS, ran);
	/* In a new period: a later deadline than the throttled one... */
	EXPECT_GT(d1, d0);
	/*
	 * ...one new period later, if replenished at its new instant; or
	 * more, one per whole runtime it overran (replenish_dl_entity()
	 * adds a period and a runtime until the runtime is positive: a
	 * DEBUG=1 kernel overran 1 ms by more than 1 ms once).
	 */
	if (next - (c.started - forked) > changed)
		EXPECT_EQ((long long)period * (1 - runtime / (long long)RUNTIME),
			  d1 - d0) {
			TH_LOG("runtime %lld ns when throttled", runtime);
		}
	dl_child_stop(&c);
	munmap(c.count, sizeof(*c.count));
}

/* The new replenishment instant is 95 ms ahead: the timer is moved. */
TEST(period_shortened)
{
	shorten_period(_metadata, 10 * MS, 100 * MS, 0);
}

/*
 * The new replenishment instant, 5 ms after the start, has passed when the
 * parameters change, 10 ms after it: a new period at once.
 */
TEST(period_shortened_passed)
{
	shorten_period(_metadata, 10 * MS, 10 * MS, 10 * MS);
}

/*
 * A replenishment timer left from an earlier throttle.  The child (10 ms
 * every 1000 ms, deadline 20 ms) spins and is throttled: its timer is
 * armed for deadline + 980 ms.  Switched to SCHED_OTHER, it spins on, and
 * at its 0-lag time (deadline + 100 times its overrun) the class clears
 * its parameters, not its timer.  500 ms after the deadline it comes back
 * with 10 ms every 700 ms, deadline 20 ms: still before that period's end
 * (deadline + 680 ms), so the constrained-deadline check throttles it
 * again until then.  It must run at that instant, not when the old timer
 * fires 300 ms later.  Without "sched/deadline: Move the replenishment of
 * a throttled task to its new period", start_dl_timer() leaves the queued
 * old timer as it is.  Times on the child's timeline, from the kernel's
 * dl.deadline and the CLOCK_MONOTONIC time it was first seen throttled.
 */
TEST(stale_timer)
{
	struct dl_child c = { .count = shared_count(_metadata) };
	long long runtime, d0, d1, zero_lag;
	uint64_t seen, next, ran, end;
	unsigned long before;

	ASSERT_EQ(0, dl_child_start(&c, 10 * MS, 20 * MS, PERIOD, DL_CHILD_SPIN));
	ASSERT_EQ(0, wait_throttled(c.pid, 200, &runtime)) {
		dl_child_stop(&c);
	}
	seen = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, proc_sched_field(c.pid, "dl.deadline", &d0));
	ASSERT_EQ(0, set_other(c.pid));
	/* The deadline, at most 10 ms after the child was first seen... */
	zero_lag = -runtime * (long long)(PERIOD / (10 * MS));
	TH_LOG("overrun %lld ns: 0-lag time %lld ms after the deadline",
	       -runtime, zero_lag / (long long)MS);
	ASSERT_GT(400 * (long long)MS, zero_lag);
	/* ...so seen + 500 ms comes after the 0-lag time. */
	sleep_until(CLOCK_MONOTONIC, seen + 500 * MS);
	ASSERT_EQ(0, set_deadline(c.pid, 10 * MS, 20 * MS, 700 * MS));
	/* Its new period starts 680 ms after the old deadline. */
	next = seen + 680 * MS;
	end = seen + 1200 * MS;
	usleep(20 * 1000);
	before = dl_child_count(&c);
	while (dl_child_count(&c) == before && now_ns(CLOCK_MONOTONIC) < end)
		usleep(200);
	ran = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, proc_sched_field(c.pid, "dl.deadline", &d1));
	TH_LOG("ran %lld ms after it was seen throttled; dl.deadline %lld ms after the old one",
	       (long long)(ran - seen) / (long long)MS, (d1 - d0) / (long long)MS);
	/* Not before the new period (seen + 680 to 690 ms)... */
	EXPECT_LE(next - 20 * MS, ran);
	/*
	 * ...and at its start, not when the old timer fires (seen + 980 to
	 * 990 ms).  100 ms of room: under -icount with both vCPUs busy, QEMU
	 * 7.2's round-robin leaves a vCPU without running for up to 8 ms of
	 * guest time at a stretch (measured), and an arm64 run once saw the
	 * child 10.1 ms after seen + 690 ms.
	 */
	EXPECT_GE(next + 100 * MS, ran);
	/* One new period after the old deadline. */
	EXPECT_EQ(700 * (long long)MS, d1 - d0);
	dl_child_stop(&c);
	munmap(c.count, sizeof(*c.count));
}

/* A process-shared, robust, priority-inheritance mutex; 0 on success. */
static int pi_mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t attr;

	return pthread_mutexattr_init(&attr) ||
	       pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) ||
	       pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) ||
	       pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST) ||
	       pthread_mutex_init(m, &attr);
}

struct waiter {
	pthread_mutex_t *m;
	uint64_t until;	/* CLOCK_MONOTONIC */
	pid_t tid;
	int err;	/* of sched_setattr(), then of the lock */
};

/*
 * A SCHED_DEADLINE thread with an earlier deadline than the child's waits
 * for the mutex the child holds, and so boosts the child, until @until.
 */
static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct timespec ts = {
		.tv_sec = w->until / 1000000000ull,
		.tv_nsec = w->until % 1000000000ull,
	};

	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	w->err = set_deadline(0, RUNTIME, 100 * MS, 100 * MS);
	if (!w->err)
		w->err = pthread_mutex_clocklock(w->m, CLOCK_MONOTONIC, &ts);
	if (!w->err)
		pthread_mutex_unlock(w->m);
	return NULL;
}

/*
 * The child, throttled, is switched to SCHED_OTHER, runs on as such, and
 * is switched back to SCHED_DEADLINE while it runs, before its
 * replenishment instant: throttled again, it must stop running then.
 * Without "sched/deadline: Deschedule a running task enqueued throttled"
 * it runs on as its CPU's current task, off the deadline runqueue and so
 * unaccounted, until its timer fires, which then charges it all that time:
 * an overrun of about a period pushes its deadline some PERIOD / RUNTIME
 * periods away, and it does not run again for that long.
 */
TEST(running)
{
	struct dl_child c = { .count = shared_count(_metadata) };
	unsigned long before, after;
	long long deadline, deadline2;
	cpu_set_t cpu0, all;

	/* The child runs on the last CPU while this thread, on CPU 0, acts. */
	if (nr_cpus() < 2)
		SKIP(return, "one CPU");
	c.start_cpu = nr_cpus();
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));
	if (start_throttled(_metadata, &c, DL_CHILD_SPIN, &deadline))
		return;
	ASSERT_EQ(nr_cpus() - 1, proc_task_cpu(c.pid));
	ASSERT_EQ(0, set_other(c.pid));
	/* Running as SCHED_OTHER: the count moves. */
	before = dl_child_count(&c);
	usleep(20 * 1000);
	ASSERT_NE(before, dl_child_count(&c));
	ASSERT_EQ(0, set_deadline(c.pid, RUNTIME, PERIOD, PERIOD));
	/* Give its CPU a tick to take it off, then it must stay off. */
	usleep(20 * 1000);
	before = dl_child_count(&c);
	sleep_until(CLOCK_MONOTONIC, c.started + PERIOD - 50 * MS);
	after = dl_child_count(&c);
	ASSERT_LT(now_ns(CLOCK_MONOTONIC), c.started + PERIOD) {
		TH_LOG("this test ran late: the window closed");
	}
	EXPECT_EQ(before, after) {
		TH_LOG("child ran %lu turns while throttled", after - before);
	}
	/* Replenished at its next period, it runs in a new one. */
	expect_runs_again(_metadata, &c, deadline);
	ASSERT_EQ(0, proc_sched_field(c.pid, "dl.deadline", &deadline2));
	EXPECT_LT(deadline2, deadline + 3 * (long long)PERIOD) {
		TH_LOG("deadline %lld ms after the throttled one",
		       (deadline2 - deadline) / (long long)MS);
	}
	dl_child_stop(&c);
	munmap(c.count, sizeof(*c.count));
	sched_setaffinity(0, sizeof(all), &all);
}

/*
 * The child blocks while throttled, holding a priority-inheritance mutex;
 * a deadline waiter boosts it across the replenishment instant, then gives
 * up (its lock times out), and the child is woken.  dl_task_timer() leaves
 * a boosted task alone (the boost overrides the throttle when the task is
 * enqueued), so here it fires and returns with the child still throttled,
 * and without "sched/deadline: Unthrottle a boosted task when its timer
 * fires" nothing ends that throttle.  The child, woken unboosted, must run
 * again.
 *
 * To have it blocked while throttled it makes a round trip through
 * SCHED_OTHER before the replenishment instant, as in the cases above; a
 * task that exhausts its runtime just as it blocks gets there directly.
 */
TEST(boosted)
{
	struct dl_child c = { .count = shared_count(_metadata) };
	struct waiter w = { 0 };
	long long deadline;
	pthread_t thread;

	c.hold = mmap(NULL, sizeof(*c.hold), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c.hold);
	ASSERT_EQ(0, pi_mutex_init(c.hold));

	if (start_throttled(_metadata, &c, DL_CHILD_SPIN_BLOCK_ONCE, &deadline))
		return;
	/* Blocked, throttled, and SCHED_DEADLINE again. */
	ASSERT_EQ(0, set_other(c.pid));
	ASSERT_EQ(0, wait_blocked(c.pid, 1000));
	ASSERT_EQ(0, set_deadline(c.pid, RUNTIME, PERIOD, PERIOD));

	/* Boosted from before the replenishment instant to after it. */
	w.m = c.hold;
	w.until = c.started + PERIOD + MARGIN;
	ASSERT_EQ(0, pthread_create(&thread, NULL, waiter_main, &w));
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	EXPECT_EQ(0, wait_blocked(w.tid, 1000));
	ASSERT_LT(now_ns(CLOCK_MONOTONIC), c.started + PERIOD) {
		TH_LOG("the waiter blocked after the replenishment instant");
	}
	pthread_join(thread, NULL);
	EXPECT_EQ(ETIMEDOUT, w.err);

	/* Unboosted, still blocked: wake it. */
	ASSERT_EQ(1, write(c.ctl, "x", 1));
	expect_runs_again(_metadata, &c, deadline);
	dl_child_stop(&c);
	pthread_mutex_destroy(c.hold);
	munmap(c.hold, sizeof(*c.hold));
	munmap(c.count, sizeof(*c.count));
}

/*
 * A throttled task stays attached to its CPU's runqueue, also when that
 * CPU goes offline, until dl_task_timer() ends the throttle and moves it
 * to an online CPU.  Switched to SCHED_OTHER, or boosted through a
 * priority-inheritance mutex it holds, before that, it must move then.
 * Without "sched/deadline: Move a throttled task off an offline runqueue
 * before requeuing it" it is queued where it is, on a CPU that runs
 * nothing, and does not run again until that CPU comes back.
 */
FIXTURE(offline) {
	struct dl_child c;
	char online[64];	/* the last CPU's online file */
	int cpu;		/* that CPU */
};

FIXTURE_SETUP(offline)
{
	int cpu = nr_cpus() - 1;
	long long runtime;

	self->cpu = cpu;
	self->c.count = shared_count(_metadata);
	snprintf(self->online, sizeof(self->online), CPU_SYSFS "/cpu%d/online",
		 cpu);
	if (cpu < 1 || access(self->online, W_OK))
		SKIP(return, "no CPU to take offline");
	self->c.hold = mmap(NULL, sizeof(*self->c.hold),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	ASSERT_NE(MAP_FAILED, self->c.hold);
	ASSERT_EQ(0, pi_mutex_init(self->c.hold));
	/* Spinning on the last CPU, holding the mutex, then throttled. */
	self->c.start_cpu = cpu + 1;
	ASSERT_EQ(0, dl_child_start(&self->c, RUNTIME, PERIOD, PERIOD,
				    DL_CHILD_SPIN));
	ASSERT_EQ(0, wait_throttled(self->c.pid, 200, &runtime));
	ASSERT_EQ(cpu, proc_task_cpu(self->c.pid));
	ASSERT_EQ(0, set_cpu_online(cpu, 0));
	ASSERT_EQ(0, proc_sched_field(self->c.pid, "dl.runtime", &runtime));
	/* Still throttled: its timer has not moved it. */
	ASSERT_LT(runtime, 0);
	ASSERT_EQ(cpu, proc_task_cpu(self->c.pid));
	TH_LOG("child throttled (dl.runtime %lld ns) on offline CPU %d",
	       runtime, cpu);
}

FIXTURE_TEARDOWN(offline)
{
	/* First the CPU: a child stranded there could not exit. */
	if (!access(self->online, W_OK) && read_ll(self->online) == 0)
		set_cpu_online(self->cpu, 1);
	dl_child_stop(&self->c);
}

TEST_F(offline, other)
{
	unsigned long before = dl_child_count(&self->c);

	ASSERT_EQ(0, set_other(self->c.pid));
	expect_runs(_metadata, &self->c, before);
}

/*
 * Boosted, the child runs without a throttle, on CPU 0 with CPU 1 offline:
 * this thread (SCHED_OTHER) gets little of CPU 0 until the waiter gives up
 * and the boost ends, so the count is compared across the boost.
 */
TEST_F(offline, boosted)
{
	unsigned long before = dl_child_count(&self->c);
	struct waiter w = { .m = self->c.hold };
	pthread_t thread;

	w.until = self->c.started + PERIOD / 2;
	ASSERT_EQ(0, pthread_create(&thread, NULL, waiter_main, &w));
	pthread_join(thread, NULL);
	EXPECT_EQ(ETIMEDOUT, w.err);
	expect_runs(_metadata, &self->c, before);
}

TEST_HARNESS_MAIN
