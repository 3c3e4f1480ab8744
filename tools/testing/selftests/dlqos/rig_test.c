// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the test rig itself: the test cpuidle driver exposes the states
 * of its table, refuses malformed tables, lets every governor use more than
 * one state, really pays a state's exit latency on wakeup, and logs its
 * idle periods (for make bench) as the CPU really spent them.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "dlqos_util.h"

struct expect_state {
	const char *name;
	int exit_us;
	int residency_us;
	int power_mw;
};

/* The presets, transcribed from intel_idle.c (spr) and the issue (juno). */
static const struct expect_state spr[] = {
	{ "POLL", 0, 0, 3000 },
	{ "C1", 1, 1, 1200 },
	{ "C1E", 2, 4, 800 },
	{ "C6", 290, 800, 100 },
};

static const struct expect_state juno[] = {
	{ "POLL", 0, 0, 600 },
	{ "WFI", 1, 1, 300 },
	{ "cluster-sleep-0", 1200, 2500, 20 },
};

static const struct expect_state custom[] = {
	{ "A", 5, 10, 50 },
	{ "B", 100, 300, 7 },
};

static void check_table(struct __test_metadata *_metadata,
			const struct expect_state *st, int n)
{
	char buf[64];
	int cpu, i;

	ASSERT_EQ(0, read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)));
	ASSERT_STREQ("test_cpuidle", buf);
	for (cpu = 0; cpu < nr_cpus(); cpu++) {
		ASSERT_EQ(n, nr_states(cpu));
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, state_attr(cpu, i, "name", buf, sizeof(buf)));
			EXPECT_STREQ(st[i].name, buf);
			EXPECT_EQ(st[i].exit_us, state_ll(cpu, i, "latency"));
			EXPECT_EQ(st[i].residency_us, state_ll(cpu, i, "residency"));
			EXPECT_EQ(st[i].power_mw, state_ll(cpu, i, "power"));
		}
	}
}

FIXTURE(driver) {
	char saved_governor[32];
};

FIXTURE_SETUP(driver)
{
	char buf[64];

	self->saved_governor[0] = '\0';
	if (platform_idle_driver(buf, sizeof(buf)))
		SKIP(return, "%s registered at boot: the test driver cannot load",
		     buf);
	/* Other tests may have left the driver loaded. */
	if (!read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)) &&
	    !strcmp(buf, "test_cpuidle"))
		ASSERT_EQ(0, unload_test_driver());
	if (access(test_module_path(), R_OK))
		SKIP(return, "no test module at %s", test_module_path());
}

FIXTURE_TEARDOWN(driver)
{
	if (self->saved_governor[0])
		set_governor(self->saved_governor);
	unload_test_driver();
}

TEST_F(driver, spr_table)
{
	ASSERT_EQ(0, load_test_driver("table=spr"));
	check_table(_metadata, spr, ARRAY_SIZE(spr));
}

TEST_F(driver, juno_table)
{
	ASSERT_EQ(0, load_test_driver("table=juno"));
	check_table(_metadata, juno, ARRAY_SIZE(juno));
}

TEST_F(driver, custom_table)
{
	ASSERT_EQ(0, load_test_driver("table=A:5:10:50,B:100:300:7 poll_mw=9"));
	check_table(_metadata, (const struct expect_state[]){
		{ "POLL", 0, 0, 9 }, custom[0], custom[1] }, 3);
}

TEST_F(driver, no_poll_state)
{
	ASSERT_EQ(0, load_test_driver("table=spr poll=0"));
	check_table(_metadata, spr + 1, ARRAY_SIZE(spr) - 1);
}

TEST_F(driver, malformed_tables)
{
	static const char * const bad[] = {
		"table=",			/* no state */
		"table=nosuch",			/* unknown preset, no fields */
		"table=A:1:1",			/* missing power */
		"table=A:1:1:1:1",		/* extra field */
		"table=A:x:1:1",		/* not a number */
		"table=A:-1:1:1",		/* negative */
		"table=A:1:1:1,",		/* empty state */
		"table=:1:1:1",			/* empty name */
		"table=A:10:5:1",		/* residency below exit latency */
		"table=A:100:200:1,B:10:20:1",	/* latency decreasing */
		"table=A:99999999999:1:1",	/* out of range */
		"table=ABCDEFGHIJKLMNOPQRSTUVWXYZ:1:1:1", /* name too long */
		/* too many */
		"table=a:1:1:1,b:1:1:1,c:1:1:1,d:1:1:1,e:1:1:1,f:1:1:1,g:1:1:1,h:1:1:1,i:1:1:1,j:1:1:1",
	};
	char buf[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, load_test_driver(bad[i])) {
			TH_LOG("accepted %s", bad[i]);
			unload_test_driver();
		}
	}
	ASSERT_EQ(0, read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)));
	EXPECT_STRNE("test_cpuidle", buf);
	/* Still loads after all that. */
	EXPECT_EQ(0, load_test_driver("table=spr"));
}

