// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to every file the series adds that can be written, and to the
 * test driver's parameters: each attempt must fail with the expected error
 * and change nothing.
 *
 *  - /proc/sys/kernel/sched_dl_idle_qos (0 or 1): garbage, out of range,
 *    negative, overlong, empty, several values, a NUL byte, a write at an
 *    offset;
 *  - /proc/sys/kernel/sched_dl_idle_qos_rule2 ("off", "bandwidth" or
 *    "demand"): other names, case, prefixes and extensions of the names,
 *    spaces, several names, overlong, empty, NUL bytes, a write at an
 *    offset;
 *  - /proc/sys/kernel/sched_dl_idle_reserve_us ("RUNTIME PERIOD"): one or
 *    three values, RUNTIME >= PERIOD, negative, garbage, overlong, empty,
 *    a NUL byte, a write at an offset (-EINVAL), and a reservation not
 *    below the rt ratio (-EBUSY);
 *  - /sys/kernel/debug/dl_idle_qos/state (read-only): any write;
 *  - cpuidle's current_governor, where the dlqos governor is chosen:
 *    unknown and overlong names;
 *  - test_cpuidle's parameters (table, poll, poll_mw, log) at load time, and
 *    their read-only files in sysfs once loaded.
 *
 * "Nothing" is checked on everything those inputs could reach: the sysctl,
 * the state view, the cpu_latency_qos value, the current governor and the
 * current cpuidle driver, compared before and after each attempt.
 */
#include "../kselftest_harness.h"
#include "dlqos_util.h"

#define SYSCTL		"/proc/sys/kernel/sched_dl_idle_qos"
#define RULE2		"/proc/sys/kernel/sched_dl_idle_qos_rule2"
#define IDLE_RESERVE	"/proc/sys/kernel/sched_dl_idle_reserve_us"
#define STATE_FILE	"/sys/kernel/debug/dl_idle_qos/state"
#define PARAMS		"/sys/module/test_cpuidle/parameters"
#define BIG		8192

struct snapshot {
	char sysctl[16];
	char rule2[16];
	char reserve[32];
	char state[2048];
	int32_t qos;
	char governor[32];
	char driver[32];
};

static void take(struct snapshot *s)
{
	int fd = open("/dev/cpu_dma_latency", O_RDONLY);
	char *p;

	memset(s, 0, sizeof(*s));
	read_file(SYSCTL, s->sysctl, sizeof(s->sysctl));
	read_file(RULE2, s->rule2, sizeof(s->rule2));
	read_file(IDLE_RESERVE, s->reserve, sizeof(s->reserve));
	read_file(STATE_FILE, s->state, sizeof(s->state));
	/* The per-CPU lines hold the live slack, which moves with time. */
	p = strstr(s->state, "\ncpu");
	if (p)
		p[1] = '\0';
	if (fd >= 0) {
		if (read(fd, &s->qos, sizeof(s->qos)) != sizeof(s->qos))
			s->qos = -1;
		close(fd);
	}
	get_governor(s->governor, sizeof(s->governor));
	read_file(CPUIDLE_SYSFS "/current_driver", s->driver, sizeof(s->driver));
}

static int same(const struct snapshot *a, const struct snapshot *b)
{
	return !strcmp(a->sysctl, b->sysctl) && !strcmp(a->rule2, b->rule2) &&
	       !strcmp(a->reserve, b->reserve) &&
	       !strcmp(a->state, b->state) &&
	       a->qos == b->qos && !strcmp(a->governor, b->governor) &&
	       !strcmp(a->driver, b->driver);
}

/* One write() of @len bytes at @off: 0 or -errno (of open or write). */
static int write_at(const char *path, const void *buf, size_t len, off_t off)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	/* seq_file-backed files do not support pwrite(): write at 0. */
	n = off ? pwrite(fd, buf, len, off) : write(fd, buf, len);
	n = n < 0 ? -errno : n == (ssize_t)len ? 0 : -EIO;
	close(fd);
	return n;
}

