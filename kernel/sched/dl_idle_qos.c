// SPDX-License-Identifier: GPL-2.0
/*
 * Idle exit latency limit derived from the admitted SCHED_DEADLINE tasks.
 */

/**
 * DOC: dl_idle_qos overview
 *
 * dl_idle_qos computes, from the admitted SCHED_DEADLINE tasks alone, the
 * largest idle exit latency that cannot break their guarantees, per root
 * domain, keeps it current from hooks in the deadline class, and publishes
 * it as PM QoS requests.  Documentation/scheduler/sched-deadline-idle.rst
 * has the rules and their proofs ("The limit", "Several root domains",
 * "Rule 2 modes", "The demand rule", "The live term"), the arithmetic
 * ("Fixed point and rounding"), the data structures and hooks ("State,
 * hooks and complexity") and "Locking and publication", which in short:
 *
 *  - the hooks run under the rq lock, some under dl_b->lock too, take
 *    dlq.lock innermost (pi_lock -> rq lock -> dl_b->lock -> dlq.lock)
 *    and take nothing under it;
 *  - no PM QoS call there: a hook raises a hard irq_work, which queues
 *    the publication on the SCHED_FIFO "dl_idle_qos" kthread worker and,
 *    when a one-CPU domain waits for its exact demand-bound value, that
 *    computation on an ordinary work item, which has the requests
 *    published again only if the value it installs changed them;
 *  - the debugfs state view waits for the irq_work and the publication,
 *    not for that work item: a domain still waiting shows "bound";
 *  - dl_idle_qos_cpu_limit_ns() and dl_idle_qos_limit_ns() are read
 *    locklessly, updated before the hook returns.
 */

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/dl_idle_qos.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mmu_context.h>
#include <linux/pm_qos.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "sched.h"
#include "dl_idle_qos.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dl_idle_qos.h>

/* Rule 2 modes ("Rule 2 modes" in the RST page), as the sysctl names them. */
enum dlq_rule2_mode {
	DLQ_RULE2_OFF,
	DLQ_RULE2_BANDWIDTH,
	DLQ_RULE2_DEMAND,
};

static const char * const dlq_rule2_names[] = {
	[DLQ_RULE2_OFF]		= "off",
	[DLQ_RULE2_BANDWIDTH]	= "bandwidth",
	[DLQ_RULE2_DEMAND]	= "demand",
};

static const char * const dlq_demand_names[] = {
	[DL_IDLE_QOS_DEMAND_NA]		= "n/a",
	[DL_IDLE_QOS_DEMAND_BOUND]	= "bound",
	[DL_IDLE_QOS_DEMAND_EXACT]	= "exact",
	[DL_IDLE_QOS_DEMAND_BUDGET]	= "budget",
	[DL_IDLE_QOS_DEMAND_INFEASIBLE]	= "infeasible",
};

/*
 * The exact demand-bound limit evaluates dbf() at most this many deadline
 * points; beyond, the domain keeps the O(1) bound.
 */
#define DLQ_DEMAND_MAX_POINTS	100000

/* How long changes to the one-CPU domains gather before that computation. */
#define DLQ_DEMAND_DELAY	msecs_to_jiffies(10)

/**
 * struct dl_idle_qos - the limit and what it is computed from
 * @lock:	protects all fields and every struct dl_idle_qos_domain;
 *		innermost lock (see the DOC block)
 * @live:	root domains with online CPUs, ordered by their limit
 * @stray:	root domains with tasks but no online CPU, ordered by their
 *		tasks' smallest slack
 * @orphans:	tasks whose root domain was freed; never has a CPU
 * @nr_domains:	number of domains in @live
 * @recompute:	the stray sums or the admission parameters changed: every
 *		live domain's limit is to be recomputed
 * @stray_tasks: number of tasks of the stray domains
 * @stray_frequency: sum of 1/P over the tasks of the stray domains
 * @stray_bw:	sum of C/P over the tasks of the stray domains
 * @nr_tasks:	number of accounted tasks, machine-wide
 * @frequency:	sum of 1/P over all tasks (for the state view)
 * @task_bw:	sum of C/P over all tasks (for the state view)
 * @server_bw:	sum of C/P over the DL servers of online CPUs (state view)
 * @rt_runtime:	admission parameters in force: sched_rt_runtime_us (ns,
 *		RUNTIME_INF when off), as of the last sched_dl_do_global()
 * @rt_period:	sched_rt_period_us in force (ns)
 * @reserve:	sched_dl_idle_reserve_us in force, per CPU (BW_SHIFT)
 * @bw_valid:	@rt_runtime, @rt_period and @reserve are set
 * @cpu_capacity: capacity of the online CPUs, SCHED_CAPACITY_SCALE per CPU
 * @nr_cpus:	number of online CPUs
 * @rule1_ns:	rule 1 of the domain with the smallest limit
 * @rule2_ns:	rule 2 of that domain
 * @limit_ns:	the smallest domain limit, DL_IDLE_QOS_NO_LIMIT with no
 *		task; read locklessly by governors
 * @target_us:	@limit_ns in microseconds, the value to publish
 * @nr_traced:	@nr_tasks when the tracepoint last fired
 * @cpus_changed: a domain's target or a CPU's domain changed: the per-CPU
 *		requests are to be published again
 * @rule2_mode:	enum dlq_rule2_mode: whether rule 2 bounds the limits
 * @demand_pending: a domain's exact demand-bound limit is to be computed
 * @demand_token: the last token given to a demand computation
 */
struct dl_idle_qos {
	raw_spinlock_t		lock;
	struct rb_root_cached	live;
	struct rb_root_cached	stray;
	struct dl_idle_qos_domain orphans;
	unsigned int		nr_domains;
	bool			recompute;
	unsigned int		stray_tasks;
	u128			stray_frequency;
	u128			stray_bw;
	unsigned int		nr_tasks;
	u128			frequency;
	u128			task_bw;
	u128			server_bw;
	u64			rt_runtime;
	u64			rt_period;
	u64			reserve;
	bool			bw_valid;
	unsigned long		cpu_capacity;
	unsigned int		nr_cpus;
	u64			rule1_ns;
	u64			rule2_ns;
	u64			limit_ns;
	s32			target_us;
	unsigned int		nr_traced;
	bool			cpus_changed;
	int			rule2_mode;
	bool			demand_pending;
	u64			demand_token;
};

static struct dl_idle_qos dlq = {
	.lock		= __RAW_SPIN_LOCK_UNLOCKED(dlq.lock),
	.live		= RB_ROOT_CACHED,
	.stray		= RB_ROOT_CACHED,
	.orphans	= { .slack_tree = RB_ROOT_CACHED,
			    .deadline_tree = RB_ROOT_CACHED },
	.rule1_ns	= DL_IDLE_QOS_NO_LIMIT,
	.rule2_ns	= DL_IDLE_QOS_NO_LIMIT,
	.limit_ns	= DL_IDLE_QOS_NO_LIMIT,
	.target_us	= PM_QOS_DEFAULT_VALUE,
	.rule2_mode	= DLQ_RULE2_DEMAND,
};

/**
 * struct dl_idle_qos_cpu - per-CPU state
 * @online:	the CPU's capacity and DL server are accounted
 * @capacity:	the capacity accounted for the CPU
 * @domain:	the domain they are accounted in
 * @latest_start: live term: latest start time of the recorded job
 * @expires:	live term: absolute deadline of the recorded job
 */
struct dl_idle_qos_cpu {
	bool				online;
	unsigned long			capacity;
	struct dl_idle_qos_domain	*domain;
	u64				latest_start;
	u64				expires;
};

static DEFINE_PER_CPU(struct dl_idle_qos_cpu, dlq_cpu);

/*
 * Publication: the global request and the per-CPU ones, what they hold, and
 * the switch; the requests and what they hold under dlq_publish_lock.
 */
static struct pm_qos_request dlq_request;
static DEFINE_PER_CPU(struct dev_pm_qos_request, dlq_cpu_request);
static DEFINE_PER_CPU(s32, dlq_cpu_published) = PM_QOS_DEFAULT_VALUE;
static DEFINE_MUTEX(dlq_publish_lock);
static s32 dlq_published = PM_QOS_DEFAULT_VALUE;
static int dlq_enabled = 1;
static bool dlq_ready;
/* A hook changed a value to publish: the irq_work queues the publication. */
static bool dlq_publish_wanted;
/* CPUs whose idle states the dlqos governor drives. */
static atomic_t dlq_governed = ATOMIC_INIT(0);

/* ---- Fixed-point arithmetic (pure, tested by KUnit) ---- */

static unsigned int dlq_fls128(u128 x)
{
	u64 hi = x >> 64;

	return hi ? 64 + fls64(hi) : fls64((u64)x);
}

/**
 * dl_idle_qos_frequency - fixed-point 1/@period, rounded up
 * @period:	period in ns
 *
 * Return: ceil(2^DL_IDLE_QOS_FREQ_SHIFT / @period), 0 for a zero period.
 * Periods of at most 512 ns, which __checkparam_dl() refuses (the runtime
 * is at least 1024 ns), give U64_MAX, above the exact value.
 */
