// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_trace.c - the tracing source (collector/trace*.c, docs/TRACE.md)
 * on real processes:
 *  - the seccomp filter, installed with no tracer, makes each traced
 *    call fail with ENOSYS (SECCOMP_RET_TRACE) and lets the others run;
 *  - every call of the table is one the collector knows the kind of;
 *  - a traced `sh -c` hands out its exec (the program as passed, its
 *    argv), its open named by the kernel (a symlink's target), a failed
 *    open with its errno, and the command's exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libaudit.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cmocka.h>

#include "internal.h"

/* valgrind cannot run a seccomp filter (it answers seccomp(2) with
 * ENOSYS) nor ptrace its guest: under it (scripts/valgrind.sh sets
 * HM_UNDER_VALGRIND) what needs them is skipped; the plain and ASan runs
 * run it all. */
static void no_tracing_under_valgrind(void)
{
	if (getenv("HM_UNDER_VALGRIND")) {
		print_message("valgrind has no seccomp filters\n");
		skip();
	}
}

/* Calls traced and calls not, as the child makes them after the filter:
 * a traced one fails with ENOSYS (no tracer), the others run. */
static void test_filter(void **state)
{
	struct sock_fprog prog;
	pid_t pid;
	int st;

	(void)state;
	no_tracing_under_valgrind();
	assert_int_equal(hm_tcall_filter(&prog), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int bad = 0;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(100);
		/* traced */
		bad |= !(syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY) < 0 &&
			 errno == ENOSYS) << 0;
		bad |= !(syscall(SYS_mkdir, "/nonexistent/x", 0700) < 0 &&
			 errno == ENOSYS) << 1;
		bad |= !(syscall(SYS_kill, getpid(), 0) < 0 &&
			 errno == ENOSYS) << 2;
		bad |= !(syscall(SYS_unshare, 0) < 0 && errno == ENOSYS) << 3;
		/* not traced */
		bad |= (syscall(SYS_getpid) != getpid()) << 4;
		bad |= (syscall(SYS_close, 1000) == 0 || errno != EBADF) << 5;
		bad |= (syscall(SYS_access, "/", R_OK) != 0) << 6;
		_exit(bad);
	}
	free(prog.filter);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Each traced call has its row, and the collector knows its kind. */
static void test_table(void **state)
{
	static const char *const names[] = {
		"execve", "execveat", "open", "openat", "openat2", "creat",
		"unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "mknod",
		"mknodat", "rename", "renameat", "renameat2", "link",
		"linkat", "symlink", "symlinkat", "truncate", "ftruncate",
		"chmod", "fchmodat", "chown", "lchown", "fchownat", "kill",
		"tkill", "tgkill", "unshare", "setns", "io_uring_setup",
		"fsopen", "fsmount", "fspick", "open_tree", "move_mount",
		"mount_setattr", "prctl", "socket", "bind", "connect",
		"listen", "accept", "accept4", "sendto", "recvfrom",
	};
	int machine = audit_elf_to_machine(AUDIT_ARCH_X86_64);

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(names); i++) {
		int nr = audit_name_to_syscall(names[i], machine);
		const struct hm_syscall_info *si;

		assert_non_null(hm_tcall_find(names[i]));
		assert_true(nr >= 0);
		si = hm_syscall_lookup(AUDIT_ARCH_X86_64, nr);
		assert_string_equal(si->name, names[i]);
		assert_int_not_equal(si->kind, HM_EV_OTHER);
	}
	assert_null(hm_tcall_find("read"));
	assert_null(hm_tcall_find("mount"));	/* not traced yet */
}

struct seen {
	bool exec_cat;
	bool open_target;
	bool failed_open;
	bool argv_ok;
};

static void look(const struct hm_event *ev, const char *target,
		 const char *missing, struct seen *s)
{
	const struct hm_bytes *p = ev->n_paths ? &ev->paths[0].path : NULL;

	if (ev->kind == HM_EV_EXEC && ev->success && p &&
	    !strcmp(p->s, "/usr/bin/cat")) {
		s->exec_cat = true;
		s->argv_ok = ev->argc == 2 &&
			     !strcmp(ev->argv[0].s, "/bin/cat") &&
			     strstr(ev->argv[1].s, "link") != NULL;
	}
	if (ev->kind == HM_EV_OPEN && ev->success && p &&
	    !strcmp(p->s, target) && ev->paths[0].has_inode)
		s->open_target = true;
	if (ev->kind == HM_EV_OPEN && !ev->success && ev->err == ENOENT &&
	    p && !strcmp(p->s, missing))
		s->failed_open = true;
}

static void test_traced_command(void **state)
{
	char dir[] = "/tmp/hm-trace-XXXXXX";
	char target[128], missing[128], cmd[512];
	char *argv[] = { "sh", "-c", cmd, NULL };
	struct hm_collector_opts o;
	struct hm_collector *c;
	const struct hm_event *ev;
	struct seen s = { 0 };
	int r, err, st;
	FILE *f;

	(void)state;
	no_tracing_under_valgrind();
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "ln -s target %s/link && "
		 "cat %s/missing 2>/dev/null; cd %s && exec /bin/cat link "
		 ">/dev/null", dir, dir, dir);
	hm_collector_opts_init(&o);
	assert_int_equal(hm_collector_open_trace(&c, argv, &o), 0);
	while ((r = hm_collector_next(c, &ev)) == 1)
		look(ev, target, missing, &s);
	assert_int_equal(r, 0);
	st = hm_collector_trace_status(c, &err);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(err, 0);
	assert_true(hm_collector_stats(c)->events > 0);
	hm_collector_free(c);
	assert_true(s.exec_cat);
	assert_true(s.argv_ok);
	assert_true(s.open_target);	/* by the kernel: the link's target */
	assert_true(s.failed_open);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A command that cannot be executed: 127, its errno. */
static void test_missing_command(void **state)
{
	char *argv[] = { "/nonexistent/histmac-test", NULL };
	struct hm_collector *c;
	const struct hm_event *ev;
	int err, st;

	(void)state;
	no_tracing_under_valgrind();
	assert_int_equal(hm_collector_open_trace(&c, argv, NULL), 0);
	while (hm_collector_next(c, &ev) == 1)
		;
	st = hm_collector_trace_status(c, &err);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 127);
	assert_int_equal(err, ENOENT);
	hm_collector_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_traced_command),
		cmocka_unit_test(test_missing_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
