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
#include "histmac/history.h"
#include "histmac/packages.h"
#include "histmac/pathrule.h"
#include "histmac/sandbox.h"
#include "histmac/policy_io.h"
#include "histmac/store.h"

#define CMD "check"

struct check {
	const char *policy;
	const char *output;
	struct hm_cli_input in;
	char **command;			/* -- COMMAND [ARGS]: traced */
	bool json;
	bool list_attempts;
	bool record_use;
	bool verbose;
	struct hm_cli_shared sh;	/* dialect: of printed lines */
	struct hm_check_upgrade *upgrades;	/* strings malloc'd */
	size_t n_upgrades;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac check -p POLICYDIR -i LOG... [OPTIONS]\n"
"       histmac check -p POLICYDIR [OPTIONS] -- COMMAND [ARGS]\n"
"\n"
"Check audit records against a policy, as TOMOYO's permissive mode would\n"
"have: every access the domain's ACL does not allow (or made in a domain\n"
"the policy does not have) is reported with the entry that would allow it,\n"
"grouped by domain and counted, ready to paste into domain_policy.conf.\n"
"Failed calls that never reached a check (EACCES, EPERM, ENOENT) on objects\n"
"the policy does not allow follow, commented out, as attempts: evidence,\n"
"not violations, summed per domain and error in a few lines (the JSON\n"
"report lists them all).  A domain whose program's Debian package has\n"
"another version installed than when it was learned is marked \"upgraded\n"
"since learned\" (histmac_entries.conf).  Calls that failed after the check passed (a non-blocking\n"
"connect's EINPROGRESS) are checked like successful ones (docs/PASSED.md).\n"
"A call Landlock denied (its audit record; histmac sandbox) is a violation\n"
"marked enforced, or counted in the header when the policy allows it or\n"
"TOMOYO checks no such access; the sandbox's own accesses (reads of its\n"
"preload library and table copy, writes of its report FIFO) are counted\n"
"there too (docs/SANDBOX.md).  An O_APPEND open for writing is judged as\n"
"histmac enforce judges it on a file that is not append-only: it needs\n"
"\"file write\" (docs/ENFORCE.md).\n"
"With -- COMMAND, COMMAND runs traced (ptrace and seccomp, as histmac learn\n"
"-- COMMAND: no root, no auditd) and what it and every process it starts\n"
"do is checked; the exit status is check's, COMMAND's is said on stderr\n"
"when it is not 0.\n"
"\n"
"  -p, --policy DIR       the policy directory\n"
"  -i, --input LOG...     audit logs, oldest first; - is stdin\n"
"  -f, --format F         text (default) or json\n"
"      --dialect D        print lines as tomoyo, tomoyo-2.1 or tomoyo-1.8\n"
"                         (default: the policy's own)\n"
"  -o, --output FILE      write the report to FILE instead of stdout\n"
"      --attempts         list every attempt (text), not the summary\n"
"      --record-use       count each access an entry allowed into the\n"
"                         policy's histmac_entries.conf (uses, last use;\n"
"                         histmac stats --unused); takes the directory's\n"
"                         lock.  Each run counts: record a log once\n"
"      --resolve, --no-resolve, --resolve-root DIR   as for learn; by\n"
"                         default the rule the policy was learned with\n"
"                         (histmac_paths.conf); a different one is warned\n"
"      --threads N        parse -i logs on N threads (default: one per online\n"
"                         CPU; 1: one thread); the report is the same\n"
"      --no-builtin-rules, --peer-ports A-B, --ephemeral-ports A-B\n"
"                         generalization, as it was used for learning\n"
"  -v, --verbose          list every skipped record on stderr\n"
"  -h, --help             this text\n"
"\n"
"Exit: 0 nothing denied, 1 something denied or an object not proven\n"
"(docs/PATHS.md), 4 the policy has errors,\n"
"2 usage, 3 could not run.\n");
}

