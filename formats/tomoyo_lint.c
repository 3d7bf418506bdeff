// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_lint.c - `histmac policy check`'s second look at a policy
 * directory: the open and exec entries whose conditions the enforcer
 * cannot evaluate (hm_acl_unevaluable()), and the "file append" entries
 * it will not let an append open of an ordinary file through
 * (hm_append_write_missing()), by FILE:LINE.  Each ACL line is
 * parsed again into a domain of its own, so that the entry is that
 * line's alone (the loaded model merged it with its neighbours).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/append.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"
#include "tomoyo_private.h"

/* @e, parsed from line @no, in @real (the domain or acl_group the line
 * is in, NULL if not found): what the enforcer will not do as it says. */
static void lint_entry(const struct hm_model *m, const struct hm_domain *real,
		       const struct hm_acl_head *e, const char *file,
		       unsigned long no, struct hm_diag *d)
{
	const struct hm_cond_item *it = hm_acl_unevaluable(e);

	if (it)
		hm_diag_add(d, HM_DIAG_WARNING, file, no,
			    "histmac enforce cannot evaluate '%s' here: it "
			    "denies what only this entry would grant",
			    it->text ? it->text->str : "?");
	if (real && hm_append_write_missing(m, real, e))
		hm_diag_add(d, HM_DIAG_WARNING, file, no,
			    "histmac enforce asks 'file write' for an O_APPEND "
			    "open of a file that is not append-only: add "
			    "'file write %s' (histmac learn adds both), or "
			    "chattr +a the file",
			    ((const struct hm_acl_path *)(const void *)e)
				    ->name.name->str);
}

static void lint_line(struct hm_model *m, const struct hm_domain *real,
		      const char *file, unsigned long no, const char *line,
		      size_t len, struct hm_diag *d)
{
	char name[64];
	struct hm_domain *dom;
	int n = snprintf(name, sizeof(name), "<kernel> /histmac-lint/%lu", no);

	/* a line that is no ACL (use_profile, a comment) fails quietly:
	 * the loader has said what is wrong with it */
	if (hm_model_domain(m, name, (size_t)n, true, &dom) < 0 ||
	    hm_acl_parse_line(m, dom, line, len, m->dialect, file, no,
			      NULL) <= 0)
		return;
	for (const struct hm_acl_head *e = dom->acl; e; e = e->next)
		lint_entry(m, real, e, file, no, d);
}

/*
 * The ACL text of a line: "acl_group N ACL" in the exception policy, a
 * line that is no domain name in the domain policy; else NULL.  *@real:
 * the domain (a header line) or acl_group (N) of @m it is in, kept
 * across lines; NULL when @m has none.
 */
static const char *acl_text(struct hm_model *m, const char *s, size_t len,
			    bool exception, struct hm_domain **real)
{
	unsigned long g;
	char *end;

	if (!exception) {
		if (*s == '<' && hm_model_domain(m, s, len, false, real) < 0)
			*real = NULL;
		return *s == '<' || *s == '#' ? NULL : s;
	}
	if (strncmp(s, "acl_group ", 10))
		return NULL;
	g = strtoul(s + 10, &end, 10);
	*real = g < 256 ? m->ex.acl_groups[g] : NULL;
	return end > s + 10 && *end == ' ' ? end + 1 : NULL;
}

static int lint_file(struct hm_model *m, const char *dir, const char *file,
		     bool exception, struct hm_diag *d)
{
	struct hm_domain *real = NULL;
	struct hm_lines l;
	char *path;
	FILE *f;
	int r;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		free(path);
		return 0;	/* missing: nothing in it */
	}
	r = hm_lines_open(&l, f, NULL, 0);
	while (!r && (r = hm_lines_next(&l)) == 1) {
		const char *acl;

		r = 0;
		if (l.too_long || l.has_nul)
			continue;
		while (l.n && l.line[l.n - 1] == '\r')
			l.line[--l.n] = '\0';
		acl = l.n ? acl_text(m, l.line, l.n, exception, &real) : NULL;
		if (acl && *acl)
			lint_line(m, real, path, l.lineno, acl,
				  l.n - (size_t)(acl - l.line), d);
	}
	hm_lines_close(&l);
	fclose(f);
	free(path);
	return r < 0 ? r : 0;
}

int hm_policy_lint_enforce(struct hm_model *m, const char *dir,
			   struct hm_diag *diag)
{
	int r = lint_file(m, dir, "domain_policy.conf", false, diag);

	return r ? r : lint_file(m, dir, "exception_policy.conf", true, diag);
}
