/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's view of the deadline-derived idle latency limit (debugfs
 * dl_idle_qos/state) and an independent exact model of it, shared by
 * limit_test, churn_test and governor_test (gov.demand_tight).
 *
 * For the SCHED_DEADLINE tasks a test admitted (runtime C, deadline D,
 * period P), the fair servers of the online CPUs (read from debugfs), the
 * admission cap (sched_rt_runtime_us / sched_rt_period_us) and the number
 * of online CPUs M, the exact limit is
 *
 *   L* = min(min(D - C), (cap * M - sum(C/P) - sum(servers)) / sum(1/P))
 *
 * computed here in exact rational arithmetic (GMP).  The kernel's limit_ns
 * must be floor(L*) or 1 ns below, and the published value (microseconds)
 * must satisfy published * 1000 <= L* <= (published + 1) * 1000.
 *
 * In rule-2 mode "demand", a root domain with one online CPU, tasks, and
 * no stray task has its rule 2 replaced by the demand bound
 *
 *   L_demand = min over t in T of (c * t - dbf(t) - r * t)
 *   dbf(t)   = sum over i of max(0, floor((t - D_i) / P_i) + 1) * C_i
 *
 * over its tasks and the fair server of its CPU (D = P), T the absolute
 * deadlines D_i + k * P_i, c the CPU's capacity (cpu_capacity / 1024) and
 * r the idle reservation of one CPU; the domain's limit is then
 * min(rule 1, L_demand), unless L_demand < 0 (the set misses even without
 * an exit latency: "infeasible"), where it stays min(rule 1, rule 2).  The
 * model evaluates dbf() by brute force at every deadline up to a horizon
 * beyond which c * t - dbf(t) - r * t cannot go below the smallest slack
 * (exact_domain_demand()), and the kernel's demand_ns must be
 * floor(L_demand) exactly.
 *
 * Include after kselftest_harness.h and dlqos_util.h; link with -lgmp.
 */
#ifndef DLQOS_LIMIT_H
#define DLQOS_LIMIT_H

#include <gmp.h>

#define US		1000ull
#define MS		1000000ull
#define NONE		UINT64_MAX
#define MAX_TASKS	256
#define STATE_FILE	"/sys/kernel/debug/dl_idle_qos/state"
#define SYSCTL		"/proc/sys/kernel/sched_dl_idle_qos"
#define RULE2		"/proc/sys/kernel/sched_dl_idle_qos_rule2"
#define IDLE_RESERVE	"/proc/sys/kernel/sched_dl_idle_reserve_us"
#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define RT_PERIOD	"/proc/sys/kernel/sched_rt_period_us"
#define TRACE		"/sys/kernel/tracing"
#define PM_QOS_DEFAULT	2000000000
#define MAX_DOMAINS	8

/* The kernel's view, from debugfs. */
struct state {
	int publication;
	long tasks;
	uint64_t rule1_ns, rule2_ns, limit_ns;
	long long limit_us, published_us;	/* -1: none */
	char rule2_mode[16];			/* the "rule2:" line */
	long cpus, domains;
	long dlqos_cpus;
	/*
	 * per CPU: the limit of its root domain, its resume latency request,
	 * and the constraint the PM QoS core resolves from all the CPU's
	 * requests (dev_pm_qos_read_value())
	 */
	uint64_t cpu_limit_ns[MAX_CPUS];
	long long cpu_published_us[MAX_CPUS];
	long long cpu_effective_us[MAX_CPUS];
	/*
	 * the "domain CPUS:" lines: CPUs (bit mask), tasks, rules, limit, the
	 * demand bound (NONE: "none") and its state ("n/a", "exact", "bound",
	 * "budget", "infeasible"; "" if the line has no such field)
	 */
	int nr_domain_lines;
	struct domain_state {
		unsigned long long cpus;
		long tasks;
		uint64_t rule1_ns, rule2_ns, limit_ns;
		uint64_t demand_ns;
		char demand[16];
	} domain[MAX_DOMAINS];
	/* the "stray" lines: tasks of domains without CPUs, orphans */
	int nr_stray_lines;
	long stray_tasks;
};

static inline uint64_t parse_u64(const char *v)
{
	return strncmp(v, "none", 4) ? strtoull(v, NULL, 10) : NONE;
}

static inline long long parse_us(const char *v)
{
	return strncmp(v, "none", 4) ? strtoll(v, NULL, 10) : -1;
}

/* A cpulist ("0-1", "1", "0,2-3") as a bit mask; 0 if it cannot be read. */
static inline unsigned long long parse_cpulist(const char *v)
{
	unsigned long long mask = 0;
	int a, b, n;

	while (sscanf(v, "%d%n", &a, &n) == 1) {
		v += n;
		b = a;
		if (*v == '-' && sscanf(v + 1, "%d%n", &b, &n) == 1)
			v += 1 + n;
		for (; a <= b && a < 64; a++)
			mask |= 1ull << a;
		if (*v != ',')
			break;
		v++;
	}
	return mask;
}

/* The per-CPU and per-domain lines of the state view, after "NAME: ". */
#define CPU_LINE	"online %*d capacity %*u limit_ns %31s published_us %31s " \
			"live_slack_ns %*s effective_us %31s"
#define DOMAIN_LINE	"tasks %ld capacity_ppb %*u reserved_ppb %*u " \
			"rule1_ns %31s rule2_ns %31s limit_ns %31s " \
			"demand_ns %31s demand %15s"

