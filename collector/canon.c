// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * canon.c - object path names as TOMOYO writes them
 * (docs/ARCHITECTURE.md "Path names").
 *
 * A PATH record holds the name the process passed.  Here it is joined with
 * CWD when relative, "." ".." and "//" are removed, and, when asked,
 * symlinks are resolved through the filesystem (of this host, or under a
 * --resolve-root image), the result being checked against the record's
 * inode and device.  Directory parts are resolved through a fixed-size
 * cache (direct mapped, counted); the last component is looked at per
 * event, only when the operation follows it.  /proc/... becomes proc:/...,
 * with the event's own pid as proc:/self.
 *
 * Owns: the cache and a scratch buffer.  Results go to the caller's arena.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "histmac/naming.h"
#include "internal.h"

#define CACHE_SLOTS	4096
#define CACHE_MAX_KEY	1024
#define MAX_LINKS	40
#define TRAIL_LINKS	256

struct cache_slot {
	char *key;		/* lexical directory, NULL if empty */
	size_t key_len;
	char *val;		/* resolved directory */
	size_t val_len;
	uint32_t hash;
};

/* A symlink the trail created and has not removed (yet). */
struct trail_link {
	char *path;		/* canonical, as the link's own name */
	size_t len;
	char *target;		/* as written */
	size_t target_len;
};

/* Does a file system (by device) keep POSIX ACLs?  A few are met. */
#define ACL_SLOTS 8
struct acl_slot {
	bool used;
	bool acl_less;
	uint32_t major, minor;
};

struct hm_canon {
	bool resolve;
	struct trail_link links[TRAIL_LINKS];
	size_t n_links;
	size_t next_link;	/* the oldest, replaced when full */
	char *root;		/* resolve root without trailing '/', or "" */
	size_t root_len;
	struct cache_slot *cache;
	struct hm_collector_stats *st;
	const struct hm_fs_table *fs;	/* which file systems are named by type */
	struct acl_slot acl[ACL_SLOTS];	/* file systems without POSIX ACLs */
	size_t next_acl;
	struct hm_sbuf lex;	/* lexical result */
	struct hm_sbuf res;	/* resolution work */
	struct hm_sbuf tmp;
};

struct hm_canon *hm_canon_new(const char *resolve_root, bool resolve,
			      struct hm_collector_stats *st)
{
	struct hm_canon *c = calloc(1, sizeof(*c));
	size_t n;

	if (!c)
		return NULL;
	c->st = st;
	c->resolve = resolve || resolve_root;
	n = resolve_root ? strlen(resolve_root) : 0;
	while (n > 0 && resolve_root[n - 1] == '/')
		n--;
	c->root = strndup(resolve_root ? resolve_root : "", n);
	c->root_len = n;
	/* this host's mounts only for this host's files */
	c->fs = c->resolve && !n ? hm_fs_table_host() : hm_fs_table_known();
	if (c->resolve)
		c->cache = calloc(CACHE_SLOTS, sizeof(*c->cache));
	if (!c->root || (c->resolve && !c->cache)) {
		hm_canon_free(c);
		return NULL;
	}
	return c;
}

void hm_canon_free(struct hm_canon *c)
{
	if (!c)
		return;
	if (c->cache) {
		for (size_t i = 0; i < CACHE_SLOTS; i++) {
			free(c->cache[i].key);
			free(c->cache[i].val);
		}
		free(c->cache);
	}
	for (size_t i = 0; i < c->n_links; i++) {
		free(c->links[i].path);
		free(c->links[i].target);
	}
	hm_sbuf_free(&c->lex);
	hm_sbuf_free(&c->res);
	hm_sbuf_free(&c->tmp);
	free(c->root);
	free(c);
}

bool hm_canon_resolving(const struct hm_canon *c)
{
	return c->resolve;
}

/*
 * Does the file system of a mountinfo line keep no POSIX ACLs?  What the
 * kernel's IS_POSIXACL() says is not shown as such: 9p keeps them only
 * mounted "posixacl", FAT-like and ramfs never, others unless "noacl".
 */