enum { OPT_ATTEMPTS = 256, OPT_RECORD_USE };	/* below HM_OPT_* */

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	HM_CLI_OPT_DIALECT,
	{ "attempts", no_argument, NULL, OPT_ATTEMPTS },
	{ "record-use", no_argument, NULL, OPT_RECORD_USE },
	HM_CLI_OPTS_PATHS,
	HM_CLI_OPT_THREADS,
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
	case OPT_ATTEMPTS: C->list_attempts = true; return 0;
	case OPT_RECORD_USE: C->record_use = true; return 0;
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
	C->command = hm_cli_command(argc, argv);
	for (; optind < argc; optind++) {
		if (!C->in.n_files)
			return hm_cli_usage_error(CMD, "unexpected '%s'",
						  argv[optind]);
		if (hm_cli_input_add(&C->in, argv[optind]))
			return HM_EXIT_FAIL;
	}
	if (!C->policy)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (!C->in.n_files == !C->command)
		return hm_cli_usage_error(CMD, "give one of -i LOG... and "
					  "-- COMMAND");
	return 0;
}

/* Reads of the sandbox's preload library, and the preload's accesses to
 * the sandbox's private directory, are the sandbox's, not the program's
 * (docs/SANDBOX.md "Denials in the audit trail"). */
static int know_preload(struct hm_checker *ch)
{
	char *places[HM_SBX_PRELOAD_PLACES];
	size_t n = hm_sbx_preload_places(places);
	int r = n ? hm_checker_own_files(ch, (const char *const *)places, n) :
		    -ENOMEM;

	for (size_t i = 0; i < n; i++)
		free(places[i]);
	if (r)
		warnx("%s: %s", CMD, strerror(-r));
	return r;
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
				      .accesses = ws->accesses, .walk = ws,
				      .list_attempts = C->list_attempts,
				      .upgrades = C->upgrades,
				      .n_upgrades = C->n_upgrades };
	FILE *f = stdout;
	int r;

	struct hm_tracker_stats ts;

	for (int i = 0; i < HM_SKIP_MAX; i++)
		s.collector_skipped += cs->skipped[i];
	hm_tracker_stats(hm_walker_tracker(hm_checker_walker(ch)), &ts);
	s.exe_changed = ts.exe_changed;
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

/* Keep domain @d, learned with another version of its program's
 * package than installed now (@now, NULL: not installed). */
static int note_upgrade(struct hm_model *m, struct hm_domain *d,
			const char *pkg, const char *now, void *arg)
{
	struct check *C = arg;
	struct hm_check_upgrade *u = &C->upgrades[C->n_upgrades];

	(void)m;
	(void)pkg;
	if (now && !strcmp(now, d->package_version->str))
		return 0;
	*u = (struct hm_check_upgrade){ strdup(d->name->str),
		strdup(d->package->str), strdup(d->package_version->str),
		strdup(now ? now : "(none)") };
	C->n_upgrades++;
	return u->domain && u->package && u->learned && u->now ? 0 : -ENOMEM;
}

/*
 * The domains whose program's package has another version under @root
 * than when they were learned (histmac_entries.conf): their violations
 * are marked, as what an upgrade brought.
 */
static int find_upgrades(struct check *C, struct hm_model *m, const char *root)
{
	C->upgrades = calloc(m->n_domains + 1, sizeof(*C->upgrades));
	if (!C->upgrades)
		return -ENOMEM;
	return hm_packages_each(m, root, true, note_upgrade, C);
}

static void free_upgrades(struct check *C)
{
	for (size_t i = 0; i < C->n_upgrades; i++) {
		free((char *)C->upgrades[i].domain);
		free((char *)C->upgrades[i].package);
		free((char *)C->upgrades[i].learned);
		free((char *)C->upgrades[i].now);
	}
	free(C->upgrades);
}

/* The logs, or the command started traced. */
static int open_input(struct check *C, struct hm_collector_opts *o,
		      struct hm_collector **out)
{
	int r;

	if (!C->command)
		return hm_cli_open_input(CMD, &C->in, o, out);
	r = hm_cli_open_trace(CMD, C->command, o, out);
	if (!r)
		hm_cli_trace_signals(*out);
	return r;
}