static inline int read_state(struct state *s)
{
	FILE *f = fopen(STATE_FILE, "r");
	char line[512], limit[32], published[32], effective[32], *v;
	char r1[32], r2[32], lim[32], dem[32], dem_state[16], cpus[64];
	struct domain_state *ds;
	long tasks;
	int cpu, n;

	if (!f)
		return -errno;
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		*v++ = '\0';
		while (*v == ' ')
			v++;
		if (sscanf(line, "cpu%d", &cpu) == 1 && cpu >= 0 &&
		    cpu < MAX_CPUS &&
		    sscanf(v, CPU_LINE, limit, published, effective) == 3) {
			s->cpu_limit_ns[cpu] = parse_u64(limit);
			s->cpu_published_us[cpu] = parse_us(published);
			s->cpu_effective_us[cpu] = parse_us(effective);
			continue;
		}
		/*
		 * A line without the demand fields still counts as a domain
		 * (its demand state "" then fails the checks by name).
		 */
		n = 0;
		if (sscanf(line, "domain %63s", cpus) == 1 &&
		    s->nr_domain_lines < MAX_DOMAINS)
			n = sscanf(v, DOMAIN_LINE, &tasks, r1, r2, lim, dem,
				   dem_state);
		if (n >= 4) {
			ds = &s->domain[s->nr_domain_lines++];
			ds->cpus = parse_cpulist(cpus);
			ds->tasks = tasks;
			ds->rule1_ns = parse_u64(r1);
			ds->rule2_ns = parse_u64(r2);
			ds->limit_ns = parse_u64(lim);
			ds->demand_ns = n == 6 ? parse_u64(dem) : NONE;
			if (n == 6)
				snprintf(ds->demand, sizeof(ds->demand), "%s",
					 dem_state);
			continue;
		}
		if (!strncmp(line, "stray ", 6) &&
		    sscanf(v, "tasks %ld", &tasks) == 1) {
			s->nr_stray_lines++;
			s->stray_tasks += tasks;
			continue;
		}
		if (!strcmp(line, "publication"))
			s->publication = !strncmp(v, "on", 2);
		else if (!strcmp(line, "rule2"))
			sscanf(v, "%15s", s->rule2_mode);
		else if (!strcmp(line, "tasks"))
			s->tasks = atol(v);
		else if (!strcmp(line, "rule1_ns"))
			s->rule1_ns = parse_u64(v);
		else if (!strcmp(line, "rule2_ns"))
			s->rule2_ns = parse_u64(v);
		else if (!strcmp(line, "limit_ns"))
			s->limit_ns = parse_u64(v);
		else if (!strcmp(line, "limit_us"))
			s->limit_us = parse_us(v);
		else if (!strcmp(line, "published_us"))
			s->published_us = parse_us(v);
		else if (!strcmp(line, "cpus"))
			s->cpus = atol(v);
		else if (!strcmp(line, "domains"))
			s->domains = atol(v);
		else if (!strcmp(line, "dlqos_cpus"))
			s->dlqos_cpus = atol(v);
	}
	fclose(f);
	return 0;
}

/* The value of the cpu_latency_qos constraint, as user space sees it. */
static inline long long read_cpu_dma_latency(void)
{
	int fd = open("/dev/cpu_dma_latency", O_RDONLY);
	int32_t v;

	if (fd < 0)
		return -1;
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = -1;
	close(fd);
	return v;
}

/* What the test admitted, and the independent model of the limit. */
struct task_param {
	uint64_t runtime, deadline, period;
};

/*
 * @dom: the root domain of each task: 0, or 1 for the cpuset partition
 * @cur_dom: the root domain of the tasks the test admits now
 * @domains: 2 while the partition exists (root domain 1: CPU @part_cpu,
 * root domain 0: the other CPUs), 0 or 1: one root domain
 */
struct model {
	struct task_param t[MAX_TASKS];
	struct dl_child c[MAX_TASKS];
	int dom[MAX_TASKS];
	int n;
	int cur_dom;
	int domains, part_cpu;
	/*
	 * the kernel shows stray tasks (check_limit() sets it from the state
	 * view): the demand rule applies to no domain then
	 */
	int strays;
};

static inline int cpu_online(int cpu)
{
	char path[64];

	if (!cpu)
		return 1;
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	return read_ll(path) == 1;
}

/* The fair server of an online CPU: 0 and its parameters (ns), or -1. */
static inline int server_params(int cpu, long long *runtime, long long *period)
{
	char path[128];

	if (!cpu_online(cpu))
		return -1;
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu);
	*runtime = read_ll(path);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/period", cpu);
	*period = read_ll(path);
	return *runtime >= 0 && *period > 0 ? 0 : -1;
}

/* What the fair servers of the online CPUs hold in dl_bw->total_bw. */
static inline long long servers_total_bw(void)
{
	long long sum = 0, r, p;
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!server_params(cpu, &r, &p))
			sum += dl_to_ratio(p, r);
	return sum;
}

static inline int live_tasks(struct model *m)
{
	int i, nr = 0;

	for (i = 0; i < m->n; i++)
		nr += m->c[i].pid > 0;
	return nr;
}

/* sched_dl_idle_reserve_us: 0 and its runtime and period (us), or -1. */
static inline int read_idle_reserve(long long *runtime, long long *period)
{
	char buf[64];

	if (read_file(IDLE_RESERVE, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "%lld %lld", runtime, period) != 2)
		return -1;
	return 0;
}

/*
 * The idle reservation of one CPU (sched_dl_idle_reserve_us) as admission
 * control accounts it: runtime / period rounded up to 2^-20, into q.
 */
