// SPDX-License-Identifier: GPL-2.0
/*
 * dl_task: a periodic SCHED_DEADLINE task, for the demo and the tests.
 *
 *   dl_task RUNTIME_US DEADLINE_US PERIOD_US SECONDS [WORK_US]
 *
 * Each job is released at t0 + k * PERIOD (absolute sleep), busy-runs
 * WORK_US (default RUNTIME_US / 4) and checks its completion time
 * against its absolute deadline, release + DEADLINE.  At the end it
 * prints "jobs N misses N worst_start_us N" on stdout: misses are jobs
 * that completed after their deadline, worst_start_us the largest delay
 * between a release and the job starting to run.
 */
#include "dlqos_util.h"

int main(int argc, char **argv)
{
	uint64_t runtime, deadline, period, seconds, work, t0, release, start;
	uint64_t end, worst = 0, jobs = 0, misses = 0;
	int ret;

	if (argc < 5) {
		fprintf(stderr, "usage: %s RUNTIME_US DEADLINE_US PERIOD_US SECONDS [WORK_US]\n",
			argv[0]);
		return 2;
	}
	runtime = strtoull(argv[1], NULL, 10) * 1000;
	deadline = strtoull(argv[2], NULL, 10) * 1000;
	period = strtoull(argv[3], NULL, 10) * 1000;
	seconds = strtoull(argv[4], NULL, 10);
	work = argc > 5 ? strtoull(argv[5], NULL, 10) * 1000 : runtime / 4;

	ret = set_deadline(0, runtime, deadline, period);
	if (ret) {
		fprintf(stderr, "sched_setattr: %s\n", strerror(-ret));
		return 1;
	}
	t0 = now_ns(CLOCK_MONOTONIC) + period;
	end = t0 + seconds * 1000000000ull;
	for (release = t0; release < end; release += period) {
		sleep_until(CLOCK_MONOTONIC, release);
		start = now_ns(CLOCK_MONOTONIC);
		if (start - release > worst)
			worst = start - release;
		while (now_ns(CLOCK_MONOTONIC) - start < work)
			;
		if (now_ns(CLOCK_MONOTONIC) > release + deadline)
			misses++;
		jobs++;
	}
	printf("jobs %llu misses %llu worst_start_us %llu\n",
	       (unsigned long long)jobs, (unsigned long long)misses,
	       (unsigned long long)worst / 1000);
	return 0;
}
