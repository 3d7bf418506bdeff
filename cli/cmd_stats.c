// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_stats.c - histmac stats: the size and shape of a policy - domains
 * by profile and flag, entries by kind and operation, exception policy,
 * and the memory the model uses per category.
 */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_io.h"

#define CMD "stats"

struct counts {
	size_t profiles[256];
	size_t flags[8];
	size_t kinds[HM_ACL_KIND_MAX];
	size_t file_ops[HM_FILE_OP_MAX];
	size_t net_ops[HM_NET_OP_MAX];
	size_t entries;
	size_t max_entries;
	const char *max_domain;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac stats -p POLICYDIR\n"
"\n"
"Print domains (by profile and flag), ACL entries by kind and operation,\n"
"the exception policy's size, and the memory the loaded model uses for\n"
"names, domains, entries and lookup indexes.\n"
"\n"
"Exit: 0, 4 the policy has errors (stats of what loaded are printed),\n"
"2 usage, 3 could not read.\n");
}

static void count_domain(struct counts *c, const struct hm_domain *d)
{
	c->profiles[d->profile]++;
	for (int f = 0; f < 8; f++)
		c->flags[f] += !!(d->flags & (1u << f));
	c->entries += d->n_acl;
	if (d->n_acl > c->max_entries) {
		c->max_entries = d->n_acl;
		c->max_domain = d->name->str;
	}
	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		c->kinds[e->kind]++;
		for (unsigned b = 0; b < 32; b++) {
			if (!(e->perm & (1u << b)))
				continue;
			if (e->kind == HM_ACL_INET || e->kind == HM_ACL_UNIX) {
				if (b < HM_NET_OP_MAX)
					c->net_ops[b]++;
			} else if (e->kind < HM_ACL_INET && b < HM_FILE_OP_MAX) {
				c->file_ops[b]++;
			}
		}
	}
}

static void print_counts(const struct counts *c, const struct hm_model *m)
{
	static const char *const flag_names[] = {
		"history unobserved", "parent unobserved",
		"transition_failed", "quota_exceeded",
	};

	printf("domains                %zu\n", m->n_domains);
	for (int p = 0; p < 256; p++)
		if (c->profiles[p])
			printf("  profile %-12d %zu\n", p, c->profiles[p]);
	for (size_t f = 0; f < HM_ARRAY_SIZE(flag_names); f++)
		if (c->flags[f])
			printf("  %-20s %zu\n", flag_names[f], c->flags[f]);
	printf("entries                %zu", c->entries);
	if (c->max_domain)
		printf(" (largest domain: %zu, %s)", c->max_entries,
		       c->max_domain);
	putchar('\n');
	for (int k = 0; k < HM_ACL_KIND_MAX; k++)
		if (c->kinds[k])
			printf("  %-20s %zu\n", hm_acl_kind_names[k], c->kinds[k]);
	for (int o = 0; o < HM_FILE_OP_MAX; o++)
		if (c->file_ops[o])
			printf("    file %-15s %zu\n", hm_file_op_names[o],
			       c->file_ops[o]);
	for (int o = 0; o < HM_NET_OP_MAX; o++)
		if (c->net_ops[o])
			printf("    network %-12s %zu\n", hm_net_op_names[o],
			       c->net_ops[o]);
}

static void print_exception(const struct hm_model *m)
{
	struct hm_policy_counts pc;
	size_t groups = 0, rules = 0;

	hm_policy_count(m, &pc);
	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		groups++;
	for (const struct hm_rewrite_rule *r = m->ex.rewrites; r; r = r->next)
		rules++;
	printf("exception entries      %zu (%zu groups)\n", pc.exception,
	       groups);
	printf("rewrite rules          %zu\n", rules);
	printf("dialect                %s\n", hm_dialect_names[m->dialect]);
}

static void print_memory(const struct hm_model *m)
{
	size_t total = 0;

	printf("names                  %zu\n", hm_names_count(m->names));
	printf("memory\n");
	for (int i = 0; i < HM_MEM_CAT_MAX; i++) {
		if (!m->mem.bytes[i])
			continue;
		printf("  %-20s %zu bytes in %zu blocks\n", hm_mem_cat_names[i],
		       m->mem.bytes[i], m->mem.count[i]);
		total += m->mem.bytes[i];
	}
	printf("  %-20s %zu bytes\n", "total", total);
}

HM_CMD(stats)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy = NULL;
	struct hm_model *m;
	struct counts *c;
	int status;
	int opt;

	while ((opt = getopt_long(argc, argv, "p:h", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return hm_cli_finish(HM_EXIT_OK);
		}
		if (opt != 'p')
			return hm_cli_usage_error(CMD, "bad option");
		policy = optarg;
	}
	if (!policy || optind != argc)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR");
	status = hm_cli_load_policy(CMD, policy, HM_DIALECT_AUTO, false, &m);
	if (status == HM_EXIT_FAIL)
		return status;
	c = calloc(1, sizeof(*c));
	if (!c) {
		hm_model_free(m);
		return HM_EXIT_FAIL;
	}
	for (size_t i = 0; i < m->n_domains; i++)
		count_domain(c, m->domains[i]);
	print_counts(c, m);
	print_exception(m);
	print_memory(m);
	free(c);
	hm_model_free(m);
	return hm_cli_finish(status);
}
