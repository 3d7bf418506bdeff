// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * landlock.c - Landlock's audit records (kernel ABI 7): what the kernel
 * denied a sandboxed process (histmac sandbox, docs/SANDBOX.md).
 *
 *   type 1423 LANDLOCK_ACCESS  domain=HEX blockers=fs.read_file,... OBJECT
 *   type 1424 LANDLOCK_DOMAIN  domain=HEX status=allocated|deallocated ...
 *
 * libaudit 3.0.9 names neither (UNKNOWN[1423]), so they are read by
 * number and from the record text.  An ACCESS record shares its event
 * with the SYSCALL and PATH/SOCKADDR records of the denied call, so the
 * event keeps its kind and its objects; the blockers are added to it.
 * Owns nothing; strings go to the caller's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The value of " KEY=" in @text (unquoted words only), or NULL. */
static const char *word(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *p = text; (p = strstr(p, key)); p += klen) {
		if (p != text && p[-1] != ' ')
			continue;
		p += klen;
		*len = strcspn(p, " \n");
		return p;
	}
	return NULL;
}

/* Append @s to @b as a ','-separated list in @a. */
static void append(struct hm_arena *a, struct hm_bytes *b, const char *s,
		   size_t len)
{
	size_t old = b->s ? b->len + 1 : 0;
	char *n = hm_arena_alloc(a, old + len + 1);

	if (!n)
		return;
	if (old) {
		memcpy(n, b->s, b->len);
		n[b->len] = ',';
	}
	memcpy(n + old, s, len);
	n[old + len] = '\0';
	b->s = n;
	b->len = old + len;
}

bool hm_landlock_record(const struct hm_evread *x, int type,
			struct hm_event *ev, struct hm_arena *a)
{
	const char *text;
	const char *v;
	size_t len;

	if (type != HM_AUDIT_LANDLOCK_ACCESS && type != HM_AUDIT_LANDLOCK_DOMAIN)
		return false;
	text = hm_er_text(x);
	if (!text || !(text = strstr(text, "): ")))
		return true;
	v = word(text, "domain=", &len);
	if (v && !ev->landlock_domain)
		ev->landlock_domain = strtoull(v, NULL, 16);
	if (type == HM_AUDIT_LANDLOCK_ACCESS &&
	    (v = word(text, "blockers=", &len)) && len)
		append(a, &ev->landlock_blockers, v, len);
	return true;
}