static inline void idle_reserve(mpq_t q)
{
	long long r, p;
	mpz_t z;

	if (read_idle_reserve(&r, &p) || r <= 0 || p <= 0) {
		mpq_set_ui(q, 0, 1);
		return;
	}
	mpz_init_set_ui(z, r);
	mpz_mul_2exp(z, z, 20);
	mpz_cdiv_q_ui(z, z, p);
	mpq_set_z(q, z);
	mpq_div_2exp(q, q, 20);
	mpz_clear(z);
}

/* The modes of sched_dl_idle_qos_rule2, and their names. */
enum rule2_mode {
	RULE2_OFF,
	RULE2_BANDWIDTH,
	RULE2_DEMAND,
};

static const char * const rule2_names[] = {
	[RULE2_OFF]		= "off",
	[RULE2_BANDWIDTH]	= "bandwidth",
	[RULE2_DEMAND]		= "demand",
};

/* The mode sched_dl_idle_qos_rule2 shows ("bandwidth" if unreadable). */
static inline enum rule2_mode rule2_mode(void)
{
	char buf[16];
	unsigned int i;

	if (read_file(RULE2, buf, sizeof(buf)))
		return RULE2_BANDWIDTH;
	for (i = 0; i < ARRAY_SIZE(rule2_names); i++)
		if (!strcmp(buf, rule2_names[i]))
			return i;
	return RULE2_BANDWIDTH;
}

/* Whether rule 2 is switched off (sched_dl_idle_qos_rule2 = off). */
static inline int rule2_off(void)
{
	return rule2_mode() == RULE2_OFF;
}

/* Whether @cpu is in root domain @d of the model. */
static inline int in_domain(struct model *m, int cpu, int d)
{
	if (m->domains < 2)
		return d == 0;
	return (cpu == m->part_cpu) == (d == 1);
}

/* The live tasks the model has in root domain @d. */
static inline int domain_tasks(struct model *m, int d)
{
	int i, tasks = 0;

	for (i = 0; i < m->n; i++)
		tasks += m->c[i].pid > 0 && m->dom[i] == d;
	return tasks;
}

/*
 * Exact rules of root domain @d as rationals: rule 1 (the smallest slack
 * D - C) into @rule1, rule 2 ((cap * M - U) / sum(1/P), 0 without spare
 * bandwidth) into @rule2, over the domain's tasks, CPUs, fair servers and
 * idle reservation.  Returns 0 when the domain has no task (no limit).
 */
static inline int exact_domain_rules(struct model *m, int d, mpq_t rule1,
				     mpq_t rule2)
{
	mpq_t spare, freq, term, reserve;
	long long rt_runtime = read_ll(RT_RUNTIME);
	long long rt_period = read_ll(RT_PERIOD);
	long long r, p;
	int i, cpu, cpus = 0;

	if (!domain_tasks(m, d))
		return 0;

	mpq_inits(spare, freq, term, reserve, NULL);
	idle_reserve(reserve);
	/* - fair servers and idle reservation of the online CPUs */
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!in_domain(m, cpu, d) || server_params(cpu, &r, &p))
			continue;
		cpus++;
		mpq_set_ui(term, r, p);
		mpq_canonicalize(term);
		mpq_sub(spare, spare, term);
		mpq_sub(spare, spare, reserve);
	}
	/* + cap * M */
	if (rt_runtime < 0)
		mpq_set_ui(term, cpus, 1);
	else
		mpq_set_ui(term, rt_runtime * cpus, rt_period);
	mpq_canonicalize(term);
	mpq_add(spare, spare, term);
	/* - tasks; rule 1 */
	mpq_set_si(rule1, -1, 1);
	for (i = 0; i < m->n; i++) {
		struct task_param *t = &m->t[i];

		if (m->c[i].pid <= 0 || m->dom[i] != d)
			continue;
		mpq_set_ui(term, t->runtime, t->period);
		mpq_canonicalize(term);
		mpq_sub(spare, spare, term);
		mpq_set_ui(term, 1, t->period);
		mpq_add(freq, freq, term);
		mpq_set_ui(term, t->deadline - t->runtime, 1);
		if (mpq_sgn(rule1) < 0 || mpq_cmp(term, rule1) < 0)
			mpq_set(rule1, term);
	}
	if (mpq_sgn(spare) <= 0)
		mpq_set_ui(rule2, 0, 1);
	else
		mpq_div(rule2, spare, freq);
	mpq_clears(spare, freq, term, reserve, NULL);
	return 1;
}

/*
 * The demand rule (rule-2 mode "demand").  An entity is a task of the
 * domain, or the fair server of its CPU (deadline = period).
 */
struct dbf_entity {
	uint64_t c, d, p;
};

/* Beyond this many deadlines the kernel keeps a safe bound ("budget"). */
#define DEMAND_BUDGET		100000
/* Beyond this many the model gives up (no test set comes near). */
#define DEMAND_MODEL_POINTS	20000000L

/* What exact_domain_demand() found. */
enum demand_result {
	DEMAND_INFEASIBLE = -1,	/* the minimum is negative */
	DEMAND_NA = 0,		/* the rule does not apply */
	DEMAND_EXACT = 1,	/* the minimum, exactly */
	DEMAND_UNKNOWN = 2,	/* too many deadlines for the model */
};

/* dbf(@t), in ns: the runtime of every job due at or before @t. */
static inline uint64_t dbf_at(const struct dbf_entity *e, int n, uint64_t t)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		if (t >= e[i].d)
			sum += ((t - e[i].d) / e[i].p + 1) * e[i].c;
	return sum;
}

