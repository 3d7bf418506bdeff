// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_report.c - histmac report: one self-contained HTML page (DIR/
 * index.html) to review a policy in a browser: the drawn tree, a
 * searchable list of domains, each domain's ACL and, with --check, its
 * violations.  The page is exporters/report.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_export.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"

#define CMD "report"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac report -p POLICYDIR -o DIR [--check FILE] [options]\n"
"\n"
"Write DIR/index.html: one page, with no network fetches, showing the\n"
"domain tree (click a node to see its domain), a searchable list of all\n"
"domains, and the chosen domain's profile, flags, counters and ACL.\n"
"With --check, domains with violations are marked and their missing\n"
"lines listed.  DIR (and its parents) is created if needed; index.html\n"
"is replaced atomically.\n"
"\n"
"  -p, --policy DIR        the policy directory (TOMOYO text)\n"
"  -o, --output DIR        where to write index.html\n"
"  -c, --check FILE        output of 'histmac check --format json'\n"
"      --highlight FILE    the same as --check\n"
HM_TREE_OPTIONS_HELP
"      --from D            read the policy as tomoyo, tomoyo-2.1 or\n"
"                          tomoyo-1.8 (default: detected)\n"
"      --rare N            a merged policy (provenance.conf): list the\n"
"                          entries fewer than N hosts had (default 2; 0: no list)\n"
"      --unused DAYS       mark the entries not used in the last DAYS days\n"
"                          before the newest event (default 30; 0: none);\n"
"                          the page also draws how learning converged\n"
"                          (histmac stats)\n"
"  -h, --help              this text\n"
"\n"
"Exit: 0 written, 4 written but the policy has errors, 2 usage,\n"
"3 could not read or write.\n");
}

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "check", required_argument, NULL, 'c' },
	{ "highlight", required_argument, NULL, 'c' },
	HM_CLI_OPTS_READ,
	{ "rare", required_argument, NULL, 'r' },
	{ "unused", required_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	HM_TREE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int write_report(const struct hm_model *m,
			const struct hm_export_opts *o, const char *dir)
{
	char *path;
	int r;

	r = hm_cli_mkdir_p(dir, 0755);
	if (r) {
		warnx("%s: %s: %s", CMD, dir, strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (asprintf(&path, "%s/index.html", dir) < 0) {
		warnx("%s: out of memory", CMD);
		return HM_EXIT_FAIL;
	}
	r = hm_cli_export(CMD, &hm_exporter_html, m, o, path);
	if (!r)
		printf("wrote %s: %zu domains\n", path, m->n_domains);
	free(path);
	return r;
}

HM_CMD(report)
{
	struct hm_export_opts o = { 0 };
	struct hm_check_result *check = NULL;
	const char *policy = NULL;
	const char *output = NULL;
	const char *check_file = NULL;
	struct hm_model *m = NULL;
	int dialect = HM_DIALECT_AUTO;
	uint64_t rare = 2;
	int status;
	int c;

	o.rare = 2;
	o.unused = 30;
	while ((c = getopt_long(argc, argv, "p:o:c:h", options, NULL)) != -1) {
		int r = hm_cli_parse_tree_opt(CMD, c, optarg, &o);

		if (r < 0)
			return -r;
		if (r)
			continue;
		switch (c) {
		case 'p':
			policy = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'c':
			check_file = optarg;
			break;
		case HM_OPT_READ_DIALECT:
			return hm_cli_read_dialect_error(CMD);
		case HM_OPT_FROM:
			if (hm_cli_dialect_option(CMD, optarg, &dialect))
				return HM_EXIT_USAGE;
			break;
		case 'r':
			if (hm_cli_parse_u64(optarg, UINT32_MAX, &rare))
				return hm_cli_usage_error(CMD, "bad --rare '%s'",
							  optarg);
			o.rare = (unsigned)rare;
			break;
		case 'u':
			if (hm_cli_parse_u64(optarg, 1000000, &rare))
				return hm_cli_usage_error(CMD, "bad --unused "
							  "'%s'", optarg);
			o.unused = (unsigned)rare;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected argument '%s'",
					  argv[optind]);
	if (!policy || !output)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR and -o DIR");
	if (check_file && hm_cli_load_check(CMD, check_file, &check))
		return HM_EXIT_FAIL;
	o.check = check;
	status = hm_cli_load_provenance(CMD, policy, false, &o.prov);
	if (status != HM_EXIT_FAIL)
		status = hm_cli_load_policy(CMD, policy, dialect, false, &m);
	if (m) {
		int r = write_report(m, &o, output);

		if (r)
			status = r;
	}
	hm_model_free(m);
	hm_provenance_free(o.prov);
	hm_check_result_free(check);
	return status;
}
