// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_procs.c - the procs room: the judged execs table, and the
 * keeper (procs/keeper.c, naming.c, placing.c): when an exe link is
 * believed.  The /proc/PID/maps
 * line parser on lines as the kernel writes them, and the whole check on
 * this test's own process (a real /proc: its exe is mapped, it is in our
 * user namespace, so it is placed in <kernel> EXE).  The spoofed link
 * itself (prctl(PR_SET_MM_MAP) in a user namespace) is in
 * tests/e2e/t_enforce_exespoof.sh.
 * An exec of a process gone before its event was applied (a daemon's
 * parent, start-stop-daemon's exec of cron): real processes, the gone
 * one reaped before the keeper reads the proc connector's events about
 * them, which the test writes to a socket pair in the kernel's order,
 * so the race is the same every run.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <fcntl.h>

#include "procs_private.h"
#include "exec_fixture.h"

static void test_maps_line(void **state)
{
	static const struct {
		const char *line;
		bool exec;
	} cases[] = {
		{ "55d0c8a00000-55d0c8a21000 r-xp 00002000 08:01 1311 "
		  "/usr/bin/cat\n", true },
		/* the same file, not executable */
		{ "55d0c89fe000-55d0c8a00000 r--p 00000000 08:01 1311 "
		  "/usr/bin/cat\n", false },
		/* executable, another inode or device */
		{ "55d0c8a00000-55d0c8a21000 r-xp 00002000 08:01 1312 "
		  "/usr/bin/cat\n", false },
		{ "55d0c8a00000-55d0c8a21000 r-xp 00002000 08:02 1311 "
		  "/usr/bin/cat\n", false },
		/* a replaced program: the path says so, the inode is it */
		{ "7f0000000000-7f0000001000 r-xp 00000000 08:01 1311 "
		  "/usr/bin/cat (deleted)\n", true },
		/* a name with spaces, no newline */
		{ "7f0000000000-7f0000001000 r-xs 00000000 08:01 1311 "
		  "/tmp/a b/c", true },
		/* anonymous executable memory: inode 0 is no file */
		{ "7f0000000000-7f0000001000 rwxp 00000000 00:00 0 ", false },
		/* the top of the address space, wide minor numbers */
		{ "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 "
		  "[vsyscall]\n", false },
		{ "7f0000000000-7f0000001000 r-xp 00000000 103:1a 1311 /x\n",
		  false },
		/* not a maps line */
		{ "", false },
		{ "garbage\n", false },
		{ "7f0000000000-7f0000001000 r-x 00000000 08:01 1311 /x\n",
		  false },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		if (hm_procs_maps_exec(cases[i].line, 8, 1, 1311) !=
		    cases[i].exec)
			fail_msg("line %zu: %s", i, cases[i].line);
	}
	assert_true(hm_procs_maps_exec("1000-2000 r-xp 0 103:1a 1311 /x", 0x103,
				      0x1a, 1311));
}

/* The judged execs (judged.c). */

static void test_pending(void **state)
{
	static const struct {
		const char *content;	/* NULL: use /bin/true */
		bool script;
		const char *interp;	/* NULL: none */
	} cases[] = {
		{ "#!/bin/sh -e\necho\n", true, "/bin/sh" },
		{ "#! /usr/bin/env python3\n", true, "/usr/bin/env" },
		{ "#!\n", true, NULL },
		{ "plain text\n", false, NULL },
		{ "\x7f" "ELF", false, NULL },	/* too short to be an ELF */
	};
	struct hm_execs *E = calloc(1, sizeof(*E));
	char path[] = "/tmp/hm-test-exec-XXXXXX";
	int fd;

	(void)state;
	assert_non_null(E);
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_pending_exec *pe;

		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, cases[i].content,
				       strlen(cases[i].content)),
				 (ssize_t)strlen(cases[i].content));
		assert_int_equal(hm_execs_set(E, 50, "/prog", fd, 1,
						    (uint64_t)i), 0);
		pe = hm_execs_find(E, 50);
		assert_non_null(pe);
		assert_int_equal(pe->script, cases[i].script);
		if (cases[i].interp)
			assert_string_equal(pe->interp, cases[i].interp);
		else
			assert_null(pe->interp);
		assert_true(hm_execs_has_obj(pe, 1, (uint64_t)i));
		assert_false(hm_execs_has_obj(pe, 2, (uint64_t)i));
		close(fd);
		unlink(path);
		strcpy(path, "/tmp/hm-test-exec-XXXXXX");
	}
	/* each judged exec is its own entry, at most HM_EXECS_PER_PID a
	 * pid (execs that failed after their open), the newest found first,
	 * the oldest one judged before an exec event's time names it */
	assert_int_equal(E->n, HM_EXECS_PER_PID);
	assert_true(hm_execs_has_obj(hm_execs_find(E, 50), 1, 4));
	assert_true(hm_execs_has_obj(hm_execs_oldest(E, 50, hm_now_ns()), 1,
				     1));
	assert_null(hm_execs_oldest(E, 50, 0));	/* judged after the event */
	hm_execs_remove(E, hm_execs_oldest(E, 50, hm_now_ns()));
	assert_true(hm_execs_has_obj(hm_execs_oldest(E, 50, hm_now_ns()), 1,
				     2));
	hm_execs_drop(E, 50);
	assert_int_equal(E->n, 0);

	/* an ELF names its loader; the loader's exec open is part of it */
	fd = open("/bin/true", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(hm_execs_set(E, 60, "/bin/true", fd, 1, 99), 0);
	close(fd);
	{
		struct hm_pending_exec *pe = hm_execs_find(E, 60);
		char real[PATH_MAX];
		int lfd;

		assert_non_null(pe->interp);
		assert_non_null(realpath(pe->interp, real));
		assert_false(hm_execs_interp(pe, "/usr/bin/other", -1, 0, 0));
		lfd = open(real, O_RDONLY | O_CLOEXEC);
		assert_true(lfd >= 0);
		assert_true(hm_execs_interp(pe, real, lfd, 1, 100));
		close(lfd);
		assert_true(hm_execs_has_obj(pe, 1, 100));
		assert_null(pe->interp);	/* ld.so names no loader */
	}
	/* a full table: the table's oldest goes, not the pid's own */
	hm_execs_clear(E);
	assert_int_equal(hm_execs_set(E, 1, "/p", -1, 0, 0), 0);
	assert_int_equal(hm_execs_set(E, 60, "/p", -1, 0, 1), 0);
	for (int pid = 2000; pid < 2000 + (int)HM_EXECS_MAX - 2; pid++)
		assert_int_equal(hm_execs_set(E, pid, "/p", -1, 0, 0), 0);
	assert_int_equal(hm_execs_set(E, 60, "/p", -1, 0, 2), 0);
	assert_int_equal(E->n, HM_EXECS_MAX);
	assert_null(hm_execs_find(E, 1));
	assert_true(hm_execs_has_obj(hm_execs_oldest(E, 60, hm_now_ns()), 0,
				     1));
	hm_execs_clear(E);
	/* many pids: bounded, the oldest goes */
	for (int pid = 1000; pid < 1000 + (int)HM_EXECS_MAX + 10; pid++)
		assert_int_equal(hm_execs_set(E, pid, "/p", -1, 0, 0), 0);
	assert_int_equal(E->n, HM_EXECS_MAX);
	assert_null(hm_execs_find(E, 1000));
	assert_non_null(hm_execs_find(E, 1000 + (int)HM_EXECS_MAX + 9));
	hm_execs_drop(E, 1000 + (int)HM_EXECS_MAX + 9);
	assert_null(hm_execs_find(E, 1000 + (int)HM_EXECS_MAX + 9));
	/* a clock read before the newest entry was set expires nothing */
	hm_execs_expire(E, hm_now_ns() - HM_EXECS_TTL_NS);
	assert_int_equal(E->n, HM_EXECS_MAX - 1);
	hm_execs_expire(E, hm_now_ns() + HM_EXECS_TTL_NS + 1);
	assert_int_equal(E->n, 0);
	hm_execs_clear(E);
	free(E);
}

