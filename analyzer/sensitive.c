// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sensitive.c - the names whose access grants more than one file, one
 * table: each row a TOMOYO pattern, a literal example of it (to try a
 * rewrite rule's regex against) and what it is.
 */
#include "histmac/acl_kinds.h"
#include "histmac/common.h"
#include "histmac/model.h"
#include "histmac/word.h"
#include "histmac/sensitive.h"

static const struct {
	const char *pattern;
	const char *example;
	const char *why;
} rows[] = {
	{ "/etc/shadow", "/etc/shadow", "password hashes" },
	{ "/etc/shadow-", "/etc/shadow-", "password hashes" },
	{ "/etc/gshadow", "/etc/gshadow", "password hashes" },
	{ "/etc/gshadow-", "/etc/gshadow-", "password hashes" },
	{ "/etc/security/opasswd", "/etc/security/opasswd", "password hashes" },
	{ "/etc/sudoers", "/etc/sudoers", "sudo rules" },
	{ "/etc/sudoers.d/\\*", "/etc/sudoers.d/admins", "sudo rules" },
	{ "/etc/ssh/ssh_host_\\*_key", "/etc/ssh/ssh_host_ed25519_key",
	  "ssh host key" },
	{ "/etc/ssl/private/\\*", "/etc/ssl/private/server.key",
	  "TLS private key" },
	{ "/etc/krb5.keytab", "/etc/krb5.keytab", "Kerberos keys" },
	{ "/root/\\*", "/root/.bash_history", "root's home" },
	{ "/root/\\{\\*\\}/\\*", "/root/.ssh/id_rsa", "root's home" },
	{ "/home/\\*/.ssh/\\*", "/home/user/.ssh/id_rsa", "ssh key" },
	{ "/home/\\*/.gnupg/\\{\\*\\}/\\*", "/home/user/.gnupg/private-keys-v1.d/k.key",
	  "gpg key" },
	{ "proc:/\\$/mem", "proc:/1/mem", "another process's memory" },
	{ "proc:/\\$/environ", "proc:/1/environ",
	  "another process's environment" },
};

const char *hm_sensitive_why(const char *name)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(rows); i++)
		if (hm_path_matches_str(name, rows[i].pattern) ||
		    hm_path_matches_str(rows[i].example, name))
			return rows[i].why;
	return NULL;
}

int hm_sensitive_each(int (*fn)(const char *example, const char *why,
				void *arg), void *arg)
{
	int r = 0;

	for (size_t i = 0; !r && i < HM_ARRAY_SIZE(rows); i++)
		r = fn(rows[i].example, rows[i].why, arg);
	return r;
}

/* What the first sensitive name of @e is, or NULL. */
static const char *entry_why(const struct hm_acl_head *e)
{
	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op;
		const char *why;

		if (o->type != HM_OT_NAME)
			continue;
		op = hm_operand_ptr(e, o);
		if (op->name && (why = hm_sensitive_why(op->name->str)))
			return why;
	}
	return NULL;
}

int hm_sensitive_entries(const struct hm_model *m,
			 int (*fn)(const struct hm_domain *d,
				   const struct hm_acl_head *e,
				   const char *why, void *arg),
			 void *arg)
{
	int r = 0;

	for (size_t i = 0; !r && i < m->n_domains; i++)
		for (const struct hm_acl_head *e = m->domains[i]->acl; !r && e;
		     e = e->next) {
			const char *why = entry_why(e);

			if (why)
				r = fn(m->domains[i], e, why, arg);
		}
	return r;
}

static int count_one(const struct hm_domain *d, const struct hm_acl_head *e,
		     const char *why, void *arg)
{
	(void)d, (void)e, (void)why;
	++*(size_t *)arg;
	return 0;
}

size_t hm_sensitive_count(const struct hm_model *m)
{
	size_t n = 0;

	hm_sensitive_entries(m, count_one, &n);
	return n;
}
