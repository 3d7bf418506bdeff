// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply.c - a precomputed domain ruleset (table.h) into the kernel:
 * create the ruleset, add its rules, restrict self.  Linked into both
 * histmac and libhistmac-sandbox.so, so it needs nothing but libc: no
 * model, no allocation.  Owns no state.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "landlock_abi.h"
#include "table.h"

static size_t attr_size(uint32_t abi)
{
	if (abi >= 6)
		return sizeof(struct hm_ll_ruleset_attr);
	if (abi >= 4)
		return 2 * sizeof(uint64_t);
	return sizeof(uint64_t);
}

/* Is [@off, @off + @len) inside [0, @limit)? */
static bool in(uint64_t off, uint64_t len, uint64_t limit)
{
	return off <= limit && len <= limit - off;
}

bool hm_sbx_table_check_header(const void *t, size_t size)
{
	const struct hm_sbx_thdr *h = t;

	if (size < sizeof(*h) || h->magic != HM_SBX_MAGIC ||
	    (h->dom_off | h->edge_off | h->rule_off) % 8 ||
	    h->version != HM_SBX_VERSION || h->size != size ||
	    !in(h->dom_off, (uint64_t)h->n_domains * sizeof(struct hm_sbx_tdom),
		size) ||
	    !in(h->edge_off, (uint64_t)h->n_edges * sizeof(struct hm_sbx_tedge),
		size) ||
	    !in(h->rule_off, (uint64_t)h->n_rules * sizeof(struct hm_sbx_trule),
		size) ||
	    !in(h->str_off, h->str_len, size) || !h->str_len)
		return false;
	/* every string ends inside the blob */
	return !hm_sbx_tstr(h, 0)[h->str_len - 1];
}

bool hm_sbx_table_check_domain(const struct hm_sbx_thdr *h, uint32_t dom)
{
	const struct hm_sbx_tdom *d;

	if (dom >= h->n_domains)
		return false;
	d = hm_sbx_tdom(h, dom);
	if (d->name >= h->str_len || d->ruleset >= h->n_domains ||
	    !in(d->rule_first, d->n_rules, h->n_rules) ||
	    !in(d->edge_first, d->n_edges, h->n_edges))
		return false;
	for (uint32_t i = 0; i < d->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + i);

		if (e->program >= h->str_len || e->child >= h->n_domains ||
		    e->n_files > HM_SBX_CHAIN)
			return false;
		for (uint32_t f = 0; f < e->n_files; f++)
			if (e->files[f].path >= h->str_len)
				return false;
	}
	return true;
}

bool hm_sbx_table_check(const void *t, size_t size)
{
	const struct hm_sbx_thdr *h = t;

	if (!hm_sbx_table_check_header(t, size))
		return false;
	for (uint32_t i = 0; i < h->n_domains; i++)
		if (!hm_sbx_table_check_domain(h, i))
			return false;
	for (uint32_t i = 0; i < h->n_rules; i++)
		if (hm_sbx_trule(h, i)->path >= h->str_len)
			return false;
	return true;
}

/*
 * Opening rule objects costs most of applying: one O_PATH open, one
 * landlock_add_rule() and one close per object.  So a directory shared
 * by consecutive rules (the table is sorted by path) is opened once and
 * its entries relative to it; the type is asked of the kernel only when
 * directory rights are at stake (O_DIRECTORY); and fds are closed a run
 * of consecutive numbers at a time.
 */
#define CLOSE_BATCH 32

struct opener {
	int dfd;		/* the directory of the last object, or -1 */
	const char *dir;	/* its path (in the table), @dlen bytes */
	size_t dlen;
	int lo, hi;		/* open fds lo..hi, all ours; lo > hi: none */
};

static void close_run(struct opener *o)
{
	if (o->lo <= o->hi && close_range((unsigned)o->lo, (unsigned)o->hi, 0))
		for (int fd = o->lo; fd <= o->hi; fd++)
			close(fd);
	o->lo = 0;
	o->hi = -1;
}

/* @fd is done with: close it now or with its run. */
static void put_fd(struct opener *o, int fd)
{
	if (o->lo > o->hi || fd != o->hi + 1 || o->hi - o->lo >= CLOSE_BATCH)
		close_run(o);
	if (o->lo > o->hi)
		o->lo = fd;
	o->hi = fd;
}

static void opener_fini(struct opener *o)
{
	close_run(o);
	if (o->dfd >= 0)
		close(o->dfd);
	o->dfd = -1;
}

