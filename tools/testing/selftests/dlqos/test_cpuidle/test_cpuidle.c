// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpuidle: a cpuidle driver for guests that have none, for testing.
 *
 * A QEMU x86 guest has no cpuidle driver, so no governor is ever asked to
 * pick a state; an arm64 guest's cpuidle-psci states cost nothing to leave.
 * This module registers a table of idle states whose exit latency is real:
 * ->enter() halts until an interrupt, then busy-waits the state's exit
 * latency before returning, so a task woken from a deep state really
 * starts late.  Run the guest with -icount to make that lateness
 * deterministic.
 *
 * On x86 the halt is arch_cpu_idle() (STI; HLT), which handles the
 * interrupt before the exit latency is spun.  On arm64 it is WFI with
 * interrupts masked, as cpu_do_idle() does: the interrupt is taken when
 * the cpuidle core unmasks them, after the exit latency, as on hardware.
 * arm64 has no cpuidle polling state (no ARCH_HAS_CPU_RELAX), so the
 * module brings its own, the cpuidle core's poll_idle() loop.
 *
 * Parameters:
 *   table=spr        Intel Sapphire Rapids, as in intel_idle.c:
 *                    C1 1/1 us, C1E 2/4 us, C6 290/800 us
 *                    (exit latency / target residency)
 *   table=juno       ARM Juno-like: WFI 1/1 us, cluster sleep 1200/2500 us
 *   table=NAME:EXIT_US:RESIDENCY_US:POWER_MW[,...]
 *                    custom, up to CPUIDLE_STATE_MAX - 1 states with
 *                    non-decreasing exit latency
 *   poll=1           state 0 polls (default); poll=0 leaves it out
 *   poll_mw=N        power_usage of the polling state, 0..1000000
 *   log=N            keep a log of the last N idle periods of each CPU
 *                    (default 0: no log), for `make bench`
 *
 * The power_usage of each state (mW) lets an energy model be computed from
 * the standard usage/time counters in sysfs.  Malformed tables are refused
 * with -EINVAL and a message saying what is wrong.
 *
 * With log=N, /sys/kernel/debug/test_cpuidle/intervals lists the idle
 * periods of every CPU, one per line: "cpu state entry_ns length_ns
 * flags", where entry_ns is the CLOCK_MONOTONIC time the state was
 * entered, length_ns the time until the wakeup event (the halt ended, or
 * need_resched for the polling state; the exit latency spun afterwards is
 * not included) and flags bit 0 says that the period continues the
 * previous one: the CPU ran no task in between (the previous one ended by
 * an interrupt that woke no task, such as the tick, or by the poll time
 * limit).  Consecutive polling periods that only the poll time limit
 * separated are merged into one line.  Writing to the file clears the log;
 * .../dropped shows the periods each CPU could not log (log full).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_ARM64
#include <asm/cpuidle.h>
#endif

#define TABLE_LEN	256
/* power_usage is an int: keep every power value far below INT_MAX. */
#define MAX_POWER_MW	1000000

static char table[TABLE_LEN] = "spr";
module_param_string(table, table, sizeof(table), 0444);
MODULE_PARM_DESC(table, "idle states: spr, juno or NAME:EXIT_US:RESIDENCY_US:POWER_MW[,...]");

static bool poll = true;
module_param(poll, bool, 0444);
MODULE_PARM_DESC(poll, "state 0 is a polling state (default: 1)");

static unsigned int poll_mw = 3000;
module_param(poll_mw, uint, 0444);
MODULE_PARM_DESC(poll_mw, "power_usage of the polling state in mW (default: 3000)");

static unsigned int log_len;
module_param_named(log, log_len, uint, 0444);
MODULE_PARM_DESC(log, "idle periods logged per CPU (default: 0, no log)");

#define LOG_MAX		BIT(22)
#define LOG_CONTINUED	1

/* One idle period; see the header comment. */
struct idle_record {
	u64 entry_ns;
	u64 length_ns;
	u8 state;
	u8 flags;
};

/**
 * struct idle_log - the idle periods of one CPU
 * @rec:	@log_len records, written only by the CPU, with IRQs off
 * @count:	records written (published with release semantics)
 * @dropped:	periods not logged because the log was full
 * @poll_limit:	the last period was a polling period that the poll time
 *		limit ended
 * @switches:	context switches of the idle task at the end of the last
 *		period: unchanged at the next one if no task ran in between
 */
