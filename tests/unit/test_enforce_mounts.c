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
	assert_null(m.overlay);
}

/* An overlay's super options (its layers) are kept; no other type's,
 * nor an overlay line cut before them. */
static void test_parse_overlay(void **state)
{
	char ovl[] = "50 1 0:45 / /srv/r rw shared:7 - overlay ovl "
		     "rw,lowerdir=/l1:/l2,upperdir=/u/u,workdir=/u/w\n";
	char cut[] = "50 1 0:45 / /srv/r rw - overlay ovl";
	char named[] = "50 1 0:45 / /srv/r rw - tmpfs overlay rw,upperdir=/x";
	struct hm_mnt m;

	(void)state;
	assert_int_equal(hm_mnt_parse(ovl, &m), 0);
	assert_string_equal(m.point, "/srv/r");
	assert_string_equal(m.overlay, "rw,lowerdir=/l1:/l2,upperdir=/u/u,workdir=/u/w");
	assert_int_equal(hm_mnt_parse(cut, &m), 0);
	assert_null(m.overlay);
	assert_int_equal(hm_mnt_parse(named, &m), 0);
	assert_null(m.overlay);
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
				     UINT64_MAX, &line, &m), 0);
	assert_true(m.id == stx.stx_mnt_id);
	free(line);
	assert_int_equal(hm_mnt_find("/proc/self/mountinfo", UINT64_MAX,
				     UINT64_MAX, &line, &m), -ENOENT);
	free(line);
	/* past its deadline: not read at all */
	assert_int_equal(hm_mnt_find("/proc/self/mountinfo", stx.stx_mnt_id,
				     hm_now_ns(), &line, &m), -ETIME);
	free(line);
	assert_int_equal(hm_mnt_find("/nonexistent/mountinfo", 1, UINT64_MAX,
				     &line, &m), -ENOENT);
	free(line);
}

/* A file of our own mounts keeps its name, even renamed after the open
 * (the name printed then is ours); never marked foreign. */
