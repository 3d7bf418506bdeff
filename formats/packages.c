// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packages.c - file owners from a dpkg database (packages.h).  Every
 * info/PACKAGE.list is read once per call and only the wanted names are kept,
 * so the cost is one pass over the database whatever the policy's size.
 * Owns nothing past a call.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "histmac/owners.h"
#include "histmac/packages.h"
#include "histmac/word.h"
#include "tomoyo_private.h"

#define DPKG_DIR "var/lib/dpkg"

struct want {
	char *path;		/* as dpkg may list it */
	size_t i;		/* index in the caller's arrays */
	const char *only;	/* the one package whose file this is */
	const char *except;	/* a package whose file this is not */
};

/* A dpkg-divert: @by's @from stays, every other package's goes to @to
 * (@by ":" for the administrator's own file at @from). */
struct divert {
	char *from, *to, *by;
};

/* A wanted path by hash: its wants chained (lookup.next). */
struct want_slot {
	uint32_t hash, len;
	size_t first;		/* index in lookup.w + 1; 0: empty */
};

struct lookup {
	struct want *w;
	size_t n, cap;
	struct want_slot *slot;	/* a power of 2 of them, half empty */
	size_t mask;
	size_t *next;		/* per want: the next of its path + 1 */
	uint64_t *bits;		/* the hashes' bits, bmask + 1 of them */
	size_t bmask;
	char **pkg, **ver;
	struct divert *d;	/* from ROOT/var/lib/dpkg/diversions */
	size_t n_d, cap_d;
	struct divert **by_to;	/* @d sorted by @to; @d by @from */
};

static int want(struct lookup *L, char *path, size_t i, const char *only,
		const char *except)
{
	if (!path)
		return -ENOMEM;
	if (HM_ARRAY_GROW(&L->w, &L->cap, L->n + 1)) {
		free(path);
		return -ENOMEM;
	}
	L->w[L->n++] = (struct want){ path, i, only, except };
	return 0;
}

static int cmp_from(const void *a, const void *b)
{
	return strcmp(((const struct divert *)a)->from,
		      ((const struct divert *)b)->from);
}

static int cmp_to(const void *a, const void *b)
{
	return strcmp((*(struct divert *const *)a)->to,
		      (*(struct divert *const *)b)->to);
}

/*
 * @p, a name the file may have in the database: the package whose file
 * is at @p is the diverting one when @p was diverted from, and another
 * one's file is at @p when @p is where a diversion sent it (as `dpkg -S`
 * says of both).  Takes @p.
 */
static int want_diverted(struct lookup *L, char *p, size_t i)
{
	struct divert key = { .from = p, .to = p }, *k = &key, *d, **t;
	int r;

	if (!p)
		return -ENOMEM;
	d = L->n_d ? bsearch(&key, L->d, L->n_d, sizeof(*L->d), cmp_from) :
		     NULL;
	t = L->n_d ? bsearch(&k, L->by_to, L->n_d, sizeof(*L->by_to),
			     cmp_to) : NULL;
	if (t && (r = want(L, strdup((*t)->from), i, NULL, (*t)->by))) {
		free(p);
		return r;
	}
	if (d && !strcmp(d->by, ":")) {	/* the administrator's file */
		free(p);
		return 0;
	}
	return want(L, p, i, d ? d->by : NULL, NULL);
}

/* @p and its merged-/usr alias, if it has one. */
static int want_both(struct lookup *L, const char *p, size_t i)
{
	static const char *const dirs[] = { "/bin/", "/sbin/", "/lib/",
					    "/lib64/" };
	char *alias = NULL;
	int r = want_diverted(L, strdup(p), i);

	for (size_t k = 0; !r && !alias && k < HM_ARRAY_SIZE(dirs); k++) {
		size_t n = strlen(dirs[k]);

		if (!strncmp(p, dirs[k], n) && asprintf(&alias, "/usr%s", p) < 0)
			return -ENOMEM;
		if (!alias && !strncmp(p, "/usr", 4) &&
		    !strncmp(p + 4, dirs[k], n) && !(alias = strdup(p + 4)))
			return -ENOMEM;
	}
	return r || !alias ? r : want_diverted(L, alias, i);
}

/* Caller's path @w->i is owned by the package of list file @file; of two
 * (a file shipped twice) the first by name, whatever order readdir
 * gives. */
