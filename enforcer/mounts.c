// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mounts.c - the name of an event's file from the file system's point of
 * view, never the opener's.  /proc/self/fd/N prints the path through the
 * mount the opener used; in a mount namespace of its own (any user may
 * make one inside a user namespace) that mount can sit anywhere, e.g. a
 * marked secret bind-mounted over /etc/hostname.  So a name is believed
 * only when the daemon's own lookup of it reaches the same mount and the
 * same inode.  Otherwise the mount is found in the opener's mountinfo,
 * the file's path in its file system rebuilt from that mount's root, and
 * named through a mount of the daemon's whose lookup reaches the same
 * inode; failing that the file has no name (the caller fails closed).
 *
 * The parsing and path arithmetic are pure (unit-tested); the rest reads
 * /proc and looks names up.  Called by loop.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "histmac/sbuf.h"
#include "enforcer_private.h"

/* mountinfo escapes ' ', '\t', '\n' and '\\' as a backslash and three
 * octal digits; anything else after a backslash is not ours to guess. */
static int unescape(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		if (r[1] < '0' || r[1] > '3' || r[2] < '0' || r[2] > '7' ||
		    r[3] < '0' || r[3] > '7')
			return -EINVAL;
		*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
			      (r[3] - '0'));
		if (!w[-1])
			return -EINVAL;
		r += 3;
	}
	*w = '\0';
	return 0;
}

/**
 * hm_mnt_parse() - one line of /proc/PID/mountinfo.
 * @line: "ID PARENT MAJ:MIN ROOT POINT ...", without its newline or with
 *	it; changed in place (fields cut and unescaped).
 * @out: points into @line.
 * Returns: 0, or -EINVAL for a line that is not one (a path that is not
 * absolute included: such a root names no directory).
 */
int hm_mnt_parse(char *line, struct hm_mnt *out)
{
	char *save = NULL;
	char *f[5];
	char *end, *w;

	for (int i = 0; i < 5; i++) {
		f[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!f[i])
			return -EINVAL;
	}
	/* OPTS, the optional fields up to "-", then FSTYPE SOURCE SUPER */
	out->overlay = NULL;
	while ((w = strtok_r(NULL, " \n", &save)) && strcmp(w, "-"))
		;
	if (w && (w = strtok_r(NULL, " \n", &save)) &&
	    !strcmp(w, "overlay") && strtok_r(NULL, " \n", &save))
		out->overlay = strtok_r(NULL, " \n", &save);
	errno = 0;
	out->id = strtoull(f[0], &end, 10);
	if (errno || *end || end == f[0])
		return -EINVAL;
	if (sscanf(f[2], "%u:%u", &out->major, &out->minor) != 2)
		return -EINVAL;
	if (unescape(f[3]) || unescape(f[4]) || f[3][0] != '/' ||
	    f[4][0] != '/')
		return -EINVAL;
	out->root = f[3];
	out->point = f[4];
	return 0;
}

/**
 * hm_mnt_rebase() - @path, which is @from or below it, as the same place
 * below @to: "/m/x/y" from "/m" to "/srv/d" is "/srv/d/x/y".
 * @path, @from, @to: absolute paths ("/" is the root).
 * @out, @size: the result.
 * Returns: 0, -ENOENT when @path is not @from or below it, -ENAMETOOLONG.
 */
int hm_mnt_rebase(const char *path, const char *from, const char *to,
		  char *out, size_t size)
{
	size_t n = strlen(from);
	const char *rest;
	int k;

	if (n == 1 && from[0] == '/')
		n = 0;
	if (strncmp(path, from, n) || (path[n] && path[n] != '/'))
		return -ENOENT;
	rest = path + n;
	if (!strcmp(rest, "/"))	/* "/" from "/" */
		rest = "";
	if (!strcmp(to, "/"))	/* "/" + "/x" is "/x", "/" + "" is "/" */
		k = snprintf(out, size, "%s", *rest ? rest : "/");
	else
		k = snprintf(out, size, "%s%s", to, rest);
	return k < 0 || (size_t)k >= size ? -ENAMETOOLONG : 0;
}

static bool same_inode(const struct statx *a, const struct statx *b)
{
	return a->stx_ino == b->stx_ino && a->stx_dev_major == b->stx_dev_major &&
	       a->stx_dev_minor == b->stx_dev_minor;
}

