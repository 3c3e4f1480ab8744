// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the fixed-point computation of the deadline idle latency
 * limit (kernel/sched/dl_idle_qos.c).  Expected values are worked out by
 * hand in the comments, or checked against the defining inequalities.
 */
#include <kunit/test.h>
#include <linux/dl_idle_qos.h>
#include <linux/pm_qos.h>
#include <linux/sched/topology.h>

#include "dl_idle_qos.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* One CPU of bandwidth, one event per ns, in the fixed point. */
#define BW_ONE		((u128)1 << DL_IDLE_QOS_BW_SHIFT)
#define FREQ_ONE	((u128)1 << DL_IDLE_QOS_FREQ_SHIFT)
#define MS		NSEC_PER_MSEC
#define CPUS(n)		((n) * SCHED_CAPACITY_SCALE)
/* The default admission cap: sched_rt_runtime_us / sched_rt_period_us. */
#define RT_RUNTIME	(950 * MS)
#define RT_PERIOD	(1000 * MS)
#define NO_CAP		((u64)~0ULL)

/*
 * A limit in ns, at most @exact and at most 1 ns below it: the terms are
 * rounded toward safety by far less than a nanosecond, and the result is
 * floored, so an integer exact value may come out 1 ns lower.
 */
static void expect_ns(struct kunit *test, u64 got, u64 exact)
{
	KUNIT_EXPECT_LE(test, got, exact);
	KUNIT_EXPECT_GE(test, got + 1, exact);
}

/* A set of deadline entities, summed as dl_idle_qos sums them. */
struct dlq_set {
	u128 frequency;
	u128 reserved;
	u64 rule1;
};

static void set_init(struct dlq_set *s)
{
	s->frequency = 0;
	s->reserved = 0;
	s->rule1 = DL_IDLE_QOS_NO_LIMIT;
}

static void set_add_task(struct dlq_set *s, u64 runtime, u64 deadline,
			 u64 period)
{
	s->frequency += dl_idle_qos_frequency(period);
	s->reserved += dl_idle_qos_bandwidth(runtime, period);
	s->rule1 = min(s->rule1, deadline - runtime);
}

static void set_add_server(struct dlq_set *s, u64 runtime, u64 period)
{
	s->reserved += dl_idle_qos_bandwidth(runtime, period);
}

static u64 set_limit(struct dlq_set *s, u128 capacity)
{
	return min(s->rule1, dl_idle_qos_rule2(capacity, s->reserved,
					       s->frequency));
}

/* The default fair servers: 50 ms every 1000 ms on each CPU. */
static void set_add_fair_servers(struct dlq_set *s, int cpus)
{
	while (cpus--)
		set_add_server(s, 50 * MS, 1000 * MS);
}

/* ceil(2^73 / P): f * P >= 2^73 > (f - 1) * P. */
static void expect_frequency(struct kunit *test, u64 period)
{
	u128 f = dl_idle_qos_frequency(period);

	KUNIT_EXPECT_TRUE(test, f * period >= FREQ_ONE);
	KUNIT_EXPECT_TRUE(test, (f - 1) * period < FREQ_ONE);
}

static void dlq_test_frequency(struct kunit *test)
{
	/* 1024 ns: 2^73 / 2^10 = 2^63 exactly. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_frequency(1024) == BW_ONE);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_frequency(0) == 0);
	/* Below what the deadline class admits: saturated, never low. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_frequency(512) == U64_MAX);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_frequency(3) == U64_MAX);

	/* Periods that do not divide 2^73: rounded up, by less than one unit. */
	expect_frequency(test, 513);
	expect_frequency(test, 10 * MS);
	expect_frequency(test, 3 * MS + 1);
	expect_frequency(test, 999999937);
	/* The largest legal period: UINT_MAX us. */
	expect_frequency(test, 4294967295000ULL);
}

