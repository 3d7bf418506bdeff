// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * history.c - the text of POLICYDIR/histmac_entries.conf (history.h):
 * writes the model's stamps, reads them back onto the model's entries.
 * An entry is found by its TOMOYO 1.8 text (the dialect that says every
 * kind), so the file needs no parser of its own.  Owns nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/history.h"
#include "histmac/owners.h"
#include "histmac/policy_io.h"
#include "histmac/sbuf.h"
#include "tomoyo_private.h"

#define KEY_DIALECT HM_DIALECT_18

/*
 * An entry's key: its TOMOYO 1.8 text on one line.  An entry whose
 * permissions no one line says (execute with read, as a script's domain
 * learns its own file) is written as several lines; they are joined with
 * tabs, which no encoded name holds, so the file keeps one line per entry.
 */
static int put_key(struct hm_sbuf *b, const struct hm_model *m,
		   const struct hm_acl_head *e)
{
	size_t start = b->len;
	int r = hm_acl_format_to(b, m, e, KEY_DIALECT, NULL);
	char *p = r || !b->s ? NULL : b->s + start;

	while (p && (p = memchr(p, '\n', (size_t)(b->s + b->len - p))))
		*p = '\t';
	return r;
}

static int entry_key(const struct hm_model *m, const struct hm_acl_head *e,
		     char **out)
{
	struct hm_sbuf b = { 0 };
	int r = put_key(&b, m, e);

	if (!r && !b.s)
		r = hm_sbuf_add(&b, "", 0);	/* the empty key: "" */
	if (r) {
		hm_sbuf_free(&b);
		return r;
	}
	*out = b.s;
	return 0;
}

static bool stamped(const struct hm_acl_hist *h)
{
	return h->learned || h->grown || h->uses || h->used;
}

static int cmp_domain(const void *a, const void *b)
{
	const struct hm_domain *x = *(const struct hm_domain *const *)a;
	const struct hm_domain *y = *(const struct hm_domain *const *)b;

	return strcmp(x->name->str, y->name->str);
}

/* A domain's first lines, and its package's (packages.h). */
static void put_head(struct hm_sbuf *b, const struct hm_domain *d)
{
	hm_sbuf_printf(b, "%s\nquiet %" PRIu64 "\n", d->name->str,
		       d->quiet_events);
}

static void put_package(struct hm_sbuf *b, const struct hm_domain *d)
{
	hm_sbuf_printf(b, "package %s %s\n", d->package->str,
		       d->package_version->str);
}

/* @d's lines; the files its entries name into @named (NULL: not
 * wanted).  With @mk (the stamp comes later), no package line: where it
 * goes is marked in @mk instead. */
static int domain_text(struct hm_sbuf *b, const struct hm_model *m,
		       const struct hm_domain *d, struct hm_named *named,
		       struct hm_history_mark *mk)
{
	const struct hm_acl_head **v = hm_domain_sorted_acl(d);
	bool head = false;

	if (!v && d->n_acl)
		return -ENOMEM;
	if (mk)
		*mk = (struct hm_history_mark){ d, b->len, 0, 0 };
	for (size_t i = 0; i <= d->n_acl; i++) {
		const struct hm_acl_hist *h = i < d->n_acl ? &v[i]->hist : NULL;

		if (h && named && hm_named_add(named, v[i])) {
			free(v);
			return -ENOMEM;
		}
		if (h && !stamped(h))
			continue;
		if (!head && (h || d->quiet_events || (!mk && d->package))) {
			put_head(b, d);
			if (mk)
				mk->head = b->len;
			else if (d->package)
				put_package(b, d);
			head = true;
		}
		if (!h)
			break;
		/* LEARNED GROWN USES USED KEY, made in place (no printf, no
		 * copy): the file has a line for every entry */
		hm_tomoyo_put_i64(b, h->learned);
		hm_sbuf_addc(b, ' ');
		hm_tomoyo_put_i64(b, h->grown);
		hm_sbuf_addc(b, ' ');
		hm_tomoyo_put_u64(b, h->uses);
		hm_sbuf_addc(b, ' ');
		hm_tomoyo_put_i64(b, h->used);
		hm_sbuf_addc(b, ' ');
		if (put_key(b, m, v[i])) {
			free(v);
			return -ENOMEM;
		}
		hm_sbuf_addc(b, '\n');
	}
	free(v);
	return 0;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return hm_name_cmp(*(const struct hm_name *const *)a,
			   *(const struct hm_name *const *)b);
}

