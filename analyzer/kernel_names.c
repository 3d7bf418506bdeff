// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel_names.c - the TOMOYO name of a path the kernel showed the
 * enforcer or the sandbox, and the name a domain's execute entries call
 * a program by (kernel_names.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/kernel_names.h"
#include "histmac/naming.h"
#include "histmac/word.h"

#define DELETED " (deleted)"

/* ---------------------------------------------------------------- names */

long hm_enf_path_name(const char *raw, size_t len, int64_t pid, bool is_dir,
		      bool deleted, char **out)
{
	struct hm_sbuf b = { 0 };
	size_t enc, n = len;
	char *s;

	if (!len || raw[0] != '/')
		return -EINVAL;
	if (deleted && n > strlen(DELETED) &&
	    !memcmp(raw + n - strlen(DELETED), DELETED, strlen(DELETED)))
		n -= strlen(DELETED);
	/* the learner's naming (lib/naming.c), on this host's mounts */
	if (hm_object_name(hm_fs_table_host(), raw, n, pid, is_dir, &b) < 0)
		return -ENOMEM;
	enc = hm_encode_len(b.s, b.len);
	if (enc + 1 > HM_MAX_WORD) {
		hm_sbuf_free(&b);
		return -ENAMETOOLONG;
	}
	s = malloc(enc + 1);
	if (!s) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	enc = hm_encode(s, b.s, b.len);
	s[enc] = '\0';
	hm_sbuf_free(&b);
	*out = s;
	return (long)enc;
}

static bool same_name(const struct hm_name *a, const struct hm_name *b)
{
	return a == b || (a->len == b->len && !memcmp(a->str, b->str, a->len));
}

const struct hm_name *hm_enf_exec_known(const struct hm_domain *d,
					const struct hm_name *real)
{
	for (const struct hm_acl_head *e = d ? d->acl : NULL; e; e = e->next) {
		const struct hm_name *lit = hm_acl_literal_name(e);

		if (!lit || !(e->perm & (1u << HM_FILE_EXECUTE)))
			continue;
		if (same_name(lit, real))
			return lit;
		for (uint32_t i = 0; e->cond && i < e->cond->n_items; i++) {
			const struct hm_cond_item *it = &e->cond->items[i];

			if (it->var == HM_COND_EXEC_REALPATH && !it->negate &&
			    it->str && same_name(it->str, real))
				return lit;
		}
	}
	return NULL;
}