static void dlq_test_bandwidth(struct kunit *test)
{
	static const u64 runtimes[] = { 1024, 1000, 333333, 1 * MS, 50 * MS,
					99999989 };
	static const u64 periods[] = { 1024, 3000, 1000000, 10 * MS,
				       1000 * MS, 999999937, 100000007 };
	u128 bw;
	int i, j;

	/* Binary fractions are exact: 1/4, and one whole CPU. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth(MS, 4 * MS) == BW_ONE / 4);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth(7, 7) == BW_ONE);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth(0, 7) == 0);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth(5, 0) == 0);
	/* A runtime above the period, never admitted: saturated, never low. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth(8, 7) == U64_MAX);

	/* Rounded up by less than one unit: bw * P >= C * 2^63 > (bw-1) * P. */
	for (i = 0; i < ARRAY_SIZE(runtimes); i++) {
		for (j = 0; j < ARRAY_SIZE(periods); j++) {
			if (runtimes[i] > periods[j])
				continue;
			bw = dl_idle_qos_bandwidth(runtimes[i], periods[j]);
			KUNIT_EXPECT_TRUE(test, bw * periods[j] >=
					  runtimes[i] * BW_ONE);
			KUNIT_EXPECT_TRUE(test, (bw - 1) * periods[j] <
					  runtimes[i] * BW_ONE);
		}
	}

	/* Extremes: 1024 ns every UINT_MAX us, and runtime = period ~ 2^63. */
	bw = dl_idle_qos_bandwidth(1024, 4294967295000ULL);
	KUNIT_EXPECT_TRUE(test, bw > 0 && bw < BW_ONE / 4000000000ULL);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_bandwidth((1ULL << 63) - 1,
						      (1ULL << 63) - 1) == BW_ONE);
}

/*
 * cap * M rounded down by less than @capacity units: with k the result,
 * k * 1024 * P <= capacity * 2^63 * R < (k + capacity) * 1024 * P.
 */
static void expect_capacity(struct kunit *test, unsigned long capacity,
			    u64 rt_runtime, u64 rt_period)
{
	u128 k = dl_idle_qos_capacity(capacity, rt_runtime, rt_period);
	u128 exact = (u128)capacity * BW_ONE / SCHED_CAPACITY_SCALE *
		     rt_runtime;

	KUNIT_EXPECT_TRUE(test, k * rt_period <= exact);
	KUNIT_EXPECT_TRUE(test, (k + capacity) * rt_period > exact);
}

static void dlq_test_capacity(struct kunit *test)
{
	/* 2 CPUs at the default cap 0.95, and 1/3 of one CPU. */
	expect_capacity(test, CPUS(2), RT_RUNTIME, RT_PERIOD);
	expect_capacity(test, CPUS(1), 1, 3);
	/* Admission off (sched_rt_runtime_us = -1): cap = 1, exactly. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(CPUS(4), NO_CAP,
						     RT_PERIOD) == BW_ONE * 4);
	/* cap = 0: no capacity at all; a zero period, never valid: none. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(CPUS(4), 0, RT_PERIOD) == 0);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(CPUS(4), 1, 0) == 0);
	/* cap = 1 without admission off, and half a CPU: exact. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(CPUS(2), RT_PERIOD,
						     RT_PERIOD) == BW_ONE * 2);
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(CPUS(1), 1, 2) ==
			  BW_ONE / 2);
	/* A little CPU of capacity 446 (arm64 big.LITTLE): 446/1024 exactly. */
	KUNIT_EXPECT_TRUE(test, dl_idle_qos_capacity(446, NO_CAP, RT_PERIOD) ==
			  BW_ONE / 1024 * 446);
	/* NR_CPUS = 8192 at cap 0.95, with the largest rt period. */
	expect_capacity(test, CPUS(8192), 2147483647000ULL / 20 * 19,
			2147483647000ULL / 20 * 20);
}

/* No task: no constraint, whatever the servers reserve. */
static void dlq_test_empty(struct kunit *test)
{
	struct dlq_set s;

	set_init(&s);
	set_add_fair_servers(&s, 2);
	KUNIT_EXPECT_EQ(test,
			set_limit(&s, dl_idle_qos_capacity(CPUS(2), RT_RUNTIME,
							   RT_PERIOD)),
			DL_IDLE_QOS_NO_LIMIT);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_rule2(0, BW_ONE, 0),
			DL_IDLE_QOS_NO_LIMIT);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(DL_IDLE_QOS_NO_LIMIT),
			PM_QOS_DEFAULT_VALUE);
}

/*
 * One task 0.6 ms / 0.7 ms / 10 ms on 2 CPUs with the fair servers:
 * rule 1 = 100 us; rule 2 = (1.9 - 0.1 - 0.06) / (1 / 10 ms) = 17.4 ms.
 */
