// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_import.c - histmac import: read a policy exported as XML back into
 * a TOMOYO policy directory.  The document is validated against the
 * RELAX NG schema while it is read (formats/xml_import.c); any error
 * is printed as FILE:LINE and nothing is written, so a policy is never
 * half imported.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_export.h"
#include "histmac/policy_io.h"
#include "histmac/store.h"
#include "histmac/xml_import.h"

#define CMD "import"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac import --format xml -i FILE (-p POLICYDIR | --dry-run)\n"
"                      [--append | --force] [--wait[=SECONDS]]\n"
"\n"
"Read FILE, written by 'histmac export --format xml', validate it against\n"
"the RELAX NG schema (formats/schema/histmac.rng), and save the policy\n"
"it holds into POLICYDIR (created if needed; each file replaced\n"
"atomically).  Nothing is written unless the whole document is valid.\n"
"\n"
"  -i, --input FILE     the XML document\n"
"  -p, --policy DIR     where to save the policy\n"
"  -f, --format xml     the input format (only xml for now)\n"
"      --dialect D      save as tomoyo, tomoyo-2.1 or tomoyo-1.8\n"
"                       (default: the document's dialect)\n"
"      --schema FILE    validate against this schema instead\n"
"  -n, --dry-run        validate and summarise; write nothing\n"
"      --append         POLICYDIR holds a policy: add the document to it\n"
"      --force          POLICYDIR holds a policy: replace it\n"
"      --wait[=SECONDS] another command is writing POLICYDIR: wait for it\n"
"                       (default: fail at once, exit 3)\n"
"  -h, --help           this text\n"
"\n"
"Exit: 0 imported, 4 the document is invalid (nothing written), 2 usage,\n"
"3 could not read or write, POLICYDIR holds a policy (without --append or\n"
"--force) or is being written by another command.\n");
}

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "policy", required_argument, NULL, 'p' },
	{ "format", required_argument, NULL, 'f' },
	HM_CLI_OPT_DIALECT,
	{ "schema", required_argument, NULL, 's' },
	{ "dry-run", no_argument, NULL, 'n' },
	HM_CLI_OPTS_TARGET,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Under the directory's lock: replace the policy, or add @m to it. */
static int store(struct hm_model *m, const char *dir, int dialect,
		 const struct hm_cli_target *t)
{
	struct hm_diag d = { 0 };
	struct hm_store *s;
	struct hm_model *old = NULL;
	bool had;
	int status = hm_cli_take_target(CMD, dir, t, &d, &s, &had);

	if (status != HM_EXIT_OK)
		return status;
	if (had && t->append) {
		status = hm_cli_store_load(CMD, s, false, &old);
		if (status == HM_EXIT_OK && hm_model_merge(old, m) < 0)
			status = HM_EXIT_FAIL;
		m = old;
	}
	if (dialect >= 0)
		hm_model_set_dialect(m, (enum hm_dialect)dialect);
	if (status == HM_EXIT_OK)
		status = hm_cli_store_save(CMD, s, m, NULL, 0);
	if (status == HM_EXIT_OK && hm_store_converted(s)->n_commented)
		warnx("%s: %lu entries cannot be said in %s and were written "
		      "as comments", CMD, hm_store_converted(s)->n_commented,
		      hm_dialect_names[m->dialect]);
	hm_model_free(old);
	hm_cli_close_store(s, status != HM_EXIT_OK);
	hm_diag_free(&d);
	return status;
}

HM_CMD(import)
{
	const char *input = NULL;
	const char *policy = NULL;
	const char *schema = NULL;
	struct hm_diag d = { 0 };
	struct hm_model *m = NULL;
	bool dry_run = false;
	struct hm_cli_shared sh;
	int status = HM_EXIT_OK;
	int r;
	int c;

	hm_cli_shared_init(&sh);
	while ((c = getopt_long(argc, argv, "i:p:f:nh", options, NULL)) != -1) {
		r = hm_cli_shared_option(CMD, c, optarg, &sh);
		if (r != HM_CLI_NOT_SHARED) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'p':
			policy = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "xml"))
				return hm_cli_usage_error(CMD, "unknown format "
							  "'%s' (xml)", optarg);
			break;
		case 's':
			schema = optarg;
			break;
		case 'n':
			dry_run = true;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!input && optind < argc)
		input = argv[optind++];
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected argument '%s'",
					  argv[optind]);
	if (!input || (!policy && !dry_run))
		return hm_cli_usage_error(CMD, "need -i FILE and -p POLICYDIR "
					  "(or --dry-run)");
	r = hm_xml_import(input, schema, &d, &m);
	hm_cli_print_diag(&d, stderr);
	hm_diag_free(&d);
	if (r == -EINVAL) {
		warnx("%s: %s is not a valid policy document; nothing "
		      "imported", CMD, input);
		return HM_EXIT_POLICY;
	}
	if (r) {
		warnx("%s: %s: %s", CMD, input, strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (!dry_run)
		status = store(m, policy, sh.dialect, &sh.target);
	if (status == HM_EXIT_OK)
		printf("%s %s: %zu domains\n", dry_run ? "valid" : "imported",
		       input, m->n_domains);
	hm_model_free(m);
	return status;
}
