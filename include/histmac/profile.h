/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h (analyzer) - domains' profiles, as TOMOYO honours them:
 * learning adds entries only to domains in learning mode; in a permissive
 * or enforcing domain an access the ACL lacks is a violation; a new domain
 * takes its profile (and use_group) from its nearest ancestor.  `histmac
 * profile` sets them, as tomoyo-setprofile and aa-enforce/aa-complain do.
 */
#ifndef HISTMAC_PROFILE_H
#define HISTMAC_PROFILE_H

#include "model.h"

extern const char *const hm_profile_names[HM_PROFILE_ENFORCING + 1];

/**
 * hm_profile_mode() - the mode of profile @profile.  0-3 are the modes of
 * the default profile.conf; histmac reads no other, so a higher number
 * counts as permissive (checked, never learned, never denied).
 */
enum hm_profile hm_profile_mode(uint8_t profile);

/**
 * hm_profile_parse() - "disabled", "learning", "permissive", "enforcing"
 * (or the first letter), or a number 0-255.
 * Returns: 0, or -EINVAL; *@out set only on success.
 */
int hm_profile_parse(const char *s, uint8_t *out);

/**
 * hm_profile_set() - give domain @name (and with @subtree every domain
 * below it) profile @profile.
 * @changed: out: how many domains changed.
 * Returns: 0, -ENOENT when @m has no domain @name, -EINVAL for a name
 * that is not a domain name.
 */
int hm_profile_set(struct hm_model *m, const char *name, size_t len,
		   uint8_t profile, bool subtree, size_t *changed);

/**
 * hm_domain_inherit() - what new domain @d takes from its nearest
 * ancestor in @m (its parent, else the closest domain a prefix of its name
 * names): use_group, and the profile unless !@m->inherit_profile.
 */
void hm_domain_inherit(const struct hm_model *m, struct hm_domain *d);

/**
 * hm_domain_nearest() - @name's domain in @m, else its nearest
 * ancestor, else NULL.  Returns: borrowed.
 */
const struct hm_domain *hm_domain_nearest(const struct hm_model *m,
					  const struct hm_name *name);

#endif /* HISTMAC_PROFILE_H */
