// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_stats.c - histmac stats: the size and shape of a policy - domains
 * by profile and flag, entries by kind and operation, exception policy,
 * and the memory the model uses per category.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/sbuf.h"

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
"usage: histmac stats -p POLICYDIR [--format text|json] [--rare N]\n"
"\n"
"Print domains (by profile and flag), ACL entries by kind and operation,\n"
"the exception policy's size, and the memory the loaded model uses for\n"
"names, domains, entries and lookup indexes.\n"
"\n"
"  -p, --policy DIR   the policy directory\n"
"  -f, --format F     text (default) or json: one object with the same\n"
"                     counts (docs/JSON.md)\n"
"      --rare N       instead, the entries of a merged policy that fewer\n"
"                     than N of its hosts had (provenance.conf, written by\n"
"                     histmac merge), one per line: HAD/HOSTS, the hosts,\n"
"                     the domain and the entry, separated by tabs\n"
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
			if (hm_kinds[e->kind].ops == HM_OPS_NET) {
				if (b < HM_NET_OP_MAX)
					c->net_ops[b]++;
			} else if (hm_kinds[e->kind].ops == HM_OPS_FILE &&
				   b < HM_FILE_OP_MAX) {
				c->file_ops[b]++;
			}
		}
	}
}

/* Labels (with their indent) are padded to this: values form a column. */
#define LABEL_WIDTH 34

/* One "LABEL   VALUE..." line; @indent levels of two spaces. */
static void row(int indent, const char *label, const char *fmt, ...)
	HM_PRINTF(3, 4);