/*
 * The capacity of @cpu in CPUs (cpu_capacity / 1024, 1 where sysfs has no
 * cpu_capacity), into @c.
 */
static inline void capacity_of(int cpu, mpq_t c)
{
	char path[96];
	long long cap;

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpu_capacity", cpu);
	cap = read_ll(path);
	if (cap < 0) {
		mpq_set_ui(c, 1, 1);
		return;
	}
	mpq_set_ui(c, cap, 1024);
	mpq_canonicalize(c);
}

/* The only online CPU of root domain @d; -1 if it has none or several. */
static inline int domain_only_cpu(struct model *m, int d)
{
	int cpu, only = -1, cpus = 0;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!in_domain(m, cpu, d) || !cpu_online(cpu))
			continue;
		only = cpu;
		cpus++;
	}
	return cpus == 1 ? only : -1;
}

/*
 * The demand bound of root domain @d, in exact arithmetic: the minimum of
 * g(t) = s * t - dbf(t) over the absolute deadlines t of the domain's
 * tasks and its CPU's fair server, s = c - r (the CPU's capacity less the
 * idle reservation).  It applies in rule-2 mode "demand" to a domain with
 * exactly one online CPU and a task at least, while the kernel shows no
 * stray task.
 *
 * The scan's end: with U = sum(C/P) over the entities,
 *   dbf(t) <= sum((t - D) / P + 1) * C = U * t + sum((P - D) * C / P),
 * so g(t) >= S for every t >= (S + sum((P - D) * C / P)) / (s - U), S the
 * smallest slack D - C of the tasks; and g(D) <= D - C = S at the first
 * deadline of the task with that slack (c <= 1, dbf(D) >= C).  The minimum
 * is then at a deadline up to that horizon, or up to the tasks' largest
 * relative deadline, whichever is later.  With s = U, g repeats every
 * hyperperiod H past the largest deadline D_max: the scan ends at
 * D_max + H, and the bound is 0 unless g goes negative (the kernel takes
 * 0 there); with s < U, g falls without end.
 *
 * Each deadline is visited once, in increasing order, and dbf() evaluated
 * there by its formula.  g is kept as an integer numerator over s's
 * denominator.
 *
 * Returns DEMAND_NA; DEMAND_EXACT with the minimum in @l; DEMAND_INFEASIBLE
 * when it is negative; or DEMAND_UNKNOWN when the model gave up after
 * DEMAND_MODEL_POINTS deadlines, with the smallest g found in @l (an upper
 * bound of the minimum).  @points (or NULL): the distinct deadlines scanned.
 */
static inline int exact_domain_demand(struct model *m, int d, mpq_t l,
				      long *points)
{
	struct dbf_entity e[MAX_TASKS + 1];
	uint64_t next[MAX_TASKS + 1];
	uint64_t t, end = 0, d_max = 0;
	int i, n = 0, cpu, ret = DEMAND_EXACT;
	long long server_c, server_p;
	mpq_t slope, spare, term, sum, slack;
	mpz_t g, min, z;
	long nr = 0;

	if (points)
		*points = 0;
	if (rule2_mode() != RULE2_DEMAND || m->strays || !domain_tasks(m, d))
		return DEMAND_NA;
	cpu = domain_only_cpu(m, d);
	if (cpu < 0)
		return DEMAND_NA;

	mpq_inits(slope, spare, term, sum, slack, NULL);
	mpz_inits(g, min, z, NULL);
	/* The entities; S (@slack) and the tasks' largest deadline. */
	for (i = 0; i < m->n; i++) {
		struct task_param *p = &m->t[i];

		if (m->c[i].pid <= 0 || m->dom[i] != d)
			continue;
		e[n++] = (struct dbf_entity){ p->runtime, p->deadline,
					      p->period };
		mpq_set_ui(term, p->deadline - p->runtime, 1);
		if (n == 1 || mpq_cmp(term, slack) < 0)
			mpq_set(slack, term);
		if (p->deadline > end)
			end = p->deadline;
	}
	if (!server_params(cpu, &server_c, &server_p) && server_c > 0)
		e[n++] = (struct dbf_entity){ server_c, server_p, server_p };
	/* s = c - r; spare = s - U; sum = sum((P - D) * C / P) */
	capacity_of(cpu, slope);
	idle_reserve(term);
	mpq_sub(slope, slope, term);
	mpq_set(spare, slope);
	for (i = 0; i < n; i++) {
		mpq_set_ui(term, e[i].c, e[i].p);
		mpq_canonicalize(term);
		mpq_sub(spare, spare, term);
		mpq_set_ui(term, (e[i].p - e[i].d) * e[i].c, e[i].p);
		mpq_canonicalize(term);
		mpq_add(sum, sum, term);
		if (e[i].d > d_max)
			d_max = e[i].d;
	}

	if (mpq_sgn(spare) < 0) {
		ret = DEMAND_INFEASIBLE;
		goto out;
	}
	if (mpq_sgn(spare) > 0) {
		/* The horizon (S + sum) / (s - U), rounded down. */
		mpq_add(term, slack, sum);
		mpq_div(term, term, spare);
		mpz_fdiv_q(z, mpq_numref(term), mpq_denref(term));
	} else {
		/* D_max + H */
		mpz_set_ui(z, 1);
		for (i = 0; i < n; i++)
			mpz_lcm_ui(z, z, e[i].p);
		mpz_add_ui(z, z, d_max);
	}
	/* Far beyond: the scan ends at DEMAND_MODEL_POINTS. */
	if (mpz_sizeinbase(z, 2) > 62)
		end = UINT64_MAX >> 2;
	else if (mpz_get_ui(z) > end)
		end = mpz_get_ui(z);

	/* g(t) * den(s) = num(s) * t - den(s) * dbf(t), at each deadline t */
	for (i = 0; i < n; i++)
		next[i] = e[i].d;
	for (;;) {
		t = UINT64_MAX;
		for (i = 0; i < n; i++)
			if (next[i] < t)
				t = next[i];
		if (t > end)
			break;
		if (nr == DEMAND_MODEL_POINTS) {
			ret = DEMAND_UNKNOWN;
			break;
		}
		nr++;
		for (i = 0; i < n; i++)
			if (next[i] == t)
				next[i] += e[i].p;
		mpz_mul_ui(g, mpq_numref(slope), t);
		mpz_mul_ui(z, mpq_denref(slope), dbf_at(e, n, t));
		mpz_sub(g, g, z);
		if (nr == 1 || mpz_cmp(g, min) < 0)
			mpz_set(min, g);
	}
	mpq_set_num(l, min);
	mpq_set_den(l, mpq_denref(slope));
	mpq_canonicalize(l);
	if (mpq_sgn(l) < 0)
		ret = DEMAND_INFEASIBLE;
	else if (!mpq_sgn(spare) && ret == DEMAND_EXACT)
		mpq_set_ui(l, 0, 1);
out:
	if (points)
		*points = nr;
	mpq_clears(slope, spare, term, sum, slack, NULL);
	mpz_clears(g, min, z, NULL);
	return ret;
}

