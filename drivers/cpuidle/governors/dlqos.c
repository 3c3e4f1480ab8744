// SPDX-License-Identifier: GPL-2.0
/*
 * dlqos: a cpuidle governor that keeps SCHED_DEADLINE guarantees.
 */

/**
 * DOC: dlqos cpuidle governor
 *
 * The dlqos governor picks, for an idle CPU, the deepest idle state that
 * neither breaks a latency constraint nor is likely to be left before its
 * target residency.  It differs from menu and teo in where its latency
 * constraint comes from: besides the PM QoS constraints, it reads the limit
 * that dl_idle_qos (kernel/sched/dl_idle_qos.c) derives from the admitted
 * SCHED_DEADLINE tasks, directly and without waiting for that limit to be
 * published as a cpu_latency_qos request, and the live slack of the most
 * urgent deadline job recorded on the CPU.
 *
 * Latency bound
 * -------------
 *
 * B = min(cpuidle_governor_latency_req(cpu), dl_idle_qos_cpu_limit_ns(cpu),
 *         dl_idle_qos_cpu_slack_ns(cpu, now))
 *
 * where the first term is the global cpu_latency_qos constraint and the
 * CPU's resume latency constraint, the second the largest exit latency the
 * deadline tasks of the CPU's root domain tolerate (their smallest slack
 * D - C and their spare bandwidth), and the third the time left before the
 * latest start time of a deadline job enqueued on this CPU whose deadline
 * has not passed.  No state whose exit latency exceeds B is ever selected.
 * If no enabled state fits (B = 0 with the polling state disabled, for
 * example), state 0 is used, as menu and teo do.
 *
 * dl_idle_qos publishes each root domain's limit as its CPUs' resume
 * latency requests, and the smallest one as a global cpu_latency_qos
 * request, which would hold every CPU to the tightest root domain.  While
 * this governor drives any CPU, dl_idle_qos withdraws that global request
 * (dl_idle_qos_governor_attach()), so that a root domain without tight
 * deadline tasks keeps its deep states.
 *
 * Idle duration
 * -------------
 *
 * The time till the next timer event (the sleep length) bounds the idle
 * duration, but other interrupts and wakeups cut idle periods short.  As in
 * teo, each state i has a bin of idle durations [target residency of i,
 * target residency of i + 1) and the governor keeps, per CPU, two decaying
 * counts per bin: "hits", idle periods that ended in the bin the sleep
 * length fell into (the timer woke the CPU), and "intercepts", idle
 * periods that ended in a shallower bin than the sleep length's (something
 * else woke the CPU first).  Each update scales every count by 15/16 and
 * adds 1024 to one of them, so they weight the last few dozen idle periods.
 *
 * Selection
 * ---------
 *
 * 1. Candidate: the deepest enabled state with exit latency <= B.
 * 2. Timer: while the candidate's target residency exceeds the sleep
 *    length, take the next shallower enabled state.
 * 3. Intercepts: let T be the sum of all counts and I(k) the sum of the
 *    intercepts of the bins below state k.  I(k) counts the recent idle
 *    periods too short for state k although the timer allowed it.  While
 *    2 * I(candidate) > T, that is, while most recent idle periods were
 *    cut short below the candidate, take the next shallower enabled state.
 *    When the tick is already stopped, states whose target residency is
 *    below the tick period are not chosen this way: nothing would end a
 *    long stay in them.
 * 4. Tick: the tick is stopped only if the selected state is not a
 *    polling state, the sleep length is at least a tick, and step 3 did
 *    not pick a shallower state than the timer allowed (unless that state's
 *    target residency is itself at least a tick): an idle period predicted
 *    short is left to the tick to end.  If the tick is kept, the selected
 *    state's target residency must also fit before the next tick, or a
 *    shallower state is used.  If the tick is already stopped, it stays
 *    stopped (the stop_tick contract of menu and teo).
 *
 * Without deadline tasks B is the PM QoS constraint alone, and the
 * selection is a simpler relative of teo's: the same information (sleep
 * length, hits and intercepts per state bin), one majority rule.
 *
 * Reflect
 * -------
 *
 * After wakeup, the measured idle duration (the residency the cpuidle core
 * recorded, less half the exit latency of the state used: the average
 * delay before the CPU ran again) and the sleep length seen at selection
 * update the counts at the next selection.  A
 * wakeup by the tick when a later timer was expected, or the end of a
 * polling period, counts as a hit: the CPU could have stayed idle until
 * the timer.
 */

