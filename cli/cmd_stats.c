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
#include <time.h>

#include "cli.h"
#include "histmac/sensitive.h"
#include "histmac/convergence.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/sbuf.h"
#include "histmac/stats.h"

#define CMD "stats"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac stats -p POLICYDIR [--format text|json] [--quiet-events N]\n"
"       histmac stats -p POLICYDIR --rare N | --unused DAYS\n"
"\n"
"Print first the entries to review before anything else: those naming\n"
"password hashes, sudo rules, keys, root's home or another process's\n"
"memory (50 of them; JSON: all), and the domains that processes of more\n"
"than one login entered by exec (audit's auid: any user can run a\n"
"service's program).  Then domains (by profile and flag),\n"
"ACL entries by kind and operation,\n"
"the exception policy's size, convergence (is learning done?), and the\n"
"memory the loaded model uses for names, domains, entries and lookup\n"
"indexes.  Convergence reads the times learn and the enforcer's\n"
"learning mode record per entry (histmac_entries.conf): when the last\n"
"new entry was learned, how many entries each day added or widened,\n"
"and per domain a verdict: still learning (its last event added\n"
"something), quiet for N days, or quiet for N events.  \"Now\" is the\n"
"newest event the policy knows.  Where learn kept its saves\n"
"(histmac_saves.conf), also what each save learned (the last 40; JSON:\n"
"all) and how many saves came after each domain's last new entry.\n"
"\n"
"  -p, --policy DIR   the policy directory\n"
"  -f, --format F     text (default) or json: one object with the same\n"
"                     counts (docs/JSON.md)\n"
"      --quiet-events N  events without a new entry that make a domain\n"
"                     quiet within its last day (default 1000; 0: days only)\n"
"      --unused DAYS  instead, the entries not used (allowed an access,\n"
"                     or were learned) in the last DAYS days before the\n"
"                     newest event, one per line: last use, uses, the\n"
"                     domain and the entry, separated by tabs (with\n"
"                     --format json: an object, docs/JSON.md)\n"
"      --rare N       instead, the entries of a merged policy that fewer\n"
"                     than N of its hosts had (provenance.conf, written by\n"
"                     histmac merge), one per line: HAD/HOSTS, the hosts,\n"
"                     the domain and the entry, separated by tabs\n"
"\n"
"Exit: 0, 4 the policy has errors (stats of what loaded are printed),\n"
"2 usage, 3 could not read.\n");
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

static void print_counts(const struct hm_stats *c, const struct hm_model *m)
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

static void print_exception(const struct hm_stats *c,
			    const struct hm_model *m)
{
	row(0, "exception entries", "%zu (%zu group%s)", c->exception,
	    c->groups, plural(c->groups));
	row(0, "rewrite rules", "%zu", c->rewrites);
	row(0, "dialect", "%s", hm_dialect_names[m->dialect]);
}

static void print_memory(const struct hm_stats *c, const struct hm_model *m)
{
	row(0, "names", "%zu", hm_names_count(m->names));
	printf("memory\n");
	for (int i = 0; i < HM_MEM_CAT_MAX; i++) {
		if (!m->mem.bytes[i])
			continue;
		row(1, hm_mem_cat_names[i], "%zu byte%s in %zu block%s",
		    m->mem.bytes[i], plural(m->mem.bytes[i]), m->mem.count[i],
		    plural(m->mem.count[i]));
	}
	row(1, "total", "%zu byte%s", c->mem_total, plural(c->mem_total));
}

/* " (N saves)" or ", N saves" after a quiet verdict, where the policy
 * keeps its saves and the domain's last new entry is not in the last */
static void print_quiet_saves(const struct hm_convergence *c,
			      const struct hm_conv_domain *cd, bool inside)
{
	if (c->n_saves && cd->quiet_saves)
		printf("%s%llu save%s%s", inside ? ", " : " (",
		       (unsigned long long)cd->quiet_saves,
		       plural(cd->quiet_saves), inside ? "" : ")");
}