/*
 * Exact limit of root domain @d as a rational, into l: rule 1 alone when
 * rule 2 is off; min(rule 1, the demand bound) where the demand rule
 * applies to a feasible set; min(rule 1, rule 2) otherwise.  Returns 0
 * when the domain has no task (no limit), 1, or 2 when the kernel may
 * hold a smaller limit: the domain has more deadlines to scan than the
 * kernel's budget, where it keeps a safe lower bound of the demand (or
 * more than the model's).
 */
static inline int exact_domain_limit(struct model *m, int d, mpq_t l)
{
	int found, demand;
	mpq_t rule1, q;
	long points;

	mpq_inits(rule1, q, NULL);
	found = exact_domain_rules(m, d, rule1, l);
	if (found) {
		demand = exact_domain_demand(m, d, q, &points);
		if (demand == DEMAND_EXACT || demand == DEMAND_UNKNOWN)
			mpq_set(l, q);
		if (rule2_off() || mpq_cmp(rule1, l) < 0)
			mpq_set(l, rule1);
		if (demand == DEMAND_UNKNOWN ||
		    (demand == DEMAND_EXACT && points > DEMAND_BUDGET))
			found = 2;
	}
	mpq_clears(rule1, q, NULL);
	return found;
}

/*
 * Exact L* as a rational, into l: the smallest limit of the root domains
 * (admission runs per root domain, Documentation/scheduler/
 * sched-deadline-idle.rst).  Returns 0 when there is no task (no limit),
 * 1, or 2 when a domain's limit is only an upper bound of the kernel's
 * (exact_domain_limit()).
 */
static inline int exact_limit(struct model *m, mpq_t l)
{
	int d, ret, found = 0;
	mpq_t ld;

	mpq_init(ld);
	for (d = 0; d < 2; d++) {
		ret = exact_domain_limit(m, d, ld);
		if (!ret)
			continue;
		if (!found || mpq_cmp(ld, l) < 0)
			mpq_set(l, ld);
		if (ret > found)
			found = ret;
	}
	mpq_clear(ld);
	return found;
}

/* floor of a non-negative rational, saturated to UINT64_MAX. */
static inline uint64_t mpq_floor_u64(mpq_t q)
{
	mpz_t z;
	uint64_t v;

	mpz_init(z);
	mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
	v = mpz_sizeinbase(z, 2) > 64 ? UINT64_MAX :
	    (uint64_t)mpz_get_ui(z);
	mpz_clear(z);
	return v;
}

/*
 * The model's demand bound of root domain @d, rounded down to ns, into
 * @ns (NONE unless feasible); returns exact_domain_demand()'s result.
 */
static inline int model_demand(struct model *m, int d, uint64_t *ns)
{
	int ret;
	mpq_t q;

	mpq_init(q);
	ret = exact_domain_demand(m, d, q, NULL);
	*ns = ret == DEMAND_EXACT ? mpq_floor_u64(q) : NONE;
	mpq_clear(q);
	return ret;
}

/* published * 1000 <= l <= (published + 1) * 1000 */
static inline int us_brackets(long long published, mpq_t l)
{
	mpq_t lo, hi;
	int ok;

	mpq_inits(lo, hi, NULL);
	mpq_set_ui(lo, published * 1000, 1);
	mpq_set_ui(hi, (published + 1) * 1000, 1);
	ok = mpq_cmp(lo, l) <= 0 && mpq_cmp(l, hi) <= 0;
	mpq_clears(lo, hi, NULL);
	return ok;
}

/*
 * Wait (up to @seconds) for the kernel to account @n tasks.  Releases
 * happen at the tasks' 0-lag time, not at once, and a dying task with a
 * small runtime needs several periods to run its exit path under TCG.
 */
static inline int wait_tasks(long n, struct state *s, int seconds)
{
	int i;

	for (i = 0; i < seconds * 100; i++) {
		if (read_state(s))
			return -1;
		if (s->tasks == n)
			return 0;
		usleep(10000);
	}
	return -1;
}

