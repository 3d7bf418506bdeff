// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sandbox_files.c - the directory `histmac sandbox` keeps the
 * table's copy and the report FIFO in (docs/SANDBOX.md "The table
 * survives what programs do to descriptors"): a 32-hex-digit random name
 * inside TMP/histmac-sandbox.XXXXXX; with CAP_SETUID permitted (a
 * sandbox whose children may change user) both 0711, the copy 0444 and
 * the FIFO 0622; without it (a child process that dropped the
 * capability) 0700, 0400, 0600; the recorded inode and ctime are the
 * copy's; removing takes both directories.  A $TMPDIR others may not
 * search is used only when the files are private.  The preload reaching it as
 * another user is t_sandbox_user.sh's.
 *
 * And `check` knows them (hm_check_sandbox_file(), analyzer/sbx_own.c) in
 * the directory hm_sbx_files_make() really makes: the table's copy read
 * and the report FIFO written, as the files are (stat), under a root
 * sandbox (any reader) and a user's (the owner's own processes only).
 * The same accesses with another operation, owner or mode, and names
 * outside the scheme, are not the sandbox's.  The whole report is
 * tests/golden/t_check_landlock.sh's.
 */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/learn.h"
#include "histmac/sandbox.h"
#include "../../sandbox/internal.h"

#define NOBODY 65534

static char tmpdir[] = "/tmp/hm-test-sbxfiles-XXXXXX";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir) || chmod(tmpdir, 0711))
		return -1;
	return setenv("TMPDIR", tmpdir, 1);
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

static bool has_cap(int cap, bool drop)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return false;
	if (drop) {
		for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
			d[i].permitted = d[i].effective = d[i].inheritable = 0;
		return !syscall(SYS_capset, &h, d);
	}
	return d[CAP_TO_INDEX(cap)].permitted & CAP_TO_MASK(cap);
}

/* 0 when f's files have the modes @shared says, under @want_tmp; else
 * which check failed */
static int check_files(bool shared, const char *want_tmp)
{
	struct hm_sbx_files f;
	char outer[PATH_MAX], *name;
	struct stat st;
	static const char blob[] = "a table";

	if (hm_sbx_files_make(&f))
		return 1;
	if (f.shared != shared)
		return 2;
	name = strrchr(f.dir, '/') + 1;
	if (strlen(name) != 32 || strspn(name, "0123456789abcdef") != 32)
		return 3;
	snprintf(outer, sizeof(outer), "%.*s", (int)(name - 1 - f.dir), f.dir);
	if (strncmp(outer, want_tmp, strlen(want_tmp)) ||
	    strncmp(outer + strlen(want_tmp), "/histmac-sandbox.", 17))
		return 4;
	if (stat(outer, &st) || (st.st_mode & 07777) != (shared ? 0711 : 0700))
		return 5;
	if (stat(f.dir, &st) || (st.st_mode & 07777) != (shared ? 0711 : 0700))
		return 6;
	if (stat(f.report, &st) || !S_ISFIFO(st.st_mode) ||
	    (st.st_mode & 07777) != (shared ? 0622 : 0600))
		return 7;
	if (hm_sbx_files_write_table(&f, blob, sizeof(blob)) ||
	    stat(f.table, &st) || (st.st_mode & 07777) != (shared ? 0444 : 0400))
		return 8;
	if (f.ino != (uint64_t)st.st_ino ||
	    f.ctime_ns != (int64_t)st.st_ctim.tv_sec * 1000000000 +
			  st.st_ctim.tv_nsec)
		return 9;
	hm_sbx_files_remove(&f);
	if (!access(outer, F_OK) || errno != ENOENT)
		return 10;
	return 0;
}

static struct hm_cond_obj obj_of(const char *path)
{
	struct stat st;
	struct hm_cond_obj o = { 0 };

	if (!stat(path, &st)) {
		o.uid = st.st_uid;
		o.gid = st.st_gid;
		o.ino = st.st_ino;
		o.mode = st.st_mode;
	}
	return o;
}

static bool own(const char *path, enum hm_file_op op,
		const struct hm_cond_obj *o, uint64_t fsuid)
{
	return hm_check_sandbox_file(path, strlen(path), op, o, fsuid);
}

/*
 * 0 when the files of a new sandbox directory are recognised for the
 * process of fsuid @reader (and, private, not for another), else which
 * check failed.
 */
