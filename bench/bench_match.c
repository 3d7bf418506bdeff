// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_match.c - cost of hm_path_matches() on typical policy patterns and
 * on hostile ones built to make a backtracking matcher explode (many \*
 * or \{\} against long names that almost match).
 *
 * usage: bench_match [SECONDS_PER_CASE]   (default 0.2)
 * Prints one line per case: best time per call of five rounds, name
 * length, result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histmac/word.h"

struct bench_case {
	const char *what;
	char *pattern;
	char *name;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* s repeated n times, then tail; exits on ENOMEM (a benchmark, not lib). */
static char *rep(const char *head, const char *s, size_t n, const char *tail)
{
	size_t len = strlen(head) + strlen(s) * n + strlen(tail) + 1;
	char *out = malloc(len);

	if (!out) {
		perror("bench_match");
		exit(3);
	}
	strcpy(out, head);
	for (size_t i = 0; i < n; i++)
		strcat(out, s);
	strcat(out, tail);
	return out;
}

/* Best of five rounds, so other load on the machine inflates less. */
static void run(const struct bench_case *c, double secs)
{
	struct hm_name n = { .str = c->name, .len = (uint32_t)strlen(c->name) };
	struct hm_name p = { .str = c->pattern,
			     .len = (uint32_t)strlen(c->pattern) };
	double best = 0;
	bool r = false;

	hm_name_fill(&n);
	hm_name_fill(&p);
	if (!hm_word_is_valid(c->pattern, p.len)) {
		printf("%-44s INVALID PATTERN\n", c->what);
		return;
	}
	for (int round = 0; round < 5; round++) {
		unsigned long calls = 0;
		unsigned long batch = 1;
		double t0 = now();
		double t;

		do {
			for (unsigned long i = 0; i < batch; i++)
				r = hm_path_matches(&n, &p);
			calls += batch;
			if (batch < (1ul << 20))
				batch *= 2;
			t = now() - t0;
		} while (t < secs / 5);
		if (!round || t / (double)calls < best)
			best = t / (double)calls;
	}
	printf("%-44s %12.0f ns/call  name %5u B  %s\n", c->what, best * 1e9,
	       n.len, r ? "match" : "no match");
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.2;
	struct bench_case cases[] = {
		{ "typical: /etc/\\* vs /etc/hosts",
		  rep("/etc/\\*", "", 0, ""), rep("/etc/hosts", "", 0, "") },
		{ "typical: /home/\\*/\\* vs /home/bob",
		  rep("/home/\\*/\\*", "", 0, ""),
		  rep("/home/bob", "", 0, "") },
		{ "typical: /usr/\\{\\*\\}/bin/\\* (4 dirs)",
		  rep("/usr/\\{\\*\\}/bin/\\*", "", 0, ""),
		  rep("/usr/lib/x86_64/gcc/12/bin/cc", "", 0, "") },
		{ "typical: /proc/\\$/stat\\* vs /proc/1234/status",
		  rep("/proc/\\$/stat\\*", "", 0, ""),
		  rep("/proc/1234/status", "", 0, "") },
		{ "hostile: /\\*a x19 \\*b vs /a x4000",
		  rep("/", "\\*a", 19, "\\*b"), rep("/", "a", 4000, "") },
		{ "hostile: /\\*a x19 \\*b vs /a x16000",
		  rep("/", "\\*a", 19, "\\*b"), rep("/", "a", 16000, "") },
		{ "hostile: /\\@\\* x10 b vs /a.a. x2000",
		  rep("/", "\\@\\*", 10, "b"), rep("/", "a.", 2000, "") },
		{ "hostile: /\\$1 x19 \\$2 vs /1 x4000",
		  rep("/", "\\$1", 19, "\\$2"), rep("/", "1", 4000, "") },
		{ "hostile: /\\A\\X x9 \\-\\* vs /aF x2000",
		  rep("/", "\\A\\X", 9, "\\-\\*"), rep("/", "aF", 2000, "") },
		{ "hostile: /\\?\\* x19 / vs /\\040 x4000 (no dir)",
		  rep("/", "\\?\\*", 19, "q"), rep("/", "\\040", 4000, "") },
		{ "hostile: /\\{\\*\\}/ x6 x vs /a/ x2000 y",
		  rep("", "/\\{\\*\\}", 6, "/x"), rep("", "/a", 2000, "/y") },
		{ "hostile: /\\{\\}/ x10 x vs / x4000 y",
		  rep("", "/\\{\\}", 10, "/x"), rep("", "/", 4000, "y") },
		{ "hostile: /\\{\\*a\\*\\}/ x3 ... vs /aaaa/ x500",
		  rep("", "/\\{\\*a\\*a\\*\\}", 2, "/\\*a\\*a\\*a\\*b"),
		  rep("", "/aaaaaaaaaaaaaaaa", 500, "/aaaaaaaaaaaaaaaaa") },
		{ "hostile: /\\*a x4000 b vs /a x16000 (L x P)",
		  rep("/\\*", "a", 4000, "b"), rep("/", "a", 16000, "") },
		{ "hostile: /\\*\\-\\*a\\*b x6 vs /ab x4000",
		  rep("/\\*", "\\-\\*a\\*b", 6, ""), rep("/", "ab", 4000, "") },
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		run(&cases[i], secs);
		free(cases[i].pattern);
		free(cases[i].name);
	}
	return 0;
}
