// SPDX-License-Identifier: GPL-2.0
/*
 * Churn: many random operations on SCHED_DEADLINE tasks and on the
 * settings the idle latency limit depends on, from several threads at
 * once.  At every quiescent point the kernel's limit, its publication and
 * the deadline class's own bandwidth accounting must equal an independent
 * recomputation.
 *
 * Worker threads each own a few task slots and, at random: admit new tasks
 * (spinning or blocked), change their parameters (valid ones, and invalid
 * ones that must be refused and change nothing), switch them to
 * SCHED_OTHER and back, make them fork (with SCHED_RESET_ON_FORK the child
 * must be SCHED_OTHER, without it fork must fail with EAGAIN), kill them
 * while running or blocked, let them exit, and compare sched_getattr() with
 * what they set.  An admin thread meanwhile turns the publication off and
 * on, switches rule 2 off and on, switches cpuidle governors, writes
 * sched_rt_runtime_us and sched_dl_idle_reserve_us and takes the last CPU
 * offline and online.
 *
 * Every CHECK_EVERY operations all threads stop: once the tasks that left
 * have reached their 0-lag time, the state view must match the exact model
 * of dlqos_limit.h, and dl_bw->total_bw must be the fair servers' plus the
 * admitted tasks' bandwidth.  At the end, with all tasks gone, total_bw must
 * be back at its baseline: nothing leaked.
 *
 * DLQOS_CHURN_OPS sets the number of operations (default 100000, 10000
 * on a DEBUG=1 kernel), DLQOS_CHURN_SEED the random seed (default: the
 * time).
 */
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>

#include "../kselftest_harness.h"
#include "dlqos_util.h"
#include "dlqos_limit.h"

#define NR_WORKERS		3
#define SLOTS			6	/* per worker */
#define CHECK_EVERY		2000
#define STALL_SECONDS		240	/* no operation for this long: a hang */
#define REAP_SECONDS		60	/* a task told to end must be gone by then */
#define WORKER_BW_MAX		0.10	/* per worker: all fit on one CPU */
#define SPIN_BW_MAX		0.03
#define GOVERNORS_FILE		CPUIDLE_SYSFS "/available_governors"
#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_SUGOV	0x10000000

enum slot_state { SLOT_EMPTY, SLOT_DL, SLOT_OTHER };

struct slot {
	pid_t pid;
	int cmd;		/* write end: commands; closing it ends the task */
	int ack;		/* read end: replies */
	enum slot_state state;
	int spin;
	int reset_on_fork;
	struct task_param p;
};

struct counters {
	long ops, invalid, refused, forks, kills, exits, switches;
};

static struct {
	struct slot slot[NR_WORKERS][SLOTS];
	struct counters cnt[NR_WORKERS + 1];	/* workers, then admin */
	long target;
	unsigned int seed;
	long total;			/* operations so far, atomic */
	int stop;
	int failed;			/* a thread saw a wrong result */
	char failure[256];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int pause, parked;
	int toggles, rt_writes, reserve_writes;
	long eperm_retries;		/* atomic, see set_dl() */
	int last_cpu;
	char governors[8][16];
	int nr_governors;
	pid_t tid[NR_WORKERS + 1];
	pid_t tid_main;
	char doing[NR_WORKERS + 1][96];	/* what each thread last started */
} ch = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&ch.lock);
	if (!ch.failed) {
		va_start(ap, fmt);
		vsnprintf(ch.failure, sizeof(ch.failure), fmt, ap);
		va_end(ap);
	}
	ch.failed = 1;
	ch.stop = 1;
	/* Wake the main thread too: a stalled thread may never park. */
	pthread_cond_broadcast(&ch.cond);
	pthread_mutex_unlock(&ch.lock);
}

/* Thread @t (a worker, or NR_WORKERS: admin) starts something. */
static void doing(int t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ch.doing[t], sizeof(ch.doing[t]), fmt, ap);
	va_end(ap);
}

/*
 * The deadline replenishment timers the kernel has pending, each with its
 * expiry (/proc/timer_list), and the clock they are compared with: a
 * throttled task whose timer is missing or far in the past is the bug.
 */
static void dump_dl_timers(void)
{
	char line[256];
	int next = 0;
	FILE *f = fopen("/proc/timer_list", "r");

	if (!f) {
		ksft_print_msg("no /proc/timer_list\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (next || !strncmp(line, "now at", 6) ||
		    !strncmp(line, "cpu:", 4) || strstr(line, "dl_task_timer"))
			ksft_print_msg("%s", line);
		next = !!strstr(line, "dl_task_timer");
	}
	fclose(f);
}