/* Does @name (the kernel's own path, from /proc/self/fd), looked up by
 * us without following its last component, reach @want's inode through
 * @want's mount? */
static bool reaches(const char *name, const struct statx *want)
{
	struct statx stx;

	return !statx(AT_FDCWD, name, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC,
		      STATX_INO | STATX_MNT_ID, &stx) &&
	       same_inode(&stx, want) && (stx.stx_mask & STATX_MNT_ID) &&
	       stx.stx_mnt_id == want->stx_mnt_id;
}

/* Does @name, rebuilt from strings the opener's namespace chose, reach
 * @want's inode with no symlink on the way (a planted one could lead a
 * made-up name there)?  An O_PATH open: no fanotify event. */
static bool reaches_plain(const char *name, const struct statx *want)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct statx stx;
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, name, &how, sizeof(how));
	bool ok;

	if (fd < 0)
		return false;
	ok = !statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_INO,
		    &stx) && same_inode(&stx, want);
	close(fd);
	return ok;
}

/*
 * One read of a mountinfo file: the kernel formats about this much per
 * call, and a line costs it the depth of the mount's stack (20,000
 * mounts stacked on one directory read in seconds, one 4 KiB read in
 * 20 ms at most), so the deadline is checked every 4 KiB.
 */
#define FIND_CHUNK 4096
#define FIND_MAX_BYTES (1u << 20)	/* about 10,000 mounts */

/* The line of mount @id among the whole lines at the start of @b
 * (moved out into *@line), or how much of @b they were. */
static int find_in(struct hm_sbuf *b, uint64_t id, char **line,
		   struct hm_mnt *out, size_t *used)
{
	char *start = b->s, *nl;

	while ((nl = memchr(start, '\n', b->len - (size_t)(start - b->s)))) {
		*nl = '\0';
		/* the id is the first field: parse only the line asked for */
		if (strtoull(start, NULL, 10) == id) {
			*line = strdup(start);
			if (!*line)
				return -ENOMEM;
			return hm_mnt_parse(*line, out) ? -ENOENT : 0;
		}
		start = nl + 1;
	}
	*used = (size_t)(start - b->s);
	return -EAGAIN;
}

/**
 * hm_mnt_find() - mount @id in the mountinfo file @path, read within a
 * budget: the opener's namespace chose how long its table is.
 * @path: /proc/PID/mountinfo.
 * @id: a mount id (statx STATX_MNT_ID).
 * @deadline_ns: hm_now_ns() after which the read gives up, also after
 *	FIND_MAX_BYTES; UINT64_MAX: no budget (our own table).
 * @line: the line read; the caller frees it (also on error).
 * @out: points into *@line.
 * Returns: 0, -ENOENT, -ETIME past @deadline_ns or FIND_MAX_BYTES, or
 * -errno opening or reading @path.
 */
int hm_mnt_find(const char *path, uint64_t id, uint64_t deadline_ns,
		char **line, struct hm_mnt *out)
{
	struct hm_sbuf b = { 0 };
	size_t total = 0, used;
	ssize_t n;
	int fd, r = -ENOENT;

	*line = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if ((deadline_ns != UINT64_MAX && total > FIND_MAX_BYTES) ||
		    hm_now_ns() >= deadline_ns) {
			r = -ETIME;
			break;
		}
		if (hm_sbuf_reserve(&b, FIND_CHUNK)) {
			r = -ENOMEM;
			break;
		}
		n = read(fd, b.s + b.len, FIND_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n ? -errno : -ENOENT;
			break;
		}
		b.len += (size_t)n;
		total += (size_t)n;
		r = find_in(&b, id, line, out, &used);
		if (r != -EAGAIN)
			break;
		memmove(b.s, b.s + used, b.len - used);	/* a cut line */
		b.len -= used;
	}
	close(fd);
	hm_sbuf_free(&b);
	return r;
}

/* ------------------------------------------------- the tables, kept */

#define SEEN 64			/* foreign mounts remembered, by id */

struct seen {
	uint64_t id;		/* 0: empty */
	char *root, *point;
	char *layer;		/* set: an overlay's layer directory,
				 * the overlay at point (layer_find()) */
};