/* "object PACKAGE VERSION FILE" for each file the entries name (@f, as
 * gathered, each once and by name) that a package owned when learned
 * (owners.h): hm_model_files()' order, without its second walk over the
 * entries. */
static void objects_text(struct hm_sbuf *b, const struct hm_model *m,
			 const struct hm_named *f)
{
	bool head = false;

	for (size_t i = 0; i < f->n; i++) {
		const struct hm_owner *o = hm_owner_of(m, f->v[i]);

		if (!o)
			continue;
		if (!head)
			hm_sbuf_adds(b, "# the Debian package and version of "
				     "each file named, when learned\n");
		head = true;
		hm_sbuf_printf(b, "object %s %s %s\n", o->package->str,
			       o->version->str, f->v[i]->str);
	}
}

/* The files named by the entries of domains without a name (written
 * nowhere else here). */
static int unnamed_files(const struct hm_model *m, struct hm_named *f)
{
	for (size_t i = 0; i < m->n_domains; i++) {
		if (m->domains[i]->name)
			continue;
		for (const struct hm_acl_head *e = m->domains[i]->acl; e;
		     e = e->next)
			if (hm_named_add(f, e))
				return -ENOMEM;
	}
	return 0;
}

/* @f's files each once, by name (objects_text()'s order). */
static void by_name(struct hm_named *f)
{
	hm_named_unique(f);
	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), cmp_name_ptr);
}

int hm_history_entries(const struct hm_model *m, struct hm_history_part *h)
{
	const struct hm_domain **v = calloc(m->n_domains + 1, sizeof(*v));
	struct hm_named *named = !h->late && m->owners ? &h->named : NULL;
	struct hm_sbuf *b = &h->b;
	size_t n = 0;
	int r = v ? 0 : -ENOMEM;

	for (size_t i = 0; v && i < m->n_domains; i++)
		if (m->domains[i]->name)
			v[n++] = m->domains[i];
	if (v)
		qsort(v, n, sizeof(*v), cmp_domain);
	if (!r && h->late && !(h->mk = calloc(n + 1, sizeof(*h->mk))))
		r = -ENOMEM;
	hm_sbuf_adds(b, "# histmac entry history (not read by TOMOYO): per "
		     "domain the events since its\n# last new entry, per entry "
		     "LEARNED GROWN USES USED (audit seconds, 0 unknown)\n");
	h->header = b->len;
	for (size_t i = 0; !r && i < n; i++)
		r = domain_text(b, m, v[i], named, h->mk ? &h->mk[i] : NULL);
	h->n_mk = h->mk ? n : 0;
	free(v);
	if (!r && named)
		r = unnamed_files(m, named);
	if (!r && named)
		by_name(named);
	return r ? r : b->oom ? -ENOMEM : 0;
}

/*
 * The package lines of a history rendered before the stamp, put in place
 * from the end backwards: the text moves once, in its own buffer (a copy
 * would double the largest file of a save in memory).  The lines are
 * made first by the same calls as domain_text()'s.
 */
static int put_packages(struct hm_history_part *h)
{
	struct hm_sbuf *b = &h->b, ins = { 0 };
	size_t src, dst;

	for (size_t i = 0; i < h->n_mk; i++) {
		struct hm_history_mark *mk = &h->mk[i];

		if (!mk->d->package)
			continue;
		mk->ins = ins.len;
		if (!mk->head)	/* nothing written for it yet */
			put_head(&ins, mk->d);
		put_package(&ins, mk->d);
	}
	if (!ins.len || ins.oom || hm_sbuf_reserve(b, ins.len)) {
		int r = ins.oom || b->oom ? -ENOMEM : 0;

		hm_sbuf_free(&ins);
		return r;
	}
	src = b->len;
	dst = b->len + ins.len;
	for (size_t i = h->n_mk, end = ins.len; i-- > 0;) {
		const struct hm_history_mark *mk = &h->mk[i];
		size_t at = mk->head ? mk->head : mk->start;

		if (!mk->d->package)
			continue;
		dst -= src - at;
		memmove(b->s + dst, b->s + at, src - at);
		src = at;
		dst -= end - mk->ins;
		memcpy(b->s + dst, ins.s + mk->ins, end - mk->ins);
		end = mk->ins;
	}
	b->len += ins.len;
	b->s[b->len] = '\0';
	hm_sbuf_free(&ins);
	return 0;
}