static void print_verdict(const struct hm_convergence *c,
			  const struct hm_conv_domain *cd)
{
	switch (cd->verdict) {
	case HM_VERDICT_LEARNING:
		printf("still learning");
		if (c->n_saves && cd->quiet_saves)	/* by events, not saves */
			printf(" (quiet for %llu save%s)",
			       (unsigned long long)cd->quiet_saves,
			       plural(cd->quiet_saves));
		break;
	case HM_VERDICT_QUIET_DAYS:
		printf("quiet for %llu day%s (%llu events",
		       (unsigned long long)cd->quiet_days,
		       plural(cd->quiet_days),
		       (unsigned long long)cd->quiet_events);
		print_quiet_saves(c, cd, true);
		printf(")");
		break;
	case HM_VERDICT_QUIET_EVENTS:
		printf("quiet for %llu events",
		       (unsigned long long)cd->quiet_events);
		print_quiet_saves(c, cd, false);
		break;
	default:
		printf(cd->d->n_acl ? "unknown (no learned times)" :
		       "no entries");
	}
}

/* The text shows the last saves only (a plugin saves every minute);
 * --format json has them all. */
#define SAVES_SHOWN 40
#define SAVES_SHOWN_DOMAIN 5

/* One line per domain: verdict; last new entry; new per day (and per
 * save: #N, counted from 1); the name. */
static void print_conv_domain(const struct hm_convergence *c,
			      const struct hm_conv_domain *cd)
{
	char t[32];
	size_t first;

	printf("    ");
	print_verdict(c, cd);
	printf("; last new %s", hm_utc(cd->last_new, false, t, sizeof(t)));
	for (size_t i = 0; i < cd->n_days; i++)
		printf("%s %s +%llu", i ? "," : ";",
		       hm_utc(cd->days[i].day, true, t, sizeof(t)),
		       (unsigned long long)(cd->days[i].added +
					    cd->days[i].widened));
	first = cd->n_saves > SAVES_SHOWN_DOMAIN ?
		cd->n_saves - SAVES_SHOWN_DOMAIN : 0;
	if (first)
		printf("; saves (%zu earlier),", first);
	for (size_t i = first; i < cd->n_saves; i++)
		printf("%s #%zu +%llu", i == first ? (first ? "" : "; saves") :
		       ",", cd->saves[i].save + 1,
		       (unsigned long long)(cd->saves[i].added +
					    cd->saves[i].widened));
	printf("; %s\n", cd->d->name->str);
}

/* The learner's saves (histmac_saves.conf), where the policy keeps them. */
static void print_saves(const struct hm_convergence *c)
{
	char a[32], label[64];

	if (!c->n_saves)
		return;
	row(1, "saves since the last new entry", "%llu of %zu",
	    (unsigned long long)c->quiet_saves, c->n_saves);
	row(1, "new per save", "events, added, widened");
	if (c->n_saves > SAVES_SHOWN)
		row(2, "...", "%zu earlier saves (--format json)",
		    c->n_saves - SAVES_SHOWN);
	for (size_t i = c->n_saves > SAVES_SHOWN ? c->n_saves - SAVES_SHOWN : 0;
	     i < c->n_saves; i++) {
		const struct hm_save_rec *r = &c->saves[i];

		snprintf(label, sizeof(label), "#%zu %s", i + 1,
			 hm_utc(r->time, false, a, sizeof(a)));
		row(2, label, "%llu, %llu, %llu",
		    (unsigned long long)r->events,
		    (unsigned long long)r->added,
		    (unsigned long long)r->widened);
	}
}

