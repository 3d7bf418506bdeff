// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - profiles: their modes, setting them on a domain or a
 * subtree, and what a new domain inherits.  Changes only the profile and
 * group fields of the caller's model; the learner (learn.c), the tracker
 * and the enforcer's live learning ask it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/profile.h"
#include "histmac/word.h"
#include "histmac/profile.h"

const char *const hm_profile_names[HM_PROFILE_ENFORCING + 1] = {
	[HM_PROFILE_DISABLED] = "disabled",
	[HM_PROFILE_LEARNING] = "learning",
	[HM_PROFILE_PERMISSIVE] = "permissive",
	[HM_PROFILE_ENFORCING] = "enforcing",
};

enum hm_profile hm_profile_mode(uint8_t profile)
{
	return profile <= HM_PROFILE_ENFORCING ? (enum hm_profile)profile :
						 HM_PROFILE_PERMISSIVE;
}

int hm_profile_parse(const char *s, uint8_t *out)
{
	char *end;
	unsigned long v;

	for (int i = 0; i <= HM_PROFILE_ENFORCING; i++) {
		if (!strcmp(s, hm_profile_names[i]) ||
		    (s[0] == hm_profile_names[i][0] && !s[1])) {
			*out = (uint8_t)i;
			return 0;
		}
	}
	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (*end || v > 255)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

/* Is @d @top or below it ("TOP ..." at a word boundary)? */
static bool in_subtree(const struct hm_domain *d, const char *top, size_t len)
{
	return d->name && d->name->len > len && d->name->str[len] == ' ' &&
	       !memcmp(d->name->str, top, len);
}

int hm_profile_set(struct hm_model *m, const char *name, size_t len,
		   uint8_t profile, bool subtree, size_t *changed)
{
	struct hm_domain *top;
	int r;

	*changed = 0;
	if (!hm_domainname_is_valid(name, len))
		return -EINVAL;
	r = hm_model_domain(m, name, len, false, &top);
	if (r < 0)
		return r;
	if (!top)
		return -ENOENT;
	for (size_t i = 0; i < m->n_domains; i++) {
		struct hm_domain *d = m->domains[i];

		if (d != top && !(subtree && in_subtree(d, name, len)))
			continue;
		if (d->profile != profile)
			(*changed)++;
		d->profile = profile;
	}
	return 0;
}

void hm_domain_inherit(const struct hm_model *m, struct hm_domain *d)
{
	const struct hm_domain *near = d->parent;

	if (!near) {
		struct hm_name up = *d->name;
		const char *sp = memrchr(up.str, ' ', up.len);

		if (!sp)
			return;
		up.len = (uint32_t)(sp - up.str);
		near = hm_domain_nearest(m, &up);
	}
	if (!near)
		return;
	memcpy(d->groups, near->groups, sizeof(d->groups));
	if (m->inherit_profile)
		d->profile = near->profile;
}

const struct hm_domain *hm_domain_nearest(const struct hm_model *m,
				       const struct hm_name *name)
{
	size_t len;

	if (!name)
		return NULL;
	len = name->len;
	for (;;) {
		const struct hm_name *n = hm_name_lookup(m->names, name->str,
							 len);
		const struct hm_domain *d = n ? hm_model_find_domain(m, n) :
						NULL;
		const char *sp;

		if (d)
			return d;
		sp = memrchr(name->str, ' ', len);
		if (!sp)
			return NULL;
		len = (size_t)(sp - name->str);
	}
}
