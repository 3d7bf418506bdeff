/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_io.h (formats) - reading and writing TOMOYO policy text: the
 * domain policy (domain_policy.conf), the exception policy
 * (exception_policy.conf) and histmac's rewrite rules (rewrite.conf), in
 * three dialects:
 *
 *   HM_DIALECT_26  TOMOYO 2.6 mainline ("file read /x"), the default;
 *   HM_DIALECT_21  the 2007 LKML posting ("4 /x", "allow_create /x");
 *   HM_DIALECT_18  TOMOYO 1.8 (2.6 plus "network inet stream accept",
 *                  "ipc signal", "deny_autobind").
 *
 * Readers report every bad line as "FILE:LINE: message" into a struct
 * hm_diag, skip it and go on.  Writers produce deterministic text (domains
 * and entries sorted); what the target dialect cannot say is written as a
 * "# not in ..." comment line and counted in a struct hm_convert_stats,
 * never dropped.  docs/DIALECTS.md has the mapping table.
 */
#ifndef HISTMAC_POLICY_IO_H
#define HISTMAC_POLICY_IO_H

#include <stdio.h>

#include "model.h"

/* "Detect the dialect from the text" where a dialect is asked for. */
#define HM_DIALECT_AUTO (-1)

/* File names inside a policy directory. */
#define HM_DOMAIN_POLICY	"domain_policy.conf"
#define HM_EXCEPTION_POLICY	"exception_policy.conf"
#define HM_REWRITE_CONF		"rewrite.conf"
#define HM_PROFILE_CONF		"profile.conf"
#define HM_MANAGER_CONF		"manager.conf"

/*
 * What a conversion can lose, for struct hm_convert_stats: the ACL kinds
 * (same numbering as enum hm_acl_kind), then domain attributes and
 * exception policy entries.
 */
enum hm_conv_what {
#define X(e, s, d) HM_CONV_ACL_##e,
	HM_ACL_KINDS(X)
#undef X
	HM_CONV_DOMAIN_FLAG,	/* quota_exceeded, transition_failed */
	HM_CONV_USE_GROUP,	/* use_group N */
	HM_CONV_TRANSITION,	/* initialize/keep/reset_domain (+no_) */
	HM_CONV_AGGREGATOR,
	HM_CONV_ALIAS,
	HM_CONV_PATH_GROUP,
	HM_CONV_NUMBER_GROUP,
	HM_CONV_ADDRESS_GROUP,
	HM_CONV_FILE_PATTERN,
	HM_CONV_DENY_REWRITE,
	HM_CONV_DENY_AUTOBIND,
	HM_CONV_MAX,
};

/**
 * hm_conv_what_name() - the short name of @w ("network inet", "alias",
 * ...; a kind's is its hm_kind.title), or "?" out of range.
 */
const char *hm_conv_what_name(enum hm_conv_what w);

/*
 * struct hm_convert_stats - what a write lost or changed.  Zero-initialise
 * before the first write; writes add to it.
 * @lines: policy lines written (comments and blank lines not counted).
 * @commented: per kind, lines written as "# not in ..." comments because
 *	the dialect cannot say them (an entry may give several: 2.1 writes
 *	one line per network operation).
 * @widened: per kind, entries written with a detail the dialect lacks
 *	dropped, which makes them allow more (2.1: the mode of file create,
 *	"file append" written as write "2").
 * @n_commented, @n_widened: the sums.
 */
struct hm_convert_stats {
	unsigned long lines;
	unsigned long commented[HM_CONV_MAX];
	unsigned long widened[HM_CONV_MAX];
	unsigned long n_commented;
	unsigned long n_widened;
};

/* Counts of a loaded model, for summaries. */
struct hm_policy_counts {
	size_t domains;
	size_t entries;		/* ACL entries of real domains */
	size_t exception;	/* exception policy lines' worth of entries */
	size_t rewrites;	/* rewrite.conf rules */
};

/* ------------------------------------------------------------- reading */

/**
 * hm_policy_detect() - which dialect is this policy text written in?
 * @buf, @len: domain or exception policy text.
 *
 * The first line only one family uses decides between 2.1 ("4 /x",
 * "allow_...", "file_pattern") and the modern family ("file ...",
 * "network ...", "acl_group"); in the modern family any 1.8-only line
 * ("ipc signal", "accept"/"recv", "deny_autobind") or a "# histmac
 * VERSION tomoyo-1.8" header means 1.8.  The header also decides when
 * no line does.
 * Returns: an enum hm_dialect, or HM_DIALECT_AUTO when nothing tells.
 */