/* Is learning done?  From the entries' stamps (histmac_entries.conf). */
static void print_convergence(const struct hm_convergence *c)
{
	char a[32], b[32];

	if (!c->last_new) {
		row(0, "convergence", "unknown: no entry has a learned time");
		return;
	}
	row(0, "convergence", "last new entry %s; newest event %s",
	    hm_utc(c->last_new, false, a, sizeof(a)),
	    hm_utc(c->end, false, b, sizeof(b)));
	row(1, "domains still learning", "%zu", c->n_verdict[HM_VERDICT_LEARNING]);
	row(1, "domains quiet for days", "%zu", c->n_verdict[HM_VERDICT_QUIET_DAYS]);
	row(1, "domains quiet for events", "%zu",
	    c->n_verdict[HM_VERDICT_QUIET_EVENTS]);
	if (c->n_verdict[HM_VERDICT_UNKNOWN])
		row(1, "domains without learned times", "%zu",
		    c->n_verdict[HM_VERDICT_UNKNOWN]);
	if (c->unstamped)
		row(1, "entries without learned times", "%zu", c->unstamped);
	if (c->no_entries)
		row(1, "domains without entries", "%zu", c->no_entries);
	row(1, "new per day", "added, widened");
	for (size_t i = 0; i < c->n_days; i++)
		row(2, hm_utc(c->days[i].day, true, a, sizeof(a)), "%llu, %llu",
		    (unsigned long long)c->days[i].added,
		    (unsigned long long)c->days[i].widened);
	print_saves(c);
	printf("  per domain: verdict; last new entry; new per day%s; domain\n",
	       c->n_saves ? "; new per save" : "");
	for (size_t i = 0; i < c->n_domains; i++)
		print_conv_domain(c, &c->domains[i]);
}

/* Sensitive entries listed in the text output, at most. */
#define SENSITIVE_LISTED 50

struct sensitive {
	const struct hm_model *m;
	struct hm_sbuf *b;
	size_t n;
};

static int one_sensitive(const struct hm_domain *d,
			 const struct hm_acl_head *e, const char *why,
			 void *arg)
{
	struct sensitive *S = arg;
	char *line = NULL;

	if (S->n++ >= SENSITIVE_LISTED)
		return 0;
	if (hm_acl_format(S->m, e, S->m->dialect, &line, NULL))
		return -ENOMEM;
	hm_sbuf_printf(S->b, "  %s: %s (%s)\n", d->name->str, line, why);
	free(line);
	return 0;
}

/*
 * The entries that grant more than a file (credentials, keys, root's
 * home, another process's memory: histmac/sensitive.h), first: what a
 * reviewer reads before anything else, whoever's activity learned them.
 */
static int print_sensitive(const struct hm_model *m)
{
	struct hm_sbuf text = { 0 };
	struct sensitive S = { .m = m, .b = &text };
	int r = hm_sensitive_entries(m, one_sensitive, &S);

	if (!r && text.oom)
		r = -ENOMEM;
	if (!r) {
		row(0, "review first: sensitive entries", "%zu", S.n);
		fwrite(text.s ? text.s : "", 1, text.len, stdout);
		if (S.n > SENSITIVE_LISTED)
			printf("  ... %zu more (--format json lists all)\n",
			       S.n - SENSITIVE_LISTED);
	}
	hm_sbuf_free(&text);
	return r;
}

/*
 * The domains processes of more than one login entered by exec (audit's
 * auid): any user can run a service's program, and what such a run did
 * is in the domain.
 */
static void print_logins(const struct hm_model *m)
{
	struct hm_sbuf text = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];

		if (!hm_domain_several_logins(d))
			continue;
		hm_sbuf_printf(&text, "  %s: logins ", d->name->str);
		hm_logins_text(&d->logins, &text);
		hm_sbuf_addc(&text, '\n');
		n++;
	}
	row(0, "review first: several logins", "%zu", n);
	fwrite(text.s ? text.s : "", 1, text.len, stdout);
	hm_sbuf_free(&text);
}

