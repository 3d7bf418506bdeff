// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lock.c - the writer's lock of a policy directory.  Owns the lock file's
 * descriptor and nothing else; the commands decide how long they hold it.
 *
 * The lock file is removed on release.  A waiter may then hold a lock on
 * the removed file while a newcomer creates and locks a fresh one, so a
 * lock counts only when the locked file is still the one at the path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "histmac/lock.h"

struct hm_lock {
	int fd;
	char *path;
	char *made_dir;		/* the directory we created, or NULL */
};

static void read_holder(int fd, struct hm_lock_holder *h)
{
	char buf[sizeof(h->command) + 32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *sp;

	h->pid = 0;
	h->command[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	h->pid = (pid_t)strtol(buf, &sp, 10);
	if (*sp == ' ')
		snprintf(h->command, sizeof(h->command), "%s", sp + 1);
}

static int write_holder(int fd, const char *what)
{
	char buf[4096];
	int len = snprintf(buf, sizeof(buf), "%ld %s\n", (long)getpid(),
			   what ? what : "histmac");

	if (len < 0)
		return -EINVAL;
	if ((size_t)len >= sizeof(buf))
		len = sizeof(buf) - 1;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)len, 0) != len)
		return -errno;
	return 0;
}

/* Is @fd still the file at @path (not one a releasing holder removed)? */
static bool still_there(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* One attempt: 1 locked, 0 held by another (@fd stays open), < 0 error. */
static int try_once(const char *path, int *fd)
{
	if (*fd < 0)
		*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			   0600);
	if (*fd < 0)
		return -errno;
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK ? 0 : -errno;
	if (still_there(*fd, path))
		return 1;
	close(*fd);		/* locked a removed file: start again */
	*fd = -1;
	return try_once(path, fd);
}

/*
 * Make @dir and the parents it lacks (learn -p /new/dir/policy); *@made
 * is the topmost one made, NULL when @dir existed, so that a failed run
 * can take away what it made (remove_made()).
 */
static int make_dir(const char *dir, char **made)
{
	char *p = strdup(dir);
	size_t n;

	*made = NULL;
	if (!p)
		return -ENOMEM;
	n = strlen(p);
	for (size_t i = 1; i <= n; i++) {
		if (i < n && p[i] != '/')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) == 0 && !*made && !(*made = strdup(p))) {
			free(p);
			return -ENOMEM;
		}
		if (i < n)
			p[i] = '/';
	}
	free(p);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* rmdir the directory of @file and its parents up to @top, each only
 * while empty. */
static void remove_made(const char *file, const char *top)
{
	char *p = strdup(file);
	size_t tl = strlen(top);
	char *slash = p ? strrchr(p, '/') : NULL;

	if (slash)
		*slash = '\0';
	while (p && strlen(p) >= tl && !rmdir(p) && strlen(p) > tl &&
	       (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	free(p);
}

static int acquire(const char *path, int wait_s, struct hm_lock_holder *h,
		   int *out)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	time_t deadline = time(NULL) + (wait_s > 0 ? wait_s : 0);
	int fd = -1;
	int r;

	while ((r = try_once(path, &fd)) == 0) {
		if (wait_s == 0 || (wait_s > 0 && time(NULL) >= deadline))
			break;
		nanosleep(&nap, NULL);
	}
	if (r == 0) {
		if (h)
			read_holder(fd, h);
		r = -EWOULDBLOCK;
	}
	if (r < 0) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	*out = fd;
	return 0;
}

int hm_lock_take(const char *dir, const char *what, int wait_s,
		 struct hm_lock_holder *holder, struct hm_lock **out)
{
	struct hm_lock *l = calloc(1, sizeof(*l));
	int r;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	l->fd = -1;
	if (asprintf(&l->path, "%s/%s", dir, HM_LOCK_FILE) < 0) {
		l->path = NULL;
		r = -ENOMEM;
		goto fail;
	}
	r = make_dir(dir, &l->made_dir);
	if (!r)
		r = acquire(l->path, wait_s, holder, &l->fd);
	if (!r)
		r = write_holder(l->fd, what);
	if (!r) {
		*out = l;
		return 0;
	}
fail:
	hm_lock_release(l, true);
	return r;
}

void hm_lock_release(struct hm_lock *l, bool failed)
{
	if (!l)
		return;
	if (l->fd >= 0) {
		/* remove while still holding, so nobody locks a stale file */
		unlink(l->path);
		close(l->fd);
	}
	if (failed && l->made_dir)	/* only when nothing else is there */
		remove_made(l->path, l->made_dir);
	free(l->made_dir);
	free(l->path);
	free(l);
}