struct idle_log {
	struct idle_record *rec;
	unsigned int count;
	unsigned long dropped;
	bool poll_limit;
	unsigned long switches;
};

static DEFINE_PER_CPU(struct idle_log, idle_logs);
static struct dentry *debugfs_dir;
static int (*poll_enter)(struct cpuidle_device *dev,
			 struct cpuidle_driver *drv, int index);

static const struct {
	const char *name;
	const char *table;
	unsigned int poll_mw;
} presets[] = {
	{ "spr", "C1:1:1:1200,C1E:2:4:800,C6:290:800:100", 3000 },
	{ "juno", "WFI:1:1:300,cluster-sleep-0:1200:2500:20", 600 },
};

static struct cpuidle_driver test_cpuidle_driver = {
	.name = "test_cpuidle",
};

/* Log one idle period of this CPU; called with IRQs off. */
static void log_idle(int state, u64 entry_ns, u64 end_ns, bool poll_limit)
{
	struct idle_log *log = this_cpu_ptr(&idle_logs);
	struct idle_record *last;
	unsigned int n = log->count;
	/* current is this CPU's idle task: did it switch to a task since? */
	unsigned long switches = current->nvcsw + current->nivcsw;
	bool continued = n && log->switches == switches;
	bool sliced = continued && log->poll_limit;

	log->poll_limit = poll_limit;
	log->switches = switches;
	if (!log->rec)
		return;
	/* Another slice of a polling period the poll time limit cut: extend. */
	if (sliced && log->rec[n - 1].state == state) {
		last = &log->rec[n - 1];
		last->length_ns = end_ns - last->entry_ns;
		return;
	}
	if (n >= log_len) {
		log->dropped++;
		return;
	}
	log->rec[n] = (struct idle_record) {
		.entry_ns = entry_ns,
		.length_ns = end_ns - entry_ns,
		.state = state,
		.flags = continued ? LOG_CONTINUED : 0,
	};
	/* The record is complete before a reader sees the count. */
	smp_store_release(&log->count, n + 1);
}

/* Wait for an interrupt; called and returns with interrupts disabled. */
static void test_cpuidle_halt(void)
{
#ifdef CONFIG_ARM64
	struct arm_cpuidle_irq_context context;

	/* As cpu_do_idle(), which is not exported: the interrupt stays pending. */
	arm_cpuidle_save_irq_context(&context);
	dsb(sy);
	wfi();
	arm_cpuidle_restore_irq_context(&context);
#else
	/* Enables interrupts while it halts: the interrupt is handled here. */
	arch_cpu_idle();
#endif
}

static int test_cpuidle_enter(struct cpuidle_device *dev,
			      struct cpuidle_driver *drv, int index)
{
	u64 exit_ns = drv->states[index].exit_latency_ns;
	u64 start, entry = ktime_get_mono_fast_ns();

	test_cpuidle_halt();
	log_idle(index, entry, ktime_get_mono_fast_ns(), false);

	/* Then pay the exit latency, as the hardware would. */
	start = local_clock();
	while (local_clock() - start < exit_ns)
		cpu_relax();

	return index;
}

#ifndef CONFIG_ARCH_HAS_CPU_RELAX
/*
 * The cpuidle core's poll_idle(), for architectures that do not build it:
 * spin with interrupts on until a task is woken or the poll time is up
 * (TICK_NSEC / 16, the core's cap, cut to the first deeper state's target
 * residency as cpuidle_poll_time() does, which is not exported).
 */
static notrace int test_cpuidle_poll_idle(struct cpuidle_device *dev,
					  struct cpuidle_driver *drv, int index)
{
	u64 limit = TICK_NSEC / 16, start = local_clock();

	if (drv->state_count > 1 &&
	    drv->states[1].target_residency_ns >= 10 * NSEC_PER_USEC)
		limit = min_t(u64, limit, drv->states[1].target_residency_ns);
	dev->poll_time_limit = false;
	raw_local_irq_enable();
	if (!current_set_polling_and_test()) {
		while (!need_resched()) {
			cpu_relax();
			if (local_clock() - start > limit) {
				dev->poll_time_limit = true;
				break;
			}
		}
	}
	raw_local_irq_disable();
	current_clr_polling();
	return index;
}

