// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_loop.c - the enforcer's decision loop (enforcer/loop.c)
 * without root: two pipes stand in for the fanotify fd, one carrying
 * events to the loop, one carrying its answers back (a pipe holds
 * thousands of answers; a socket's buffer accounting would refuse a
 * batch's worth of small writes).  The test writes struct
 * fanotify_event_metadata records to the first,
 * each carrying a real fd of a real file in a temporary directory (the
 * loop stats it and reads its path as it would a fanotify event fd), and
 * reads the struct fanotify_response answers back.  The policy is a real
 * policy directory loaded by the daemon's own code; the process is this
 * test, placed in a domain of the real tracker.  Mocked: only the kernel
 * (fanotify and the proc connector, which need root, and the flags of the
 * open an event is about: no thread of this test waits in that open, so
 * /proc/TID/syscall would not show it; fake_open_flags() says them, and
 * test_proc_flags reads real ones).
 * Property under test: every event read is judged and answered exactly
 * once, as the policy says, however many one read returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "enforcer_private.h"
#include "procs_private.h"

#define DOMAIN "<kernel> /test/prog"

struct fix {
	char dir[64];			/* files the events are about */
	char pol[PATH_MAX];		/* the policy directory */
	int fan;			/* events: the loop reads here */
	int peer;			/* events: the test writes here */
	int ans_w;			/* answers: written by the loop */
	int ans_r;			/* answers: read by the test */
	struct hm_enforcer_opts o;
	struct hm_enforcer_counters c;
	struct hm_live *live;
	struct hm_tracker *t;
	struct hm_procs *procs;
	struct hm_opener *opener;
	struct hm_answers *ans;
	struct hm_dcache *cache;
	struct hm_loop *loop;
};

/* The open every event is about: its flags, or an error (-ENODATA:
 * cannot be told). */
static uint64_t fake_flags;
static int fake_err;

static int fake_open_flags(int32_t tid, uint64_t *flags)
{
	(void)tid;
	if (fake_err)
		return fake_err;
	*flags = fake_flags;
	return 0;
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) <
		    (int)sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* "<kernel> /test/prog" may read ok and execute prog; enforcing. */
static void write_policy(struct fix *x)
{
	char text[2048];

	snprintf(x->pol, sizeof(x->pol), "%s/policy", x->dir);
	assert_int_equal(mkdir(x->pol, 0700), 0);
	snprintf(text, sizeof(text),
		 "<kernel>\nuse_profile 3\n\n"
		 DOMAIN "\nuse_profile 3\nfile read %s/ok\n"
		 "file execute %s/prog\n", x->dir, x->dir);
	put_file(x->pol, "domain_policy.conf", text);
	put_file(x->pol, "exception_policy.conf", "");
}

/* The loop, strict (execs of unobserved history judged) or not. */
static void new_loop(struct fix *x, bool strict)
{
	struct hm_loop_cfg lcfg = {
		.fan_fd = x->fan, .self = 1, .audit_fd = -1,
		.decision_timeout_ms = 10000, .ans = x->ans,
		.procs = x->procs, .opener = x->opener, .live = x->live,
		.cache = x->cache, .c = &x->c, .strict = strict,
		.open_flags = fake_open_flags,
	};

	hm_loop_free(x->loop);
	x->loop = NULL;
	assert_int_equal(hm_loop_new(&lcfg, &x->loop), 0);
}

static int setup(void **state)
{
	struct fix *x = calloc(1, sizeof(*x));
	struct hm_answers_cfg acfg = { .decision_timeout_ms = 10000,
				       .audit_fd = -1 };
	int ev[2], an[2];

	assert_non_null(x);
	strcpy(x->dir, "/tmp/hm-test-loop-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	put_file(x->dir, "ok", "ok\n");
	put_file(x->dir, "no", "no\n");
	put_file(x->dir, "prog", "#!/bin/sh\n");
	put_file(x->dir, "other", "#!/bin/sh\n");
	write_policy(x);

	hm_enforcer_opts_init(&x->o);
	x->o.policy = x->pol;
	assert_int_equal(hm_live_load(&x->o, &x->c, &x->live), 0);
	x->t = hm_tracker_new(x->live->m, false, 0);
	assert_non_null(x->t);
	x->live->t = x->t;
	assert_int_equal(hm_tracker_set(x->t, getpid(), getppid(), NULL, 0,
					DOMAIN, strlen(DOMAIN), 0, time(NULL)),
			 0);
	assert_int_equal(hm_procs_new(&(struct hm_procs_cfg){
			.fd = -1, .tracker = x->t, .c = &x->c.procs },
			&x->procs), 0);
	assert_int_equal(hm_opener_new(&x->c, &x->opener), 0);

	assert_int_equal(pipe2(ev, O_CLOEXEC | O_NONBLOCK), 0);
	assert_int_equal(pipe2(an, O_CLOEXEC | O_NONBLOCK), 0);
	x->fan = ev[0];
	x->peer = ev[1];
	x->ans_r = an[0];
	x->ans_w = an[1];
	acfg.fan_fd = x->ans_w;
	assert_int_equal(hm_answers_new(&acfg, &x->ans), 0);
	x->cache = hm_dcache_new(64, 0);
	assert_non_null(x->cache);
	fake_flags = O_RDONLY;
	fake_err = 0;
	new_loop(x, false);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fix *x = *state;
	char cmd[PATH_MAX + 16];

	hm_loop_free(x->loop);
	hm_answers_free(x->ans);
	hm_dcache_free(x->cache);
	hm_procs_free(x->procs);
	hm_opener_free(x->opener);
	hm_live_free(x->live);
	hm_tracker_free(x->t);
	close(x->fan);
	close(x->peer);
	close(x->ans_r);
	close(x->ans_w);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->dir);
	assert_int_equal(system(cmd), 0);
	free(x);
	return 0;
}

/* One event the test sends, and the answer it wants (-1: none). */
struct want {
	const char *file;
	uint64_t mask;
	int32_t pid;		/* 0: this process */
	int answer;		/* FAN_ALLOW, FAN_DENY, or -1 */
	int fd;			/* set when sent */
};

/* Send @n events in one write: the loop reads them as the kernel's. */
static void send_events(struct fix *x, struct want *w, size_t n)
{
	struct fanotify_event_metadata *md = calloc(n, sizeof(*md));
	size_t len = n * sizeof(*md);

	assert_non_null(md);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", x->dir, w[i].file);
		w[i].fd = open(path, O_RDONLY | O_CLOEXEC);
		assert_true(w[i].fd >= 0);
		md[i] = (struct fanotify_event_metadata){
			.event_len = FAN_EVENT_METADATA_LEN,
			.vers = FANOTIFY_METADATA_VERSION,
			.metadata_len = FAN_EVENT_METADATA_LEN,
			.mask = w[i].mask,
			.fd = w[i].fd,
			.pid = w[i].pid ? w[i].pid : getpid(),
		};
	}
	assert_int_equal(write(x->peer, md, len), (ssize_t)len);
	free(md);
}