VISIBLE_IF_KUNIT u64 dl_idle_qos_frequency(u64 period)
{
	u64 q;

	if (!period)
		return 0;
	if (period <= 1ULL << (DL_IDLE_QOS_FREQ_SHIFT - 64))
		return U64_MAX;
	/* 2^73 / P < 2^64: one hardware division where there is one. */
	q = mul_u64_u64_div_u64(1ULL << 63, 1ULL << (DL_IDLE_QOS_FREQ_SHIFT - 63),
				period);
	return q + ((u128)q * period != (u128)1 << DL_IDLE_QOS_FREQ_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_frequency);

/**
 * dl_idle_qos_bandwidth - fixed-point @runtime / @period, rounded up
 * @runtime:	runtime in ns, at most @period
 * @period:	period (or deadline) in ns
 *
 * Return: ceil(2^DL_IDLE_QOS_BW_SHIFT * @runtime / @period), 0 for a zero
 * period; U64_MAX, above the exact value, for a runtime above the period,
 * which the deadline class never accepts.
 */
VISIBLE_IF_KUNIT u64 dl_idle_qos_bandwidth(u64 runtime, u64 period)
{
	u64 q;

	if (!period)
		return 0;
	if (unlikely(runtime > period))
		return U64_MAX;
	q = mul_u64_u64_div_u64(runtime, 1ULL << DL_IDLE_QOS_BW_SHIFT, period);
	return q + ((u128)q * period != (u128)runtime << DL_IDLE_QOS_BW_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_bandwidth);

/**
 * dl_idle_qos_capacity - fixed-point cap * M, rounded down
 * @capacity:	M, SCHED_CAPACITY_SCALE per CPU
 * @rt_runtime:	global rt runtime in ns, or RUNTIME_INF (cap = 1)
 * @rt_period:	global rt period in ns
 *
 * cap is rounded down to a multiple of 2^-(DL_IDLE_QOS_BW_SHIFT -
 * SCHED_CAPACITY_SHIFT) first, then multiplied by @capacity exactly.
 *
 * Return: at most 2^DL_IDLE_QOS_BW_SHIFT * @capacity /
 * SCHED_CAPACITY_SCALE * @rt_runtime / @rt_period, and less than
 * @capacity units below it.
 */
VISIBLE_IF_KUNIT u128 dl_idle_qos_capacity(unsigned long capacity,
					   u64 rt_runtime, u64 rt_period)
{
	const unsigned int shift = DL_IDLE_QOS_BW_SHIFT - SCHED_CAPACITY_SHIFT;
	u64 cap;

	if (rt_runtime == RUNTIME_INF)
		return (u128)capacity << shift;
	if (!rt_period)
		return 0;
	/* sched_rt_global_validate() keeps the runtime within the period. */
	cap = mul_u64_u64_div_u64(1ULL << shift, min(rt_runtime, rt_period),
				  rt_period);
	return (u128)capacity * cap;
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_capacity);

/*
 * floor(@n * 2^@shift / @d) for @shift < 64 and @d > 0, saturated at
 * U64_MAX, never above the exact value.  With one 64-bit hardware
 * division: @n is cut to its 64 high bits (rounded down) and @d to its 63
 * high bits (rounded up), the difference going into the power of two.
 * Each cut costs at most 2^-62 of the result ("Fixed point and rounding"
 * in the RST page).
 */
static u64 dlq_scaled_div(u128 n, u128 d, unsigned int shift)
{
	int a = max(0, (int)dlq_fls128(n) - 64);
	int b = max(0, (int)dlq_fls128(d) - 63);
	int e = (int)shift + a - b;
	u64 n64, d64;

	if (e < 0) {
		a -= e;
		e = 0;
	}
	/* @n's 64 bits are at least 2^63 and @d's at most 2^63. */
	if (e >= 64)
		return U64_MAX;
	n64 = a < 128 ? n >> a : 0;
	d64 = (d >> b) + (b && (d & (((u128)1 << b) - 1)));
	/* The quotient needs more than 64 bits. */
	if (e && n64 >> (64 - e) >= d64)
		return U64_MAX;
	return mul_u64_u64_div_u64(n64, 1ULL << e, d64);
}

/**
 * dl_idle_qos_rule2 - the spare-bandwidth bound
 * @capacity:	cap * M (DL_IDLE_QOS_BW_SHIFT fixed point)
 * @reserved:	U, the bandwidth of all tasks and servers (same)
 * @frequency:	sum of 1/P over the tasks (DL_IDLE_QOS_FREQ_SHIFT)
 *
 * Return: (@capacity - @reserved) / @frequency in ns, rounded down, 0
 * without spare bandwidth, DL_IDLE_QOS_NO_LIMIT without tasks (@frequency
 * zero) or beyond 64 bits.
 */
VISIBLE_IF_KUNIT u64 dl_idle_qos_rule2(u128 capacity, u128 reserved,
				       u128 frequency)
{
	if (!frequency)
		return DL_IDLE_QOS_NO_LIMIT;
	if (capacity <= reserved)
		return 0;
	return dlq_scaled_div(capacity - reserved, frequency,
			      DL_IDLE_QOS_FREQ_SHIFT - DL_IDLE_QOS_BW_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_rule2);

/**
 * dl_idle_qos_target_us - the cpu_latency_qos value for a limit
 * @limit_ns:	the limit in ns
 *
 * Return: @limit_ns in us, rounded down, or PM_QOS_DEFAULT_VALUE (no
 * constraint) when that is not below the QoS framework's own default.
 */
VISIBLE_IF_KUNIT s32 dl_idle_qos_target_us(u64 limit_ns)
{
	u64 us = div_u64(limit_ns, NSEC_PER_USEC);

	return us < PM_QOS_CPU_LATENCY_DEFAULT_VALUE ? us : PM_QOS_DEFAULT_VALUE;
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_target_us);

/* One CPU of capacity @capacity, and a BW_SHIFT bandwidth, in our units. */
static u128 dlq_cpus(unsigned long capacity)
{
	return (u128)capacity << (DL_IDLE_QOS_BW_SHIFT - SCHED_CAPACITY_SHIFT);
}

static u128 dlq_bw(u64 bw)
{
	return (u128)bw << (DL_IDLE_QOS_BW_SHIFT - BW_SHIFT);
}

/* Min-heap of entity indices, keyed by their next absolute deadline. */
static void dlq_heap_down(const struct dl_idle_qos_dbf *e, u32 *heap,
			  unsigned int n, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, m = i;

		if (l < n && e[heap[l]].next < e[heap[m]].next)
			m = l;
		if (l + 1 < n && e[heap[l + 1]].next < e[heap[m]].next)
			m = l + 1;
		if (m == i)
			return;
		swap(heap[i], heap[m]);
		i = m;
	}
}

/**
 * dl_idle_qos_demand - the demand-bound limit of the entities of one CPU
 * @e:		the entities (runtime <= deadline <= period, period > 0);
 *		their @next fields are used as scratch
 * @heap:	scratch space for @n indices
 * @n:		number of entities, at least one
 * @capacity:	the CPU's capacity c, SCHED_CAPACITY_SCALE for 1
 * @reserve:	a bandwidth demanded linearly in time (BW_SHIFT fixed point),
 *		the idle reservation
 * @max_points:	the most deadline points to evaluate
 * @limit:	receives the result, in ns
 *
 * Computes floor(min over t in T of (c * t - dbf(t) - @reserve * t)),
 * where dbf(t) = sum of max(0, floor((t - D_i) / P_i) + 1) * C_i and T is
 * the set of absolute deadlines D_i + k * P_i.  With S the smallest D_i -
 * C_i and U = sum C_i / P_i + @reserve < c, every t >= H = (S + sum (P_i -
 * D_i) * C_i / P_i) / (c - U) has c * t - dbf(t) - @reserve * t >= S, since
 * dbf_i(t) <= (t + P_i - D_i) * C_i / P_i; and the value at the deadline
 * D_k of the entity of slack S is at most S (c <= 1).  So the minimum over
 * the points up to H, and S, is the minimum over T.  H is rounded up,
 * every value is exact (s128, in units of 2^-30 ns) and floored once.
 *
 * Return: 0 with *@limit set; -ERANGE when the minimum is negative (the set
 * misses deadlines without any exit latency: dbf(t) > c * t); -E2BIG when
 * there is no entity, U >= c or the points up to H are more than
 * @max_points.
 */
VISIBLE_IF_KUNIT int dl_idle_qos_demand(struct dl_idle_qos_dbf *e, u32 *heap,
					unsigned int n, unsigned long capacity,
					u64 reserve, u64 max_points, u64 *limit)
{
	u128 used = dlq_bw(reserve), cap = dlq_cpus(capacity);
	u128 over = 0, dbf = 0, spare;
	u64 slack = DL_IDLE_QOS_NO_LIMIT, horizon, points = 0;
	s128 val, min;
	unsigned int i;

	BUILD_BUG_ON(BW_SHIFT > 30 || SCHED_CAPACITY_SHIFT > 30);
	if (!n)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		u64 r = e[i].runtime, p = e[i].period, q;

		/* Not a constrained-deadline entity: no bound here. */
		if (!p || r > e[i].deadline || e[i].deadline > p)
			return -E2BIG;
		used += dl_idle_qos_bandwidth(r, p);
		/* ceil((P - D) * C / P) */
		q = mul_u64_u64_div_u64(p - e[i].deadline, r, p);
		over += q + ((u128)q * p != (u128)(p - e[i].deadline) * r);
		slack = min(slack, e[i].deadline - r);
	}
	if (used >= cap)
		return -E2BIG;
	/*
	 * H = (S + over) / (c - U), rounded up, with c - U in 2^-63 units of a
	 * CPU (rounded down, and cut to 64 bits beyond one CPU: a lower H is
	 * never taken); H < 2^63 ns exactly when S + over < c - U.
	 */
	spare = min_t(u128, cap - used, U64_MAX);
	if (over + slack >= spare)
		return -E2BIG;
	horizon = mul_u64_u64_div_u64(over + slack, 1ULL << DL_IDLE_QOS_BW_SHIFT,
				      spare) + 1;
	for (i = 0; i < n; i++) {
		if (e[i].deadline <= horizon)
			points += div64_u64((u64)horizon - e[i].deadline,
					    e[i].period) + 1;
		if (points > max_points)
			return -E2BIG;
		e[i].next = e[i].deadline;
		heap[i] = i;
	}
	for (i = n / 2; i-- > 0;)
		dlq_heap_down(e, heap, n, i);

	min = (s128)slack << 30;
	while (e[heap[0]].next <= horizon) {
		u64 t = e[heap[0]].next;

		/* Every job with its deadline at t, then the value at t. */
		do {
			dbf += e[heap[0]].runtime;
			e[heap[0]].next += e[heap[0]].period;
			dlq_heap_down(e, heap, n, 0);
		} while (e[heap[0]].next == t);
		val = (s128)(((u128)t * capacity) << (30 - SCHED_CAPACITY_SHIFT)) -
		      (s128)(((u128)t * reserve) << (30 - BW_SHIFT)) -
		      (s128)(dbf << 30);
		if (val < 0)
			return -ERANGE;
		if (val < min)
			min = val;
	}
	*limit = (u64)(min >> 30);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_demand);

/* ---- The sums and the limits ---- */

static u64 dlq_slack(const struct dl_idle_qos_node *node)
{
	return node->deadline - node->runtime;
}

static bool dlq_slack_less(struct rb_node *a, const struct rb_node *b)
{
	return dlq_slack(rb_entry(a, struct dl_idle_qos_node, slack_node)) <
	       dlq_slack(rb_entry(b, struct dl_idle_qos_node, slack_node));
}

static bool dlq_deadline_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct dl_idle_qos_node, deadline_node)->deadline <
	       rb_entry(b, struct dl_idle_qos_node, deadline_node)->deadline;
}