/*
 * The opener's mount table is its own choice, and reading it is done on
 * the one thread that answers everyone: one read may take READ_MAX_NS,
 * and all of them together a quarter of the loop's time, at most @share
 * in a row (a quarter of --decision-timeout), so the events queued
 * behind many slow openers are still judged before the watchdog's
 * deadline.  Over it the read is refused: no name, fail closed.  Each
 * opening user has a quarter of that, apart: one user whose table is
 * slow spends its own and is denied alone, the others read theirs.
 */
#define READ_MAX_NS (50ull * 1000 * 1000)

struct budget {
	int64_t credit;		/* ns of reading left; below 0: owed */
	int64_t share;		/* the most it holds */
	uint64_t at;		/* when it was last refilled */
	unsigned rate;		/* 1/rate of the time since comes back */
};

/* Users whose budgets are kept apart; past them, the one that read
 * longest ago is forgotten (a new user starts with a full share). */
#define OPENERS 16

struct opener {
	uid_t uid;
	bool used;
	struct budget b;
};

struct hm_mounts {
	int fd;			/* our /proc/self/mountinfo, polled */
	bool stale;		/* read it again before use */
	char *text;		/* what it said, cut into lines */
	size_t cap;
	struct hm_mnt *v;	/* our mounts, in mount table order */
	size_t n, vcap;
	struct seen seen[SEEN];
	struct budget budget;		/* everyone's */
	struct opener openers[OPENERS];
};

/**
 * hm_mounts_new() - our mount table, read when it changed (poll on
 * /proc/self/mountinfo says so), and the foreign mounts met lately.
 * @share_ms: the longest the reads of openers' mount tables may take in
 *	a row (see struct budget).
 * Returns: NULL without memory or /proc.
 */
struct hm_mounts *hm_mounts_new(unsigned share_ms)
{
	struct hm_mounts *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		free(t);
		return NULL;
	}
	t->stale = true;
	t->budget = (struct budget){ .share = (int64_t)share_ms * 1000000,
				     .credit = (int64_t)share_ms * 1000000,
				     .at = hm_now_ns(), .rate = 4 };
	return t;
}

static void forget(struct seen *e)
{
	free(e->root);
	free(e->point);
	free(e->layer);
	*e = (struct seen){ 0 };
}

/** hm_mounts_free() - @t may be NULL. */
void hm_mounts_free(struct hm_mounts *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < SEEN; i++)
		forget(&t->seen[i]);
	close(t->fd);
	free(t->text);
	free(t->v);
	free(t);
}

static int read_all(struct hm_mounts *t)
{
	size_t len = 0;
	ssize_t n;

	if (lseek(t->fd, 0, SEEK_SET) < 0)
		return -errno;
	do {
		if (t->cap - len < 4096) {
			char *p = realloc(t->text, t->cap + 65536);

			if (!p)
				return -ENOMEM;
			t->text = p;
			t->cap += 65536;
		}
		n = read(t->fd, t->text + len, t->cap - len - 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		len += n > 0 ? (size_t)n : 0;
	} while (n != 0);
	t->text[len] = '\0';
	return 0;
}

/* Our mount table, read again when the kernel says it changed. */
static int own_table(struct hm_mounts *t)
{
	struct pollfd p = { .fd = t->fd, .events = POLLPRI };
	char *save = NULL;
	int r;

	if (poll(&p, 1, 0) > 0)
		t->stale = true;
	if (!t->stale)
		return 0;
	r = read_all(t);
	t->n = 0;
	for (char *l = r ? NULL : strtok_r(t->text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (HM_ARRAY_GROW(&t->v, &t->vcap, t->n + 1))
			return -ENOMEM;
		if (!hm_mnt_parse(l, &t->v[t->n]))
			t->n++;
	}
	t->stale = r != 0;
	return r;
}

static const struct hm_mnt *own_mount(const struct hm_mounts *t, uint64_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return &t->v[i];
	return NULL;
}

/*
 * @fs (a path in the file system of device @stx) named through one of
 * our own mounts of it whose lookup reaches the same inode, into @out.
 * The first such mount in our mount table names it.
 */
static int own_name_of(const struct hm_mounts *t, const struct statx *stx,
		       const char *fs, char *out, size_t size)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct hm_mnt *m = &t->v[i];

		if (m->major == stx->stx_dev_major &&
		    m->minor == stx->stx_dev_minor &&
		    !hm_mnt_rebase(fs, m->root, m->point, out, size) &&
		    reaches_plain(out, stx))
			return 0;
	}
	return -EXDEV;
}