/* Run the loop until nothing is left to read; returns the reads. */
static int run_loop(struct fix *x, bool proc_ready, long *first)
{
	int reads = 0;
	long n;

	while ((n = hm_loop_read(x->loop, proc_ready, hm_now_ns())) > 0) {
		if (!reads && first)
			*first = n;
		reads++;
	}
	assert_int_equal(n, 0);
	return reads;
}

/* Every answer, in order: the event's fd and the wanted verdict. */
static void check_answers(struct fix *x, const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fanotify_response r;

		if (w[i].answer < 0)
			continue;
		assert_int_equal(read(x->ans_r, &r, sizeof(r)),
				 (ssize_t)sizeof(r));
		assert_int_equal(r.fd, w[i].fd);
		if ((int)(r.response & ~FAN_AUDIT) != w[i].answer)
			fail_msg("event %zu (%s): answer %u, want %d", i,
				 w[i].file, r.response, w[i].answer);
	}
	/* exactly once: nothing more */
	{
		struct fanotify_response r;

		assert_int_equal(read(x->ans_r, &r, sizeof(r)), -1);
		assert_int_equal(errno, EAGAIN);
	}
}

/* A table of single events, one read each. */
static void test_verdicts(void **state)
{
	struct fix *x = *state;
	struct want w[] = {
		{ "ok", FAN_OPEN_PERM, 0, FAN_ALLOW, -1 },
		{ "no", FAN_OPEN_PERM, 0, FAN_DENY, -1 },
		{ "ok", FAN_OPEN_PERM, 0, FAN_ALLOW, -1 },	/* cached */
		{ "prog", FAN_OPEN_EXEC_PERM, 0, FAN_ALLOW, -1 },
		{ "other", FAN_OPEN_EXEC_PERM, 0, FAN_DENY, -1 },
		{ "no", FAN_OPEN_PERM, 1, FAN_ALLOW, -1 },	/* self */
		{ "no", FAN_OPEN, 0, -1, -1 },	/* notification: no answer */
	};

	send_events(x, w, HM_ARRAY_SIZE(w));
	assert_int_equal(run_loop(x, false, NULL), (int)HM_ARRAY_SIZE(w));
	check_answers(x, w, HM_ARRAY_SIZE(w));
	assert_int_equal(x->c.allowed, 2);
	assert_int_equal(x->c.cache_allowed, 1);
	assert_int_equal(x->c.denied, 3);	/* and the notification: */
	assert_int_equal(x->c.events, 7);	/* "would-deny", logged */
	assert_int_equal(x->c.self, 1);
	/* the allowed exec waits for its proc event under its name */
	assert_non_null(hm_execs_find(&x->procs->x, getpid()));
}

