// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mark.c - what the enforcer watches, and what it must never watch.
 * Each --mark PATH becomes a mount mark when PATH is the root of a mount,
 * a directory mark (the files directly in it) for another directory, or
 * an inode mark for a file.  Refused: the root mount, /proc and /sys, and
 * anything that covers the policy directory (the daemon writes there and
 * would wait for itself).  Kernel ignore marks for globally readable
 * files are kept with an fd each, so a reload can take them back.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "enforcer.h"

enum mark_type { MARK_MOUNT, MARK_DIR, MARK_FILE };

static int mnt_id(const char *path, uint64_t *out)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx) < 0)
		return -errno;
	*out = stx.stx_mnt_id;
	return 0;
}

/* What kind of mark @real (a realpath) gets; negative errno on error. */
static int mark_type(const char *real)
{
	char parent[PATH_MAX + 4];
	uint64_t a = 0, b = 0;
	struct stat st;

	if (stat(real, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return MARK_FILE;
	snprintf(parent, sizeof(parent), "%s/..", real);
	if (mnt_id(real, &a) || mnt_id(parent, &b))
		return -errno;
	return a != b ? MARK_MOUNT : MARK_DIR;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int check_one(struct hm_enforcer *E, const char *mark,
		     const char *policy)
{
	char real[PATH_MAX];
	struct statfs sfs;
	uint64_t m1 = 0, m2 = 0;
	int type;

	if (!realpath(mark, real)) {
		hm_enf_log(E, "--mark %s: %s", mark, strerror(errno));
		return -errno;
	}
	if (!strcmp(real, "/")) {
		hm_enf_log(E, "--mark %s: refusing to mark / (the whole "
			   "system); name the mounts or directories to "
			   "enforce on", mark);
		return -EINVAL;
	}
	if (statfs(real, &sfs) == 0 &&
	    (sfs.f_type == PROC_SUPER_MAGIC || sfs.f_type == SYSFS_MAGIC)) {
		hm_enf_log(E, "--mark %s: refusing to mark /proc or /sys", mark);
		return -EINVAL;
	}
	type = mark_type(real);
	if (type < 0) {
		hm_enf_log(E, "--mark %s: %s", mark, strerror(-type));
		return type;
	}
	if (type == MARK_MOUNT && !mnt_id(real, &m1) && !mnt_id("/", &m2) &&
	    m1 == m2) {
		hm_enf_log(E, "--mark %s: that is the root mount", mark);
		return -EINVAL;
	}
	/* the policy directory is written by us: never under a mark */
	if ((type == MARK_MOUNT && !mnt_id(real, &m1) &&
	     !mnt_id(policy, &m2) && m1 == m2) ||
	    (type != MARK_MOUNT && (under(policy, real) ||
				    !strcmp(policy, real)))) {
		hm_enf_log(E, "--mark %s: it covers the policy directory %s; "
			   "keep the policy outside what is enforced", mark,
			   policy);
		return -EINVAL;
	}
	return 0;
}

int hm_enf_marks_check(struct hm_enforcer *E)
{
	char policy[PATH_MAX];
	int r = 0;

	if (!E->o.n_marks) {
		hm_enf_log(E, "nothing to enforce on: give --mark PATH (a "
			   "mount or directory)");
		return -EINVAL;
	}
	if (!realpath(E->o.policy, policy)) {
		hm_enf_log(E, "%s: %s", E->o.policy, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < E->o.n_marks; i++) {
		int e = check_one(E, E->o.marks[i], policy);

		if (e && !r)
			r = e;
	}
	return r;
}

int hm_enf_marks_add(struct hm_enforcer *E, uint64_t mask)
{
	static const char *const what[] = { "mount", "directory", "file" };

	for (size_t i = 0; i < E->o.n_marks; i++) {
		char real[PATH_MAX];
		int type;
		unsigned flags = FAN_MARK_ADD;
		uint64_t m = mask;

		if (!realpath(E->o.marks[i], real))
			return -errno;
		type = mark_type(real);
		if (type < 0)
			return type;
		if (type == MARK_MOUNT)
			flags |= FAN_MARK_MOUNT;
		else if (type == MARK_DIR)
			m |= FAN_EVENT_ON_CHILD;
		if (fanotify_mark(E->fan_fd, flags, m, AT_FDCWD, real) < 0) {
			int r = -errno;

			hm_enf_log(E, "cannot mark %s: %s", real, strerror(-r));
			return r;
		}
		hm_enf_log(E, "marked %s %s%s", what[type], real,
			   type == MARK_DIR ? " (the files directly in it)" :
					      "");
	}
	return 0;
}

int hm_enf_ignore_add(struct hm_enforcer *E, int event_fd)
{
	int fd;

	if (E->n_ignore >= E->o.ignore_max)
		return 0;
	if (!E->ignore_fds) {
		E->ignore_fds = calloc(E->o.ignore_max, sizeof(int));
		if (!E->ignore_fds)
			return -ENOMEM;
	}
	fd = fcntl(event_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (fanotify_mark(E->fan_fd, FAN_MARK_ADD | FAN_MARK_IGNORED_MASK,
			  FAN_OPEN_PERM, fd, NULL) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	E->ignore_fds[E->n_ignore++] = fd;
	E->c.ignore_marks++;
	return 0;
}

void hm_enf_ignore_clear(struct hm_enforcer *E)
{
	for (size_t i = 0; i < E->n_ignore; i++) {
		fanotify_mark(E->fan_fd, FAN_MARK_REMOVE | FAN_MARK_IGNORED_MASK,
			      FAN_OPEN_PERM, E->ignore_fds[i], NULL);
		close(E->ignore_fds[i]);
	}
	E->n_ignore = 0;
}
