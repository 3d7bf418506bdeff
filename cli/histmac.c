// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * histmac.c - the command table and main().  Each subcommand lives in
 * cli/cmd_<name>.c with its own option parsing and --help.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const struct hm_cmd hm_commands[] = {
	{ "learn", cmd_learn, "learn per-domain policy from audit records" },
	{ "check", cmd_check, "check audit records against a policy" },
	{ "merge", cmd_merge, "merge policies learned on several hosts" },
	{ "diff", cmd_diff, "domains and permissions added or removed" },
	{ "stats", cmd_stats, "size of a policy, is learning done, unused entries" },
	{ "patternize", cmd_patternize, "suggest rewrite rules and initialize_domain" },
	{ "match", cmd_match, "match TOMOYO patterns, validate words" },
	{ "encode", cmd_encode, "encode raw bytes as TOMOYO names" },
	{ "events", cmd_events, "print normalised audit events (collector)" },
	{ "rules", cmd_rules, "print the audit rules histmac learns from" },
	{ "policy", cmd_policy, "check a policy directory (policy check -p DIR)" },
	{ "profile", cmd_profile, "list or set domains' profiles (learning, enforcing...)" },
	{ "export", cmd_export, "write a policy as TOMOYO 2.6/2.1/1.8, xml, json..." },
	{ "tree", cmd_tree, "draw the domain tree (svg, png, pdf, dot, text)" },
	{ "report", cmd_report, "write an HTML page to review a policy" },
	{ "import", cmd_import, "read an XML export back into a policy" },
	{ "enforce", cmd_enforce, "enforce a policy live with fanotify (daemon)" },
	{ "query", cmd_query, "answer the enforcer's held violations (supervisor)" },
	{ "sandbox", cmd_sandbox, "run a command confined by Landlock to its learned domain" },
	{ "config", cmd_config, "print the options histmac.conf gives a command" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: histmac [--version] [--help] [--config FILE] COMMAND [ARGS]\n"
		"\n"
		"Mandatory access control based on process invocation history,\n"
		"in user space: learn TOMOYO-style per-domain policies from the\n"
		"audit trail, review them, check logs against them, enforce them.\n"
		"\n"
		"Commands:\n");
	for (const struct hm_cmd *c = hm_commands; c->name; c++)
		fprintf(f, "  %-11s %s\n", c->name, c->summary);
	fprintf(f,
		"\n"
		"Run 'histmac help COMMAND' (or 'histmac COMMAND --help') for a\n"
		"command's options.  Options also come from --config FILE\n"
		"(default " HM_CONFIG_FILE "); the command line wins.\n"
		"Exit status: 0 clean, 1 findings (denials, violations,\n"
		"differences), 2 usage error, 3 could not run, 4 the policy read\n"
		"has errors.\n");
}

int hm_cli_finish(int status)
{
	static int closed = -1;		/* 0 closed fine, 1 failed */

	if (closed < 0)
		closed = fflush(stdout) != 0 || ferror(stdout) ||
			 fclose(stdout) != 0;
	if (closed == 1) {
		warn("stdout");
		return HM_EXIT_FAIL;
	}
	return status;
}

int hm_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "histmac %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'histmac %s --help'.\n", cmd);
	return HM_EXIT_USAGE;
}

void hm_cli_print_diag(const struct hm_diag *d, FILE *f)
{
	hm_cli_print_diag_from(d, 0, f);
}

/* The messages of @d from the @from'th on (those told since it was
 * printed). */
void hm_cli_print_diag_from(const struct hm_diag *d, size_t from, FILE *f)
{
	if (from && from >= d->n_msgs)
		return;
	for (size_t i = from; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		fprintf(f, "%s\n", s ? s : "(out of memory)");
		free(s);
	}
	if (d->n_dropped)
		fprintf(f, "... and %lu more messages\n", d->n_dropped);
}

int hm_cli_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}

static int run(int argc, char **argv)
{
	const char *config = NULL;
	int rc;

	if (argc > 2 && !strncmp(argv[1], "--config", 8)) {
		int skip = argv[1][8] == '=' ? 1 : argv[1][8] ? 0 : 2;

		if (skip)
			config = skip == 1 ? argv[1] + 9 : argv[2];
		argc -= skip;
		argv += skip;
	}
	if (argc < 2) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	/* "histmac help CMD" is "histmac CMD --help" */
	if (!strcmp(argv[1], "help") && argc > 2) {
		char *help[] = { argv[2], "--help", NULL };

		for (const struct hm_cmd *c = hm_commands; c->name; c++)
			if (!strcmp(argv[2], c->name))
				return c->fn(2, help);
		fprintf(stderr, "histmac: unknown command '%s'\n", argv[2]);
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("histmac %s\n", HM_VERSION);
		return HM_EXIT_OK;
	}
	for (const struct hm_cmd *c = hm_commands; c->name; c++)
		if (!strcmp(argv[1], c->name)) {
			argc--;
			argv++;
			rc = hm_cli_config_apply(config, &argc, &argv);
			return rc ? rc : c->fn(argc, argv);
		}
	fprintf(stderr, "histmac: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return HM_EXIT_USAGE;
}

/* Every command's output is flushed and checked here, once. */
int main(int argc, char **argv)
{
	return hm_cli_finish(run(argc, argv));
}