/*
 * Whether the dlqos governor drives the idle states (a cpuidle driver is
 * registered and dlqos is the current governor): dl_idle_qos then
 * withdraws its global request, and each CPU has only its own.
 */
static inline int dlqos_driving(void)
{
	char buf[32];

	if (read_file(CPUIDLE_SYSFS "/current_driver", buf, sizeof(buf)) ||
	    !strcmp(buf, "none"))
		return 0;
	return !get_governor(buf, sizeof(buf)) && !strcmp(buf, "dlqos");
}

/*
 * User space's own resume latency request of a CPU, through sysfs
 * (power/pm_qos_resume_latency_us: "0" no constraint, "n/a" 0 us), in us;
 * -1 for no constraint.
 */
static inline long long user_resume_latency(int cpu)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path),
		 CPU_SYSFS "/cpu%d/power/pm_qos_resume_latency_us", cpu);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	if (!strcmp(buf, "n/a"))
		return 0;
	return atoll(buf) ? atoll(buf) : -1;
}

/* The smaller of two constraints in us, -1 standing for none. */
static inline long long min_us(long long a, long long b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* The request dl_idle_qos publishes for a limit, in us; -1 for none. */
static inline long long target_us(uint64_t limit_ns)
{
	return limit_ns / 1000 < PM_QOS_DEFAULT ? (long long)(limit_ns / 1000) : -1;
}

/*
 * Read the state view into @s until it is settled, for up to @seconds: no
 * root domain shows the demand state "bound", and the requests hold the
 * limits shown.  The view waits for a pending publication, not for the
 * exact demand-bound computation (a CFS work item, held back by SCHED_FIFO
 * or deadline load): until that installs its value the domain shows
 * "bound", and the work queues the publication after it installs one.
 * 0, or -1 with what was seen last in @why.
 */
static inline int wait_settled(struct state *s, int seconds, char *why,
			       size_t len)
{
	long long want;
	int i, d, cpu;

	for (i = 0; i < seconds * 100; i++) {
		if (i)
			usleep(10000);
		if (read_state(s)) {
			snprintf(why, len, "cannot read %s", STATE_FILE);
			return -1;
		}
		why[0] = '\0';
		for (d = 0; d < s->nr_domain_lines && !why[0]; d++)
			if (!strcmp(s->domain[d].demand, "bound"))
				snprintf(why, len,
					 "root domain of CPUs %#llx: demand state \"%s\"",
					 s->domain[d].cpus, s->domain[d].demand);
		for (cpu = 0; cpu < MAX_CPUS && !why[0]; cpu++) {
			if (!cpu_online(cpu))
				continue;
			want = s->publication ? target_us(s->cpu_limit_ns[cpu]) : -1;
			if (s->cpu_published_us[cpu] != want)
				snprintf(why, len,
					 "cpu%d: published_us %lld, limit_ns %llu",
					 cpu, s->cpu_published_us[cpu],
					 (unsigned long long)s->cpu_limit_ns[cpu]);
		}
		want = s->publication && !s->dlqos_cpus ? s->limit_us : -1;
		if (!why[0] && s->published_us != want)
			snprintf(why, len, "published_us %lld, limit_us %lld",
				 s->published_us, s->limit_us);
		if (!why[0])
			return 0;
	}
	return -1;
}

/*
 * Each online CPU: the limit of its own root domain, floor(L_d) or 1 ns
 * below; its resume latency request, that limit in microseconds; and the
 * constraint the PM QoS core resolves on the CPU device, the smaller of
 * that request and user space's own.
 */
static inline void check_cpu_limits(struct __test_metadata *_metadata,
				    struct model *m, struct state *s)
{
	uint64_t floor_ns;
	long long want;
	int cpu, d, found;
	mpq_t l;

	mpq_init(l);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		d = in_domain(m, cpu, 1);
		found = exact_domain_limit(m, d, l);
		if (!found) {
			EXPECT_EQ(NONE, s->cpu_limit_ns[cpu])
				TH_LOG("cpu%d, root domain %d: no task", cpu, d);
			EXPECT_EQ(-1, s->cpu_published_us[cpu])
				TH_LOG("cpu%d: published", cpu);
			EXPECT_EQ(user_resume_latency(cpu),
				  s->cpu_effective_us[cpu])
				TH_LOG("cpu%d: effective constraint", cpu);
			continue;
		}
		floor_ns = mpq_floor_u64(l);
		if (m->domains > 1)
			TH_LOG("cpu%d, domain %d: L_d %.3f us, kernel %llu ns, request %lld us",
			       cpu, d, mpq_get_d(l) / 1000,
			       (unsigned long long)s->cpu_limit_ns[cpu],
			       s->cpu_published_us[cpu]);
		EXPECT_LE(s->cpu_limit_ns[cpu], floor_ns);
		if (found == 1)
			EXPECT_GE(s->cpu_limit_ns[cpu] + 1, floor_ns);
		want = s->publication ? (long long)(floor_ns / 1000) : -1;
		/* floor_ns / 1000 or, 1 ns below a whole us, 1 us less. */
		if (s->publication && s->cpu_limit_ns[cpu] < floor_ns &&
		    floor_ns % 1000 == 0)
			want--;
		/* A safe bound below L_d (demand "budget"): its own us. */
		if (s->publication && found == 2)
			want = s->cpu_limit_ns[cpu] / 1000;
		EXPECT_EQ(want, s->cpu_published_us[cpu]);
		EXPECT_EQ(min_us(want, user_resume_latency(cpu)),
			  s->cpu_effective_us[cpu])
			TH_LOG("cpu%d: effective constraint", cpu);
	}
	mpq_clear(l);
}

