// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain.c - what `histmac sandbox --explain` reports of a domain's
 * subtree (docs/SANDBOX.md "What is enforced"): each entry as policy
 * text and the Landlock grants it becomes, their widenings and what is
 * not enforced; then the summary for the kernel's ABI, what moves add
 * and the set-id programs the table knows.  A report writer, as the
 * exporters are: it writes to the FILE it is given.
 */
#include <stdio.h>
#include <stdlib.h>

#include "histmac/policy_io.h"
#include "internal.h"
#include "landlock_abi.h"

static void print_rights(FILE *f, uint64_t access, uint64_t handled, int abi)
{
	const char *sep = "";

	for (unsigned b = 0; b < 64; b++) {
		if (!(access & (1ULL << b)) || !hm_sbx_fs_right_names[b])
			continue;
		fprintf(f, "%s%s", sep, hm_sbx_fs_right_names[b]);
		if (!(handled & (1ULL << b)) && hm_sbx_right_abi(b) > abi)
			fprintf(f, "(not enforced: ABI %d)",
				hm_sbx_right_abi(b));
		else if (!(handled & (1ULL << b)))
			fputs("(not enforced: --no-truncate)", f);
		sep = ",";
	}
}

/* A port grant, each right saying whether this kernel enforces it. */
static void print_net(FILE *f, const struct hm_sbx_grant *g,
		      const struct hm_sbx_summary *s, int abi)
{
	const char *sep = "";

	for (unsigned b = 0; b < HM_SBX_NET_RIGHTS; b++) {
		int need = hm_sbx_net_right_abi(b);

		if (!(g->access & (1ULL << b)))
			continue;
		fprintf(f, "%s%s", sep, hm_sbx_net_right_names[b]);
		if (abi < need)
			fprintf(f, "(not enforced: ABI %d)", need);
		else if (!(s->handled_net & (1ULL << b)))
			fputs("(not enforced: too many ports)", f);
		sep = ",";
	}
	fprintf(f, " port %lu", (unsigned long)g->port);
	if (g->port_max > g->port)
		fprintf(f, "-%lu", (unsigned long)g->port_max);
}

static void print_grant(FILE *f, const struct hm_sbx_grant *g,
			const struct hm_sbx_summary *s, int abi)
{
	fputs("      ", f);
	if (g->path) {
		print_rights(f, g->access, s->handled_fs, abi);
		fprintf(f, " on %s", g->path);
	} else {
		print_net(f, g, s, abi);
	}
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		if (g->widen & (1u << w))
			fprintf(f, "  [%s]", hm_sbx_widen_words[w]);
	if (g->widen & HM_SBX_SYMLINK)
		fputs("  [symlink: not granted]", f);
	fputc('\n', f);
}

struct explain {
	FILE *f;
	struct hm_model *m;
	const struct hm_sbx_summary *s;
	int abi;
	uint64_t missing;	/* entries granted on a missing object's parent */
	uint64_t symlinks;	/* grants skipped: a symlink on the way */
};

static int explain_entry(const struct hm_acl_head *e, void *arg)
{
	struct explain *x = arg;
	struct hm_sbx_xlat t;
	char *text = NULL;
	int r;

	r = hm_acl_format(x->m, e, HM_DIALECT_18, &text, NULL);
	if (r)
		return r;
	fprintf(x->f, "  %s\n", text);
	free(text);
	/* looked up now, so that [missing] says what applying will do */
	r = hm_sbx_translate(x->m, e, "", HM_SBX_LOOKUP, &t);
	if (r)
		return r;
	for (size_t i = 0; i < t.n; i++)
		print_grant(x->f, &t.grants[i], x->s, x->abi);
	for (size_t i = 0; i < t.n; i++)
		if (t.grants[i].widen & (1u << HM_SBX_W_MISSING)) {
			x->missing++;
			break;
		}
	for (size_t i = 0; i < t.n; i++)
		x->symlinks += !!(t.grants[i].widen & HM_SBX_SYMLINK);
	if (t.unenforced)
		fprintf(x->f, "      not enforced: %s\n",
			hm_sbx_unenforced_text[t.unenforced]);
	if (t.static_exec)
		fprintf(x->f, "      static program: it and what it runs keep "
			"this domain's ruleset (no preload)\n");
	hm_sbx_xlat_fini(&t);
	return 0;
}

/* --no-truncate, said wherever what is enforced is said. */
static void print_truncate(FILE *f, const struct hm_sbx_summary *s, int abi)
{
	if (abi < 3 || (s->handled_fs & HM_LL_FS_TRUNCATE))
		return;
	fprintf(f, "sandbox: fs.truncate not enforced (--no-truncate): "
		"truncate, ftruncate and O_TRUNC of any file are left to file "
		"permissions; %lu entries grant it\n",
		(unsigned long)s->truncate_unenforced);
}