/* The length of @path's directory part ("/a/b" of "/a/b/c"), or 0 when
 * it is "/" or @path has no name after it. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash > path && slash[1] ? (size_t)(slash - path) : 0;
}

/*
 * An O_PATH fd of @name at @dfd, following no symlink anywhere on the
 * way: the table's names are real paths (learned names are resolved;
 * programs and interpreters are resolved through root's symlinks when
 * the table is built), so a symlink is one planted since (a domain that
 * may replace data/cfg making it a link to "/"), and following it would
 * grant on whatever it names.  Such an object fails with ELOOP.
 */
static int open_nofollow(int dfd, const char *name, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_PATH | O_CLOEXEC),
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dfd, name, &how, sizeof(how));
}

/* An O_PATH fd of @name at @dfd; with directory rights in *@access a
 * non-directory loses them (counted).  Negative errno on failure. */
static int open_typed(int dfd, const char *name, uint64_t *access,
		      struct hm_sbx_apply_stats *st)
{
	int fd;

	if (!(*access & ~(uint64_t)HM_LL_FS_FILE_RIGHTS))
		fd = open_nofollow(dfd, name, 0);
	else if ((fd = open_nofollow(dfd, name, O_DIRECTORY)) < 0 &&
		 errno == ENOTDIR &&
		 (fd = open_nofollow(dfd, name, 0)) >= 0) {
		/* replaced by a file since the policy was learned */
		*access &= HM_LL_FS_FILE_RIGHTS;
		st->not_dir++;
	}
	return fd < 0 ? -errno : fd;
}

/* Make @path's directory the cached one if @next shares it. */
static void cache_dir(struct opener *o, const char *path, size_t dlen,
		      const char *next)
{
	char buf[PATH_MAX];

	if (o->dfd >= 0 && dlen == o->dlen && !memcmp(path, o->dir, dlen))
		return;
	if (!next || dir_len(next) != dlen || memcmp(path, next, dlen + 1) ||
	    dlen >= sizeof(buf))
		return;
	if (o->dfd >= 0)
		close(o->dfd);
	memcpy(buf, path, dlen);
	buf[dlen] = '\0';
	o->dfd = open_nofollow(AT_FDCWD, buf, O_DIRECTORY);
	o->dir = path;
	o->dlen = dlen;
}

/*
 * Is symlink @link (under @root) one only root made: owned by root, in a
 * directory owned by root that nobody else may write?  Such links (/bin,
 * /lib64, /lib64/ld-linux-x86-64.so.2 on a merged /usr) are followed
 * when a program's name is resolved; any other may have been planted by
 * a confined process and is not.
 */
static bool trusted_link(const char *root, const char *link,
			 const struct stat *lst)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(link, '/');
	struct stat ds;

	if (lst->st_uid != 0 || !slash ||
	    snprintf(dir, sizeof(dir), "%s%.*s", root, (int)(slash - link),
		     link) >= (int)sizeof(dir))
		return false;
	if (!dir[0])
		strcpy(dir, "/");
	return !lstat(dir, &ds) && ds.st_uid == 0 && !(ds.st_mode & 022);
}

/*
 * hm_sbx_real_path() (table.h): @path resolved through links only root
 * could have made (trusted_link()).
 */
int hm_sbx_real_path(const char *root, const char *path, char *out,
		     size_t cap)
{
	char done[PATH_MAX] = "", todo[PATH_MAX], full[PATH_MAX];
	char target[PATH_MAX];
	const char *p = todo;
	int links = 0;

	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return -ENAMETOOLONG;
	while (*p) {
		size_t n, dl = strlen(done);
		struct stat lst;
		ssize_t tl;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(done, '/');

			if (s)
				*s = '\0';
			p += n;
			continue;
		}
		if (dl + n + 2 > sizeof(done))
			return -ELOOP;
		snprintf(done + dl, sizeof(done) - dl, "/%.*s", (int)n, p);
		p += n;
		if (snprintf(full, sizeof(full), "%s%s", root, done) >=
		    (int)sizeof(full) || lstat(full, &lst)) {
			if (strlen(done) + strlen(p) + 1 > sizeof(done))
				return -ELOOP;
			strcat(done, p);	/* missing: apply.c decides */
			break;
		}
		if (!S_ISLNK(lst.st_mode))
			continue;
		if (++links > 40 || !trusted_link(root, done, &lst))
			return -ELOOP;
		tl = readlink(full, target, sizeof(target) - 1);
		if (tl <= 0)
			return -ELOOP;
		target[tl] = '\0';
		done[dl] = '\0';	/* the link's directory */
		if (target[0] == '/')
			done[0] = '\0';
		if ((size_t)tl + strlen(p) + 1 > sizeof(full))
			return -ELOOP;
		memcpy(full, target, (size_t)tl);
		strcpy(full + tl, p);	/* p is in todo: build, then copy */
		strcpy(todo, full);
		p = todo;
	}
	if (snprintf(out, cap, "%s", done[0] ? done : "/") >= (int)cap)
		return -ENAMETOOLONG;
	return 0;
}