static int owned_by(struct lookup *L, const struct want *w, const char *file,
		    size_t flen)
{
	size_t n = strcspn(file, ":");
	char *p = strndup(file, n < flen ? n : flen);
	size_t i = w->i;

	if (!p)
		return -ENOMEM;
	if ((L->pkg[i] && strcmp(p, L->pkg[i]) >= 0) ||
	    (w->only && strcmp(p, w->only)) ||
	    (w->except && !strcmp(p, w->except))) {
		free(p);
		return 0;
	}
	free(L->pkg[i]);
	L->pkg[i] = p;
	return 0;
}

/*
 * A database file read whole, when it is a regular file of at most
 * WHOLE_MAX bytes (*@buf NULL otherwise: read it line by line): a thousand
 * lists, 9 MB, read a byte at a time through stdio took a fifth of a large
 * policy's stamp.  The lines are the same either way (each_line() skips
 * those over HM_MAX_LINE or with a NUL).  The bound keeps what a file
 * costs small: a 4 MB list read whole added as much to the peak memory of
 * a small learner (the heap does not give it back).
 */
#define WHOLE_MAX (1u << 20)

static int whole(FILE *f, char **buf, size_t *len)
{
	struct stat st;

	*buf = NULL;
	*len = 0;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > WHOLE_MAX)
		return 0;
	*buf = malloc((size_t)st.st_size + 1);	/* + 1: also when empty */
	if (!*buf)
		return -ENOMEM;
	*len = fread(*buf, 1, (size_t)st.st_size, f);
	return ferror(f) ? -EIO : 0;
}

/* @fn on each line of DIR/NAME (at most HM_MAX_LINE bytes kept, as the
 * policy's lines: an image's database may be another host's); a missing
 * file has no lines. */
static int each_line(const char *dir, const char *name,
		     int (*fn)(char *line, size_t n, void *arg), void *arg)
{
	struct hm_lines l = { 0 };
	char *path = NULL, *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	free(path);
	if (!f)
		return 0;
	r = whole(f, &buf, &len);
	if (!r)
		r = hm_lines_open(&l, buf ? NULL : f, buf, len);
	while (!r && (r = hm_lines_next(&l)) > 0)
		r = l.too_long || l.has_nul ? 0 : fn(l.line, l.n, arg);
	hm_lines_close(&l);
	fclose(f);
	free(buf);
	return r < 0 ? r : 0;
}

struct list_arg {
	struct lookup *L;
	const char *file;	/* NAME.list */
};

/*
 * The wants by their paths' hashes: a slot per path holds its first want,
 * the others of that path (several domains run one program) chained after
 * it.  A list line costs one hash and mostly no compare, where a binary
 * search of 100,000 wants took 17 (a large policy's stamp: 150,000 lines
 * of lists).  A bitmap of the hashes in front (16 bits a want, at most
 * 512 KiB: it stays in the cache, the table does not) turns most lines
 * away before the table is read.
 */
static int index_wants(struct lookup *L)
{
	size_t size = 16, bits = 1u << 12;

	while (size < 2 * L->n)
		size *= 2;
	while (bits < 16 * L->n && bits < (1u << 22))
		bits *= 2;
	L->slot = calloc(size, sizeof(*L->slot));
	L->next = calloc(L->n + 1, sizeof(*L->next));
	L->bits = calloc(bits / 64, sizeof(*L->bits));
	if (!L->slot || !L->next || !L->bits)
		return -ENOMEM;
	L->mask = size - 1;
	L->bmask = bits - 1;
	for (size_t i = 0; i < L->n; i++) {
		const char *p = L->w[i].path;
		size_t len = strlen(p), k;
		uint32_t h = hm_hash_bytes(p, len);

		L->bits[(h & L->bmask) / 64] |= 1ull << (h % 64);
		for (k = h & L->mask; L->slot[k].first; k = (k + 1) & L->mask)
			if (L->slot[k].hash == h && L->slot[k].len == len &&
			    !strcmp(L->w[L->slot[k].first - 1].path, p))
				break;
		if (!L->slot[k].first)
			L->slot[k] = (struct want_slot){ h, (uint32_t)len, 0 };
		L->next[i] = L->slot[k].first;
		L->slot[k].first = i + 1;
	}
	return 0;
}