static void dlq_test_one_task(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(2), RT_RUNTIME, RT_PERIOD);
	struct dlq_set s;

	set_init(&s);
	set_add_fair_servers(&s, 2);
	set_add_task(&s, 600000, 700000, 10 * MS);
	KUNIT_EXPECT_EQ(test, s.rule1, 100000);
	expect_ns(test, dl_idle_qos_rule2(cap, s.reserved, s.frequency),
		  17400000);
	KUNIT_EXPECT_EQ(test, set_limit(&s, cap), 100000);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(set_limit(&s, cap)), 100);
}

/*
 * N tasks of equal period P: rule 2 is the seed's L * N <= spare * P.
 * 2 CPUs, cap 0.95, servers 0.1, 16 tasks 5 ms / 100 ms (0.8):
 * spare = 1.9 - 0.1 - 0.8 = 1.0, L = 1.0 * 100 ms / 16 = 6.25 ms.
 */
static void dlq_test_equal_periods(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(2), RT_RUNTIME, RT_PERIOD);
	struct dlq_set s;
	int i;

	set_init(&s);
	set_add_fair_servers(&s, 2);
	for (i = 0; i < 16; i++)
		set_add_task(&s, 5 * MS, 100 * MS, 100 * MS);
	expect_ns(test, dl_idle_qos_rule2(cap, s.reserved, s.frequency),
		  6250000);
	/* Rule 1 (95 ms) does not bind. */
	expect_ns(test, set_limit(&s, cap), 6250000);
}

/*
 * Mixed periods: 1 ms / 10 ms and 2 ms / 20 ms on 2 CPUs with servers:
 * spare = 1.9 - 0.1 - 0.1 - 0.1 = 1.6, sum(1/P) = 100 + 50 = 150 /s,
 * L = 1.6 / 150 s = 10.6666... ms, truncated to 10666666 ns.
 * Check the defining inequality too: with L, the inflated set fits
 * (1 + L/10 + 2 + ... ) and with L + 1 ns it does not.
 */
static void dlq_test_mixed_periods(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(2), RT_RUNTIME, RT_PERIOD);
	struct dlq_set s;
	u64 l;

	set_init(&s);
	set_add_fair_servers(&s, 2);
	set_add_task(&s, 1 * MS, 10 * MS, 10 * MS);
	set_add_task(&s, 2 * MS, 20 * MS, 20 * MS);
	l = dl_idle_qos_rule2(cap, s.reserved, s.frequency);
	expect_ns(test, l, 10666666);
	/*
	 * (1 ms + L) / 10 ms + (2 ms + L) / 20 ms <= 1.8, multiplied by
	 * 20 ms: 2 * (1 ms + L) + (2 ms + L) <= 36 ms, i.e. 3L <= 32 ms.
	 */
	KUNIT_EXPECT_LE(test, 3 * l, 32 * MS);
	KUNIT_EXPECT_GT(test, 3 * (l + 1), 32 * MS);
	/* Rule 1 (9 ms) binds. */
	KUNIT_EXPECT_EQ(test, set_limit(&s, cap), 9 * MS);
}

/* No spare bandwidth: U >= cap * M gives 0, never a wrap-around. */
static void dlq_test_no_spare(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(1), RT_RUNTIME, RT_PERIOD);
	struct dlq_set s;

	/* 0.05 + 0.9 = 0.95: exactly full. */
	set_init(&s);
	set_add_fair_servers(&s, 1);
	set_add_task(&s, 9 * MS, 10 * MS, 10 * MS);
	KUNIT_EXPECT_EQ(test, set_limit(&s, cap), 0);

	/* Overcommitted, e.g. after a CPU went offline. */
	set_add_task(&s, 9 * MS, 10 * MS, 10 * MS);
	KUNIT_EXPECT_EQ(test, set_limit(&s, cap), 0);

	/* All CPUs offline: no capacity at all. */
	KUNIT_EXPECT_EQ(test, set_limit(&s, 0), 0);
}

/*
 * Admission off (sched_rt_runtime_us = -1): cap = 1.  One CPU, servers
 * 0.05, one task 1 ms / 10 ms: L = (1 - 0.05 - 0.1) * 10 ms = 8.5 ms;
 * rule 1 is 9 ms.
 */
