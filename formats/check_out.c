// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_out.c - writes the checker's grouped violations as paste-ready
 * policy text or as JSON.  Reads the checker; owns nothing beyond one
 * call.  Entries are printed by the policy writer (hm_acl_format), so a
 * reported line is exactly what `histmac learn` would have written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "formats_private.h"
#include "histmac/check_out.h"
#include "histmac/policy_io.h"

static size_t count_domains(const struct hm_violation *const *v, size_t n)
{
	size_t d = 0;

	for (size_t i = 0; i < n; i++)
		d += !i || v[i]->domain != v[i - 1]->domain;
	return d;
}

static uint64_t count_denied(const struct hm_violation *const *v, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i]->count;
	return sum;
}

static const char *errno_name(int err)
{
	const char *s = err > 0 ? strerrorname_np(err) : NULL;

	return s ? s : "?";
}

/* " on node A" / " on nodes A, B and more" (multi-host logs). */
static void text_nodes(struct hm_sbuf *b, const struct hm_violation *v)
{
	if (!v->n_nodes)
		return;
	hm_sbuf_printf(b, " on node%s ", v->n_nodes > 1 ? "s" : "");
	for (uint32_t i = 0; i < v->n_nodes; i++) {
		if (i)
			hm_sbuf_adds(b, ", ");
		hm_sbuf_add_printable(b, v->nodes[i]->str, v->nodes[i]->len);
	}
	if (v->more_nodes)
		hm_sbuf_adds(b, " and more");
}

/* One listed entry: a comment saying how often, when, who; the line.
 * @lead prefixes the line ("" for violations, "# " for attempts). */
static void text_violation(struct hm_sbuf *b, const struct hm_model *vm,
			   const struct hm_violation *v,
			   enum hm_dialect dialect, const char *lead)
{
	char first[32];
	char *line = NULL;

	hm_utc(v->first_sec, false, first, sizeof(first));
	hm_sbuf_printf(b, "# %llu time%s, first %s, pid %lld (",
		       (unsigned long long)v->count, v->count == 1 ? "" : "s",
		       first, (long long)v->example_pid);
	hm_sbuf_add_printable(b, v->example_comm ? v->example_comm : "?",
			      v->example_comm ? strlen(v->example_comm) : 1);
	hm_sbuf_adds(b, ")");
	text_nodes(b, v);
	if (v->example_errno)
		hm_sbuf_printf(b, ", %s", errno_name(v->example_errno));
	hm_sbuf_printf(b, ", audit serial %llu",
		       (unsigned long long)v->example_serial);
	if (v->enforced)
		hm_sbuf_printf(b, "; enforced: Landlock denied %llu",
			       (unsigned long long)v->enforced);
	hm_sbuf_adds(b, "\n");
	if (v->append_opens)
		hm_sbuf_printf(b, "# %llu O_APPEND open%s judged as file write: "
			       "histmac enforce asks write unless the file is "
			       "append-only (chattr +a), which the audit trail "
			       "does not show; append is what a TOMOYO kernel "
			       "asks\n", (unsigned long long)v->append_opens,
			       v->append_opens == 1 ? "" : "s");
	if (hm_acl_format(vm, v->entry, dialect, &line, NULL)) {
		b->oom = true;
		return;
	}
	hm_sbuf_printf(b, "%s%s\n", lead, line);
	free(line);
}

static const struct hm_check_upgrade *
upgrade_of(const struct hm_check_summary *s, const struct hm_name *domain)
{
	for (size_t i = 0; s && i < s->n_upgrades; i++)
		if (!strcmp(s->upgrades[i].domain, domain->str))
			return &s->upgrades[i];
	return NULL;
}

/* A list grouped by domain; @lead as for text_violation(). */
static void text_list(struct hm_sbuf *b, const struct hm_model *vm,
		      const struct hm_violation *const *v, size_t n,
		      enum hm_dialect dialect, const char *lead,
		      const struct hm_check_summary *s)
{
	for (size_t i = 0; i < n; i++) {
		if (!i || v[i]->domain != v[i - 1]->domain) {
			const struct hm_check_upgrade *u =
				upgrade_of(s, v[i]->domain);

			hm_sbuf_printf(b, "%s\n%s%s\n", *lead ? "#" : "",
				       lead, v[i]->domain->str);
			if (v[i]->no_domain)
				hm_sbuf_adds(b, "# this domain is not in the "
					     "policy\n");
			if (u)
				hm_sbuf_printf(b, "# upgraded since learned: "
					       "package %s %s -> %s\n",
					       u->package, u->learned, u->now);
		}
		text_violation(b, vm, v[i], dialect, lead);
	}
}

