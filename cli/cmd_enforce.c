// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_enforce.c - histmac enforce: parse the options, hand them to the
 * enforcer daemon (enforcer/daemon.c), return its status.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/enforcer.h"
#include "histmac/pathrule.h"
#include "histmac/policy_io.h"

#define CMD "enforce"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac enforce -p POLICYDIR --mark PATH... [OPTIONS]\n"
"\n"
"Enforce a learned policy live: track every process's domain (the chain of\n"
"programs executed from the kernel down to it) through the proc connector,\n"
"and answer fanotify permission events on the marked paths from the\n"
"policy: an open is allowed when the domain may do all it asks (read;\n"
"write; append for O_APPEND on an append-only (chattr +a) file, else\n"
"write; truncate with O_TRUNC), read from the opening thread's\n"
"/proc/TID/syscall; an open whose flags cannot be trusted (openat2,\n"
"io_uring, a 32-bit call) is judged as read and write.  A file is named\n"
"as the daemon's own mounts name it, never by the path in the opener's\n"
"mount namespace; one with no such name is denied to an enforcing domain.\n"
"An exec is allowed when the domain may execute the program.  Each\n"
"domain's profile decides what a violation does:\n"
"disabled and learning (the entry is added to the policy) allow,\n"
"permissive allows and logs, enforcing denies (EPERM) and logs.\n"
"Conditions are evaluated from the opener's /proc/TID/status (task.*)\n"
"and the file (path1.*); an entry with an item that cannot be\n"
"(exec.argv, exec.envp, path2, ...; see `histmac policy check`) grants\n"
"nothing.\n"
"\n"
"  -p, --policy DIR         the policy directory (never under a mark)\n"
"      --mark PATH          enforce on PATH: a mount point (its whole mount),\n"
"                           a directory (the files directly in it) or a file;\n"
"                           repeatable; / is refused.  Mark the directories\n"
"                           a service runs programs from too: an exec outside\n"
"                           the marks is named from /proc, and one that\n"
"                           executed again at once is named unseen-exec:/\n"
"      --mode M             one profile for every domain: disabled, learning,\n"
"                           permissive or enforcing (default: each domain's)\n"
"      --supervisor SOCKET  hold enforcing-mode violations and ask the\n"
"                           `histmac query` client connected to SOCKET\n"
"      --query-timeout SEC  no answer within SEC (default 10) rejects\n"
"      --decision-timeout SEC  the watchdog answers a decision late by SEC\n"
"                           seconds, fractions allowed (default 1; 0.01-600)\n"
"      --default allow|deny answer of the watchdog and of internal errors\n"
"                           (default allow; without it the watchdog\n"
"                           denies when something is enforced)\n"
"      --strict             judge the execs of processes of unobserved\n"
"                           history (running before the start, in\n"
"                           <kernel> EXE) by that domain's ACL (default\n"
"                           when something is enforced: --mode enforcing\n"
"                           or an enforcing domain)\n"
"      --no-strict          let those execs through unjudged (counted)\n"
"      --state FILE         import the process table of a running learner\n"
"                           (histmac learn --state FILE)\n"
"      --save-interval SEC  learning: save the policy every SEC (default 60)\n"
"      --record-use         count each access an entry allowed, with the\n"
"                           time of the last, into POLICYDIR's\n"
"                           histmac_entries.conf (for `histmac stats\n"
"                           --unused`): saved every --save-interval, on\n"
"                           SIGHUP and at stop; added to the counts there\n"
"                           (default: the policy directory is not written\n"
"                           unless learning)\n"
"      --cache-size N       decision cache entries (default 16384)\n"
"      --cache-ttl SEC      a cached decision lives SEC (default 5): the\n"
"                           cache is keyed on the file, and a rename of a\n"
"                           parent directory changes its name, not the file\n"
"      --ignore-marks N     at most N kernel ignore marks for files every\n"
"                           process may open in every mode (default 512;\n"
"                           0: none)\n"
"      --proc-buffer BYTES  proc connector socket buffer (default 8 MiB);\n"
"                           when it overflows, the process table is\n"
"                           rebuilt from /proc\n"
"      --no-audit           no FAN_AUDIT, no audit user records\n"
"      --dialect D          dialect of the saved policy (default: as loaded)\n"
"      --pidfile FILE       write the daemon's pid to FILE\n"
"      --metrics FILE       write metrics to FILE (replaced atomically) in\n"
"                           the Prometheus text format, for node-exporter's\n"
"                           textfile collector: at start, every\n"
"                           --metrics-interval, on SIGUSR1 and at stop\n"
"      --metrics-interval SEC  seconds between its writes (default 15)\n"
"      --dry-run            watch with notification events only: nothing\n"
"                           waits, what would be denied is logged (the\n"
"                           kernel's bounded queue: an overflow loses\n"
"                           reports, never a decision; it is counted)\n"
"  -v, --verbose            log every exec and every learned entry\n"
"  -h, --help               this text\n"
"\n"
"Signals: SIGHUP reloads the policy (events keep being answered), SIGUSR1\n"
"prints counters (and writes --metrics), SIGTERM/SIGINT answer what is\n"
"pending, save and exit.\n"
"Learning keeps an administrator's edits: a save that finds the policy\n"
"files changed reloads them first and adds only what was learned since\n"
"the last save (so does SIGHUP); POLICYDIR is locked only while saving.\n"
"Exit: 0 stopped cleanly, 4 the policy has errors (nothing marked; use\n"
"--mode permissive to run anyway), 2 usage or a refused --mark, 3 could\n"
"not run.\n");
}

