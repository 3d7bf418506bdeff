// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_sandbox.c - histmac sandbox: run COMMAND confined by Landlock to
 * what its domain's subtree learned.  Options, the domain COMMAND enters
 * and what --explain and --stats print; the translation, the table and
 * running COMMAND under it (hm_sbx_run()) are sandbox/'s (docs/SANDBOX.md).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/sandbox.h"

#define CMD "sandbox"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac sandbox -p POLICYDIR [OPTIONS] -- COMMAND [ARG...]\n"
"       histmac sandbox -p POLICYDIR --domain DOMAIN --explain\n"
"\n"
"Run COMMAND confined by Landlock (unprivileged, in the kernel) to what\n"
"the policy learned for its domain: the caller's domain plus the exec of\n"
"COMMAND, by the exception policy's transitions.  The ruleset is the\n"
"union of the domain's subtree (Landlock can only narrow across exec);\n"
"each dynamically linked program below narrows itself to its own\n"
"subtree when it starts (" HM_SBX_PRELOAD_NAME ", set through LD_PRELOAD).\n"
"\n"
"  -p, --policy DIR        the policy directory\n"
"      --domain DOMAIN     the caller's domain (default: rebuilt from the\n"
"                          executables of this process's ancestors); with\n"
"                          no COMMAND, the domain to --explain\n"
"      --mode M            enforcing (default) or dry-run: build and\n"
"                          report everything, run COMMAND unconfined\n"
"      --explain           print each entry's Landlock translation, its\n"
"                          widenings and what is not enforced (stdout\n"
"                          without COMMAND, else stderr)\n"
"      --best-effort       without Landlock, run COMMAND unconfined (and\n"
"                          say so) instead of failing\n"
"      --strict            a program below COMMAND that cannot narrow to\n"
"                          its own domain (static, run without the\n"
"                          preload, table gone, 16 Landlock layers) does\n"
"                          not start; without it, it runs at its parent's\n"
"                          bound and is reported (once per program);\n"
"                          below a root sandbox, a domain kept at its\n"
"                          parent's bound for a set-id program (setid)\n"
"                          is not refused\n"
"      --no-truncate       leave truncation (truncate, ftruncate, O_TRUNC)\n"
"                          to file permissions: faster opens, but any file\n"
"                          the user may write can be truncated\n"
"      --from D            read the policy as tomoyo, tomoyo-2.1 or\n"
"                          tomoyo-1.8 (default: detected)\n"
"      --stats             print how long building and applying took, and\n"
"                          at the end how many programs could not narrow\n"
"                          and how many execs got back the preload's\n"
"                          variables a program had removed (env -i);\n"
"                          the set-id programs and the domains marked\n"
"                          for them\n"
"      --abi N             use at most Landlock ABI N (1-10; default: the\n"
"                          kernel's), as an older kernel would\n"
"  -h, --help              this text\n"
"\n"
"Environment: HISTMAC_SANDBOX_PRELOAD the preload library (default: next\n"
"to histmac, else " HM_SANDBOX_PRELOAD ");\n"
"HISTMAC_SANDBOX_DEBUG=1 makes it report what it does.\n"
"COMMAND runs in a new session, without the caller's controlling\n"
"terminal, and cannot push input into a terminal (TIOCSTI, TIOCLINUX).\n"
"Exit: COMMAND's status once it runs; else, as env, timeout and nice,\n"
"125 histmac failed (the policy lacks the domain or has errors, usage,\n"
"no Landlock, I/O, memory), 126 COMMAND cannot run, 127 COMMAND not\n"
"found.  Without COMMAND (--explain): 1 the policy lacks the domain,\n"
"4 the policy has errors, 2 usage, 3 could not run.\n");
}

enum { OPT_DOMAIN = 256, OPT_MODE, OPT_EXPLAIN, OPT_BEST, OPT_DIALECT,
       OPT_STATS, OPT_ABI, OPT_WRITE_DIALECT, OPT_NO_TRUNCATE, OPT_STRICT };

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "domain", required_argument, NULL, OPT_DOMAIN },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "best-effort", no_argument, NULL, OPT_BEST },
	{ "no-truncate", no_argument, NULL, OPT_NO_TRUNCATE },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "from", required_argument, NULL, OPT_DIALECT },
	{ "dialect", required_argument, NULL, OPT_WRITE_DIALECT },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "abi", required_argument, NULL, OPT_ABI },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *policy;
	const char *domain;
	bool dry_run;
	bool explain;
	bool best_effort;
	bool no_truncate;
	bool strict;
	bool stats;
	int dialect;
	int max_abi;
	char **cmd;		/* NULL: explain only */
};