static bool line_acl_less(const char *type, const char *opts)
{
	static const char *const never[] = {
		"vfat", "msdos", "exfat", "ramfs", "iso9660", "udf",
	};

	if (!strcmp(type, "9p"))
		return !strstr(opts, "posixacl");
	for (size_t i = 0; i < HM_ARRAY_SIZE(never); i++)
		if (!strcmp(type, never[i]))
			return true;
	return strstr(opts, "noacl") != NULL;
}

/* The file system mounted from device @major:@minor, by this host's
 * mountinfo ("ID PARENT MAJ:MIN ROOT DIR OPTS [OPTIONAL...] - TYPE SRC
 * SUPEROPTS"): without POSIX ACLs?  Unknown: false (the mode asked). */
static bool dev_acl_less(uint32_t major, uint32_t minor)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, type[64], opts[1024];
	size_t cap = 0;
	bool r = false;

	while (f && getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		const char *tail = strstr(line, " - ");

		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2 ||
		    maj != major || min != minor || !tail ||
		    sscanf(tail, " - %63s %*s %1023s", type, opts) != 2)
			continue;
		r = line_acl_less(type, opts);
		break;
	}
	free(line);
	if (f)
		fclose(f);
	return r;
}

bool hm_canon_acl_less(struct hm_canon *c, const struct hm_ev_path *p)
{
	struct acl_slot *s;

	if (!c->resolve || c->root_len || !p->has_inode)
		return false;	/* another host's files: not known here */
	for (size_t i = 0; i < ACL_SLOTS; i++)
		if (c->acl[i].used && c->acl[i].major == p->dev_major &&
		    c->acl[i].minor == p->dev_minor)
			return c->acl[i].acl_less;
	s = &c->acl[c->next_acl++ % ACL_SLOTS];
	*s = (struct acl_slot){ .used = true, .major = p->dev_major,
				.minor = p->dev_minor,
				.acl_less = dev_acl_less(p->dev_major,
							 p->dev_minor) };
	return s->acl_less;
}

/*
 * Append the components of @s to @b (an absolute path, "" meaning "/"),
 * handling "", "." and "..".
 */
static int push_components(struct hm_sbuf *b, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && s[j] != '/')
			j++;
		if (j == i || (j - i == 1 && s[i] == '.')) {
			/* empty or "." */
		} else if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') {
			while (b->len > 0 && b->s[b->len - 1] != '/')
				b->len--;
			if (b->len > 0)
				b->len--;	/* the '/' */
			b->s[b->len] = '\0';
		} else {
			if (hm_sbuf_add(b, "/", 1) < 0 ||
			    hm_sbuf_add(b, s + i, j - i) < 0)
				return -ENOMEM;
		}
		i = j + 1;
	}
	return 0;
}

/* The lexical absolute form into c->lex ("" stands for "/"). */
static int lexical(struct hm_canon *c, const struct hm_canon_req *r)
{
	hm_sbuf_reset(&c->lex);
	if (hm_sbuf_reserve(&c->lex, r->len + r->cwd_len + 2) < 0)
		return -ENOMEM;
	c->lex.s[0] = '\0';
	if (r->len == 0 || r->name[0] != '/') {
		if (push_components(&c->lex, r->cwd, r->cwd_len) < 0)
			return -ENOMEM;
	}
	return push_components(&c->lex, r->name, r->len);
}

/* lstat() of @path (absolute, "" = "/") under the resolve root. */
static int root_lstat(struct hm_canon *c, const char *path, size_t len,
		      struct stat *st, bool follow)
{
	hm_sbuf_reset(&c->tmp);
	if (hm_sbuf_add(&c->tmp, c->root, c->root_len) < 0 ||
	    hm_sbuf_add(&c->tmp, len ? path : "/", len ? len : 1) < 0)
		return -ENOMEM;
	if ((follow ? stat : lstat)(c->tmp.s, st) < 0)
		return -errno;
	return 0;
}

