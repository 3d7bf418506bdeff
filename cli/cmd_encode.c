// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_encode.c - `histmac encode`: turn raw bytes (stdin lines, or lines
 * of hex) into encoded TOMOYO names, one per line, with hm_encode().
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "histmac/word.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: histmac encode [--hex]\n"
		"\n"
		"Encode each line of stdin as a TOMOYO name: 0x21-0x7e stand for\n"
		"themselves, a backslash becomes \\\\, every other byte \\ooo\n"
		"(a space is \\040, NUL is \\000).  One name per line on stdout.\n"
		"\n"
		"  -x, --hex    each line holds the bytes in hex, two digits per\n"
		"               byte, with optional blanks between bytes\n"
		"               (\"2f 74 6d 70\" or \"2f746d70\"); a malformed line\n"
		"               is reported as stdin:LINE on stderr, prints\n"
		"               nothing, and makes the exit status 1\n"
		"  -h, --help   show this help\n"
		"\n"
		"Without --hex each line is taken as raw bytes, without its\n"
		"newline.\n");
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Decode hex in place: @s becomes the bytes.  On error returns false and
 * points *why at a message, with *col the 1-based column.
 */
static bool unhex(char *s, size_t len, size_t *out_len, const char **why,
		  size_t *col)
{
	size_t o = 0;
	size_t i = 0;

	while (i < len) {
		int hi;
		int lo;

		if (is_blank(s[i])) {
			i++;
			continue;
		}
		hi = hm_hex_digit(s[i]);
		if (hi < 0) {
			*why = "not a hex digit";
			*col = i + 1;
			return false;
		}
		if (i + 1 == len || is_blank(s[i + 1])) {
			*why = "half a byte";
			*col = i + 1;
			return false;
		}
		lo = hm_hex_digit(s[i + 1]);
		if (lo < 0) {
			*why = "not a hex digit";
			*col = i + 2;
			return false;
		}
		s[o++] = (char)(hi << 4 | lo);
		i += 2;
	}
	*out_len = o;
	return true;
}

/* Encode @len bytes at @raw to stdout; false on ENOMEM. */
static bool put_encoded(const char *raw, size_t len, char **buf, size_t *cap)
{
	size_t need = hm_encode_len(raw, len) + 1;

	if (need > *cap) {
		char *b = realloc(*buf, need);

		if (!b)
			return false;
		*buf = b;
		*cap = need;
	}
	hm_encode(*buf, raw, len);
	puts(*buf);
	return true;
}

/**
 * cmd_encode() - `histmac encode`; see usage().
 * @argc: argument count, argv[0] is "encode".
 * @argv: arguments.
 *
 * Returns: the exit status.
 */
int cmd_encode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool hex = false;
	char *line = NULL;
	size_t line_cap = 0;
	char *out = NULL;
	size_t out_cap = 0;
	unsigned long lineno = 0;
	int status = HM_EXIT_OK;
	ssize_t n;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+xh", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			hex = true;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error("encode", "bad option");
		}
	}
	if (optind != argc)
		return hm_cli_usage_error("encode",
					  "reads stdin and takes no arguments");
	while ((n = getline(&line, &line_cap, stdin)) >= 0) {
		size_t len = (size_t)n;
		const char *why;
		size_t col;

		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (hex && !unhex(line, len, &len, &why, &col)) {
			fprintf(stderr, "stdin:%lu: error: %s at column %zu\n",
				lineno, why, col);
			status = HM_EXIT_FINDINGS;
			continue;
		}
		if (!put_encoded(line, len, &out, &out_cap)) {
			warnx("out of memory");
			status = HM_EXIT_FAIL;
			break;
		}
	}
	if (ferror(stdin)) {
		warn("stdin");
		status = HM_EXIT_FAIL;
	}
	free(line);
	free(out);
	return status;
}
