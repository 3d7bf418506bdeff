// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_mounts.c - naming an event's file from the file system's
 * point of view (enforcer/mounts.c): mountinfo lines, the path
 * arithmetic that moves a path from one mount's view to another's, and
 * the daemon's own check on real files of this process's own mounts (a
 * foreign mount needs another mount namespace: t_enforce_userns.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "enforcer_private.h"

static void test_parse(void **state)
{
	char ok[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 "
		    "/dev/root rw,errors=continue\n";
	char esc[] = "40 1 0:52 /a\\040b/c\\134d /srv/x\\011y rw - tmpfs t rw";
	char big[] = "18446744073709551615 1 259:65535 / / rw - ext4 x rw";
	struct hm_mnt m;

	(void)state;
	assert_int_equal(hm_mnt_parse(ok, &m), 0);
	assert_int_equal(m.id, 36);
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.root, "/mnt1");
	assert_string_equal(m.point, "/mnt2");
	assert_int_equal(hm_mnt_parse(esc, &m), 0);
	assert_string_equal(m.root, "/a b/c\\d");
	assert_string_equal(m.point, "/srv/x\ty");
	assert_int_equal(hm_mnt_parse(big, &m), 0);
	assert_true(m.id == UINT64_MAX);
	assert_int_equal(m.major, 259);
}

/* Lines that are not mountinfo's: refused, never half read. */
static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"36 35 98:0 /mnt1",			/* no mount point */
		"x 35 98:0 / / rw",			/* id */
		"36 35 98 / / rw",			/* no minor */
		"36 35 98:0 net:[4026531840] / rw",	/* root not a path */
		"36 35 98:0 / relative rw",
		"36 35 98:0 /a\\04 / rw",		/* short escape */
		"36 35 98:0 /a\\9xx / rw",
		"36 35 98:0 /a\\000b / rw",		/* NUL */
		"36 35 98:0 /a\\ / rw",
	};
	struct hm_mnt m;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(bad); i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s", bad[i]);
		if (hm_mnt_parse(line, &m) != -EINVAL)
			fail_msg("line %zu (%s) was accepted", i, bad[i]);
	}
}

static void test_rebase(void **state)
{
	static const struct {
		const char *path, *from, *to, *want;	/* NULL: -ENOENT */
	} cases[] = {
		/* the attack: a file bound over /etc/hostname */
		{ "/etc/hostname", "/etc/hostname", "/secret", "/secret" },
		{ "/secret", "/", "/srv/marked", "/srv/marked/secret" },
		{ "/m/x/y", "/m", "/srv/d", "/srv/d/x/y" },
		{ "/m", "/m", "/", "/" },
		{ "/m/x", "/m", "/", "/x" },
		{ "/x", "/", "/", "/x" },
		{ "/", "/", "/srv", "/srv" },
		{ "/mx/y", "/m", "/srv", NULL },	/* not below /m */
		{ "/x", "/m", "/", NULL },
		{ "/m/x (deleted)", "/m", "/r", "/r/x (deleted)" },
	};
	char out[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		int r = hm_mnt_rebase(cases[i].path, cases[i].from,
				      cases[i].to, out, sizeof(out));

		if (!cases[i].want ? r != -ENOENT :
				     r || strcmp(out, cases[i].want))
			fail_msg("case %zu: %d \"%s\", want \"%s\"", i, r,
				 r ? "" : out,
				 cases[i].want ? cases[i].want : "-ENOENT");
	}
	assert_int_equal(hm_mnt_rebase("/m/abcdef", "/m", "/r", out, 6),
			 -ENAMETOOLONG);
	assert_int_equal(hm_mnt_rebase("/m/ab", "/m", "/r", out, 6), 0);
	assert_string_equal(out, "/r/ab");
}