/*
 * A process of unobserved history (running before the start) in its
 * <kernel> EXE: strict, its execs are judged by that domain's ACL; not
 * strict, let through and counted.  Opens are judged either way.
 */
static void unobserved(struct fix *x, bool strict)
{
	struct want w[] = {
		{ "prog", FAN_OPEN_EXEC_PERM, 0, FAN_ALLOW, -1 },
		{ "other", FAN_OPEN_EXEC_PERM, 0,
		  strict ? FAN_DENY : FAN_ALLOW, -1 },
		{ "no", FAN_OPEN_PERM, 0, FAN_DENY, -1 },
	};

	assert_int_equal(hm_tracker_set(x->t, getpid(), getppid(), NULL, 0,
					DOMAIN, strlen(DOMAIN),
					HM_PROC_UNOBSERVED, time(NULL)), 0);
	new_loop(x, strict);
	send_events(x, w, HM_ARRAY_SIZE(w));
	run_loop(x, false, NULL);
	check_answers(x, w, HM_ARRAY_SIZE(w));
	assert_int_equal(x->c.unobserved_exec, strict ? 2 : 0);
	assert_int_equal(x->c.not_judged_exec, strict ? 0 : 2);
	assert_int_equal(x->c.allowed, strict ? 1 : 0);
	assert_int_equal(x->c.denied, strict ? 2 : 1);
	/* the exec that went through waits for its proc event */
	assert_non_null(hm_execs_find(&x->procs->x, getpid()));
}

static void test_unobserved_strict(void **state)
{
	unobserved(*state, true);
}

static void test_unobserved_not_strict(void **state)
{
	unobserved(*state, false);
}

/* Learning, strict or not: the exec is learned in <kernel> EXE, as
 * `histmac learn` learns it, and passes once strict and enforcing. */
static void unobserved_learned(struct fix *x, bool strict)
{
	struct want w[] = { { "other", FAN_OPEN_EXEC_PERM, 0, FAN_ALLOW, -1 } };

	assert_int_equal(hm_tracker_set(x->t, getpid(), getppid(), NULL, 0,
					DOMAIN, strlen(DOMAIN),
					HM_PROC_UNOBSERVED, time(NULL)), 0);
	new_loop(x, strict);
	x->o.mode = HM_PROFILE_LEARNING;
	send_events(x, w, 1);
	run_loop(x, false, NULL);
	check_answers(x, w, 1);
	assert_int_equal(x->c.learned, 1);
	hm_execs_drop(&x->procs->x, getpid());	/* a new exec, not its part */
	x->o.mode = HM_ENFORCER_MODE_PER_DOMAIN;	/* enforcing */
	new_loop(x, true);
	send_events(x, w, 1);
	run_loop(x, false, NULL);
	check_answers(x, w, 1);
	assert_int_equal(x->c.allowed, 1);
	assert_int_equal(x->c.unobserved_exec, 2);
	assert_int_equal(x->c.not_judged_exec, 0);
}

static void test_unobserved_learned(void **state)
{
	unobserved_learned(*state, true);
}

static void test_unobserved_learned_not_strict(void **state)
{
	unobserved_learned(*state, false);
}

/*
 * More events than one read takes: a read returns at most HM_LOOP_BATCH
 * of them, and every one is judged (events past 512 in one read were
 * once allowed unjudged).  The forbidden ones sit at the end.
 */
