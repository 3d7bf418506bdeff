/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sensitive.h (analyzer) - names whose access grants more than the file:
 * credentials, keys, sudo rules, root's home, another process's memory.  A
 * policy that grants one is reviewed first, and patternize never
 * generalises over one (docs/SECURITY.md "Trust of learning").
 */
#ifndef HISTMAC_SENSITIVE_H
#define HISTMAC_SENSITIVE_H

#include <stdbool.h>
#include <stddef.h>

/**
 * hm_sensitive_why() - what @name (an encoded TOMOYO word, literal or
 * patterned) is, when it matches a sensitive name: "password hashes",
 * "ssh key", ...; NULL otherwise.
 */
const char *hm_sensitive_why(const char *name);

/**
 * hm_sensitive_each() - call @fn with a literal example of every
 * sensitive name ("/etc/shadow", "/home/user/.ssh/id_rsa"), so that a
 * pattern can be tried against them; stops at a non-zero return.
 * Returns: what @fn returned last.
 */
int hm_sensitive_each(int (*fn)(const char *example, const char *why,
				void *arg), void *arg);

struct hm_model;
struct hm_domain;
struct hm_acl_head;

/**
 * hm_sensitive_entries() - call @fn for every entry of @m that names a
 * sensitive name (literal, or a pattern covering one), in the model's
 * domain and entry order, with what the name is; stops at a non-zero
 * return of @fn.
 * Returns: what @fn returned last, 0 when it was never called.
 */
int hm_sensitive_entries(const struct hm_model *m,
			 int (*fn)(const struct hm_domain *d,
				   const struct hm_acl_head *e,
				   const char *why, void *arg),
			 void *arg);

/** hm_sensitive_count() - how many entries of @m hm_sensitive_entries()
 * would call back for. */
size_t hm_sensitive_count(const struct hm_model *m);

#endif /* HISTMAC_SENSITIVE_H */