/* State, wait channel and kernel stack of one task or thread. */
static void dump_task(const char *who, pid_t pid)
{
	char path[64], wchan[64], stack[1024];
	char state = proc_task_state(pid);
	FILE *f;

	if (state == '?') {
		ksft_print_msg("%s %d: gone\n", who, pid);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	if (read_file(path, wchan, sizeof(wchan)))
		wchan[0] = '\0';
	ksft_print_msg("%s %d: state %c, cpu %d, wchan %s\n", who, pid, state,
		       proc_task_cpu(pid), wchan);
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	if (!read_file(path, stack, sizeof(stack)))
		ksft_print_msg("%s\n", stack);
	/* Its deadline parameters and state (CONFIG_SCHED_DEBUG). */
	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	while (f && fgets(stack, sizeof(stack), f))
		if (!strncmp(stack, "dl.", 3) || !strncmp(stack, "policy", 6) ||
		    !strncmp(stack, "nr_switches", 11))
			ksft_print_msg("%s", stack);
	if (f)
		fclose(f);
}

/*
 * Wait for a task that was told to end (killed, or its command pipe
 * closed).  One still there after REAP_SECONDS fails the test, with its
 * state: a deadline task that never runs again cannot exit.
 */
static void reap(pid_t pid)
{
	int fd = syscall(__NR_pidfd_open, pid, 0);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd >= 0 && poll(&pfd, 1, REAP_SECONDS * 1000) == 0) {
		char online[16] = "";

		dump_task("unreaped task", pid);
		/* Is its CPU online, and is its replenishment timer armed? */
		read_file(CPU_SYSFS "/online", online, sizeof(online));
		ksft_print_msg("CPUs online: %s\n", online);
		dump_dl_timers();
		fail("task %d did not exit within %d s", pid, REAP_SECONDS);
	}
	if (fd >= 0)
		close(fd);
	waitpid(pid, NULL, 0);
}

/*
 * sched_setattr() refuses SCHED_DEADLINE with -EPERM when the task's
 * p->cpus_ptr does not cover its root domain.  On PREEMPT_RT that is also
 * the case, for a moment, when the task is preempted inside a
 * migrate_disable() section (a spinlock_t there), which narrows cpus_ptr
 * to its CPU: another thread's call is retried for up to a second, and
 * the retries are counted.  A persistent -EPERM still fails the test.
 */
static int set_dl(pid_t pid, const struct task_param *p, int reset_on_fork)
{
	int ret, tries = 0;

	do {
		ret = setattr(pid, sizeof(struct dlqos_sched_attr),
			      SCHED_DEADLINE,
			      reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0,
			      p->runtime, p->deadline, p->period);
		if (ret != -EPERM || !pid || ++tries > 1000)
			break;
		__atomic_add_fetch(&ch.eperm_retries, 1, __ATOMIC_RELAXED);
		usleep(1000);
	} while (1);
	return ret;
}

/* A grandchild reports whether fork reset it to SCHED_OTHER. */
static int fork_check(void)
{
	struct dlqos_sched_attr attr;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (syscall(__NR_sched_getattr, 0, &attr, sizeof(attr), 0))
			_exit(2);
		/* (sched_runtime is the fair slice of a SCHED_OTHER task.) */
		_exit(attr.sched_policy == 0 ? 0 : 3);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 1 : -1000;
}

/*
 * The task: admit itself, then block on (or poll, when spinning) the
 * command pipe; 'f' forks; end of file exits.
 */
