// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mark.c - what the enforcer watches, and what it must never watch.
 * Each --mark PATH becomes a file system mark when PATH is the root of a
 * mount of a whole file system (so a bind mount or another mount
 * namespace's copy is covered too), a mount mark when it is the root of
 * a bind mount of a subtree,
 * a directory mark (the files directly in it) for another directory, or
 * an inode mark for a file.  Refused: the root mount, /proc and /sys,
 * anything that covers the policy directory (the daemon writes there and
 * would wait for itself), and an overlay beside its layers' file system
 * (the kernel would wait for the daemon while it reads the overlay's
 * event).  Kernel ignore marks for globally readable
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

#include "enforcer_private.h"

enum mark_type { MARK_MOUNT, MARK_DIR, MARK_FILE, MARK_FS };

static int mnt_id(const char *path, uint64_t *out)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx) < 0)
		return -errno;
	*out = stx.stx_mnt_id;
	return 0;
}

/* Is mount @id the root of its file system (not a bind of a subtree)? */
static bool mount_is_fs_root(uint64_t id)
{
	struct hm_mnt m;
	char *line;
	/* our own table, read at start: no deadline */
	bool yes = !hm_mnt_find("/proc/self/mountinfo", id, UINT64_MAX, &line,
				&m) && !strcmp(m.root, "/");

	free(line);
	return yes;
}

static bool same_fs(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev;
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
	if (a == b)
		return MARK_DIR;
	return mount_is_fs_root(a) ? MARK_FS : MARK_MOUNT;
}

/* mark_type() of --mark @mark; negative errno on error. */
static int mark_type_of(const char *mark)
{
	char real[PATH_MAX];

	return realpath(mark, real) ? mark_type(real) : -errno;
}

/* The marks made, by object, for hm_marks_cover(); more than fit: every
 * file is taken as covered. */
struct kept_mark {
	int type;
	uint32_t major, minor;
	uint64_t ino, mnt;
};

static struct {
	struct kept_mark m[64];
	size_t n;
} kept;

static void keep_mark(int type, const char *real)
{
	struct statx stx;

	if (kept.n >= HM_ARRAY_SIZE(kept.m) ||
	    statx(AT_FDCWD, real, 0, STATX_INO | STATX_MNT_ID, &stx) < 0) {
		kept.n = HM_ARRAY_SIZE(kept.m) + 1;
		return;
	}
	kept.m[kept.n++] = (struct kept_mark){
		.type = type, .major = stx.stx_dev_major,
		.minor = stx.stx_dev_minor, .ino = stx.stx_ino,
		.mnt = stx.stx_mnt_id };
}

static bool same_dev(const struct statx *s, const struct kept_mark *k)
{
	return s->stx_dev_major == k->major && s->stx_dev_minor == k->minor;
}