/*
 * The limit the kernel derives from the fields of a domain line, in the
 * rule-2 mode: rule 1 alone when rule 2 is off; min(rule 1, demand) where
 * the domain's demand bound stands (exact, or a safe lower bound while the
 * exact value is pending or beyond the budget); min(rule 1, rule 2)
 * otherwise (no demand bound, or an infeasible set).
 */
static inline uint64_t kernel_limit(const struct domain_state *ds)
{
	uint64_t rule2 = ds->rule2_ns;

	if (rule2_off())
		return ds->rule1_ns;
	if (!strcmp(ds->demand, "exact") || !strcmp(ds->demand, "bound") ||
	    !strcmp(ds->demand, "budget"))
		rule2 = ds->demand_ns;
	return ds->rule1_ns < rule2 ? ds->rule1_ns : rule2;
}

/*
 * The demand fields of a domain line against exact_domain_demand(): "n/a"
 * and none where the rule does not apply; "infeasible" and 0 for a set
 * that misses a deadline without any exit latency; "exact" and
 * floor(L_demand), to the ns, otherwise; past the kernel's budget of
 * deadlines, "budget" and at most that is allowed too.  check_limit()
 * waits until no domain shows "bound" (wait_settled()): it never passes.
 */
static inline void check_demand(struct __test_metadata *_metadata,
				struct model *m, int d,
				const struct domain_state *ds)
{
	uint64_t floor_ns;
	long points;
	int demand;
	mpq_t q;

	mpq_init(q);
	demand = exact_domain_demand(m, d, q, &points);
	switch (demand) {
	case DEMAND_NA:
		EXPECT_STREQ("n/a", ds->demand)
			TH_LOG("root domain %d: no demand rule (mode %s)", d,
			       rule2_names[rule2_mode()]);
		EXPECT_EQ(NONE, ds->demand_ns);
		break;
	case DEMAND_INFEASIBLE:
		TH_LOG("root domain %d: demand infeasible (%ld deadlines), kernel %s",
		       d, points, ds->demand);
		EXPECT_STREQ("infeasible", ds->demand);
		EXPECT_EQ((uint64_t)0, ds->demand_ns);
		break;
	default:
		floor_ns = mpq_floor_u64(q);
		TH_LOG("root domain %d: demand %.3f us (%ld deadlines), kernel %llu ns %s",
		       d, mpq_get_d(q) / 1000, points,
		       (unsigned long long)ds->demand_ns, ds->demand);
		if (demand == DEMAND_UNKNOWN ||
		    (points > DEMAND_BUDGET && !strcmp(ds->demand, "budget"))) {
			EXPECT_STREQ("budget", ds->demand);
			EXPECT_LE(ds->demand_ns, floor_ns);
		} else {
			EXPECT_STREQ("exact", ds->demand);
			EXPECT_EQ(floor_ns, ds->demand_ns);
		}
	}
	mpq_clear(q);
}

/* floor(q) - @ns, as a signed difference (q >= 0). */
static inline long long floor_minus(mpq_t q, uint64_t ns)
{
	return (long long)(mpq_floor_u64(q) - ns);
}

/* Whether every possible CPU (as far as MAX_CPUS) is online. */
static inline int all_cpus_online(void)
{
	char path[64];
	int cpu;

	for (cpu = 1; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
		if (!access(path, F_OK) && read_ll(path) != 1)
			return 0;
	}
	return 1;
}

/*
 * Each root domain the kernel shows: its tasks, rule 1 exactly (a
 * difference of integers), rule 2 as floor() or 1 ns below, the demand
 * bound and its state (check_demand()), and its limit from those; the
 * global rule1_ns and rule2_ns are those of a domain with the smallest
 * limit.  With every CPU online no task is stray once the tasks settled:
 * the last root-domain rebuild accounted each in its domain.  With a CPU
 * offline, a task admitted or changed while it last ran there is
 * accounted by the kernel itself in def_root_domain, which has no online
 * CPU, until the next rebuild; dl_idle_qos counts it as stray, in every
 * domain.  Then only the totals, the demand state ("n/a": no demand rule
 * next to stray tasks) and each domain's limit from its own fields are
 * compared: every task in a domain or stray, none twice.
 */
static inline void check_domains(struct __test_metadata *_metadata,
				 struct model *m, struct state *s)
{
	unsigned long long part = m->domains > 1 ? 1ull << m->part_cpu : 0;
	int i, d, tasks, found = 0, strays_allowed = !all_cpus_online();
	long total = 0;
	mpq_t r1, r2;