/* The smallest slack of a domain's tasks, DL_IDLE_QOS_NO_LIMIT with none. */
static u64 dlq_domain_slack(const struct dl_idle_qos_domain *d)
{
	struct rb_node *first = rb_first_cached(&d->slack_tree);

	if (!first)
		return DL_IDLE_QOS_NO_LIMIT;
	return dlq_slack(rb_entry(first, struct dl_idle_qos_node, slack_node));
}

static struct dl_idle_qos_domain *dlq_domain_of(struct rb_node *node)
{
	return rb_entry(node, struct dl_idle_qos_domain, node);
}

static bool dlq_live_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct dl_idle_qos_domain, node)->limit_ns <
	       rb_entry(b, struct dl_idle_qos_domain, node)->limit_ns;
}

static bool dlq_stray_less(struct rb_node *a, const struct rb_node *b)
{
	return dlq_domain_slack(rb_entry(a, struct dl_idle_qos_domain, node)) <
	       dlq_domain_slack(rb_entry(b, struct dl_idle_qos_domain, node));
}

/* The domain whose sums a root domain's entities are accounted in. */
static struct dl_idle_qos_domain *dlq_domain(struct root_domain *rd)
{
	return rd ? &rd->idle_qos : &dlq.orphans;
}

/* Rule 1 over the stray tasks. */
static u64 dlq_stray_slack(void)
{
	struct rb_node *first = rb_first_cached(&dlq.stray);

	return first ? dlq_domain_slack(dlq_domain_of(first)) :
		       DL_IDLE_QOS_NO_LIMIT;
}

/* U of a live domain: its own reservations and every stray task's. */
static u128 dlq_domain_reserved(const struct dl_idle_qos_domain *d)
{
	/* BW_SHIFT fixed point, rounded up already: exact in our units. */
	return d->task_bw + d->server_bw + dlq_bw(dlq.reserve) * d->nr_cpus +
	       dlq.stray_bw;
}

/* cap * M_d: when M_d or the admission parameters change. */
static void dlq_domain_capacity(struct dl_idle_qos_domain *d)
{
	d->capacity = dl_idle_qos_capacity(d->cpu_capacity, dlq.rt_runtime,
					   dlq.rt_period);
}

/*
 * The entities of domain @d may demand more than when its demand_ns was
 * computed: that value is no longer safe.
 */
static void dlq_demand_grew(struct dl_idle_qos_domain *d)
{
	d->demand_ok = false;
	d->demand_grown++;
}

/*
 * Whether the demand rule bounds live domain @d: one online CPU, on which
 * EDF is exact, and only entities the proof covers (see "The demand rule"
 * in Documentation/scheduler/sched-deadline-idle.rst).
 */
static bool dlq_demand_applies(const struct dl_idle_qos_domain *d)
{
	return dlq.rule2_mode == DLQ_RULE2_DEMAND && d->nr_cpus == 1 &&
	       d->nr_tasks && !d->nr_reclaim && !dlq.stray_tasks;
}

/**
 * dl_idle_qos_demand_bound - the O(1) bound of the demand rule
 * @dmin:	the smallest relative deadline of the entities, ns
 * @density:	sum of C_i / D_i over them (DL_IDLE_QOS_BW_SHIFT fixed point)
 * @capacity:	the CPU's capacity c, SCHED_CAPACITY_SCALE for 1
 * @reserve:	the linear demand r (BW_SHIFT fixed point)
 *
 * dbf(t) <= t * sum(C_i / D_i) for constrained deadlines, so c * t -
 * dbf(t) - r * t >= @dmin * (c - sum(C_i / D_i) - r) at every deadline
 * point t >= @dmin.
 *
 * Return: that bound in ns, rounded down; 0 when it is not positive.
 */