int hm_history_finish(const struct hm_model *m, struct hm_history_part *h,
		      struct hm_file_out *out)
{
	struct hm_sbuf *b = &h->b;
	int r = h->late ? put_packages(h) : 0;

	*out = (struct hm_file_out){ HM_HISTORY_FILE, NULL, 0 };
	if (h->late)
		by_name(&h->named);	/* the stamp's files with an owner */
	if (!r && m->owners)
		objects_text(b, m, &h->named);
	free(h->named.v);
	free(h->mk);
	h->named.v = NULL;
	h->mk = NULL;
	if (!r && b->oom)
		r = -ENOMEM;
	if (r || b->len == h->header) {	/* nothing stamped */
		hm_sbuf_free(b);
		return r;
	}
	out->text = b->s;
	out->len = b->len;
	return 0;
}

void hm_history_part_free(struct hm_history_part *h)
{
	free(h->named.v);
	free(h->mk);
	hm_sbuf_free(&h->b);
	*h = (struct hm_history_part){ 0 };
}

int hm_history_text(const struct hm_model *m, struct hm_file_out *out)
{
	struct hm_history_part h = { 0 };
	int r = hm_history_entries(m, &h);

	if (r) {
		hm_history_part_free(&h);
		*out = (struct hm_file_out){ HM_HISTORY_FILE, NULL, 0 };
		return r;
	}
	return hm_history_finish(m, &h, out);
}

/* ------------------------------------------------------------- reading */

struct keyed {
	char *text;
	struct hm_acl_head *e;
};

struct reader {
	struct hm_model *m;
	const char *path;
	struct hm_diag *diag;
	struct hm_domain *d;	/* the current domain, NULL: skip */
	struct keyed *keys;	/* its entries by text, sorted */
	size_t n_keys;
};

static void drop_keys(struct reader *R)
{
	for (size_t i = 0; i < R->n_keys; i++)
		free(R->keys[i].text);
	free(R->keys);
	R->keys = NULL;
	R->n_keys = 0;
}

static int cmp_keyed(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->text,
		      ((const struct keyed *)b)->text);
}

static int key_domain(struct reader *R)
{
	struct hm_acl_head *e;

	R->keys = calloc(R->d->n_acl + 1, sizeof(*R->keys));
	if (!R->keys)
		return -ENOMEM;
	for (e = R->d->acl; e; e = e->next) {
		struct keyed *k = &R->keys[R->n_keys];

		if (entry_key(R->m, e, &k->text))
			return -ENOMEM;
		k->e = e;
		R->n_keys++;
	}
	qsort(R->keys, R->n_keys, sizeof(*R->keys), cmp_keyed);
	return 0;
}

static int read_domain(struct reader *R, const char *line, size_t len)
{
	int r;

	drop_keys(R);
	r = hm_model_domain(R->m, line, len, false, &R->d);
	if (r < 0)
		return r;
	return R->d ? key_domain(R) : 0;
}

static void bad(struct reader *R, unsigned long no, const char *what)
{
	hm_diag_add(R->diag, HM_DIAG_WARNING, R->path, no, "%s; line skipped",
		    what);
}

static void read_entry(struct reader *R, char *line, unsigned long no)
{
	struct hm_acl_hist h;
	struct keyed key, *k;
	long long a, b, d;
	unsigned long long c;
	int used = 0;

	if (sscanf(line, "%lld %lld %llu %lld %n", &a, &b, &c, &d, &used) != 4 ||
	    !used || a < 0 || b < 0 || d < 0) {
		bad(R, no, "expected LEARNED GROWN USES USED ENTRY");
		return;
	}
	if (!R->d)
		return;		/* a domain the policy no longer has */
	h = (struct hm_acl_hist){ a, b, c, d };
	key.text = line + used;
	k = bsearch(&key, R->keys, R->n_keys, sizeof(*R->keys), cmp_keyed);
	if (k)
		hm_acl_hist_keep(&k->e->hist, &h);
}