static int check_made(bool shared, uint64_t reader)
{
	struct hm_sbx_files f;
	struct hm_cond_obj t, r;
	int e = 0;

	if (hm_sbx_files_make(&f) ||
	    hm_sbx_files_write_table(&f, "a table", 8) || f.shared != shared)
		return 1;
	t = obj_of(f.table);
	r = obj_of(f.report);
	if (!own(f.table, HM_FILE_READ, &t, reader))
		e = 2;
	else if (!own(f.report, HM_FILE_WRITE, &r, reader))
		e = 3;
	else if (own(f.table, HM_FILE_WRITE, &t, reader) ||
		 own(f.report, HM_FILE_READ, &r, reader) ||
		 own(f.report, HM_FILE_APPEND, &r, reader))
		e = 4;
	else if (!shared && (own(f.table, HM_FILE_READ, &t, reader + 1) ||
			     own(f.report, HM_FILE_WRITE, &r, reader + 1)))
		e = 5;
	else if (own(f.table, HM_FILE_READ, NULL, reader))
		e = 6;
	hm_sbx_files_remove(&f);
	return e;
}

static void test_shared(void **state)
{
	(void)state;
	mode_t old;

	if (!has_cap(CAP_SETUID, false))
		skip();
	old = umask(077);	/* the modes must not come from the umask */
	assert_int_equal(check_files(true, tmpdir), 0);
	/* a TMPDIR the users it may become cannot search: /tmp */
	assert_int_equal(chmod(tmpdir, 0700), 0);
	assert_int_equal(check_files(true, "/tmp"), 0);
	assert_int_equal(chmod(tmpdir, 0711), 0);
	umask(old);
	if (getuid())
		return;
	/* root's sandbox: its children, whatever user, use the files */
	assert_int_equal(check_made(true, NOBODY), 0);
	assert_int_equal(check_made(true, 0), 0);
}

/* a sandbox without CAP_SETUID: private files, only its user's
 * processes are the sandbox's */
static int private_child(void)
{
	int e;

	if (!has_cap(0, true) || chmod(tmpdir, 0700))
		return 100;
	e = check_files(false, tmpdir);
	if (!e && (e = check_made(false, geteuid())))
		e += 20;
	return e;
}

static void test_private(void **state)
{
	int status = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(private_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	chmod(tmpdir, 0711);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

#define R32 "0123456789abcdef0123456789abcdef"

/* as a root sandbox makes them, with names in and out of the scheme */
static void test_names(void **state)
{
	const struct hm_cond_obj table = { .mode = S_IFREG | 0444 };
	const struct hm_cond_obj fifo = { .mode = S_IFIFO | 0622 };
	const struct hm_cond_obj lookalike = { .mode = S_IFREG | 0444,
					       .uid = NOBODY };
	static const char *const not_own[] = {
		"/tmp/histmac-sandbox.aB3xY9/" R32 "/tablex",
		"/tmp/histmac-sandbox.aB3xY9/" R32 "/x/table",
		"/tmp/histmac-sandbox.aB3xY9/" R32 "0/table",
		"/tmp/histmac-sandbox.aB3xY9/" R32 "/",
		"/tmp/histmac-sandbox.aB3xY/" R32 "/table",
		"/tmp/histmac-sandbox.aB3xY99/" R32 "/table",
		"/tmp/histmac-sandbox.aB3-Y9/" R32 "/table",
		"/tmp/histmac-sandbox.aB3xY9/0123456789ABCDEF0123456789abcdef/table",
		"/tmp/histmac-sandbox.aB3xY9/0123456789abcdef0123456789abcdeg/table",
		"/tmp/xhistmac-sandbox.aB3xY9/" R32 "/table",
		"/tmp/histmac-sandbox.aB3xY9" R32 "/table",
		"tmp/histmac-sandbox.aB3xY9/" R32 "/table",
		"histmac-sandbox.aB3xY9/" R32 "/table",
		"/histmac-sandbox.aB3xY9/" R32,
		"table",
		"",
	};

	(void)state;
	assert_true(own("/tmp/histmac-sandbox.aB3xY9/" R32 "/table",
			HM_FILE_READ, &table, NOBODY));
	assert_true(own("/histmac-sandbox.aB3xY9/" R32 "/table",
			HM_FILE_READ, &table, NOBODY));
	assert_true(own("/var/tmp/x\\040y/histmac-sandbox.000000/" R32
			"/report", HM_FILE_WRITE, &fifo, NOBODY));
	/* anyone may make the directory: not the sandbox's files */
	assert_false(own("/tmp/histmac-sandbox.aB3xY9/" R32 "/table",
			 HM_FILE_READ, &lookalike, NOBODY));
	assert_false(own("/tmp/histmac-sandbox.aB3xY9/" R32 "/report",
			 HM_FILE_WRITE, &table, NOBODY));
	assert_false(own("/tmp/histmac-sandbox.aB3xY9/" R32 "/table",
			 HM_FILE_READ, &fifo, NOBODY));
	for (size_t i = 0; i < sizeof(not_own) / sizeof(not_own[0]); i++) {
		bool t = own(not_own[i], HM_FILE_READ, &table, NOBODY);
		bool r = own(not_own[i], HM_FILE_WRITE, &fifo, NOBODY);

		if (t || r)
			fail_msg("%s taken for the sandbox's", not_own[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_private),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