/* The slot of the path @line (@n bytes), or NULL. */
static const struct want_slot *wanted(const struct lookup *L,
				      const char *line, size_t n)
{
	uint32_t h = hm_hash_bytes(line, n);

	if (!(L->bits[(h & L->bmask) / 64] & (1ull << (h % 64))))
		return NULL;
	for (size_t k = h & L->mask; L->slot[k].first; k = (k + 1) & L->mask) {
		const struct want_slot *s = &L->slot[k];

		if (s->hash == h && s->len == n &&
		    !memcmp(L->w[s->first - 1].path, line, n))
			return s;
	}
	return NULL;
}

/* A line of info/NAME.list: NAME (":arch" dropped) owns it, if wanted. */
static int list_line(char *line, size_t n, void *arg)
{
	struct list_arg *a = arg;
	struct lookup *L = a->L;
	const struct want_slot *s = wanted(L, line, n);
	int r = 0;

	for (size_t j = s ? s->first : 0; j && !r; j = L->next[j - 1])
		r = owned_by(L, &L->w[j - 1], a->file, strlen(a->file) - 5);
	return r;
}

static int read_lists(struct lookup *L, const char *root)
{
	char *dir = NULL;
	struct dirent *e;
	DIR *D;
	int r = 0;

	if (asprintf(&dir, "%s/%s/info", root, DPKG_DIR) < 0)
		return -ENOMEM;
	D = opendir(dir);
	while (D && !r && (e = readdir(D))) {
		size_t n = strlen(e->d_name);
		struct list_arg a = { L, e->d_name };

		if (n > 5 && !strcmp(e->d_name + n - 5, ".list"))
			r = each_line(dir, e->d_name, list_line, &a);
	}
	if (D)
		closedir(D);
	free(dir);
	return r;
}

/* An owned path by its package's name, to find it from a stanza. */
struct by_pkg {
	const char *pkg;
	size_t i;
};

static int cmp_by_pkg(const void *a, const void *b)
{
	return strcmp(((const struct by_pkg *)a)->pkg,
		      ((const struct by_pkg *)b)->pkg);
}

/* Versions from status: the stanza of each package found, if installed. */
struct stanza {
	struct lookup *L;
	struct by_pkg *v;	/* the owned paths, sorted by package */
	size_t n;
	char pkg[256], ver[256];
	bool installed;
};

static int end_stanza(struct stanza *s)
{
	struct by_pkg key = { s->pkg, 0 }, *w = NULL;
	struct lookup *L = s->L;
	int r = 0;

	if (s->installed && *s->pkg && *s->ver)
		w = bsearch(&key, s->v, s->n, sizeof(*s->v), cmp_by_pkg);
	while (w && w > s->v && !cmp_by_pkg(w - 1, &key))
		w--;
	for (; w && !r && w < s->v + s->n && !cmp_by_pkg(w, &key); w++) {
		if (L->ver[w->i])
			continue;	/* the first stanza's */
		L->ver[w->i] = strdup(s->ver);
		if (!L->ver[w->i])
			r = -ENOMEM;
	}
	s->pkg[0] = s->ver[0] = '\0';
	s->installed = false;
	return r;
}

static int status_line(char *line, size_t n, void *arg)
{
	struct stanza *s = arg;

	if (!n)
		return end_stanza(s);
	if (sscanf(line, "Package: %255s", s->pkg) != 1 &&
	    sscanf(line, "Version: %255s", s->ver) != 1 &&
	    !strncmp(line, "Status:", 7))
		s->installed = strstr(line, " installed") != NULL;
	return 0;
}

static int read_status(struct lookup *L, const char *root, size_t n)
{
	struct stanza s = { .L = L, .v = calloc(n + 1, sizeof(*s.v)) };
	char *dir = NULL;
	int r = s.v ? 0 : -ENOMEM;

	for (size_t i = 0; !r && i < n; i++)
		if (L->pkg[i])
			s.v[s.n++] = (struct by_pkg){ L->pkg[i], i };
	if (s.n > 1)
		qsort(s.v, s.n, sizeof(*s.v), cmp_by_pkg);
	if (!r && asprintf(&dir, "%s/%s", root, DPKG_DIR) < 0)
		r = -ENOMEM;
	if (!r)
		r = each_line(dir, "status", status_line, &s);
	if (!r)
		r = end_stanza(&s);	/* the last needs no blank line */
	free(dir);
	free(s.v);
	return r;
}

