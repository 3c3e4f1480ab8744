/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-point helpers of kernel/sched/dl_idle_qos.c, visible to its KUnit
 * test (kernel/sched/dl_idle_qos_test.c) only.
 */
#ifndef _KERNEL_SCHED_DL_IDLE_QOS_H
#define _KERNEL_SCHED_DL_IDLE_QOS_H

#include <linux/types.h>

/*
 * The fixed point used by dl_idle_qos: one CPU of bandwidth is
 * 2^DL_IDLE_QOS_BW_SHIFT, one event per nanosecond is
 * 2^DL_IDLE_QOS_FREQ_SHIFT.  Each task's or server's term fits in a u64
 * (periods of at least 1024 ns); the sums are u128.
 */
#define DL_IDLE_QOS_BW_SHIFT	63
#define DL_IDLE_QOS_FREQ_SHIFT	73

/**
 * struct dl_idle_qos_dbf - a deadline entity, for the demand-bound rule
 * @runtime:	C, ns
 * @deadline:	D, ns
 * @period:	P, ns
 * @next:	scratch: the next absolute deadline to evaluate
 */
struct dl_idle_qos_dbf {
	u64	runtime;
	u64	deadline;
	u64	period;
	u64	next;
};

#if IS_ENABLED(CONFIG_KUNIT)
u64 dl_idle_qos_frequency(u64 period);
u64 dl_idle_qos_bandwidth(u64 runtime, u64 period);
u128 dl_idle_qos_capacity(unsigned long capacity, u64 rt_runtime,
			  u64 rt_period);
u64 dl_idle_qos_rule2(u128 capacity, u128 reserved, u128 frequency);
s32 dl_idle_qos_target_us(u64 limit_ns);
int dl_idle_qos_demand(struct dl_idle_qos_dbf *e, u32 *heap, unsigned int n,
		       unsigned long capacity, u64 reserve, u64 max_points,
		       u64 *limit);
u64 dl_idle_qos_demand_bound(u64 dmin, u128 density, unsigned long capacity,
			     u64 reserve);
#endif

#endif /* _KERNEL_SCHED_DL_IDLE_QOS_H */
