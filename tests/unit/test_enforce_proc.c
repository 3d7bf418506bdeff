// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_proc.c - the enforcer's process table keeper
 * (enforcer/proc.c): when an exe link is believed.  The /proc/PID/maps
 * line parser on lines as the kernel writes them, and the whole check on
 * this test's own process (a real /proc: its exe is mapped, it is in our
 * user namespace, so it is placed in <kernel> EXE).  The spoofed link
 * itself (prctl(PR_SET_MM_MAP) in a user namespace) is in
 * tests/e2e/t_enforce_exespoof.sh.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "enforcer_private.h"

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
		if (hm_proc_maps_exec(cases[i].line, 8, 1, 1311) !=
		    cases[i].exec)
			fail_msg("line %zu: %s", i, cases[i].line);
	}
	assert_true(hm_proc_maps_exec("1000-2000 r-xp 0 103:1a 1311 /x", 0x103,
				      0x1a, 1311));
}

/* This process runs a program it maps: believed, <kernel> EXE. */
static void test_own_exe(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, false, 0);
	struct hm_enforcer_counters c = { 0 };
	struct hm_execs *x = calloc(1, sizeof(*x));
	struct hm_proc *p;
	struct hm_proc_view v;
	char exe[PATH_MAX], want[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	if (getenv("HM_UNDER_VALGRIND")) {
		/* valgrind runs this test as its own tool: /proc shows that */
		print_message("test_own_exe: not under valgrind\n");
		hm_tracker_free(t);
		hm_model_free(m);
		free(x);
		return;
	}
	assert_non_null(t);
	assert_non_null(x);
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(want, sizeof(want), "<kernel> %s", exe);
	assert_int_equal(hm_proc_new(-1, t, x, &c, false, &p), 0);
	assert_int_equal(hm_proc_view(p, getpid(), &v), 0);
	assert_string_equal(v.name->str, want);
	assert_true(v.flags & HM_PROC_UNOBSERVED);
	assert_int_equal(c.exe_unbelieved, 0);
	assert_int_equal(c.traced_views, 0);
	hm_proc_free(p);
	hm_tracker_free(t);
	hm_model_free(m);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_line),
		cmocka_unit_test(test_own_exe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