/* One (domain, errno) group of attempts in the summary. */
struct attempt_group {
	const struct hm_violation *example;	/* the most frequent */
	uint64_t calls;
	size_t entries;
};

static int cmp_group(const void *a, const void *b)
{
	const struct attempt_group *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	if (x->example->seq != y->example->seq)
		return x->example->seq < y->example->seq ? -1 : 1;
	return 0;
}

/* Groups @v (sorted by domain) by domain and the example's errno; the
 * caller frees *@out.  Returns: the number of groups, or -ENOMEM. */
static ssize_t group_attempts(const struct hm_violation *const *v, size_t n,
			      struct attempt_group **out)
{
	struct attempt_group *g = calloc(n ? n : 1, sizeof(*g));
	size_t ng = 0, first = 0;	/* first group of the current domain */

	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t k = first;

		if (i && v[i]->domain != v[i - 1]->domain)
			first = k = ng;
		while (k < ng && g[k].example->example_errno != v[i]->example_errno)
			k++;
		if (k == ng)
			g[ng++].example = v[i];
		g[k].calls += v[i]->count;
		g[k].entries++;
		if (v[i]->count > g[k].example->count)
			g[k].example = v[i];
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	*out = g;
	return (ssize_t)ng;
}

/* The default: a few lines, the largest groups first, each with an
 * example entry; past HM_CHECK_ATTEMPT_GROUPS groups only a count. */
#define HM_CHECK_ATTEMPT_GROUPS 10

static void text_attempt_summary(struct hm_sbuf *b, const struct hm_model *am,
				 const struct hm_violation *const *v, size_t n,
				 enum hm_dialect dialect)
{
	struct attempt_group *g = NULL;
	ssize_t ng = group_attempts(v, n, &g);

	if (ng < 0) {
		b->oom = true;
		return;
	}
	for (ssize_t i = 0; i < ng && i < HM_CHECK_ATTEMPT_GROUPS; i++) {
		char *line = NULL;

		if (hm_acl_format(am, g[i].example->entry, dialect, &line,
				  NULL)) {
			b->oom = true;
			break;
		}
		hm_sbuf_printf(b, "#   %llu %s in ",
			       (unsigned long long)g[i].calls,
			       errno_name(g[i].example->example_errno));
		hm_sbuf_add_printable(b, g[i].example->domain->str,
				      g[i].example->domain->len);
		hm_sbuf_printf(b, ": %zu entr%s, e.g. %s\n", g[i].entries,
			       g[i].entries == 1 ? "y" : "ies", line);
		free(line);
	}
	if (ng > HM_CHECK_ATTEMPT_GROUPS) {
		unsigned long long rest = 0;

		/* what the summary leaves out still adds up to the total */
		for (ssize_t i = HM_CHECK_ATTEMPT_GROUPS; i < ng; i++)
			rest += g[i].calls;
		hm_sbuf_printf(b, "#   ... %llu more call%s in %zd more group%s "
			       "of domain and error\n", rest, rest == 1 ? "" : "s",
			       ng - HM_CHECK_ATTEMPT_GROUPS,
			       ng - HM_CHECK_ATTEMPT_GROUPS == 1 ? "" : "s");
	}
	free(g);
}

/* Attempts come last, every line commented: pasting the report into the
 * policy must not allow what was refused.  Listed one by one only when
 * asked (@list): most are a program probing files that do not exist. */
static void text_attempts(struct hm_checker *c, enum hm_dialect dialect,
			  bool list, struct hm_sbuf *b)
{
	size_t n;
	const struct hm_violation *const *v = hm_checker_attempts(c, &n);
	uint64_t total = count_denied(v, n) + hm_checker_attempts_unlisted(c);

	if (!total)
		return;
	hm_sbuf_printf(b, "\n# ---- attempts: %llu failed call%s that never "
		       "reached a check (EACCES, EPERM, ENOENT)\n"
		       "# ---- on objects the policy does not allow; "
		       "evidence, not violations%s\n",
		       (unsigned long long)total, total == 1 ? "" : "s",
		       list ? "" : " (--attempts lists each)");
	if (list)
		text_list(b, hm_checker_attempts_model(c), v, n, dialect, "# ",
			  NULL);
	else
		text_attempt_summary(b, hm_checker_attempts_model(c), v, n,
				     dialect);
}