static void test_batch(void **state)
{
	struct fix *x = *state;
	size_t n = HM_LOOP_BATCH + 88;
	struct want *w = calloc(n, sizeof(*w));
	long first = 0;

	assert_non_null(w);
	for (size_t i = 0; i < n; i++) {
		bool deny = i % 3 == 0 || i >= HM_LOOP_BATCH - 10;

		w[i] = (struct want){ deny ? "no" : "ok", FAN_OPEN_PERM, 0,
				      deny ? FAN_DENY : FAN_ALLOW, -1 };
	}
	send_events(x, w, n);
	assert_int_equal(run_loop(x, true, &first), 2);
	assert_int_equal(first, HM_LOOP_BATCH * FAN_EVENT_METADATA_LEN);
	check_answers(x, w, n);
	assert_int_equal(x->c.events, n);
	assert_int_equal(x->c.internal_errors, 0);
	free(w);
}

/* A malformed record is closed and counted, the rest still judged. */
static void test_bad_version(void **state)
{
	struct fix *x = *state;
	struct want w[] = {
		{ "no", FAN_OPEN_PERM, 0, FAN_DENY, -1 },
		{ "ok", FAN_OPEN_PERM, 0, FAN_ALLOW, -1 },
	};
	struct fanotify_event_metadata md[3];
	char path[PATH_MAX];
	int bad;

	snprintf(path, sizeof(path), "%s/no", x->dir);
	bad = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(bad >= 0);
	md[0] = (struct fanotify_event_metadata){
		.event_len = FAN_EVENT_METADATA_LEN, .vers = 1,
		.metadata_len = FAN_EVENT_METADATA_LEN,
		.mask = FAN_OPEN_PERM, .fd = bad, .pid = getpid() };
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", x->dir, w[i].file);
		w[i].fd = open(path, O_RDONLY | O_CLOEXEC);
		md[i + 1] = md[0];
		md[i + 1].vers = FANOTIFY_METADATA_VERSION;
		md[i + 1].fd = w[i].fd;
	}
	assert_int_equal(write(x->peer, md, sizeof(md)), (ssize_t)sizeof(md));
	run_loop(x, true, NULL);
	check_answers(x, w, 2);
	assert_int_equal(x->c.bad_events, 1);
	assert_int_equal(fcntl(bad, F_GETFD), -1);	/* closed */
}

/* One event, one read: its answer. */
static int one(struct fix *x, const char *file, uint64_t mask)
{
	struct want w = { file, mask, 0, -1, -1 };
	struct fanotify_response r;

	send_events(x, &w, 1);
	assert_int_equal(run_loop(x, false, NULL), 1);
	assert_int_equal(read(x->ans_r, &r, sizeof(r)), (ssize_t)sizeof(r));
	assert_int_equal(r.fd, w.fd);
	return (int)(r.response & ~FAN_AUDIT);
}

/*
 * An open is judged by the mode it asks: "file read ok" opens ok for
 * reading only, from the policy and from the cache alike; a mode that
 * cannot be read is judged as read and write; the open after an exec
 * passes as part of it only when it reads.
 */
static void test_modes(void **state)
{
	struct fix *x = *state;
	static const struct {
		const char *file;
		uint64_t mask;
		uint64_t flags;
		int err;
		int answer;
	} steps[] = {
		{ "ok", FAN_OPEN_PERM, O_RDWR, 0, FAN_DENY },
		{ "ok", FAN_OPEN_PERM, O_RDONLY, 0, FAN_ALLOW },
		{ "ok", FAN_OPEN_PERM, O_RDONLY, 0, FAN_ALLOW },   /* cached */
		{ "ok", FAN_OPEN_PERM, O_WRONLY, 0, FAN_DENY },	   /* cached R */
		{ "ok", FAN_OPEN_PERM, O_WRONLY | O_APPEND, 0, FAN_DENY },
		{ "ok", FAN_OPEN_PERM, O_RDONLY | O_TRUNC, 0, FAN_DENY },
		{ "ok", FAN_OPEN_PERM, O_RDONLY, -ENODATA, FAN_DENY },
		{ "prog", FAN_OPEN_EXEC_PERM, O_RDONLY, 0, FAN_ALLOW },
		{ "prog", FAN_OPEN_PERM, O_RDWR, 0, FAN_DENY },
		{ "prog", FAN_OPEN_PERM, O_RDONLY, -ENODATA, FAN_DENY },
		{ "prog", FAN_OPEN_PERM, O_RDONLY, 0, FAN_ALLOW }, /* exec's */
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(steps); i++) {
		int got;

		fake_flags = steps[i].flags;
		fake_err = steps[i].err;
		got = one(x, steps[i].file, steps[i].mask);
		if (got != steps[i].answer)
			fail_msg("step %zu (%s flags %#llx): answer %d, want %d",
				 i, steps[i].file,
				 (unsigned long long)steps[i].flags, got,
				 steps[i].answer);
	}
	assert_int_equal(x->c.cache_allowed, 1);
	assert_int_equal(x->c.mode_unknown, 2);
	assert_int_equal(x->c.exec_part, 1);
	assert_int_equal(x->c.denied, 7);
}

