// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics.c - the enforcer's metrics in the text format node-exporter's
 * textfile collector reads (Prometheus exposition format 0.0.4): what
 * the counters, the answer table, the decision cache and the process
 * table say, as histmac_enforcer_* families with HELP and TYPE; the
 * decision latency histogram's buckets (answer.c counts into them);
 * denials by domain, bounded: the first HM_METRICS_DOMAINS domains
 * denied get a count each, any other one is counted as "other" (domain
 * names come from what attackers run); the warnings that the cache or
 * the answer table is too small, once each.  Owns the denial table;
 * daemon.c says when to write (lib's hm_atomic_write_mode()).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enforcer_private.h"
#include "histmac/sbuf.h"

/* fapolicyd's buckets (fapolicyd.timing(5)): 50 us to 1 ms, and tails. */
const uint64_t hm_latency_le_ns[HM_LATENCY_BUCKETS - 1] = {
	50000, 100000, 500000, 1000000, 10000000, 25000000, 50000000,
	100000000, 250000000,
};

/* Warn of a too small cache after this many inserts, when at least one
 * insert in CACHE_EVICT_SHARE evicted a live entry. */
#define CACHE_WARN_INSERTS 1000
#define CACHE_EVICT_SHARE 4

struct denials {
	char *name;
	uint32_t len;
	uint64_t count;
};

struct hm_metrics {
	struct denials d[HM_METRICS_DOMAINS];
	size_t n;
	uint64_t other;		/* denials of domains without a row */
	bool warned_cache;
	bool warned_table;
};

unsigned hm_latency_bucket(uint64_t ns)
{
	unsigned i = 0;

	while (i < HM_LATENCY_BUCKETS - 1 && ns > hm_latency_le_ns[i])
		i++;
	return i;
}

struct hm_metrics *hm_metrics_new(void)
{
	return calloc(1, sizeof(struct hm_metrics));
}

void hm_metrics_free(struct hm_metrics *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->d[i].name);
	free(m);
}

void hm_metrics_deny(struct hm_metrics *m, const struct hm_name *name)
{
	struct denials *d;

	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		d = &m->d[i];
		if (d->len == name->len && !memcmp(d->name, name->str, d->len)) {
			d->count++;
			return;
		}
	}
	d = &m->d[m->n];
	if (m->n == HM_METRICS_DOMAINS || name->len > HM_METRICS_NAME_MAX) {
		m->other++;
		return;
	}
	d->name = strndup(name->str, name->len);
	if (!d->name) {
		m->other++;
		return;
	}
	d->len = name->len;
	d->count = 1;
	m->n++;
}

/*
 * The text format escapes a backslash and a newline, and in a label
 * value (@label) a double quote; a byte it cannot carry (other control
 * bytes, bytes that would not be UTF-8) is written as the literal text
 * \ooo, as TOMOYO names spell it.
 */
void hm_prom_escape(struct hm_sbuf *out, const char *s, size_t len,
		    bool label)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || (c == '"' && label))
			hm_sbuf_printf(out, "\\%c", c);
		else if (c == '\n')
			hm_sbuf_adds(out, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			hm_sbuf_printf(out, "\\\\%03o", c);
		else
			hm_sbuf_addc(out, (char)c);
	}
}

static void family(struct hm_sbuf *b, const char *name, const char *type,
		   const char *help)
{
	hm_sbuf_printf(b, "# HELP histmac_enforcer_%s ", name);
	hm_prom_escape(b, help, strlen(help), false);
	hm_sbuf_printf(b, "\n# TYPE histmac_enforcer_%s %s\n", name, type);
}

/* One sample; @label NULL: none, else label="@value". */
static void sample(struct hm_sbuf *b, const char *name, const char *label,
		   const char *value, uint64_t v)
{
	hm_sbuf_printf(b, "histmac_enforcer_%s", name);
	if (label) {
		hm_sbuf_printf(b, "{%s=\"", label);
		hm_prom_escape(b, value, strlen(value), true);
		hm_sbuf_adds(b, "\"}");
	}
	hm_sbuf_printf(b, " %llu\n", (unsigned long long)v);
}

/* A family of one unlabelled sample. */
static void single(struct hm_sbuf *b, const char *name, const char *type,
		   const char *help, uint64_t v)
{
	family(b, name, type, help);
	sample(b, name, NULL, NULL, v);
}

#define FIELD(f) offsetof(struct hm_enforcer_counters, f)
#define NONE SIZE_MAX

/* Decisions by what answered them: the counters, one row each (@minus:
 * a counter that @field includes and another row reports). */
