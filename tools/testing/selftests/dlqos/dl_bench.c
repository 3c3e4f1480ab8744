// SPDX-License-Identifier: GPL-2.0
/*
 * dl_bench: a set of periodic SCHED_DEADLINE tasks that log every job, for
 * the energy and deadline-miss benchmark of `make bench`.
 *
 *   dl_bench [-a] SECONDS RUNTIME:DEADLINE:PERIOD:WORK[:OFFSET] ...
 *
 * Times are in microseconds.  One thread per task.  The threads start
 * together and each makes itself SCHED_DEADLINE OFFSET (default 0) later;
 * the kernel then releases job k of a task at t + k * PERIOD, where t is
 * the moment of its sched_setattr().  Each job busy-runs WORK
 * (a loop calibrated beforehand: under -icount it takes exactly WORK of
 * guest time when not preempted), then calls sched_yield(), which
 * throttles the task until its next period, as rt-tests cyclicdeadline
 * does.  After SECONDS the threads stop, go back to SCHED_OTHER and exit,
 * and dl_bench prints, on stdout:
 *
 *   T task runtime_ns deadline_ns period_ns work_ns
 *   J task cpu release_ns start_ns finish_ns
 *
 * one T line per task and one J line per job, with CLOCK_MONOTONIC times
 * (the clock of the test cpuidle driver's idle log): the job's deadline is
 * release + deadline, it started (its thread ran after the release) at
 * start_ns on CPU cpu and completed at finish_ns.  The release of job 0 is
 * the time just before sched_setattr(), which may precede the kernel's by
 * the duration of the call (a few microseconds).
 *
 * With -a ("aligned"), job 0 of every task is empty: its thread calls
 * sched_yield() at once after its sched_setattr(), and the job has no J
 * line.  Without it, on a CPU the tasks share, a thread's sched_setattr()
 * waits for the work of job 0 of the tasks admitted before it, and their
 * release grids are that far apart; with it, tasks of the same OFFSET
 * start their grids within microseconds of one another, and when their
 * periods are equal every release of theirs is a common one (a critical
 * instant).  The first J line of each task is then job 1, released at
 * t + PERIOD.
 *
 * The release of every later job is the kernel's: the replenishment that
 * ends a throttle moves the deadline by whole periods, so the kernel
 * releases jobs on the grid t + m * PERIOD, and a job that overran its
 * runtime pushes every later one a period (or more) further.  The thread
 * wakes after that release, by less than a period: its release is the
 * last grid point before it started.  Counted against its own release, a
 * job is late only if it is; the lost periods show as gaps of more than
 * one period between releases ("slips").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "dlqos_util.h"

#define MAX_TASKS	16

struct job {
	uint64_t release, start, finish;
	int cpu;
};

struct task {
	uint64_t runtime, deadline, period, work, offset;
	pthread_t thread;
	struct job *jobs;
	long nr_jobs, max_jobs;
	int err;
};

static pthread_barrier_t barrier;
static int stop;
static int aligned;
static double ns_per_loop;

/*
 * Called through a pointer other files could change, so never inlined:
 * calibration and jobs run the very same instructions.
 */
static void spin_loops(uint64_t loops)
{
	uint64_t i;

	for (i = 0; i < loops; i++)
		asm volatile("" ::: "memory");
}

void (*spin)(uint64_t loops) = spin_loops;

/* Guest time per loop iteration: the fastest of a few runs. */
static void calibrate(void)
{
	const uint64_t loops = 2000000;
	uint64_t t, best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		t = now_ns(CLOCK_MONOTONIC);
		spin(loops);
		t = now_ns(CLOCK_MONOTONIC) - t;
		if (t < best)
			best = t;
	}
	ns_per_loop = (double)best / loops;
}

static void *task_main(void *arg)
{
	struct task *t = arg;
	uint64_t loops = t->work / ns_per_loop, t0, m, next = 0;
	struct job *j;

	pthread_barrier_wait(&barrier);
	if (t->offset)
		sleep_until(CLOCK_MONOTONIC, now_ns(CLOCK_MONOTONIC) + t->offset);
	t0 = now_ns(CLOCK_MONOTONIC);
	t->err = set_deadline(0, t->runtime, t->deadline, t->period);
	if (t->err)
		return NULL;
	if (aligned) {
		/* Job 0: empty, not logged. */
		next = 1;
		sched_yield();
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && t->nr_jobs < t->max_jobs) {
		j = &t->jobs[t->nr_jobs];
		j->start = now_ns(CLOCK_MONOTONIC);
		/* The last grid point before the start, and not before next. */
		m = (j->start - t0) / t->period;
		if (m < next)
			m = next;
		j->release = t0 + m * t->period;
		next = m + 1;
		j->cpu = sched_getcpu();
		spin(loops);
		j->finish = now_ns(CLOCK_MONOTONIC);
		t->nr_jobs++;
		sched_yield();
	}
	/* Leave the class first: a dying task with a small runtime is slow. */
	set_other(0);
	return NULL;
}

int main(int argc, char **argv)
{
	struct task tasks[MAX_TASKS] = {};
	unsigned long long c, d, p, w, o;
	const char *prog = argv[0];
	int n, i, ret = 0;
	long k, seconds;

	if (argc > 1 && !strcmp(argv[1], "-a")) {
		aligned = 1;
		argv++;
		argc--;
	}
	n = argc - 2;
	if (argc < 3 || n > MAX_TASKS) {
		fprintf(stderr,
			"usage: %s [-a] SECONDS RUNTIME:DEADLINE:PERIOD:WORK[:OFFSET] ... (us, at most %d tasks)\n",
			prog, MAX_TASKS);
		return 2;
	}
	seconds = atol(argv[1]);
	for (i = 0; i < n; i++) {
		struct task *t = &tasks[i];

		o = 0;
		if (sscanf(argv[i + 2], "%llu:%llu:%llu:%llu:%llu", &c, &d, &p,
			   &w, &o) < 4 || !p || w > c) {
			fprintf(stderr,
				"bad task \"%s\": RUNTIME:DEADLINE:PERIOD:WORK[:OFFSET], WORK <= RUNTIME\n",
				argv[i + 2]);
			return 2;
		}
		t->runtime = c * 1000;
		t->deadline = d * 1000;
		t->period = p * 1000;
		t->work = w * 1000;
		t->offset = o * 1000;
		t->max_jobs = seconds * 1000000 / p + 2;
		t->jobs = calloc(t->max_jobs, sizeof(*t->jobs));
		if (!t->jobs)
			return 1;
	}

	calibrate();
	pthread_barrier_init(&barrier, NULL, n + 1);
	for (i = 0; i < n; i++)
		if (pthread_create(&tasks[i].thread, NULL, task_main, &tasks[i]))
			return 1;
	pthread_barrier_wait(&barrier);
	sleep(seconds);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		pthread_join(tasks[i].thread, NULL);

	for (i = 0; i < n; i++) {
		struct task *t = &tasks[i];

		if (t->err) {
			fprintf(stderr, "task %d: sched_setattr: %s\n", i,
				strerror(-t->err));
			ret = 1;
		}
		printf("T %d %llu %llu %llu %llu\n", i,
		       (unsigned long long)t->runtime,
		       (unsigned long long)t->deadline,
		       (unsigned long long)t->period,
		       (unsigned long long)t->work);
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < tasks[i].nr_jobs; k++) {
			struct job *j = &tasks[i].jobs[k];

			printf("J %d %d %llu %llu %llu\n", i, j->cpu,
			       (unsigned long long)j->release,
			       (unsigned long long)j->start,
			       (unsigned long long)j->finish);
		}
	return ret;
}
