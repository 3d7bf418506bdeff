// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_match.c - `histmac match`: try TOMOYO patterns on names, and check
 * words, paths and domain names for validity.  The semantics all live in
 * analyzer/match.c; this file only reads arguments and lines and prints.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "histmac/word.h"

enum validate_kind {
	VALIDATE_NONE,
	VALIDATE_WORD,
	VALIDATE_PATH,
	VALIDATE_DOMAIN,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: histmac match PATTERN PATH...\n"
		"       histmac match --batch\n"
		"       histmac match --validate word|path|domain\n"
		"\n"
		"Match encoded TOMOYO names against a TOMOYO pattern (\\* \\@ \\? \\$\n"
		"\\+ \\x \\X \\a \\A \\- /\\{X\\}/), with the kernel's semantics.\n"
		"\n"
		"  PATTERN PATH...   print '1<TAB>PATH' or '0<TAB>PATH' for each PATH;\n"
		"                    exit 0 if all matched, 1 if any did not, 2 if\n"
		"                    PATTERN is not a valid word (a PATH that is\n"
		"                    not one prints 0 and a warning)\n"
		"  -b, --batch       read 'PATTERN<TAB>PATH' lines from stdin, print\n"
		"                    '1', '0' or 'invalid' (either is not a valid word)\n"
		"                    for each; exit 0\n"
		"  --validate=KIND   read one word per line from stdin, print '1' if\n"
		"                    it is a valid KIND (word, path or domain), else\n"
		"                    '0'; exit 0\n"
		"  -h, --help        show this help\n"
		"\n"
		"Names are in encoded form: a space is \\040, a backslash \\\\\n"
		"(see 'histmac encode').\n");
}

/* One name built on the stack from @len bytes at @s (NUL-terminated). */
static void fill(struct hm_name *n, const char *s, size_t len)
{
	n->str = s;
	n->len = (uint32_t)len;
	hm_name_fill(n);
}

static bool word_ok(const char *s, size_t len)
{
	return len < UINT32_MAX && hm_word_is_valid(s, len);
}

static int match_args(const char *pattern, char **paths, int n_paths)
{
	struct hm_name p;
	char why[160];
	int status = HM_EXIT_OK;

	if (!word_ok(pattern, strlen(pattern)))
		return hm_cli_usage_error("match",
			"PATTERN '%s' is not a valid word: %s", pattern,
			hm_word_why_invalid(pattern, strlen(pattern), why,
					    sizeof(why)));
	fill(&p, pattern, strlen(pattern));
	for (int i = 0; i < n_paths; i++) {
		size_t len = strlen(paths[i]);
		struct hm_name n;
		bool m = false;

		if (!word_ok(paths[i], len)) {
			warnx("PATH '%s' is not a valid word: %s", paths[i],
			      hm_word_why_invalid(paths[i], len, why,
						  sizeof(why)));
		} else {
			fill(&n, paths[i], len);
			m = hm_path_matches(&n, &p);
		}
		if (!m)
			status = HM_EXIT_FINDINGS;
		printf("%d\t%s\n", m, paths[i]);
	}
	return status;
}

/* Reads every line of stdin into *line; returns its length without '\n'. */
static ssize_t next_line(char **line, size_t *cap)
{
	ssize_t n = getline(line, cap, stdin);

	if (n > 0 && (*line)[n - 1] == '\n')
		(*line)[--n] = '\0';
	return n;
}

static const char *batch_one(char *line, size_t len)
{
	char *tab = memchr(line, '\t', len);
	size_t plen;
	size_t nlen;
	struct hm_name p;
	struct hm_name n;

	if (!tab)
		return "invalid";
	*tab = '\0';
	plen = (size_t)(tab - line);
	nlen = len - plen - 1;
	if (!word_ok(line, plen) || !word_ok(tab + 1, nlen))
		return "invalid";
	fill(&p, line, plen);
	fill(&n, tab + 1, nlen);
	return hm_path_matches(&n, &p) ? "1" : "0";
}

static bool validate_one(enum validate_kind kind, const char *s, size_t len)
{
	switch (kind) {
	case VALIDATE_WORD:
		return hm_word_is_valid(s, len);
	case VALIDATE_PATH:
		return hm_path_is_valid(s, len);
	default:
		return hm_domainname_is_valid(s, len);
	}
}

static int match_stdin(enum validate_kind kind)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = next_line(&line, &cap)) >= 0) {
		if (kind == VALIDATE_NONE)
			puts(batch_one(line, (size_t)n));
		else
			puts(validate_one(kind, line, (size_t)n) ? "1" : "0");
	}
	free(line);
	if (ferror(stdin)) {
		warn("stdin");
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

static enum validate_kind parse_kind(const char *s)
{
	if (!strcmp(s, "word"))
		return VALIDATE_WORD;
	if (!strcmp(s, "path"))
		return VALIDATE_PATH;
	if (!strcmp(s, "domain"))
		return VALIDATE_DOMAIN;
	return VALIDATE_NONE;
}

/**
 * cmd_match() - `histmac match`; see usage().
 * @argc: argument count, argv[0] is "match".
 * @argv: arguments.
 *
 * Returns: the exit status.
 */
int cmd_match(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "validate", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum validate_kind kind = VALIDATE_NONE;
	bool batch = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+bh", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'V':
			kind = parse_kind(optarg);
			if (kind == VALIDATE_NONE)
				return hm_cli_usage_error("match",
					"--validate takes word, path or "
					"domain, not '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error("match", "bad option");
		}
	}
	if (batch && kind != VALIDATE_NONE)
		return hm_cli_usage_error("match",
			"--batch and --validate exclude each other");
	if (batch || kind != VALIDATE_NONE) {
		if (optind != argc)
			return hm_cli_usage_error("match",
				"--batch and --validate read stdin and take "
				"no arguments");
		return match_stdin(kind);
	}
	if (argc - optind < 2)
		return hm_cli_usage_error("match", "need PATTERN and PATH...");
	return match_args(argv[optind], argv + optind + 1, argc - optind - 1);
}