/*
 * @raw below the root of thread @tid (/proc/TID/root prints it from the
 * top of the thread's namespace, as /proc/self/fd printed @raw), from
 * that root: the opener's mountinfo names mount points so.
 */
static int from_root(int32_t tid, const char *raw, char *out, size_t size)
{
	char link[64], root[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/root", (int)tid);
	n = readlink(link, root, sizeof(root) - 1);
	if (n <= 0 || (size_t)n >= sizeof(root) - 1)
		return -ENOENT;
	root[n] = '\0';
	return hm_mnt_rebase(raw, root, "/", out, size);
}

/* The deadline of a read starting @now: 1/rate of the time since the
 * last refill comes back, up to the share; none left, @now itself. */
static uint64_t deadline(struct budget *b, uint64_t now)
{
	int64_t left;

	b->credit += (int64_t)((now - b->at) / b->rate);
	if (b->credit > b->share)
		b->credit = b->share;
	b->at = now;
	left = b->credit < (int64_t)READ_MAX_NS ? b->credit :
						  (int64_t)READ_MAX_NS;
	return left > 0 ? now + (uint64_t)left : now;
}

/* The budget of the user thread @tid runs as (its /proc directory's
 * owner; one that cannot be told shares the budget of uid -1). */
static struct budget *opener_budget(struct hm_mounts *t, int32_t tid,
				    uint64_t now)
{
	struct opener *o = &t->openers[0];
	char path[32];
	struct stat st;
	uid_t uid;

	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	uid = stat(path, &st) ? (uid_t)-1 : st.st_uid;
	for (size_t i = 0; i < OPENERS; i++) {
		struct opener *e = &t->openers[i];

		if (e->used && e->uid == uid)
			return &e->b;
		if (!e->used || (o->used && e->b.at < o->b.at))
			o = e;
	}
	*o = (struct opener){ .uid = uid, .used = true,
			      .b = { .share = t->budget.share / 4,
				     .credit = t->budget.share / 4, .at = now,
				     .rate = 4 * t->budget.rate } };
	return &o->b;
}

/* Foreign mount @id as the opener's mountinfo shows it now, kept in
 * *@out.  Returns 0, -ETIME over the budget, or another -errno. */
static int look_up(struct hm_mounts *t, int32_t tid, uint64_t id,
		   struct seen **out)
{
	struct seen *e = &t->seen[id % SEEN];
	uint64_t now = hm_now_ns();
	struct budget *own = opener_budget(t, tid, now);
	uint64_t all = deadline(&t->budget, now), mine = deadline(own, now);
	int64_t took;
	char path[64];
	struct hm_mnt m;
	char *line = NULL;
	int r;

	forget(e);
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)tid);
	r = hm_mnt_find(path, id, mine < all ? mine : all, &line, &m);
	took = (int64_t)(hm_now_ns() - now);
	t->budget.credit -= took;
	own->credit -= took;
	if (!r) {
		e->root = strdup(m.root);
		e->point = strdup(m.point);
		e->id = id;
		if (!e->root || !e->point) {
			forget(e);
			r = -ENOMEM;
		}
	}
	free(line);
	*out = e;
	return r;
}

/* @rel (from the opener's root) through foreign mount @e, named by us. */
static int through(const struct hm_mounts *t, const struct seen *e,
		   const struct statx *stx, const char *rel, char *out,
		   size_t size)
{
	char fs[PATH_MAX];

	if (hm_mnt_rebase(rel, e->point, e->root, fs, sizeof(fs)))
		return -EXDEV;
	return own_name_of(t, stx, fs, out, size);
}

/*
 * An overlay opens the files of its layers itself, through private
 * mounts of the layer directories that no mount table lists; a mark on
 * a layer's file system sees those opens too, the path printed from the
 * layer's top ("/lib/x" for LOWER/lib/x).  Such a file is named as the
 * overlay shows it, the overlay's mount point and the same path, once
 * our lookup of the layer directory and that path, with no symlink on
 * the way, reaches its inode.
 */

/* @raw below layer directory @layer reaches @stx's inode: its name
 * below the overlay at @point in @out. */
static int layer_name(const char *layer, const char *point,
		      const struct statx *stx, const char *raw, char *out,
		      size_t size)
{
	char in_layer[PATH_MAX];

	if (hm_mnt_rebase(raw, "/", layer, in_layer, sizeof(in_layer)) ||
	    !reaches_plain(in_layer, stx))
		return -EXDEV;
	return hm_mnt_rebase(raw, "/", point, out, size) ? -EXDEV : 0;
}