static void task_main(int cmd, int ack, int spin, const struct task_param *p,
		      int reset_on_fork)
{
	int err;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	err = set_dl(0, p, reset_on_fork);
	if (write(ack, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	if (spin)
		fcntl(cmd, F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t n = read(cmd, &c, 1);

		if (!n)
			_exit(0);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			_exit(2);
		}
		if (c == 'f') {
			err = fork_check();
			if (write(ack, &err, sizeof(err)) != sizeof(err))
				_exit(3);
		}
	}
}

static double frand(unsigned int *seed)
{
	return rand_r(seed) / ((double)RAND_MAX + 1);
}

static double bw_of(const struct task_param *p)
{
	return (double)p->runtime / p->period;
}

/* Bandwidth of the worker's deadline tasks, without slot @skip. */
static double worker_bw(int w, int skip)
{
	double bw = 0;
	int i;

	for (i = 0; i < SLOTS; i++)
		if (i != skip && ch.slot[w][i].state == SLOT_DL)
			bw += bw_of(&ch.slot[w][i].p);
	return bw;
}

/*
 * Valid parameters of at most @max_bw: periods of 10-200 ms with odd
 * nanoseconds, runtimes of at least 300 us (a dying task must get through
 * its exit path in a few periods), deadlines anywhere in [C, P].
 */
static int random_params(unsigned int *seed, double max_bw,
			 struct task_param *p)
{
	double bw;

	p->period = 10 * MS + rand_r(seed) % (190 * MS);
	if (max_bw * p->period < 300 * US)
		return -1;
	bw = 300.0 * US / p->period;
	bw += frand(seed) * (max_bw - bw);
	p->runtime = bw * p->period;
	if (p->runtime < 300 * US)
		p->runtime = 300 * US;
	p->deadline = p->runtime + frand(seed) * (p->period - p->runtime);
	return 0;
}

static int task_start(unsigned int *seed, int w, int i)
{
	struct slot *s = &ch.slot[w][i];
	int cmd[2], ack[2], err;
	double room = WORKER_BW_MAX - worker_bw(w, i);
	int spin = 0, j;

	for (j = 0; j < SLOTS; j++)
		spin |= ch.slot[w][j].state != SLOT_EMPTY && ch.slot[w][j].spin;
	spin = !spin && rand_r(seed) % 2;
	if (spin && room > SPIN_BW_MAX)
		room = SPIN_BW_MAX;
	if (random_params(seed, room, &s->p))
		return 0;
	s->reset_on_fork = rand_r(seed) % 2;
	s->spin = spin;
	if (pipe(cmd) || pipe(ack))
		return -errno;
	s->pid = fork();
	if (s->pid < 0)
		return -errno;
	if (!s->pid) {
		int fd;

		/*
		 * Keep only this task's ends: a copy of another task's
		 * command pipe would keep that task from seeing its end.
		 */
		for (fd = 3; fd < 1024; fd++)
			if (fd != cmd[0] && fd != ack[1])
				close(fd);
		/*
		 * Nor the test's output: a task that cannot exit must fail
		 * the test (reap()), not hang the runner reading its pipe.
		 */
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
		task_main(cmd[0], ack[1], spin, &s->p, s->reset_on_fork);
	}
	close(cmd[0]);
	close(ack[1]);
	s->cmd = cmd[1];
	s->ack = ack[0];
	if (read(s->ack, &err, sizeof(err)) != sizeof(err))
		err = -EIO;
	if (err) {
		close(s->cmd);
		close(s->ack);
		reap(s->pid);
		s->pid = 0;
		if (err != -EBUSY)
			fail("admitting %llu/%llu/%llu: %s",
			     (unsigned long long)s->p.runtime,
			     (unsigned long long)s->p.deadline,
			     (unsigned long long)s->p.period, strerror(-err));
		ch.cnt[w].refused++;
		return 0;
	}
	s->state = SLOT_DL;
	ch.cnt[w].forks++;
	return 0;
}

/* Kill (running or blocked) or let exit (close the pipe), then reap. */
static void task_end(unsigned int *seed, int w, int i)
{
	struct slot *s = &ch.slot[w][i];

	if (rand_r(seed) % 2) {
		kill(s->pid, SIGKILL);
		ch.cnt[w].kills++;
	} else {
		ch.cnt[w].exits++;
	}
	close(s->cmd);
	close(s->ack);
	doing(w, "reaping task %d", s->pid);
	reap(s->pid);
	s->pid = 0;
	s->state = SLOT_EMPTY;
}

/* What sched_getattr() says must be what the test set. */
static void task_verify(int w, int i, const char *after)
{
	struct slot *s = &ch.slot[w][i];
	struct dlqos_sched_attr a;

	if (syscall(__NR_sched_getattr, s->pid, &a, sizeof(a), 0)) {
		fail("sched_getattr(%d) after %s: %s", s->pid, after,
		     strerror(errno));
		return;
	}
	if (s->state == SLOT_OTHER ? a.sched_policy != 0 :
	    a.sched_policy != SCHED_DEADLINE || a.sched_runtime != s->p.runtime ||
	    a.sched_deadline != s->p.deadline || a.sched_period != s->p.period ||
	    !!(a.sched_flags & SCHED_FLAG_RESET_ON_FORK) != s->reset_on_fork)
		fail("task %d after %s: %u %llu/%llu/%llu %llx, want %s %llu/%llu/%llu reset %d",
		     s->pid, after, a.sched_policy,
		     (unsigned long long)a.sched_runtime,
		     (unsigned long long)a.sched_deadline,
		     (unsigned long long)a.sched_period,
		     (unsigned long long)a.sched_flags,
		     s->state == SLOT_OTHER ? "other" : "deadline",
		     (unsigned long long)s->p.runtime,
		     (unsigned long long)s->p.deadline,
		     (unsigned long long)s->p.period, s->reset_on_fork);
}

/* Parameters the kernel must refuse with @err, whatever the task's state. */
static int invalid_setattr(unsigned int *seed, pid_t pid)
{
	const uint32_t size = sizeof(struct dlqos_sched_attr);

	switch (rand_r(seed) % 10) {
	case 0:	/* runtime below 1024 ns */
		return setattr(pid, size, SCHED_DEADLINE, 0, 1000, 5 * MS, 10 * MS) == -EINVAL;
	case 1:	/* deadline below runtime */
		return setattr(pid, size, SCHED_DEADLINE, 0, 6 * MS, 5 * MS, 10 * MS) == -EINVAL;
	case 2:	/* period below deadline */
		return setattr(pid, size, SCHED_DEADLINE, 0, 1 * MS, 11 * MS, 10 * MS) == -EINVAL;
	case 3:	/* no deadline */
		return setattr(pid, size, SCHED_DEADLINE, 0, 1 * MS, 0, 10 * MS) == -EINVAL;
	case 4:	/* period below sched_deadline_period_min_us (100 us) */
		return setattr(pid, size, SCHED_DEADLINE, 0, 10 * US, 50 * US, 50 * US) == -EINVAL;
	case 5:	/* period above sched_deadline_period_max_us (~4 s) */
		return setattr(pid, size, SCHED_DEADLINE, 0, 1 * MS, 10 * MS, 5000 * MS) == -EINVAL;
	case 6:	/* deadline with bit 63 set ("negative") */
		return setattr(pid, size, SCHED_DEADLINE, 0, 1 * MS, 1ull << 63, 0) == -EINVAL;
	case 7:	/* unknown flag */
		return setattr(pid, size, SCHED_DEADLINE, 1ull << 40,
			       1 * MS, 5 * MS, 10 * MS) == -EINVAL;
	case 8:	/* kernel-only flag */
		return setattr(pid, size, SCHED_DEADLINE, SCHED_FLAG_SUGOV,
			       1 * MS, 5 * MS, 10 * MS) == -EINVAL;
	default: /* attr smaller than SCHED_ATTR_SIZE_VER0 */
		return setattr(pid, 40, SCHED_DEADLINE, 0, 1 * MS, 5 * MS, 10 * MS) == -E2BIG;
	}
}

static void worker_op(unsigned int *seed, int w)
{
	int i = rand_r(seed) % SLOTS, r = rand_r(seed) % 100, ret;
	struct slot *s = &ch.slot[w][i];
	struct task_param p;
	char c = 'f';

	doing(w, "op %d on slot %d: task %d, %s", r, i, s->pid,
	      s->state == SLOT_EMPTY ? "none" :
	      s->state == SLOT_DL ? "deadline" : "normal");
	if (s->state == SLOT_EMPTY) {
		if (r < 30 && task_start(seed, w, i))
			fail("fork: %s", strerror(errno));
		return;
	}
	if (r < 8) {
		task_end(seed, w, i);
	} else if (r < 40) {
		/* New valid parameters: accepted, or refused for bandwidth. */
		if (s->spin && s->state == SLOT_OTHER)
			return;
		if (random_params(seed, s->spin ? SPIN_BW_MAX :
				  WORKER_BW_MAX - worker_bw(w, i), &p))
			return;
		ret = set_dl(s->pid, &p, s->reset_on_fork);
		if (!ret) {
			s->p = p;
			if (s->state == SLOT_OTHER)
				ch.cnt[w].switches++;
			s->state = SLOT_DL;
		} else if (ret == -EBUSY) {
			ch.cnt[w].refused++;
		} else {
			fail("sched_setattr(%d, %llu/%llu/%llu): %s", s->pid,
			     (unsigned long long)p.runtime,
			     (unsigned long long)p.deadline,
			     (unsigned long long)p.period, strerror(-ret));
		}
		task_verify(w, i, "a parameter change");
	} else if (r < 60) {
		ch.cnt[w].invalid++;
		if (!invalid_setattr(seed, s->pid))
			fail("invalid sched_setattr accepted or wrong error");
		task_verify(w, i, "invalid parameters");
	} else if (r < 70) {
		/* Class switch; a spinning task stays SCHED_DEADLINE. */
		if (s->state == SLOT_DL && !s->spin) {
			ret = setattr(s->pid, sizeof(struct dlqos_sched_attr),
				      0, 0, 0, 0, 0);
			if (ret)
				fail("switch to SCHED_OTHER: %s", strerror(-ret));
			s->state = SLOT_OTHER;
			ch.cnt[w].switches++;
			task_verify(w, i, "a switch to SCHED_OTHER");
		}
	} else if (r < 78) {
		/* fork from the task */
		if (write(s->cmd, &c, 1) != 1 ||
		    read(s->ack, &ret, sizeof(ret)) != sizeof(ret)) {
			fail("fork command to %d: %s", s->pid, strerror(errno));
			return;
		}
		if (s->state == SLOT_DL && !s->reset_on_fork ? ret != -EAGAIN :
		    ret != 1)
			fail("fork from a %s task%s: %d",
			     s->state == SLOT_DL ? "deadline" : "normal",
			     s->reset_on_fork ? " with SCHED_RESET_ON_FORK" : "",
			     ret);
	} else if (r < 85) {
		/* Toggle SCHED_RESET_ON_FORK with the same parameters. */
		if (s->state != SLOT_DL)
			return;
		ret = set_dl(s->pid, &s->p, !s->reset_on_fork);
		if (ret)
			fail("toggling SCHED_RESET_ON_FORK: %s", strerror(-ret));
		else
			s->reset_on_fork = !s->reset_on_fork;
		task_verify(w, i, "SCHED_RESET_ON_FORK change");
	} else {
		task_verify(w, i, "nothing");
	}
}

/* Park while the main thread checks; returns 1 when told to stop. */
static int quiesce(void)
{
	int stop;

	pthread_mutex_lock(&ch.lock);
	if (ch.pause) {
		ch.parked++;
		pthread_cond_broadcast(&ch.cond);
		while (ch.pause && !ch.stop)
			pthread_cond_wait(&ch.cond, &ch.lock);
		ch.parked--;
	}
	stop = ch.stop;
	pthread_mutex_unlock(&ch.lock);
	return stop;
}

static int next_op(void)
{
	return __atomic_add_fetch(&ch.total, 1, __ATOMIC_RELAXED) <= ch.target;
}

/*
 * Done: stay parked until the test ends, so that the tasks this thread
 * forked (PR_SET_PDEATHSIG) live on for the last check.
 */
static void finish(void)
{
	pthread_mutex_lock(&ch.lock);
	ch.parked++;
	pthread_cond_broadcast(&ch.cond);
	while (!ch.stop)
		pthread_cond_wait(&ch.cond, &ch.lock);
	ch.parked--;
	pthread_mutex_unlock(&ch.lock);
}

static void *worker(void *arg)
{
	int w = (long)arg;
	unsigned int seed = (unsigned int)ch.target ^ (w * 2654435761u) ^
			    ch.seed;

	ch.tid[w] = syscall(__NR_gettid);
	while (!quiesce() && next_op()) {
		worker_op(&seed, w);
		ch.cnt[w].ops++;
	}
	finish();
	return NULL;
}

static int write_ll(const char *path, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return write_file(path, buf);
}

static void admin_op(unsigned int *seed, struct counters *c)
{
	static const long long rt_runtime[] = { 950000, 900000, 800000,
						990000, -1 };
	static const char * const reserve[] = { "0 0", "500 10000",
						 "2000 40000", "1000 10000" };
	char path[64];
	int r = rand_r(seed) % 100, ret, online;

	doing(NR_WORKERS, "admin op %d", r);
	if (r < 25) {
		ret = write_file(SYSCTL, rand_r(seed) % 2 ? "1" : "0");
		if (ret)
			fail("publication switch: %s", strerror(-ret));
	} else if (r < 33) {
		static const char * const modes[] = { "bandwidth", "off",
						      "demand" };

		ret = write_file(RULE2, modes[rand_r(seed) % 3]);
		if (ret)
			fail("rule 2 mode switch: %s", strerror(-ret));
	} else if (r < 40) {
		/* Accepted, or refused when the admitted tasks do not fit. */
		ret = write_file(IDLE_RESERVE, reserve[rand_r(seed) % 4]);
		if (ret && ret != -EBUSY)
			fail("sched_dl_idle_reserve_us: %s", strerror(-ret));
		ch.reserve_writes++;
	} else if (r < 70) {
		if (!ch.nr_governors)
			return;
		ret = set_governor(ch.governors[rand_r(seed) % ch.nr_governors]);
		if (ret)
			fail("governor switch: %s", strerror(-ret));
	} else if (r < 90) {
		/* Accepted, or refused when the admitted tasks do not fit. */
		ret = write_ll(RT_RUNTIME, rt_runtime[rand_r(seed) % 5]);
		if (ret && ret != -EBUSY)
			fail("sched_rt_runtime_us: %s", strerror(-ret));
		ch.rt_writes++;
		/* Out of range: more than the period. */
		c->invalid++;
		if (write_ll(RT_RUNTIME, 2000000) != -EINVAL)
			fail("sched_rt_runtime_us above the period accepted");
	} else if (r < 94 && ch.last_cpu > 0 && ch.toggles * 50 <= c->ops) {
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online",
			 ch.last_cpu);
		online = read_ll(path);
		ret = set_cpu_online(ch.last_cpu, !online);
		if (!ret)
			ch.toggles++;
		else if (!online || ret != -EBUSY)
			fail("cpu%d %s: %s", ch.last_cpu,
			     online ? "offline" : "online", strerror(-ret));
	}
}

