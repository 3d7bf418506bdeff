/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_diff.h (formats) - what changed between two policies, domain by
 * domain and permission by permission, plus the exception policy
 * (formats/diff.c).
 */
#ifndef HISTMAC_POLICY_DIFF_H
#define HISTMAC_POLICY_DIFF_H

#include "histmac/model.h"
#include "histmac/sbuf.h"

/**
 * hm_policy_diff() - the difference from @a to @b as text.
 * @out: the text is appended here: for each domain that differs, its
 *	name, then one line per permission removed ("-file read /x") or
 *	added ("+file read /x") and a blank line; a domain only in @a or
 *	only in @b is first named with '-' or '+'.  Then the exception policy
 *	lines removed and added, under "# exception policy".  Permissions
 *	are split one per line ("file read/write /x" -> "file read /x" is
 *	one removed permission) and written in TOMOYO 1.8 syntax, which can
 *	say every entry the model holds.  Domains in name order, lines
 *	sorted, so the text is deterministic.  When either policy records
 *	packages (histmac_entries.conf: of its domains' programs, of the
 *	files its entries name), the changes are grouped by package and
 *	version, each group under a line "# package apache2 2.4.62-1 ->
 *	2.4.65-1" (or one version when it did not change; "(none
 *	recorded)" last), so what an upgrade changed is one block: a line
 *	whose entry names a file a package owned (in the policy the line
 *	comes from) goes under that package, with its versions in @a and
 *	@b; other lines under their domain's program's package.  A domain
 *	with changes in several groups is named in each.
 * @changes: set to the number of + and - lines (0: the same policy).
 * @a, @b: the two policies; only read.
 * Returns: 0, or -ENOMEM (@out may then hold part of the text).
 */
int hm_policy_diff(struct hm_sbuf *out, size_t *changes,
		   const struct hm_model *a, const struct hm_model *b);

#endif /* HISTMAC_POLICY_DIFF_H */