/* diversions: FROM, TO, PACKAGE lines.  A window of three lines that is
 * not one (a line lost as too long) slides on by one, so one bad line
 * costs no more than its own diversion. */
struct div_arg {
	struct lookup *L;
	char *l[3];
	int n;
};

static int div_line(char *line, size_t len, void *arg)
{
	struct div_arg *a = arg;
	struct lookup *L = a->L;

	if (!(a->l[a->n++] = strndup(line, len)))
		return -ENOMEM;
	if (a->n < 3)
		return 0;
	if (a->l[0][0] != '/' || a->l[1][0] != '/' || a->l[2][0] == '/') {
		free(a->l[0]);
		memmove(a->l, a->l + 1, 2 * sizeof(*a->l));
		a->n = 2;
		return 0;
	}
	a->n = 0;
	if (HM_ARRAY_GROW(&L->d, &L->cap_d, L->n_d + 1)) {
		for (int k = 0; k < 3; k++)
			free(a->l[k]);
		return -ENOMEM;
	}
	L->d[L->n_d++] = (struct divert){ a->l[0], a->l[1], a->l[2] };
	return 0;
}

static int read_diversions(struct lookup *L, const char *root)
{
	struct div_arg a = { .L = L };
	char *dir = NULL;
	int r;

	if (asprintf(&dir, "%s/%s", root, DPKG_DIR) < 0)
		return -ENOMEM;
	r = each_line(dir, "diversions", div_line, &a);
	free(dir);
	for (int k = 0; k < a.n; k++)
		free(a.l[k]);
	if (r || !L->n_d)
		return r;
	L->by_to = calloc(L->n_d, sizeof(*L->by_to));
	if (!L->by_to)
		return -ENOMEM;
	qsort(L->d, L->n_d, sizeof(*L->d), cmp_from);
	for (size_t k = 0; k < L->n_d; k++)
		L->by_to[k] = &L->d[k];
	qsort(L->by_to, L->n_d, sizeof(*L->by_to), cmp_to);
	return 0;
}

static void lookup_free(struct lookup *L)
{
	for (size_t i = 0; i < L->n; i++)
		free(L->w[i].path);
	free(L->w);
	free(L->slot);
	free(L->next);
	free(L->bits);
	for (size_t k = 0; k < L->n_d; k++) {
		free(L->d[k].from);
		free(L->d[k].to);
		free(L->d[k].by);
	}
	free(L->d);
	free(L->by_to);
}

int hm_packages_owners(const char *root, const char *const *paths, size_t n,
		       char **pkg, char **ver)
{
	struct lookup L = { .pkg = pkg, .ver = ver };
	int r = 0;

	for (size_t i = 0; i < n; i++)
		pkg[i] = ver[i] = NULL;
	r = read_diversions(&L, root);
	for (size_t i = 0; !r && i < n; i++)
		r = paths[i] ? want_both(&L, paths[i], i) : 0;
	if (!r && L.n)
		r = index_wants(&L);
	if (!r && L.n)
		r = read_lists(&L, root);
	if (!r && L.n)
		r = read_status(&L, root, n);
	lookup_free(&L);
	for (size_t i = 0; i < n; i++) {	/* a package without a version
						 * is not installed */
		if (r || !ver[i]) {
			free(pkg[i]);
			free(ver[i]);
			pkg[i] = ver[i] = NULL;
		}
	}
	return r;
}

const char *hm_domain_program(const struct hm_domain *d, size_t *len)
{
	const char *sp;

	if (!d->name)
		return NULL;
	sp = memrchr(d->name->str, ' ', d->name->len);
	if (!sp)
		return NULL;
	*len = d->name->len - (size_t)(sp + 1 - d->name->str);
	return sp + 1;
}

/*
 * The owners of the programs of @m's domains (only those with a package
 * stamp when @stamped), at [0, n_domains), and of @files after them, in
 * one pass over the database.  @q's arrays are calloc'd; owners_free().
 */
struct owners {
	size_t n;
	char **paths, **pkg, **ver;
};

static void owners_free(struct owners *q)
{
	for (size_t i = 0; q->paths && q->pkg && q->ver && i < q->n; i++) {
		free(q->paths[i]);
		free(q->pkg[i]);
		free(q->ver[i]);
	}
	free(q->paths);
	free(q->pkg);
	free(q->ver);
}