/* readlink() under the resolve root, into c->tmp. */
static int root_readlink(struct hm_canon *c, const char *path, size_t len)
{
	char link[PATH_MAX];
	ssize_t n;

	hm_sbuf_reset(&c->tmp);
	if (hm_sbuf_add(&c->tmp, c->root, c->root_len) < 0 ||
	    hm_sbuf_add(&c->tmp, path, len) < 0)
		return -ENOMEM;
	n = readlink(c->tmp.s, link, sizeof(link));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(link))
		return -ENAMETOOLONG;
	hm_sbuf_reset(&c->tmp);
	return hm_sbuf_add(&c->tmp, link, (size_t)n);
}

static struct trail_link *trail_link(struct hm_canon *c, const char *p,
				     size_t len)
{
	for (size_t i = 0; i < c->n_links; i++)
		if (c->links[i].len == len && !memcmp(c->links[i].path, p, len))
			return &c->links[i];
	return NULL;
}

void hm_canon_link_created(struct hm_canon *c, const char *path, size_t len,
			   const char *target, size_t target_len)
{
	struct trail_link *l = trail_link(c, path, len);
	char *p, *t;

	if (!c->resolve || !len || path[0] != '/' || !target_len)
		return;
	p = strndup(path, len);
	t = strndup(target, target_len);
	if (!p || !t) {
		free(p);
		free(t);
		return;
	}
	if (!l) {
		if (c->n_links < TRAIL_LINKS)
			c->n_links++;
		l = &c->links[c->next_link];
		c->next_link = (c->next_link + 1) % TRAIL_LINKS;
		free(l->path);
		free(l->target);
	} else {
		free(l->path);
		free(l->target);
	}
	*l = (struct trail_link){ p, len, t, target_len };
}

void hm_canon_link_removed(struct hm_canon *c, const char *path, size_t len)
{
	struct trail_link *l = c->n_links ? trail_link(c, path, len) : NULL;

	if (!l)
		return;
	free(l->path);
	free(l->target);
	/* an empty name no lookup matches: the slot waits for reuse */
	*l = (struct trail_link){ NULL, 0, NULL, 0 };
}

/*
 * The target of the symlink at @p: read from the file system, else (it
 * is gone: removed since, later in the trail or after it) a symlink the
 * trail created there.  Into c->tmp.  Returns 1 (a link), 0 (not one),
 * -ENOENT (nothing there, nor in the trail), -errno.
 */
static int link_at(struct hm_canon *c, const char *p, size_t len)
{
	struct stat st;
	struct trail_link *l;
	int rc = root_lstat(c, p, len, &st, false);

	if (rc == 0) {
		if (!S_ISLNK(st.st_mode))
			return 0;
		rc = root_readlink(c, p, len);
		return rc < 0 ? rc : 1;
	}
	l = c->n_links ? trail_link(c, p, len) : NULL;
	if (!l)
		return rc;
	hm_sbuf_reset(&c->tmp);
	return hm_sbuf_add(&c->tmp, l->target, l->target_len) < 0 ? -ENOMEM : 1;
}

/*
 * Resolve the lexical absolute path @in (no trailing '/', "" = "/") into
 * @out, following symlinks in every component, the last one only when
 * @follow_last.  Components that do not exist are kept as they are.
 * Returns 0, or -ELOOP / -ENOMEM (then @out is meaningless).
 */
