// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_answer.c - the enforcer's answer table and watchdog
 * (enforcer/answer.c),
 * linked from libhm_enforce.  A socketpair stands in for the fanotify fd: answers
 * written to it are read back from the other end, and fake events written
 * there are what the watchdog drains when the main loop is stuck.
 * Property under test: every event is answered exactly once, in time.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <limits.h>
#include <sys/fanotify.h>

#include "enforcer_private.h"

struct pair {
	int fan;	/* what answer.c writes to and drains from */
	int peer;	/* the test's end */
};

static struct pair make_pair(void)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
				    sv), 0);
	assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(fcntl(sv[1], F_SETFL, O_NONBLOCK), 0);
	return (struct pair){ sv[0], sv[1] };
}

/* Read every answer waiting at @peer into @out; returns how many. */
static int answers(int peer, struct fanotify_response *out, int max)
{
	int n = 0;

	while (n < max && read(peer, &out[n], sizeof(*out)) ==
				  (ssize_t)sizeof(*out))
		n++;
	return n;
}

static int devnull(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static struct hm_answers *new_answers(int fan, unsigned timeout_ms,
				      bool deny)
{
	struct hm_answers_cfg cfg = { .fan_fd = fan, .audit_fd = -1,
				      .decision_timeout_ms = timeout_ms,
				      .default_deny = deny,
				      .stall_deny = deny };
	struct hm_answers *a;

	assert_int_equal(hm_answers_new(&cfg, &a), 0);
	return a;
}

/* The main loop answers; each event once, with its own fd. */
static void test_finish(void **state)
{
	static const struct {
		bool allow;
		bool audit;
	} cases[] = { { true, false }, { false, true }, { true, true },
		      { false, false } };
	struct pair p = make_pair();
	struct hm_answers *a = new_answers(p.fan, 1000, false);
	struct fanotify_response r[8];
	struct hm_answer_stats st;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_slot_ref ref;
		int fd = devnull();

		assert_true(hm_answers_take(a, fd, 100, &ref));
		assert_int_equal(hm_answers_fd(a, ref), fd);
		assert_true(hm_answers_pending(a, ref));
		assert_true(hm_answers_finish(a, ref, cases[i].allow,
					      cases[i].audit));
		assert_int_equal(answers(p.peer, r, 8), 1);
		assert_int_equal(r[0].fd, fd);
		/* FAN_AUDIT only when the group was made with it */
		assert_int_equal(r[0].response,
				 cases[i].allow ? FAN_ALLOW : FAN_DENY);
		/* a stale reference does nothing */
		assert_false(hm_answers_finish(a, ref, true, false));
		assert_int_equal(hm_answers_fd(a, ref), -1);
		assert_int_equal(answers(p.peer, r, 8), 0);
	}
	hm_answers_stats(a, &st);
	assert_int_equal(st.answered, HM_ARRAY_SIZE(cases));
	hm_answers_free(a);
	close(p.fan);
	close(p.peer);
}

/* Late decisions: the watchdog answers the default, never twice; one
 * named through the opener's own mounts is denied whatever the default. */
static void test_watchdog(void **state)
{
	static const struct {
		bool deny;		/* --default deny */
		int32_t pid;		/* 0: our own */
		bool foreign;		/* hm_answers_foreign() */
		uint32_t want;
	} cases[] = {
		{ false, 100, false, FAN_ALLOW },
		{ true, 100, false, FAN_DENY },
		{ true, 0, false, FAN_ALLOW },	/* our own pid always passes */
		{ false, 100, true, FAN_DENY },
		{ true, 100, true, FAN_DENY },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct pair p = make_pair();
		struct hm_answers *a = new_answers(p.fan, 20, cases[i].deny);
		struct fanotify_response r[4];
		struct hm_answer_stats st;
		struct hm_slot_ref ref;
		int fd = devnull();
		int n = 0;

		assert_int_equal(hm_answers_start_watchdog(a), 0);
		assert_true(hm_answers_take(a, fd, cases[i].pid ?
						   cases[i].pid : getpid(),
					    &ref));
		if (cases[i].foreign)
			hm_answers_foreign(a, ref);
		for (int t = 0; t < 200 && !n; t++) {
			sleep_ms(5);
			n = answers(p.peer, r, 4);
		}
		assert_int_equal(n, 1);
		assert_int_equal(r[0].fd, fd);
		assert_int_equal(r[0].response, cases[i].want);
		assert_false(hm_answers_pending(a, ref));
		/* the main loop comes back: closes, does not answer again */
		assert_false(hm_answers_finish(a, ref, true, false));
		sleep_ms(50);
		assert_int_equal(answers(p.peer, r, 4), 0);
		hm_answers_stats(a, &st);
		assert_int_equal(st.watchdog, 1);
		assert_int_equal(st.answered, 0);
		hm_answers_free(a);
		close(p.fan);
		close(p.peer);
	}
}