TEST_F(driver, unload_reload)
{
	char buf[64];
	int i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, load_test_driver("table=juno"));
		ASSERT_EQ(0, unload_test_driver());
	}
	ASSERT_EQ(0, read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)));
	EXPECT_STREQ("none", buf);
}

/*
 * Light load: sleeps of 20 us to 5 ms in a pseudo-random mix, so a
 * governor sees both short and long idle periods.
 */
static void light_load(int ms)
{
	uint64_t end = now_ns(CLOCK_MONOTONIC) + ms * 1000000ull;
	unsigned int seed = 1;

	while (now_ns(CLOCK_MONOTONIC) < end) {
		seed = seed * 1103515245 + 12345;
		usleep((seed >> 16) % 2 ? 20 + (seed >> 8) % 100 :
					  1000 + (seed >> 8) % 4000);
	}
}

static void governor_uses_states(struct __test_metadata *_metadata,
				 const char *governor, char *saved)
{
	long long before[MAX_STATES], delta;
	int s, n, used = 0;

	ASSERT_EQ(0, get_governor(saved, 32));
	ASSERT_EQ(0, load_test_driver("table=spr"));
	ASSERT_EQ(0, set_governor(governor));
	n = nr_states(0);
	state_sums("usage", before, n);
	light_load(2000);
	for (s = 0; s < n; s++) {
		delta = state_sum(s, "usage") - before[s];
		TH_LOG("%s: state%d usage +%lld", governor, s, delta);
		if (delta > 0)
			used++;
	}
	EXPECT_GT(used, 1);
}

TEST_F(driver, menu_uses_states)
{
	governor_uses_states(_metadata, "menu", self->saved_governor);
}

TEST_F(driver, teo_uses_states)
{
	governor_uses_states(_metadata, "teo", self->saved_governor);
}

TEST_F(driver, ladder_uses_states)
{
	governor_uses_states(_metadata, "ladder", self->saved_governor);
}

/*
 * With only C6 (290 us exit latency) enabled, every timer wakeup of an
 * idle CPU starts at least 290 us late: the driver busy-waits the exit
 * latency after the interrupt.  The bound is a minimum, so it holds
 * with or without -icount.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

TEST_F(driver, exit_latency_is_paid)
{
	uint64_t next, late[51];
	long long usage;
	int s, i, n;

	ASSERT_EQ(0, load_test_driver("table=spr"));
	n = nr_states(0);
	ASSERT_EQ(4, n);
	for (s = 0; s < n - 1; s++)
		ASSERT_EQ(0, set_state_disabled(s, 1));
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 1));
	usage = state_sum(n - 1, "usage");

	next = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < ARRAY_SIZE(late); i++) {
		next += 10 * 1000 * 1000;
		sleep_until(CLOCK_MONOTONIC, next);
		late[i] = now_ns(CLOCK_MONOTONIC) - next;
	}
	qsort(late, ARRAY_SIZE(late), sizeof(late[0]), cmp_u64);
	TH_LOG("C6 only: lateness min %llu us, median %llu us, max %llu us",
	       (unsigned long long)late[0] / 1000,
	       (unsigned long long)late[ARRAY_SIZE(late) / 2] / 1000,
	       (unsigned long long)late[ARRAY_SIZE(late) - 1] / 1000);
	EXPECT_GE(state_sum(n - 1, "usage") - usage, ARRAY_SIZE(late));
	/*
	 * A wakeup finds its CPU in C6 unless something else ran there at
	 * that moment: most wakeups pay at least the 290 us.
	 */
	EXPECT_GE(late[ARRAY_SIZE(late) / 2], 290 * 1000);
	enable_all_states();
}

#define MAX_PERIODS	4096

/* The end of CPU 0's last period that ended before @t, or 0. */
static uint64_t last_end_before(const struct idle_period *p, int n, uint64_t t)
{
	uint64_t end = 0;
	int k;

	for (k = 0; k < n; k++)
		if (p[k].cpu == 0 && p[k].entry + p[k].length < t &&
		    p[k].entry + p[k].length > end)
			end = p[k].entry + p[k].length;
	return end;
}

/* C6 of the spr table, the state idle_log leaves enabled. */
#define C6_EXIT_NS	(spr[3].exit_us * 1000ll)
#define WAKEUPS		20