static void dlq_test_admission_off(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(1), NO_CAP, RT_PERIOD);
	struct dlq_set s;

	set_init(&s);
	set_add_fair_servers(&s, 1);
	set_add_task(&s, 1 * MS, 10 * MS, 10 * MS);
	expect_ns(test, set_limit(&s, cap), 8500000);
}

/*
 * Extreme legal parameters, no overflow:
 * - runtime 1024 ns every UINT_MAX us (4294967295000 ns, about 2^42) on 2
 *   CPUs at cap 0.95 without servers: L = 1.9 * P - 1024 = 8160437859476
 *   ns, exactly; rule 1 is P - 1024 = 4294967293976 ns.  1/P rounded up
 *   to 2^-73 per ns is high by up to P / 2^73 of itself, about 2^-31: rule
 *   2 may be that fraction of L low (3.8 us of 8160 s), and 1 ns.
 * - 2^22 tasks (PID_MAX_LIMIT) of 1024 ns / 1024 ns with admission off on
 *   8192 CPUs: the sums hold 2^85 and 2^85 without wrapping, and there is
 *   no spare bandwidth; with none of them, 2 ns each (no overflow when
 *   both operands are cut to 64 bits).
 * - A quotient beyond 64 bits saturates.
 */
static void dlq_test_extremes(struct kunit *test)
{
	const u64 p = 4294967295000ULL;
	u128 cap = dl_idle_qos_capacity(CPUS(2), RT_RUNTIME, RT_PERIOD);
	struct dlq_set s;
	u64 l;

	set_init(&s);
	set_add_task(&s, 1024, p, p);
	l = dl_idle_qos_rule2(cap, s.reserved, s.frequency);
	KUNIT_EXPECT_LE(test, l, 8160437859476ULL);
	KUNIT_EXPECT_GE(test, l + 1, 8160437859476ULL -
			(8160437859476ULL >> 31));
	KUNIT_EXPECT_EQ(test, set_limit(&s, cap), p - 1024);
	/* 4294967293 us is above the QoS framework's 2000 s: no constraint. */
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(p - 1024),
			PM_QOS_DEFAULT_VALUE);

	s.frequency = (u128)dl_idle_qos_frequency(1024) * (1U << 22);
	s.reserved = (u128)dl_idle_qos_bandwidth(1024, 1024) * (1U << 22);
	KUNIT_EXPECT_TRUE(test, s.frequency == FREQ_ONE / 1024 * (1U << 22));
	KUNIT_EXPECT_TRUE(test, s.reserved == BW_ONE * (1U << 22));
	cap = dl_idle_qos_capacity(CPUS(8192), NO_CAP, RT_PERIOD);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_rule2(cap, s.reserved, s.frequency),
			0);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_rule2(cap, 0, s.frequency), 2);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_rule2(cap, 0, 1), DL_IDLE_QOS_NO_LIMIT);
}

/*
 * Rounding is toward safety: with a period that does not divide 2^73
 * (3 ms + 1 ns) the result is at most the exact value and at most 1 ns
 * below it.  One CPU, cap 1, no server, one task 1 ms / P:
 * L = (1 - 1 ms / P) * P = P - 1 ms = 2000001 ns exactly.
 */
static void dlq_test_rounding(struct kunit *test)
{
	u128 cap = dl_idle_qos_capacity(CPUS(1), NO_CAP, RT_PERIOD);
	const u64 p = 3 * MS + 1;
	struct dlq_set s;
	u64 l;

	set_init(&s);
	set_add_task(&s, MS, p, p);
	l = dl_idle_qos_rule2(cap, s.reserved, s.frequency);
	expect_ns(test, l, 2000001);

	/* Microseconds are truncated: 999 ns is 0 us, 1999 ns is 1 us. */
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(999), 0);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(1999), 1);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(0), 0);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(1999999999999ULL),
			1999999999);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_target_us(2000000000000ULL),
			PM_QOS_DEFAULT_VALUE);
}

