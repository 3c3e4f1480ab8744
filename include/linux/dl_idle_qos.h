/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Idle exit latency limit derived from the admitted SCHED_DEADLINE tasks.
 * See kernel/sched/dl_idle_qos.c and Documentation/scheduler/sched-deadline-idle.rst.
 */
#ifndef _LINUX_DL_IDLE_QOS_H
#define _LINUX_DL_IDLE_QOS_H

#include <linux/rbtree_types.h>
#include <linux/limits.h>
#include <linux/types.h>

struct root_domain;
struct sched_dl_entity;
struct dl_idle_qos_domain;

/**
 * struct dl_idle_qos_node - what one deadline entity contributes to the limit
 * @slack_node:	node in the tree of task slacks (tasks only)
 * @deadline_node: node in the tree of relative deadlines (tasks and servers)
 * @runtime:	runtime (ns) the contribution was computed from
 * @deadline:	relative deadline (ns) the contribution was computed from
 * @period:	period (ns) the contribution was computed from
 * @kind:	DL_IDLE_QOS_NONE, _TASK or _SERVER: what is accounted
 * @reclaim:	the task was accounted with SCHED_FLAG_RECLAIM
 * @domain:	the root domain's sums the entity is accounted in
 *
 * Embedded in struct sched_dl_entity.  The parameters are a copy of those
 * in effect when the entity was accounted, so removing it subtracts
 * exactly what was added, whatever happened to the entity since.
 */
struct dl_idle_qos_node {
	struct rb_node			slack_node;
	struct rb_node			deadline_node;
	u64				runtime;
	u64				deadline;
	u64				period;
	unsigned int			kind;
	bool				reclaim;
	struct dl_idle_qos_domain	*domain;
};

#ifdef CONFIG_DL_IDLE_QOS
/**
 * struct dl_idle_qos_domain - what the entities of one root domain reserve
 * @slack_tree:	the domain's tasks, ordered by D - C
 * @deadline_tree: the domain's tasks and DL servers, ordered by D
 * @nr_tasks:	number of tasks accounted in the domain
 * @nr_servers:	number of DL servers accounted in the domain
 * @nr_reclaim:	number of its tasks with SCHED_FLAG_RECLAIM
 * @frequency:	sum of 1/P over the tasks, each term rounded up
 * @task_bw:	sum of C/P over the tasks, each term rounded up
 * @server_bw:	sum of C/P over the DL servers of the domain's online CPUs
 * @density:	sum of C/D over the tasks and servers, each term rounded up
 * @cpu_capacity: capacity of the domain's online CPUs
 * @nr_cpus:	number of the domain's online CPUs
 * @capacity:	cap * M_d, rounded down
 * @rule1_ns:	rule 1 of the domain, stray tasks included
 * @rule2_ns:	rule 2 of the domain, stray tasks included
 * @demand_ns:	the demand rule's value in force (one-CPU domains in demand
 *		mode): the exact value, or a safe bound until it is computed
 * @demand_state: DL_IDLE_QOS_DEMAND_*: what @demand_ns is
 * @demand_ok:	@demand_ns is safe for the entities accounted now
 * @demand_pending: the exact value is to be computed
 * @demand_gen:	count of changes to the domain, of any kind
 * @demand_grown: count of changes that may have added demand
 * @demand_token: identifies the computation in flight for the domain
 * @limit_ns:	the domain's limit: the key of @node in the live tree; read
 *		locklessly by dl_idle_qos_cpu_limit_ns()
 * @target_us:	@limit_ns in microseconds, the value the per-CPU requests of
 *		the domain's CPUs publish
 * @node:	in the live tree (with online CPUs) or the stray tree (with
 *		tasks but no online CPU), or in neither
 * @queue:	DL_IDLE_QOS_DOMAIN_LIVE, _STRAY or 0: where @node is
 *
 * Embedded in struct root_domain, zero-initialised; owned by
 * kernel/sched/dl_idle_qos.c and protected by its lock.
 */
struct dl_idle_qos_domain {
	struct rb_root_cached	slack_tree;
	struct rb_root_cached	deadline_tree;
	unsigned int		nr_tasks;
	unsigned int		nr_servers;
	unsigned int		nr_reclaim;
	u128			frequency;
	u128			task_bw;
	u128			server_bw;
	u128			density;
	unsigned long		cpu_capacity;
	unsigned int		nr_cpus;
	u128			capacity;
	u64			rule1_ns;
	u64			rule2_ns;
	u64			demand_ns;
	unsigned int		demand_state;
	bool			demand_ok;
	bool			demand_pending;
	u64			demand_gen;
	u64			demand_grown;
	u64			demand_token;
	u64			limit_ns;
	s32			target_us;
	struct rb_node		node;
	unsigned int		queue;
};