static bool same_obj(const struct statx *s, const struct kept_mark *k)
{
	return same_dev(s, k) && s->stx_ino == k->ino;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int check_one(const char *mark,
		     const char *policy)
{
	char real[PATH_MAX];
	struct statfs sfs;
	uint64_t m1 = 0, m2 = 0;
	int type;

	if (!realpath(mark, real)) {
		hm_log("--mark %s: %s", mark, strerror(errno));
		return -errno;
	}
	if (!strcmp(real, "/")) {
		hm_log("--mark %s: refusing to mark / (the whole system); "
		       "name the mounts or directories to enforce on", mark);
		return -EINVAL;
	}
	if (statfs(real, &sfs) == 0 &&
	    (sfs.f_type == PROC_SUPER_MAGIC || sfs.f_type == SYSFS_MAGIC)) {
		hm_log("--mark %s: refusing to mark /proc or /sys", mark);
		return -EINVAL;
	}
	type = mark_type(real);
	if (type < 0) {
		hm_log("--mark %s: %s", mark, strerror(-type));
		return type;
	}
	if ((type == MARK_MOUNT && !mnt_id(real, &m1) && !mnt_id("/", &m2) &&
	     m1 == m2) || (type == MARK_FS && same_fs(real, "/"))) {
		hm_log("--mark %s: that is the root mount (or its file "
		       "system)", mark);
		return -EINVAL;
	}
	if (type == MARK_FS && same_fs(real, policy)) {
		hm_log("--mark %s: it covers the policy directory %s (a "
		       "file system mark covers all of its file system); "
		       "keep the policy outside what is enforced", mark,
		       policy);
		return -EINVAL;
	}
	/* the policy directory is written by us: never under a mark */
	if ((type == MARK_MOUNT && !mnt_id(real, &m1) &&
	     !mnt_id(policy, &m2) && m1 == m2) ||
	    (type != MARK_MOUNT && (under(policy, real) ||
				    !strcmp(policy, real)))) {
		hm_log("--mark %s: it covers the policy directory %s; keep "
		       "the policy outside what is enforced", mark, policy);
		return -EINVAL;
	}
	return 0;
}

/*
 * Is @real the root of an overlay mount?  Its layer directories (cut
 * from a copy of its super options, *@opts: the caller frees) in @dirs.
 */
static size_t overlay_layers(const char *real, char **opts, char **dirs,
			     size_t max)
{
	struct statfs sfs;
	struct hm_mnt m;
	uint64_t id = 0;
	char *line = NULL;
	size_t n = 0;

	*opts = NULL;
	if (statfs(real, &sfs) || sfs.f_type != OVERLAYFS_SUPER_MAGIC ||
	    mnt_id(real, &id))
		return 0;
	if (!hm_mnt_find("/proc/self/mountinfo", id, UINT64_MAX, &line, &m) &&
	    m.overlay && (*opts = strdup(m.overlay)))
		n = hm_mnt_layers(*opts, false, dirs, max);
	free(line);
	return n;
}

/*
 * An overlay and a file system of one of its layers, both marked: to
 * give the daemon an event's file of the overlay, the kernel opens the
 * layer's file too, and that open waits for the daemon's answer while
 * the daemon waits in read() (the watchdog denies both a second later).
 * Either mark alone is judged by the overlay's names (mounts.c).
 */
static int overlay_clash(const char *const *marks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char real[PATH_MAX], *dirs[64], *opts = NULL;
		size_t k = realpath(marks[i], real) ?
			   overlay_layers(real, &opts, dirs, 64) : 0;
		int r = 0;

		for (size_t d = 0; d < k && !r; d++)
			for (size_t j = 0; j < n && !r; j++)
				if (j != i && mark_type_of(marks[j]) == MARK_FS &&
				    same_fs(dirs[d], marks[j])) {
					hm_log("--mark %s and --mark %s: the "
					       "second is the file system of a "
					       "layer (%s) of the overlay the "
					       "first is; the kernel would wait "
					       "for us while we wait for it: mark "
					       "one of them (docs/ENFORCE.md "
					       "\"Overlays\")", marks[i],
					       marks[j], dirs[d]);
					r = -EINVAL;
				}
		free(opts);
		if (r)
			return r;
	}
	return 0;
}

/**
 * hm_marks_check() - refuse what must never be marked (/, /proc, /sys,
 * the root mount, anything covering the policy directory); logs why.
 * @marks, @n: the --mark paths.
 * @policy: the policy directory.
 * Returns: 0, -EINVAL, or -errno resolving a path.
 */
