/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * owners.h (analyzer) - the Debian package and version that owned each file
 * a model's entries name, when it was last learned
 * (analyzer/owners.c).  learn sets them from the dpkg database (packages.h),
 * the policy keeps them in histmac_entries.conf ("object" lines), merge
 * takes the first host's, and diff groups changed entries by the package of
 * their file.  One row per file, not per entry: a file fifty domains read is
 * one row.
 */
#ifndef HISTMAC_OWNERS_H
#define HISTMAC_OWNERS_H

#include "histmac/model.h"

/* A package and version, both interned in the model. */
struct hm_owner {
	const struct hm_name *package;
	const struct hm_name *version;
};

/**
 * hm_owner_set() - record that @pkg at @ver owns the file @path (all
 * interned in @m), replacing what @path had.  Returns: 0 or -ENOMEM.
 */
int hm_owner_set(struct hm_model *m, const struct hm_name *path,
		 const struct hm_name *pkg, const struct hm_name *ver);

/** hm_owner_of() - the owner of the file @path (interned in @m), or
 * NULL when none was recorded. */
const struct hm_owner *hm_owner_of(const struct hm_model *m,
				   const struct hm_name *path);

/**
 * hm_owner_version() - the version of package @pkg (a name of any model)
 * that @m recorded, for a file or for a domain's program; NULL if none.
 */
const struct hm_name *hm_owner_version(const struct hm_model *m,
				       const struct hm_name *pkg);

/** hm_owners_clear() - forget every row (before stamping afresh). */
void hm_owners_clear(struct hm_model *m);

/**
 * hm_owners_merge() - the rows of @src that @dst lacks, names interned
 * in @dst (a file two hosts recorded keeps @dst's, as a domain's package
 * stamp keeps the first host's).  Returns: 0 or -ENOMEM.
 */
int hm_owners_merge(struct hm_model *dst, const struct hm_model *src);

/** hm_owners_free() - free @m's rows (hm_model_free() calls it). */
void hm_owners_free(struct hm_model *m);

/* At most this many files per entry (rename's and link's two paths). */
#define HM_ACL_MAX_FILES HM_MAX_OPERANDS

/**
 * hm_acl_files() - the files @e names: its path operands that are one
 * absolute file (no pattern, no directory, no @group).
 * Returns: how many were put in @out.
 */
size_t hm_acl_files(const struct hm_acl_head *e,
		    const struct hm_name *out[HM_ACL_MAX_FILES]);

/**
 * hm_model_files() - every file the entries of @m name (hm_acl_files()),
 * each once, sorted by name (hm_name_cmp()).
 * @out: malloc'd array (caller frees; NULL when *@n is 0).
 * Returns: 0 or -ENOMEM.
 */
int hm_model_files(const struct hm_model *m, const struct hm_name ***out,
		   size_t *n);

#endif /* HISTMAC_OWNERS_H */