/* A count with its first examples, under one line saying what. */
static void text_note(struct hm_sbuf *b, uint64_t n, const char *const *ex,
		      size_t n_ex)
{
	for (size_t i = 0; i < n_ex; i++)
		hm_sbuf_printf(b, "#   %s\n", ex[i]);
	if (n > n_ex)
		hm_sbuf_printf(b, "#   ... %llu more\n",
			       (unsigned long long)(n - n_ex));
}

/* Accesses of objects whose names are not proven (docs/PATHS.md "The
 * rule"): findings, listed apart as no entry would allow them. */
static void text_unidentified(struct hm_sbuf *b, const struct hm_checker *c)
{
	const char *const *ex;
	size_t n_ex;
	uint64_t n = hm_checker_unidentified(c, &ex, &n_ex);

	if (!n)
		return;
	hm_sbuf_printf(b, "# %llu access%s of unidentified objects: the "
		       "record's object is not the one its name reaches "
		       "now (replaced since, a directory swapped for a "
		       "link, or another object mounted there):\n",
		       (unsigned long long)n, n == 1 ? "" : "es");
	text_note(b, n, ex, n_ex);
}

/* What Landlock denied that is no violation, and the sandbox's own
 * reads (docs/SANDBOX.md "Denials in the audit trail"). */
static void text_landlock(struct hm_sbuf *b, const struct hm_checker *c)
{
	static const char *const what[HM_CHECK_LL_MAX] = {
		[HM_CHECK_LL_ALLOWED] = "of accesses the policy allows (a "
			"translation gap, or an object replaced since the "
			"sandbox started)",
		[HM_CHECK_LL_UNJUDGED] = "check derives no access from (a "
			"right or scope TOMOYO does not check)",
	};

	for (int k = 0; k < HM_CHECK_LL_MAX; k++) {
		const char *const *ex;
		size_t n_ex;
		uint64_t n = hm_checker_landlock(c, k, &ex, &n_ex);

		if (!n)
			continue;
		hm_sbuf_printf(b, "# %llu Landlock denial%s %s, not "
			       "violations:\n", (unsigned long long)n,
			       n == 1 ? "" : "s", what[k]);
		text_note(b, n, ex, n_ex);
	}
	if (hm_checker_own_reads(c))
		hm_sbuf_printf(b, "# %llu access%s of the sandbox's own "
			       "files (its preload library, table copy and "
			       "report FIFO) by the programs below it, not "
			       "violations\n",
			       (unsigned long long)hm_checker_own_reads(c),
			       hm_checker_own_reads(c) == 1 ? "" : "es");
}

/* What no audit trail shows, and the calls of this one after which it
 * could not name what a process reached (docs/SECURITY.md): an access
 * made that way is neither learned nor reported, so say so. */
static void text_blind(struct hm_sbuf *b, const struct hm_walk_stats *w,
		       uint64_t exe_changed)
{
	uint64_t n = 0;

	hm_sbuf_adds(b, "# not in any audit trail: reads and writes through "
		     "open descriptors, mmap, io_uring operations\n");
	for (int i = 0; w && i < HM_WBLIND_MAX; i++)
		n += w->blind[i];
	if (exe_changed)
		hm_sbuf_printf(b, "# %llu process%s changed exe= without an exec "
			       "(prctl(PR_SET_MM)?): judged in the domain it "
			       "had\n", (unsigned long long)exe_changed,
			       exe_changed == 1 ? "" : "es");
	if (!n)
		return;
	hm_sbuf_printf(b, "# %llu call%s after which the trail cannot name "
		       "what a process reaches:\n", (unsigned long long)n,
		       n == 1 ? "" : "s");
	for (int i = 0; i < HM_WBLIND_MAX; i++) {
		if (!w->blind[i])
			continue;
		hm_sbuf_printf(b, "#   %llu %s, first in %s\n",
			       (unsigned long long)w->blind[i],
			       hm_walk_blind_names[i],
			       w->blind_domain[i] ? w->blind_domain[i] : "?");
	}
}