static int tried;

/* Write @buf, expect one of the errors in @errs (0-terminated). */
static void expect_refused(struct __test_metadata *_metadata,
			   const char *path, const void *buf, size_t len,
			   off_t off, const int *errs, const char *what)
{
	struct snapshot before, after;
	int ret, i, ok = 0;

	take(&before);
	ret = write_at(path, buf, len, off);
	take(&after);
	tried++;
	for (i = 0; errs[i]; i++)
		ok |= ret == -errs[i];
	EXPECT_TRUE(ok) {
		TH_LOG("%s: %s returned %d (%s)", path, what, ret,
		       ret ? strerror(-ret) : "accepted");
	}
	EXPECT_TRUE(same(&before, &after)) {
		TH_LOG("%s: %s changed the state", path, what);
	}
}

static const int einval[] = { EINVAL, 0 };
static const int no_write[] = { EINVAL, EACCES, EPERM, 0 };

/*
 * What every text file of the series refuses with -EINVAL: each of @bad,
 * an empty write, @valid followed by a NUL byte, @valid written at offset
 * 1, and BIG bytes of @fill.
 */
static void expect_bad_writes(struct __test_metadata *_metadata,
			      const char *path, const char * const *bad,
			      int nr_bad, const char *valid, char fill)
{
	size_t len = strlen(valid);
	char buf[BIG];
	int i;

	for (i = 0; i < nr_bad; i++)
		expect_refused(_metadata, path, bad[i], strlen(bad[i]), 0,
			       einval, bad[i]);
	expect_refused(_metadata, path, "", 0, 0, einval, "an empty write");
	memcpy(buf, valid, len);
	memcpy(buf + len, "\0x", 2);
	expect_refused(_metadata, path, buf, len + 2, 0, einval, "a NUL byte");
	expect_refused(_metadata, path, valid, len, 1, einval,
		       "a write at offset 1");
	memset(buf, fill, sizeof(buf));
	expect_refused(_metadata, path, buf, sizeof(buf), 0, einval,
		       "8192 bytes");
}

TEST(sysctl)
{
	static const char * const bad[] = {
		"2", "-1", "x", "1x", "0.5", "-", "99999999999999999999",
		"4294967297", "\n", "   ", "1 0", "0,1", "1\n1\n",
	};
	char big[64];

	if (access(SYSCTL, W_OK))
		SKIP(return, "no %s", SYSCTL);
	expect_bad_writes(_metadata, SYSCTL, bad, ARRAY_SIZE(bad), "1", '1');
	memset(big, '0', sizeof(big));
	expect_refused(_metadata, SYSCTL, big, 64, 0, einval, "64 zeros");
	/* Whitespace around one value is fine. */
	EXPECT_EQ(0, write_file(SYSCTL, " 1\n"));
	TH_LOG("%d bad inputs tried", tried);
}

/*
 * The three names are accepted, alone, with or without one newline, and
 * read back as written; anything else is refused, in the mode found and
 * in "demand".  The mode found is restored (and read back).
 */