/* This process's own mount of /proc/self/mountinfo's file is found. */
static void test_find(void **state)
{
	struct statx stx;
	struct hm_mnt m;
	char *line;

	(void)state;
	assert_int_equal(statx(AT_FDCWD, "/proc/self/mountinfo", 0,
			       STATX_MNT_ID, &stx), 0);
	if (!(stx.stx_mask & STATX_MNT_ID))
		skip();		/* a kernel before 5.8 */
	assert_int_equal(hm_mnt_find("/proc/self/mountinfo", stx.stx_mnt_id,
				     &line, &m), 0);
	assert_true(m.id == stx.stx_mnt_id);
	free(line);
	assert_int_equal(hm_mnt_find("/proc/self/mountinfo", UINT64_MAX,
				     &line, &m), -ENOENT);
	free(line);
	assert_int_equal(hm_mnt_find("/nonexistent/mountinfo", 1, &line, &m),
			 -ENOENT);
	free(line);
}

/* A file of our own mounts keeps its name, even renamed after the open
 * (the name printed then is ours); never marked foreign. */
static void test_own_name(void **state)
{
	char dir[] = "/tmp/hm-test-mounts-XXXXXX";
	char path[256], moved[256], raw[PATH_MAX];
	struct hm_mounts *t = hm_mounts_new();
	struct statx stx;
	bool foreign = true;
	int fd;

	(void)state;
	assert_non_null(t);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(moved, sizeof(moved), "%s/g", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_NLINK |
			       STATX_MNT_ID, &stx), 0);
	if (!(stx.stx_mask & STATX_MNT_ID))
		skip();
	snprintf(raw, sizeof(raw), "%s", path);
	assert_int_equal(hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw),
					 &foreign), 0);
	assert_false(foreign);
	assert_string_equal(raw, path);
	assert_int_equal(rename(path, moved), 0);
	foreign = true;
	assert_int_equal(hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw),
					 &foreign), 0);
	assert_false(foreign);
	assert_string_equal(raw, path);
	/* and unlinked: still ours */
	assert_int_equal(unlink(moved), 0);
	snprintf(raw, sizeof(raw), "%s (deleted)", moved);
	assert_int_equal(hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw),
					 &foreign), 0);
	assert_false(foreign);
	close(fd);
	rmdir(dir);
	hm_mounts_free(t);
}

static int write_to(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Our ids in a new user namespace, so the files we make have an owner. */
static int map_ids(void)
{
	char uid[64], gid[64];

	snprintf(uid, sizeof(uid), "%u %u 1\n", getuid(), getuid());
	snprintf(gid, sizeof(gid), "%u %u 1\n", getgid(), getgid());
	return write_to("/proc/self/setgroups", "deny") ||
	       write_to("/proc/self/uid_map", uid) ||
	       write_to("/proc/self/gid_map", gid);
}

/*
 * In a mount namespace of its own (root's, or a user namespace's): a
 * mount made after the table was read is in it when next needed (a
 * stale table would take a reused mount id for ours).  Exit 0: it was;
 * 77: no namespace could be made; else the step that failed.
 */
static int refresh_child(void)
{
	char dir[] = "/tmp/hm-test-mounts-XXXXXX";
	char path[256], raw[PATH_MAX];
	struct hm_mounts *t;
	struct statx stx;
	bool foreign = true;
	int fd;

	if (unshare(CLONE_NEWNS) && (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
				     map_ids()))
		return 77;
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(dir))
		return 2;
	t = hm_mounts_new();
	snprintf(raw, sizeof(raw), "%s/none", dir);
	assert_int_equal(statx(AT_FDCWD, "/", 0, STATX_INO | STATX_NLINK |
			       STATX_MNT_ID, &stx), 0);
	/* the table is read now (the name does not reach "/") */
	if (!t || hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw),
				  &foreign) || foreign)
		return 3;
	if (mount("hm-test", dir, "tmpfs", 0, NULL))
		return 4;
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 || statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_NLINK |
			    STATX_MNT_ID, &stx) || unlink(path))
		return 5;
	/* no name reaches it now: only the table says the mount is ours */
	snprintf(raw, sizeof(raw), "%s (deleted)", path);
	foreign = true;
	if (hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw), &foreign) ||
	    foreign)
		return 6;
	close(fd);
	hm_mounts_free(t);
	umount(dir);
	rmdir(dir);
	return 0;
}

static void test_table_refresh(void **state)
{
	int st = 0;
	pid_t pid = fork();

	(void)state;
	assert_true(pid >= 0);
	if (!pid)
		_exit(refresh_child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();		/* no namespaces here: the e2e tests need them */
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_rebase),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_own_name),
		cmocka_unit_test(test_table_refresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