static void test_cpuidle_poll_state_init(struct cpuidle_driver *drv)
{
	struct cpuidle_state *st = &drv->states[0];

	strscpy(st->name, "POLL", CPUIDLE_NAME_LEN);
	strscpy(st->desc, "test_cpuidle poll idle", CPUIDLE_DESC_LEN);
	st->exit_latency = 0;
	st->target_residency = 0;
	st->enter = test_cpuidle_poll_idle;
	st->flags = CPUIDLE_FLAG_POLLING;
}
#else
static void test_cpuidle_poll_state_init(struct cpuidle_driver *drv)
{
	cpuidle_poll_state_init(drv);
}
#endif

/* The polling state, logged. */
static int test_cpuidle_poll(struct cpuidle_device *dev,
			     struct cpuidle_driver *drv, int index)
{
	u64 entry = ktime_get_mono_fast_ns();
	int ret = poll_enter(dev, drv, index);

	log_idle(index, entry, ktime_get_mono_fast_ns(), dev->poll_time_limit);
	return ret;
}

static int parse_u32(char *s, unsigned int max, unsigned int *val,
		     const char *what, const char *state)
{
	int ret = kstrtouint(s, 10, val);

	if (ret || *val > max) {
		pr_err("state %s: %s \"%s\" is not an integer in 0..%u\n",
		       state, what, s, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_state(char *spec, struct cpuidle_state *st)
{
	char *name = strsep(&spec, ":");
	char *field[3];
	unsigned int exit_us, residency_us, power_mw;
	int i;

	if (!*name || strlen(name) >= CPUIDLE_NAME_LEN) {
		pr_err("state name \"%s\" must have 1 to %d characters\n",
		       name, CPUIDLE_NAME_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; i < 3; i++) {
		field[i] = strsep(&spec, ":");
		if (!field[i]) {
			pr_err("state %s: expected NAME:EXIT_US:RESIDENCY_US:POWER_MW\n",
			       name);
			return -EINVAL;
		}
	}
	if (spec) {
		pr_err("state %s: too many fields, expected NAME:EXIT_US:RESIDENCY_US:POWER_MW\n",
		       name);
		return -EINVAL;
	}
	/* Limits keep every value representable in the cpuidle core. */
	if (parse_u32(field[0], 10000000, &exit_us, "exit latency", name) ||
	    parse_u32(field[1], 100000000, &residency_us, "target residency", name) ||
	    parse_u32(field[2], MAX_POWER_MW, &power_mw, "power", name))
		return -EINVAL;
	if (residency_us < exit_us) {
		pr_err("state %s: target residency %u us below exit latency %u us\n",
		       name, residency_us, exit_us);
		return -EINVAL;
	}

	strscpy(st->name, name, CPUIDLE_NAME_LEN);
	snprintf(st->desc, CPUIDLE_DESC_LEN, "emulated, %u us exit latency",
		 exit_us);
	st->exit_latency = exit_us;
	st->target_residency = residency_us;
	st->power_usage = power_mw;
	st->enter = test_cpuidle_enter;
	return 0;
}

static int build_table(struct cpuidle_driver *drv)
{
	char buf[TABLE_LEN], *cursor = buf, *spec;
	unsigned int mw = poll_mw;
	int i, n = 0;

	strscpy(buf, table, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(presets); i++) {
		if (!strcmp(buf, presets[i].name)) {
			strscpy(buf, presets[i].table, sizeof(buf));
			/* A preset brings its polling power unless overridden. */
			if (poll_mw == 3000)
				mw = presets[i].poll_mw;
			break;
		}
	}

	if (mw > MAX_POWER_MW) {
		pr_err("poll_mw %u is not in 0..%u\n", mw, MAX_POWER_MW);
		return -EINVAL;
	}
	if (poll) {
		test_cpuidle_poll_state_init(drv);
		drv->states[0].power_usage = mw;
		if (log_len) {
			poll_enter = drv->states[0].enter;
			drv->states[0].enter = test_cpuidle_poll;
		}
		n = 1;
	}

	while ((spec = strsep(&cursor, ",")) != NULL) {
		struct cpuidle_state *st = &drv->states[n];

		if (n == CPUIDLE_STATE_MAX) {
			pr_err("table has more than %d states\n",
			       CPUIDLE_STATE_MAX - (poll ? 1 : 0));
			return -EINVAL;
		}
		if (parse_state(spec, st))
			return -EINVAL;
		if (n > (poll ? 1 : 0) &&
		    st->exit_latency < drv->states[n - 1].exit_latency) {
			pr_err("state %s: exit latency below the previous state's\n",
			       st->name);
			return -EINVAL;
		}
		n++;
	}
	drv->state_count = n;
	return 0;
}

/* seq_file position -> (CPU, record) over the logs of all CPUs. */
static struct idle_record *log_at(loff_t pos, int *cpu)
{
	for_each_possible_cpu(*cpu) {
		struct idle_log *log = per_cpu_ptr(&idle_logs, *cpu);
		/* Pairs with log_idle(): records below n are complete. */
		unsigned int n = smp_load_acquire(&log->count);

		if (pos < n)
			return &log->rec[pos];
		pos -= n;
	}
	return NULL;
}

static void *intervals_start(struct seq_file *m, loff_t *pos)
{
	int cpu;

	return log_at(*pos, &cpu);
}

static void *intervals_next(struct seq_file *m, void *v, loff_t *pos)
{
	int cpu;

	return log_at(++*pos, &cpu);
}

static void intervals_stop(struct seq_file *m, void *v)
{
}

static int intervals_show(struct seq_file *m, void *v)
{
	struct idle_record *r;
	int cpu;

	r = log_at(m->index, &cpu);
	if (r)
		seq_printf(m, "%d %u %llu %llu %u\n", cpu, r->state, r->entry_ns,
			   r->length_ns, r->flags);
	return 0;
}

static const struct seq_operations intervals_seq_ops = {
	.start	= intervals_start,
	.next	= intervals_next,
	.stop	= intervals_stop,
	.show	= intervals_show,
};

static int intervals_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &intervals_seq_ops);
}

/* Runs on each CPU with IRQs off: no idle period is being logged. */
static void log_clear(void *unused)
{
	struct idle_log *log = this_cpu_ptr(&idle_logs);

	WRITE_ONCE(log->count, 0);
	log->dropped = 0;
	log->poll_limit = false;
}

static ssize_t intervals_write(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	on_each_cpu(log_clear, NULL, 1);
	return len;
}

static const struct file_operations intervals_fops = {
	.owner		= THIS_MODULE,
	.open		= intervals_open,
	.read		= seq_read,
	.write		= intervals_write,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

static int dropped_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "cpu%d %lu\n", cpu,
			   READ_ONCE(per_cpu_ptr(&idle_logs, cpu)->dropped));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dropped);

static void log_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kvfree(per_cpu_ptr(&idle_logs, cpu)->rec);
		per_cpu_ptr(&idle_logs, cpu)->rec = NULL;
	}
}

