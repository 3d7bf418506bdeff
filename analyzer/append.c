// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * append.c - one meaning for an O_APPEND open (append.h): asked as
 * "file write" unless the file is append-only, learned as that and
 * "file append".
 */
#include "histmac/append.h"

unsigned hm_append_asks(bool append_only)
{
	return append_only ? HM_FILE_APPEND : HM_FILE_WRITE;
}

uint32_t hm_append_learns(bool append_only)
{
	return 1u << hm_append_asks(append_only) | 1u << HM_FILE_APPEND;
}

/* Does an entry of @d's own list grant "file write" on @name? */
static bool writes(const struct hm_domain *d, const struct hm_name *name,
		   const struct hm_cond *cond)
{
	for (const struct hm_acl_head *x = d->acl; x; x = x->next) {
		const struct hm_acl_path *p = (const void *)x;	/* head 1st */

		if (x->kind == HM_ACL_PATH &&
		    (x->perm & 1u << HM_FILE_WRITE) &&
		    (!x->cond || x->cond == cond) && p->name.name &&
		    hm_word_matches(p->name.name, name))
			return true;
	}
	return false;
}

bool hm_append_write_missing(const struct hm_model *m,
			     const struct hm_domain *d,
			     const struct hm_acl_head *e)
{
	const struct hm_acl_path *p = (const void *)e;

	if (e->kind != HM_ACL_PATH || !(e->perm & 1u << HM_FILE_APPEND) ||
	    (e->perm & 1u << HM_FILE_WRITE) || !p->name.name)
		return false;	/* (a path_group: its members may differ) */
	if (writes(d, p->name.name, e->cond))
		return false;
	for (unsigned g = 0; g < 256; g++)
		if ((d->groups[g / 8] & (1u << (g % 8))) &&
		    m->ex.acl_groups[g] &&
		    writes(m->ex.acl_groups[g], p->name.name, e->cond))
			return false;
	return true;
}