static int parse(int argc, char **argv, struct args *a)
{
	int c;

	a->dialect = -1;
	a->max_abi = HM_SBX_ABI_MAX;
	while ((c = getopt_long(argc, argv, "+p:h", options, NULL)) != -1) {
		switch (c) {
		case 'p':
			a->policy = optarg;
			break;
		case OPT_DOMAIN:
			a->domain = optarg;
			break;
		case OPT_MODE:
			if (strcmp(optarg, "enforcing") &&
			    strcmp(optarg, "dry-run"))
				return hm_cli_usage_error(CMD, "bad --mode '%s'",
							  optarg);
			a->dry_run = !strcmp(optarg, "dry-run");
			break;
		case OPT_EXPLAIN:
			a->explain = true;
			break;
		case OPT_BEST:
			a->best_effort = true;
			break;
		case OPT_NO_TRUNCATE:
			a->no_truncate = true;
			break;
		case OPT_STRICT:
			a->strict = true;
			break;
		case OPT_STATS:
			a->stats = true;
			break;
		case OPT_ABI: {
			uint64_t v;

			if (hm_cli_parse_u64(optarg, HM_SBX_ABI_MAX, &v) || !v)
				return hm_cli_usage_error(CMD, "bad --abi '%s'",
							  optarg);
			a->max_abi = (int)v;
			break;
		}
		case OPT_WRITE_DIALECT:
			return hm_cli_read_dialect_error(CMD);
		case OPT_DIALECT:
			if (hm_cli_dialect_option(CMD, optarg, &a->dialect))
				return HM_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			exit(hm_cli_finish(HM_EXIT_OK));
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!a->policy)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	a->cmd = optind < argc ? argv + optind : NULL;
	if (!a->cmd && !(a->explain && a->domain))
		return hm_cli_usage_error(CMD, "no COMMAND (only --explain "
					  "with --domain runs without one)");
	return 0;
}

struct plan {
	struct hm_model *m;
	char *prog;		/* COMMAND's path, or NULL */
	char *domain;		/* the domain COMMAND enters */
	const struct hm_domain *d;	/* it in the policy, or NULL */
	char *preload;
	int abi;
	bool ran;		/* COMMAND was started: its status is ours */
};

/* ---------------------------------------------------------------- main */

/* Where COMMAND is and the domain it enters, in @p. */
static int plan_domain(const struct args *a, struct plan *p)
{
	char *caller;
	int r;

	if (!a->cmd) {
		p->domain = strdup(a->domain);
	} else {
		p->prog = hm_sbx_program_path(a->cmd[0]);
		if (!p->prog || access(p->prog, F_OK)) {
			warnx("%s: command not found", a->cmd[0]);
			return HM_SBX_EXIT_NOT_FOUND;
		}
		caller = a->domain ? strdup(a->domain) : hm_sbx_caller_domain(p->m);
		r = caller ? hm_sbx_enter_domain(p->m, caller, p->prog,
						 &p->domain) : -ENOMEM;
		free(caller);
		if (r == -EINVAL)
			return hm_cli_usage_error(CMD, "'%s' is not a domain "
						  "name", a->domain);
		if (r) {
			warnx("cannot compute the domain: %s", strerror(-r));
			return HM_EXIT_FAIL;
		}
	}
	if (!p->domain)
		return HM_EXIT_FAIL;
	hm_model_domain(p->m, p->domain, strlen(p->domain), false,
			(struct hm_domain **)&p->d);
	return 0;
}

/* The rulesets of p->d as a table (@files: the paths it grants the
 * preload, or NULL), with what --stats and --explain say of it. */
static int build(const struct args *a, struct plan *p,
		 const struct hm_sbx_files *files, void **blob, size_t *size)
{
	struct hm_sbx_summary sum = { 0 };
	struct hm_sbx_opts o = { .abi = p->abi, .root = "", .program = p->prog,
				 .preload = p->preload,
				 .table_path = files ? files->table : NULL,
				 .report_path = files ? files->report : NULL,
				 .no_truncate = a->no_truncate };
	struct hm_stopwatch sw = hm_stopwatch_start();
	char t[64];
	int r = hm_sbx_table(p->m, p->d, &o, blob, size, &sum);

	if (r) {
		warnx("cannot build the rulesets: %s", strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (a->stats) {
		fprintf(stderr, "sandbox: rulesets of %lu domains (%lu entries, "
			"%lu rules at the top, %zu bytes)\n",
			(unsigned long)sum.domains, (unsigned long)sum.entries,
			(unsigned long)sum.grants, *size);
		fprintf(stderr, "sandbox: built %s\n",
			hm_stopwatch_text(&sw, t, sizeof(t)));
		hm_sbx_explain_notes(stderr, &sum, p->abi, *blob);
	}
	if (a->explain && hm_sbx_explain(a->cmd ? stderr : stdout, p->m, p->d,
					 &sum, p->abi, *blob))
		return HM_EXIT_FAIL;
	return 0;
}

static int sandbox(const struct args *a, struct plan *p)
{
	struct hm_sbx_files files = { 0 };
	struct hm_sbx_run_opts o = { .cmd = a->cmd, .prog = p->prog,
				     .preload = p->preload,
				     .strict = a->strict, .stats = a->stats };
	bool confine = a->cmd && !a->dry_run;
	size_t size = 0;
	void *blob = NULL;
	int r = 0;

	if (confine) {
		/* a reader of our stderr gone (| head) must not kill us
		 * before the directory is removed; COMMAND gets SIGPIPE back */
		signal(SIGPIPE, SIG_IGN);
		r = hm_sbx_files_make(&files);
		if (r) {
			warnx("cannot make the sandbox's directory: %s",
			      strerror(-r));
			return HM_EXIT_FAIL;
		}
	}
	r = build(a, p, confine ? &files : NULL, &blob, &size);
	if (!r && confine) {
		r = hm_sbx_run(blob, size, &files, &o);
		p->ran = r >= 0;
		r = p->ran ? r : HM_EXIT_FAIL;
	}
	hm_sbx_files_remove(&files);
	free(blob);
	if (r || !a->cmd)
		return r ? r : hm_cli_finish(HM_EXIT_OK);
	if (confine)
		return 0;
	warnx("dry run: %s runs unconfined in %s", a->cmd[0], p->domain);
	return hm_sbx_exec(a->cmd, p->prog);
}

static int no_landlock(const struct args *a, struct plan *p)
{
	const char *why = p->abi == -EOPNOTSUPP ? "disabled at boot" :
			  "not in this kernel";

	if (a->cmd && (a->best_effort || a->dry_run)) {
		warnx("Landlock is %s: running %s UNCONFINED", why, a->cmd[0]);
		return hm_sbx_exec(a->cmd, p->prog);
	}
	warnx("Landlock is %s: nothing can be enforced (--best-effort runs "
	      "the command unconfined)", why);
	return HM_EXIT_FAIL;
}

HM_CMD(sandbox)
{
	struct args a = { 0 };
	struct plan p = { 0 };
	int r = parse(argc, argv, &a);
	bool wrapping = optind < argc;	/* a COMMAND follows the options */

	if (r)
		return wrapping ? HM_SBX_EXIT_OWN : r;
	r = hm_cli_load_policy(CMD, a.policy, a.dialect, false, &p.m);
	if (r == HM_EXIT_POLICY)
		warnx("refusing to sandbox with a policy that has errors");
	if (!r)
		r = plan_domain(&a, &p);
	if (!r && !p.d && (!a.dry_run || !a.cmd)) {
		warnx("domain '%s' is not in the policy (--mode dry-run runs "
		      "it unconfined)", p.domain);
		r = HM_EXIT_FINDINGS;
	}
	if (!r) {
		p.abi = hm_sbx_abi();
		if (p.abi > a.max_abi)
			p.abi = a.max_abi;
		if (p.abi < 0 && !a.cmd) {	/* explain for the newest ABI */
			warnx("Landlock is not available here: explaining for "
			      "ABI %d", a.max_abi);
			p.abi = a.max_abi;
		}
		p.preload = hm_sbx_preload_path();
	}
	if (!r && p.abi < 0)
		r = no_landlock(&a, &p);
	else if (!r && !p.d && !a.cmd)
		r = HM_EXIT_FINDINGS;	/* nothing to explain */
	else if (!r && !p.d) {
		warnx("dry run: %s runs unconfined in '%s', which the policy "
		      "lacks", a.cmd[0], p.domain);
		r = hm_sbx_exec(a.cmd, p.prog);
	}
	else if (!r)
		r = sandbox(&a, &p);
	free(p.prog);
	free(p.domain);
	free(p.preload);
	hm_model_free(p.m);
	return wrapping && !p.ran && r && r < HM_SBX_EXIT_OWN ? HM_SBX_EXIT_OWN :
	       r;
}