/* "package NAME VERSION": the program's package when learned. */
static int read_package(struct reader *R, char *s, unsigned long no)
{
	char *sp = strchr(s, ' ');

	if (!sp || sp == s || !sp[1] || strchr(sp + 1, ' ')) {
		bad(R, no, "expected package NAME VERSION");
		return 0;
	}
	if (!R->d)
		return 0;
	if (hm_model_intern(R->m, s, (size_t)(sp - s), &R->d->package) < 0 ||
	    hm_model_intern(R->m, sp + 1, strlen(sp + 1),
			    &R->d->package_version) < 0)
		return -ENOMEM;
	return 0;
}

/* "object PACKAGE VERSION FILE": a file no entry names any more (it
 * was never interned) is skipped. */
static int read_object(struct reader *R, char *s, unsigned long no)
{
	char *sp1 = strchr(s, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	const struct hm_name *path, *pkg, *ver;

	if (!sp1 || sp1 == s || !sp2 || sp2 == sp1 + 1 || sp2[1] != '/' ||
	    strchr(sp2 + 1, ' ')) {
		bad(R, no, "expected object PACKAGE VERSION FILE");
		return 0;
	}
	path = hm_name_lookup(R->m->names, sp2 + 1, strlen(sp2 + 1));
	if (!path)
		return 0;
	if (hm_model_intern(R->m, s, (size_t)(sp1 - s), &pkg) < 0 ||
	    hm_model_intern(R->m, sp1 + 1, (size_t)(sp2 - sp1 - 1), &ver) < 0)
		return -ENOMEM;
	return hm_owner_set(R->m, path, pkg, ver);
}

static int read_line(struct reader *R, char *line, size_t len,
		     unsigned long no)
{
	unsigned long long q;
	int used = 0;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return 0;
	if (line[0] == '<')
		return read_domain(R, line, len);
	if (!strncmp(line, "package ", 8))
		return read_package(R, line + 8, no);
	if (!strncmp(line, "object ", 7))
		return read_object(R, line + 7, no);
	if (!strncmp(line, "quiet ", 6)) {
		if (sscanf(line + 6, "%llu%n", &q, &used) != 1 ||
		    line[6 + used])
			bad(R, no, "expected quiet N");
		else if (R->d)
			R->d->quiet_events = q;
		return 0;
	}
	read_entry(R, line, no);
	return 0;
}

int hm_side_open(const char *dir, const char *name, char **path, FILE **f)
{
	int e;

	*f = NULL;
	if (asprintf(path, "%s/%s", dir, name) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	*f = fopen(*path, "re");
	if (*f || errno == ENOENT)
		return 0;
	e = errno;
	free(*path);
	*path = NULL;
	return -e;
}

/* Lines are read as the policy's are (hm_lines): at most HM_MAX_LINE
 * bytes kept, so a hostile file costs no more memory than a policy. */
int hm_history_read(struct hm_model *m, const char *dir, struct hm_diag *diag)
{
	struct reader R = { .m = m, .diag = diag };
	struct hm_lines l;
	char *path = NULL;
	FILE *f;
	int r = hm_side_open(dir, HM_HISTORY_FILE, &path, &f);

	if (r || !f) {
		free(path);
		return r;
	}
	R.path = path;
	r = hm_lines_open(&l, f, NULL, 0);
	while (!r && (r = hm_lines_next(&l)) > 0) {
		r = 0;
		if (l.too_long)
			hm_diag_add(diag, HM_DIAG_WARNING, path, l.lineno,
				    "line longer than %d bytes; line skipped",
				    HM_MAX_LINE);
		else if (l.has_nul)
			bad(&R, l.lineno, "NUL byte");
		else
			r = read_line(&R, l.line, l.n, l.lineno);
	}
	hm_lines_close(&l);
	drop_keys(&R);
	fclose(f);
	free(path);
	return r;
}
