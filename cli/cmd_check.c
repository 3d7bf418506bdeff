// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - histmac check: offline permissive mode.  Reads audit
 * records, judges every access against the policy as TOMOYO would have,
 * and prints what is missing, grouped by domain, paste-ready.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/check_out.h"
#include "histmac/pathrule.h"
#include "histmac/policy_io.h"

#define CMD "check"

struct check {
	const char *policy;
	const char *output;
	struct hm_cli_input in;
	bool json;
	bool verbose;
	struct hm_cli_shared sh;	/* dialect: of printed lines */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac check -p POLICYDIR -i LOG... [OPTIONS]\n"
"\n"
"Check audit records against a policy, as TOMOYO's permissive mode would\n"
"have: every access the domain's ACL does not allow (or made in a domain\n"
"the policy does not have) is reported with the entry that would allow it,\n"
"grouped by domain and counted, ready to paste into domain_policy.conf.\n"
"Failed calls that never reached a check (EACCES, EPERM, ENOENT) on objects\n"
"the policy does not allow follow, commented out, as attempts: evidence,\n"
"not violations.  Calls that failed after the check passed (a non-blocking\n"
"connect's EINPROGRESS) are checked like successful ones (docs/PASSED.md).\n"
"\n"
"  -p, --policy DIR       the policy directory\n"
"  -i, --input LOG...     audit logs, oldest first; - is stdin\n"
"  -f, --format F         text (default) or json\n"
"      --dialect D        print lines as tomoyo, tomoyo-2.1 or tomoyo-1.8\n"
"                         (default: the policy's own)\n"
"  -o, --output FILE      write the report to FILE instead of stdout\n"
"      --resolve, --no-resolve, --resolve-root DIR   as for learn; by\n"
"                         default the rule the policy was learned with\n"
"                         (histmac_paths.conf); a different one is warned\n"
"      --no-builtin-rules, --peer-ports A-B, --ephemeral-ports A-B\n"
"                         generalization, as it was used for learning\n"
"  -v, --verbose          list every skipped record on stderr\n"
"  -h, --help             this text\n"
"\n"
"Exit: 0 nothing denied, 1 something denied, 4 the policy has errors,\n"
"2 usage, 3 could not run.\n");
}

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	HM_CLI_OPT_DIALECT,
	HM_CLI_OPTS_PATHS,
	HM_CLI_OPTS_GENERALIZE,
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_option(struct check *C, int c, char *arg)
{
	int r = hm_cli_shared_option(CMD, c, arg, &C->sh);

	if (r != HM_CLI_NOT_SHARED)
		return r;
	switch (c) {
	case 'p': C->policy = arg; return 0;
	case 'i': return hm_cli_input_add(&C->in, arg) ? HM_EXIT_FAIL : 0;
	case 'o': C->output = arg; return 0;
	case 'f':
		if (strcmp(arg, "json") && strcmp(arg, "text"))
			return hm_cli_usage_error(CMD, "unknown format '%s'", arg);
		C->json = !strcmp(arg, "json");
		return 0;
	case 'v': C->verbose = true; return 0;
	default: return hm_cli_usage_error(CMD, "bad option");
	}
}

static int parse_args(struct check *C, int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "p:i:f:o:vh", options, NULL)) != -1) {
		int r;

		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		r = parse_option(C, c, optarg);
		if (r)
			return r;
	}
	for (; optind < argc; optind++) {
		if (!C->in.n_files)
			return hm_cli_usage_error(CMD, "unexpected '%s'",
						  argv[optind]);
		if (hm_cli_input_add(&C->in, argv[optind]))
			return HM_EXIT_FAIL;
	}
	if (!C->policy)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (!C->in.n_files)
		return hm_cli_usage_error(CMD, "-i LOG... is required");
	return 0;
}

static int read_all(struct hm_collector *col, struct hm_checker *ch)
{
	const struct hm_event *ev;
	int r;

	while ((r = hm_collector_next(col, &ev)) == 1) {
		r = hm_checker_event(ch, ev);
		if (r < 0)
			break;
	}
	if (r < 0)
		warnx("%s: %s", CMD, strerror(-r));
	return r;
}

static int report(struct check *C, struct hm_checker *ch,
		  struct hm_collector *col, enum hm_dialect dialect)
{
	const struct hm_collector_stats *cs = hm_collector_stats(col);
	const struct hm_walk_stats *ws = hm_walker_stats(hm_checker_walker(ch));
	struct hm_check_summary s = { .policy = C->policy, .events = cs->events,
				      .accesses = ws->accesses, .walk = ws };
	FILE *f = stdout;
	int r;

	for (int i = 0; i < HM_SKIP_MAX; i++)
		s.collector_skipped += cs->skipped[i];
	if (C->output && !(f = fopen(C->output, "we"))) {
		warn("%s: %s", CMD, C->output);
		return -errno;
	}
	r = C->json ? hm_check_write_json(ch, dialect, &s, f) :
		      hm_check_write_text(ch, dialect, &s, f);
	if (f != stdout && fclose(f) && !r)
		r = -EIO;
	if (r)
		warnx("%s: writing the report: %s", CMD, strerror(-r));
	return r;
}

static int run(struct check *C, struct hm_model *m)
{
	struct hm_collector_opts o;
	struct hm_collector *col = NULL;
	struct hm_checker *ch = NULL;
	struct hm_path_rule rule;
	struct hm_diag d = { 0 };
	size_t n = 0;
	int r;

	hm_collector_opts_init(&o);
	o.resolve = C->sh.resolve;
	o.resolve_root = C->sh.resolve_root;
	o.verbose = C->verbose;
	o.diag = &d;
	/* read paths as the policy names them (histmac_paths.conf) */
	r = hm_path_rule_apply(C->policy, &o, &rule, &d);
	if (r)
		warnx("%s: %s/%s: %s", CMD, C->policy, HM_PATH_RULE_FILE,
		      strerror(-r));
	if (!r)
		r = hm_checker_new(m, &C->sh.lo, &d, &ch);
	if (!r)
		r = hm_cli_open_input(CMD, &C->in, &o, &col);
	if (!r)
		r = read_all(col, ch);
	if (!r)
		r = hm_cli_no_records(CMD, &C->in, hm_collector_stats(col));
	hm_cli_print_diag(&d, stderr);
	if (!r)
		r = report(C, ch, col, C->sh.dialect >= 0 ?
			   (enum hm_dialect)C->sh.dialect : m->dialect);
	if (!r)
		hm_checker_violations(ch, &n);
	hm_collector_free(col);
	hm_path_rule_free(&rule);
	hm_checker_free(ch);
	hm_diag_free(&d);
	if (r)
		return HM_EXIT_FAIL;
	return n ? HM_EXIT_FINDINGS : HM_EXIT_OK;
}

HM_CMD(check)
{
	struct check C = { 0 };
	struct hm_model *m = NULL;
	int status;

	hm_cli_shared_init(&C.sh);
	status = parse_args(&C, argc, argv);
	if (status) {
		free(C.in.files);
		return status < 0 ? HM_EXIT_OK : status;
	}
	status = hm_cli_load_policy(CMD, C.policy, HM_DIALECT_AUTO, false, &m);
	if (status != HM_EXIT_FAIL) {
		int r = run(&C, m);

		/* a broken policy is a finding even when nothing was denied */
		status = r == HM_EXIT_OK ? status : r;
	}
	hm_model_free(m);
	free(C.in.files);
	return status;
}