static int resolve(struct hm_canon *c, const char *in, size_t in_len,
		   bool follow_last, struct hm_sbuf *out)
{
	struct hm_sbuf todo = { 0 };
	int links = 0;
	int rc = 0;
	size_t pos = 0;

	hm_sbuf_reset(out);
	if (hm_sbuf_reserve(out, in_len + 1) < 0 ||
	    hm_sbuf_add(&todo, in, in_len) < 0) {
		rc = -ENOMEM;
		goto done;
	}
	out->s[0] = '\0';
	while (pos < todo.len) {
		size_t i = pos, j, mark;
		bool last;

		while (i < todo.len && todo.s[i] == '/')
			i++;
		j = i;
		while (j < todo.len && todo.s[j] != '/')
			j++;
		pos = j;
		if (j == i || (j - i == 1 && todo.s[i] == '.'))
			continue;
		if (j - i == 2 && todo.s[i] == '.' && todo.s[i + 1] == '.') {
			while (out->len > 0 && out->s[out->len - 1] != '/')
				out->len--;
			if (out->len > 0)
				out->len--;
			out->s[out->len] = '\0';
			continue;
		}
		mark = out->len;
		if (hm_sbuf_add(out, "/", 1) < 0 ||
		    hm_sbuf_add(out, todo.s + i, j - i) < 0) {
			rc = -ENOMEM;
			goto done;
		}
		last = true;
		for (size_t k = j; k < todo.len; k++)
			if (todo.s[k] != '/') {
				last = false;
				break;
			}
		if (last && !follow_last)
			continue;
		rc = link_at(c, out->s, out->len);
		if (rc == -ENOMEM)
			goto done;
		if (rc < 0) {
			/* does not exist (any more): keep the rest as is */
			rc = push_components(out, todo.s + pos,
					     todo.len - pos);
			goto done;
		}
		if (rc == 0)
			continue;
		if (++links > MAX_LINKS) {
			rc = -ELOOP;
			goto done;
		}
		/* splice: target + rest of todo */
		{
			struct hm_sbuf nt = { 0 };

			if (hm_sbuf_add(&nt, c->tmp.s, c->tmp.len) < 0 ||
			    hm_sbuf_add(&nt, "/", 1) < 0 ||
			    hm_sbuf_add(&nt, todo.s + pos, todo.len - pos) < 0) {
				hm_sbuf_free(&nt);
				rc = -ENOMEM;
				goto done;
			}
			hm_sbuf_free(&todo);
			todo = nt;
			pos = 0;
		}
		if (c->tmp.len && c->tmp.s[0] == '/')
			out->len = 0;
		else
			out->len = mark;
		out->s[out->len] = '\0';
	}
done:
	hm_sbuf_free(&todo);
	return rc;
}

/* The resolved form of directory @dir (lexical, "" = "/"), cached. */
static int resolve_dir(struct hm_canon *c, const char *dir, size_t len,
		       bool use_cache, struct hm_sbuf *out)
{
	uint32_t h = hm_hash_bytes(dir, len);
	struct cache_slot *s = &c->cache[h % CACHE_SLOTS];
	int rc;

	if (use_cache && s->key && s->hash == h && s->key_len == len &&
	    !memcmp(s->key, dir, len)) {
		c->st->dircache_hits++;
		hm_sbuf_reset(out);
		return hm_sbuf_add(out, s->val, s->val_len);
	}
	c->st->dircache_misses++;
	rc = resolve(c, dir, len, true, out);
	if (rc < 0 || len > CACHE_MAX_KEY)
		return rc;
	if (s->key)
		c->st->dircache_evictions++;
	free(s->key);
	free(s->val);
	s->key = strndup(dir, len);
	s->val = strndup(out->s, out->len);
	if (!s->key || !s->val) {
		free(s->key);
		free(s->val);
		s->key = s->val = NULL;
		return 0;
	}
	s->key_len = len;
	s->val_len = out->len;
	s->hash = h;
	return 0;
}

/*
 * Is @p the object of the record?  A name that no longer exists (deleted
 * since, or a log from the past) is taken as it resolved: its directory
 * part was still checked by the lookup.
 */
static bool same_object(struct hm_canon *c, const struct hm_sbuf *p,
			const struct hm_ev_path *rec, bool follow)
{
	struct stat st;
	int rc = root_lstat(c, p->s, p->len, &st, follow);

	if (rc == -ENOENT)
		return true;
	if (rc < 0)
		return false;
	return st.st_ino == rec->ino && major(st.st_dev) == rec->dev_major &&
	       minor(st.st_dev) == rec->dev_minor;
}

static bool is_link(struct hm_canon *c, const struct hm_sbuf *p)
{
	return link_at(c, p->s, p->len) == 1;
}