/* The demand rule of a set of entities (runtime, deadline, period). */
static int demand(struct kunit *test, const u64 (*set)[3], unsigned int n,
		  unsigned long capacity, u64 reserve, u64 max_points,
		  u64 *limit)
{
	struct dl_idle_qos_dbf *e;
	unsigned int i;
	u32 *heap;

	e = kunit_kcalloc(test, n, sizeof(*e), GFP_KERNEL);
	heap = kunit_kcalloc(test, n, sizeof(*heap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_NOT_NULL(test, heap);
	for (i = 0; i < n; i++) {
		e[i].runtime = set[i][0];
		e[i].deadline = set[i][1];
		e[i].period = set[i][2];
	}
	return dl_idle_qos_demand(e, heap, n, capacity, reserve, max_points,
				  limit);
}

/*
 * Constrained deadlines: A (3, 5, 10) ms and B (1.5, 5, 10) ms on one CPU.
 * At t = 5 ms both deadlines fall: dbf = 4.5 ms, c * t - dbf = 0.5 ms; at
 * 15 ms, 15 - 9 = 6 ms, and it only grows.  L = 500000 ns, where rule 1
 * gives 2 ms and rule 2 (1 - 0.45) / (200 / s) = 2.75 ms: both would let
 * the synchronous release at t = 0 miss.  The horizon, (S + sum (P - D) *
 * C / P) / (1 - U) = (2 + 2.25) / 0.55 = 7.7 ms, holds two points (A and B
 * at 5 ms): a budget of one point is exceeded.  With B at 2 ms, dbf(5 ms)
 * = 5 ms: L = 0, feasible; with B at 2.5 ms, 5.5 ms > 5 ms: infeasible.
 */
static void dlq_test_demand_constrained(struct kunit *test)
{
	u64 set[2][3] = { { 3 * MS, 5 * MS, 10 * MS },
			  { 1500 * 1000, 5 * MS, 10 * MS } };
	u64 l = 42;

	KUNIT_EXPECT_EQ(test, demand(test, set, 2, CPUS(1), 0, 100000, &l), 0);
	KUNIT_EXPECT_EQ(test, l, 500000);
	KUNIT_EXPECT_EQ(test, demand(test, set, 2, CPUS(1), 0, 2, &l), 0);
	KUNIT_EXPECT_EQ(test, demand(test, set, 2, CPUS(1), 0, 1, &l), -E2BIG);
	set[1][0] = 2 * MS;
	KUNIT_EXPECT_EQ(test, demand(test, set, 2, CPUS(1), 0, 100000, &l), 0);
	KUNIT_EXPECT_EQ(test, l, 0);
	set[1][0] = 2500 * 1000;
	KUNIT_EXPECT_EQ(test, demand(test, set, 2, CPUS(1), 0, 100000, &l),
			-ERANGE);
}

/*
 * Capacity and the linear reservation.  Half a CPU, one task (1, 4, 4) ms:
 * 0.5 * t - dbf(t) is 1 ms at 4 ms, 2 ms at 8 ms: L = 1 ms.  One CPU, a
 * reservation of 2^17 / 2^20 = 0.125, one task (1, 10, 10) ms: 10 - 1 -
 * 1.25 = 7.75 ms at 10 ms, 15.5 ms at 20 ms: L = 7.75 ms.  No spare
 * bandwidth at all (one task 1 ms every 1 ms): no horizon, -E2BIG.
 */
static void dlq_test_demand_capacity(struct kunit *test)
{
	u64 small[1][3] = { { MS, 4 * MS, 4 * MS } };
	u64 one[1][3] = { { MS, 10 * MS, 10 * MS } };
	u64 full[1][3] = { { MS, MS, MS } };
	u64 l = 42;

	KUNIT_EXPECT_EQ(test, demand(test, small, 1, CPUS(1) / 2, 0, 100000,
				     &l), 0);
	KUNIT_EXPECT_EQ(test, l, MS);
	KUNIT_EXPECT_EQ(test, demand(test, one, 1, CPUS(1), 1 << 17, 100000,
				     &l), 0);
	KUNIT_EXPECT_EQ(test, l, 7750000);
	KUNIT_EXPECT_EQ(test, demand(test, full, 1, CPUS(1), 0, 100000, &l),
			-E2BIG);
}

/*
 * Rounding: the result is floored once.  One task (1 ms, P, P) with P = 3
 * ms + 1 ns and a reservation of 2^-20: at P, 3000001 - 1000000 -
 * 3000001 / 2^20 = 1999998.139 ns; at 2P 3999996.28.  L = 1999998.
 * Without the reservation the value is an integer: 2000001.
 */
static void dlq_test_demand_rounding(struct kunit *test)
{
	const u64 p = 3 * MS + 1;
	u64 set[1][3] = { { MS, p, p } };
	u64 l = 42;

	KUNIT_EXPECT_EQ(test, demand(test, set, 1, CPUS(1), 1, 100000, &l), 0);
	KUNIT_EXPECT_EQ(test, l, 1999998);
	KUNIT_EXPECT_EQ(test, demand(test, set, 1, CPUS(1), 0, 100000, &l), 0);
	KUNIT_EXPECT_EQ(test, l, 2000001);
}

/*
 * The O(1) bound the hooks take, D_min * (c - sum C_i / D_i - r), never
 * exceeds the exact value.  The constrained pair: 5 ms * (1 - 0.6 - 0.3) =
 * 0.5 ms, the exact value.  A (1, 2, 10) ms and B (1, 10, 10) ms: 2 ms *
 * (1 - 0.5 - 0.1) = 0.8 ms, below the exact 1 ms (t = 2 ms: 2 - 1).  Half
 * a CPU and (1, 4, 4) ms: 4 * (0.5 - 0.25) = 1 ms.  Density at or above c:
 * 0.
 */
static void dlq_test_demand_bound(struct kunit *test)
{
	u64 pair[2][3] = { { 3 * MS, 5 * MS, 10 * MS },
			   { 1500 * 1000, 5 * MS, 10 * MS } };
	u64 ab[2][3] = { { MS, 2 * MS, 10 * MS }, { MS, 10 * MS, 10 * MS } };
	u128 dens;
	u64 l;

	dens = dl_idle_qos_bandwidth(3 * MS, 5 * MS) +
	       dl_idle_qos_bandwidth(1500 * 1000, 5 * MS);
	expect_ns(test, dl_idle_qos_demand_bound(5 * MS, dens, CPUS(1), 0),
		  500000);
	KUNIT_EXPECT_EQ(test, demand(test, pair, 2, CPUS(1), 0, 100000, &l), 0);
	KUNIT_EXPECT_LE(test, dl_idle_qos_demand_bound(5 * MS, dens, CPUS(1), 0),
			l);

	dens = dl_idle_qos_bandwidth(MS, 2 * MS) +
	       dl_idle_qos_bandwidth(MS, 10 * MS);
	expect_ns(test, dl_idle_qos_demand_bound(2 * MS, dens, CPUS(1), 0),
		  800000);
	KUNIT_EXPECT_EQ(test, demand(test, ab, 2, CPUS(1), 0, 100000, &l), 0);
	KUNIT_EXPECT_EQ(test, l, MS);

	dens = dl_idle_qos_bandwidth(MS, 4 * MS);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_demand_bound(4 * MS, dens,
						       CPUS(1) / 2, 0), MS);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_demand_bound(4 * MS, BW_ONE / 2,
						       CPUS(1) / 2, 0), 0);
	KUNIT_EXPECT_EQ(test, dl_idle_qos_demand_bound(4 * MS, BW_ONE / 4,
						       CPUS(1) / 2, 1 << 18), 0);
}