int hm_policy_detect(const char *buf, size_t len);

/**
 * hm_policy_parse_domain() - parse domain policy text into @m.
 * @m: the model; domains and entries are added (duplicates merge).
 * @buf, @len: the text (NUL bytes are reported, not trusted).
 * @dialect: an enum hm_dialect, or HM_DIALECT_AUTO to detect it (when the
 *	text does not tell, or says 2.6 while @m->dialect is 1.8, which
 *	reads all 2.6 says, @m->dialect is used).  Sets @m->dialect.
 * @file: name used in diagnostics; may be NULL.
 * @diag: where bad lines are reported; may be NULL.
 * Returns: the number of errors reported (bad lines skipped), or -ENOMEM.
 */
int hm_policy_parse_domain(struct hm_model *m, const char *buf, size_t len,
			   int dialect, const char *file, struct hm_diag *diag);

/**
 * hm_policy_parse_exception() - parse exception policy text into @m;
 * as hm_policy_parse_domain().
 */
int hm_policy_parse_exception(struct hm_model *m, const char *buf,
			      size_t len, int dialect, const char *file,
			      struct hm_diag *diag);

/**
 * hm_policy_parse_rewrite() - parse rewrite.conf text ("REGEX<TAB>
 * REPLACEMENT" per line, '#' comments) into @m's rewrite rules, checking
 * that each regex compiles (PCRE2).
 * Returns: the number of errors reported, or -ENOMEM.
 */
int hm_policy_parse_rewrite(struct hm_model *m, const char *buf, size_t len,
			    const char *file, struct hm_diag *diag);

/**
 * hm_policy_load_dir() - load DIR/domain_policy.conf,
 * DIR/exception_policy.conf and DIR/rewrite.conf into @m (a missing file
 * is empty), and max_learning_entry from DIR/profile.conf if present.
 * Lines are read with a cap of HM_MAX_LINE bytes; a longer line is
 * reported and skipped without being held in memory.
 * @dialect: as for hm_policy_parse_domain(); detected from the domain
 *	policy's family (2.1 or modern), 1.8 when either file has 1.8-only
 *	lines; both files are read in that dialect.
 * Returns: the number of errors reported (0: clean), -ENOENT when @dir is
 * not a directory, or another negative errno for I/O and memory.
 */
int hm_policy_load_dir(struct hm_model *m, const char *dir, int dialect,
		       struct hm_diag *diag);

/**
 * hm_policy_lint_enforce() - warn (into @diag, FILE:LINE) about each open
 * or exec entry of DIR/domain_policy.conf and DIR/exception_policy.conf
 * (acl_group lines) whose condition `histmac enforce` cannot evaluate
 * (hm_acl_unevaluable()): under the enforcer it grants nothing.
 * @m: the policy loaded from @dir (hm_policy_load_dir()); gets domains of
 *	its own ("<kernel> /histmac-lint/N"), so count before.
 * Returns: 0, or a negative errno (memory, I/O).
 */
int hm_policy_lint_enforce(struct hm_model *m, const char *dir,
			   struct hm_diag *diag);

/**
 * hm_acl_parse_line() - parse one ACL line ("file read /etc/hosts",
 * "4 /etc/hosts" in 2.1) into domain @d of @m.
 * @dialect: an enum hm_dialect (no detection here).
 * @file, @lineno: for diagnostics; may be NULL and 0.
 * Returns: 1 when something new was added, 0 when @d already held it,
 * -EINVAL when the line is bad (reported into @diag), -ENOMEM.
 */
int hm_acl_parse_line(struct hm_model *m, struct hm_domain *d,
		      const char *line, size_t len, enum hm_dialect dialect,
		      const char *file, unsigned long lineno,
		      struct hm_diag *diag);

/** hm_policy_count() - domains, entries and exception entries of @m. */
void hm_policy_count(const struct hm_model *m, struct hm_policy_counts *out);

/* ------------------------------------------------------------- writing */

/**
 * hm_acl_format() - @e as policy text in @dialect.
 * @out: a malloc()ed string without a trailing newline; caller frees with
 *	free().  Usually one line; 2.1 writes one line per operation that
 *	TOMOYO 2.1 spells separately, joined with '\n', and an operation
 *	the dialect cannot say becomes a "# not in ..." comment line.
 * @is_comment: set to true when nothing of @e could be written as policy
 *	(every line is a comment); may be NULL.
 * Returns: 0 or -ENOMEM; *@out is set only on success.
 */