/* A stuck main loop: the watchdog reads the queue and answers it. */
static void test_drain(void **state)
{
	struct pair p = make_pair();
	struct hm_answers *a = new_answers(p.fan, 20, true);
	struct fanotify_response r[4];
	struct hm_answer_stats st;
	int fds[2] = { devnull(), devnull() };
	int32_t pids[2] = { 100, (int32_t)getpid() };
	int n = 0;

	(void)state;
	hm_answers_busy(a, true);
	for (int i = 0; i < 2; i++) {
		struct fanotify_event_metadata md = {
			.event_len = sizeof(md),
			.vers = FANOTIFY_METADATA_VERSION,
			.metadata_len = sizeof(md),
			.mask = FAN_OPEN_PERM, .fd = fds[i], .pid = pids[i],
		};

		assert_int_equal(write(p.peer, &md, sizeof(md)), sizeof(md));
	}
	assert_int_equal(hm_answers_start_watchdog(a), 0);
	for (int t = 0; t < 200 && n < 2; t++) {
		sleep_ms(5);
		n += answers(p.peer, r + n, 4 - n);
	}
	assert_int_equal(n, 2);
	assert_int_equal(r[0].fd, fds[0]);
	assert_int_equal(r[0].response, FAN_DENY);	/* --default deny */
	assert_int_equal(r[1].fd, fds[1]);
	assert_int_equal(r[1].response, FAN_ALLOW);	/* our own pid */
	hm_answers_busy(a, false);
	hm_answers_stats(a, &st);
	assert_int_equal(st.watchdog_drained, 2);
	hm_answers_free(a);
	close(p.fan);
	close(p.peer);
}

/* Held (supervisor) events, a full table, and shutdown. */
static void test_hold_full_release(void **state)
{
	struct pair p = make_pair();
	struct hm_answers *a = new_answers(p.fan, 1000, false);
	static struct hm_slot_ref refs[HM_ANSWERS_SLOTS];
	struct fanotify_response r[8];
	struct hm_answer_stats st;
	struct hm_slot_ref extra;
	int sndbuf = 4 << 20;
	int n = 0;

	(void)state;
	if (setsockopt(p.fan, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
		       sizeof(sndbuf)))
		setsockopt(p.fan, SOL_SOCKET, SO_SNDBUF, &sndbuf,
			   sizeof(sndbuf));
	for (int i = 0; i < HM_ANSWERS_SLOTS; i++)
		assert_true(hm_answers_take(a, devnull(), 100, &refs[i]));
	/* no slot left: answered at once with the default, and closed */
	assert_false(hm_answers_take(a, devnull(), 100, &extra));
	assert_int_equal(answers(p.peer, r, 8), 1);
	assert_int_equal(r[0].response, FAN_ALLOW);
	hm_answers_hold(a, refs[0], hm_now_ns() + 1000000000ull);
	assert_true(hm_answers_pending(a, refs[0]));
	assert_true(hm_answers_finish(a, refs[0], false, false));
	assert_int_equal(answers(p.peer, r, 8), 1);
	assert_int_equal(r[0].response, FAN_DENY);
	hm_answers_hold(a, refs[1], hm_now_ns() + 1000000000ull);
	/* shutdown: held ones are rejected, the rest get the default */
	hm_answers_release(a);
	for (;;) {
		int k = answers(p.peer, r, 8);

		for (int i = 0; i < k; i++)
			if (r[i].response == FAN_DENY)
				n++;
		if (!k)
			break;
	}
	assert_int_equal(n, 1);
	hm_answers_stats(a, &st);
	assert_int_equal(st.table_full, 1);
	hm_answers_free(a);
	close(p.fan);
	close(p.peer);
}

int main(void)
{
	struct rlimit rl;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_hold_full_release),
	};

	/* a full answer table holds 4096 fds */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