/* Is @err "this object does not exist": the rule then goes to the
 * nearest existing parent.  Anything else must not widen it. */
static bool absent(int err)
{
	return err == -ENOENT || err == -ENOTDIR;
}

/* Is @err "this process cannot reach the object" (a directory it may not
 * search, a name too long): the rule is skipped, since the process cannot
 * open it by that name either, and a parent (say "/" for /root/x) would
 * allow far more.  ELOOP (a symlink on the way, open_nofollow()) is
 * skipped too, counted apart.  Anything else (no fds, no memory) fails
 * the apply. */
static bool unreachable(int err)
{
	return err == -EACCES || err == -ENAMETOOLONG;
}

/* The nearest existing parent of missing @path (at worst "/"). */
static int open_parent(const char *path, uint64_t *access,
		       struct hm_sbx_apply_stats *st)
{
	char buf[PATH_MAX];
	size_t n = strnlen(path, sizeof(buf) - 1);
	int fd;

	memcpy(buf, path, n);
	buf[n] = '\0';
	do {
		char *slash = strrchr(buf, '/');

		if (!slash || slash == buf) {
			strcpy(buf, "/");
		} else {
			*slash = '\0';
		}
		fd = open_typed(AT_FDCWD, buf, access, st);
	} while (fd < 0 && absent(fd) && strcmp(buf, "/"));
	return fd;
}

/* The O_PATH fd of @path's object, or of its nearest existing parent
 * (counted in st->missing).  @next: the next rule's path, or NULL. */
static int open_object(struct opener *o, const char *path, const char *next,
		       uint64_t *access, struct hm_sbx_apply_stats *st)
{
	char real[PATH_MAX];
	size_t dlen = dir_len(path);
	int fd;

	if (dlen)
		cache_dir(o, path, dlen, next);
	if (dlen && o->dfd >= 0 && dlen == o->dlen &&
	    !memcmp(path, o->dir, dlen))
		fd = open_typed(o->dfd, path + dlen + 1, access, st);
	else
		fd = open_typed(AT_FDCWD, path, access, st);
	if (fd == -EMFILE) {	/* our batch of fds to close counts too */
		close_run(o);
		fd = open_typed(AT_FDCWD, path, access, st);
	}
	/* a name through root's links (/lib -> usr/lib in a hand-written
	 * policy): its real path; any other link stays refused */
	if (fd == -ELOOP && !hm_sbx_real_path("", path, real, sizeof(real)) &&
	    strcmp(real, path)) {
		path = real;
		fd = open_typed(AT_FDCWD, path, access, st);
	}
	if (fd >= 0 || !absent(fd))
		return fd;
	st->missing++;
	return open_parent(path, access, st);
}

/* Is @fd a directory (fstat() failing counts as one: refused)? */
static bool is_dir_fd(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) || S_ISDIR(sb.st_mode);
}

static bool is_path_rule(const struct hm_sbx_trule *ru)
{
	return ru->type == HM_SBX_RULE_PATH || ru->type == HM_SBX_RULE_FILE;
}

/* May domain @d create a regular file at @path: does a rule of it grant
 * fs.make_reg on a directory above @path?  Asked only for the learned
 * files to write that are missing at apply, so the scan is rare. */
static bool creatable(const struct hm_sbx_thdr *h,
		      const struct hm_sbx_tdom *d, const char *path)
{
	for (uint32_t i = 0; i < d->n_rules; i++) {
		const struct hm_sbx_trule *ru = hm_sbx_trule(h, d->rule_first + i);
		const char *dir;
		size_t n;

		if (!is_path_rule(ru) || ru->path >= h->str_len ||
		    !(ru->access & d->handled_fs & HM_LL_FS_MAKE_REG))
			continue;
		dir = hm_sbx_tstr(h, ru->path);
		n = strlen(dir);
		if (!strncmp(path, dir, n) &&
		    (path[n] == '/' || (n == 1 && dir[0] == '/')))
			return true;
	}
	return false;
}

/* A learned file to write (append, write) that does not exist now: its
 * rule went to the parent, but without fs.make_reg there the program
 * cannot make it, as under TOMOYO without `file create`.  Counted, and
 * the first named, for `histmac sandbox` to say so. */
static void note_uncreatable(const struct hm_sbx_thdr *h,
			     const struct hm_sbx_tdom *d,
			     const struct hm_sbx_trule *ru,
			     struct hm_sbx_apply_stats *st)
{
	if (!(ru->access & d->handled_fs & HM_LL_FS_WRITE_FILE) ||
	    creatable(h, d, hm_sbx_tstr(h, ru->path)))
		return;
	if (!st->uncreatable++)
		st->uncreatable_first = ru->path;
}