enum {
	OPT_MARK = 256, OPT_MODE, OPT_SUPERVISOR, OPT_QUERY_TIMEOUT,
	OPT_DECISION_TIMEOUT, OPT_DEFAULT, OPT_STATE, OPT_SAVE_INTERVAL,
	OPT_CACHE, OPT_IGNORE, OPT_NO_AUDIT, OPT_DIALECT, OPT_PIDFILE,
	OPT_DRY_RUN, OPT_PROC_BUFFER, OPT_CACHE_TTL, OPT_STRICT,
	OPT_NO_STRICT, OPT_RECORD_USE, OPT_METRICS, OPT_METRICS_INTERVAL,
};

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "mark", required_argument, NULL, OPT_MARK },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "supervisor", required_argument, NULL, OPT_SUPERVISOR },
	{ "query-timeout", required_argument, NULL, OPT_QUERY_TIMEOUT },
	{ "decision-timeout", required_argument, NULL, OPT_DECISION_TIMEOUT },
	{ "default", required_argument, NULL, OPT_DEFAULT },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "save-interval", required_argument, NULL, OPT_SAVE_INTERVAL },
	{ "cache-size", required_argument, NULL, OPT_CACHE },
	{ "ignore-marks", required_argument, NULL, OPT_IGNORE },
	{ "no-audit", no_argument, NULL, OPT_NO_AUDIT },
	{ "dialect", required_argument, NULL, OPT_DIALECT },
	{ "pidfile", required_argument, NULL, OPT_PIDFILE },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "metrics-interval", required_argument, NULL, OPT_METRICS_INTERVAL },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "record-use", no_argument, NULL, OPT_RECORD_USE },
	{ "proc-buffer", required_argument, NULL, OPT_PROC_BUFFER },
	{ "cache-ttl", required_argument, NULL, OPT_CACHE_TTL },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "no-strict", no_argument, NULL, OPT_NO_STRICT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_mode(const char *s)
{
	static const char *const names[] = { "disabled", "learning",
					      "permissive", "enforcing" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* Seconds with an optional fraction, up to a day, as milliseconds. */
static int parse_seconds(const char *s, unsigned *ms)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v <= 0 || v > 86400)
		return -1;
	*ms = (unsigned)(v * 1000 + 0.5);
	return *ms ? 0 : -1;
}