/* This process runs a program it maps: believed, <kernel> EXE. */
static void test_own_exe(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, false, 0);
	struct hm_procs_counts c = { 0 };
	struct hm_procs *p;
	struct hm_proc_view v;
	char exe[PATH_MAX], want[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	if (getenv("HM_UNDER_VALGRIND")) {
		/* valgrind runs this test as its own tool: /proc shows that */
		print_message("test_own_exe: not under valgrind\n");
		hm_tracker_free(t);
		hm_model_free(m);
		return;
	}
	assert_non_null(t);
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(want, sizeof(want), "<kernel> %s", exe);
	assert_int_equal(hm_procs_new(&(struct hm_procs_cfg){
			.fd = -1, .tracker = t, .c = &c }, &p), 0);
	assert_int_equal(hm_procs_domain(p, getpid(), &v), 0);
	assert_string_equal(v.name->str, want);
	assert_true(v.flags & HM_PROC_UNOBSERVED);
	assert_int_equal(c.exe_unbelieved, 0);
	assert_int_equal(c.traced_views, 0);
	hm_procs_free(p);
	hm_tracker_free(t);
	hm_model_free(m);
}

/* The domain the gone process ran its exec in (an init script's). */
#define D_GONE "<kernel> /usr/bin/bash /etc/init.d/cron"