static void *admin(void *arg)
{
	unsigned int seed = 0x5eed ^ ch.seed;
	struct counters *c = &ch.cnt[NR_WORKERS];

	ch.tid[NR_WORKERS] = syscall(__NR_gettid);
	while (!quiesce() && next_op()) {
		admin_op(&seed, c);
		c->ops++;
		/* Leave most operations to the workers. */
		usleep(5000);
	}
	finish();
	return NULL;
}

/* Every task, including one a worker is still admitting. */
static void kill_all_tasks(void)
{
	int w, i;

	for (w = 0; w < NR_WORKERS; w++)
		for (i = 0; i < SLOTS; i++)
			if (ch.slot[w][i].pid > 0)
				kill(ch.slot[w][i].pid, SIGKILL);
}

/*
 * No operation completed for STALL_SECONDS: say what every thread and
 * task is doing, have the kernel dump its blocked tasks and CPUs, then
 * kill the tasks so that threads waiting on them can return.
 */
static void stalled(void)
{
	char who[32];
	int t, w, i;

	ksft_print_msg("churn: no progress at %ld operations, seed %u\n",
		       __atomic_load_n(&ch.total, __ATOMIC_RELAXED), ch.seed);
	for (t = 0; t <= NR_WORKERS; t++) {
		ksft_print_msg("%s %d: %.95s\n", t < NR_WORKERS ? "worker" :
			       "admin", t, ch.doing[t]);
		if (ch.tid[t])
			dump_task("thread", ch.tid[t]);
	}
	for (w = 0; w < NR_WORKERS; w++)
		for (i = 0; i < SLOTS; i++) {
			if (ch.slot[w][i].state == SLOT_EMPTY)
				continue;
			snprintf(who, sizeof(who), "worker %d slot %d task", w, i);
			dump_task(who, ch.slot[w][i].pid);
		}
	dump_task("main thread", ch.tid_main);
	dump_dl_timers();
	write_file("/proc/sysrq-trigger", "w");
	write_file("/proc/sysrq-trigger", "l");
	/* The blocked tasks' stacks are below the console's log level. */
	fflush(stdout);
	if (system("dmesg | tail -n 300"))
		ksft_print_msg("no dmesg\n");
	fail("no operation completed for %d s (seed %u)", STALL_SECONDS,
	     ch.seed);
	kill_all_tasks();
}