#include <linux/cpuidle.h>
#include <linux/dl_idle_qos.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>

#define DLQOS_PULSE		1024
#define DLQOS_DECAY_SHIFT	4

/**
 * struct dlqos_bin - idle periods that ended in one state's bin
 * @hits:	ended in the bin the sleep length fell into
 * @intercepts:	ended in this bin, below the sleep length's bin
 */
struct dlqos_bin {
	unsigned int hits;
	unsigned int intercepts;
};

/**
 * struct dlqos_cpu - per-CPU governor data
 * @bins:	counts per state bin
 * @total:	sum of all counts
 * @sleep_length_ns: time till the next timer at the last selection
 * @pending:	a selection was made and its outcome not yet counted
 * @hit:	the last wakeup is to count as a hit whatever its time
 */
struct dlqos_cpu {
	struct dlqos_bin bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	s64 sleep_length_ns;
	bool pending;
	bool hit;
};

static DEFINE_PER_CPU(struct dlqos_cpu, dlqos_cpus);

/* The bin (state index) an idle duration falls into. */
static int dlqos_bin_of(struct cpuidle_driver *drv, s64 duration_ns)
{
	int i, bin = 0;

	for (i = 1; i < drv->state_count; i++) {
		if (drv->states[i].target_residency_ns > duration_ns)
			break;
		bin = i;
	}
	return bin;
}

/* Count the outcome of the previous selection. */
static void dlqos_update(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 struct dlqos_cpu *data)
{
	int i, timer_bin, idle_bin;
	u64 measured, exit_ns;

	data->total = 0;
	for (i = 0; i < drv->state_count; i++) {
		struct dlqos_bin *bin = &data->bins[i];

		bin->hits -= bin->hits >> DLQOS_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> DLQOS_DECAY_SHIFT;
		data->total += bin->hits + bin->intercepts;
	}

	timer_bin = dlqos_bin_of(drv, data->sleep_length_ns);
	idle_bin = timer_bin;
	if (!data->hit && dev->last_state_idx >= 0) {
		/*
		 * The CPU started running about half the exit latency after
		 * the wakeup, on average: do not count that time as idle.
		 */
		exit_ns = drv->states[dev->last_state_idx].exit_latency_ns;
		measured = dev->last_residency_ns;
		measured = measured >= exit_ns ? measured - exit_ns / 2 :
						 measured / 2;
		idle_bin = dlqos_bin_of(drv, min_t(u64, measured, S64_MAX));
	}
	if (idle_bin >= timer_bin)
		data->bins[timer_bin].hits += DLQOS_PULSE;
	else
		data->bins[idle_bin].intercepts += DLQOS_PULSE;
	data->total += DLQOS_PULSE;
}

/* The latency bound B of the DOC block, in ns. */
static s64 dlqos_latency_bound(struct cpuidle_device *dev)
{
	s64 bound = cpuidle_governor_latency_req(dev->cpu);
	u64 dl = min(dl_idle_qos_cpu_limit_ns(dev->cpu),
		     dl_idle_qos_cpu_slack_ns(dev->cpu, local_clock()));

	return dl < bound ? (s64)dl : bound;
}

/* The next shallower enabled state than @idx, or @idx if there is none. */
static int dlqos_shallower(struct cpuidle_device *dev, int idx)
{
	int i;

	for (i = idx - 1; i >= 0; i--)
		if (!dev->states_usage[i].disable)
			return i;
	return idx;
}

