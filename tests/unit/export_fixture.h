/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_fixture.h - models for the exporter tests (test_export_*.c):
 * built in code (domains, paths) or parsed from TOMOYO 2.6 text, and a
 * helper that runs an exporter into memory.  Included by each test; all
 * static.
 */
#ifndef HISTMAC_TESTS_EXPORT_FIXTURE_H
#define HISTMAC_TESTS_EXPORT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/exporter.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"

/* The chain of the 2007 posting, one domain per program. */
static const char *const fx_posting[] = {
	"<kernel>",
	"<kernel> /sbin/init",
	"<kernel> /sbin/init /etc/init.d/rc",
	"<kernel> /sbin/init /etc/init.d/rc /etc/init.d/apache2",
	"<kernel> /sbin/init /etc/init.d/rc /etc/init.d/apache2 /usr/bin/env",
	"<kernel> /sbin/init /etc/init.d/rc /etc/init.d/apache2 /usr/bin/env "
	"/usr/sbin/apache2ctl",
	"<kernel> /sbin/init /etc/init.d/rc /etc/init.d/apache2 /usr/bin/env "
	"/usr/sbin/apache2ctl /usr/sbin/apache2",
	NULL,
};

static inline struct hm_domain *fx_domain(struct hm_model *m,
					  const char *name, unsigned profile,
					  unsigned flags)
{
	struct hm_domain *d = NULL;

	assert_true(hm_model_domain(m, name, strlen(name), true, &d) >= 0);
	assert_non_null(d);
	d->profile = (uint8_t)profile;
	d->flags = (uint8_t)flags;
	return d;
}

static inline void fx_path(struct hm_model *m, struct hm_domain *d,
			   unsigned op, const char *path)
{
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << op } };

	assert_int_equal(hm_model_intern(m, path, strlen(path), &e.name.name),
			 0);
	assert_true(hm_domain_add(m, d, &e.head, NULL) >= 0);
}

/* A model holding the domains @names (NULL-terminated), learning. */
static inline struct hm_model *fx_model(const char *const *names)
{
	struct hm_model *m = hm_model_new();

	assert_non_null(m);
	for (size_t i = 0; names && names[i]; i++)
		fx_domain(m, names[i], HM_PROFILE_LEARNING, 0);
	hm_model_relink(m);
	return m;
}

static inline void fx_print_diag(const struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		fprintf(stderr, "  %s\n", s ? s : "?");
		free(s);
	}
}

/* A model parsed from TOMOYO exception and domain policy text. */
static inline struct hm_model *fx_parse_dialect(const char *exc,
						const char *dom,
						enum hm_dialect dialect)
{
	struct hm_model *m = hm_model_new();
	struct hm_diag d = { 0 };
	int r = 0;

	assert_non_null(m);
	if (exc)
		r = hm_policy_parse_exception(m, exc, strlen(exc), dialect,
					      "exc", &d);
	if (!r && dom)
		r = hm_policy_parse_domain(m, dom, strlen(dom), dialect, "dom",
					   &d);
	if (r)
		fx_print_diag(&d);
	assert_int_equal(r, 0);
	hm_diag_free(&d);
	hm_model_relink(m);
	return m;
}

/* fx_parse_dialect() in TOMOYO 2.6. */
static inline struct hm_model *fx_parse(const char *exc, const char *dom)
{
	return fx_parse_dialect(exc, dom, HM_DIALECT_26);
}

/* Run exporter @e on @m; returns the output (caller frees) or NULL with
 * *@err set. */
static inline char *fx_export(const struct hm_exporter *e,
			      const struct hm_model *m,
			      const struct hm_export_opts *o, size_t *len,
			      int *err)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int r;

	assert_non_null(f);
	r = e->write(m, f, o);
	assert_int_equal(fclose(f), 0);
	if (err)
		*err = r;
	if (len)
		*len = n;
	if (r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Occurrences of @needle in @hay. */
static inline size_t fx_count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#endif /* HISTMAC_TESTS_EXPORT_FIXTURE_H */
