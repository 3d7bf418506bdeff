/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * append.h (analyzer) - what an O_APPEND open for writing asks, the one
 * place histmac's enforcement differs from TOMOYO (docs/ENFORCE.md
 * "Append is write unless the file is append-only"): TOMOYO checks
 * "file append" and re-checks fcntl(F_SETFL) and truncate later; the
 * enforcer sees only the open, and an O_APPEND descriptor may drop the
 * flag and write anywhere, so the open asks "file write" unless the file
 * is append-only (chattr +a), where the kernel keeps O_APPEND on.  The
 * enforcer, check, learn (audit or live) and `policy check` all ask
 * these functions.
 */
#ifndef HISTMAC_APPEND_H
#define HISTMAC_APPEND_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/**
 * hm_append_asks() - the operation an O_APPEND open for writing is
 * judged by: HM_FILE_APPEND on an append-only file, else HM_FILE_WRITE.
 * The audit trail does not show FS_APPEND_FL: check and learn judge as
 * for a file that is not append-only.
 */
unsigned hm_append_asks(bool append_only);

/**
 * hm_append_learns() - what learning such an open grants (bits of enum
 * hm_file_op): what it asks, and "file append", which a TOMOYO kernel
 * asks of the same open, so the policy serves both.
 */
uint32_t hm_append_learns(bool append_only);

/**
 * hm_append_write_missing() - is @e a "file append" entry of @d (a
 * domain, or an acl_group's list) that the enforcer will not let an
 * O_APPEND open of a file that is not append-only through: it grants
 * append on a name that neither @d nor an acl_group @d uses grants
 * "file write" on (by an entry without a condition or with @e's).
 * What to add is "file write" on @e's name, or chattr +a on the file.
 */
bool hm_append_write_missing(const struct hm_model *m,
			     const struct hm_domain *d,
			     const struct hm_acl_head *e);

#endif /* HISTMAC_APPEND_H */