/*
 * Calls stalled() when the operation count has not changed for
 * STALL_SECONDS.  Its own thread: the main thread may be the one blocked
 * (reading the state file at a quiescent point, for one).
 */
static void *watchdog(void *arg)
{
	uint64_t since = now_ns(CLOCK_MONOTONIC), now;
	long last = -1, total;

	while (!__atomic_load_n(&ch.stop, __ATOMIC_RELAXED)) {
		total = __atomic_load_n(&ch.total, __ATOMIC_RELAXED);
		now = now_ns(CLOCK_MONOTONIC);
		if (total != last) {
			last = total;
			since = now;
		} else if (now - since > STALL_SECONDS * 1000000000ull) {
			stalled();
			break;
		}
		sleep(1);
	}
	return NULL;
}

/* The admitted tasks, as the model of dlqos_limit.h sees them. */
static void build_model(struct model *m, long long *task_bw)
{
	int w, i;

	m->n = 0;
	*task_bw = 0;
	for (w = 0; w < NR_WORKERS; w++)
		for (i = 0; i < SLOTS; i++) {
			struct slot *s = &ch.slot[w][i];

			if (s->state != SLOT_DL)
				continue;
			m->t[m->n] = s->p;
			m->c[m->n].pid = s->pid;
			m->n++;
			*task_bw += dl_to_ratio(s->p.period, s->p.runtime);
		}
}

