// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_DEADLINE task that blocks past its 0-lag time and is then switched
 * to SCHED_OTHER while still blocked must give its bandwidth back to the
 * root domain.  Without "sched/deadline: Release bandwidth of an inactive
 * task switched out of SCHED_DEADLINE", dl_bw->total_bw stays above its
 * baseline for good.
 */
#include "../kselftest_harness.h"
#include "dlqos_util.h"

#define MS	1000000ull

static void leak_check(struct __test_metadata *_metadata, int blocked,
		       int exits_first)
{
	long long base, admitted;
	struct dl_child c = { 0 };

	base = dl_total_bw();
	if (base < 0)
		SKIP(return, "no dl_bw->total_bw in /sys/kernel/debug/sched/debug");
	ASSERT_EQ(0, dl_child_start(&c, 10 * MS, 100 * MS, 100 * MS,
				    blocked ? DL_CHILD_BLOCK : DL_CHILD_SPIN));
	admitted = dl_total_bw();
	EXPECT_EQ(base + dl_to_ratio(100 * MS, 10 * MS), admitted);

	/* Blocked well past the 0-lag time: the task is inactive. */
	usleep(300 * 1000);
	if (!exits_first)
		ASSERT_EQ(0, set_other(c.pid));
	dl_child_stop(&c);
	/* Let any 0-lag timer of a running task fire. */
	usleep(200 * 1000);
	EXPECT_EQ(base, dl_total_bw());
}

TEST(blocked_switched_to_other_then_exits)
{
	leak_check(_metadata, 1, 0);
}

TEST(running_switched_to_other_then_exits)
{
	leak_check(_metadata, 0, 0);
}

TEST(blocked_exits)
{
	leak_check(_metadata, 1, 1);
}

TEST(running_exits)
{
	leak_check(_metadata, 0, 1);
}

TEST_HARNESS_MAIN
