/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * packages.h (formats) - which Debian package (and version) owns a file,
 * read from a dpkg database (ROOT/var/lib/dpkg: info/PACKAGE.list and
 * status), as `dpkg -S` and `dpkg-query -W` would say, without running
 * them.  The learner stamps each domain with the package of the program it
 * is named after (histmac_entries.conf), `diff` groups changes by it and
 * `check` marks violations of a program whose version changed since.
 */
#ifndef HISTMAC_PACKAGES_H
#define HISTMAC_PACKAGES_H

#include "histmac/common.h"
#include "histmac/model.h"

/**
 * hm_packages_owners() - the package and installed version owning each of
 * @paths under @root ("/" for this host).  A merged-/usr alias counts
 * (/bin/x for /usr/bin/x and back), as dpkg lists the name it shipped.
 * @pkg, @ver: arrays of @n, set to malloc'd strings or NULL (not owned,
 *	or no database: then all NULL); the caller frees each.
 * Returns: 0 or -ENOMEM.
 */
int hm_packages_owners(const char *root, const char *const *paths, size_t n,
		       char **pkg, char **ver);

/**
 * hm_packages_stamp() - set every domain's package and version from the
 * program its name ends with (a domain whose program no package owns gets
 * none).  Returns: 0 or -ENOMEM.
 */
int hm_packages_stamp(struct hm_model *m, const char *root);

/* Called for a domain with its program's package and version (NULL:
 * not owned); a non-zero return stops hm_packages_each() with it. */
typedef int (*hm_package_fn)(struct hm_model *m, struct hm_domain *d,
			     const char *pkg, const char *ver, void *arg);

/**
 * hm_packages_each() - look up the program of every domain of @m (only
 * those with a package stamp when @stamped) under @root, in one pass over
 * the database, and call @fn for each.
 * Returns: 0, -ENOMEM, or what @fn returned.
 */
int hm_packages_each(struct hm_model *m, const char *root, bool stamped,
		     hm_package_fn fn, void *arg);

/** hm_domain_program() - the last word of @d's name (its program), and
 * its length in *@len; NULL for a root "<kernel>" or a group. */
const char *hm_domain_program(const struct hm_domain *d, size_t *len);

#endif /* HISTMAC_PACKAGES_H */
