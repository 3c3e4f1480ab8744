// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_DEADLINE task that overran its runtime is throttled until its
 * replenishment timer fires.  Here the task is switched to SCHED_OTHER
 * while throttled, the timer fires while it is SCHED_OTHER, and the task is
 * switched back to SCHED_DEADLINE before its 0-lag time (so the inactive
 * timer, which would have cleared its parameters, is cancelled).  It must
 * run again: still queued (it was spinning), or woken later (it blocked as
 * SCHED_OTHER).  Without "sched/deadline: End the throttle of a task whose
 * replenishment timer fires outside SCHED_DEADLINE", it stays throttled
 * with no timer armed to end the throttle, and never runs again.
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

struct child {
	pid_t pid;
	int ctl;			/* write end: wakes a blocked child */
	unsigned long *count;	/* advanced whenever the child runs */
};

/*
 * /proc/PID/sched line "@field : value" (CONFIG_SCHED_DEBUG), into @val.
 * 0, or -1 if there is no such line.
 */
static int sched_field(pid_t pid, const char *field, long long *val)
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

/* The one-letter state of /proc/PID/stat, or '?'. */
static char task_state(pid_t pid)
{
	char path[64], stat[256], *s;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, stat, sizeof(stat)))
		return '?';
	s = strrchr(stat, ')');
	return s && s[1] && s[2] ? s[2] : '?';
}

/*
 * Fork a child that makes itself SCHED_DEADLINE (RUNTIME, PERIOD) and
 * spins, counting.  With @block it blocks once, reading its pipe, when it
 * finds itself outside SCHED_DEADLINE.  Returns 0 or -errno; *t0 is a
 * CLOCK_MONOTONIC time after the child's sched_setattr().
 */
static int child_start(struct child *c, int block, uint64_t *t0)
{
	int ctl[2], ack[2], err = 0, blocked = 0;
	char b;

	if (pipe(ctl) || pipe(ack))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (!c->pid) {
		close(ctl[1]);
		close(ack[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		err = set_deadline(0, RUNTIME, PERIOD, PERIOD);
		if (write(ack[1], &err, sizeof(err)) != sizeof(err) || err)
			_exit(1);
		for (;;) {
			__atomic_fetch_add(c->count, 1, __ATOMIC_RELAXED);
			if (block && !blocked &&
			    sched_getscheduler(0) != SCHED_DEADLINE) {
				blocked = 1;
				if (read(ctl[0], &b, 1) != 1)
					_exit(0);
			}
		}
	}
	close(ctl[0]);
	close(ack[1]);
	if (read(ack[0], &err, sizeof(err)) != sizeof(err))
		err = -EIO;
	*t0 = now_ns(CLOCK_MONOTONIC);
	close(ack[0]);
	c->ctl = ctl[1];
	if (err) {
		close(c->ctl);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
	return err;
}

static unsigned long count(struct child *c)
{
	return __atomic_load_n(c->count, __ATOMIC_RELAXED);
}

static void child_stop(struct child *c)
{
	if (c->pid <= 0)
		return;
	kill(c->pid, SIGKILL);
	close(c->ctl);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/* Wait up to @ms for the child's dl.runtime to go negative (throttled). */
static int wait_throttled(pid_t pid, int ms, long long *runtime)
{
	while (ms-- > 0) {
		if (!sched_field(pid, "dl.runtime", runtime) && *runtime < 0)
			return 0;
		usleep(1000);
	}
	return -1;
}

/* Wait up to @ms for the child to block. */
static int wait_blocked(pid_t pid, int ms)
{
	while (ms-- > 0) {
		if (task_state(pid) == 'S')
			return 0;
		usleep(1000);
	}
	return -1;
}

static void throttled_round_trip(struct __test_metadata *_metadata, int block)
{
	long long runtime = 0, deadline, deadline2, window = 0;
	struct child c = { 0 };
	unsigned long before;
	uint64_t t0 = 0, end;
	int try;

	c.count = mmap(NULL, sizeof(*c.count), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c.count);

	/*
	 * The 0-lag time is the deadline plus overrun * PERIOD / RUNTIME
	 * (task_non_contending()); the overrun is below a tick, so a child
	 * that overran too little for the switch back to fit is retried.
	 */
	for (try = 0; try < TRIES; try++) {
		ASSERT_EQ(0, child_start(&c, block, &t0));
		if (sched_field(c.pid, "dl.runtime", &runtime)) {
			child_stop(&c);
			SKIP(return, "no dl.runtime in /proc/PID/sched (CONFIG_SCHED_DEBUG)");
		}
		ASSERT_EQ(0, wait_throttled(c.pid, 200, &runtime)) {
			TH_LOG("child %d not throttled within 200 ms", c.pid);
			child_stop(&c);
		}
		window = -runtime * (long long)(PERIOD / RUNTIME);
		if (window > 3 * (long long)MARGIN)
			break;
		child_stop(&c);
	}
	ASSERT_LT(try, TRIES) {
		TH_LOG("no child overran by %llu ns in %d tries",
		       3 * MARGIN / (PERIOD / RUNTIME), TRIES);
	}
	ASSERT_EQ(0, sched_field(c.pid, "dl.deadline", &deadline));
	TH_LOG("overrun %lld ns, 0-lag time %lld ms after the deadline",
	       -runtime, window / (long long)MS);

	/* Throttled until the next period, t0 + PERIOD at the latest. */
	ASSERT_EQ(0, set_other(c.pid));
	if (block)
		ASSERT_EQ(0, wait_blocked(c.pid, 1000));
	/* The replenishment timer fires while the child is SCHED_OTHER. */
	sleep_until(CLOCK_MONOTONIC, t0 + PERIOD + MARGIN);
	ASSERT_EQ(0, set_deadline(c.pid, RUNTIME, PERIOD, PERIOD));
	if (block)
		ASSERT_EQ(1, write(c.ctl, "x", 1));
	/*
	 * A child that was running may go on until its CPU reschedules:
	 * count from a little later.  Given a new period, the child runs
	 * its 1 ms at once and then again one period later, within
	 * RUN_SECONDS; a child still throttled never does.
	 */
	usleep(50 * 1000);
	before = count(&c);

	end = now_ns(CLOCK_MONOTONIC) + RUN_SECONDS * 1000000000ull;
	while (count(&c) == before && now_ns(CLOCK_MONOTONIC) < end)
		usleep(10 * 1000);
	sched_field(c.pid, "dl.runtime", &runtime);
	EXPECT_NE(before, count(&c)) {
		TH_LOG("child %d did not run for %d s: state %c, dl.runtime %lld",
		       c.pid, RUN_SECONDS, task_state(c.pid), runtime);
		/* Out of SCHED_DEADLINE it runs again, and can exit. */
		set_other(c.pid);
	}
	/*
	 * It runs in a new period: a later deadline than the throttled one.
	 * (Without the fix a child that was running when switched back may
	 * go on running as its CPU's current task, off the runqueue and
	 * never replenished: only its deadline shows it.)
	 */
	ASSERT_EQ(0, sched_field(c.pid, "dl.deadline", &deadline2));
	EXPECT_GT(deadline2, deadline);
	child_stop(&c);
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

TEST_HARNESS_MAIN