int hm_check_write_text(struct hm_checker *c, enum hm_dialect dialect,
			const struct hm_check_summary *s, FILE *f)
{
	size_t n;
	const struct hm_violation *const *v = hm_checker_violations(c, &n);
	const struct hm_model *vm = hm_checker_model(c);
	struct hm_sbuf b = { 0 };
	int r;

	hm_sbuf_printf(&b, "# histmac check of %s: %llu events, %llu "
		       "accesses checked, %llu denied, %zu missing entr%s in "
		       "%zu domain%s\n",
		       s->policy, (unsigned long long)s->events,
		       (unsigned long long)s->accesses,
		       (unsigned long long)(count_denied(v, n) +
					    hm_checker_unlisted(c)), n,
		       n == 1 ? "y" : "ies", count_domains(v, n),
		       count_domains(v, n) == 1 ? "" : "s");
	if (hm_checker_unlisted(c))
		hm_sbuf_printf(&b, "# %llu more denied accesses are not listed: "
			       "over %d distinct missing entries\n",
			       (unsigned long long)hm_checker_unlisted(c),
			       HM_CHECK_MAX_VIOLATIONS);
	text_blind(&b, s->walk, s->exe_changed);
	text_unidentified(&b, c);
	text_landlock(&b, c);
	text_list(&b, vm, v, n, dialect, "", s);
	text_attempts(c, dialect, s->list_attempts, &b);
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	r = fwrite(b.s ? b.s : "", 1, b.len, f) == b.len ? 0 : -EIO;
	hm_sbuf_free(&b);
	return r;
}

static void json_key_str(struct hm_sbuf *b, const char *key, const char *s)
{
	hm_sbuf_printf(b, "\"%s\":", key);
	hm_sbuf_add_json(b, s ? s : "", s ? strlen(s) : 0);
}

static void json_violation(struct hm_sbuf *b, const struct hm_model *vm,
			   const struct hm_violation *v,
			   enum hm_dialect dialect,
			   const struct hm_check_upgrade *u)
{
	char *line = NULL;

	if (hm_acl_format(vm, v->entry, dialect, &line, NULL)) {
		b->oom = true;
		return;
	}
	hm_sbuf_addc(b, '{');
	json_key_str(b, "domain", v->domain->str);
	hm_sbuf_printf(b, ",\"no_domain\":%s,", v->no_domain ? "true" : "false");
	json_key_str(b, "line", line);
	hm_sbuf_printf(b, ",\"count\":%llu,\"first\":%lld,\"last\":%lld,"
		       "\"pid\":%lld,\"serial\":%llu,\"enforced\":%llu,"
		       "\"append_opens\":%llu,",
		       (unsigned long long)v->count, (long long)v->first_sec,
		       (long long)v->last_sec, (long long)v->example_pid,
		       (unsigned long long)v->example_serial,
		       (unsigned long long)v->enforced,
		       (unsigned long long)v->append_opens);
	json_key_str(b, "comm", v->example_comm);
	if (v->example_errno) {
		hm_sbuf_addc(b, ',');
		json_key_str(b, "errno", errno_name(v->example_errno));
	}
	if (v->n_nodes) {
		hm_sbuf_adds(b, ",\"nodes\":[");
		for (uint32_t i = 0; i < v->n_nodes; i++) {
			if (i)
				hm_sbuf_addc(b, ',');
			hm_sbuf_add_json(b, v->nodes[i]->str, v->nodes[i]->len);
		}
		hm_sbuf_printf(b, "],\"more_nodes\":%s",
			       v->more_nodes ? "true" : "false");
	}
	if (u) {
		hm_sbuf_adds(b, ",\"upgraded\":{");
		json_key_str(b, "package", u->package);
		hm_sbuf_addc(b, ',');
		json_key_str(b, "learned", u->learned);
		hm_sbuf_addc(b, ',');
		json_key_str(b, "now", u->now);
		hm_sbuf_addc(b, '}');
	}
	hm_sbuf_addc(b, '}');
	free(line);
}