/* A proc connector message as the kernel sends it. */
static void send_event(int fd, const struct proc_event *ev)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) +
			     sizeof(struct proc_event))]
		__attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nl = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nl);

	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(*ev));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(*ev);
	memcpy(cn->data, ev, sizeof(*ev));
	assert_int_equal(send(fd, buf, nl->nlmsg_len, 0), nl->nlmsg_len);
}

static void send_exec(int fd, int32_t pid, uint64_t ns)
{
	struct proc_event ev = { .what = PROC_EVENT_EXEC, .timestamp_ns = ns };

	ev.event_data.exec.process_pid = pid;
	ev.event_data.exec.process_tgid = pid;
	send_event(fd, &ev);
}

static void send_fork(int fd, int32_t parent, int32_t child)
{
	struct proc_event ev = { .what = PROC_EVENT_FORK };

	ev.event_data.fork.parent_pid = parent;
	ev.event_data.fork.parent_tgid = parent;
	ev.event_data.fork.child_pid = child;
	ev.event_data.fork.child_tgid = child;
	send_event(fd, &ev);
}

static void send_exit(int fd, int32_t pid)
{
	struct proc_event ev = { .what = PROC_EVENT_EXIT };

	ev.event_data.exit.process_pid = pid;
	ev.event_data.exit.process_tgid = pid;
	send_event(fd, &ev);
}

/* The program a /proc/PID/exe link leads to, "" when none. */
static void exe_of(pid_t pid, char *out, size_t cap)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, out, cap - 1);
	out[n > 0 ? n : 0] = '\0';
}

/* The processes of gone_parent(). */
struct tree {
	pid_t gone;		/* executed this program, forked, exited */
	pid_t mid;		/* forked the child: @gone, or a child of it
				 * that exited too */
	pid_t child;		/* alive */
	int hold;		/* "hold": @gone exits when it is closed */
};

/* @tr->gone exits (it reaped @tr->mid, "fork", before). */
static void release(struct tree *tr)
{
	close(tr->hold);
	assert_int_equal(waitpid(tr->gone, NULL, 0), tr->gone);
}

/*
 * A process that executes this test program (the exec the keeper is
 * told of), which forks a child and exits at once, as cron does; @then:
 * what the child does ("stay", "exec": run sleep, "fork": fork the one
 * that stays and exit; "hold": stay, and @gone exits only at
 * release())).  Into @tr; the processes that exited are reaped on
 * return, and an exec of the child ("exec") has finished.
 */
