// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_procfs.c - the /proc reader the enforcer and the sandbox share
 * (lib/procfs.c), on this process and a child of it (real /proc), and
 * its stat parser on program names that look like fields.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/procfs.h"

/* comm may hold ") " and digits: the fields start after the last ')'. */
static void test_parse_stat(void **state)
{
	struct hm_procfs_stat st;
	char line[512];
	const char *tail = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 987654321 4096 9\n";

	(void)state;
	snprintf(line, sizeof(line), "42 (a) S 7 8 (b)) R 1234 %s", tail);
	assert_int_equal(hm_procfs_parse_stat(line, &st), 0);
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.ppid, 1234);
	assert_int_equal(st.start, 987654321);

	assert_int_equal(hm_procfs_parse_stat("42 (x) S 1 2 3\n", &st), -EINVAL);
	assert_int_equal(hm_procfs_parse_stat("42 no parenthesis", &st),
			 -EINVAL);
	assert_int_equal(hm_procfs_parse_stat("", &st), -EINVAL);
}

static void test_field(void **state)
{
	const char *s = "Name:\tx\nTgid:\t12\nTracerPid:\t0\nUid:\t1\t2\t3\t4\n";

	(void)state;
	assert_string_equal(hm_procfs_field(s, "Name"), "x\nTgid:\t12\n"
			    "TracerPid:\t0\nUid:\t1\t2\t3\t4\n");
	assert_int_equal(strtol(hm_procfs_field(s, "Tgid"), NULL, 10), 12);
	assert_int_equal(strtol(hm_procfs_field(s, "Uid"), NULL, 10), 1);
	/* a name is the whole name before ':' */
	assert_null(hm_procfs_field(s, "Tracer"));
	assert_null(hm_procfs_field(s, "Gid"));
}

/* This process, as /proc shows it, through each reader. */
static void test_self(void **state)
{
	struct hm_procfs_stat st;
	char buf[4096], exe[PATH_MAX], want[PATH_MAX];
	ssize_t n, w;

	(void)state;
	assert_int_equal(hm_procfs_stat(getpid(), &st), 0);
	assert_int_equal(st.ppid, getppid());
	assert_int_equal(st.state, 'R');
	assert_true(st.start > 0);

	assert_true(hm_procfs_status(getpid(), buf, sizeof(buf)) > 0);
	assert_int_equal(strtol(hm_procfs_field(buf, "Tgid"), NULL, 10),
			 getpid());
	assert_int_equal(strtol(hm_procfs_field(buf, "PPid"), NULL, 10),
			 getppid());

	n = hm_procfs_exe(getpid(), exe, sizeof(exe));
	w = readlink("/proc/self/exe", want, sizeof(want) - 1);
	assert_true(w > 0);
	want[w] = '\0';
	assert_int_equal(n, w);
	assert_string_equal(exe, want);
	assert_int_equal(hm_procfs_exe(getpid(), exe, 4), -ENAMETOOLONG);

	/* argv[0] first, NUL-separated; 0 reads this process too */
	n = hm_procfs_cmdline(0, buf, sizeof(buf));
	assert_true(n > 0);
	assert_non_null(strstr(buf, "test_procfs"));
	assert_int_equal(hm_procfs_cmdline(getpid(), want, sizeof(want)), n);
	assert_memory_equal(buf, want, (size_t)n);
}

/* A child: its parent is us; a zombie has no exe; a reaped one is gone. */
static void test_child(void **state)
{
	struct hm_procfs_stat st;
	char buf[PATH_MAX];
	int fds[2];
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		prctl(PR_SET_NAME, "a) Z 1 (b");
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
	/* exited (the pipe closed), not reaped: a zombie */
	for (int i = 0; i < 200; i++) {
		assert_int_equal(hm_procfs_stat(pid, &st), 0);
		if (st.state == 'Z')
			break;
		usleep(10000);
	}
	assert_int_equal(st.state, 'Z');
	assert_int_equal(st.ppid, getpid());
	assert_int_equal(hm_procfs_exe(pid, buf, sizeof(buf)), -ESRCH);
	assert_int_equal(hm_procfs_cmdline(pid, buf, sizeof(buf)), 0);

	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(hm_procfs_stat(pid, &st), -ESRCH);
	assert_int_equal(hm_procfs_status(pid, buf, sizeof(buf)), -ESRCH);
	assert_int_equal(hm_procfs_exe(pid, buf, sizeof(buf)), -ESRCH);
	assert_int_equal(hm_procfs_cmdline(pid, buf, sizeof(buf)), -ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
