// SPDX-License-Identifier: GPL-2.0
/*
 * dl_admit: cost of SCHED_DEADLINE admission against the number of
 * admitted tasks, for `make bench`.
 *
 *   dl_admit N...          (increasing numbers of admitted tasks)
 *
 * For each N, the process first holds N blocked SCHED_DEADLINE threads
 * (50 us every 100 ms each), then times from its main thread, a
 * SCHED_OTHER task:
 *
 *   admit   sched_setattr() of PROBES more blocked threads from
 *           SCHED_OTHER to SCHED_DEADLINE (the admission test, and the
 *           dl_idle_qos admission hook), mean per call; the probes then go
 *           back to SCHED_OTHER;
 *   change  sched_setattr() of one admitted thread's runtime, 50 us and
 *           60 us in turn, ROUNDS times, mean per call including any work
 *           the calls defer (the publication of a changed limit).
 *
 * Run it under -icount: guest time then counts instructions.  Prints
 * "tasks N admit_ns X change_ns Y" per N.  Before exiting, every thread goes
 * back to SCHED_OTHER (dying deadline threads with small runtimes are slow).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "dlqos_util.h"

#define MAX_THREADS	1100
#define PROBES		20
#define ROUNDS		1000
#define RUNTIME		(50 * 1000ull)
#define PERIOD		(100 * 1000 * 1000ull)

static pid_t tids[MAX_THREADS];
static int nr_threads;
static int block_pipe[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t started = PTHREAD_COND_INITIALIZER;

static void *blocked_thread(void *arg)
{
	char b;

	pthread_mutex_lock(&lock);
	tids[nr_threads++] = gettid();
	pthread_cond_signal(&started);
	pthread_mutex_unlock(&lock);
	while (read(block_pipe[0], &b, 1) > 0)
		;
	return NULL;
}

/* Start one more blocked thread; returns its tid. */
static pid_t new_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;
	int n;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_mutex_lock(&lock);
	n = nr_threads;
	if (pthread_create(&t, &attr, blocked_thread, NULL)) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	pthread_detach(t);
	while (nr_threads == n)
		pthread_cond_wait(&started, &lock);
	pthread_mutex_unlock(&lock);
	pthread_attr_destroy(&attr);
	return tids[n];
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < nr_threads; i++)
		set_other(tids[i]);
	close(block_pipe[1]);
}

int main(int argc, char **argv)
{
	int admitted = 0, i, a, ret;
	pid_t probes[PROBES], target;
	uint64_t t, admit_ns, change_ns;
	long want;

	if (argc < 2) {
		fprintf(stderr, "usage: %s N... (increasing, at most %d)\n",
			argv[0], MAX_THREADS - PROBES);
		return 2;
	}
	if (pipe(block_pipe))
		return 1;

	for (a = 1; a < argc; a++) {
		want = atol(argv[a]);
		if (want < 1 || want + PROBES > MAX_THREADS) {
			fprintf(stderr, "N = %ld out of range\n", want);
			cleanup();
			return 2;
		}
		while (admitted < want) {
			target = new_thread();
			ret = target < 0 ? -EAGAIN :
			      set_deadline(target, RUNTIME, PERIOD, PERIOD);
			if (ret) {
				fprintf(stderr, "admitting task %d: %s\n",
					admitted + 1, strerror(-ret));
				cleanup();
				return 1;
			}
			admitted++;
		}
		/* The first admitted thread is the one whose runtime changes. */
		target = tids[0];

		for (i = 0; i < PROBES; i++)
			probes[i] = new_thread();
		t = now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < PROBES; i++)
			if (set_deadline(probes[i], RUNTIME, PERIOD, PERIOD))
				return 1;
		admit_ns = (now_ns(CLOCK_MONOTONIC) - t) / PROBES;
		/* Back to SCHED_OTHER: freed at their 0-lag time. */
		for (i = 0; i < PROBES; i++)
			set_other(probes[i]);

		t = now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < ROUNDS; i++)
			if (set_deadline(target, i & 1 ? RUNTIME : RUNTIME + 10000,
					 PERIOD, PERIOD))
				return 1;
		change_ns = (now_ns(CLOCK_MONOTONIC) - t) / ROUNDS;
		printf("tasks %d admit_ns %llu change_ns %llu\n", admitted,
		       (unsigned long long)admit_ns,
		       (unsigned long long)change_ns);
		fflush(stdout);
		/* Let the probes' bandwidth be released before the next N. */
		usleep(300 * 1000);
	}
	cleanup();
	return 0;
}