static void gone_parent(const char *then, struct tree *tr)
{
	char self[PATH_MAX], line[64] = "", now[PATH_MAX];
	int fds[2], hold[2];
	ssize_t n;

	exe_of(getpid(), self, sizeof(self));
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pipe(hold), 0);
	tr->gone = fork();
	assert_true(tr->gone >= 0);
	if (!tr->gone) {
		dup2(hold[0], 0);
		close(hold[1]);
		dup2(fds[1], 1);
		execl(self, "test_procs", "--fork-exit", then,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	close(hold[0]);
	tr->hold = hold[1];
	n = read(fds[0], line, sizeof(line) - 1);
	close(fds[0]);
	assert_true(n > 0);
	assert_int_equal(sscanf(line, "%d %d", &tr->mid, &tr->child), 2);
	if (strcmp(then, "hold"))
		release(tr);
	for (int i = 0; i < 2000 && !strcmp(then, "exec"); i++) {
		exe_of(tr->child, now, sizeof(now));
		if (strstr(now, "sleep") && exec_done(tr->child))
			break;
		usleep(1000);
	}
}

/* --fork-exit THEN: gone_parent()'s program; prints who forked the one
 * that stays, and that one. */
static int fork_exit(const char *then)
{
	pid_t child = fork();
	char line[16];

	if (child < 0)
		return 1;
	if (!child) {
		if (!strcmp(then, "fork"))
			return fork_exit("stay");
		if (!strcmp(then, "exec"))
			execlp("sleep", "sleep", "30", (char *)NULL);
		sleep(30);
		_exit(0);
	}
	if (!strcmp(then, "fork")) {
		waitpid(child, NULL, 0);
		_exit(0);
	}
	printf("%d %d\n", (int)getpid(), (int)child);
	fflush(stdout);
	while (!strcmp(then, "hold") && read(0, line, sizeof(line)) > 0)
		;
	_exit(0);
}

struct keeper {
	struct hm_model *m;
	struct hm_tracker *t;
	struct hm_procs_counts c;
	struct hm_procs *p;
	int fd;			/* the "kernel" end */
};

static void keeper_new(struct keeper *k)
{
	int sv[2];

	memset(k, 0, sizeof(*k));
	k->m = hm_model_new();
	k->t = hm_tracker_new(k->m, false, 0);
	assert_non_null(k->t);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	assert_int_equal(hm_procs_new(&(struct hm_procs_cfg){
			.fd = sv[0], .tracker = k->t, .c = &k->c }, &k->p), 0);
	k->fd = sv[1];
}

/* Apply every queued exec, the exits still queued. */
static void procs_apply_all(struct keeper *k)
{
	hm_procs_apply(k->p, -1);
}

static void keeper_free(struct keeper *k)
{
	hm_procs_free(k->p);
	close(k->fd);
	hm_tracker_free(k->t);
	hm_model_free(k->m);
}

/*
 * @tr->gone ran @execs execs (events at @ns) in D_GONE, forked, exited
 * (and its child @tr->mid forked too, and exited); @child_exec: the
 * child's own exec event came too.  Returns the domain the keeper has
 * for the child.
 */
static void race(struct keeper *k, const struct tree *tr, uint64_t ns,
		 int execs, bool child_exec, char *out, size_t cap)
{
	struct hm_proc_view v;

	assert_int_equal(hm_tracker_set(k->t, tr->gone, getpid(), NULL, 0,
					D_GONE, strlen(D_GONE), 0,
					time(NULL)), 0);
	while (execs--)
		send_exec(k->fd, tr->gone, ns);
	if (tr->mid != tr->gone) {
		send_fork(k->fd, tr->gone, tr->mid);
		send_exit(k->fd, tr->gone);
	}
	send_fork(k->fd, tr->mid, tr->child);
	send_exit(k->fd, tr->mid);
	if (child_exec)
		send_exec(k->fd, tr->child, hm_now_ns());
	assert_int_equal(hm_procs_drain(k->p), 0);
	hm_procs_reap(k->p);
	assert_int_equal(hm_procs_domain(k->p, tr->child, &v), 0);
	snprintf(out, cap, "%s", v.name->str);
}

/* keeper_new(), and this program's path into @self (PATH_MAX); false
 * under valgrind: it runs the test as its own tool, /proc shows that. */
static bool keeper_start(struct keeper *k, const char *test, char *self)
{
	if (getenv("HM_UNDER_VALGRIND")) {
		print_message("%s: not under valgrind\n", test);
		return false;
	}
	keeper_new(k);
	exe_of(getpid(), self, PATH_MAX);
	/* the gone process's child is ours to end and reap */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	return true;
}

static void end_child(pid_t child)
{
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

/*
 * gone_parent(@then) and race() with @execs execs: the child is placed in
 * D_GONE @between (none: "") this program.  Its counters into @c; false
 * under valgrind (nothing run).
 */
static bool gone_case(const char *test, const char *then, int execs,
		      const char *between, struct hm_procs_counts *c)
{
	struct keeper k;
	char self[PATH_MAX], want[PATH_MAX + 64], got[PATH_MAX + 64];
	struct tree tr;

	if (!keeper_start(&k, test, self))
		return false;
	gone_parent(then, &tr);
	race(&k, &tr, hm_now_ns(), execs, false, got, sizeof(got));
	end_child(tr.child);
	snprintf(want, sizeof(want), D_GONE "%s %s", between, self);
	assert_string_equal(got, want);
	*c = k.c;
	keeper_free(&k);
	return true;
}

/* A daemon's parent, gone before its exec was applied: the child it
 * forked after the exec enters it, named from what the child runs. */
static void test_gone_named_from_child(void **state)
{
	struct hm_procs_counts c;

	(void)state;
	if (!gone_case(__func__, "stay", 1, "", &c))
		return;
	assert_int_equal(c.exec_gone, 1);
	assert_int_equal(c.exec_orphan, 1);
	assert_int_equal(c.exec_unseen, 0);
	assert_int_equal(c.rec_orphaned, 1);	/* until its exit was reaped */
}

/* The child executed another program before it was read: that
 * program's name is not the gone exec's, it is unseen-exec:/. */
static void test_gone_child_executed(void **state)
{
	struct keeper k;
	char self[PATH_MAX], sleep_path[PATH_MAX], want[PATH_MAX + 64];
	char got[PATH_MAX + 64];
	struct tree tr;
	uint64_t ns = hm_now_ns();

	(void)state;
	if (!keeper_start(&k, __func__, self))
		return;
	gone_parent("exec", &tr);
	exe_of(tr.child, sleep_path, sizeof(sleep_path));
	assert_non_null(strstr(sleep_path, "sleep"));
	race(&k, &tr, ns, 1, true, got, sizeof(got));
	end_child(tr.child);
	snprintf(want, sizeof(want), D_GONE " " HM_EXEC_UNSEEN " %s",
		 sleep_path);
	assert_string_equal(got, want);
	assert_int_equal(k.c.exec_unseen, 1);
	keeper_free(&k);
}

/* Two execs of a gone process, neither applied: the first one's program
 * is not known, the second is what the child runs. */
static void test_gone_two_execs(void **state)
{
	struct hm_procs_counts c;

	(void)state;
	if (!gone_case(__func__, "stay", 2, " " HM_EXEC_UNSEEN, &c))
		return;
	assert_int_equal(c.exec_gone, 2);
	assert_int_equal(c.exec_unseen, 1);
}

/* The gone process's child is gone too, before it was read: the exec
 * is passed on to the child it forked. */
static void test_gone_grandchild(void **state)
{
	struct hm_procs_counts c;

	(void)state;
	if (!gone_case(__func__, "fork", 1, "", &c))
		return;
	assert_int_equal(c.exec_orphan, 2);
}

/* The gone process's exec before, applied while it ran, was named from
 * /proc less than 20 ms before the exec event of the same program: that
 * read may have seen the later exec, so the child does not inherit it. */
static void test_gone_read_taken_back(void **state)
{
	struct keeper k;
	char self[PATH_MAX], want[PATH_MAX + 64];
	struct hm_proc_view v;
	struct tree tr;
	uint64_t ns;

	(void)state;
	if (!keeper_start(&k, __func__, self))
		return;
	gone_parent("hold", &tr);
	assert_int_equal(hm_tracker_set(k.t, tr.gone, getpid(), NULL, 0,
					D_GONE, strlen(D_GONE), 0,
					time(NULL)), 0);
	send_exec(k.fd, tr.gone, hm_now_ns());
	assert_int_equal(hm_procs_drain(k.p), 0);
	/* the next exec's event, stamped before the read: that read may
	 * have seen it, whatever the load */
	ns = hm_now_ns();
	hm_procs_apply(k.p, tr.gone);	/* read while it runs */
	assert_int_equal(hm_procs_domain(k.p, tr.gone, &v), 0);
	snprintf(want, sizeof(want), D_GONE " %s", self);
	assert_string_equal(v.name->str, want);
	release(&tr);
	send_exec(k.fd, tr.gone, ns);
	send_fork(k.fd, tr.gone, tr.child);
	send_exit(k.fd, tr.gone);
	assert_int_equal(hm_procs_drain(k.p), 0);
	hm_procs_reap(k.p);
	assert_int_equal(hm_procs_domain(k.p, tr.child, &v), 0);
	end_child(tr.child);
	snprintf(want, sizeof(want), D_GONE " " HM_EXEC_UNSEEN " %s", self);
	assert_string_equal(v.name->str, want);
	keeper_free(&k);
}

/* A judged exec (its name known) of a gone process: its children enter
 * it by that name when they run its object. */
static void test_gone_judged(void **state)
{
	struct keeper k;
	char self[PATH_MAX], got[PATH_MAX + 64];
	struct stat st;
	struct tree tr;

	(void)state;
	if (!keeper_start(&k, __func__, self))
		return;
	assert_int_equal(stat(self, &st), 0);
	gone_parent("stay", &tr);
	/* the object as fanotify's judgement records it */
	assert_int_equal(hm_execs_set(&k.p->x, tr.gone, "/usr/sbin/cron", -1,
				      (uint64_t)major(st.st_dev) << 32 |
					      minor(st.st_dev),
				      st.st_ino), 0);
	race(&k, &tr, hm_now_ns(), 1, false, got, sizeof(got));
	end_child(tr.child);
	assert_string_equal(got, D_GONE " /usr/sbin/cron");
	assert_int_equal(k.c.exec_pending, 1);
	keeper_free(&k);
}

/* ------------------------------------------------------------ records */

/* Put @pid in @s by the events that lead there from no record. */
static void put_in(struct hm_procs *p, int32_t pid, enum hm_procs_state s)
{
	static const struct hm_name from = { .str = "<kernel>", .len = 8 };
	struct hm_procs_arg a = { .ns = 1, .read = { .from = &from } };

	hm_procs_move(p, pid, HM_PROCS_EV_REAPED, NULL);
	if (s == HM_PROCS_NAMED)
		hm_procs_move(p, pid, HM_PROCS_EV_NAMED, &a);
	else if (s == HM_PROCS_ORPHANED)
		hm_procs_move(p, pid, HM_PROCS_EV_GONE_EXEC, &a);
	else if (s == HM_PROCS_LEADERLESS)
		hm_procs_move(p, pid, HM_PROCS_EV_LEADER_EXIT, NULL);
	assert_int_equal(hm_procs_state(p, pid), s);
}

/* The table of states and events, as docs/ENFORCE.md writes it. */
static void test_moves(void **state)
{
#define T HM_PROCS_TRACKED
#define N HM_PROCS_NAMED
#define O HM_PROCS_ORPHANED
#define L HM_PROCS_LEADERLESS
	static const struct {
		enum hm_procs_ev ev;
		enum hm_procs_state to[HM_PROCS_STATES];	/* from T N O L */
	} table[] = {
		{ HM_PROCS_EV_FORK,		{ T, T, T, T } },
		{ HM_PROCS_EV_NAMED,		{ N, N, N, N } },
		{ HM_PROCS_EV_EXEC,		{ T, T, O, T } },
		{ HM_PROCS_EV_GONE_EXEC,	{ O, O, O, O } },
		{ HM_PROCS_EV_INHERIT,		{ O, O, O, O } },
		{ HM_PROCS_EV_LEADER_EXIT,	{ L, L, O, L } },
		{ HM_PROCS_EV_REAPED,		{ T, T, T, T } },
	};
#undef T
#undef N
#undef O
#undef L
	static const struct hm_name from = { .str = "<kernel>", .len = 8 };
	struct hm_procs_counts c = { 0 };
	struct hm_procs_rec parent = { .pid = 7, .state = HM_PROCS_ORPHANED,
				       .ran = 7, .ns = 5 };
	struct hm_procs_arg a = { .ns = 1, .read = { .from = &from },
				  .rec = &parent };
	struct hm_procs *p;

	(void)state;
	assert_int_equal(hm_procs_new(&(struct hm_procs_cfg){
			.fd = -1, .c = &c }, &p), 0);
	for (size_t i = 0; i < HM_ARRAY_SIZE(table); i++)
		for (int s = 0; s < HM_PROCS_STATES; s++) {
			put_in(p, 42, (enum hm_procs_state)s);
			hm_procs_move(p, 42, table[i].ev, &a);
			if (hm_procs_state(p, 42) != table[i].to[s])
				fail_msg("%s on event %zu: %s, want %s",
					 hm_procs_state_names[s], i,
					 hm_procs_state_names[
						 hm_procs_state(p, 42)],
					 hm_procs_state_names[table[i].to[s]]);
		}
	/* an orphan's second gone exec counts one unapplied before it; its
	 * gone child takes the exec on, read and all, none before it */
	put_in(p, 42, HM_PROCS_ORPHANED);
	hm_procs_move(p, 42, HM_PROCS_EV_GONE_EXEC, &(struct hm_procs_arg){
			.ns = 9 });
	assert_int_equal(hm_procs_rec(p, 42)->before, 1);
	assert_int_equal(hm_procs_rec(p, 42)->ns, 9);
	parent.read.from = &from;
	hm_procs_move(p, 43, HM_PROCS_EV_INHERIT, &a);
	assert_int_equal(hm_procs_rec(p, 43)->ran, 7);
	assert_int_equal(hm_procs_rec(p, 43)->before, 0);
	assert_ptr_equal(hm_procs_rec(p, 43)->read.from, &from);
	assert_int_equal(c.records_evicted, 0);
	hm_procs_free(p);
}

/* A pid no process has (the records of gone processes are made for it),
 * in set @set, the @k-th of them; 0: none found. */
static int32_t free_pid(int set, int k)
{
	for (int32_t pid = 4000000 + set; pid > 0; pid += HM_PROCS_SETS)
		if (kill(pid, 0) < 0 && errno == ESRCH && !k--)
			return pid;
	return 0;
}

/*
 * One eviction rule: a set holds HM_PROCS_WAYS records; one more takes
 * the way moved longest ago, counted, and an evicted orphan's judged
 * execs go with it.  Driven by the connector: exec events of processes
 * gone before they were read.
 */
static void test_eviction(void **state)
{
	struct keeper k;
	int32_t pid[HM_PROCS_WAYS + 1];

	(void)state;
	keeper_new(&k);
	for (int i = 0; i <= HM_PROCS_WAYS; i++) {
		pid[i] = free_pid(3, i);
		assert_true(pid[i] > 0);
	}
	assert_int_equal(hm_execs_set(&k.p->x, pid[0], "/usr/sbin/cron", -1,
				      0, 0), 0);
	for (int i = 0; i <= HM_PROCS_WAYS; i++) {
		send_exec(k.fd, pid[i], hm_now_ns());
		assert_int_equal(hm_procs_drain(k.p), 0);
		procs_apply_all(&k);
		if (i < HM_PROCS_WAYS)
			assert_non_null(hm_execs_find(&k.p->x, pid[0]));
	}
	assert_int_equal(k.c.exec_gone, HM_PROCS_WAYS + 1);
	assert_int_equal(k.c.records_evicted, 1);
	assert_int_equal(hm_procs_state(k.p, pid[0]), HM_PROCS_TRACKED);
	assert_null(hm_execs_find(&k.p->x, pid[0]));
	for (int i = 1; i <= HM_PROCS_WAYS; i++)
		assert_int_equal(hm_procs_state(k.p, pid[i]),
				 HM_PROCS_ORPHANED);
	/* another set is not touched */
	assert_int_equal(hm_procs_state(k.p, free_pid(4, 0)),
			 HM_PROCS_TRACKED);
	keeper_free(&k);
}

/*
 * An exit racing an exec: the process executed and exited before the
 * keeper read either event.  The exec finds it gone (ORPHANED: a child
 * it forked in between would enter it), the exit's reap ends the record
 * and the tracker's entry; a fork of the same pid after that is a new
 * process in its parent's domain.
 */
static void test_exit_races_exec(void **state)
{
	struct keeper k;
	struct hm_proc_view v;
	pid_t child;

	(void)state;
	keeper_new(&k);
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(hm_tracker_set(k.t, child, getpid(), NULL, 0,
					D_GONE, strlen(D_GONE), 0,
					time(NULL)), 0);
	send_exec(k.fd, child, hm_now_ns());
	send_exit(k.fd, child);
	assert_int_equal(hm_procs_drain(k.p), 0);
	procs_apply_all(&k);
	assert_int_equal(hm_procs_state(k.p, child), HM_PROCS_ORPHANED);
	assert_int_equal(k.c.exec_gone, 1);
	assert_true(hm_tracker_lookup(k.t, child, &v));
	assert_string_equal(v.name->str, D_GONE);	/* before the exec */
	hm_procs_reap(k.p);
	assert_int_equal(hm_procs_state(k.p, child), HM_PROCS_TRACKED);
	assert_false(hm_tracker_lookup(k.t, child, &v));
	/* the pid reused by a fork of this process: its domain */
	assert_int_equal(hm_tracker_set(k.t, getpid(), 1, NULL, 0, D_GONE,
					strlen(D_GONE), 0, time(NULL)), 0);
	send_fork(k.fd, getpid(), child);
	assert_int_equal(hm_procs_drain(k.p), 0);
	assert_int_equal(hm_procs_state(k.p, child), HM_PROCS_TRACKED);
	assert_true(hm_tracker_lookup(k.t, child, &v));
	assert_string_equal(v.name->str, D_GONE);
	keeper_free(&k);
}

/*
 * An exec nobody judged, of a process that runs: named from /proc
 * (NAMED, the read kept).  Its next exec event, more than 20 ms after
 * the read, answers the read (TRACKED for a moment) and is named in
 * turn; a fork that reuses the pid ends the record.
 */
static void test_named_from_proc(void **state)
{
	struct keeper k;
	char self[PATH_MAX], want[2 * PATH_MAX + 64];
	struct hm_proc_view v;

	(void)state;
	if (!keeper_start(&k, __func__, self))
		return;
	assert_int_equal(hm_tracker_set(k.t, getpid(), getppid(), NULL, 0,
					D_GONE, strlen(D_GONE), 0,
					time(NULL)), 0);
	send_exec(k.fd, getpid(), hm_now_ns());
	assert_int_equal(hm_procs_drain(k.p), 0);
	assert_int_equal(hm_procs_domain(k.p, getpid(), &v), 0);
	snprintf(want, sizeof(want), D_GONE " %s", self);
	assert_string_equal(v.name->str, want);
	assert_int_equal(hm_procs_state(k.p, getpid()), HM_PROCS_NAMED);
	assert_int_equal(k.c.exec_fallback, 1);
	send_exec(k.fd, getpid(), hm_now_ns() + 1000000000ull);
	assert_int_equal(hm_procs_drain(k.p), 0);
	assert_int_equal(hm_procs_domain(k.p, getpid(), &v), 0);
	snprintf(want, sizeof(want), D_GONE " %s %s", self, self);
	assert_string_equal(v.name->str, want);
	assert_int_equal(hm_procs_state(k.p, getpid()), HM_PROCS_NAMED);
	assert_int_equal(k.c.exec_unseen, 0);
	send_fork(k.fd, getppid(), getpid());
	assert_int_equal(hm_procs_drain(k.p), 0);
	assert_int_equal(hm_procs_state(k.p, getpid()), HM_PROCS_TRACKED);
	keeper_free(&k);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_maps_line),
		cmocka_unit_test(test_own_exe),
		cmocka_unit_test(test_gone_named_from_child),
		cmocka_unit_test(test_gone_child_executed),
		cmocka_unit_test(test_gone_two_execs),
		cmocka_unit_test(test_gone_grandchild),
		cmocka_unit_test(test_gone_read_taken_back),
		cmocka_unit_test(test_gone_judged),
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_exit_races_exec),
		cmocka_unit_test(test_named_from_proc),
	};

	if (argc == 3 && !strcmp(argv[1], "--fork-exit"))
		return fork_exit(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
