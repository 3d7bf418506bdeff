/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * provenance.h (formats) - which of several merged policies (hosts) had
 * each entry.  `histmac merge` writes it as POLICYDIR/provenance.conf,
 * beside TOMOYO's files and never read by TOMOYO's tools; `histmac stats
 * --rare N` and the report list the entries fewer than N hosts had.
 *
 * An entry is one permission of one ACL line of one domain ("file write
 * /x" in "<kernel> /usr/sbin/sshd").  Provenance is a set of (entry,
 * host) pairs, so combining is a set union: the result does not depend
 * on the order or the grouping of merges, and merging a host twice
 * changes nothing.
 */
#ifndef HISTMAC_PROVENANCE_H
#define HISTMAC_PROVENANCE_H

#include <stddef.h>

#include "histmac/common.h"
#include "histmac/model.h"

#define HM_PROVENANCE_FILE "provenance.conf"
#define HM_MAX_HOSTS 65536	/* hosts in one provenance */

struct hm_provenance;

/* One entry and the hosts that had it (after hm_provenance_entries()). */
struct hm_prov_entry {
	const char *domain;
	const char *entry;		/* TOMOYO 2.6 text, one permission */
	size_t n_hosts;
	const char *const *hosts;	/* sorted */
};

/**
 * hm_provenance_new() - an empty provenance.
 * Returns: 0 or -ENOMEM; caller frees *@out with hm_provenance_free().
 */
int hm_provenance_new(struct hm_provenance **out);
void hm_provenance_free(struct hm_provenance *p);

/** hm_host_name_ok() - letters, digits, '.', '-', '_'; 1 to 255 bytes. */
bool hm_host_name_ok(const char *host);

/**
 * hm_provenance_add_model() - host @host had every entry of @m.
 * Returns: 0, -EINVAL (@host not hm_host_name_ok(), or too many hosts),
 * -ENOMEM.
 */
int hm_provenance_add_model(struct hm_provenance *p, const struct hm_model *m,
			    const char *host);

/**
 * hm_provenance_read() - add the pairs of provenance file @path.  Bad lines
 * are reported as FILE:LINE into @diag and skipped.
 * Returns: 0, -errno of open/read (-ENOENT: the policy was not merged),
 * -ENOMEM.
 */
int hm_provenance_read(struct hm_provenance *p, const char *path,
		       struct hm_diag *diag);

/**
 * hm_provenance_entries() - the entries, sorted by domain then entry.
 * @n: gets their number.  @n_hosts: gets the number of hosts in all.
 * Returns: the array (borrowed until the next add/read or free), or NULL
 * with *@n 0 when empty or on ENOMEM (then @p is unchanged).
 */
const struct hm_prov_entry *hm_provenance_entries(struct hm_provenance *p,
						  size_t *n, size_t *n_hosts);

/**
 * hm_provenance_text() - @p as the provenance.conf to be saved with the
 * merged policy (hm_policy_save_dir_with()).
 * @out: gets the file, named, text malloc'd (the caller frees out->text).
 * Returns: 0 or -ENOMEM.
 */
int hm_provenance_text(struct hm_provenance *p, struct hm_file_out *out);

#endif