/* @s (a TOMOYO name, \040 for a space) as the bytes dpkg lists in *@out;
 * NULL when it cannot be a listed name (a NUL, a bad escape).
 * Returns: 0 or -ENOMEM. */
static int raw_name(const char *s, size_t len, char **out)
{
	size_t n;

	*out = NULL;
	if (!memchr(s, '\\', len))
		return (*out = strndup(s, len)) ? 0 : -ENOMEM;
	*out = malloc(len + 1);
	if (!*out)
		return -ENOMEM;
	if (hm_decode(*out, &n, s, len) || memchr(*out, '\0', n)) {
		free(*out);
		*out = NULL;
		return 0;
	}
	(*out)[n] = '\0';
	return 0;
}

static int owners_of(const struct hm_model *m, const char *root,
		     bool stamped,
		     const struct hm_name *const *files, size_t n_files,
		     struct owners *q)
{
	int r;

	q->n = m->n_domains + n_files;
	q->paths = calloc(q->n + 1, sizeof(*q->paths));
	q->pkg = calloc(q->n + 1, sizeof(*q->pkg));
	q->ver = calloc(q->n + 1, sizeof(*q->ver));
	r = q->paths && q->pkg && q->ver ? 0 : -ENOMEM;
	for (size_t i = 0; !r && i < m->n_domains; i++) {
		size_t len;
		const char *p = hm_domain_program(m->domains[i], &len);

		if (p && *p == '/' && (!stamped || m->domains[i]->package))
			r = raw_name(p, len, &q->paths[i]);
	}
	for (size_t i = 0; !r && i < n_files; i++)
		r = raw_name(files[i]->str, files[i]->len,
			     &q->paths[m->n_domains + i]);
	if (!r)
		r = hm_packages_owners(root, (const char *const *)q->paths,
				       q->n, q->pkg, q->ver);
	return r;
}

int hm_packages_each(struct hm_model *m, const char *root, bool stamped,
		     hm_package_fn fn, void *arg)
{
	struct owners q = { 0 };
	int r = owners_of(m, root, stamped, NULL, 0, &q);

	for (size_t i = 0; !r && i < m->n_domains; i++)
		if (q.paths[i])
			r = fn(m, m->domains[i], q.pkg[i], q.ver[i], arg);
	owners_free(&q);
	return r;
}

/* Interned copies of @pkg and @ver (both or neither). */
static int intern2(struct hm_model *m, const char *pkg, const char *ver,
		   const struct hm_name **p, const struct hm_name **v)
{
	if (hm_model_intern(m, pkg, strlen(pkg), p) < 0 ||
	    hm_model_intern(m, ver, strlen(ver), v) < 0)
		return -ENOMEM;
	return 0;
}

static int stamp(struct hm_model *m, const struct owners *q,
		 const struct hm_name *const *files)
{
	int r = 0;

	for (size_t i = 0; !r && i < q->n; i++) {
		const struct hm_name *p, *v;

		if (!q->pkg[i])
			continue;
		r = intern2(m, q->pkg[i], q->ver[i], &p, &v);
		if (r)
			break;
		if (i < m->n_domains) {
			m->domains[i]->package = p;
			m->domains[i]->package_version = v;
		} else {
			r = hm_owner_set(m, files[i - m->n_domains], p, v);
		}
	}
	return r;
}

int hm_named_add(struct hm_named *f, const struct hm_acl_head *e)
{
	if (HM_ARRAY_GROW(&f->v, &f->cap, f->n + HM_ACL_MAX_FILES))
		return -ENOMEM;
	f->n += hm_acl_files(e, f->v + f->n);
	return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a;
	uintptr_t y = (uintptr_t)*(const void *const *)b;

	return (x > y) - (x < y);
}

void hm_named_unique(struct hm_named *f)
{
	size_t j = 0;

	if (f->n > 1)	/* qsort() of a NULL array is undefined */
		qsort(f->v, f->n, sizeof(*f->v), cmp_ptr);
	for (size_t i = 0; i < f->n; i++)
		if (!j || f->v[i] != f->v[j - 1])
			f->v[j++] = f->v[i];
	f->n = j;
}

/* A set of names (one pointer each in a model), by their hashes. */
struct name_set {
	const struct hm_name **slot;
	size_t mask, n;
};