static struct kunit_case dl_idle_qos_test_cases[] = {
	KUNIT_CASE(dlq_test_frequency),
	KUNIT_CASE(dlq_test_bandwidth),
	KUNIT_CASE(dlq_test_capacity),
	KUNIT_CASE(dlq_test_empty),
	KUNIT_CASE(dlq_test_one_task),
	KUNIT_CASE(dlq_test_equal_periods),
	KUNIT_CASE(dlq_test_mixed_periods),
	KUNIT_CASE(dlq_test_no_spare),
	KUNIT_CASE(dlq_test_admission_off),
	KUNIT_CASE(dlq_test_extremes),
	KUNIT_CASE(dlq_test_rounding),
	KUNIT_CASE(dlq_test_demand_constrained),
	KUNIT_CASE(dlq_test_demand_capacity),
	KUNIT_CASE(dlq_test_demand_rounding),
	KUNIT_CASE(dlq_test_demand_bound),
	{}
};

static struct kunit_suite dl_idle_qos_test_suite = {
	.name = "dl_idle_qos",
	.test_cases = dl_idle_qos_test_cases,
};

kunit_test_suite(dl_idle_qos_test_suite);

MODULE_DESCRIPTION("KUnit tests for the deadline idle latency limit");
MODULE_LICENSE("GPL");
