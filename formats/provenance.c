// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * provenance.c - the (entry, host) pairs of merged policies, and their
 * file POLICYDIR/provenance.conf.  It owns the pairs and the host names;
 * the model is only read (entries are turned into text, one permission
 * each, so that pairs from different models compare).  Sorting and
 * removing duplicates happen when the entries are asked for, which makes
 * every way of combining the same pairs give the same result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/sbuf.h"

#define MAX_PROV_LINE (1u << 24)

struct pair {
	char *key;		/* domain '\0' entry '\0' */
	unsigned host;		/* index in hosts[] */
};

struct hm_provenance {
	struct pair *pairs;
	size_t n_pairs, cap_pairs;
	char **hosts;		/* unique, in the order first seen */
	size_t n_hosts, cap_hosts;
	struct hm_prov_entry *entries;
	const char **entry_hosts;
	size_t n_entries;
};

int hm_provenance_new(struct hm_provenance **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void drop_entries(struct hm_provenance *p)
{
	free(p->entries);
	free(p->entry_hosts);
	p->entries = NULL;
	p->entry_hosts = NULL;
	p->n_entries = 0;
}

void hm_provenance_free(struct hm_provenance *p)
{
	if (!p)
		return;
	drop_entries(p);
	for (size_t i = 0; i < p->n_pairs; i++)
		free(p->pairs[i].key);
	for (size_t i = 0; i < p->n_hosts; i++)
		free(p->hosts[i]);
	free(p->pairs);
	free(p->hosts);
	free(p);
}

bool hm_host_name_ok(const char *host)
{
	size_t n = strspn(host, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");

	return n && n <= 255 && !host[n] && strcmp(host, ".") &&
		strcmp(host, "..");
}

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 64;
	void *nv;

	if (n < *cap)
		return 0;
	nv = reallocarray(*v, c, size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

/* The index of host @name, added when new. */
static int host_index(struct hm_provenance *p, const char *name, size_t len,
		      unsigned *out)
{
	for (size_t i = 0; i < p->n_hosts; i++)
		if (strlen(p->hosts[i]) == len && !memcmp(p->hosts[i], name, len)) {
			*out = (unsigned)i;
			return 0;
		}
	if (p->n_hosts >= HM_MAX_HOSTS)
		return -EINVAL;
	if (grow((void **)&p->hosts, &p->cap_hosts, p->n_hosts, sizeof(char *)))
		return -ENOMEM;
	p->hosts[p->n_hosts] = strndup(name, len);
	if (!p->hosts[p->n_hosts])
		return -ENOMEM;
	if (!hm_host_name_ok(p->hosts[p->n_hosts])) {
		free(p->hosts[p->n_hosts]);
		return -EINVAL;
	}
	*out = (unsigned)p->n_hosts++;
	return 0;
}

static int add_pair(struct hm_provenance *p, const char *domain, size_t dlen,
		    const char *entry, size_t elen, unsigned host)
{
	char *key;

	drop_entries(p);
	if (grow((void **)&p->pairs, &p->cap_pairs, p->n_pairs,
		 sizeof(struct pair)))
		return -ENOMEM;
	key = malloc(dlen + elen + 2);
	if (!key)
		return -ENOMEM;
	memcpy(key, domain, dlen);
	key[dlen] = '\0';
	memcpy(key + dlen + 1, entry, elen);
	key[dlen + 1 + elen] = '\0';
	p->pairs[p->n_pairs++] = (struct pair){ key, host };
	return 0;
}

/* One permission of @e as one line of text: tabs and newlines as spaces. */
static int entry_text(const struct hm_model *m, const struct hm_acl_head *e,
		      uint32_t perm, char **out)
{
	union hm_acl_any u;
	int r;

	memcpy(&u, e, hm_acl_size(e->kind));
	u.head.perm = perm;
	r = hm_acl_format(m, &u.head, HM_DIALECT_26, out, NULL);
	for (char *s = r ? NULL : *out; s && *s; s++)
		if (*s == '\t' || *s == '\n')
			*s = ' ';
	return r;
}

static int add_entry(struct hm_provenance *p, const struct hm_model *m,
		     const struct hm_domain *d, const struct hm_acl_head *e,
		     unsigned host)
{
	uint32_t left = e->perm ? e->perm : 0;
	int r = 0;

	do {
		uint32_t bit = left & -left;	/* lowest; 0 for no bits */
		char *text;

		left &= ~bit;
		r = entry_text(m, e, e->perm ? bit : 0, &text);
		if (!r) {
			r = add_pair(p, d->name->str, d->name->len, text,
				     strlen(text), host);
			free(text);
		}
	} while (left && !r);
	return r;
}

int hm_provenance_add_model(struct hm_provenance *p, const struct hm_model *m,
			    const char *host)
{
	struct hm_domain **ds;
	unsigned h;
	int r;

	if (!hm_host_name_ok(host))
		return -EINVAL;
	r = host_index(p, host, strlen(host), &h);
	if (r)
		return r;
	ds = hm_model_sorted_domains(m);
	if (!ds && m->n_domains)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_domains && !r; i++) {
		if (ds[i]->group_no >= 0)
			continue;
		for (const struct hm_acl_head *e = ds[i]->acl; e && !r; e = e->next)
			r = add_entry(p, m, ds[i], e, h);
	}
	free(ds);
	return r;
}

/* By domain, then entry (the key's two strings). */
static int cmp_key(const struct pair *x, const struct pair *y)
{
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->key + strlen(x->key) + 1,
			      y->key + strlen(y->key) + 1);
}

static int cmp_pair(const void *a, const void *b, void *arg)
{
	const struct pair *x = a, *y = b;
	char **hosts = arg;
	int c = cmp_key(x, y);

	return c ? c : strcmp(hosts[x->host], hosts[y->host]);
}

const struct hm_prov_entry *hm_provenance_entries(struct hm_provenance *p,
						  size_t *n, size_t *n_hosts)
{
	size_t w = 0;

	*n_hosts = p->n_hosts;
	*n = p->n_entries;
	if (p->entries || !p->n_pairs)
		return p->entries;
	qsort_r(p->pairs, p->n_pairs, sizeof(*p->pairs), cmp_pair, p->hosts);
	for (size_t i = 0; i < p->n_pairs; i++) {
		if (w && !cmp_pair(&p->pairs[w - 1], &p->pairs[i], p->hosts))
			free(p->pairs[i].key);
		else
			p->pairs[w++] = p->pairs[i];
	}
	p->n_pairs = w;
	p->entries = calloc(w, sizeof(*p->entries));
	p->entry_hosts = calloc(w, sizeof(*p->entry_hosts));
	if (!p->entries || !p->entry_hosts) {
		drop_entries(p);
		return NULL;
	}
	for (size_t i = 0; i < w; i++) {
		struct hm_prov_entry *e = &p->entries[p->n_entries];

		p->entry_hosts[i] = p->hosts[p->pairs[i].host];
		if (i && !cmp_key(&p->pairs[i - 1], &p->pairs[i])) {
			e[-1].n_hosts++;
			continue;
		}
		e->domain = p->pairs[i].key;
		e->entry = e->domain + strlen(e->domain) + 1;
		e->n_hosts = 1;
		e->hosts = &p->entry_hosts[i];
		p->n_entries++;
	}
	*n = p->n_entries;
	return p->entries;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int hm_provenance_text(struct hm_provenance *p, struct hm_file_out *out)
{
	const struct hm_prov_entry *e;
	struct hm_sbuf b = { 0 };
	char **hosts = NULL;
	size_t n, n_hosts;
	int r = -ENOMEM;

	e = hm_provenance_entries(p, &n, &n_hosts);
	if (!e && p->n_pairs)
		return -ENOMEM;
	hosts = malloc((n_hosts + 1) * sizeof(*hosts));
	if (!hosts)
		goto out;
	memcpy(hosts, p->hosts, n_hosts * sizeof(*hosts));
	qsort(hosts, n_hosts, sizeof(*hosts), cmp_str);
	hm_sbuf_adds(&b,
"# provenance.conf - written by histmac merge; read by histmac stats and\n"
"# report, not by TOMOYO.  Per permission of each domain's entries: how\n"
"# many of the merged hosts had it, the domain, the entry and the hosts,\n"
"# separated by tabs.\n"
"hosts\t");
	for (size_t i = 0; i < n_hosts; i++)
		hm_sbuf_printf(&b, "%s%s", i ? " " : "", hosts[i]);
	hm_sbuf_addc(&b, '\n');
	for (size_t i = 0; i < n; i++) {
		hm_sbuf_printf(&b, "%zu\t%s\t%s\t", e[i].n_hosts, e[i].domain,
			       e[i].entry);
		for (size_t j = 0; j < e[i].n_hosts; j++)
			hm_sbuf_printf(&b, "%s%s", j ? "," : "", e[i].hosts[j]);
		hm_sbuf_addc(&b, '\n');
	}
	if (!b.oom) {
		*out = (struct hm_file_out){ HM_PROVENANCE_FILE, b.s, b.len };
		b.s = NULL;
		r = 0;
	}
out:
	hm_sbuf_free(&b);
	free(hosts);
	return r;
}

/* "hosts\tA B C": every merged host, also those that had no entry. */
static int read_hosts(struct hm_provenance *p, char *s)
{
	unsigned h;
	int r = 0;

	for (char *t = strtok(s, " "); t && !r; t = strtok(NULL, " "))
		r = host_index(p, t, strlen(t), &h);
	return r;
}

/* "N\tDOMAIN\tENTRY\tHOST,HOST..." */
static int read_entry(struct hm_provenance *p, char *s, const char **why)
{
	char *f[4], *save = NULL;
	unsigned long n, got = 0;
	char *end;
	int r = 0;

	for (int i = 0; i < 4; i++) {
		f[i] = strsep(&s, "\t");
		if (!f[i] || !*f[i]) {
			*why = "expected COUNT, DOMAIN, ENTRY and HOSTS";
			return -EINVAL;
		}
	}
	n = strtoul(f[0], &end, 10);
	if (*end || s || f[1][0] != '<') {
		*why = s ? "too many fields" : *end ? "bad count" :
			"a domain starts with '<'";
		return -EINVAL;
	}
	/* check the whole line before adding any of it */
	for (char *h = f[3]; h; got++) {
		char *c = strchr(h, ',');

		if (c)
			*c = '\0';
		if (!hm_host_name_ok(h)) {
			*why = "bad host name";
			return -EINVAL;
		}
		if (c)
			*c = ',';
		h = c ? c + 1 : NULL;
	}
	if (got != n) {
		*why = "count is not the number of hosts";
		return -EINVAL;
	}
	for (char *h = strtok_r(f[3], ",", &save); h && !r;
	     h = strtok_r(NULL, ",", &save)) {
		unsigned i;

		r = host_index(p, h, strlen(h), &i);
		if (!r)
			r = add_pair(p, f[1], strlen(f[1]), f[2], strlen(f[2]), i);
	}
	if (r == -EINVAL)
		*why = "too many hosts";
	return r;
}

int hm_provenance_read(struct hm_provenance *p, const char *path,
		       struct hm_diag *diag)
{
	FILE *f = fopen(path, "re");
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int r = 0;

	if (!f)
		return -errno;
	while (r != -ENOMEM && (len = getline(&line, &cap, f)) >= 0) {
		const char *why = NULL;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len > MAX_PROV_LINE || strlen(line) != (size_t)len)
			why = "line too long or holds a NUL byte";
		else if (!*line || *line == '#')
			continue;
		else if (!strncmp(line, "hosts\t", 6))
			r = read_hosts(p, line + 6);
		else
			r = read_entry(p, line, &why);
		if (r == -EINVAL && !why)
			why = "bad host name";
		if (why)
			hm_diag_add(diag, HM_DIAG_ERROR, path, lineno, "%s", why);
		if (r == -EINVAL)
			r = 0;
	}
	if (!r && ferror(f))
		r = -EIO;
	free(line);
	fclose(f);
	return r;
}