static void json_list(struct hm_sbuf *b, const struct hm_model *vm,
		      const struct hm_violation *const *v, size_t n,
		      enum hm_dialect dialect, const struct hm_check_summary *s)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			hm_sbuf_addc(b, ',');
		hm_sbuf_adds(b, "\n ");
		json_violation(b, vm, v[i], dialect,
			       upgrade_of(s, v[i]->domain));
	}
}

int hm_check_write_json(struct hm_checker *c, enum hm_dialect dialect,
			const struct hm_check_summary *s, FILE *f)
{
	size_t n;
	const struct hm_violation *const *v = hm_checker_violations(c, &n);
	const struct hm_model *vm = hm_checker_model(c);
	const char *const *ex;
	size_t n_ex;
	struct hm_sbuf b = { 0 };
	int r;

	hm_sbuf_adds(&b, "{");
	json_key_str(&b, "policy", s->policy);
	hm_sbuf_printf(&b, ",\"dialect\":\"%s\",\"events\":%llu,"
		       "\"accesses\":%llu,\"denied\":%llu,\"domains\":%zu,"
		       "\"unlisted\":%llu,\"violations\":[",
		       hm_dialect_names[dialect],
		       (unsigned long long)s->events,
		       (unsigned long long)s->accesses,
		       (unsigned long long)(count_denied(v, n) +
					    hm_checker_unlisted(c)),
		       count_domains(v, n),
		       (unsigned long long)hm_checker_unlisted(c));
	json_list(&b, vm, v, n, dialect, s);
	v = hm_checker_attempts(c, &n);
	hm_sbuf_printf(&b, "\n],\"attempted\":%llu,\"attempts_unlisted\":%llu,"
		       "\"attempts\":[",
		       (unsigned long long)(count_denied(v, n) +
					    hm_checker_attempts_unlisted(c)),
		       (unsigned long long)hm_checker_attempts_unlisted(c));
	json_list(&b, hm_checker_attempts_model(c), v, n, dialect, NULL);
	hm_sbuf_printf(&b, "\n],\"landlock_allowed\":%llu,"
		       "\"landlock_no_access\":%llu,\"sandbox_own_reads\":%llu",
		       (unsigned long long)hm_checker_landlock(c,
				HM_CHECK_LL_ALLOWED, &ex, &n_ex),
		       (unsigned long long)hm_checker_landlock(c,
				HM_CHECK_LL_UNJUDGED, &ex, &n_ex),
		       (unsigned long long)hm_checker_own_reads(c));
	hm_sbuf_printf(&b, ",\"unidentified\":%llu,\"unidentified_examples\":[",
		       (unsigned long long)hm_checker_unidentified(c, &ex,
								   &n_ex));
	for (size_t i = 0; i < n_ex; i++) {
		if (i)
			hm_sbuf_addc(&b, ',');
		hm_sbuf_add_json(&b, ex[i], strlen(ex[i]));
	}
	hm_sbuf_printf(&b, "],\"skipped\":{\"malformed_records\":%llu",
		       (unsigned long long)s->collector_skipped);
	for (int i = 0; s->walk && i < HM_WSKIP_MAX; i++) {
		if (!s->walk->skipped[i])
			continue;
		hm_sbuf_addc(&b, ',');
		hm_sbuf_add_json(&b, hm_walk_skip_ids[i],
				 strlen(hm_walk_skip_ids[i]));
		hm_sbuf_printf(&b, ":%llu",
			       (unsigned long long)s->walk->skipped[i]);
	}
	hm_sbuf_printf(&b, "},\"exe_changed\":%llu,\"blind\":{",
		       (unsigned long long)s->exe_changed);
	for (int i = 0, k = 0; s->walk && i < HM_WBLIND_MAX; i++) {
		if (!s->walk->blind[i])
			continue;
		hm_sbuf_printf(&b, "%s\"%s\":{\"count\":%llu,", k++ ? "," : "",
			       hm_walk_blind_ids[i],
			       (unsigned long long)s->walk->blind[i]);
		json_key_str(&b, "first_domain", s->walk->blind_domain[i]);
		hm_sbuf_addc(&b, '}');
	}
	hm_sbuf_adds(&b, "}}\n");
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	r = fwrite(b.s, 1, b.len, f) == b.len ? 0 : -EIO;
	hm_sbuf_free(&b);
	return r;
}
