// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * canon.c - object path names as TOMOYO writes them
 * (docs/ARCHITECTURE.md "Path names").
 *
 * A PATH record holds the name the process passed.  Here it is joined with
 * CWD when relative, "." ".." and "//" are removed, and, when asked,
 * symlinks are resolved through the filesystem (of this host, or under a
 * --resolve-root image), the result being checked against the record's
 * inode and device.  Two fixed-size caches (sets of two, counted) hold
 * resolved directories and resolved whole names with what was found
 * there, so a name seen before costs no system call and a new one in a
 * known directory one (docs/PATHS.md "Cost"); following a live log they
 * are rechecked.  /proc/... becomes proc:/..., with the event's own pid
 * as proc:/self.
 *
 * Owns: the caches, the trail's links and scratch buffers, all per
 * instance (the order of the log matters: one per ordered stream).
 * Results go to the caller's arena.
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
#include "histmac/fs.h"
#include "internal.h"

#define CACHE_SLOTS	HM_CANON_DIR_SLOTS
#define NAME_SLOTS	HM_CANON_NAME_SLOTS
#define CACHE_WAYS	2	/* a name may sit in either slot of its set */
#define CACHE_MAX_KEY	1024
#define MAX_LINKS	40
#define TRAIL_LINKS	256

/* What stat() or lstat() found at a name: its identity, or the error. */
struct seen {
	bool known;
	int err;		/* 0 or -errno */
	uint64_t ino;
	uint32_t major, minor;
};

/*
 * One cached resolution, of a directory or of a whole name.  Used as long
 * as the trail links it may depend on and c->epoch are those it was made
 * with, and, following a live log, for HM_CANON_RECHECK names.
 */
struct cache_slot {
	char *key;		/* lexical name, NULL if empty */
	size_t key_len;
	char *val;		/* resolved */
	size_t val_len;
	uint32_t hash;
	uint8_t flags;		/* a name: NAME_FOLLOW | NAME_PROGRAM */
	bool trail;		/* a lookup missed on disk: the trail's
				 * links may have decided it */
	bool open;		/* a directory or link on the way is not
				 * root's only (owner_only()) */
	uint32_t trail_gen;	/* c->trail_gen when made */
	uint64_t epoch;		/* c->epoch when made */
	uint64_t checked;	/* c->n_names when made or last checked */
	uint64_t used;		/* c->n_names when last used */
	struct seen seen;	/* a name: what is at val (the record's inode
				 * is checked against it); a directory,
				 * live: stat() of the key */
};