/* A traced command that did not end well is said; check's status stays
 * the report's. */
static void say_status(struct check *C, const struct hm_collector *col)
{
	int st = hm_cli_command_status(CMD, col, C->command);

	if (st)
		warnx("%s: %s exited %d", CMD, C->command[0], st);
}

static int run(struct check *C, struct hm_model *m)
{
	struct hm_collector_opts o;
	struct hm_collector *col = NULL;
	struct hm_checker *ch = NULL;
	struct hm_path_rule rule;
	struct hm_diag d = { 0 };
	size_t n = 0, n_ex;
	uint64_t unidentified = 0;	/* findings too (docs/PATHS.md) */
	const char *const *ex;
	int r;

	hm_collector_opts_init(&o);
	o.resolve = C->sh.resolve;
	o.resolve_root = C->sh.resolve_root;
	o.threads = hm_cli_threads(C->sh.threads);
	o.verbose = C->verbose;
	o.diag = &d;
	/* read paths as the policy names them (histmac_paths.conf) */
	r = hm_path_rule_apply(C->policy, &o, &rule, &d);
	if (r)
		warnx("%s: %s/%s: %s", CMD, C->policy, HM_PATH_RULE_FILE,
		      strerror(-r));
	/* packages are this host's, or the image's the names are from */
	if (!r && o.resolve != 0)
		r = find_upgrades(C, m, o.resolve_root ? o.resolve_root : "/");
	if (!r)
		r = hm_checker_new(m, &C->sh.lo, &d, &ch);
	if (!r) {
		hm_checker_count_uses(ch, C->record_use);
		r = know_preload(ch);
	}
	if (!r)
		r = open_input(C, &o, &col);
	if (!r)
		r = read_all(col, ch);
	if (!r && C->command)
		say_status(C, col);
	else if (!r)
		r = hm_cli_no_records(CMD, &C->in, hm_collector_stats(col));
	hm_cli_print_diag(&d, stderr);
	if (!r)
		r = report(C, ch, col, C->sh.dialect >= 0 ?
			   (enum hm_dialect)C->sh.dialect : m->dialect);
	if (!r) {
		hm_checker_violations(ch, &n);
		unidentified = hm_checker_unidentified(ch, &ex, &n_ex);
	}
	hm_collector_free(col);
	hm_path_rule_free(&rule);
	hm_checker_free(ch);
	hm_diag_free(&d);
	if (r)
		return HM_EXIT_FAIL;
	return n || unidentified ? HM_EXIT_FINDINGS : HM_EXIT_OK;
}

/*
 * --record-use: the uses this run counted (in @m, cleared after loading)
 * added to the directory's policy as it is now, saved through the store
 * under its lock: only histmac_entries.conf changes (an unchanged policy
 * text is not rewritten).
 */
static int record_uses(const char *dir, const struct hm_model *m)
{
	struct hm_store *s = NULL;
	struct hm_model *now = NULL;
	struct hm_diag d = { 0 };
	int r = hm_cli_open_store(CMD, dir, 10, HM_DIALECT_AUTO, false, &d, &s);

	if (!r)
		r = hm_cli_store_load(CMD, s, false, &now);
	if (!r && hm_model_add_uses(now, m) < 0) {
		warnx("%s: %s: out of memory", CMD, dir);
		r = HM_EXIT_FAIL;
	}
	if (!r)
		r = hm_cli_store_save(CMD, s, now, NULL, 0);
	hm_cli_close_store(s, r != 0);
	hm_model_free(now);
	hm_diag_free(&d);
	return r;
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
		int r;

		if (C.record_use)
			hm_model_clear_uses(m);	/* count this run's alone */
		r = run(&C, m);
		if (r != HM_EXIT_FAIL && C.record_use && record_uses(C.policy, m))
			r = HM_EXIT_FAIL;
		/* a broken policy is a finding even when nothing was denied */
		status = r == HM_EXIT_OK ? status : r;
	}
	hm_model_free(m);
	free_upgrades(&C);
	free(C.in.files);
	return status;
}
