// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_lint.c - `histmac policy check`'s second look at a policy
 * directory: the open and exec entries whose conditions the enforcer
 * cannot evaluate (hm_acl_unevaluable()), by FILE:LINE.  Each ACL line is
 * parsed again into a domain of its own, so that the entry is that
 * line's alone (the loaded model merged it with its neighbours).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/model.h"
#include "histmac/policy_io.h"
#include "tomoyo_private.h"

static void lint_line(struct hm_model *m, const char *file, unsigned long no,
		      const char *line, size_t len, struct hm_diag *d)
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
	for (const struct hm_acl_head *e = dom->acl; e; e = e->next) {
		const struct hm_cond_item *it = hm_acl_unevaluable(e);

		if (it)
			hm_diag_add(d, HM_DIAG_WARNING, file, no,
				    "histmac enforce cannot evaluate '%s' "
				    "here: it denies what only this entry "
				    "would grant",
				    it->text ? it->text->str : "?");
	}
}

/* The ACL text of a line: "acl_group N ACL" in the exception policy, a
 * line that is no domain name in the domain policy; else NULL. */
static const char *acl_text(const char *s, bool exception)
{
	char *end;

	if (!exception)
		return *s == '<' || *s == '#' ? NULL : s;
	if (strncmp(s, "acl_group ", 10))
		return NULL;
	strtoul(s + 10, &end, 10);
	return end > s + 10 && *end == ' ' ? end + 1 : NULL;
}

static int lint_file(struct hm_model *m, const char *dir, const char *file,
		     bool exception, struct hm_diag *d)
{
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
		acl = l.n ? acl_text(l.line, exception) : NULL;
		if (acl && *acl)
			lint_line(m, path, l.lineno, acl,
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
