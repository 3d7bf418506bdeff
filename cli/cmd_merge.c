// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_merge.c - histmac merge: the union of policies learned on several
 * hosts (or in several periods), written to a new policy directory.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/store.h"

#define CMD "merge"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac merge POLICYDIR... -o OUTDIR [--dialect D] [--append | --force]\n"
"\n"
"Write the union of the policies to OUTDIR: every domain and entry of\n"
"each, duplicates merged, and their exception policies joined.  A domain\n"
"present in several gets the highest profile, the union of its flags and\n"
"use_group lines, and summed counters, so the result does not depend on\n"
"the order the policies are given in.\n"
"\n"
"  -o, --output DIR    where to write the merged policy (atomically)\n"
"      --dialect D     tomoyo (2.6), tomoyo-2.1 or tomoyo-1.8 (default:\n"
"                      the dialect of the first policy)\n"
"      --append        OUTDIR holds a policy: merge it in too\n"
"      --force         OUTDIR holds a policy: replace it\n"
"      --wait[=SECONDS]  another command is writing OUTDIR: wait for it\n"
"                      (default: fail at once, exit 3)\n"
"  -h, --help          this text\n"
"\n"
"Exit: 0 written, 4 an input policy has errors (nothing written),\n"
"2 usage, 3 could not read or write, OUTDIR holds a policy (without\n"
"--append or --force) or is being written by another command.\n");
}

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	HM_CLI_OPT_DIALECT,
	HM_CLI_OPTS_TARGET,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The host a policy directory stands for: its name (web01/ -> web01). */
static char *host_of(const char *dir)
{
	char *abs = realpath(dir, NULL);
	char *slash = abs ? strrchr(abs, '/') : NULL;
	char *host = slash ? strdup(slash + 1) : NULL;

	free(abs);
	return host;
}

/* The merged policy and its provenance.conf, in one commit. */
static int save_merged(struct hm_store *s, const struct hm_model *out,
		       struct hm_provenance *prov)
{
	struct hm_file_out f = { 0 };
	int status = hm_provenance_text(prov, &f) ? HM_EXIT_FAIL : HM_EXIT_OK;

	if (status == HM_EXIT_OK)
		status = hm_cli_store_save(CMD, s, out, &f, 1);
	else
		warnx("%s: %s", CMD, strerror(ENOMEM));
	free((char *)f.text);
	return status;
}

/* @dir's provenance.conf when it was merged, else @dir's name is a host. */
static int add_provenance(struct hm_provenance *p, const char *dir,
			  const struct hm_model *m)
{
	struct hm_diag d = { 0 };
	char *path, *host = NULL;
	int r;

	if (asprintf(&path, "%s/%s", dir, HM_PROVENANCE_FILE) < 0)
		return HM_EXIT_FAIL;
	r = hm_provenance_read(p, path, &d);
	hm_cli_print_diag(&d, stderr);
	if (r == -ENOENT) {
		host = host_of(dir);
		r = host ? hm_provenance_add_model(p, m, host) : -ENOMEM;
		if (r == -EINVAL)
			warnx("%s: %s: the directory's name '%s' is the host name: "
			      "letters, digits, '.', '-' and '_'", CMD, dir, host);
	} else if (r) {
		warnx("%s: %s: %s", CMD, path, strerror(-r));
	}
	free(host);
	free(path);
	r = r == -EINVAL || d.n_errors ? HM_EXIT_FINDINGS : r ? HM_EXIT_FAIL : 0;
	hm_diag_free(&d);
	return r;
}

static int merge_one(struct hm_model *out, struct hm_provenance *prov,
		     const char *dir, bool first)
{
	struct hm_model *m;
	int status = hm_cli_load_policy(CMD, dir, HM_DIALECT_AUTO, false, &m);
	long n;

	if (status == HM_EXIT_OK)
		status = add_provenance(prov, dir, m);
	if (status != HM_EXIT_OK) {
		hm_model_free(m);
		return status;
	}
	if (first) {
		hm_model_set_dialect(out, m->dialect);
		hm_model_set_max_learning_entry(out, m->max_learning_entry);
	}
	n = hm_model_merge(out, m);
	hm_model_free(m);
	if (n < 0) {
		warnx("%s: %s: %s", CMD, dir, strerror((int)-n));
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

HM_CMD(merge)
{
	const char *output = NULL;
	struct hm_model *out;
	struct hm_provenance *prov = NULL;
	struct hm_diag d = { 0 };
	struct hm_cli_shared sh;
	struct hm_store *s = NULL;
	bool had = false;
	int status = HM_EXIT_OK;
	int c;

	hm_cli_shared_init(&sh);
	while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		int r = hm_cli_shared_option(CMD, c, optarg, &sh);

		if (r != HM_CLI_NOT_SHARED) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!output || optind >= argc)
		return hm_cli_usage_error(CMD, "need POLICYDIR... and -o OUTDIR");
	out = hm_model_new();
	if (!out || hm_provenance_new(&prov)) {
		hm_model_free(out);
		return HM_EXIT_FAIL;
	}
	status = hm_cli_take_target(CMD, output, &sh.target, &d, &s, &had);
	for (int i = optind; status == HM_EXIT_OK && i < argc; i++)
		status = merge_one(out, prov, argv[i], i == optind);
	if (status == HM_EXIT_OK && had && sh.target.append)
		status = merge_one(out, prov, output, false);
	if (status == HM_EXIT_OK) {
		if (sh.dialect >= 0)
			hm_model_set_dialect(out, (enum hm_dialect)sh.dialect);
		status = save_merged(s, out, prov);
		if (status == HM_EXIT_OK)
			printf("merged %d policies into %s: %zu domains\n",
			       argc - optind, output, out->n_domains);
	}
	hm_cli_close_store(s, status != HM_EXIT_OK);
	hm_diag_free(&d);
	hm_model_free(out);
	hm_provenance_free(prov);
	return status;
}