static const struct {
	const char *result, *reason;
	size_t field, minus;
} decisions[] = {
	{ "allow", "policy", FIELD(allowed), FIELD(global_allowed) },
	{ "allow", "global", FIELD(global_allowed), NONE },
	{ "allow", "cache", FIELD(cache_allowed), NONE },
	{ "allow", "disabled", FIELD(disabled), NONE },
	{ "allow", "learning", FIELD(learned), NONE },
	{ "allow", "permissive", FIELD(permissive), NONE },
	{ "allow", "exec_part", FIELD(exec_part), NONE },
	{ "allow", "unobserved_exec", FIELD(not_judged_exec), NONE },
	{ "allow", "self", FIELD(self), NONE },
	{ "allow", "supervisor", FIELD(granted), NONE },
	{ "allow", "supervisor_learned", FIELD(granted_learned), NONE },
	{ "deny", "policy", FIELD(denied), NONE },
	{ "deny", "supervisor", FIELD(rejected), NONE },
	{ "deny", "supervisor_timeout", FIELD(query_timeouts), NONE },
	{ "default", "exited", FIELD(exited), NONE },
	{ "default", "no_path", FIELD(no_path), NONE },
};

/* The other counters, each a family of its own. */
static const struct {
	const char *name, *help;
	size_t field;
} counters[] = {
#define X(f, s) { #f, s, FIELD(f) },
	HM_ENFORCER_COUNTERS(X)
#undef X
};

static uint64_t at(const struct hm_enforcer_counters *c, size_t field)
{
	return field == NONE ? 0 : *(const uint64_t *)((const char *)c + field);
}

/* Reported in a family of labels (events, decisions)? */
static bool labelled(size_t field)
{
	if (field == FIELD(events) || field == FIELD(open_events) ||
	    field == FIELD(exec_events))
		return true;
	for (size_t i = 0; i < HM_ARRAY_SIZE(decisions); i++)
		if (decisions[i].field == field)
			return true;
	return false;
}

static void write_decisions(struct hm_sbuf *b, const struct hm_enforcer_counters *c)
{
	family(b, "events_total", "counter",
	       "fanotify events read, by kind (open or exec)");
	sample(b, "events_total", "kind", "open", c->open_events);
	sample(b, "events_total", "kind", "exec", c->exec_events);
	family(b, "decisions_total", "counter",
	       "events answered, by result (allow, deny, default: the "
	       "--default answer) and by what decided");
	for (size_t i = 0; i < HM_ARRAY_SIZE(decisions); i++)
		hm_sbuf_printf(b, "histmac_enforcer_decisions_total{result=\"%s\","
			       "reason=\"%s\"} %llu\n", decisions[i].result,
			       decisions[i].reason,
			       (unsigned long long)(at(c, decisions[i].field) -
						    at(c, decisions[i].minus)));
}

/* @ns as seconds, without trailing zeros: 0.00005, 0.25 */
static void seconds(uint64_t ns, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%llu.%09llu",
				    (unsigned long long)(ns / 1000000000ull),
				    (unsigned long long)(ns % 1000000000ull));

	while (n > 2 && out[n - 1] == '0' && out[n - 2] != '.')
		out[--n] = '\0';
}

static void write_latency(struct hm_sbuf *b, const struct hm_answer_stats *as)
{
	uint64_t sum = 0;
	char le[32];

	family(b, "decision_seconds", "histogram",
	       "time from the loop waking to read an event to its answer");
	for (unsigned i = 0; i < HM_LATENCY_BUCKETS; i++) {
		sum += as->latency[i];
		if (i < HM_LATENCY_BUCKETS - 1)
			seconds(hm_latency_le_ns[i], le, sizeof(le));
		else
			strcpy(le, "+Inf");
		hm_sbuf_printf(b, "histmac_enforcer_decision_seconds_bucket"
			       "{le=\"%s\"} %llu\n", le,
			       (unsigned long long)sum);
	}
	hm_sbuf_printf(b, "histmac_enforcer_decision_seconds_sum %.9f\n"
		       "histmac_enforcer_decision_seconds_count %llu\n",
		       (double)as->latency_ns / 1e9, (unsigned long long)sum);
}

static void write_answers(struct hm_sbuf *b, const struct hm_answer_stats *as)
{
	family(b, "answers_total", "counter",
	       "answers written, by who wrote them: the main loop, the "
	       "watchdog (a late decision, or an event it read itself while "
	       "the loop stalled), or at once for want of a free slot");
	sample(b, "answers_total", "by", "loop", as->answered);
	sample(b, "answers_total", "by", "watchdog_late", as->watchdog);
	sample(b, "answers_total", "by", "watchdog_stalled",
	       as->watchdog_drained);
	sample(b, "answers_total", "by", "table_full", as->table_full);
	single(b, "answer_write_errors_total", "counter",
	       "answers the kernel no longer waited for", as->write_errors);
}