/* c->res = the resolved directory of c->lex (@slash: the length of its
 * directory part with the '/') + its last component as written. */
static int dir_and_last(struct hm_canon *c, size_t slash, bool use_cache)
{
	const char *p = c->lex.s;
	int rc = resolve_dir(c, p, slash ? slash - 1 : 0, use_cache, &c->res);

	if (rc < 0)
		return rc;
	return hm_sbuf_add(&c->res, p + slash - (slash ? 1 : 0),
			   c->lex.len - slash + (slash ? 1 : 0));
}

/*
 * Resolve c->lex into c->res.  When the object is not the record's (the
 * file was replaced since, or another host's), its directory part is
 * still resolved: what a directory resolves to does not depend on the
 * file in it, and one object keeps one name whatever the host's state
 * (/var/run/x is /run/x whether x is there or not).  A program keeps its
 * last component (TOMOYO's tomoyo_realpath_nofollow), its inode is that
 * of the file it leads to.
 */
static int resolve_path(struct hm_canon *c, const struct hm_canon_req *r)
{
	const char *p = c->lex.s;
	size_t len = c->lex.len, slash = len;
	bool check = r->rec && r->rec->has_inode;
	int rc;

	while (slash > 0 && p[slash - 1] != '/')
		slash--;
	for (int attempt = 0; attempt < 2; attempt++) {
		rc = dir_and_last(c, slash, attempt == 0);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			break;
		if (r->follow_last && !r->program && is_link(c, &c->res)) {
			struct hm_sbuf dir = c->res;

			c->res = (struct hm_sbuf){ 0 };
			rc = resolve(c, dir.s, dir.len, true, &c->res);
			hm_sbuf_free(&dir);
			if (rc == -ENOMEM)
				return rc;
			if (rc < 0)
				break;
		}
		if (!check || same_object(c, &c->res, r->rec,
					  r->follow_last || r->program)) {
			c->st->resolved++;
			return 0;
		}
	}
	if (check)
		c->st->resolve_mismatch++;
	rc = rc < 0 ? rc : dir_and_last(c, slash, true);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0)
		return 0;
	hm_sbuf_reset(&c->res);
	return hm_sbuf_add(&c->res, c->lex.s, c->lex.len);
}

/* Emit @p (absolute, "" = "/") into the arena in TOMOYO's naming. */
static int emit(struct hm_canon *c, struct hm_arena *a,
		const struct hm_canon_req *r, const char *p, size_t len,
		struct hm_bytes *out)
{
	struct hm_sbuf *b = &c->tmp;

	if (hm_object_name(c->fs, p, len, r->pid, r->is_dir, b) < 0)
		return -ENOMEM;
	if (b->len > HM_COLLECTOR_MAX_PATH)
		return -E2BIG;
	out->s = hm_arena_strndup(a, b->s, b->len);
	if (!out->s)
		return -ENOMEM;
	out->len = b->len;
	return 0;
}

int hm_canon_path(struct hm_canon *c, struct hm_arena *a,
		  const struct hm_canon_req *r, struct hm_bytes *out)
{
	bool relative = r->len == 0 || r->name[0] != '/';
	int rc;

	if (r->len > HM_COLLECTOR_MAX_PATH)
		return -E2BIG;
	if (relative && (!r->cwd || !r->cwd_len || r->cwd[0] != '/')) {
		/* cannot be made absolute: keep as passed */
		out->s = hm_arena_strndup(a, r->name, r->len);
		out->len = r->len;
		return out->s ? 0 : -ENOMEM;
	}
	rc = lexical(c, r);
	if (rc < 0)
		return rc;
	if (!c->resolve || (c->lex.len >= 5 && !memcmp(c->lex.s, "/proc", 5) &&
			    (c->lex.len == 5 || c->lex.s[5] == '/')))
		return emit(c, a, r, c->lex.s, c->lex.len, out);
	rc = resolve_path(c, r);
	if (rc < 0)
		return rc;
	return emit(c, a, r, c->res.s, c->res.len, out);
}