/* The directories of option @opt of an overlay's super options that
 * name layers ("lowerdir=A:B", "upperdir=U", "lowerdir+=A", "datadir+=
 * D"; not workdir), cut in place; a path with an escape (a ',', ':' or
 * '\' in a name) is skipped, not guessed.  Returns how many. */
static size_t opt_dirs(char *opt, bool upper_only, char **dirs, size_t max)
{
	static const char *const keys[] = { "upperdir=", "lowerdir=",
					    "lowerdir+=", "datadir+=" };
	char *v = NULL, *save = NULL;
	size_t n = 0;

	for (size_t i = 0; i < (upper_only ? 1 : HM_ARRAY_SIZE(keys)) && !v;
	     i++)
		if (!strncmp(opt, keys[i], strlen(keys[i])))
			v = opt + strlen(keys[i]);
	if (!v || strchr(v, '\\'))
		return 0;
	for (char *d = strtok_r(v, ":", &save); d && n < max;
	     d = strtok_r(NULL, ":", &save))
		if (d[0] == '/')
			dirs[n++] = d;
	return n;
}

/*
 * Is @stx, a file with no link on a private mount, an overlay's copy-up
 * in the making?  The overlay copies a lower file up into a temporary
 * file (O_TMPFILE) of its upper layer, opened through that private mount,
 * before it links it in: a regular file with no name on the file system
 * of one of our overlays' upper layers.  (A process could open such a
 * file itself only through a mount of its own, which a table lists.)
 */
static bool copy_up_temp(const struct hm_mounts *t, const struct statx *stx)
{
	bool yes = false;

	if (stx->stx_nlink || !S_ISREG(stx->stx_mode))
		return false;
	for (size_t i = 0; i < t->n && !yes; i++) {
		char *opts = t->v[i].overlay ? strdup(t->v[i].overlay) : NULL;
		char *upper;
		struct statx u;

		yes = opts && hm_mnt_layers(opts, true, &upper, 1) &&
		      !statx(AT_FDCWD, upper, AT_STATX_DONT_SYNC, STATX_INO,
			     &u) &&
		      u.stx_dev_major == stx->stx_dev_major &&
		      u.stx_dev_minor == stx->stx_dev_minor;
		free(opts);
	}
	return yes;
}

/**
 * hm_mnt_layers() - the layer directories of an overlay.
 * @opts: its super options (struct hm_mnt's overlay, copied), as
 *	mountinfo escapes them; cut and unescaped in place.
 * @upper_only: only the upper layer's.
 * @dirs, @max: the directories found (pointing into @opts), lower and
 *	upper.
 * Returns: how many; a directory with an escaped ',', ':' or '\' in its
 * name is left out.
 */
size_t hm_mnt_layers(char *opts, bool upper_only, char **dirs, size_t max)
{
	char *save = NULL;
	size_t n = 0;

	if (unescape(opts))
		return 0;
	for (char *opt = strtok_r(opts, ",", &save); opt && n < max;
	     opt = strtok_r(NULL, ",", &save))
		n += opt_dirs(opt, upper_only, dirs + n, max - n);
	return n;
}

/* Is @raw of private mount @stx a file of a layer of one of our
 * overlays?  The layer kept in @e, named into @out. */
static int layer_find(struct hm_mounts *t, const struct statx *stx,
		      const char *raw, struct seen *e, char *out,
		      size_t size)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct hm_mnt *m = &t->v[i];
		char *dirs[64];
		char *opts;
		size_t n;
		int r = -EXDEV;

		if (!m->overlay || !(opts = strdup(m->overlay)))
			continue;
		n = hm_mnt_layers(opts, false, dirs, HM_ARRAY_SIZE(dirs));
		for (size_t k = 0; k < n && r; k++) {
			r = layer_name(dirs[k], m->point, stx, raw, out, size);
			if (!r) {
				e->layer = strdup(dirs[k]);
				e->point = strdup(m->point);
				e->id = stx->stx_mnt_id;
			}
		}
		free(opts);
		if (!r && (!e->layer || !e->point))
			forget(e);
		if (!r)
			return e->id ? 0 : -ENOMEM;
	}
	return -EXDEV;
}