static void write_cache(struct hm_sbuf *b, const struct hm_dcache_stats *cs)
{
	single(b, "cache_slots", "gauge", "decision cache entries",
	       cs->slots);
	single(b, "cache_hits_total", "counter", "decision cache hits",
	       cs->hits);
	single(b, "cache_misses_total", "counter", "decision cache misses",
	       cs->misses);
	single(b, "cache_inserts_total", "counter", "decision cache inserts",
	       cs->inserts);
	single(b, "cache_evictions_total", "counter",
	       "decision cache entries replaced while still valid",
	       cs->evictions);
	single(b, "cache_expired_total", "counter",
	       "decision cache entries found older than --cache-ttl",
	       cs->expired);
	single(b, "cache_flushes_total", "counter",
	       "whole decision cache flushes (reload, learning)",
	       cs->invalidations);
}

static void write_procs(struct hm_sbuf *b, const struct hm_metrics_in *in)
{
	char name[64];

	family(b, "processes", "gauge",
	       "processes in the process table; unobserved: started before "
	       "the daemon, placed in <kernel> EXE");
	sample(b, "processes", "state", "tracked", in->ts.procs);
	sample(b, "processes", "state", "unobserved", in->ts.unobserved);
#define X(f, s)								\
	snprintf(name, sizeof(name), "procs_%s_total", #f);		\
	single(b, name, "counter", "process keeper: " s, in->c->procs.f);
	HM_PROCS_COUNTERS(X)
#undef X
}

static void write_denials(struct hm_sbuf *b, const struct hm_metrics *m)
{
	family(b, "denials_total", "counter",
	       "denials by the policy, by domain (the first domains denied; "
	       "the rest: other)");
	for (size_t i = 0; m && i < m->n; i++) {
		hm_sbuf_adds(b, "histmac_enforcer_denials_total{domain=\"");
		hm_prom_escape(b, m->d[i].name, m->d[i].len, true);
		hm_sbuf_printf(b, "\"} %llu\n",
			       (unsigned long long)m->d[i].count);
	}
	sample(b, "denials_total", "domain", "other", m ? m->other : 0);
}

void hm_metrics_text(const struct hm_metrics *m,
		     const struct hm_metrics_in *in, struct hm_sbuf *out)
{
	write_decisions(out, in->c);
	write_latency(out, &in->as);
	write_answers(out, &in->as);
	write_denials(out, m);
	write_cache(out, &in->cs);
	write_procs(out, in);
	for (size_t i = 0; i < HM_ARRAY_SIZE(counters); i++) {
		char name[64];

		if (labelled(counters[i].field))
			continue;
		snprintf(name, sizeof(name), "%s_total", counters[i].name);
		single(out, name, "counter", counters[i].help,
		       at(in->c, counters[i].field));
	}
}

int hm_metrics_write(const struct hm_metrics *m,
		     const struct hm_metrics_in *in, const char *path)
{
	struct hm_sbuf b = { 0 };
	int r;

	hm_metrics_text(m, in, &b);
	/* read by node-exporter's own user */
	r = b.oom ? -ENOMEM : hm_atomic_write_mode(path, b.s, b.len, 0644);
	hm_sbuf_free(&b);
	return r;
}

void hm_metrics_warn(struct hm_metrics *m, const struct hm_metrics_in *in,
		     size_t cache_size)
{
	const struct hm_dcache_stats *cs = &in->cs;

	if (!m->warned_cache && cs->inserts >= CACHE_WARN_INSERTS &&
	    cs->evictions * CACHE_EVICT_SHARE >= cs->inserts) {
		m->warned_cache = true;
		hm_log("warning: the decision cache is too small: %llu of its "
		       "%llu inserts evicted a valid entry (%llu slots); raise "
		       "--cache-size (histmac.conf cache_size, now %zu)",
		       (unsigned long long)cs->evictions,
		       (unsigned long long)cs->inserts,
		       (unsigned long long)cs->slots, cache_size);
	}
	if (!m->warned_table && in->as.table_full) {
		m->warned_table = true;
		hm_log("warning: the answer table (%d events being decided at "
		       "once) was full: %llu events got the --default answer "
		       "unjudged; held supervisor queries fill it (lower "
		       "--query-timeout)", HM_ANSWERS_SLOTS,
		       (unsigned long long)in->as.table_full);
	}
}
