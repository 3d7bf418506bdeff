// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_policy.c - histmac policy check: load a policy directory
 * (domain_policy.conf, exception_policy.conf, rewrite.conf) and print
 * every problem as FILE:LINE, then a summary.  The reading is
 * hm_policy_load_dir()'s; this file only parses options and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_io.h"

#define CMD "policy"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac policy check -p POLICYDIR [--from DIALECT]\n"
"\n"
"Load POLICYDIR/domain_policy.conf, exception_policy.conf and rewrite.conf\n"
"(a missing file is empty) and print every problem as FILE:LINE: message,\n"
"then a summary: dialect, domains, ACL entries, exception entries.\n"
"An open or exec entry with a condition `histmac enforce` cannot evaluate\n"
"(exec.argv, exec.envp, path2, ...) is a warning: under the enforcer that\n"
"entry grants nothing.  So is a \"file append\" entry without \"file write\"\n"
"on the name in its domain: the enforcer asks write of an O_APPEND open of\n"
"a file that is not append-only (chattr +a).\n"
"\n"
"  -p, --policy DIR      the policy directory\n"
"      --from D          read as tomoyo (2.6), tomoyo-2.1 or tomoyo-1.8\n"
"                        instead of detecting it from the text\n"
"  -h, --help            this help\n"
"\n"
"Exit: 0 clean, 4 the policy has errors, 2 usage, 3 could not read.\n");
}

static int check(const char *dir, int dialect)
{
	struct hm_diag d = { 0 };
	struct hm_policy_counts pc;
	struct hm_model *m = hm_model_new();
	int lint;
	int r;

	if (!m) {
		fprintf(stderr, "histmac %s: out of memory\n", CMD);
		return HM_EXIT_FAIL;
	}
	r = hm_policy_load_dir(m, dir, dialect, &d);
	if (r < 0) {
		hm_cli_print_diag(&d, stdout);
		fprintf(stderr, "histmac %s: %s: %s\n", CMD, dir,
			strerror(-r));
		hm_diag_free(&d);
		hm_model_free(m);
		return HM_EXIT_FAIL;
	}
	hm_policy_count(m, &pc);
	/* after counting: the lint adds domains of its own to @m */
	lint = hm_policy_lint_enforce(m, dir, &d);
	if (lint < 0)
		fprintf(stderr, "histmac %s: %s: %s\n", CMD, dir,
			strerror(-lint));
	hm_cli_print_diag(&d, stdout);
	printf("%s: %s, %zu domains, %zu entries, %zu exception entries, "
	       "%zu rewrite rules: %lu error%s, %lu warning%s\n",
	       dir, hm_dialect_names[m->dialect], pc.domains, pc.entries,
	       pc.exception, pc.rewrites, d.n_errors,
	       d.n_errors == 1 ? "" : "s", d.n_warnings,
	       d.n_warnings == 1 ? "" : "s");
	r = lint < 0 ? HM_EXIT_FAIL : d.n_errors ? HM_EXIT_POLICY : HM_EXIT_OK;
	hm_diag_free(&d);
	hm_model_free(m);
	return r;
}

int cmd_policy(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		HM_CLI_OPTS_READ,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	int dialect = HM_DIALECT_AUTO;
	int c;

	if (argc >= 2 && (!strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "check"))
		return hm_cli_usage_error(CMD, "expected 'check'");
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			dir = optarg;
			break;
		case HM_OPT_READ_DIALECT:
			return hm_cli_read_dialect_error(CMD);
		case HM_OPT_FROM:
			if (hm_cli_dialect_option(CMD, optarg, &dialect))
				return HM_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!dir)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected '%s'", argv[optind]);
	return check(dir, dialect);
}