/* A thread that waits in a real open(2) of one FIFO after another. */
#define N_PARK 3
static const int park_modes[N_PARK] = { O_WRONLY | O_APPEND | O_TRUNC,
					O_RDONLY, O_WRONLY | O_CLOEXEC };

struct parked {
	char fifo[N_PARK][PATH_MAX];
	pthread_t th;
	_Atomic int32_t tid;
};

static void *park(void *arg)
{
	struct parked *p = arg;

	p->tid = (int32_t)gettid();
	for (int i = 0; i < N_PARK; i++) {
		int fd = open(p->fifo[i], park_modes[i]); /* waits for a peer */

		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

/* Wait until /proc says @tid waits in open() of @fifo. */
static void wait_parked(int32_t tid, const char *fifo)
{
	char path[64], buf[PATH_MAX];

	for (int i = 0; i < 5000; i++) {
		char st[512] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(st, sizeof(st), f))
				st[0] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
		f = fopen(path, "r");
		buf[0] = '\0';
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		/* sleeping (S), in openat (its number first) */
		if (strstr(st, ") S ") && atol(buf) == SYS_openat)
			return;
		usleep(1000);
	}
	fail_msg("thread %d did not wait in open(%s)", tid, fifo);
}

/*
 * hm_opener_flags() and hm_procs_tgid() on a real thread: it waits in
 * open() of a FIFO with each mode in turn, and the one kept /proc fd
 * shows the open it waits in now, not the one before; once it is gone,
 * -ESRCH.
 */
static void test_proc_flags(void **state)
{
	struct fix *x = *state;
	struct parked p = { 0 };
	uint64_t flags = 0;
	int32_t tgid = 0;

	for (int i = 0; i < N_PARK; i++) {
		snprintf(p.fifo[i], sizeof(p.fifo[i]), "%s/fifo%d", x->dir, i);
		assert_int_equal(mkfifo(p.fifo[i], 0600), 0);
	}
	assert_int_equal(pthread_create(&p.th, NULL, park, &p), 0);
	while (!p.tid)
		usleep(100);
	for (int i = 0; i < N_PARK; i++) {
		int mask = O_ACCMODE | O_APPEND | O_TRUNC;
		int other;

		wait_parked(p.tid, p.fifo[i]);
		assert_int_equal(hm_opener_flags(x->opener, p.tid, &flags), 0);
		assert_int_equal((int)flags & mask, park_modes[i] & mask);
		assert_int_equal(hm_procs_tgid(x->procs, p.tid, &tgid), 0);
		assert_int_equal(tgid, getpid());
		/* the other end: the open returns, the next one waits */
		other = open(p.fifo[i], ((park_modes[i] & O_ACCMODE) ==
					 O_RDONLY ? O_WRONLY : O_RDONLY) |
						O_CLOEXEC);
		assert_true(other >= 0);
		close(other);
	}
	assert_int_equal(pthread_join(p.th, NULL), 0);
	assert_int_equal(hm_opener_flags(x->opener, p.tid, &flags), -ESRCH);
	/* this thread is in no open: its mode cannot be told */
	assert_int_equal(hm_opener_flags(x->opener, (int32_t)gettid(),
					    &flags), -ENODATA);
}

int main(void)
{
	struct rlimit rl;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unobserved_strict, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unobserved_not_strict,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unobserved_learned, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unobserved_learned_not_strict,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_version, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_flags, setup,
						teardown),
	};

	/* one fd per event of a batch, as the kernel would hand them */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 4096 &&
	    rl.rlim_max >= 4096) {
		rl.rlim_cur = 4096;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