	mpq_inits(r1, r2, NULL);
	EXPECT_EQ(m->domains > 1 ? m->domains : 1, s->nr_domain_lines);
	if (!strays_allowed)
		EXPECT_EQ(0, s->nr_stray_lines) {
			char buf[4096];

			if (!read_file(STATE_FILE, buf, sizeof(buf)))
				TH_LOG("state:\n%s", buf);
		}
	for (i = 0; i < s->nr_domain_lines; i++)
		total += s->domain[i].tasks;
	EXPECT_EQ(live_tasks(m), total + s->stray_tasks);
	for (i = 0; i < s->nr_domain_lines; i++) {
		d = part && (s->domain[i].cpus & part);
		if (d)
			EXPECT_EQ(part, s->domain[i].cpus);
		tasks = domain_tasks(m, d);
		if (s->stray_tasks) {
			EXPECT_GE(tasks, s->domain[i].tasks);
			/* No demand rule next to stray tasks. */
			EXPECT_STREQ("n/a", s->domain[i].demand);
			EXPECT_EQ(NONE, s->domain[i].demand_ns);
			EXPECT_EQ(kernel_limit(&s->domain[i]),
				  s->domain[i].limit_ns);
			continue;
		}
		EXPECT_EQ(tasks, s->domain[i].tasks)
			TH_LOG("root domain %d (CPUs %#llx)", d, s->domain[i].cpus);
		if (!exact_domain_rules(m, d, r1, r2)) {
			EXPECT_EQ(NONE, s->domain[i].rule1_ns);
			EXPECT_EQ(NONE, s->domain[i].rule2_ns);
			EXPECT_EQ(NONE, s->domain[i].limit_ns);
			EXPECT_EQ(NONE, s->domain[i].demand_ns);
			EXPECT_STREQ("n/a", s->domain[i].demand);
			continue;
		}
		EXPECT_EQ(0, floor_minus(r1, s->domain[i].rule1_ns))
			TH_LOG("root domain %d: rule 1 %.3f us, kernel %llu ns", d,
			       mpq_get_d(r1) / 1000,
			       (unsigned long long)s->domain[i].rule1_ns);
		EXPECT_LE(0, floor_minus(r2, s->domain[i].rule2_ns));
		EXPECT_GE(1, floor_minus(r2, s->domain[i].rule2_ns))
			TH_LOG("root domain %d: rule 2 %.3f us, kernel %llu ns", d,
			       mpq_get_d(r2) / 1000,
			       (unsigned long long)s->domain[i].rule2_ns);
		check_demand(_metadata, m, d, &s->domain[i]);
		EXPECT_EQ(kernel_limit(&s->domain[i]), s->domain[i].limit_ns);
	}
	for (i = 0, found = 0; i < s->nr_domain_lines; i++)
		found |= s->domain[i].limit_ns == s->limit_ns &&
			 s->domain[i].rule1_ns == s->rule1_ns &&
			 s->domain[i].rule2_ns == s->rule2_ns;
	EXPECT_TRUE(found || s->limit_ns == NONE)
		TH_LOG("global rules %llu/%llu ns: no domain with limit %llu ns has them",
		       (unsigned long long)s->rule1_ns,
		       (unsigned long long)s->rule2_ns,
		       (unsigned long long)s->limit_ns);
	mpq_clears(r1, r2, NULL);
}

/* The whole check: the kernel's state against the model. */
static inline void check_limit(struct __test_metadata *_metadata,
			       struct model *m)
{
	uint64_t floor_ns, smallest = NONE;
	int i, driving, global, found;
	char mode[16] = "", why[128];
	struct state s;
	mpq_t l;

	ASSERT_EQ(0, wait_tasks(live_tasks(m), &s, 10)) {
		TH_LOG("kernel accounts %ld tasks, the test admitted %d",
		       s.tasks, live_tasks(m));
	}
	ASSERT_EQ(0, wait_settled(&s, 5, why, sizeof(why))) {
		TH_LOG("state view not settled after 5 s: %s", why);
	}
	/* The demand rule applies only while no task is stray. */
	m->strays = s.nr_stray_lines > 0;
	ASSERT_EQ(0, read_file(RULE2, mode, sizeof(mode)));
	EXPECT_STREQ(mode, s.rule2_mode);
	EXPECT_EQ(nr_cpus(), s.cpus);
	EXPECT_EQ(m->domains > 1 ? m->domains : 1, s.domains);
	check_cpu_limits(_metadata, m, &s);
	check_domains(_metadata, m, &s);
	/* The global request: published unless dlqos drives the CPUs. */
	driving = dlqos_driving();
	global = s.publication && !driving;
	EXPECT_EQ(driving, s.dlqos_cpus > 0);
	mpq_init(l);
	found = exact_limit(m, l);
	if (!found) {
		EXPECT_EQ(NONE, s.limit_ns);
		EXPECT_EQ(NONE, s.rule1_ns);
		EXPECT_EQ(NONE, s.rule2_ns);
		EXPECT_EQ(-1, s.limit_us);
		EXPECT_EQ(-1, s.published_us);
		mpq_clear(l);
		return;
	}
	floor_ns = mpq_floor_u64(l);
	TH_LOG("tasks %ld: L* %.3f us, kernel %llu ns (rule1 %llu, rule2 %llu), published %lld us",
	       s.tasks, mpq_get_d(l) / 1000, (unsigned long long)s.limit_ns,
	       (unsigned long long)s.rule1_ns, (unsigned long long)s.rule2_ns,
	       s.published_us);
	EXPECT_LE(s.limit_ns, floor_ns);
	if (found == 1)
		EXPECT_GE(s.limit_ns + 1, floor_ns);
	/* The smallest limit of the domains, each from its own fields. */
	for (i = 0; i < s.nr_domain_lines; i++)
		if (kernel_limit(&s.domain[i]) < smallest)
			smallest = kernel_limit(&s.domain[i]);
	if (s.nr_domain_lines)
		EXPECT_EQ(smallest, s.limit_ns);
	EXPECT_EQ((long long)(s.limit_ns / 1000), s.limit_us);
	if (found == 1)
		EXPECT_TRUE(us_brackets(s.limit_us, l));
	if (global) {
		EXPECT_EQ(s.limit_us, s.published_us);
		EXPECT_EQ(s.limit_us, read_cpu_dma_latency());
	} else {
		EXPECT_EQ(-1, s.published_us);
		EXPECT_EQ(PM_QOS_DEFAULT, read_cpu_dma_latency());
	}
	mpq_clear(l);
}

#endif /* DLQOS_LIMIT_H */
