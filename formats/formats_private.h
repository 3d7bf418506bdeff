/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * formats_private.h - what the policy formats (TOMOYO text, XML, JSON, the
 * check report) and the exporters that draw or report share, and nobody
 * else sees: profile and flag names, kind ids, operation keywords.
 */
#ifndef HISTMAC_FORMATS_PRIVATE_H
#define HISTMAC_FORMATS_PRIVATE_H

#include <stdio.h>

#include "histmac/check_result.h"
#include "histmac/export_format.h"
#include "histmac/sbuf.h"

/* ----------------------------------------------------------- summaries */

/** hm_profile_name() - "disabled", "learning", ... or "profile N". */
const char *hm_profile_name(unsigned profile, char *buf, size_t bufsz);

/**
 * hm_domain_flag_names() - append @flags as words separated by @sep
 * ("history-unobserved", "parent-unobserved", ...).
 * Returns: the number of words appended.
 */
int hm_domain_flag_names(struct hm_sbuf *b, unsigned flags, const char *sep);

/** hm_export_default_opts - all zero; for a NULL @o. */
extern const struct hm_export_opts hm_export_default_opts;

/** hm_export_flush() - fflush @f; 0 or -EIO when it or any write failed. */
int hm_export_flush(FILE *f);

/* ------------------------------------------------------- typed entries */

/* Kind and operand ids come from the kind table (hm_kinds[], model.h). */
extern const char *const hm_radix_names[3];
extern const char *const hm_cond_var_names[HM_COND_VAR_MAX];
extern const char *const hm_domain_flag_ids[8];

/** hm_acl_has_perm() - does @kind carry operation bits (not signal/env)? */
bool hm_acl_has_perm(unsigned kind);

/**
 * hm_acl_op_name() - the keyword of bit @op of an entry of @kind, or NULL
 * when that bit means nothing for the kind.
 */
const char *hm_acl_op_name(unsigned kind, unsigned op);

/**
 * hm_addr_format() - @a's min or max (@which 0/1) as text (inet_ntop).
 * @buf: at least 64 bytes.
 */
const char *hm_addr_format(const struct hm_addr *a, int which, char *buf);

#endif /* HISTMAC_FORMATS_PRIVATE_H */