static void row(int indent, const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("%*s%-*s ", 2 * indent, "", LABEL_WIDTH - 2 * indent, label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* "s" unless @n is 1: "1 block", "2 blocks". */
static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void print_counts(const struct counts *c, const struct hm_model *m)
{
	static const char *const flag_names[] = {
		"history unobserved", "parent unobserved",
		"transition_failed", "quota_exceeded",
	};
	char label[64];

	row(0, "domains", "%zu", m->n_domains);
	for (int p = 0; p < 256; p++) {
		if (!c->profiles[p])
			continue;
		snprintf(label, sizeof(label), "profile %d", p);
		row(1, label, "%zu", c->profiles[p]);
	}
	for (size_t f = 0; f < HM_ARRAY_SIZE(flag_names); f++)
		if (c->flags[f])
			row(1, flag_names[f], "%zu", c->flags[f]);
	if (c->max_domain)
		row(0, "entries", "%zu (largest domain: %zu, %s)", c->entries,
		    c->max_entries, c->max_domain);
	else
		row(0, "entries", "%zu", c->entries);
	for (int k = 0; k < HM_ACL_KIND_MAX; k++)
		if (c->kinds[k])
			row(1, hm_acl_kind_names[k], "%zu", c->kinds[k]);
	for (int o = 0; o < HM_FILE_OP_MAX; o++) {
		if (!c->file_ops[o])
			continue;
		snprintf(label, sizeof(label), "file %s", hm_file_op_names[o]);
		row(2, label, "%zu", c->file_ops[o]);
	}
	for (int o = 0; o < HM_NET_OP_MAX; o++) {
		if (!c->net_ops[o])
			continue;
		snprintf(label, sizeof(label), "network %s",
			 hm_net_op_names[o]);
		row(2, label, "%zu", c->net_ops[o]);
	}
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
	row(0, "exception entries", "%zu (%zu group%s)", pc.exception,
	    groups, plural(groups));
	row(0, "rewrite rules", "%zu", rules);
	row(0, "dialect", "%s", hm_dialect_names[m->dialect]);
}

static void print_memory(const struct hm_model *m)
{
	size_t total = 0;

	row(0, "names", "%zu", hm_names_count(m->names));
	printf("memory\n");
	for (int i = 0; i < HM_MEM_CAT_MAX; i++) {
		if (!m->mem.bytes[i])
			continue;
		row(1, hm_mem_cat_names[i], "%zu byte%s in %zu block%s",
		    m->mem.bytes[i], plural(m->mem.bytes[i]), m->mem.count[i],
		    plural(m->mem.count[i]));
		total += m->mem.bytes[i];
	}
	row(1, "total", "%zu byte%s", total, plural(total));
}

/* "NAME": {"KEY": N, ...} of the non-zero @v[i], keys from @names. */
static void json_counts(struct hm_sbuf *b, const char *name,
			const size_t *v, size_t n, const char *const *names)
{
	bool first = true;

	hm_sbuf_printf(b, ",\"%s\":{", name);
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		hm_sbuf_adds(b, first ? "" : ",");
		if (names)
			hm_sbuf_add_json(b, names[i], strlen(names[i]));
		else
			hm_sbuf_printf(b, "\"%zu\"", i);
		hm_sbuf_printf(b, ":%zu", v[i]);
		first = false;
	}
	hm_sbuf_addc(b, '}');
}

/* --format json: the counts of the text output, for scripts. */
static int print_json(const struct counts *c, const struct hm_model *m)
{
	static const char *const flag_ids[] = {
		"history_unobserved", "parent_unobserved",
		"transition_failed", "quota_exceeded", "flag_4", "flag_5",
		"flag_6", "flag_7",
	};
	struct hm_policy_counts pc;
	struct hm_sbuf b = { 0 };
	size_t groups = 0, rules = 0, total = 0;
	int r;

	hm_policy_count(m, &pc);
	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		groups++;
	for (const struct hm_rewrite_rule *w = m->ex.rewrites; w; w = w->next)
		rules++;
	hm_sbuf_printf(&b, "{\"domains\":%zu", m->n_domains);
	json_counts(&b, "profiles", c->profiles, 256, NULL);
	json_counts(&b, "flags", c->flags, 8, flag_ids);
	hm_sbuf_printf(&b, ",\"entries\":%zu,\"largest_domain\":",
		       c->entries);
	if (c->max_domain) {
		hm_sbuf_add_json(&b, c->max_domain, strlen(c->max_domain));
		hm_sbuf_printf(&b, ",\"largest_domain_entries\":%zu",
			       c->max_entries);
	} else {
		hm_sbuf_adds(&b, "null");
	}
	{
		const char *ids[HM_ACL_KIND_MAX];

		for (int k = 0; k < HM_ACL_KIND_MAX; k++)
			ids[k] = hm_kinds[k].id;
		json_counts(&b, "kinds", c->kinds, HM_ACL_KIND_MAX, ids);
	}
	json_counts(&b, "file_ops", c->file_ops, HM_FILE_OP_MAX,
		    hm_file_op_names);
	json_counts(&b, "network_ops", c->net_ops, HM_NET_OP_MAX,
		    hm_net_op_names);
	hm_sbuf_printf(&b, ",\"exception_entries\":%zu,\"groups\":%zu,"
		       "\"rewrite_rules\":%zu,\"dialect\":\"%s\","
		       "\"names\":%zu,\"memory\":{", pc.exception, groups,
		       rules, hm_dialect_names[m->dialect],
		       hm_names_count(m->names));
	for (int i = 0; i < HM_MEM_CAT_MAX; i++) {
		hm_sbuf_printf(&b, "\"%s\":{\"bytes\":%zu,\"blocks\":%zu},",
			       hm_mem_cat_names[i], m->mem.bytes[i],
			       m->mem.count[i]);
		total += m->mem.bytes[i];
	}
	hm_sbuf_printf(&b, "\"total\":%zu}}\n", total);
	r = b.oom ? -ENOMEM : 0;
	if (!r && fwrite(b.s, 1, b.len, stdout) != b.len)
		r = -EIO;
	hm_sbuf_free(&b);
	return r;
}

/* --rare N: what a reviewer checks first after a merge. */
static int print_rare(const char *policy, unsigned long below)
{
	const struct hm_prov_entry *e;
	struct hm_provenance *p;
	size_t n, n_hosts, k = 0;
	int status = hm_cli_load_provenance(CMD, policy, true, &p);

	if (status == HM_EXIT_FAIL)
		return status;
	e = hm_provenance_entries(p, &n, &n_hosts);
	for (size_t i = 0; i < n; i++)
		k += e[i].n_hosts < below;
	printf("# %zu of %zu entries on fewer than %lu of %zu hosts\n", k, n,
	       below, n_hosts);
	for (size_t i = 0; i < n; i++) {
		if (e[i].n_hosts >= below)
			continue;
		printf("%zu/%zu\t", e[i].n_hosts, n_hosts);
		for (size_t j = 0; j < e[i].n_hosts; j++)
			printf("%s%s", j ? "," : "", e[i].hosts[j]);
		printf("\t%s\t%s\n", e[i].domain, e[i].entry);
	}
	if (n && !e)
		status = HM_EXIT_FAIL;
	hm_provenance_free(p);
	return status;
}

HM_CMD(stats)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "rare", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy = NULL;
	uint64_t rare = 0;
	bool json = false;
	struct hm_model *m;
	struct counts *c;
	int status;
	int opt;

	while ((opt = getopt_long(argc, argv, "p:f:h", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return HM_EXIT_OK;
		}
		if (opt == 'f') {
			json = !strcmp(optarg, "json");
			if (!json && strcmp(optarg, "text"))
				return hm_cli_usage_error(CMD, "unknown format "
							  "'%s' (text, json)",
							  optarg);
			continue;
		}
		if (opt == 'r' && (hm_cli_parse_u64(optarg, UINT32_MAX, &rare) ||
				   !rare))
			return hm_cli_usage_error(CMD, "bad --rare '%s'", optarg);
		if (opt != 'p' && opt != 'r')
			return hm_cli_usage_error(CMD, "bad option");
		if (opt == 'p')
			policy = optarg;
	}
	if (!policy || optind != argc)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR");
	if (rare)
		return print_rare(policy, rare);
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
	if (json) {
		if (print_json(c, m) < 0)
			status = HM_EXIT_FAIL;
	} else {
		print_counts(c, m);
		print_exception(m);
		print_memory(m);
	}
	free(c);
	hm_model_free(m);
	return status;
}