static int bw_checks;

/* A quiescent point: the kernel against the model. */
static void check_quiescent(struct __test_metadata *_metadata)
{
	static struct model m;
	long long task_bw;
	struct state s;

	build_model(&m, &task_bw);
	/* Tasks that left are released at their 0-lag time. */
	ASSERT_EQ(0, wait_tasks(m.n, &s, 120)) {
		TH_LOG("kernel accounts %ld tasks, the test admitted %d",
		       s.tasks, m.n);
	}
	check_limit(_metadata, &m);
	/*
	 * 6.12 accounts a task blocked on an offline CPU in that CPU's
	 * (default) root domain, not in CPU 0's: compare total_bw with all
	 * CPUs online only.
	 */
	if (nr_cpus() != sysconf(_SC_NPROCESSORS_CONF))
		return;
	EXPECT_EQ(servers_total_bw() + task_bw, dl_total_bw()) {
		TH_LOG("dl_bw->total_bw: servers %lld + tasks %lld",
		       servers_total_bw(), task_bw);
	}
	bw_checks++;
}

/* What the teardown restores, and the threads it stops. */
struct saved {
	long long rt_runtime;
	char rule2[16];
	char governor[32];
	pthread_t thread[NR_WORKERS + 1];
	int nr_threads;
	pthread_t watchdog;
	int has_watchdog;
};