/* Puts @x in @s: 1 added, 0 there already, -ENOMEM. */
static int name_set_add(struct name_set *s, const struct hm_name *x)
{
	size_t k;

	if (2 * (s->n + 1) > s->mask + 1) {	/* kept half empty */
		struct name_set t = { .n = 0 };
		size_t size = s->slot ? 2 * (s->mask + 1) : 1024;

		t.slot = calloc(size, sizeof(*t.slot));
		if (!t.slot)
			return -ENOMEM;
		t.mask = size - 1;
		for (size_t i = 0; s->slot && i <= s->mask; i++)
			if (s->slot[i])
				(void)name_set_add(&t, s->slot[i]);
		free(s->slot);
		*s = t;
	}
	for (k = x->hash & s->mask; s->slot[k]; k = (k + 1) & s->mask)
		if (s->slot[k] == x)
			return 0;
	s->slot[k] = x;
	s->n++;
	return 1;
}

/* @x into @f, once: 0 or -ENOMEM. */
static int add_file(struct name_set *set, struct hm_named *f,
		    const struct hm_name *x)
{
	int r = name_set_add(set, x);

	if (r <= 0)
		return r;
	if (HM_ARRAY_GROW(&f->v, &f->cap, f->n + 1))
		return -ENOMEM;
	f->v[f->n++] = x;
	return 0;
}

/* The files @m's entries name, each once: the stamp needs the set, not
 * hm_model_files()' order by name, whose sort by text took a third of the
 * stamp of a large policy; and a set, not a sort of all they name (200,000
 * names for 45,000 files after a 1 GB log). */
static int file_set(const struct hm_model *m, struct hm_named *f)
{
	const struct hm_name *v[HM_ACL_MAX_FILES];
	struct name_set set = { 0 };
	int r = 0;

	for (size_t i = 0; !r && i < m->n_domains; i++) {
		for (const struct hm_acl_head *e = m->domains[i]->acl;
		     e && !r; e = e->next) {
			size_t n = hm_acl_files(e, v);

			for (size_t j = 0; j < n && !r; j++)
				r = add_file(&set, f, v[j]);
		}
	}
	free(set.slot);
	return r;
}

/* What hm_packages_lookup() found, for hm_packages_apply(). */
struct hm_pkg_lookup {
	struct hm_named f;	/* the files entries name */
	struct owners q;	/* the domains' programs, then @f */
};

void hm_packages_lookup_free(struct hm_pkg_lookup *k)
{
	if (!k)
		return;
	owners_free(&k->q);
	free(k->f.v);
	free(k);
}

int hm_packages_lookup(const struct hm_model *m, const char *root,
		       struct hm_pkg_lookup **out)
{
	struct hm_pkg_lookup *k = calloc(1, sizeof(*k));
	int r = k ? file_set(m, &k->f) : -ENOMEM;

	if (!r)
		r = owners_of(m, root, false, k->f.v, k->f.n, &k->q);
	if (r) {
		hm_packages_lookup_free(k);
		k = NULL;
	}
	*out = k;
	return r;
}

/* The files of @k that have an owner now, into @owned. */
static void give_owned(struct hm_pkg_lookup *k, size_t n_domains,
		       struct hm_named *owned)
{
	size_t j = 0;

	for (size_t i = 0; i < k->f.n; i++)
		if (k->q.pkg[n_domains + i])
			k->f.v[j++] = k->f.v[i];
	*owned = (struct hm_named){ k->f.v, j, k->f.cap };
	k->f = (struct hm_named){ 0 };
}

int hm_packages_apply(struct hm_model *m, struct hm_pkg_lookup *k,
		      struct hm_named *owned)
{
	int r;

	/* a domain whose program is not absolute (or no longer owned)
	 * keeps no stamp, nor a file no package owns now */
	for (size_t i = 0; i < m->n_domains; i++)
		m->domains[i]->package = m->domains[i]->package_version = NULL;
	hm_owners_clear(m);
	r = stamp(m, &k->q, k->f.v);
	if (!r && owned)
		give_owned(k, m->n_domains, owned);
	hm_packages_lookup_free(k);
	return r;
}

int hm_packages_stamp(struct hm_model *m, const char *root)
{
	struct hm_pkg_lookup *k;
	int r = hm_packages_lookup(m, root, &k);

	return r ? r : hm_packages_apply(m, k, NULL);
}