/* @file: @path was learned as a file (HM_SBX_RULE_FILE). */
static int add_path(int rfd, struct opener *o, const char *path,
		    const char *next, uint64_t access, bool file,
		    struct hm_sbx_apply_stats *st)
{
	struct hm_ll_path_beneath_attr pb;
	uint32_t missing = st->missing;
	int fd = open_object(o, path, next, &access, st);
	int r = 0;

	if (fd == -ELOOP) {
		st->symlinks++;
		return 0;
	}
	if (fd < 0 && unreachable(fd)) {
		st->unreachable++;
		return 0;
	}
	if (fd < 0)
		return fd;
	/* a learned file replaced by a directory: its rights would hold
	 * for everything beneath (a missing file's parent is the widening
	 * docs/SANDBOX.md calls "missing", counted above) */
	if (file && st->missing == missing && is_dir_fd(fd)) {
		st->not_file++;
		access = 0;
	}
	pb.allowed_access = access;
	pb.parent_fd = fd;
	if (pb.allowed_access &&
	    syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_PATH_BENEATH, &pb, 0))
		r = -errno;
	else if (pb.allowed_access)
		st->rules++;
	put_fd(o, pb.parent_fd);
	return r;
}

static int add_port(int rfd, uint64_t port, uint64_t access,
		    struct hm_sbx_apply_stats *st)
{
	struct hm_ll_net_port_attr np = { .allowed_access = access,
					  .port = port };

	if (syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_NET_PORT, &np, 0))
		return -errno;
	st->rules++;
	return 0;
}

static int add_rules(int rfd, const struct hm_sbx_thdr *h,
		     const struct hm_sbx_tdom *d,
		     struct hm_sbx_apply_stats *st)
{
	struct opener o = { .dfd = -1, .lo = 0, .hi = -1 };
	int r = 0;

	for (uint32_t i = 0; i < d->n_rules && !r; i++) {
		const struct hm_sbx_trule *ru = hm_sbx_trule(h, d->rule_first + i);
		const struct hm_sbx_trule *nx = i + 1 < d->n_rules ? ru + 1 : NULL;

		if (ru->path >= h->str_len)	/* checked here, where read */
			r = -EINVAL;
		else if (is_path_rule(ru)) {
			uint32_t missing = st->missing;

			r = add_path(rfd, &o, hm_sbx_tstr(h, ru->path),
				     nx && is_path_rule(nx) &&
				     nx->path < h->str_len ?
				     hm_sbx_tstr(h, nx->path) : NULL,
				     ru->access & d->handled_fs,
				     ru->type == HM_SBX_RULE_FILE, st);
			if (!r && ru->type == HM_SBX_RULE_FILE &&
			    st->missing != missing)
				note_uncreatable(h, d, ru, st);
		} else
			r = add_port(rfd, ru->port, ru->access & d->handled_net,
				     st);
	}
	opener_fini(&o);
	return r;
}

int hm_sbx_apply(const struct hm_sbx_thdr *h, uint32_t dom,
		 struct hm_sbx_apply_stats *st)
{
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, dom);
	struct hm_ll_ruleset_attr attr = {
		.handled_access_fs = d->handled_fs,
		.handled_access_net = d->handled_net,
		.scoped = d->scoped,
	};
	struct hm_sbx_apply_stats dummy;
	struct timespec t0, t1;
	int rfd;
	int r;

	if (!st)
		st = &dummy;
	*st = (struct hm_sbx_apply_stats){ 0 };
	rfd = (int)syscall(HM_LL_SYS_CREATE_RULESET, &attr,
			   attr_size(h->abi), 0);
	if (rfd < 0)
		return -errno;
	r = add_rules(rfd, h, d, st);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!r && syscall(HM_LL_SYS_RESTRICT_SELF, rfd,
			  h->abi >= 7 ? h->restrict_flags : 0))
		r = -errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st->restrict_us = (uint32_t)((t1.tv_sec - t0.tv_sec) * 1000000L +
				     (t1.tv_nsec - t0.tv_nsec) / 1000);
	close(rfd);
	return r;
}

void hm_sbx_normalize(char *p)
{
	const char *r = p;
	char *w = p;

	while (*r) {
		const char *e;
		size_t n;

		if (*r == '/') {
			r++;
			continue;
		}
		e = strchrnul(r, '/');
		n = (size_t)(e - r);
		if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > p && *--w != '/')
				;
		} else if (n != 1 || r[0] != '.') {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r = e;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}