FIXTURE(churn) {
	struct saved v;
};

FIXTURE_SETUP(churn)
{
	char buf[256], *tok, *save;
	const char *env;
	struct state s;

	if (access(STATE_FILE, R_OK))
		SKIP(return, "no %s (CONFIG_DL_IDLE_QOS=n?)", STATE_FILE);
	self->v.rt_runtime = read_ll(RT_RUNTIME);
	ASSERT_EQ(0, read_file(RULE2, self->v.rule2, sizeof(self->v.rule2)));
	ASSERT_EQ(0, write_file(SYSCTL, "1"));
	ASSERT_EQ(0, write_file(RULE2, "bandwidth"));
	if (!access(IDLE_RESERVE, W_OK))
		ASSERT_EQ(0, write_file(IDLE_RESERVE, "0 0"));
	/* Governor switches need a driver: the platform's, or the test one. */
	if (!platform_idle_driver(buf, sizeof(buf)))
		ASSERT_EQ(0, ensure_test_driver());
	ASSERT_EQ(0, get_governor(self->v.governor, sizeof(self->v.governor)));
	ASSERT_EQ(0, read_file(GOVERNORS_FILE, buf, sizeof(buf)));
	for (tok = strtok_r(buf, " ", &save); tok && ch.nr_governors < 8;
	     tok = strtok_r(NULL, " ", &save))
		snprintf(ch.governors[ch.nr_governors++], 16, "%s", tok);
	ch.last_cpu = nr_cpus() - 1;
	snprintf(buf, sizeof(buf), CPU_SYSFS "/cpu%d/online", ch.last_cpu);
	if (access(buf, W_OK))
		ch.last_cpu = 0;
	/*
	 * A debug kernel (KASAN, lockdep) under TCG is some 20 times slower:
	 * 100000 operations there would take most of an hour.
	 */
	env = getenv("DLQOS_CHURN_OPS");
	ch.target = env ? atol(env) : getenv("DLQOS_DEBUG") ? 10000 : 100000;
	env = getenv("DLQOS_CHURN_SEED");
	ch.seed = env ? strtoul(env, NULL, 0) : time(NULL);
	/* Nothing left from earlier tests; the baseline is the servers. */
	ASSERT_EQ(0, wait_tasks(0, &s, 120));
	ASSERT_EQ(servers_total_bw(), dl_total_bw());
}

static void stop_threads(struct saved *v)
{
	int i;

	pthread_mutex_lock(&ch.lock);
	ch.stop = 1;
	pthread_cond_broadcast(&ch.cond);
	pthread_mutex_unlock(&ch.lock);
	for (i = 0; i < v->nr_threads; i++)
		pthread_join(v->thread[i], NULL);
	v->nr_threads = 0;
	if (v->has_watchdog)
		pthread_join(v->watchdog, NULL);
	v->has_watchdog = 0;
}

/* Kill every task first, then reap: their exit paths run in parallel. */
static void end_all_tasks(void)
{
	int w, i;

	kill_all_tasks();
	for (w = 0; w < NR_WORKERS; w++)
		for (i = 0; i < SLOTS; i++) {
			struct slot *s = &ch.slot[w][i];

			if (s->state == SLOT_EMPTY)
				continue;
			close(s->cmd);
			close(s->ack);
			reap(s->pid);
			s->state = SLOT_EMPTY;
			s->pid = 0;
		}
}

