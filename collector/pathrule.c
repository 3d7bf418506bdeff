// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pathrule.c - the path rule of a policy directory (pathrule.h): read,
 * written and compared with the rule of a run.  The file is one
 * keyword line after comments:
 *
 *	paths resolve
 *	paths no-resolve
 *	paths resolve-root /srv/images/web1
 *
 * Owns nothing beyond what it returns.  Used by learn (saves it), check
 * and enforce (read it before opening the collector).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "histmac/pathrule.h"

#define RULE_MAX	8192	/* bytes read of the file */

void hm_path_rule_of(const struct hm_collector_opts *o,
		     struct hm_path_rule *out)
{
	out->root = o->resolve_root;
	out->resolve = o->resolve_root || o->resolve != 0;
	out->owned = false;
}

void hm_path_rule_free(struct hm_path_rule *r)
{
	if (r && r->owned)
		free((char *)r->root);
	if (r) {
		r->root = NULL;
		r->owned = false;
	}
}

const char *hm_path_rule_name(const struct hm_path_rule *r, char *buf,
			      size_t n)
{
	if (r->root)
		snprintf(buf, n, "resolve-root %s", r->root);
	else
		snprintf(buf, n, "%s", r->resolve ? "resolve" : "no-resolve");
	return buf;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* One line: 1 a rule, 0 blank or comment, -EINVAL something else. */
static int parse_line(char *s, struct hm_path_rule *out)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	if (!n || s[0] == '#')
		return 0;
	if (!strcmp(s, "paths resolve") || !strcmp(s, "paths no-resolve")) {
		out->resolve = s[6] == 'r';
		return 1;
	}
	if (!strncmp(s, "paths resolve-root /", 20)) {
		out->root = strdup(s + 19);
		if (!out->root)
			return -ENOMEM;
		out->owned = true;
		out->resolve = true;
		return 1;
	}
	return -EINVAL;
}

int hm_path_rule_load(const char *dir, struct hm_path_rule *out,
		      struct hm_diag *d)
{
	struct hm_path_rule r = { 0 };
	char *path = join(dir, HM_PATH_RULE_FILE);
	char line[RULE_MAX];
	unsigned long no = 0;
	int found = 0;
	FILE *f;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		int e = -errno;

		free(path);
		return e;
	}
	while (fgets(line, sizeof(line), f)) {
		int rc;

		no++;
		rc = found ? (line[0] == '#' || line[0] == '\n' ? 0 : -EINVAL)
			   : parse_line(line, &r);
		if (rc < 0) {
			hm_diag_add(d, HM_DIAG_ERROR, path, no,
				    "not a path rule (paths resolve, paths "
				    "no-resolve, paths resolve-root DIR)");
			hm_path_rule_free(&r);
			found = rc;
			break;
		}
		found |= rc;
	}
	fclose(f);
	free(path);
	if (!found)
		hm_diag_add(d, HM_DIAG_ERROR, dir, 0, "%s names no path rule",
			    HM_PATH_RULE_FILE);
	if (found <= 0)
		return found < 0 ? found : -EINVAL;
	*out = r;
	return 0;
}

int hm_path_rule_text(const struct hm_path_rule *r, struct hm_file_out *out)
{
	char name[RULE_MAX];
	char *text = NULL;
	int n = asprintf(&text,
			 "# histmac: how the object paths of this policy are "
			 "named (symlinks\n"
			 "# resolved or not); histmac check and enforce read "
			 "it.\n"
			 "paths %s\n", hm_path_rule_name(r, name, sizeof(name)));

	if (n < 0)
		return -ENOMEM;
	*out = (struct hm_file_out){ HM_PATH_RULE_FILE, text, (size_t)n };
	return 0;
}

static bool same(const struct hm_path_rule *a, const struct hm_path_rule *b)
{
	if (a->resolve != b->resolve || !a->root != !b->root)
		return false;
	return !a->root || !strcmp(a->root, b->root);
}

int hm_path_rule_apply(const char *dir, struct hm_collector_opts *o,
		       struct hm_path_rule *policy, struct hm_diag *d)
{
	struct hm_path_rule run;
	char a[256], b[256];
	bool chosen = o->resolve >= 0 || o->resolve_root;
	int rc;

	*policy = (struct hm_path_rule){ 0 };
	hm_path_rule_of(o, &run);
	rc = hm_path_rule_load(dir, policy, d);
	if (rc == -ENOENT)
		return 0;	/* learned by an older histmac: no word */
	if (rc < 0)
		return rc;
	if (!chosen) {
		o->resolve = policy->resolve;
		o->resolve_root = policy->root;
		return 0;
	}
	if (!same(&run, policy))
		hm_diag_add(d, HM_DIAG_WARNING, dir, 0,
			    "the policy was learned with the path rule %s, "
			    "this run uses %s: paths through symlinks will "
			    "not match", hm_path_rule_name(policy, a, sizeof(a)),
			    hm_path_rule_name(&run, b, sizeof(b)));
	return 0;
}
