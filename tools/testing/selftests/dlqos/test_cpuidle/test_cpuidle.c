// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpuidle: a cpuidle driver for guests that have none, for testing.
 *
 * A QEMU x86 guest has no cpuidle driver, so no governor is ever asked to
 * pick a state.  This module registers a table of idle states whose exit
 * latency is real: ->enter() halts until an interrupt, then busy-waits the
 * state's exit latency before returning, so a task woken from a deep state
 * really starts late.  Run the guest with -icount to make that lateness
 * deterministic.
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
 *
 * The power_usage of each state (mW) lets an energy model be computed from
 * the standard usage/time counters in sysfs.  Malformed tables are refused
 * with -EINVAL and a message saying what is wrong.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

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

static int test_cpuidle_enter(struct cpuidle_device *dev,
			      struct cpuidle_driver *drv, int index)
{
	u64 exit_ns = drv->states[index].exit_latency_ns;
	u64 start;

	/* Halt until an interrupt; returns with interrupts disabled. */
	arch_cpu_idle();

	/* Then pay the exit latency, as the hardware would. */
	start = local_clock();
	while (local_clock() - start < exit_ns)
		cpu_relax();

	return index;
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
		cpuidle_poll_state_init(drv);
		drv->states[0].power_usage = mw;
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

static int __init test_cpuidle_init(void)
{
	struct cpuidle_driver *drv = &test_cpuidle_driver;
	int ret, i;

	ret = build_table(drv);
	if (ret)
		return ret;

	ret = cpuidle_register(drv, NULL);
	if (ret) {
		pr_err("cpuidle_register failed: %d\n", ret);
		return ret;
	}
	for (i = 0; i < drv->state_count; i++)
		pr_info("state%d %s: exit latency %u us, target residency %u us, %d mW\n",
			i, drv->states[i].name, drv->states[i].exit_latency,
			drv->states[i].target_residency,
			drv->states[i].power_usage);
	return 0;
}

static void __exit test_cpuidle_exit(void)
{
	cpuidle_unregister(&test_cpuidle_driver);
}

module_init(test_cpuidle_init);
module_exit(test_cpuidle_exit);
MODULE_DESCRIPTION("Test cpuidle driver with emulated exit latency");
MODULE_LICENSE("GPL");