static void test_own_name(void **state)
{
	char dir[] = "/tmp/hm-test-mounts-XXXXXX";
	char path[256], moved[256], raw[PATH_MAX];
	struct hm_mounts *t = hm_mounts_new(250);
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

/* A mount namespace of our own (root's, or a user namespace's) whose
 * mounts do not reach the test's.  -1: none could be made. */
static int own_ns(void)
{
	if (unshare(CLONE_NEWNS) && (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
				     map_ids()))
		return -1;
	return mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ? 2 : 0;
}

/* @fn in a child in a namespace of its own: its exit code 0 passes, any
 * other is the step that failed; no namespace (77) skips. */
static void in_own_ns(int (*fn)(void))
{
	int st = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		int r = own_ns();

		_exit(r < 0 ? 77 : r ? r : fn());
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();		/* no namespaces here: the e2e tests need them */
	assert_int_equal(WEXITSTATUS(st), 0);
}

/*
 * In a mount namespace of its own: a mount made after the table was
 * read is in it when next needed (a stale table would take a reused
 * mount id for ours).  0: it was; else the step that failed.
 */
static int refresh_child(void)
{
	char dir[] = "/tmp/hm-test-mounts-XXXXXX";
	char path[256], raw[PATH_MAX];
	struct hm_mounts *t;
	struct statx stx;
	bool foreign = true;
	int fd;

	if (!mkdtemp(dir))
		return 2;
	t = hm_mounts_new(250);
	snprintf(raw, sizeof(raw), "%s/none", dir);
	/* the table is read now (the name does not reach "/") */
	if (!t || statx(AT_FDCWD, "/", 0, STATX_INO | STATX_NLINK |
			STATX_MNT_ID, &stx) ||
	    hm_mnt_own_name(t, getpid(), &stx, raw, sizeof(raw),
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
	(void)state;
	in_own_ns(refresh_child);
}

/* ---------------------------------------------- a foreign mount, for real */

struct foreign_fix {
	char dir[64];		/* a tmpfs of ours */
	int to[2], from[2];	/* to and from the other namespace */
	pid_t pid;		/* in it */
	int fd[3];		/* its fds: the bound-over a, m1/f, unlinked u */
};

static void path_in(const struct foreign_fix *f, const char *name, char *out,
		    size_t size)
{
	snprintf(out, size, "%s/%s", f->dir, name);
}

/* The other namespace: binds s over a and sub over m1, opens a, m1/f
 * and u (then unlinks u), says which fds; moves m1 to m2 when told. */
static int other_ns(struct foreign_fix *f)
{
	char a[128], s[128], sub[128], m1[128], m2[128], mf[128], u[128];
	char b;
	int fd[3];

	path_in(f, "a", a, sizeof(a));
	path_in(f, "s", s, sizeof(s));
	path_in(f, "sub", sub, sizeof(sub));
	path_in(f, "m1", m1, sizeof(m1));
	path_in(f, "m2", m2, sizeof(m2));
	path_in(f, "m1/f", mf, sizeof(mf));
	path_in(f, "u", u, sizeof(u));
	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount(s, a, "none", MS_BIND, NULL) ||
	    mount(sub, m1, "none", MS_BIND, NULL))
		return 2;
	fd[0] = open(a, O_RDONLY);
	fd[1] = open(mf, O_RDONLY);
	fd[2] = open(u, O_RDONLY);
	if (fd[0] < 0 || fd[1] < 0 || fd[2] < 0 || unlink(u) ||
	    write(f->from[1], fd, sizeof(fd)) != sizeof(fd))
		return 3;
	if (read(f->to[0], &b, 1) != 1 || mount(m1, m2, "none", MS_MOVE, NULL) ||
	    write(f->from[1], &b, 1) != 1)
		return 4;
	while (read(f->to[0], &b, 1) > 0)
		;
	return 0;
}

/* The name hm_mnt_own_name() gives the other namespace's fd @n. */
static int name_of_theirs(struct hm_mounts *t, const struct foreign_fix *f,
			  int n, char *raw, size_t size, bool *foreign)
{
	char p[64];
	struct statx stx;
	ssize_t len;
	int fd, r;

	snprintf(p, sizeof(p), "/proc/%d/fd/%d", (int)f->pid, f->fd[n]);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	len = readlink(p, raw, size - 1);
	if (len <= 0 || statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_NLINK |
			      STATX_MNT_ID, &stx)) {
		close(fd);
		return -EIO;
	}
	raw[len] = '\0';
	r = hm_mnt_own_name(t, f->pid, &stx, raw, size, foreign);
	close(fd);
	return r;
}

static int want_name(struct hm_mounts *t, const struct foreign_fix *f, int n,
		     const char *want, int code)
{
	char raw[PATH_MAX], w[128];
	bool foreign = false;

	path_in(f, want, w, sizeof(w));
	if (name_of_theirs(t, f, n, raw, sizeof(raw), &foreign) || !foreign ||
	    strcmp(raw, w))
		return code;
	return 0;
}

/* Our side: each file named by the file system, through our tmpfs. */
static int foreign_checks(struct foreign_fix *f)
{
	struct hm_mounts *t = hm_mounts_new(250);
	char raw[PATH_MAX], b = 'm';
	bool foreign = false;
	int r;

	if (!t || read(f->from[0], f->fd, sizeof(f->fd)) != sizeof(f->fd))
		return 10;
	/* a bound over by s: s, twice (the second from what was kept) */
	r = want_name(t, f, 0, "s", 11);
	r = r ? r : want_name(t, f, 0, "s", 12);
	r = r ? r : want_name(t, f, 1, "sub/f", 13);
	/* moved: the kept mount point is stale, read again */
	if (!r && (write(f->to[1], &b, 1) != 1 || read(f->from[0], &b, 1) != 1))
		r = 14;
	r = r ? r : want_name(t, f, 1, "sub/f", 15);
	/* unlinked: no name reaches it */
	if (!r && (name_of_theirs(t, f, 2, raw, sizeof(raw), &foreign) !=
			   -EXDEV || !foreign))
		r = 16;
	hm_mounts_free(t);
	/* no time left to read their mount table: over the budget */
	t = hm_mounts_new(0);
	foreign = false;
	if (!r && (!t || name_of_theirs(t, f, 0, raw, sizeof(raw), &foreign) !=
				 -ETIME || !foreign))
		r = 17;
	hm_mounts_free(t);
	return r;
}

static int make_files(const char *dir)
{
	static const char *const dirs[] = { "sub", "m1", "m2" };
	static const char *const files[] = { "a", "s", "u", "sub/f" };
	char p[128];

	for (size_t i = 0; i < HM_ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, dirs[i]);
		if (mkdir(p, 0700))
			return -1;
	}
	for (size_t i = 0; i < HM_ARRAY_SIZE(files); i++) {
		int fd;

		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* In a namespace of our own, a second one binds, opens and moves; we
 * name its files. */
static int foreign_child(void)
{
	struct foreign_fix f = { .dir = "/tmp/hm-test-mounts-XXXXXX" };
	int st = 0, r;

	if (!mkdtemp(f.dir) || mount("hm-test", f.dir, "tmpfs", 0, NULL) ||
	    make_files(f.dir) || pipe2(f.to, O_CLOEXEC) ||
	    pipe2(f.from, O_CLOEXEC))
		return 2;
	f.pid = fork();
	if (f.pid < 0)
		return 2;
	if (!f.pid) {
		close(f.to[1]);		/* so its reads end when ours goes */
		close(f.from[0]);
		_exit(other_ns(&f));
	}
	close(f.to[0]);
	close(f.from[1]);		/* so our reads end when it goes */
	r = foreign_checks(&f);
	close(f.to[1]);
	waitpid(f.pid, &st, 0);
	umount(f.dir);
	rmdir(f.dir);
	return r ? r : WIFEXITED(st) ? WEXITSTATUS(st) : 9;
}

/* A file reached through another namespace's mount is named by the file
 * system through ours: bound over, moved, unlinked. */
static void test_foreign(void **state)
{
	(void)state;
	/* valgrind 3.19 answers openat2 with ENOSYS: no rebuilt name would
	 * count (the plain and ASan runs check them) */
	if (getenv("HM_UNDER_VALGRIND")) {
		print_message("test_foreign: valgrind has no openat2\n");
		skip();
	}
	in_own_ns(foreign_child);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_overlay),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_rebase),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_own_name),
		cmocka_unit_test(test_table_refresh),
		cmocka_unit_test(test_foreign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