#define NAME_FOLLOW	1
#define NAME_PROGRAM	2

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
	struct cache_slot *cache;	/* directories, sets of CACHE_WAYS */
	struct cache_slot *names;	/* whole names, likewise */
	bool live;		/* the log is followed as it is written */
	bool trail_dep;		/* this resolution missed on disk */
	bool open_dep;		/* it met a directory or link a user other
				 * than root could have changed */
	uint32_t trail_gen;	/* bumped when the trail's links change */
	uint64_t epoch;		/* bumped when a resolution changed */
	uint64_t n_names;	/* names resolved so far */
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
	if (c->resolve) {
		c->cache = calloc(CACHE_SLOTS, sizeof(*c->cache));
		c->names = calloc(NAME_SLOTS, sizeof(*c->names));
	}
	if (!c->root || (c->resolve && (!c->cache || !c->names))) {
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
	if (c->names) {
		for (size_t i = 0; i < NAME_SLOTS; i++) {
			free(c->names[i].key);
			free(c->names[i].val);
		}
		free(c->names);
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

void hm_canon_set_live(struct hm_canon *c, bool live)
{
	c->live = live;
}

void hm_canon_trail_changed(struct hm_canon *c)
{
	if (c->live)
		c->epoch++;
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

/*
 * Could only root have made this step of a lookup what it is now?  A
 * directory or a symlink owned by root.  A user who may write in a
 * directory (sticky /tmp, /run/lock) can put its own entry there, but
 * that entry is then the user's, and the next step: the directory itself
 * stays root's.  The last component of a name, a file, changes no name.
 */
static bool root_only(const struct stat *st)
{
	if (S_ISLNK(st->st_mode) || S_ISDIR(st->st_mode))
		return st->st_uid == 0;
	return true;
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
	c->trail_gen++;
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
	c->trail_gen++;
}

/*
 * The target of the symlink at @p, whose lstat() gave @rc and @st: read
 * from the file system, else (it is gone: removed since, later in the
 * trail or after it) a symlink the trail created there.  Into c->tmp.
 * Returns 1 (a link), 0 (not one), -ENOENT (nothing there, nor in the
 * trail), -errno.
 */
static int link_of(struct hm_canon *c, const char *p, size_t len, int rc,
		   const struct stat *st)
{
	struct trail_link *l;

	if (rc == 0) {
		c->open_dep |= !root_only(st);
		if (!S_ISLNK(st->st_mode))
			return 0;
		rc = root_readlink(c, p, len);
		return rc < 0 ? rc : 1;
	}
	if (rc == -ENOMEM)
		return rc;
	c->trail_dep = true;
	l = c->n_links ? trail_link(c, p, len) : NULL;
	if (!l)
		return rc;
	hm_sbuf_reset(&c->tmp);
	return hm_sbuf_add(&c->tmp, l->target, l->target_len) < 0 ? -ENOMEM : 1;
}

static int link_at(struct hm_canon *c, const char *p, size_t len)
{
	struct stat st;

	return link_of(c, p, len, root_lstat(c, p, len, &st, false), &st);
}

/*
 * Is @p /proc or under it?  What is there now is this collector's own
 * processes, not the log's: names under it are taken as written, and a
 * process's links there are named by their object (hm_canon_magic()).
 */
static bool is_proc(const char *p, size_t len)
{
	return len >= 5 && !memcmp(p, "/proc", 5) && (len == 5 || p[5] == '/');
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
		if (is_proc(out->s, out->len)) {
			rc = push_components(out, todo.s + pos,
					     todo.len - pos);
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

static void seen_set(struct seen *sn, int rc, const struct stat *st)
{
	*sn = (struct seen){ .known = true, .err = rc };
	if (rc == 0) {
		sn->ino = st->st_ino;
		sn->major = major(st->st_dev);
		sn->minor = minor(st->st_dev);
	}
}

/* stat() (@follow) or lstat() of @p into @sn. */
static void stat_seen(struct hm_canon *c, const char *p, size_t len,
		      bool follow, struct seen *sn)
{
	struct stat st;

	seen_set(sn, root_lstat(c, p, len, &st, follow), &st);
}

static bool seen_same(const struct seen *a, const struct seen *b)
{
	return a->err == b->err && a->ino == b->ino && a->major == b->major &&
	       a->minor == b->minor;
}

/*
 * Is what was seen the object of the record?  A name that no longer
 * exists (deleted since, or a log from the past) is taken as it
 * resolved: its directory part was still checked by the lookup.
 */
static bool seen_is(const struct seen *sn, const struct hm_ev_path *rec)
{
	if (sn->err == -ENOENT)
		return true;
	return !sn->err && sn->ino == rec->ino &&
	       sn->major == rec->dev_major && sn->minor == rec->dev_minor;
}

/*
 * The slot of @key asked with @flags in the set of @cache (@slots in all)
 * for @h, or NULL; *@put: where it would go (an empty slot of the set,
 * else the one used longest ago).
 */
static struct cache_slot *slot_find(struct cache_slot *cache, size_t slots,
				    const char *key, size_t len, uint32_t h,
				    uint8_t flags, struct cache_slot **put)
{
	struct cache_slot *set = &cache[h % (slots / CACHE_WAYS) * CACHE_WAYS];

	*put = set;
	for (size_t i = 0; i < CACHE_WAYS; i++) {
		struct cache_slot *s = &set[i];

		if (s->key && s->hash == h && s->flags == flags &&
		    s->key_len == len && !memcmp(s->key, key, len))
			return s;
		if (!s->key || ((*put)->key && s->used < (*put)->used))
			*put = s;
	}
	return NULL;
}

/* Can @s be used: 0 as it is, 1 after a check (live: it is old), -1 not
 * (the trail's links or a resolution changed since it was made). */
static int slot_state(const struct hm_canon *c, const struct cache_slot *s)
{
	if ((s->trail && s->trail_gen != c->trail_gen) || s->epoch != c->epoch)
		return -1;
	return c->live && c->n_names - s->checked >= HM_CANON_RECHECK;
}

/* @s := @key (asked with @flags) -> @val, made now; a slot emptied when
 * out of memory.  @s held another name: @evictions counts it. */
static void slot_fill(struct hm_canon *c, struct cache_slot *s,
		      const char *key, size_t len, uint8_t flags,
		      const struct hm_sbuf *val, uint32_t h,
		      uint64_t *evictions)
{
	if (s->key && (s->flags != flags || s->key_len != len ||
		       memcmp(s->key, key, len)))
		(*evictions)++;
	free(s->key);
	free(s->val);
	s->key = strndup(key, len);
	s->val = strndup(val->s, val->len);
	if (!s->key || !s->val) {
		free(s->key);
		free(s->val);
		s->key = s->val = NULL;
		return;
	}
	s->key_len = len;
	s->val_len = val->len;
	s->hash = h;
	s->flags = flags;
	s->trail = c->trail_dep;
	s->open = c->open_dep;
	s->trail_gen = c->trail_gen;
	s->epoch = c->epoch;
	s->checked = s->used = c->n_names;
}

/* Live: does the directory @s names still lead where it did?  One
 * stat(); one missed on disk (a trail link may be gone) is redone. */
static bool dir_unchanged(struct hm_canon *c, struct cache_slot *s)
{
	struct seen now;

	if (s->trail)
		return false;
	c->st->dircache_rechecks++;
	stat_seen(c, s->key, s->key_len, true, &now);
	if (!seen_same(&now, &s->seen))
		return false;
	s->checked = c->n_names;
	return true;
}

/* The resolved form of directory @dir (lexical, "" = "/"), cached. */
static int resolve_dir(struct hm_canon *c, const char *dir, size_t len,
		       bool use_cache, struct hm_sbuf *out)
{
	uint32_t h = hm_hash_bytes(dir, len);
	struct cache_slot *put;
	struct cache_slot *s = slot_find(c->cache, CACHE_SLOTS, dir, len, h, 0,
					 &put);
	bool outer = c->trail_dep, outer_open = c->open_dep;
	int state = s ? slot_state(c, s) : -1;
	int rc;

	if (use_cache && (state == 0 || (state == 1 && dir_unchanged(c, s)))) {
		c->st->dircache_hits++;
		c->trail_dep |= s->trail;
		c->open_dep |= s->open;
		s->used = c->n_names;
		hm_sbuf_reset(out);
		return hm_sbuf_add(out, s->val, s->val_len);
	}
	c->st->dircache_misses++;
	c->trail_dep = false;
	c->open_dep = false;
	rc = resolve(c, dir, len, true, out);
	if (rc == 0 && len <= CACHE_MAX_KEY) {
		/* names resolved through the old value are stale */
		if (s && (s->val_len != out->len ||
			  memcmp(s->val, out->s, out->len)))
			c->epoch++;
		s = s ? s : put;
		slot_fill(c, s, dir, len, 0, out, h,
			  &c->st->dircache_evictions);
		if (c->live && s->key)
			stat_seen(c, dir, len, true, &s->seen);
	}
	c->trail_dep |= outer;
	c->open_dep |= outer_open;
	return rc;
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

/* c->res, a symlink to c->tmp, resolved whole. */
static int resolve_again(struct hm_canon *c)
{
	struct hm_sbuf dir = c->res;
	int rc;

	c->res = (struct hm_sbuf){ 0 };
	rc = resolve(c, dir.s, dir.len, true, &c->res);
	hm_sbuf_free(&dir);
	return rc;
}

/*
 * On an overlay, stat() shows a file a device of the layer's where the
 * record shows the overlay's: @sn becomes the record's object when the
 * file at c->res is it (lib/overlay.c), and is cached so.
 */
static int layer_seen(struct hm_canon *c, const struct hm_canon_req *r,
		      struct seen *sn)
{
	const struct hm_ev_path *rec = r->rec;

	if (sn->err || (sn->major == rec->dev_major &&
			sn->minor == rec->dev_minor))
		return 0;	/* not there, or another inode of that device */
	hm_sbuf_reset(&c->tmp);
	if (hm_sbuf_add(&c->tmp, c->root, c->root_len) < 0 ||
	    hm_sbuf_add(&c->tmp, c->res.len ? c->res.s : "/",
			c->res.len ? c->res.len : 1) < 0)
		return -ENOMEM;
	if (hm_overlay_holds(c->tmp.s, r->follow_last || r->program,
			     rec->dev_major, rec->dev_minor, rec->ino)) {
		sn->ino = rec->ino;
		sn->major = rec->dev_major;
		sn->minor = rec->dev_minor;
		c->st->resolve_overlay++;
	}
	return 0;
}

/*
 * One resolution of c->lex into c->res (@use_cache: its directory from
 * the cache), and in @sn what is there when the record's inode is to be
 * checked.  The last component costs one lstat() when followed (it serves
 * the check too unless it is a link), else one stat() or lstat() for the
 * check, else nothing.
 */
static int resolve_seen(struct hm_canon *c, size_t slash,
			const struct hm_canon_req *r, bool use_cache,
			struct seen *sn)
{
	bool check = r->rec && r->rec->has_inode;
	struct stat st;
	int rc = dir_and_last(c, slash, use_cache);

	sn->known = false;
	if (rc < 0)
		return rc;
	if (is_proc(c->res.s, c->res.len)) {
		/* not this collector's own: taken as not there */
		seen_set(sn, -ENOENT, &st);
		return 0;
	}
	if (r->follow_last && !r->program) {
		rc = root_lstat(c, c->res.s, c->res.len, &st, false);
		if (rc == 0 && !S_ISLNK(st.st_mode)) {
			seen_set(sn, 0, &st);
			return 0;
		}
		if (rc < 0 && rc != -ENOMEM)
			seen_set(sn, rc, &st);	/* as stat() would say */
		rc = link_of(c, c->res.s, c->res.len, rc, &st);
		if (rc == -ENOMEM)
			return rc;
		if (rc == 1) {
			sn->known = false;
			rc = resolve_again(c);
			if (rc < 0)
				return rc;
		}
	}
	if (check && !sn->known)
		stat_seen(c, c->res.s, c->res.len,
			  r->follow_last || r->program, sn);
	return 0;
}

static int resolve_once(struct hm_canon *c, size_t slash,
			const struct hm_canon_req *r, bool use_cache,
			struct seen *sn)
{
	int rc = resolve_seen(c, slash, r, use_cache, sn);

	if (rc == 0 && r->rec && r->rec->has_inode && sn->known &&
	    !seen_is(sn, r->rec))
		rc = layer_seen(c, r, sn);
	return rc;
}

static uint8_t name_flags(const struct hm_canon_req *r)
{
	return (r->follow_last ? NAME_FOLLOW : 0) |
	       (r->program ? NAME_PROGRAM : 0);
}

/* The slot of c->lex asked as @r asks, or NULL; *@put, *@h: see
 * slot_find(). */
static struct cache_slot *name_find(struct hm_canon *c,
				    const struct hm_canon_req *r,
				    struct cache_slot **put, uint32_t *h)
{
	*h = hm_hash_bytes(c->lex.s, c->lex.len) ^
	     (name_flags(r) * 0x9e3779b1u);
	return slot_find(c->names, NAME_SLOTS, c->lex.s, c->lex.len, *h,
			 name_flags(r), put);
}

/*
 * c->lex as @r asks for it, from the whole-name cache: 1 resolved into
 * c->res, 0 not the record's object (what was seen there is another), -1
 * not cached, -ENOMEM.  What was seen: in @sn.
 */
static int name_hit(struct hm_canon *c, const struct hm_canon_req *r,
		    struct seen *sn)
{
	struct cache_slot *put;
	uint32_t h;
	struct cache_slot *n = name_find(c, r, &put, &h);

	if (!n || slot_state(c, n) != 0)
		return -1;
	n->used = c->n_names;
	c->open_dep = n->open;
	if (r->rec && r->rec->has_inode) {
		if (!n->seen.known)
			stat_seen(c, n->val, n->val_len,
				  r->follow_last || r->program, &n->seen);
		if (n->seen.err == -ENOMEM) {
			n->seen.known = false;
			return -ENOMEM;
		}
		*sn = n->seen;
		if (!seen_is(&n->seen, r->rec))
			return 0;
	}
	hm_sbuf_reset(&c->res);
	return hm_sbuf_add(&c->res, n->val, n->val_len) < 0 ? -ENOMEM : 1;
}

static void name_store(struct hm_canon *c, const struct hm_canon_req *r,
		       const struct seen *sn)
{
	struct cache_slot *put;
	uint32_t h;
	struct cache_slot *n;

	if (c->lex.len > CACHE_MAX_KEY || (sn->known && sn->err == -ENOMEM))
		return;
	n = name_find(c, r, &put, &h);
	n = n ? n : put;
	slot_fill(c, n, c->lex.s, c->lex.len, name_flags(r), &c->res, h,
		  &c->st->namecache_evictions);
	n->seen = *sn;
}

/* Did resolving leave the name as the process wrote it (no symlink)? */
static bool same_as_logged(const struct hm_canon *c)
{
	return c->res.len == c->lex.len &&
	       !memcmp(c->res.s, c->lex.s, c->lex.len);
}

/*
 * How the name in c->res stands for an object not compared with the
 * record's (none to compare, or nothing there now): it holds unless
 * resolving made it another name than the one logged through a directory
 * or link that a user other than root could have changed since (a
 * directory swapped for a symlink after the event).
 */
static uint8_t proof_unseen(const struct hm_canon *c)
{
	return c->open_dep && !same_as_logged(c) ? HM_PROOF_NONE :
						    HM_PROOF_OBJECT;
}

/* The name was resolved into c->res: how it stands for the record's
 * object, seen as @sn (@check: the record has one). */
static uint8_t proof_of(struct hm_canon *c, bool check, const struct seen *sn)
{
	c->st->resolved++;
	if (check && sn->err != -ENOENT)
		return HM_PROOF_OBJECT;		/* seen_is(): the same */
	return proof_unseen(c);
}

/*
 * Another object than the record's is at the name now (the file was
 * replaced since, or another host's): its directory part is still
 * resolved, as what a directory resolves to does not depend on the file
 * in it (/var/run/x is /run/x whether x is there or not) - when only
 * root could have changed those directories since (PATHS.md "The
 * rule").  Otherwise, or when the name cannot be resolved, it is kept
 * as logged and not proven.
 */
static int mismatch(struct hm_canon *c, size_t slash, int rc, bool check,
		    uint8_t *proof)
{
	if (check)
		c->st->resolve_mismatch++;
	c->open_dep = false;
	if (rc == 0)
		rc = dir_and_last(c, slash, true);
	if (rc == -ENOMEM)
		return rc;
	/* a name that resolves to itself is the one the process used,
	 * whoever could have changed its directories: only a symlink met
	 * now can make it another's */
	if (rc == 0 && (!c->open_dep || same_as_logged(c))) {
		*proof = HM_PROOF_DIRS;
		return 0;
	}
	/* a loop, with nothing to compare: the name as logged, as ever */
	*proof = check ? HM_PROOF_NONE : HM_PROOF_OBJECT;
	hm_sbuf_reset(&c->res);
	return hm_sbuf_add(&c->res, c->lex.s, c->lex.len);
}

/*
 * Resolve c->lex into c->res, and say in @proof how it stands for the
 * record's object.  A program keeps its last component (TOMOYO's
 * tomoyo_realpath_nofollow), its inode is that of the file it leads to.
 */
static int resolve_path(struct hm_canon *c, const struct hm_canon_req *r,
			uint8_t *proof)
{
	const char *p = c->lex.s;
	size_t len = c->lex.len, slash = len;
	bool check = r->rec && r->rec->has_inode;
	struct seen sn = { .err = -ENOENT };
	int rc = 0, hit;

	c->n_names++;
	while (slash > 0 && p[slash - 1] != '/')
		slash--;
	hit = name_hit(c, r, &sn);
	if (hit == -ENOMEM)
		return hit;
	if (hit < 0) {
		c->st->namecache_misses++;
	} else {
		c->st->namecache_hits++;
		if (hit == 1) {
			*proof = proof_of(c, check, &sn);
			return 0;
		}
	}
	/* another object than the one seen: resolving again finds the
	 * same, unless the files changed (then the name is not cached) */
	for (int attempt = 0; hit < 0 && attempt < 2; attempt++) {
		c->trail_dep = false;
		c->open_dep = false;
		rc = resolve_once(c, slash, r, attempt == 0, &sn);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			break;
		if (attempt == 0)
			name_store(c, r, &sn);
		if (!check || seen_is(&sn, r->rec)) {
			*proof = proof_of(c, check, &sn);
			return 0;
		}
	}
	return mismatch(c, slash, rc, check, proof);
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
		  const struct hm_canon_req *r, struct hm_bytes *out,
		  uint8_t *proof)
{
	bool relative = r->len == 0 || r->name[0] != '/';
	int rc;

	*proof = HM_PROOF_OBJECT;
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
	if (!c->resolve || is_proc(c->lex.s, c->lex.len))
		return emit(c, a, r, c->lex.s, c->lex.len, out);
	rc = resolve_path(c, r, proof);
	if (rc < 0)
		return rc;
	if (*proof != HM_PROOF_NONE)
		return emit(c, a, r, c->res.s, c->res.len, out);
	c->st->resolve_unproven++;
	return emit(c, a, r, c->lex.s, c->lex.len, out);	/* as logged */
}

/* @p (@len) starts with @w and then a '/' or its end: past them, else
 * NULL. */
static const char *skip_word(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - p) < n || memcmp(p, w, n) ||
	    (p + n < end && p[n] != '/'))
		return NULL;
	return p + n + (p + n < end);
}

/* Past a component of digits and its '/', else NULL. */
static const char *skip_number(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == p || (q < end && *q != '/'))
		return NULL;
	return q + (q < end);
}

bool hm_canon_magic(const char *name, size_t len)
{
	static const char *const links[] = { "cwd", "root", "exe" };
	const char *end = name + len, *p, *q;

	if (len && name[len - 1] == '/')
		end--;			/* a directory: cwd/, root/ */
	p = skip_word(name, end, "proc:");
	if (!p)
		return false;
	q = skip_word(p, end, "self");
	if (!q)
		q = skip_word(p, end, "thread-self");
	if (!q)
		q = skip_number(p, end);
	if (!q)
		return false;
	if ((p = skip_word(q, end, "task")))
		q = skip_number(p, end);
	if (!q)
		return false;
	for (size_t i = 0; i < HM_ARRAY_SIZE(links); i++)
		if (skip_word(q, end, links[i]) == end)
			return true;
	if ((p = skip_word(q, end, "fd")))
		return skip_number(p, end) == end;
	p = skip_word(q, end, "map_files");
	return p && p < end && !memchr(p, '/', (size_t)(end - p));
}
