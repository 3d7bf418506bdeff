/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision.h (analyzer) - the enforcer's decision as the audit trail holds
 * it: the user record the enforcer writes (enforcer/log.c) and the learner
 * reads back (analyzer/decision.c).
 */
#ifndef HISTMAC_DECISION_H
#define HISTMAC_DECISION_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* What happened to one request. X(enum suffix, word in the record) */
#define HM_DECISION_RESULTS(X)	\
	X(DENY, "deny")		\
	X(ALLOW, "allow")	\
	X(PERMISSIVE, "permissive") \
	X(LEARNED, "learned")	\
	X(GRANT, "grant")	\
	X(REJECT, "reject")	\
	X(TIMEOUT, "timeout")

enum hm_decision_result {
#define X(e, s) HM_DECISION_##e,
	HM_DECISION_RESULTS(X)
#undef X
	HM_DECISION_RESULT_MAX
};

extern const char *const hm_decision_result_names[HM_DECISION_RESULT_MAX];

/*
 * struct hm_decision - one decision as the audit trail holds it.
 * Strings are borrowed (formatting) or point into the parsed text's
 * copy (parsing).
 * @domain: encoded domain name.
 * @path: the object's raw path bytes (not encoded: audit hex-encodes
 *	what needs it, and readers encode names as they do any path).
 * @perm: bitmask of enum hm_file_op: execute, or what the open asked for
 *	that the policy does not grant (read, write, append, truncate;
 *	read and write when its mode could not be read); 0 for an open
 *	whose mode the enforcer did not read.
 * @pid: the process.
 * @profile: the profile that applied (0-3).
 */
struct hm_decision {
	enum hm_decision_result result;
	const char *domain;
	size_t domain_len;
	const char *path;
	size_t path_len;
	uint32_t perm;
	int64_t pid;
	uint8_t profile;
};

/**
 * hm_decision_format() - the text of the user audit record for @d:
 * "op=histmac-decision result=R perm=P profile=N opid=PID domain=HEX
 * path=VALUE"; P is "open" (mode unknown) or the operations joined with
 * ',' ("read,write", "execute"); VALUE quoted, or hex when it holds a
 * space, a quote or a byte outside 0x21-0x7e (as auditd's own fields
 * are).
 * @out: malloc()ed text; caller frees with free().
 * Returns: 0 or -ENOMEM.
 */
int hm_decision_format(const struct hm_decision *d, char **out);

/**
 * hm_decision_parse() - the fields of a record made by
 * hm_decision_format() (surrounding fields of the audit record are
 * skipped).
 * @buf: where decoded strings go: at least @len bytes.
 * Returns: 0, or -EINVAL when the text is not such a record.
 */
int hm_decision_parse(const char *text, size_t len, char *buf,
		      struct hm_decision *out);

#endif /* HISTMAC_DECISION_H */