TEST(rule2_sysctl)
{
	static const char * const bad[] = {
		"x", "Off", "OFF", "Bandwidth", "off ", " off", "\toff", "offx",
		"of", "0", "1", "-1", "\n", "off\n\n", "off\nbandwidth",
		"off bandwidth", "off,bandwidth", "bandwidthbandwidth",
		"Demand", "DEMAND", "demand2", "demandx", "dem", "deman",
		"demand\n\n", "demand ", " demand", "demand\ndemand",
		"demand bandwidth", "bandwidth demand", "demanddemand",
		"demand\r", "2",
	};
	static const char * const valid[] = {
		"demand", "off\n", "bandwidth", "demand\n", "off",
		"bandwidth\n",
	};
	char saved[16], buf[16], name[16], nul[16];
	unsigned int i;

	if (access(RULE2, W_OK))
		SKIP(return, "no %s", RULE2);
	ASSERT_EQ(0, read_file(RULE2, saved, sizeof(saved)));
	expect_bad_writes(_metadata, RULE2, bad, ARRAY_SIZE(bad), "off", 'x');
	/* One name, with or without a newline, is fine. */
	for (i = 0; i < ARRAY_SIZE(valid); i++) {
		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(valid[i], "\n"), valid[i]);
		EXPECT_EQ(0, write_file(RULE2, valid[i])) {
			TH_LOG("refused \"%s\"", name);
		}
		ASSERT_EQ(0, read_file(RULE2, buf, sizeof(buf)));
		EXPECT_STREQ(name, buf);
	}
	/* In mode "demand", refused as in the others; "demand" NUL, at 1. */
	ASSERT_EQ(0, write_file(RULE2, "demand"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_refused(_metadata, RULE2, bad[i], strlen(bad[i]), 0,
			       einval, bad[i]);
	memcpy(nul, "demand\0x", 8);
	expect_refused(_metadata, RULE2, nul, 8, 0, einval,
		       "\"demand\" and a NUL byte");
	expect_refused(_metadata, RULE2, "demand", 6, 1, einval,
		       "\"demand\" at offset 1");
	ASSERT_EQ(0, read_file(RULE2, buf, sizeof(buf)));
	EXPECT_STREQ("demand", buf);

	/* The mode found. */
	EXPECT_EQ(0, write_file(RULE2, saved));
	ASSERT_EQ(0, read_file(RULE2, buf, sizeof(buf)));
	EXPECT_STREQ(saved, buf);
	TH_LOG("%d bad inputs tried; mode %s restored", tried, saved);
}

TEST(idle_reserve)
{
	static const char * const bad[] = {
		"1", "1 2 3", "-1 10", "1 -10", "10 5", "10 10", "5 0", "x",
		"1x 10", "1 10x", "1,10", "99999999999 100000000000", "\n",
		"0.5 10",
	};
	static const int ebusy[] = { EBUSY, 0 };

	if (access(IDLE_RESERVE, W_OK))
		SKIP(return, "no %s", IDLE_RESERVE);
	expect_bad_writes(_metadata, IDLE_RESERVE, bad, ARRAY_SIZE(bad),
			  "1000 10000", '1');
	/* Not below the rt ratio (0.95 by default): no room left for tasks. */
	expect_refused(_metadata, IDLE_RESERVE, "9999 10000", 10, 0, ebusy,
		       "99.99%");
	EXPECT_EQ(0, write_file(IDLE_RESERVE, "0 0\n"));
	TH_LOG("%d bad inputs tried", tried);
}

TEST(state_file)
{
	char big[BIG];

	if (access(STATE_FILE, R_OK))
		SKIP(return, "no %s", STATE_FILE);
	expect_refused(_metadata, STATE_FILE, "0", 1, 0, no_write, "\"0\"");
	expect_refused(_metadata, STATE_FILE, "", 0, 0, no_write, "an empty write");
	memset(big, 'x', sizeof(big));
	expect_refused(_metadata, STATE_FILE, big, sizeof(big), 0, no_write,
		       "8192 bytes");
	TH_LOG("%d bad inputs tried", tried);
}

TEST(governor_name)
{
	static const char * const bad[] = {
		"nosuch", "dlqos2", "dlqosdlqosdlqosdlqos", "-1",
	};
	char big[BIG];
	int i;

	if (access(CPUIDLE_SYSFS "/current_governor", W_OK))
		SKIP(return, "no writable current_governor");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_refused(_metadata, CPUIDLE_SYSFS "/current_governor",
			       bad[i], strlen(bad[i]), 0, einval, bad[i]);
	memset(big, 'x', sizeof(big));
	expect_refused(_metadata, CPUIDLE_SYSFS "/current_governor", big,
		       sizeof(big), 0, einval, "8192 bytes");
	TH_LOG("%d bad inputs tried", tried);
}

FIXTURE(driver) {
	int was_loaded;
};

FIXTURE_SETUP(driver)
{
	char buf[64];

	if (access(test_module_path(), R_OK))
		SKIP(return, "no test module at %s", test_module_path());
	self->was_loaded = !read_file(CPUIDLE_SYSFS "/current_driver", buf,
				      sizeof(buf)) && !strcmp(buf, "test_cpuidle");
	if (self->was_loaded)
		ASSERT_EQ(0, unload_test_driver());
}

FIXTURE_TEARDOWN(driver)
{
	unload_test_driver();
	if (self->was_loaded)
		ensure_test_driver();
}

TEST_F(driver, load_parameters)
{
	static const struct {
		const char *params;
		int err;
	} bad[] = {
		{ "poll=2", EINVAL },
		{ "poll=x", EINVAL },
		{ "poll=", EINVAL },
		{ "poll=-1", EINVAL },
		{ "poll_mw=-1", EINVAL },
		{ "poll_mw=", EINVAL },
		{ "poll_mw=12abc", EINVAL },
		{ "poll_mw=4294967296", ERANGE },
		{ "poll_mw=99999999999999999999999", ERANGE },
		{ "poll_mw=1000001", EINVAL },	/* above the power limit */
		{ "log=-1", EINVAL },
		{ "log=", EINVAL },
		{ "log=1x", EINVAL },
		{ "log=4194305", EINVAL },	/* above 2^22 records per CPU */
		{ "log=4294967296", ERANGE },
		{ "table=", EINVAL },
		{ "table=nosuch", EINVAL },
		{ "table=A:-1:1:1", EINVAL },
		{ "table=A:1:1:-1", EINVAL },
		{ "table=A:1:1:1000001", EINVAL },
		{ "table=A:4294967296:1:1", EINVAL },
		{ "table=A:1:1:1,,B:2:2:2", EINVAL },
		{ "table=spr,juno", EINVAL },
	};
	struct snapshot before, after;
	char params[600];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		take(&before);
		ret = load_test_driver(bad[i].params);
		take(&after);
		tried++;
		EXPECT_EQ(-bad[i].err, ret) {
			TH_LOG("%s: %d", bad[i].params, ret);
		}
		if (!ret)
			unload_test_driver();
		EXPECT_TRUE(same(&before, &after)) {
			TH_LOG("%s changed the state", bad[i].params);
		}
	}
	/* A table longer than its 256-byte buffer. */
	snprintf(params, sizeof(params), "table=%0500d", 0);
	take(&before);
	EXPECT_EQ(-ENOSPC, load_test_driver(params));
	take(&after);
	tried++;
	EXPECT_TRUE(same(&before, &after));
	/* Still loads after all that, and at the power limit. */
	EXPECT_EQ(0, load_test_driver("table=A:1:1:1000000 poll_mw=1000000"));
	TH_LOG("%d bad inputs tried", tried);
}

TEST_F(driver, sysfs_parameters)
{
	static const char * const files[] = { "table", "poll", "poll_mw", "log" };
	char path[128], before[300], after[300];
	int i;

	ASSERT_EQ(0, load_test_driver("table=spr"));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), PARAMS "/%s", files[i]);
		ASSERT_EQ(0, read_file(path, before, sizeof(before)));
		expect_refused(_metadata, path, "1", 1, 0, no_write, "\"1\"");
		expect_refused(_metadata, path, "juno", 4, 0, no_write, "\"juno\"");
		ASSERT_EQ(0, read_file(path, after, sizeof(after)));
		EXPECT_STREQ(before, after);
	}
	TH_LOG("%d bad inputs tried", tried);
}

TEST_HARNESS_MAIN
