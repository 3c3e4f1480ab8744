// SPDX-License-Identifier: GPL-2.0
/*
 * dl_pingpong: cost of the deadline wakeup path, for `make bench`.
 *
 *   dl_pingpong ROUNDS
 *
 * A SCHED_DEADLINE task (9 ms every 10 ms, never throttled: it runs about
 * half of the time) and a SCHED_OTHER task pass a byte back and forth
 * through two pipes, so every round blocks and wakes the deadline task
 * once (one enqueue_dl_entity()).  Run it on one CPU under -icount: guest
 * time then counts instructions, and the time per round compares kernels
 * exactly.  Prints "rounds N ns_per_round X.XXX".
 */
#include "dlqos_util.h"

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100000, i;
	int ping[2], pong[2], ret;
	uint64_t start, end;
	char b = 0;
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		close(ping[1]);
		close(pong[0]);
		for (;;) {
			if (read(ping[0], &b, 1) != 1)
				_exit(0);
			if (write(pong[1], &b, 1) != 1)
				_exit(1);
		}
	}
	close(ping[0]);
	close(pong[1]);
	ret = set_deadline(0, 9000000, 10000000, 10000000);
	if (ret) {
		fprintf(stderr, "sched_setattr: %s\n", strerror(-ret));
		kill(pid, SIGKILL);
		return 1;
	}
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < rounds; i++) {
		if (write(ping[1], &b, 1) != 1 || read(pong[0], &b, 1) != 1)
			return 1;
	}
	end = now_ns(CLOCK_MONOTONIC);
	close(ping[1]);
	waitpid(pid, NULL, 0);
	printf("rounds %ld ns_per_round %.3f\n", rounds,
	       (double)(end - start) / rounds);
	return 0;
}
