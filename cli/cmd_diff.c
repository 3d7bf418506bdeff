// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_diff.c - histmac diff: loads two policies and prints what changed
 * between them (hm_policy_diff(), formats/diff.c).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_diff.h"
#include "histmac/policy_io.h"

#define CMD "diff"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac diff POLICYDIR_A POLICYDIR_B\n"
"\n"
"Print the domains and permissions added (+) and removed (-) from A to B,\n"
"one permission per line, then the exception policy lines added and\n"
"removed.  Lines are in TOMOYO 1.8 syntax (it can say every entry).\n"
"When learn recorded Debian packages (histmac_entries.conf: the package\n"
"of each domain's program and of each file its entries name), changes\n"
"are grouped under \"# package NAME OLD -> NEW\" lines, so what an\n"
"upgrade changed is one block: an entry naming a file goes under the\n"
"package that owned the file (its version in A and in B), others under\n"
"their domain's program's package; a domain is named in each group it\n"
"has changes in.  Changes with no package come last, under \"# package\n"
"(none recorded)\".\n"
"\n"
"Exit: 0 same, 1 different, 2 usage, 3 could not read.\n");
}

HM_CMD(diff)
{
	struct hm_model *a = NULL, *b = NULL;
	struct hm_sbuf text = { 0 };
	size_t changes = 0;
	int status;
	int r;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (argc != 3)
		return hm_cli_usage_error(CMD, "need two policy directories");
	status = hm_cli_load_policy(CMD, argv[1], HM_DIALECT_AUTO, false, &a);
	if (status == HM_EXIT_OK)
		status = hm_cli_load_policy(CMD, argv[2], HM_DIALECT_AUTO,
					    false, &b);
	if (status == HM_EXIT_OK) {
		r = hm_policy_diff(&text, &changes, a, b);
		fputs(hm_sbuf_str(&text), stdout);
		if (r) {
			warnx("%s: %s", CMD, strerror(-r));
			status = HM_EXIT_FAIL;
		} else {
			status = changes ? HM_EXIT_FINDINGS : HM_EXIT_OK;
		}
	}
	hm_sbuf_free(&text);
	hm_model_free(a);
	hm_model_free(b);
	return status;
}