static int log_init(void)
{
	int cpu;

	if (!log_len)
		return 0;
	if (log_len > LOG_MAX) {
		pr_err("log=%u: at most %lu records per CPU\n", log_len, LOG_MAX);
		return -EINVAL;
	}
	for_each_possible_cpu(cpu) {
		struct idle_record *rec = kvcalloc(log_len, sizeof(*rec),
						   GFP_KERNEL);

		if (!rec) {
			log_free();
			return -ENOMEM;
		}
		per_cpu_ptr(&idle_logs, cpu)->rec = rec;
	}
	debugfs_dir = debugfs_create_dir("test_cpuidle", NULL);
	debugfs_create_file("intervals", 0600, debugfs_dir, NULL,
			    &intervals_fops);
	debugfs_create_file("dropped", 0400, debugfs_dir, NULL,
			    &dropped_fops);
	return 0;
}

static int __init test_cpuidle_init(void)
{
	struct cpuidle_driver *drv = &test_cpuidle_driver;
	int ret, i;

	ret = log_init();
	if (ret)
		return ret;
	ret = build_table(drv);
	if (ret)
		goto free;

	ret = cpuidle_register(drv, NULL);
	if (ret) {
		pr_err("cpuidle_register failed: %d\n", ret);
		goto free;
	}
	for (i = 0; i < drv->state_count; i++)
		pr_info("state%d %s: exit latency %u us, target residency %u us, %d mW\n",
			i, drv->states[i].name, drv->states[i].exit_latency,
			drv->states[i].target_residency,
			drv->states[i].power_usage);
	return 0;
free:
	debugfs_remove_recursive(debugfs_dir);
	log_free();
	return ret;
}

static void __exit test_cpuidle_exit(void)
{
	cpuidle_unregister(&test_cpuidle_driver);
	debugfs_remove_recursive(debugfs_dir);
	log_free();
}

module_init(test_cpuidle_init);
module_exit(test_cpuidle_exit);
MODULE_DESCRIPTION("Test cpuidle driver with emulated exit latency");
MODULE_LICENSE("GPL");
