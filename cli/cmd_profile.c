// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_profile.c - histmac profile: list the domains' profiles, or set a
 * profile on domains (and their subtrees), as tomoyo-setprofile and
 * aa-enforce/aa-complain do.  The logic is analyzer/profile.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_io.h"
#include "histmac/profile.h"
#include "histmac/store.h"

#define CMD "profile"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac profile -p POLICYDIR [MODE DOMAIN... [--subtree]]\n"
"\n"
"Without MODE, list every domain with its profile: PROFILE MODE DOMAIN.\n"
"With MODE, give each DOMAIN that profile and save the policy.  Only\n"
"domains in learning mode learn; in a permissive or enforcing domain\n"
"histmac learn reports what the ACL lacks instead of adding it.  New\n"
"domains take the profile of their nearest ancestor, as TOMOYO's do.\n"
"\n"
"  MODE                   disabled, learning, permissive, enforcing (or\n"
"                         d, l, p, e), or a profile number 0-255\n"
"  -p, --policy DIR       the policy directory\n"
"  -s, --subtree          also every domain below each DOMAIN\n"
"      --wait[=SECONDS]   another command is writing POLICYDIR: wait for it\n"
"                         (default: fail at once, exit 3; a learner that\n"
"                         follows a log holds it: stop it, or edit\n"
"                         domain_policy.conf and send it SIGHUP)\n"
"  -h, --help             this text\n"
"\n"
"Exit: 0 done, 1 a DOMAIN is not in the policy (nothing saved), 4 the\n"
"policy has errors, 2 usage, 3 could not read or save, or POLICYDIR is\n"
"being written by another command.\n");
}

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "subtree", no_argument, NULL, 's' },
	HM_CLI_OPT_WAIT,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cmp_domain(const void *a, const void *b)
{
	return hm_name_cmp((*(struct hm_domain *const *)a)->name,
			   (*(struct hm_domain *const *)b)->name);
}

static int list(const struct hm_model *m)
{
	struct hm_domain **v = malloc((m->n_domains + 1) * sizeof(*v));
	size_t n = 0;

	if (!v) {
		warnx("%s: %s", CMD, strerror(ENOMEM));
		return HM_EXIT_FAIL;
	}
	for (size_t i = 0; i < m->n_domains; i++)
		if (m->domains[i]->name)
			v[n++] = m->domains[i];
	qsort(v, n, sizeof(*v), cmp_domain);
	for (size_t i = 0; i < n; i++)
		printf("%u %s %s\n", v[i]->profile,
		       hm_profile_names[hm_profile_mode(v[i]->profile)],
		       v[i]->name->str);
	free(v);
	return HM_EXIT_OK;
}

static int set(struct hm_model *m, struct hm_store *s, uint8_t profile,
	       char **domains, int n, bool subtree)
{
	size_t total = 0;
	int r;

	for (int i = 0; i < n; i++) {
		size_t changed;

		r = hm_profile_set(m, domains[i], strlen(domains[i]), profile,
				   subtree, &changed);
		if (r) {
			warnx("%s: %s: %s", CMD, domains[i],
			      r == -ENOENT ? "no such domain in the policy" :
					     "not a domain name");
			return HM_EXIT_FINDINGS;
		}
		total += changed;
	}
	if (hm_cli_store_save(CMD, s, m, NULL, 0))
		return HM_EXIT_FAIL;
	printf("%zu domain%s changed to profile %u (%s)\n", total,
	       total == 1 ? "" : "s", profile,
	       hm_profile_names[hm_profile_mode(profile)]);
	return HM_EXIT_OK;
}

HM_CMD(profile)
{
	const char *dir = NULL;
	bool subtree = false;
	struct hm_model *m = NULL;
	uint8_t profile = 0;
	struct hm_store *s = NULL;
	struct hm_diag d = { 0 };
	int wait_s = 0;
	int status;
	int c;

	while ((c = getopt_long(argc, argv, "+p:sh", options, NULL)) != -1) {
		switch (c) {
		case 'p': dir = optarg; break;
		case 's': subtree = true; break;
		case HM_OPT_WAIT:
			if (hm_cli_wait_option(CMD, optarg, &wait_s))
				return HM_EXIT_USAGE;
			break;
		case 'h': usage(stdout); return HM_EXIT_OK;
		default: return hm_cli_usage_error(CMD, "bad option");
		}
	}
	/* --subtree may also follow the domains */
	for (int i = optind; i < argc; i++)
		if (!strcmp(argv[i], "--subtree") || !strcmp(argv[i], "-s")) {
			subtree = true;
			memmove(&argv[i], &argv[i + 1],
				(size_t)(argc - i - 1) * sizeof(*argv));
			argc--;
			i--;
		}
	if (!dir)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (optind < argc && hm_profile_parse(argv[optind], &profile))
		return hm_cli_usage_error(CMD, "bad mode '%s'", argv[optind]);
	if (optind + 1 == argc)
		return hm_cli_usage_error(CMD, "MODE needs a DOMAIN");
	/* setting reads and rewrites: hold the lock across both */
	if (optind < argc && hm_cli_open_store(CMD, dir, wait_s,
					       HM_DIALECT_AUTO, false, &d, &s))
		return HM_EXIT_FAIL;
	status = s ? hm_cli_store_load(CMD, s, false, &m) :
		     hm_cli_load_policy(CMD, dir, HM_DIALECT_AUTO, false, &m);
	if (status == HM_EXIT_OK)
		status = s ? set(m, s, profile, argv + optind + 1,
				 argc - optind - 1, subtree) : list(m);
	hm_cli_close_store(s, status == HM_EXIT_FAIL);
	hm_diag_free(&d);
	hm_model_free(m);
	return status;
}