/*
 * With C6 alone enabled and this task on CPU 0 sleeping until absolute
 * times:
 * - CPU 0's log agrees with the cpuidle core's own accounting of C6: one
 *   logged period per entry ("usage"), and the core's residency ("time",
 *   which also holds the 290 us exit latency the driver pays after it
 *   logged the end) exceeds the logged lengths by 290 us per period, plus
 *   at most 100 us of the core's own work;
 * - each of those times falls in one logged C6 period (never two), or
 *   within 290 us after a period ended: CPU 0 was then paying that
 *   period's exit latency (the tick, which RCU keeps running while it has
 *   callbacks, or another interrupt woke it just before).  Otherwise CPU 0
 *   was running something else: that must stay rare;
 * - the periods of a CPU never overlap, and clearing the log drops every
 *   period that ended before the clear.
 */
TEST_F(driver, idle_log)
{
	static struct idle_period p[MAX_PERIODS];
	long long usage, time_us, periods = 0, logged_ns = 0, extra_ns;
	int i, k, n, found, covered = 0, exiting = 0;
	uint64_t next[WAKEUPS], cleared, end;
	cpu_set_t set;
	char buf[256];

	ASSERT_EQ(0, load_test_driver("table=spr log=4096"));
	ASSERT_EQ(4, nr_states(0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, set_state_disabled(i, 1));
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, prctl(PR_SET_TIMERSLACK, 1));

	/* CPU 0 runs this task from here to the sleeps: no period between. */
	usage = state_ll(0, 3, "usage");
	time_us = state_ll(0, 3, "time");
	ASSERT_EQ(0, write_file(IDLE_LOG, "1"));
	next[0] = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < WAKEUPS; i++) {
		next[i] = (i ? next[i - 1] : next[0]) + 5 * 1000 * 1000;
		sleep_until(CLOCK_MONOTONIC, next[i]);
	}
	usage = state_ll(0, 3, "usage") - usage;
	time_us = state_ll(0, 3, "time") - time_us;
	n = read_idle_log(p, MAX_PERIODS);
	ASSERT_GT(n, 0);
	ASSERT_LT(n, MAX_PERIODS);

	for (k = 0; k < n; k++) {
		if (p[k].cpu != 0)
			continue;
		EXPECT_EQ(3, p[k].state);
		periods++;
		logged_ns += p[k].length;
	}
	EXPECT_EQ(usage, periods);
	/* The core's time is in whole microseconds: 1 us either way. */
	extra_ns = time_us * 1000 - logged_ns;
	TH_LOG("%lld C6 periods, the core's time exceeds the logged %lld ns by %lld ns",
	       periods, logged_ns, extra_ns);
	EXPECT_GE(extra_ns, periods * C6_EXIT_NS - 1000);
	EXPECT_LE(extra_ns, periods * (C6_EXIT_NS + 100 * 1000) + 1000);

	for (i = 0; i < WAKEUPS; i++) {
		found = 0;
		for (k = 0; k < n; k++)
			if (p[k].cpu == 0 && p[k].state == 3 &&
			    p[k].entry < next[i] &&
			    p[k].entry + p[k].length >= next[i])
				found++;
		EXPECT_LE(found, 1);
		covered += found;
		if (found)
			continue;
		end = last_end_before(p, n, next[i]);
		if (end && (long long)(next[i] - end) <= C6_EXIT_NS)
			exiting++;
		else
			TH_LOG("wakeup at %llu: CPU 0's last period ended %lld ns before",
			       (unsigned long long)next[i],
			       end ? (long long)(next[i] - end) : -1ll);
	}
	TH_LOG("%d wakeups: %d ended a logged C6 period, %d came during its exit latency",
	       WAKEUPS, covered, exiting);
	EXPECT_GE(covered + exiting, WAKEUPS - 2);
	for (k = 1; k < n; k++) {
		EXPECT_TRUE(p[k].state >= 0 && p[k].state < 4);
		if (p[k].cpu == p[k - 1].cpu)
			EXPECT_LE(p[k - 1].entry + p[k - 1].length, p[k].entry);
	}

	cleared = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, write_file(IDLE_LOG, "1"));
	n = read_idle_log(p, MAX_PERIODS);
	ASSERT_LE(0, n);
	for (k = 0; k < n; k++)
		EXPECT_GE(p[k].entry + p[k].length, cleared);
	ASSERT_EQ(0, read_file("/sys/kernel/debug/test_cpuidle/dropped", buf,
			       sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "cpu0 0", 6));
	enable_all_states();
}

/* Without log=, there is no log; an oversized log is refused. */
TEST_F(driver, idle_log_parameter)
{
	ASSERT_EQ(0, load_test_driver("table=spr"));
	EXPECT_NE(0, access(IDLE_LOG, F_OK));
	ASSERT_EQ(0, unload_test_driver());
	EXPECT_EQ(-EINVAL, load_test_driver("table=spr log=99999999"));
}

TEST_HARNESS_MAIN
