/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathrule.h (collector) - the path rule: how the object paths of a policy
 * are named.
 *
 * TOMOYO names every object by its realpath, so by default every source
 * (-i, --follow, --plugin) resolves symlinks through this host's files,
 * each result checked against the record's inode (a name that does not
 * exist here is kept as the log wrote it).  A log from another host is
 * resolved against an image of that host (--resolve-root DIR) or not at
 * all (--no-resolve).  `learn` records the rule it used in the policy
 * directory (HM_PATH_RULE_FILE, beside the TOMOYO files, which TOMOYO's
 * tools never read); `check` and `enforce` take it from there unless told
 * otherwise, and every run whose rule differs from the policy's is warned.
 */
#ifndef HISTMAC_PATHRULE_H
#define HISTMAC_PATHRULE_H

#include "collector.h"

#define HM_PATH_RULE_FILE	"histmac_paths.conf"

/*
 * struct hm_path_rule - one path rule.
 * @resolve: symlinks resolved (through @root, or this host's / if NULL).
 * @root: the image resolved against, or NULL.
 * @owned: @root was allocated by hm_path_rule_load().
 */
struct hm_path_rule {
	bool resolve;
	const char *root;
	bool owned;
};

/**
 * hm_path_rule_of() - the rule collector options @o give (resolve -1 is
 * the default: resolving).
 * @out: the rule; @out->root is borrowed from @o.
 */
void hm_path_rule_of(const struct hm_collector_opts *o,
		     struct hm_path_rule *out);

/**
 * hm_path_rule_load() - read the rule of policy directory @dir.
 * @out: the rule; free with hm_path_rule_free().
 * @d: a bad line is reported here as FILE:LINE; may be NULL.
 * Returns: 0, -ENOENT (no rule recorded: a policy of an older histmac),
 * -EINVAL (the file says something else), or another negative errno.
 */
int hm_path_rule_load(const char *dir, struct hm_path_rule *out,
		      struct hm_diag *d);

/**
 * hm_path_rule_text() - the HM_PATH_RULE_FILE that records @r, to be saved
 * with the policy it describes (hm_policy_save_dir_with()).
 * @out: gets the file, named, text malloc'd (the caller frees out->text).
 * Returns: 0 or -ENOMEM.
 */
int hm_path_rule_text(const struct hm_path_rule *r, struct hm_file_out *out);

/** hm_path_rule_free() - free what hm_path_rule_load() allocated. */
void hm_path_rule_free(struct hm_path_rule *r);

/**
 * hm_path_rule_name() - "resolve", "no-resolve" or "resolve-root DIR".
 * Returns: @buf.
 */
const char *hm_path_rule_name(const struct hm_path_rule *r, char *buf,
			      size_t n);

/**
 * hm_path_rule_apply() - make a run read paths as policy @dir names them.
 * @dir: the policy directory.
 * @o: the run's collector options: where it chose no rule (resolve -1,
 *	no root) it gets the policy's; a rule it chose is kept.
 * @policy: the policy's rule, to free with hm_path_rule_free() after the
 *	collector (@o->resolve_root may point into it).
 * @d: a warning when the run's rule and the policy's differ, or when the
 *	policy records none; may be NULL.
 * Returns: 0 (also when no rule is recorded), or the negative errno of
 * reading the file.
 */
int hm_path_rule_apply(const char *dir, struct hm_collector_opts *o,
		       struct hm_path_rule *policy, struct hm_diag *d);

#endif /* HISTMAC_PATHRULE_H */