static int parse_option(struct hm_enforcer_opts *o, int c, const char *arg)
{
	uint64_t v;
	unsigned ms;

	switch (c) {
	case 'p': o->policy = arg; return 0;
	case OPT_MARK: {
		const char **n = realloc(o->marks, (o->n_marks + 1) * sizeof(*n));

		if (!n)
			return HM_EXIT_FAIL;
		o->marks = n;
		o->marks[o->n_marks++] = arg;
		return 0;
	}
	case OPT_MODE:
		o->mode = parse_mode(arg);
		return o->mode < 0 ?
			hm_cli_usage_error(CMD, "unknown mode '%s'", arg) : 0;
	case OPT_SUPERVISOR: o->supervisor = arg; return 0;
	case OPT_QUERY_TIMEOUT:
		if (parse_seconds(arg, &o->query_timeout_ms))
			return hm_cli_usage_error(CMD, "bad --query-timeout '%s'",
						  arg);
		return 0;
	case OPT_DECISION_TIMEOUT:
		if (parse_seconds(arg, &o->decision_timeout_ms) ||
		    o->decision_timeout_ms < 10 ||
		    o->decision_timeout_ms > 600000)
			return hm_cli_usage_error(CMD, "bad --decision-timeout "
						  "'%s' (0.01-600 seconds)", arg);
		return 0;
	case OPT_DEFAULT:
		if (strcmp(arg, "allow") && strcmp(arg, "deny"))
			return hm_cli_usage_error(CMD, "--default allow|deny");
		o->default_deny = !strcmp(arg, "deny");
		o->default_given = true;
		return 0;
	case OPT_STRICT:
	case OPT_NO_STRICT:
		o->strict = c == OPT_STRICT;
		o->strict_given = true;
		return 0;
	case OPT_STATE: o->state = arg; return 0;
	case OPT_SAVE_INTERVAL:
		if (parse_seconds(arg, &ms))
			return hm_cli_usage_error(CMD, "bad --save-interval '%s'",
						  arg);
		o->save_interval = ms < 1000 ? 1 : ms / 1000;
		return 0;
	case OPT_CACHE:
		if (hm_cli_parse_u64(arg, 1u << 26, &v))
			return hm_cli_usage_error(CMD, "bad --cache-size '%s'", arg);
		o->cache_slots = (size_t)v;
		return 0;
	case OPT_IGNORE:
		if (hm_cli_parse_u64(arg, 1u << 16, &v))
			return hm_cli_usage_error(CMD, "bad --ignore-marks '%s'",
						  arg);
		o->ignore_max = (size_t)v;
		return 0;
	case OPT_NO_AUDIT: o->audit = false; return 0;
	case OPT_DIALECT:
		return hm_cli_dialect_option(CMD, arg, &o->dialect);
	case OPT_PIDFILE: o->pidfile = arg; return 0;
	case OPT_METRICS: o->metrics_file = arg; return 0;
	case OPT_METRICS_INTERVAL:
		if (parse_seconds(arg, &ms))
			return hm_cli_usage_error(CMD, "bad --metrics-interval "
						  "'%s'", arg);
		o->metrics_interval = ms < 1000 ? 1 : ms / 1000;
		return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case OPT_RECORD_USE: o->record_use = true; return 0;
	case OPT_CACHE_TTL:
		if (parse_seconds(arg, &o->cache_ttl_ms))
			return hm_cli_usage_error(CMD, "bad --cache-ttl '%s'", arg);
		return 0;
	case OPT_PROC_BUFFER:
		if (hm_cli_parse_u64(arg, 1u << 30, &v) || v < 1024)
			return hm_cli_usage_error(CMD, "bad --proc-buffer '%s'",
						  arg);
		o->proc_buffer = (int)v;
		return 0;
	case 'v': o->verbose = true; return 0;
	default: return hm_cli_usage_error(CMD, "bad option");
	}
}

/*
 * The enforcer names every object by its realpath (the open file), the
 * path rule "resolve": a policy learned with another rule is warned of.
 */
static void warn_path_rule(const char *dir)
{
	struct hm_path_rule r = { 0 };
	struct hm_diag d = { 0 };
	char name[256];

	if (hm_path_rule_load(dir, &r, &d) == 0 && (!r.resolve || r.root))
		warnx("%s: %s was learned with the path rule %s; the enforcer "
		      "sees realpaths on this host", CMD, dir,
		      hm_path_rule_name(&r, name, sizeof(name)));
	hm_cli_print_diag(&d, stderr);
	hm_diag_free(&d);
	hm_path_rule_free(&r);
}

HM_CMD(enforce)
{
	struct hm_enforcer_opts o;
	int status = 0;
	int c;

	hm_enforcer_opts_init(&o);
	while ((c = getopt_long(argc, argv, "p:vh", options, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			free(o.marks);
			return HM_EXIT_OK;
		}
		status = parse_option(&o, c, optarg);
		if (status)
			break;
	}
	if (!status && optind < argc)
		status = hm_cli_usage_error(CMD, "unexpected '%s'", argv[optind]);
	if (!status && !o.policy)
		status = hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (!status && !o.n_marks)
		status = hm_cli_usage_error(CMD, "--mark PATH is required: "
					    "histmac never marks the whole "
					    "system by default");
	if (!status && o.supervisor && o.mode != HM_ENFORCER_MODE_PER_DOMAIN &&
	    o.mode != HM_PROFILE_ENFORCING)
		warnx("%s: --supervisor only asks about enforcing-mode "
		      "violations", CMD);
	if (!status)
		warn_path_rule(o.policy);
	if (!status)
		status = hm_enforcer_run(&o);
	free(o.marks);
	return status;
}
