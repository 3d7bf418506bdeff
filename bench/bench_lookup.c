// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_lookup.c - checks per second of hm_domain_allows() on one domain
 * of 10,000 literal and 1,000 patterned file entries, beside a plain
 * linear scan of the same entries with the same matcher (the way the 2007
 * code and the kernel walk a domain's list).  Queries are a fixed mix:
 * half hits on literal entries, a fifth hits on patterns, the rest misses
 * that look like policy paths.  Both answers are compared on every query.
 *
 * usage: bench_lookup [LITERALS PATTERNS QUERIES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histmac/model.h"

static const char *const dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/share/locale/de/LC_MESSAGES",
	"/etc", "/etc/apache2/conf-enabled", "/var/log/apache2", "/var/www/html",
	"/usr/share/zoneinfo/Europe", "/run/systemd", "/var/lib/dpkg/info",
	"/usr/share/perl/5.36", "/home/alice/.cache", "/srv/data/incoming",
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long rng = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* The literal path i: spread over sub-directories of the base dirs. */
static void literal(char *buf, size_t size, unsigned i)
{
	snprintf(buf, size, "%s/d%u/file-%u.conf",
		 dirs[i % HM_ARRAY_SIZE(dirs)], i % 97, i);
}

/* The pattern i and a name it matches. */
static void pattern(char *pat, char *hit, size_t size, unsigned i)
{
	const char *d = dirs[i % HM_ARRAY_SIZE(dirs)];

	switch (i % 4) {
	case 0:
		snprintf(pat, size, "%s/p%u/\\*.log", d, i);
		snprintf(hit, size, "%s/p%u/x%u.log", d, i, rnd(1000));
		break;
	case 1:
		snprintf(pat, size, "%s/p%u/cache-\\$", d, i);
		snprintf(hit, size, "%s/p%u/cache-%u", d, i, rnd(100000));
		break;
	case 2:
		snprintf(pat, size, "%s/p%u/\\{\\*\\}/\\@.db", d, i);
		snprintf(hit, size, "%s/p%u/a/b/x%u.db", d, i, rnd(99));
		break;
	default:
		snprintf(pat, size, "%s/p%u/tmp.\\?\\?\\?\\?\\?\\?", d, i);
		snprintf(hit, size, "%s/p%u/tmp.Ab%04u", d, i, rnd(10000));
		break;
	}
}

static struct hm_name *query(unsigned q, unsigned n_lit, unsigned n_pat)
{
	struct hm_name *n = malloc(sizeof(*n) + 512);
	char *buf = (char *)(n + 1);
	char pat[512];
	unsigned k = rnd(10);

	if (k < 5)
		literal(buf, 512, rnd(n_lit));
	else if (k < 7)
		pattern(pat, buf, 512, rnd(n_pat));
	else if (k < 9)	/* miss: a literal that is not there */
		literal(buf, 512, n_lit + rnd(n_lit));
	else		/* miss: near a pattern */
		snprintf(buf, 512, "%s/p%u/x%u.txt",
			 dirs[q % HM_ARRAY_SIZE(dirs)], rnd(n_pat), q);
	n->str = buf;
	n->len = (uint32_t)strlen(buf);
	hm_name_fill(n);
	return n;
}

static void add(struct hm_model *m, struct hm_domain *d, const char *p)
{
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_READ } };

	if (hm_model_intern(m, p, strlen(p), &e.name.name) ||
	    hm_domain_add(m, d, &e.head, NULL) < 0) {
		fprintf(stderr, "bench_lookup: out of memory\n");
		exit(3);
	}
}

int main(int argc, char **argv)
{
	unsigned n_lit = argc > 3 ? (unsigned)atoi(argv[1]) : 10000;
	unsigned n_pat = argc > 3 ? (unsigned)atoi(argv[2]) : 1000;
	unsigned n_q = argc > 3 ? (unsigned)atoi(argv[3]) : 200000;
	struct hm_model *m = hm_model_new();
	struct hm_domain *d;
	struct hm_name **q;
	char a[512], b[512];
	unsigned hits = 0, scan_hits = 0;
	double t0, t_index, t_scan;

	if (!m || hm_model_domain(m, "<kernel> /usr/sbin/apache2", 26, true,
				  &d) < 0)
		return 3;
	for (unsigned i = 0; i < n_lit; i++) {
		literal(a, sizeof(a), i);
		add(m, d, a);
	}
	for (unsigned i = 0; i < n_pat; i++) {
		pattern(a, b, sizeof(a), i);
		add(m, d, a);
	}
	q = malloc(n_q * sizeof(*q));
	for (unsigned i = 0; i < n_q; i++)
		q[i] = query(i, n_lit, n_pat);

	t0 = now();
	for (unsigned i = 0; i < n_q; i++) {
		struct hm_request r = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
					.name1 = q[i] };

		hits += hm_domain_allows(m, d, &r, NULL);
	}
	t_index = now() - t0;
	t0 = now();
	for (unsigned i = 0; i < n_q; i++) {
		struct hm_request r = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
					.name1 = q[i] };

		for (const struct hm_acl_head *e = d->acl; e; e = e->next)
			if (hm_acl_matches(m, e, &r)) {
				scan_hits++;
				break;
			}
	}
	t_scan = now() - t0;
	printf("entries: %u literal + %u patterned; queries: %u (%u hits)\n",
	       n_lit, n_pat, n_q, hits);
	printf("indexed lookup: %12.0f checks/s\n", n_q / t_index);
	printf("linear scan:    %12.0f checks/s\n", n_q / t_scan);
	printf("speed-up:       %12.1fx\n", t_scan / t_index);
	if (hits != scan_hits) {
		printf("MISMATCH: index %u hits, scan %u hits\n", hits, scan_hits);
		return 1;
	}
	for (unsigned i = 0; i < n_q; i++)
		free(q[i]);
	free(q);
	hm_model_free(m);
	return 0;
}
