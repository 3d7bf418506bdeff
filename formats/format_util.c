// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * format_util.c - the words every policy format and report shares: profile
 * and domain-flag names, radixes and condition variables, operation
 * keywords and address text.  Reads the model only.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "formats_private.h"

const struct hm_export_opts hm_export_default_opts;

static const char *const profile_names[] = {
	[HM_PROFILE_DISABLED] = "disabled",
	[HM_PROFILE_LEARNING] = "learning",
	[HM_PROFILE_PERMISSIVE] = "permissive",
	[HM_PROFILE_ENFORCING] = "enforcing",
};

const char *hm_profile_name(unsigned profile, char *buf, size_t bufsz)
{
	if (profile < HM_ARRAY_SIZE(profile_names))
		return profile_names[profile];
	snprintf(buf, bufsz, "profile %u", profile);
	return buf;
}

const char *const hm_domain_flag_ids[8] = {
	"history-unobserved", "parent-unobserved", "transition-failed",
	"quota-exceeded", "flag-4", "flag-5", "flag-6", "flag-7",
};

int hm_domain_flag_names(struct hm_sbuf *b, unsigned flags, const char *sep)
{
	int n = 0;

	for (unsigned i = 0; i < 8; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (n++)
			hm_sbuf_adds(b, sep);
		hm_sbuf_adds(b, hm_domain_flag_ids[i]);
	}
	return n;
}


int hm_export_flush(FILE *f)
{
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

/* ------------------------------------------------------- typed entries */

const char *const hm_radix_names[3] = {
	[HM_RADIX_DEC] = "dec", [HM_RADIX_OCT] = "oct", [HM_RADIX_HEX] = "hex",
};

const char *const hm_cond_var_names[HM_COND_VAR_MAX] = {
	[HM_COND_TASK_UID] = "task.uid",
	[HM_COND_TASK_EUID] = "task.euid",
	[HM_COND_TASK_SUID] = "task.suid",
	[HM_COND_TASK_FSUID] = "task.fsuid",
	[HM_COND_TASK_GID] = "task.gid",
	[HM_COND_TASK_EGID] = "task.egid",
	[HM_COND_TASK_SGID] = "task.sgid",
	[HM_COND_TASK_FSGID] = "task.fsgid",
	[HM_COND_TASK_PID] = "task.pid",
	[HM_COND_TASK_PPID] = "task.ppid",
	[HM_COND_EXEC_REALPATH] = "exec.realpath",
	[HM_COND_EXEC_ARGC] = "exec.argc",
	[HM_COND_EXEC_ARGV] = "exec.argv",
	[HM_COND_SYMLINK_TARGET] = "symlink.target",
	[HM_COND_OTHER] = "other",
};

bool hm_acl_has_perm(unsigned kind)
{
	return kind < HM_ACL_KIND_MAX && hm_kinds[kind].ops != HM_OPS_NONE;
}

const char *hm_acl_op_name(unsigned kind, unsigned op)
{
	if (!hm_acl_has_perm(kind))
		return NULL;
	if (hm_kinds[kind].ops == HM_OPS_NET)
		return op < HM_NET_OP_MAX ? hm_net_op_names[op] : NULL;
	if (op >= HM_FILE_OP_MAX || hm_file_op_kind[op] != kind)
		return NULL;
	return hm_file_op_names[op];
}

const char *hm_addr_format(const struct hm_addr *a, int which, char *buf)
{
	const uint8_t *p = which ? a->max : a->min;

	if (!inet_ntop(a->is_ipv6 ? AF_INET6 : AF_INET, p, buf, 64))
		strcpy(buf, "?");
	return buf;
}