static void print_summary(FILE *f, const struct hm_sbx_summary *s, int abi)
{
	uint64_t ne = 0;

	fprintf(f, "sandbox: %lu domain%s, %lu entries, %lu rules; Landlock "
		"ABI %d\n", (unsigned long)s->domains, s->domains == 1 ? "" :
		"s", (unsigned long)s->entries, (unsigned long)s->grants, abi);
	fputs("sandbox: widened:", f);
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		fprintf(f, " %s %lu", hm_sbx_widen_words[w],
			(unsigned long)s->widened[w]);
	fputc('\n', f);
	for (unsigned u = 1; u < HM_SBX_NE_MAX; u++)
		ne += s->unenforced[u];
	fprintf(f, "sandbox: entries not (wholly) enforced: %lu\n",
		(unsigned long)ne);
	for (unsigned u = 1; u < HM_SBX_NE_MAX; u++)
		if (s->unenforced[u])
			fprintf(f, "  %lu: %s\n", (unsigned long)s->unenforced[u],
				hm_sbx_unenforced_text[u]);
	if (s->static_execs)
		fprintf(f, "sandbox: %lu execute entries run static programs: "
			"they cannot narrow below\n",
			(unsigned long)s->static_execs);
	if (s->abi_unenforced)
		fprintf(f, "sandbox: %lu entries need rights this kernel's "
			"ABI lacks\n", (unsigned long)s->abi_unenforced);
	print_truncate(f, s, abi);
	if (abi < 4 || s->ports_too_wide_bind || s->ports_too_wide_connect)
		fprintf(f, "sandbox: TCP %s%s%s not restricted (%s)\n",
			abi < 4 || s->ports_too_wide_bind ? "bind" : "",
			abi < 4 || (s->ports_too_wide_bind &&
				    s->ports_too_wide_connect) ? "/" : "",
			abi < 4 || s->ports_too_wide_connect ? "connect" : "",
			abi < 4 ? "needs ABI 4" : "too many ports allowed");
	fprintf(f, "sandbox: signals %s, abstract unix sockets %s\n",
		s->scoped & HM_LL_SCOPE_SIGNAL ? "scoped" : "not restricted",
		s->scoped & HM_LL_SCOPE_ABSTRACT_UNIX ? "scoped" :
		"not restricted");
	if (abi < 10 || s->ports_too_wide_udp)
		fprintf(f, "sandbox: UDP not restricted (%s)\n", abi < 10 ?
			"needs ABI 10" : "too many ports allowed");
	if (abi < 9)
		fprintf(f, "sandbox: connecting to pathname unix sockets not "
			"restricted (needs ABI 9)\n");
	fprintf(f, "sandbox: the ruleset holds for %s\n", abi >= 8 ?
		"every thread of the process (ABI 8)" : "the thread that "
		"applies it and what it starts (before ABI 8; applied before "
		"any other thread exists)");
	if (abi < 7)
		fprintf(f, "sandbox: ABI %d writes no audit records: denials "
			"are not in the trail\n", abi);
}

/* What the explained domain's ruleset (COMMAND's, run from it) adds on
 * the sources of moves to another directory (docs/SANDBOX.md "Moving a
 * file to another directory"). */
static int print_moves(FILE *f, struct hm_model *m,
		       const struct hm_domain *root,
		       const struct hm_sbx_summary *s, int abi)
{
	struct hm_sbx_opts o = { .abi = abi, .root = "" };
	struct hm_sbx_widened_move *v;
	size_t n;
	int r = hm_sbx_widened_moves(m, root, &o, &v, &n);

	for (size_t i = 0; !r && i < n; i++) {
		if (!(v[i].added & s->handled_fs))
			continue;
		fputs("sandbox: refer: ", f);
		print_rights(f, v[i].added & s->handled_fs, s->handled_fs, abi);
		fprintf(f, " added on %s: files move from it to %s (%s)\n",
			v[i].from, v[i].to, hm_sbx_widen_text[HM_SBX_W_REFER]);
	}
	if (!r)
		hm_sbx_widened_moves_free(v, n);
	return r;
}

/* Each entry of @root's subtree with its grants, then the summary. */
static int explain(FILE *f, struct hm_model *m, const struct hm_domain *root,
		   const struct hm_sbx_summary *s, int abi)
{
	const struct hm_domain **v;
	struct explain x = { f, m, s, abi, 0, 0 };
	struct hm_sbx_summary sum = *s;
	size_t n;
	int r = hm_sbx_subtree(m, root, &v, &n);

	for (size_t i = 0; !r && i < n; i++) {
		fprintf(f, "%s\n", v[i]->name->str);
		r = hm_sbx_domain_entries(m, v[i], explain_entry, &x);
	}
	if (!r)
		free(v);
	sum.widened[HM_SBX_W_MISSING] = x.missing;	/* the build did not look */
	print_summary(f, &sum, abi);
	if (!r)
		r = print_moves(f, m, root, s, abi);
	if (x.symlinks)
		fprintf(f, "sandbox: %lu objects are symlinks or lie beneath "
			"one: not granted (a symlink is never followed)\n",
			(unsigned long)x.symlinks);
	return r;
}

/* The line about the set-id programs in @blob, if any. */
static void print_setid(FILE *f, const void *blob)
{
	struct hm_sbx_setid ss;

	hm_sbx_setid_scan(blob, &ss);
	if (!ss.programs)
		return;
	fprintf(f, "sandbox: %u execs of set-id programs (the first: %s, by "
		"%s); %u domains run one or reach one (" HM_SBX_SETID "): "
		"without no_new_privs (a root sandbox) they keep their "
		"parent's bound\n", ss.programs, ss.prog, ss.domain,
		ss.domains);
}

int hm_sbx_explain(FILE *f, struct hm_model *m, const struct hm_domain *root,
		   const struct hm_sbx_summary *s, int abi, const void *blob)
{
	int r = explain(f, m, root, s, abi);

	if (!r)
		print_setid(f, blob);
	return r;
}

void hm_sbx_explain_notes(FILE *f, const struct hm_sbx_summary *s, int abi,
			  const void *blob)
{
	print_truncate(f, s, abi);
	print_setid(f, blob);
}