VISIBLE_IF_KUNIT u64 dl_idle_qos_demand_bound(u64 dmin, u128 density,
					      unsigned long capacity,
					      u64 reserve)
{
	u128 cap = dlq_cpus(capacity), used = density + dlq_bw(reserve);

	if (cap <= used)
		return 0;
	/* c <= 1 on one CPU; anything above one CPU is left out (lower). */
	return mul_u64_u64_div_u64(dmin, min_t(u128, cap - used,
					       1ULL << DL_IDLE_QOS_BW_SHIFT),
				   1ULL << DL_IDLE_QOS_BW_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(dl_idle_qos_demand_bound);

/* The O(1) demand bound of a one-CPU domain, in the hooks. */
static u64 dlq_demand_bound(const struct dl_idle_qos_domain *d)
{
	struct rb_node *first = rb_first_cached(&d->deadline_tree);

	if (!first)
		return 0;
	return dl_idle_qos_demand_bound(rb_entry(first, struct dl_idle_qos_node,
						 deadline_node)->deadline,
					d->density, d->cpu_capacity,
					dlq.reserve);
}

/* The limit of a live domain from its rules, and its target. */
static void dlq_domain_limit(struct dl_idle_qos_domain *d)
{
	u64 limit = min(d->rule1_ns, d->rule2_ns);
	s32 target;

	if (dlq.rule2_mode == DLQ_RULE2_OFF)
		limit = d->rule1_ns;
	else if (d->demand_state != DL_IDLE_QOS_DEMAND_NA &&
		 d->demand_state != DL_IDLE_QOS_DEMAND_INFEASIBLE)
		limit = min(d->rule1_ns, d->demand_ns);
	WRITE_ONCE(d->limit_ns, limit);
	target = dl_idle_qos_target_us(limit);
	if (target != d->target_us) {
		d->target_us = target;
		dlq.cpus_changed = true;
	}
}

/*
 * A live domain's limit, with the stray tasks in it, after a change.  In
 * demand mode a one-CPU domain takes the O(1) bound at once, or keeps its
 * value when nothing was added (the old value stays safe when demand only
 * went down), and asks for the exact value (dlq_demand_work()).
 */
static void dlq_domain_compute(struct dl_idle_qos_domain *d)
{
	d->rule1_ns = min(dlq_domain_slack(d), dlq_stray_slack());
	d->rule2_ns = dl_idle_qos_rule2(d->capacity, dlq_domain_reserved(d),
					d->frequency + dlq.stray_frequency);
	d->demand_gen++;
	if (dlq_demand_applies(d)) {
		u64 bound = dlq_demand_bound(d);

		if (!d->demand_ok || d->demand_state ==
				     DL_IDLE_QOS_DEMAND_INFEASIBLE)
			d->demand_ns = bound;
		else
			d->demand_ns = max(d->demand_ns, bound);
		d->demand_ok = true;
		d->demand_state = DL_IDLE_QOS_DEMAND_BOUND;
		d->demand_pending = true;
		dlq.demand_pending = true;
	} else {
		d->demand_ok = false;
		d->demand_state = DL_IDLE_QOS_DEMAND_NA;
		d->demand_ns = DL_IDLE_QOS_NO_LIMIT;
		d->demand_pending = false;
	}
	dlq_domain_limit(d);
}

/*
 * Take a domain out of the tree it is in, before its sums change; a stray
 * domain's tasks leave the stray sums, and every live domain is then to be
 * recomputed.
 */
static void dlq_unqueue(struct dl_idle_qos_domain *d)
{
	switch (d->queue) {
	case DL_IDLE_QOS_DOMAIN_LIVE:
		rb_erase_cached(&d->node, &dlq.live);
		dlq.nr_domains--;
		break;
	case DL_IDLE_QOS_DOMAIN_STRAY:
		rb_erase_cached(&d->node, &dlq.stray);
		dlq.stray_tasks -= d->nr_tasks;
		dlq.stray_frequency -= d->frequency;
		dlq.stray_bw -= d->task_bw;
		dlq.recompute = true;
		break;
	}
	d->queue = 0;
}

/*
 * Put a domain back after its sums changed: live if it has online CPUs,
 * stray if it has tasks but no online CPU (its tasks then run elsewhere
 * and count in every live domain), in neither tree otherwise.
 */
static void dlq_queue(struct dl_idle_qos_domain *d)
{
	lockdep_assert_held(&dlq.lock);

	if (d->nr_cpus) {
		dlq_domain_compute(d);
		rb_add_cached(&d->node, &dlq.live, dlq_live_less);
		d->queue = DL_IDLE_QOS_DOMAIN_LIVE;
		dlq.nr_domains++;
	} else if (d->nr_tasks) {
		rb_add_cached(&d->node, &dlq.stray, dlq_stray_less);
		d->queue = DL_IDLE_QOS_DOMAIN_STRAY;
		dlq.stray_tasks += d->nr_tasks;
		dlq.stray_frequency += d->frequency;
		dlq.stray_bw += d->task_bw;
		dlq.recompute = true;
	}
}

/*
 * Recompute every live domain, capacity included (the admission parameters
 * may have changed): O(nr_domains * log(nr_domains)).
 */
static void dlq_recompute_live(void)
{
	struct rb_root_cached live = RB_ROOT_CACHED;
	struct rb_node *node;

	while ((node = rb_first_cached(&dlq.live))) {
		rb_erase_cached(node, &dlq.live);
		dlq_domain_capacity(dlq_domain_of(node));
		/* The mode or the idle reservation may have changed. */
		dlq_demand_grew(dlq_domain_of(node));
		dlq_domain_compute(dlq_domain_of(node));
		rb_add_cached(node, &live, dlq_live_less);
	}
	dlq.live = live;
	dlq.recompute = false;
}

/*
 * Add a task's terms to the sums of domain @d, and take them out again.
 * The domain must be out of its tree meanwhile (dlq_unqueue()), since its
 * limit, the tree's key, changes with them.
 */
static void dlq_link_task(struct dl_idle_qos_node *node,
			  struct dl_idle_qos_domain *d)
{
	u64 frequency = dl_idle_qos_frequency(node->period);
	u64 bw = dl_idle_qos_bandwidth(node->runtime, node->period);

	rb_add_cached(&node->slack_node, &d->slack_tree, dlq_slack_less);
	rb_add_cached(&node->deadline_node, &d->deadline_tree,
		      dlq_deadline_less);
	d->nr_tasks++;
	d->nr_reclaim += node->reclaim;
	d->task_bw += bw;
	d->frequency += frequency;
	d->density += dl_idle_qos_bandwidth(node->runtime, node->deadline);
	dlq_demand_grew(d);
	dlq.nr_tasks++;
	dlq.task_bw += bw;
	dlq.frequency += frequency;
	node->kind = DL_IDLE_QOS_TASK;
	node->domain = d;
}

static void dlq_unlink_task(struct dl_idle_qos_node *node)
{
	struct dl_idle_qos_domain *d = node->domain;
	u64 frequency, bw;

	if (node->kind != DL_IDLE_QOS_TASK)
		return;
	frequency = dl_idle_qos_frequency(node->period);
	bw = dl_idle_qos_bandwidth(node->runtime, node->period);
	rb_erase_cached(&node->slack_node, &d->slack_tree);
	RB_CLEAR_NODE(&node->slack_node);
	rb_erase_cached(&node->deadline_node, &d->deadline_tree);
	RB_CLEAR_NODE(&node->deadline_node);
	d->nr_tasks--;
	d->nr_reclaim -= node->reclaim;
	d->task_bw -= bw;
	d->frequency -= frequency;
	d->density -= dl_idle_qos_bandwidth(node->runtime, node->deadline);
	dlq.nr_tasks--;
	dlq.task_bw -= bw;
	dlq.frequency -= frequency;
	node->kind = DL_IDLE_QOS_NONE;
	node->domain = NULL;
}

static void dlq_add_task(struct dl_idle_qos_node *node,
			 struct dl_idle_qos_domain *d)
{
	lockdep_assert_held(&dlq.lock);

	dlq_unqueue(d);
	dlq_link_task(node, d);
	dlq_queue(d);
}

static void dlq_remove_task(struct dl_idle_qos_node *node)
{
	struct dl_idle_qos_domain *d = node->domain;

	lockdep_assert_held(&dlq.lock);

	if (node->kind != DL_IDLE_QOS_TASK)
		return;
	dlq_unqueue(d);
	dlq_unlink_task(node);
	dlq_queue(d);
}

static void dlq_add_server(struct dl_idle_qos_node *node,
			   const struct sched_dl_entity *dl_se,
			   struct dl_idle_qos_domain *d)
{
	u64 bw;

	lockdep_assert_held(&dlq.lock);

	node->runtime = dl_se->dl_runtime;
	node->deadline = dl_se->dl_deadline;
	node->period = dl_se->dl_period;
	bw = dl_idle_qos_bandwidth(node->runtime, node->period);
	dlq_unqueue(d);
	d->server_bw += bw;
	d->density += dl_idle_qos_bandwidth(node->runtime, node->deadline);
	d->nr_servers++;
	rb_add_cached(&node->deadline_node, &d->deadline_tree,
		      dlq_deadline_less);
	dlq_demand_grew(d);
	dlq_queue(d);
	dlq.server_bw += bw;
	node->kind = DL_IDLE_QOS_SERVER;
	node->domain = d;
}

static void dlq_remove_server(struct dl_idle_qos_node *node)
{
	struct dl_idle_qos_domain *d = node->domain;
	u64 bw;

	lockdep_assert_held(&dlq.lock);

	if (node->kind != DL_IDLE_QOS_SERVER)
		return;
	bw = dl_idle_qos_bandwidth(node->runtime, node->period);
	dlq_unqueue(d);
	d->server_bw -= bw;
	d->density -= dl_idle_qos_bandwidth(node->runtime, node->deadline);
	d->nr_servers--;
	rb_erase_cached(&node->deadline_node, &d->deadline_tree);
	RB_CLEAR_NODE(&node->deadline_node);
	dlq_queue(d);
	dlq.server_bw -= bw;
	node->kind = DL_IDLE_QOS_NONE;
	node->domain = NULL;
}

/*
 * Take the admission parameters in force.  Only after sched_dl_do_global()
 * (and at init, before user space can write them): while a write to the
 * sysctls is being validated they hold values that may be refused.
 */
static void dlq_take_bw_params(void)
{
	lockdep_assert_held(&dlq.lock);

	dlq.rt_runtime = global_rt_runtime();
	dlq.rt_period = global_rt_period();
	dlq.reserve = global_dl_idle_reserve_bw();
	dlq.bw_valid = true;
	dlq.recompute = true;
}

/* U machine-wide, for the state view. */
static u128 dlq_reserved(void)
{
	return dlq.task_bw + dlq.server_bw + dlq_bw(dlq.reserve) * dlq.nr_cpus;
}

/* Fixed point to parts per billion, for the tracepoint and the state view. */
static u64 dlq_ppb(u128 x)
{
	const unsigned int cut = DL_IDLE_QOS_BW_SHIFT - 40;

	/* Up to 2^(64 + cut) units: 2^23 CPUs; floored twice, at most 1 ppb. */
	return mul_u64_u64_div_u64(min_t(u128, x >> cut, U64_MAX),
				   NSEC_PER_SEC, 1ULL << 40);
}

/*
 * Bring the limits up to date after a change and take the smallest.
 * Returns true when the value to publish changed.
 */
static bool dlq_refresh_limit(void)
{
	struct rb_node *first;
	struct dl_idle_qos_domain *d = NULL;
	u64 rule1, rule2, limit;
	u128 reserved = 0, capacity = 0;
	s32 target;
	bool publish, cpus;

	lockdep_assert_held(&dlq.lock);

	if (dlq.recompute)
		dlq_recompute_live();
	/* A per-CPU request changes: publish, whatever the global limit does. */
	cpus = dlq.cpus_changed;
	dlq.cpus_changed = false;
	first = rb_first_cached(&dlq.live);
	if (first) {
		d = dlq_domain_of(first);
		rule1 = d->rule1_ns;
		rule2 = d->rule2_ns;
		limit = d->limit_ns;
		reserved = dlq_domain_reserved(d);
		capacity = d->capacity;
	} else {
		/* No online CPU accounted yet: stray tasks have no room. */
		rule1 = dlq_stray_slack();
		rule2 = dlq.stray_tasks ? 0 : DL_IDLE_QOS_NO_LIMIT;
		limit = dlq.rule2_mode == DLQ_RULE2_OFF ? rule1 :
			min(rule1, rule2);
	}
	target = dl_idle_qos_target_us(limit);

	if (rule1 == dlq.rule1_ns && rule2 == dlq.rule2_ns &&
	    limit == dlq.limit_ns && dlq.nr_tasks == dlq.nr_traced)
		return cpus;

	publish = target != dlq.target_us || cpus;
	dlq.rule1_ns = rule1;
	dlq.rule2_ns = rule2;
	dlq.nr_traced = dlq.nr_tasks;
	WRITE_ONCE(dlq.limit_ns, limit);
	WRITE_ONCE(dlq.target_us, target);
	/* The arguments cost two divisions: only when tracing. */
	if (trace_dl_idle_qos_limit_enabled())
		trace_dl_idle_qos_limit(rule1, rule2, limit, dlq.nr_tasks,
					dlq_ppb(reserved), dlq_ppb(capacity),
					target);
	return publish;
}

/*
 * dlq_refresh_limit() for the hooks: true also while a domain's exact
 * demand-bound limit is to be computed, so that they kick its work.
 */
static bool dlq_update_limit(void)
{
	bool publish = dlq_refresh_limit();

	/* Read and cleared by dlq_irq_workfn(), raised after this. */
	if (publish)
		WRITE_ONCE(dlq_publish_wanted, true);
	return publish || dlq.demand_pending;
}

/* ---- Publication ---- */

/*
 * The resume latency request of @cpu's device: @target, or none.  A CPU
 * whose constraint became tighter is woken up if idle, so that it selects
 * its state again, as the global request does for every CPU.
 */
static void dlq_publish_cpu(int cpu, s32 target)
{
	struct dev_pm_qos_request *req = per_cpu_ptr(&dlq_cpu_request, cpu);
	s32 *published = per_cpu_ptr(&dlq_cpu_published, cpu);
	struct device *dev;
	int ret;

	lockdep_assert_held(&dlq_publish_lock);

	if (!IS_ENABLED(CONFIG_PM) || target == *published)
		return;
	if (target == PM_QOS_DEFAULT_VALUE) {
		if (dev_pm_qos_request_active(req))
			dev_pm_qos_remove_request(req);
		*published = target;
		return;
	}
	if (dev_pm_qos_request_active(req)) {
		ret = dev_pm_qos_update_request(req, target);
	} else {
		dev = get_cpu_device(cpu);
		if (!dev)
			return;
		ret = dev_pm_qos_add_request(dev, req,
					     DEV_PM_QOS_RESUME_LATENCY, target);
	}
	if (ret < 0)
		return;
	if (*published == PM_QOS_DEFAULT_VALUE || target < *published) {
		/* As wake_up_all_idle_cpus(): an offline CPU is not woken. */
		preempt_disable();
		if (cpu_online(cpu))
			wake_up_if_idle(cpu);
		preempt_enable();
	}
	*published = target;
}

static void dlq_publish(void)
{
	bool enabled = READ_ONCE(dlq_enabled);
	s32 target;
	int cpu;

	guard(mutex)(&dlq_publish_lock);

	/* Each CPU: the limit of its root domain ("Locking and publication"). */
	for_each_possible_cpu(cpu)
		dlq_publish_cpu(cpu, enabled ?
			dl_idle_qos_target_us(dl_idle_qos_cpu_limit_ns(cpu)) :
			PM_QOS_DEFAULT_VALUE);

	/*
	 * The whole machine: the smallest limit, unless the dlqos governor,
	 * which reads each CPU's own limit, drives the idle states.
	 */
	target = READ_ONCE(dlq.target_us);
	if (!enabled || atomic_read(&dlq_governed)) {
		if (cpu_latency_qos_request_active(&dlq_request))
			cpu_latency_qos_remove_request(&dlq_request);
		dlq_published = PM_QOS_DEFAULT_VALUE;
		return;
	}
	if (cpu_latency_qos_request_active(&dlq_request))
		cpu_latency_qos_update_request(&dlq_request, target);
	else
		cpu_latency_qos_add_request(&dlq_request, target);
	dlq_published = target;
}

/*
 * The publication runs in a SCHED_FIFO kthread worker (dlq_worker), the
 * exact demand-bound computation in a work item (dlq_demand_item), which
 * the state view does not wait for: see "Locking and publication" in the
 * RST page.
 */
static struct kthread_worker *dlq_worker;
static void dlq_publish_workfn(struct kthread_work *work);
static DEFINE_KTHREAD_WORK(dlq_publish_work, dlq_publish_workfn);
static void dlq_demand_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(dlq_demand_item, dlq_demand_workfn);

/*
 * Publish soon; any context but under the hooks' locks (waking the worker
 * takes an rq lock): the hooks raise dlq_irq_work instead.
 */
static void dlq_queue_publish(void)
{
	/* Pairs with the release in dl_idle_qos_init(): dlq_worker is set. */
	if (smp_load_acquire(&dlq_ready))
		kthread_queue_work(dlq_worker, &dlq_publish_work);
}

/*
 * Compute the pending exact demand-bound limits after DLQ_DEMAND_DELAY, as
 * dlq_queue_publish(): the changes made meanwhile (a burst of admissions)
 * share one computation, their domains keeping the O(1) bound until then.
 */
static void dlq_queue_demand(void)
{
	if (READ_ONCE(dlq.demand_pending) && READ_ONCE(dlq_ready))
		queue_delayed_work(system_unbound_wq, &dlq_demand_item,
				   DLQ_DEMAND_DELAY);
}

/*
 * Compute the exact demand-bound limit of the one-CPU domains that ask for
 * it, outside the scheduler's locks.  A snapshot of a domain's entities is
 * taken under dlq.lock, the minimum computed without it, and installed if
 * nothing was added to the domain meanwhile: until then the domain keeps
 * its O(1) bound, which is safe on its own.  If only demand was removed,
 * the snapshot's value is still safe and is taken if larger.  Process
 * context.  Returns true when an installed value changed what is to be
 * published.
 */
static bool dlq_demand_work(void)
{
	struct dl_idle_qos_dbf *e = NULL;
	unsigned int size = 0, rounds;
	bool publish = false;
	unsigned long flags;
	u32 *heap = NULL;

	for (rounds = 0; rounds < 64; rounds++) {
		struct dl_idle_qos_domain *d = NULL;
		struct rb_node *node;
		u64 gen, grown, token, reserve, limit = 0;
		unsigned long capacity;
		unsigned int n, i = 0;
		int ret;

		raw_spin_lock_irqsave(&dlq.lock, flags);
		for (node = rb_first_cached(&dlq.live); node; node = rb_next(node)) {
			if (dlq_domain_of(node)->demand_pending) {
				d = dlq_domain_of(node);
				break;
			}
		}
		if (!d) {
			dlq.demand_pending = false;
			raw_spin_unlock_irqrestore(&dlq.lock, flags);
			break;
		}
		n = d->nr_tasks + d->nr_servers;
		if (n > size) {
			raw_spin_unlock_irqrestore(&dlq.lock, flags);
			kvfree(e);
			kvfree(heap);
			size = n + 16;
			e = kvmalloc_array(size, sizeof(*e), GFP_KERNEL);
			heap = kvmalloc_array(size, sizeof(*heap), GFP_KERNEL);
			if (!e || !heap)
				break;
			continue;
		}
		for (node = rb_first_cached(&d->deadline_tree); node && i < n;
		     node = rb_next(node), i++) {
			struct dl_idle_qos_node *en;

			en = rb_entry(node, struct dl_idle_qos_node,
				      deadline_node);
			e[i].runtime = en->runtime;
			e[i].deadline = en->deadline;
			e[i].period = en->period;
		}
		/* The tree holds the counted entities; if not, keep the bound. */
		if (WARN_ON_ONCE(node || i != n)) {
			d->demand_pending = false;
			raw_spin_unlock_irqrestore(&dlq.lock, flags);
			continue;
		}
		d->demand_pending = false;
		gen = d->demand_gen;
		grown = d->demand_grown;
		token = ++dlq.demand_token;
		d->demand_token = token;
		capacity = d->cpu_capacity;
		reserve = dlq.reserve;
		raw_spin_unlock_irqrestore(&dlq.lock, flags);

		ret = dl_idle_qos_demand(e, heap, n, capacity, reserve,
					 DLQ_DEMAND_MAX_POINTS, &limit);

		raw_spin_lock_irqsave(&dlq.lock, flags);
		/* @d may be gone: compare pointers before looking at it. */
		for (node = rb_first_cached(&dlq.live); node; node = rb_next(node))
			if (dlq_domain_of(node) == d)
				break;
		if (node && d->demand_token == token && d->demand_ok &&
		    d->demand_grown == grown && dlq_demand_applies(d)) {
			bool exact = d->demand_gen == gen;

			rb_erase_cached(&d->node, &dlq.live);
			if (!ret) {
				d->demand_ns = max(d->demand_ns, limit);
				if (exact)
					d->demand_state = DL_IDLE_QOS_DEMAND_EXACT;
			} else if (exact) {
				d->demand_state = ret == -ERANGE ?
						  DL_IDLE_QOS_DEMAND_INFEASIBLE :
						  DL_IDLE_QOS_DEMAND_BUDGET;
				if (ret == -ERANGE)
					d->demand_ns = 0;
			}
			dlq_domain_limit(d);
			rb_add_cached(&d->node, &dlq.live, dlq_live_less);
			publish |= dlq_refresh_limit();
		}
		raw_spin_unlock_irqrestore(&dlq.lock, flags);
	}
	kvfree(e);
	kvfree(heap);
	/* Domains left for later, or an allocation failed: try again. */
	dlq_queue_demand();
	return publish;
}

static void dlq_demand_workfn(struct work_struct *work)
{
	if (dlq_demand_work())
		dlq_queue_publish();
}

static void dlq_publish_workfn(struct kthread_work *work)
{
	dlq_publish();
}

static void dlq_irq_workfn(struct irq_work *work)
{
	/*
	 * Only what a hook asked for: a hook that only started an exact
	 * demand computation does not wake the publication kthread.
	 */
	if (xchg(&dlq_publish_wanted, false))
		dlq_queue_publish();
	dlq_queue_demand();
}

/*
 * Hard ("Locking and publication" in the RST page): rq_offline_dl()
 * raises it on the CPU going offline, whose irq_work thread (PREEMPT_RT)
 * may be parked before it runs.
 */
static struct irq_work dlq_irq_work = IRQ_WORK_INIT_HARD(dlq_irq_workfn);

/* Called with the hooks' locks dropped or held: irq_work_queue() is safe. */
static void dlq_kick(bool publish)
{
	if (publish && READ_ONCE(dlq_ready))
		irq_work_queue(&dlq_irq_work);
}

/* ---- Hooks ---- */

/**
 * dl_idle_qos_init_entity - mark a new deadline entity as not accounted
 * @dl_se:	the entity, whose node may hold a copy of its parent's
 *
 * Called from init_dl_entity(), before anything can account the entity.
 */
void dl_idle_qos_init_entity(struct sched_dl_entity *dl_se)
{
	memset(&dl_se->idle_qos, 0, sizeof(dl_se->idle_qos));
	RB_CLEAR_NODE(&dl_se->idle_qos.slack_node);
	RB_CLEAR_NODE(&dl_se->idle_qos.deadline_node);
}

/**
 * dl_idle_qos_task_admit - account a task's new deadline parameters
 * @dl_se:	the task's entity, with its new dl_runtime, dl_deadline and
 *		dl_period already set
 *
 * Called from __setparam_dl() under the task's rq lock, after admission
 * control accepted the parameters in the root domain of the task's CPU;
 * replaces what the task contributed before, if anything, and accounts it
 * in that root domain.
 */
void dl_idle_qos_task_admit(struct sched_dl_entity *dl_se)
{
	struct dl_idle_qos_node *node = &dl_se->idle_qos;
	struct task_struct *p = container_of(dl_se, struct task_struct, dl);
	struct dl_idle_qos_domain *d;
	unsigned long flags;
	bool publish;

	if (dl_entity_is_special(dl_se))
		return;

	d = dlq_domain(task_rq(p)->rd);

	raw_spin_lock_irqsave(&dlq.lock, flags);
	/*
	 * A change of parameters in the same domain takes the domain out of
	 * its tree and computes its limit once, not once per removal and
	 * once per addition.
	 */
	if (node->domain != d)
		dlq_remove_task(node);
	dlq_unqueue(d);
	dlq_unlink_task(node);
	node->runtime = dl_se->dl_runtime;
	node->deadline = dl_se->dl_deadline;
	node->period = dl_se->dl_period;
	node->reclaim = !!(dl_se->flags & SCHED_FLAG_RECLAIM);
	dlq_link_task(node, d);
	dlq_queue(d);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_task_release - remove what a task contributes
 * @dl_se:	the task's entity
 *
 * Called from __dl_clear_params() under the task's rq lock, when the
 * deadline class releases the task's bandwidth.  Does nothing if the entity
 * is not accounted.
 */
void dl_idle_qos_task_release(struct sched_dl_entity *dl_se)
{
	unsigned long flags;
	bool publish;

	if (dl_se->idle_qos.kind != DL_IDLE_QOS_TASK)
		return;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	dlq_remove_task(&dl_se->idle_qos);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_task_move - account a task in another root domain
 * @dl_se:	the task's entity
 * @rd:		the root domain its bandwidth was moved to, NULL if none
 *
 * Called under the task's rq lock wherever the deadline class moves a
 * task's bandwidth between root domains: dl_add_task_root_domain() (after
 * a rebuild), set_cpus_allowed_dl() (to an exclusive cpuset) and
 * dl_task_offline_migration().  Does nothing if the entity is not
 * accounted or already accounted in @rd.  A task without a root domain
 * counts in every one.
 */
void dl_idle_qos_task_move(struct sched_dl_entity *dl_se,
			   struct root_domain *rd)
{
	struct dl_idle_qos_node *node = &dl_se->idle_qos;
	struct dl_idle_qos_domain *d = dlq_domain(rd);
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	if (node->kind != DL_IDLE_QOS_TASK || node->domain == d) {
		raw_spin_unlock_irqrestore(&dlq.lock, flags);
		return;
	}
	dlq_remove_task(node);
	dlq_add_task(node, d);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_domain_free - forget a root domain that is being freed
 * @rd:		the root domain
 *
 * Called from free_rootdomain(), after an RCU grace period (or before the
 * domain was ever used): no runqueue is attached to @rd, so no online CPU
 * and no DL server is accounted in it.  The tasks still accounted in it,
 * which the rebuild that dropped @rd did not move, become orphans: they
 * count in every root domain, until a hook moves them to their new one.
 * O(n log n) in the number of such tasks.
 */
void dl_idle_qos_domain_free(struct root_domain *rd)
{
	struct dl_idle_qos_domain *d = &rd->idle_qos;
	struct dl_idle_qos_domain *o = &dlq.orphans;
	struct rb_node *node;
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	WARN_ON_ONCE(d->nr_cpus || d->server_bw);
	dlq_unqueue(d);
	if (!d->nr_tasks) {
		raw_spin_unlock_irqrestore(&dlq.lock, flags);
		return;
	}
	dlq_unqueue(o);
	while ((node = rb_first_cached(&d->slack_tree))) {
		rb_erase_cached(node, &d->slack_tree);
		rb_add_cached(node, &o->slack_tree, dlq_slack_less);
		rb_entry(node, struct dl_idle_qos_node, slack_node)->domain = o;
	}
	while ((node = rb_first_cached(&d->deadline_tree))) {
		rb_erase_cached(node, &d->deadline_tree);
		rb_add_cached(node, &o->deadline_tree, dlq_deadline_less);
	}
	o->nr_tasks += d->nr_tasks;
	o->nr_reclaim += d->nr_reclaim;
	o->frequency += d->frequency;
	o->task_bw += d->task_bw;
	o->density += d->density;
	d->nr_tasks = 0;
	d->nr_reclaim = 0;
	d->frequency = 0;
	d->task_bw = 0;
	d->density = 0;
	dlq_queue(o);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_server_update - account a DL server's new parameters
 * @dl_se:	the server, with its new dl_runtime and dl_period set
 * @cpu:	the server's CPU
 *
 * Called from dl_server_apply_params() under the CPU's rq lock.  The
 * server's bandwidth counts in U of the CPU's root domain while the CPU is
 * online.
 */
void dl_idle_qos_server_update(struct sched_dl_entity *dl_se, int cpu)
{
	struct dl_idle_qos_cpu *c = &per_cpu(dlq_cpu, cpu);
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	dlq_remove_server(&dl_se->idle_qos);
	if (c->online)
		dlq_add_server(&dl_se->idle_qos, dl_se, c->domain);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_cpu_online - account a CPU's capacity and DL server
 * @cpu:	the CPU whose runqueue went online in its root domain
 *
 * Called from rq_online_dl() under the CPU's rq lock (CPU hotplug,
 * root-domain rebuild): O(log(nr_domains)).
 */
void dl_idle_qos_cpu_online(int cpu)
{
	struct dl_idle_qos_cpu *c = &per_cpu(dlq_cpu, cpu);
	struct sched_dl_entity *server = &cpu_rq(cpu)->fair_server;
	struct dl_idle_qos_domain *d = dlq_domain(cpu_rq(cpu)->rd);
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	if (c->online) {
		raw_spin_unlock_irqrestore(&dlq.lock, flags);
		return;
	}
	if (!dlq.bw_valid)
		dlq_take_bw_params();
	c->online = true;
	c->capacity = arch_scale_cpu_capacity(cpu);
	WRITE_ONCE(c->domain, d);
	dlq.cpus_changed = true;
	dlq.cpu_capacity += c->capacity;
	dlq.nr_cpus++;
	dlq_unqueue(d);
	d->cpu_capacity += c->capacity;
	d->nr_cpus++;
	dlq_domain_capacity(d);
	dlq_queue(d);
	dlq_remove_server(&server->idle_qos);
	/*
	 * At boot the runqueue goes online before fair_server_init(), which
	 * clears the node: a server is accounted once it has parameters
	 * (dl_idle_qos_server_update()).
	 */
	if (server->dl_period)
		dlq_add_server(&server->idle_qos, server, d);
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_cpu_offline - remove a CPU's capacity and DL server
 * @cpu:	the CPU whose runqueue went offline in its root domain
 *
 * Called from rq_offline_dl() under the CPU's rq lock.
 */
void dl_idle_qos_cpu_offline(int cpu)
{
	struct dl_idle_qos_cpu *c = &per_cpu(dlq_cpu, cpu);
	struct dl_idle_qos_domain *d = c->domain;
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	if (!c->online) {
		raw_spin_unlock_irqrestore(&dlq.lock, flags);
		return;
	}
	dlq_remove_server(&cpu_rq(cpu)->fair_server.idle_qos);
	c->online = false;
	dlq.cpu_capacity -= c->capacity;
	dlq.nr_cpus--;
	dlq_unqueue(d);
	d->cpu_capacity -= c->capacity;
	d->nr_cpus--;
	dlq_domain_capacity(d);
	dlq_queue(d);
	WRITE_ONCE(c->domain, NULL);
	dlq.cpus_changed = true;
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_bw_update - follow a change of the admission cap
 *
 * Called from sched_dl_do_global() when sched_rt_runtime_us,
 * sched_rt_period_us or sched_dl_idle_reserve_us changed, after the change
 * was validated, in process context.
 */
void dl_idle_qos_bw_update(void)
{
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	dlq_take_bw_params();
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	dlq_kick(publish);
}

/**
 * dl_idle_qos_enqueue - record the latest start time of an enqueued job
 * @dl_se:	the entity being enqueued, deadline and runtime final
 * @cpu:	the CPU of the runqueue
 * @now:	rq_clock() of that runqueue
 *
 * Called from enqueue_dl_entity() under the rq lock; O(1), no lock taken.
 * See "The live term" in the RST page.
 */
void dl_idle_qos_enqueue(struct sched_dl_entity *dl_se, int cpu, u64 now)
{
	struct dl_idle_qos_cpu *c = per_cpu_ptr(&dlq_cpu, cpu);
	u64 latest_start;

	if (dl_se->dl_server || dl_entity_is_special(dl_se))
		return;

	latest_start = dl_se->deadline - max_t(s64, dl_se->runtime, 0);
	if (!dl_time_before(now, c->expires) ||
	    dl_time_before(latest_start, c->latest_start)) {
		WRITE_ONCE(c->latest_start, latest_start);
		WRITE_ONCE(c->expires, dl_se->deadline);
	}
}

/* ---- Readers ---- */

/**
 * dl_idle_qos_limit_ns - the current limit, without waiting for publication
 *
 * Lockless; the value is the one computed by the last hook that ran.
 *
 * Return: the largest exit latency (ns) the admitted deadline tasks
 * tolerate, DL_IDLE_QOS_NO_LIMIT when no task is admitted.
 */
u64 dl_idle_qos_limit_ns(void)
{
	return READ_ONCE(dlq.limit_ns);
}

/**
 * dl_idle_qos_cpu_limit_ns - the limit of a CPU's root domain
 * @cpu:	the CPU
 *
 * Lockless, like dl_idle_qos_limit_ns().  A root domain is freed an RCU
 * grace period after its last CPU left it, and the CPU's pointer to it is
 * cleared before that.
 *
 * Return: the largest exit latency (ns) the deadline tasks that may run on
 * @cpu tolerate: the limit of the root domain @cpu is online in, with the
 * stray tasks; the smallest limit, dl_idle_qos_limit_ns(), if @cpu is not
 * online in any.
 */
u64 dl_idle_qos_cpu_limit_ns(int cpu)
{
	struct dl_idle_qos_domain *d;

	guard(rcu)();
	d = READ_ONCE(per_cpu(dlq_cpu, cpu).domain);
	return d ? READ_ONCE(d->limit_ns) : READ_ONCE(dlq.limit_ns);
}

/* The global request is published, or withdrawn, when that changes. */
static void dlq_governed_changed(void)
{
	dlq_queue_publish();
}

/**
 * dl_idle_qos_governor_attach - the dlqos governor drives a CPU
 *
 * Called by the dlqos cpuidle governor when it is enabled for a CPU's
 * cpuidle device, in process context.  While it drives any CPU, the global
 * cpu_latency_qos request is withdrawn: the governor bounds each CPU by the
 * limit of its own root domain (dl_idle_qos_cpu_limit_ns()), which the
 * smallest limit, published for every CPU, would override.
 */
void dl_idle_qos_governor_attach(void)
{
	if (atomic_inc_return(&dlq_governed) == 1)
		dlq_governed_changed();
}

/**
 * dl_idle_qos_governor_detach - the dlqos governor stops driving a CPU
 *
 * Called by the dlqos cpuidle governor when it is disabled for a CPU's
 * cpuidle device, in process context.  When it drives no CPU any more, the
 * global request is published again.  Until then, other governors read
 * each CPU's own limit from its resume latency request.
 */
void dl_idle_qos_governor_detach(void)
{
	if (atomic_dec_and_test(&dlq_governed))
		dlq_governed_changed();
}

/**
 * dl_idle_qos_cpu_slack_ns - the live slack of the job recorded on a CPU
 * @cpu:	the CPU
 * @now:	the current time, local_clock()
 *
 * Lockless: the two fields of the record are read separately, and a remote
 * enqueue may update them meanwhile; it then also wakes @cpu up.
 *
 * Return: ns left before the recorded job's latest start time (0 if it
 * passed), or DL_IDLE_QOS_NO_LIMIT when no job is recorded or its deadline
 * passed.
 */
u64 dl_idle_qos_cpu_slack_ns(int cpu, u64 now)
{
	struct dl_idle_qos_cpu *c = per_cpu_ptr(&dlq_cpu, cpu);
	u64 expires = READ_ONCE(c->expires);
	u64 latest_start = READ_ONCE(c->latest_start);

	if (!dl_time_before(now, expires))
		return DL_IDLE_QOS_NO_LIMIT;
	return dl_time_before(now, latest_start) ? latest_start - now : 0;
}

/* ---- User interfaces ---- */

/* A value in ns ("none" for no limit), then @suffix. */
static void dlq_print_value(struct seq_file *m, u64 ns, const char *suffix)
{
	if (ns == DL_IDLE_QOS_NO_LIMIT)
		seq_printf(m, "none%s", suffix);
	else
		seq_printf(m, "%llu%s", ns, suffix);
}

static void dlq_print_ns(struct seq_file *m, const char *name, u64 ns)
{
	seq_printf(m, "%s: ", name);
	dlq_print_value(m, ns, "\n");
}

static void dlq_print_us(struct seq_file *m, const char *name, s32 us)
{
	if (us == PM_QOS_DEFAULT_VALUE)
		seq_printf(m, "%s: none\n", name);
	else
		seq_printf(m, "%s: %d\n", name, us);
}

/*
 * Print @x * @scale / 2^@shift with 9 decimals, truncated (the last digit
 * may be one low); @x * @scale < 2^128, 63 <= @shift < 127.
 */
static void dlq_print_fixed(struct seq_file *m, const char *name, u128 x,
			    u64 scale, unsigned int shift)
{
	u128 y = (x * scale) >> (shift - 63);
	u64 whole = min_t(u128, y >> 63, U64_MAX);
	u64 frac = mul_u64_u64_div_u64((u64)y & (U64_MAX >> 1), NSEC_PER_SEC,
				       1ULL << 63);

	seq_printf(m, "%s: %llu.%09llu\n", name, whole, frac);
}

/* One line per domain, under dlq.lock: the live ones in limit order. */
static void dlq_print_domains(struct seq_file *m)
{
	struct rb_node *node;

	lockdep_assert_held(&dlq.lock);

	for (node = rb_first_cached(&dlq.live); node; node = rb_next(node)) {
		struct dl_idle_qos_domain *d = dlq_domain_of(node);
		struct root_domain *rd;

		rd = container_of(d, struct root_domain, idle_qos);
		seq_printf(m, "domain %*pbl: tasks %u capacity_ppb %llu reserved_ppb %llu rule1_ns ",
			   cpumask_pr_args(rd->span), d->nr_tasks,
			   dlq_ppb(d->capacity), dlq_ppb(dlq_domain_reserved(d)));
		dlq_print_value(m, d->rule1_ns, " rule2_ns ");
		dlq_print_value(m, d->rule2_ns, " limit_ns ");
		dlq_print_value(m, d->limit_ns, " demand_ns ");
		dlq_print_value(m, d->demand_ns, " demand ");
		seq_printf(m, "%s\n", dlq_demand_names[d->demand_state]);
	}
	for (node = rb_first_cached(&dlq.stray); node; node = rb_next(node)) {
		struct dl_idle_qos_domain *d = dlq_domain_of(node);

		seq_printf(m, "stray %s: tasks %u slack_ns %llu\n",
			   d == &dlq.orphans ? "orphans" : "domain", d->nr_tasks,
			   dlq_domain_slack(d));
	}
}

static int dlq_state_show(struct seq_file *m, void *v)
{
	u128 capacity, reserved, task_bw, server_bw, idle_bw, frequency;
	u64 rule1, rule2, limit;
	unsigned int nr_tasks, nr_cpus, nr_domains;
	s32 target, published;
	int rule2_mode;
	unsigned long flags;
	int cpu;

	/*
	 * Let a pending publication complete.  Not the exact demand-bound
	 * computation: its work item runs in a CFS kworker, which SCHED_FIFO
	 * or deadline load holds back for the fair server's budget; a domain
	 * whose exact value is still pending shows its demand state "bound".
	 */
	irq_work_sync(&dlq_irq_work);
	/* Pairs with the release in dl_idle_qos_init(): dlq_worker is set. */
	if (smp_load_acquire(&dlq_ready))
		kthread_flush_work(&dlq_publish_work);
	scoped_guard(mutex, &dlq_publish_lock)
		published = dlq_published;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	nr_tasks = dlq.nr_tasks;
	nr_cpus = dlq.nr_cpus;
	capacity = dl_idle_qos_capacity(dlq.cpu_capacity, dlq.rt_runtime,
					dlq.rt_period);
	nr_domains = dlq.nr_domains;
	reserved = dlq_reserved();
	task_bw = dlq.task_bw;
	server_bw = dlq.server_bw;
	idle_bw = reserved - task_bw - server_bw;
	frequency = dlq.frequency;
	rule1 = dlq.rule1_ns;
	rule2 = dlq.rule2_ns;
	limit = dlq.limit_ns;
	target = dlq.target_us;
	rule2_mode = dlq.rule2_mode;
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	seq_printf(m, "publication: %s\n", READ_ONCE(dlq_enabled) ? "on" : "off");
	seq_printf(m, "rule2: %s\n", dlq_rule2_names[rule2_mode]);
	seq_printf(m, "tasks: %u\n", nr_tasks);
	dlq_print_ns(m, "rule1_ns", rule1);
	dlq_print_ns(m, "rule2_ns", rule2);
	dlq_print_ns(m, "limit_ns", limit);
	dlq_print_us(m, "limit_us", target);
	dlq_print_us(m, "published_us", published);
	seq_printf(m, "cpus: %u\n", nr_cpus);
	dlq_print_fixed(m, "capacity", capacity, 1, DL_IDLE_QOS_BW_SHIFT);
	dlq_print_fixed(m, "reserved", reserved, 1, DL_IDLE_QOS_BW_SHIFT);
	dlq_print_fixed(m, "task_bw", task_bw, 1, DL_IDLE_QOS_BW_SHIFT);
	dlq_print_fixed(m, "server_bw", server_bw, 1, DL_IDLE_QOS_BW_SHIFT);
	dlq_print_fixed(m, "idle_bw", idle_bw, 1, DL_IDLE_QOS_BW_SHIFT);
	/* sum(1/P), from per nanosecond to per second. */
	dlq_print_fixed(m, "frequency_hz", frequency, NSEC_PER_SEC,
			DL_IDLE_QOS_FREQ_SHIFT);
	seq_printf(m, "domains: %u\n", nr_domains);
	raw_spin_lock_irqsave(&dlq.lock, flags);
	dlq_print_domains(m);
	raw_spin_unlock_irqrestore(&dlq.lock, flags);
	seq_printf(m, "dlqos_cpus: %d\n", atomic_read(&dlq_governed));
	for_each_possible_cpu(cpu) {
		struct dl_idle_qos_cpu *c = per_cpu_ptr(&dlq_cpu, cpu);
		u64 slack = dl_idle_qos_cpu_slack_ns(cpu, local_clock());
		struct device *dev = get_cpu_device(cpu);
		s32 effective = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;

		scoped_guard(mutex, &dlq_publish_lock)
			published = per_cpu(dlq_cpu_published, cpu);
		/* What the PM QoS core makes of all the CPU's requests. */
		if (dev)
			effective = dev_pm_qos_read_value(dev, DEV_PM_QOS_RESUME_LATENCY);
		seq_printf(m, "cpu%d: online %d capacity %lu limit_ns ",
			   cpu, READ_ONCE(c->online), READ_ONCE(c->capacity));
		dlq_print_value(m, dl_idle_qos_cpu_limit_ns(cpu), " published_us ");
		if (published == PM_QOS_DEFAULT_VALUE)
			seq_puts(m, "none live_slack_ns ");
		else
			seq_printf(m, "%d live_slack_ns ", published);
		dlq_print_value(m, slack, " effective_us ");
		if (effective == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
			seq_puts(m, "none\n");
		else
			seq_printf(m, "%d\n", effective);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dlq_state);

/*
 * A write must be exactly one value, 0 or 1, optionally surrounded by
 * whitespace, written at offset 0; anything else is refused with -EINVAL
 * and changes nothing (proc_dointvec_minmax() alone accepts an empty write
 * and ignores what follows the first value).
 */
static int dlq_sysctl_handler(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	struct ctl_table tmp = *table;
	size_t len = *lenp;
	int val, ret;

	if (!write)
		return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!len || *ppos)
		return -EINVAL;
	tmp.data = &val;
	ret = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (ret)
		return ret;
	if (*lenp != len)
		return -EINVAL;
	WRITE_ONCE(dlq_enabled, val);
	if (READ_ONCE(dlq_ready))
		dlq_publish();
	return 0;
}

static void dlq_set_rule2_mode(int mode)
{
	unsigned long flags;
	bool publish;

	raw_spin_lock_irqsave(&dlq.lock, flags);
	dlq.rule2_mode = mode;
	dlq.recompute = true;
	publish = dlq_update_limit();
	raw_spin_unlock_irqrestore(&dlq.lock, flags);

	/* Process context: publish now, the write returns with it done. */
	if (publish && READ_ONCE(dlq_ready)) {
		dlq_demand_work();
		dlq_publish();
	}
}

/*
 * Reads give the mode's name; a write must be one name, optionally followed
 * by a newline, at offset 0 and without NUL bytes, or it is refused with
 * -EINVAL and changes nothing.
 */
static int dlq_rule2_sysctl_handler(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	char name[16];
	struct ctl_table tmp = {
		.data	= name,
		.maxlen	= sizeof(name),
	};
	int mode;

	if (!write) {
		mode = READ_ONCE(dlq.rule2_mode);
		strscpy(name, dlq_rule2_names[mode]);
		return proc_dostring(&tmp, write, buffer, lenp, ppos);
	}
	if (!*lenp || *lenp >= sizeof(name) || *ppos ||
	    strnlen(buffer, *lenp) != *lenp)
		return -EINVAL;
	memcpy(name, buffer, *lenp);
	name[*lenp] = '\0';
	mode = sysfs_match_string(dlq_rule2_names, name);
	if (mode < 0)
		return -EINVAL;
	dlq_set_rule2_mode(mode);
	*ppos += *lenp;
	return 0;
}

static struct ctl_table dlq_sysctls[] = {
	{
		.procname	= "sched_dl_idle_qos",
		.data		= &dlq_enabled,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= dlq_sysctl_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "sched_dl_idle_qos_rule2",
		.mode		= 0644,
		.proc_handler	= dlq_rule2_sysctl_handler,
	},
};

static int __init dl_idle_qos_init(void)
{
	struct dentry *dir = debugfs_create_dir("dl_idle_qos", NULL);

	debugfs_create_file("state", 0444, dir, NULL, &dlq_state_fops);
	register_sysctl_init("kernel", dlq_sysctls);

	/*
	 * The publication must not wait for CFS, which SCHED_FIFO and
	 * deadline load starve but for the fair server's budget.
	 */
	dlq_worker = kthread_create_worker(0, "dl_idle_qos");
	if (IS_ERR(dlq_worker))
		return PTR_ERR(dlq_worker);
	sched_set_fifo(dlq_worker->task);

	/* Pairs with the acquires of the readers of dlq_worker. */
	smp_store_release(&dlq_ready, true);
	dlq_demand_work();
	dlq_publish();
	return 0;
}
late_initcall(dl_idle_qos_init);