int hm_acl_format(const struct hm_model *m, const struct hm_acl_head *e,
		  enum hm_dialect dialect, char **out, bool *is_comment);

/**
 * hm_policy_format_domain() / hm_policy_format_exception() - the domain
 * or exception policy of @m as text in @dialect.
 * @out, @out_len: a malloc()ed NUL-terminated string; caller frees with
 *	free().
 * @st: conversion counts to add to; may be NULL.
 * Returns: 0 or -ENOMEM.
 */
int hm_policy_format_domain(const struct hm_model *m, enum hm_dialect dialect,
			    char **out, size_t *out_len,
			    struct hm_convert_stats *st);
int hm_policy_format_exception(const struct hm_model *m,
			       enum hm_dialect dialect, char **out,
			       size_t *out_len, struct hm_convert_stats *st);

/** hm_policy_format_rewrite() - rewrite.conf text; as above. */
int hm_policy_format_rewrite(const struct hm_model *m, char **out,
			     size_t *out_len);

/**
 * hm_policy_write_domain() / hm_policy_write_exception() - the same,
 * written to @f.
 * Returns: 0, -ENOMEM, or -EIO when writing failed.
 */
int hm_policy_write_domain(const struct hm_model *m, enum hm_dialect dialect,
			   FILE *f, struct hm_convert_stats *st);
int hm_policy_write_exception(const struct hm_model *m,
			      enum hm_dialect dialect, FILE *f,
			      struct hm_convert_stats *st);

/* Flags of hm_policy_save_dir(). */
enum hm_save_flags {
	HM_SAVE_PROFILE = 1 << 0, /* rewrite profile.conf even if present */
};

/**
 * hm_policy_save_dir() - save @m into @dir (created if absent, one level)
 * in @dialect.  Every file is rendered in memory first, then the set is
 * replaced in one commit (hm_atomic_write_set(): temp files, fsync, a
 * journal, renames): exception_policy.conf, domain_policy.conf,
 * rewrite.conf, then profile.conf and manager.conf when absent (2.6 and
 * 1.8 only).  A crash leaves the set all old or all new; files whose text
 * is unchanged are not rewritten.
 * @flags: enum hm_save_flags.
 * @st: conversion counts to add to; may be NULL.
 * Returns: 0 or a negative errno (before the commit point nothing changed).
 */
int hm_policy_save_dir(const struct hm_model *m, const char *dir,
		       enum hm_dialect dialect, unsigned flags,
		       struct hm_convert_stats *st);

/**
 * hm_policy_save_dir_with() - hm_policy_save_dir(), and @n_extra more
 * files that describe the policy (its path rule, a merge's provenance) in
 * the same commit, so they never disagree with it after a crash.
 * @extra: borrowed; an entry whose text is NULL is left alone.
 */
int hm_policy_save_dir_with(const struct hm_model *m, const char *dir,
			    enum hm_dialect dialect, unsigned flags,
			    struct hm_convert_stats *st,
			    const struct hm_file_out *extra, size_t n_extra);

/**
 * hm_policy_save_dir_stamped() - hm_policy_save_dir_with() (no flags),
 * with @m's package stamps set from @root's dpkg database first, as
 * hm_packages_stamp() (packages.h) sets them; the lookup runs while the
 * files that do not show them render.  @m keeps the stamps found also
 * when the save then fails (as a stamp before the save left it).  @guard
 * (NULL: none) has the last word before the files are replaced
 * (hm_atomic_write_set_guarded()).
 */
int hm_policy_save_dir_stamped(struct hm_model *m, const char *dir,
			       enum hm_dialect dialect,
			       struct hm_convert_stats *st,
			       const struct hm_file_out *extra, size_t n_extra,
			       const char *root,
			       const struct hm_commit_guard *guard);

/**
 * hm_dialect_parse() - "tomoyo", "tomoyo-2.6", "2.6", "tomoyo-2.1", "2.1",
 * "tomoyo-1.8", "1.8" to an enum hm_dialect.
 * Returns: the dialect, or -EINVAL.
 */
int hm_dialect_parse(const char *s);

#endif /* HISTMAC_POLICY_IO_H */