static int dlqos_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	struct dlqos_cpu *data = this_cpu_ptr(&dlqos_cpus);
	s64 bound = dlqos_latency_bound(dev);
	ktime_t delta_tick = TICK_NSEC / 2;
	s64 sleep_length;
	unsigned int intercepts = 0, below[CPUIDLE_STATE_MAX];
	int i, idx = -1, timer_idx, next;

	if (data->pending) {
		dlqos_update(drv, dev, data);
		data->pending = false;
	}
	data->sleep_length_ns = KTIME_MAX;

	/* 1. The deepest enabled state within the latency bound. */
	for (i = 0; i < drv->state_count; i++) {
		below[i] = intercepts;
		intercepts += data->bins[i].intercepts;
		if (dev->states_usage[i].disable)
			continue;
		if (drv->states[i].exit_latency_ns > bound)
			break;
		idx = i;
	}
	if (idx <= 0) {
		/* State 0 (polling, normally), or nothing fits: state 0. */
		*stop_tick = false;
		return 0;
	}

	/* 2. Fit the candidate's target residency in the sleep length. */
	sleep_length = tick_nohz_get_sleep_length(&delta_tick);
	data->sleep_length_ns = sleep_length;
	data->pending = true;
	while (drv->states[idx].target_residency_ns > sleep_length) {
		next = dlqos_shallower(dev, idx);
		if (next == idx)
			break;
		idx = next;
	}

	/* 3. Most recent idle periods too short for the candidate. */
	timer_idx = idx;
	while (idx > 0 && 2 * below[idx] > data->total) {
		next = dlqos_shallower(dev, idx);
		if (next == idx)
			break;
		if (tick_nohz_tick_stopped() &&
		    drv->states[next].target_residency_ns < TICK_NSEC)
			break;
		idx = next;
	}

	/* 4. The tick. */
	if (tick_nohz_tick_stopped() ||
	    (!(drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	     sleep_length >= TICK_NSEC &&
	     (idx == timer_idx ||
	      drv->states[idx].target_residency_ns >= TICK_NSEC)))
		return idx;

	*stop_tick = false;
	while (drv->states[idx].target_residency_ns > delta_tick) {
		next = dlqos_shallower(dev, idx);
		if (next == idx)
			break;
		idx = next;
	}
	return idx;
}

static void dlqos_reflect(struct cpuidle_device *dev, int index)
{
	struct dlqos_cpu *data = this_cpu_ptr(&dlqos_cpus);

	dev->last_state_idx = index;
	/*
	 * Woken by a safety net (the end of a polling period, or the tick
	 * while a later timer was expected): the CPU could have stayed idle
	 * until the timer, count a hit.
	 */
	data->hit = dev->poll_time_limit ||
		    (tick_nohz_idle_got_tick() &&
		     data->sleep_length_ns > TICK_NSEC);
	dev->poll_time_limit = false;
}

static int dlqos_enable_device(struct cpuidle_driver *drv,
			       struct cpuidle_device *dev)
{
	memset(per_cpu_ptr(&dlqos_cpus, dev->cpu), 0, sizeof(struct dlqos_cpu));
	dl_idle_qos_governor_attach();
	return 0;
}

static void dlqos_disable_device(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev)
{
	dl_idle_qos_governor_detach();
}

static struct cpuidle_governor dlqos_governor = {
	.name =		"dlqos",
	/* Below menu (20) and teo (19): used when chosen. */
	.rating =	15,
	.enable =	dlqos_enable_device,
	.disable =	dlqos_disable_device,
	.select =	dlqos_select,
	.reflect =	dlqos_reflect,
};

static int __init dlqos_governor_init(void)
{
	return cpuidle_register_governor(&dlqos_governor);
}

postcore_initcall(dlqos_governor_init);