#define DL_IDLE_QOS_DOMAIN_LIVE		1
#define DL_IDLE_QOS_DOMAIN_STRAY	2

/* What a domain's demand_ns is (the state view names them). */
#define DL_IDLE_QOS_DEMAND_NA		0	/* the rule does not apply */
#define DL_IDLE_QOS_DEMAND_BOUND	1	/* a safe bound, exact pending */
#define DL_IDLE_QOS_DEMAND_EXACT	2	/* the exact value */
#define DL_IDLE_QOS_DEMAND_BUDGET	3	/* too many points: the bound */
#define DL_IDLE_QOS_DEMAND_INFEASIBLE	4	/* dbf exceeds capacity at L = 0 */
#endif

#define DL_IDLE_QOS_NONE	0
#define DL_IDLE_QOS_TASK	1
#define DL_IDLE_QOS_SERVER	2

/* No constraint: the value returned by the readers when no task is admitted. */
#define DL_IDLE_QOS_NO_LIMIT	U64_MAX

#ifdef CONFIG_DL_IDLE_QOS

/* Hooks, called by the deadline class (kernel/sched/deadline.c). */
void dl_idle_qos_init_entity(struct sched_dl_entity *dl_se);
void dl_idle_qos_task_admit(struct sched_dl_entity *dl_se);
void dl_idle_qos_task_release(struct sched_dl_entity *dl_se);
void dl_idle_qos_task_move(struct sched_dl_entity *dl_se,
			   struct root_domain *rd);
void dl_idle_qos_domain_free(struct root_domain *rd);
void dl_idle_qos_server_update(struct sched_dl_entity *dl_se, int cpu);
void dl_idle_qos_cpu_online(int cpu);
void dl_idle_qos_cpu_offline(int cpu);
void dl_idle_qos_bw_update(void);
void dl_idle_qos_enqueue(struct sched_dl_entity *dl_se, int cpu, u64 now);

/* Readers, for cpuidle governors. */
u64 dl_idle_qos_limit_ns(void);
u64 dl_idle_qos_cpu_limit_ns(int cpu);
u64 dl_idle_qos_cpu_slack_ns(int cpu, u64 now);

/* The dlqos governor starts or stops driving a CPU's idle states. */
void dl_idle_qos_governor_attach(void);
void dl_idle_qos_governor_detach(void);

#else /* !CONFIG_DL_IDLE_QOS */

static inline void dl_idle_qos_init_entity(struct sched_dl_entity *dl_se) { }
static inline void dl_idle_qos_task_admit(struct sched_dl_entity *dl_se) { }
static inline void dl_idle_qos_task_release(struct sched_dl_entity *dl_se) { }
static inline void dl_idle_qos_task_move(struct sched_dl_entity *dl_se,
					 struct root_domain *rd) { }
static inline void dl_idle_qos_domain_free(struct root_domain *rd) { }
static inline void dl_idle_qos_server_update(struct sched_dl_entity *dl_se,
					     int cpu) { }
static inline void dl_idle_qos_cpu_online(int cpu) { }
static inline void dl_idle_qos_cpu_offline(int cpu) { }
static inline void dl_idle_qos_bw_update(void) { }
static inline void dl_idle_qos_enqueue(struct sched_dl_entity *dl_se,
				       int cpu, u64 now) { }

static inline u64 dl_idle_qos_limit_ns(void)
{
	return DL_IDLE_QOS_NO_LIMIT;
}

static inline u64 dl_idle_qos_cpu_limit_ns(int cpu)
{
	return DL_IDLE_QOS_NO_LIMIT;
}

static inline u64 dl_idle_qos_cpu_slack_ns(int cpu, u64 now)
{
	return DL_IDLE_QOS_NO_LIMIT;
}

static inline void dl_idle_qos_governor_attach(void) { }
static inline void dl_idle_qos_governor_detach(void) { }

#endif /* CONFIG_DL_IDLE_QOS */

#endif /* _LINUX_DL_IDLE_QOS_H */