/* @b to stdout; -ENOMEM if it ran out, -EIO if the write failed. */
static int put(struct hm_sbuf *b, int r)
{
	if (!r && b->oom)
		r = -ENOMEM;
	if (!r && fwrite(b->s, 1, b->len, stdout) != b->len)
		r = -EIO;
	hm_sbuf_free(b);
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

/* --unused DAYS: entries that allowed nothing for DAYS days before the
 * newest event the policy knows; the oldest use first. */
static int print_unused(const struct hm_model *m, uint64_t days, bool json)
{
	struct hm_unused_list u;
	struct hm_sbuf b = { 0 };
	char t[32];
	int r = hm_unused_find(m, days, &u);

	if (!r && json)
		r = put(&b, hm_unused_write_json(&b, m, &u));
	else if (!r)
		printf("# %zu of %zu entries not used in the %llu day%s "
		       "before %s\n", u.n, u.all, (unsigned long long)days,
		       plural(days), hm_utc(u.end, false, t, sizeof(t)));
	for (size_t i = 0; !r && !json && i < u.n; i++) {
		const struct hm_unused *x = &u.v[i];
		char *line = NULL;

		if (hm_acl_format(m, x->e, m->dialect, &line, NULL)) {
			r = -ENOMEM;
			break;
		}
		printf("%s\t%llu\t%s\t%s\n",
		       x->last ? hm_utc(x->last, false, t, sizeof(t)) : "never",
		       (unsigned long long)x->uses, x->d->name->str, line);
		free(line);
	}
	hm_unused_free(&u);
	return r;
}

struct stats_args {
	const char *policy;
	uint64_t rare;
	uint64_t unused;
	bool has_unused;
	uint64_t quiet_events;
	bool json;
};

static int parse_stats(int argc, char **argv, struct stats_args *a)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "rare", required_argument, NULL, 'r' },
		{ "unused", required_argument, NULL, 'u' },
		{ "quiet-events", required_argument, NULL, 'q' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "p:f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return -1;
		case 'f':
			a->json = !strcmp(optarg, "json");
			if (!a->json && strcmp(optarg, "text"))
				return hm_cli_usage_error(CMD, "unknown format "
							  "'%s' (text, json)",
							  optarg);
			break;
		case 'r':
			if (hm_cli_parse_u64(optarg, UINT32_MAX, &a->rare) ||
			    !a->rare)
				return hm_cli_usage_error(CMD, "bad --rare '%s'",
							  optarg);
			break;
		case 'u':
			if (hm_cli_parse_u64(optarg, 1000000, &a->unused))
				return hm_cli_usage_error(CMD, "bad --unused "
							  "'%s'", optarg);
			a->has_unused = true;
			break;
		case 'q':
			if (hm_cli_parse_u64(optarg, UINT64_MAX / 2,
					     &a->quiet_events))
				return hm_cli_usage_error(CMD, "bad "
							  "--quiet-events '%s'",
							  optarg);
			break;
		case 'p':
			a->policy = optarg;
			break;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!a->policy || optind != argc)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR");
	if (a->rare && a->has_unused)
		return hm_cli_usage_error(CMD, "--rare or --unused, not both");
	return 0;
}

static int print_stats(const struct stats_args *a, const struct hm_model *m)
{
	struct hm_convergence *conv = NULL;
	struct hm_stats *c = calloc(1, sizeof(*c));
	struct hm_sbuf b = { 0 };
	int r = c ? hm_convergence_new(m, a->quiet_events, &conv) : -ENOMEM;

	if (!r)
		hm_stats_count(m, c);
	if (!r && a->json) {
		r = put(&b, hm_stats_write_json(&b, m, c, conv));
	} else if (!r) {
		r = print_sensitive(m);
		print_logins(m);
		print_counts(c, m);
		print_exception(c, m);
		print_convergence(conv);
		print_memory(c, m);
	}
	hm_convergence_free(conv);
	free(c);
	return r;
}

HM_CMD(stats)
{
	struct stats_args a = { .quiet_events = HM_CONV_QUIET_EVENTS };
	struct hm_model *m;
	int status = parse_stats(argc, argv, &a);

	if (status)
		return status < 0 ? HM_EXIT_OK : status;
	if (a.rare)
		return print_rare(a.policy, a.rare);
	status = hm_cli_load_policy(CMD, a.policy, HM_DIALECT_AUTO, false, &m);
	if (status == HM_EXIT_FAIL)
		return status;
	if (a.has_unused ? print_unused(m, a.unused, a.json) :
			   print_stats(&a, m))
		status = HM_EXIT_FAIL;
	hm_model_free(m);
	return status;
}