static void restore(struct saved *v)
{
	char path[64];

	if (ch.last_cpu > 0) {
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online",
			 ch.last_cpu);
		if (read_ll(path) == 0)
			set_cpu_online(ch.last_cpu, 1);
	}
	if (read_ll(RT_RUNTIME) != v->rt_runtime)
		write_ll(RT_RUNTIME, v->rt_runtime);
	write_file(SYSCTL, "1");
	write_file(RULE2, v->rule2);
	write_file(IDLE_RESERVE, "0 0");
	set_governor(v->governor);
}

/*
 * The random operations turn the limit's publication and admission control
 * off and on, switch to governors that ignore the limit and take a CPU
 * offline, all while deadline tasks run: a task may be late, by design.
 */
#define CHURN_LATENESS \
	"churn_test: limit and admission off at times, any governor, CPU hotplug"

FIXTURE_TEARDOWN(churn)
{
	stop_threads(&self->v);
	end_all_tasks();
	restore(&self->v);
	lateness_allowed(0, CHURN_LATENESS);
}

TEST_F_TIMEOUT(churn, random_operations, 3000)
{
	struct counters sum = { 0 };
	long next_check = CHECK_EVERY;
	struct state s;
	int i, checks = 0;

	TH_LOG("%ld operations, seed %u, %d worker threads, CPU %d toggled",
	       ch.target, ch.seed, NR_WORKERS, ch.last_cpu);
	ch.tid_main = syscall(__NR_gettid);
	lateness_allowed(1, CHURN_LATENESS);
	for (i = 0; i < NR_WORKERS; i++)
		ASSERT_EQ(0, pthread_create(&self->v.thread[i], NULL, worker,
					    (void *)(long)i));
	self->v.nr_threads = NR_WORKERS;
	ASSERT_EQ(0, pthread_create(&self->v.thread[i], NULL, admin, NULL));
	self->v.nr_threads++;
	ASSERT_EQ(0, pthread_create(&self->v.watchdog, NULL, watchdog, NULL));
	self->v.has_watchdog = 1;

	for (;;) {
		long done = __atomic_load_n(&ch.total, __ATOMIC_RELAXED);

		if (done < next_check && done < ch.target && !ch.stop) {
			usleep(20000);
			continue;
		}
		/* Quiescent point: every thread parked, or done. */
		pthread_mutex_lock(&ch.lock);
		ch.pause = 1;
		while (ch.parked < self->v.nr_threads && !ch.stop)
			pthread_cond_wait(&ch.cond, &ch.lock);
		pthread_mutex_unlock(&ch.lock);
		ASSERT_EQ(0, ch.failed) {
			TH_LOG("%s", ch.failure);
		}
		check_quiescent(_metadata);
		checks++;
		if (__atomic_load_n(&ch.total, __ATOMIC_RELAXED) >= ch.target)
			break;
		next_check += CHECK_EVERY;
		pthread_mutex_lock(&ch.lock);
		ch.pause = 0;
		pthread_cond_broadcast(&ch.cond);
		pthread_mutex_unlock(&ch.lock);
	}

	/* All tasks gone: the accounting is back at its baseline. */
	end_all_tasks();
	stop_threads(&self->v);
	restore(&self->v);
	lateness_allowed(0, CHURN_LATENESS);
	ASSERT_EQ(0, ch.failed) {
		TH_LOG("%s", ch.failure);
	}
	ASSERT_EQ(0, wait_tasks(0, &s, 120));
	EXPECT_EQ(servers_total_bw(), dl_total_bw());
	check_quiescent(_metadata);
	checks++;

	for (i = 0; i <= NR_WORKERS; i++) {
		sum.ops += ch.cnt[i].ops;
		sum.invalid += ch.cnt[i].invalid;
		sum.refused += ch.cnt[i].refused;
		sum.forks += ch.cnt[i].forks;
		sum.kills += ch.cnt[i].kills;
		sum.exits += ch.cnt[i].exits;
		sum.switches += ch.cnt[i].switches;
	}
	EXPECT_LE(ch.target, sum.ops);
	TH_LOG("churn: %ld operations, %d quiescent checks (%d of total_bw)",
	       sum.ops, checks, bw_checks);
	TH_LOG("churn: %ld tasks admitted, %ld killed, %ld exited, %ld class switches",
	       sum.forks, sum.kills, sum.exits, sum.switches);
	TH_LOG("churn: %ld invalid inputs refused, %ld refused for bandwidth",
	       sum.invalid, sum.refused);
	TH_LOG("churn: %d rt runtime writes, %d idle reservation writes",
	       ch.rt_writes, ch.reserve_writes);
	TH_LOG("churn: %d CPU offline/online toggles, %ld sched_setattr retries after -EPERM",
	       ch.toggles, ch.eperm_retries);
}

TEST_HARNESS_MAIN