/*
 * Rebuild the name of @raw (the path /proc/self/fd printed, through the
 * foreign mount @stx->stx_mnt_id of thread @tid) from that mount's root.
 * Whatever does not add up (a root or mount point that moved meanwhile,
 * a mount id reused) gives a name that reaches another inode, and is
 * refused.  A mount met before is tried as it was (a mount's root never
 * changes; its mount point may, then the opener's mountinfo is read
 * again); a file with several links only ever as it is now.
 */
static int foreign_name(struct hm_mounts *t, int32_t tid,
			const struct statx *stx, const char *raw, char *out,
			size_t size)
{
	uint64_t id = stx->stx_mnt_id;
	struct seen *e = &t->seen[id % SEEN];
	char rel[PATH_MAX];
	bool rooted = !from_root(tid, raw, rel, sizeof(rel));
	int r;

	if (e->id == id && e->layer)
		return layer_name(e->layer, e->point, stx, raw, out, size) ?
			       -EXDEV : 1;
	if (rooted && e->id == id && stx->stx_nlink == 1 &&
	    !through(t, e, stx, rel, out, size))
		return 0;
	r = look_up(t, tid, id, &e);
	if (r == -ENOENT && copy_up_temp(t, stx))
		return 2;
	if (r == -ENOENT)	/* in no table: an overlay's private mount? */
		return layer_find(t, stx, raw, e, out, size) ? -EXDEV : 1;
	if (r == -ETIME)
		return r;
	return r || !rooted ? -EXDEV : through(t, e, stx, rel, out, size);
}

/**
 * hm_mnt_ours() - is the name of an event's file the daemon's own?
 * @t: our mount table (hm_mounts_new()).
 * @stx: the event fd's statx (STATX_INO, STATX_NLINK, STATX_MNT_ID).
 * @raw: the path /proc/self/fd printed.
 * Returns: 0 when @raw names it (our lookup reaches it, or it is on one
 * of our mounts), 1 when it was reached through a foreign mount (name it
 * with hm_mnt_foreign_name()), -EXDEV when that cannot be told.
 */
int hm_mnt_ours(struct hm_mounts *t, const struct statx *stx,
		const char *raw)
{
	if (!(stx->stx_mask & STATX_MNT_ID))
		return -EXDEV;	/* a kernel before 5.8: cannot tell */
	if (reaches(raw, stx))
		return 0;
	if (own_table(t))
		return -EXDEV;
	/* renamed or unlinked since, or covered by another mount: our own
	 * mount, so the name is still ours (the TOCTOU docs/SECURITY.md
	 * tells of) */
	return own_mount(t, stx->stx_mnt_id) ? 0 : 1;
}

/**
 * hm_mnt_foreign_name() - the name, as our mount table names it, of a
 * file hm_mnt_ours() found reached through a foreign mount.
 * @t, @stx: as for hm_mnt_ours().
 * @tid: the opening thread (its mountinfo may be read, within a budget).
 * @raw, @size: the path /proc/self/fd printed; replaced by the name.
 * Returns: 0; 1 when it is a file of an overlay's layer, opened by the
 * overlay (named as the overlay shows it); 2 when it is an overlay's
 * copy-up in the making (no name, @raw unchanged); -EXDEV when it cannot be
 * named with certainty, -ETIME when the opener's mount table was over
 * the budget (both: judge it as no name, fail closed).
 */
int hm_mnt_foreign_name(struct hm_mounts *t, int32_t tid,
			const struct statx *stx, char *raw, size_t size)
{
	char name[PATH_MAX];
	int r = foreign_name(t, tid, stx, raw, name, sizeof(name));

	if (r < 0 || r == 2)
		return r;
	if (strlen(name) >= size)
		return -EXDEV;
	strcpy(raw, name);
	return r;
}

/**
 * hm_mnt_own_name() - hm_mnt_ours(), then hm_mnt_foreign_name() when the
 * file was reached through a foreign mount (sets *@foreign).
 * Returns: 0, -EXDEV or -ETIME as they do.
 */
int hm_mnt_own_name(struct hm_mounts *t, int32_t tid,
		    const struct statx *stx, char *raw, size_t size,
		    bool *foreign)
{
	int r = hm_mnt_ours(t, stx, raw);

	*foreign = r == 1;
	if (r == 1)
		r = hm_mnt_foreign_name(t, tid, stx, raw, size);
	return r == 1 ? 0 : r == 2 ? -EXDEV : r;
}