int hm_marks_check(const char *const *marks, size_t n, const char *policy_dir)
{
	char policy[PATH_MAX];
	int r = 0;

	if (!n) {
		hm_log("nothing to enforce on: give --mark PATH (a mount or "
		       "directory)");
		return -EINVAL;
	}
	if (!realpath(policy_dir, policy)) {
		hm_log("%s: %s", policy_dir, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < n; i++) {
		int e = check_one(marks[i], policy);

		if (e && !r)
			r = e;
	}
	return r ? r : overlay_clash(marks, n);
}

/**
 * hm_marks_add() - mark each checked path for @mask.
 * @fan_fd: the fanotify group.
 * @marks, @n: the --mark paths (hm_marks_check()ed).
 * @mask: the events.
 * Returns: 0 or -errno (logged).
 */
int hm_marks_add(int fan_fd, const char *const *marks, size_t n,
		 uint64_t mask)
{
	static const char *const what[] = {
		[MARK_MOUNT] = "mount", [MARK_DIR] = "directory",
		[MARK_FILE] = "file", [MARK_FS] = "file system",
	};
	static const char *const covers[] = {
		[MARK_MOUNT] = " (this mount only: a bind of a subtree)",
		[MARK_DIR] = " (the files directly in it)",
		[MARK_FILE] = "",
		[MARK_FS] = " (every mount of it, in every namespace)",
	};

	kept.n = 0;

	for (size_t i = 0; i < n; i++) {
		char real[PATH_MAX];
		int type;
		unsigned flags = FAN_MARK_ADD;
		uint64_t m = mask;

		if (!realpath(marks[i], real))
			return -errno;
		type = mark_type(real);
		if (type < 0)
			return type;
		if (type == MARK_MOUNT)
			flags |= FAN_MARK_MOUNT;
		else if (type == MARK_FS)
			flags |= FAN_MARK_FILESYSTEM;
		else if (type == MARK_DIR)
			m |= FAN_EVENT_ON_CHILD;
		if (fanotify_mark(fan_fd, flags, m, AT_FDCWD, real) < 0) {
			int r = -errno;

			hm_log("cannot mark %s: %s", real, strerror(-r));
			return r;
		}
		hm_log("marked %s %s%s", what[type], real, covers[type]);
		keep_mark(type, real);
	}
	return 0;
}

/**
 * hm_marks_cover() - would an open of the file @fd (an O_PATH fd), whose
 * directory is @dirfd, be seen by the marks hm_marks_add() made?  The
 * daemon reads a file only when not: an open inside the marks waits for
 * the daemon's own answer.  Asked of the objects themselves (their
 * device, inode and mount), not of a path that may change in between.
 * @dirfd, @fd: O_PATH fds (not closed here).
 * Returns: true when covered, or when it cannot tell.
 */
bool hm_marks_cover(int dirfd, int fd)
{
	struct statx d, f;
	const unsigned want = STATX_INO | STATX_MNT_ID;

	if (kept.n > HM_ARRAY_SIZE(kept.m) ||
	    statx(dirfd, "", AT_EMPTY_PATH, want, &d) < 0 ||
	    statx(fd, "", AT_EMPTY_PATH, want, &f) < 0 ||
	    !(d.stx_mask & STATX_MNT_ID) || !(f.stx_mask & STATX_MNT_ID))
		return true;
	for (size_t i = 0; i < kept.n; i++) {
		const struct kept_mark *k = &kept.m[i];

		if ((k->type == MARK_FS && same_dev(&f, k)) ||
		    (k->type == MARK_MOUNT && f.stx_mnt_id == k->mnt) ||
		    (k->type == MARK_DIR && same_obj(&d, k)) ||
		    (k->type == MARK_FILE && same_obj(&f, k)))
			return true;
	}
	return false;
}

/* ------------------------------------------------------- ignore marks */

struct hm_ignores {
	int fan_fd;
	size_t max;
	size_t n;
	int fds[];		/* one per mark, to take it back */
};

/**
 * hm_ignores_new() - room for @max kernel ignore marks.
 * @fan_fd: the fanotify group; borrowed.
 * @max: at most this many marks (0: none are added).
 * @out: caller frees with hm_ignores_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_ignores_new(int fan_fd, size_t max, struct hm_ignores **out)
{
	struct hm_ignores *ig = calloc(1, sizeof(*ig) + max * sizeof(int));

	if (!ig)
		return -ENOMEM;
	ig->fan_fd = fan_fd;
	ig->max = max;
	*out = ig;
	return 0;
}

/**
 * hm_ignores_add() - let the kernel allow opens of @event_fd's object
 * without asking us.
 * @ig: the marks.
 * @event_fd: an event fd (read, not closed).
 * Returns: 1 added, 0 no room left, or -errno.
 */
int hm_ignores_add(struct hm_ignores *ig, int event_fd)
{
	int fd;

	if (ig->n >= ig->max)
		return 0;
	fd = fcntl(event_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (fanotify_mark(ig->fan_fd, FAN_MARK_ADD | FAN_MARK_IGNORED_MASK,
			  FAN_OPEN_PERM, fd, NULL) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	ig->fds[ig->n++] = fd;
	return 1;
}

/**
 * hm_ignores_clear() - take every ignore mark back (a reload).
 * @ig: may be NULL.
 */
void hm_ignores_clear(struct hm_ignores *ig)
{
	for (size_t i = 0; ig && i < ig->n; i++) {
		fanotify_mark(ig->fan_fd, FAN_MARK_REMOVE | FAN_MARK_IGNORED_MASK,
			      FAN_OPEN_PERM, ig->fds[i], NULL);
		close(ig->fds[i]);
	}
	if (ig)
		ig->n = 0;
}

/**
 * hm_ignores_free() - take every mark back and free.
 * @ig: may be NULL.
 */
void hm_ignores_free(struct hm_ignores *ig)
{
	hm_ignores_clear(ig);
	free(ig);
}
