// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_learn.c - histmac learn: audit records (or a command traced:
 * `learn -p DIR -- COMMAND`) in, a policy directory out.
 * Parses the options, loads the policy (if any), opens the input, and
 * hands them to a learn session (session/learn_session.c), which learns,
 * saves and reloads; this file prints progress, diagnostics and the
 * summary.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/check_out.h"
#include "histmac/pathrule.h"
#include "histmac/policy_io.h"
#include "histmac/sbuf.h"
#include "histmac/sensitive.h"
#include "histmac/session.h"

#define CMD "learn"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t reload_flag;

struct learn {
	const char *policy;
	char *state;
	char *checkpoint;
	struct hm_cli_input in;
	struct hm_cli_shared sh;	/* dialect: read and written */
	int profile;			/* -1: inherit (TOMOYO) */
	long max_entry;			/* -1: the policy's */
	unsigned save_interval;		/* seconds, follow/plugin */
	const char *from;		/* --follow-from start|end, or NULL */
	char **command;			/* -- COMMAND [ARGS]: traced */
	FILE *out;			/* the summary: stderr beside a
					 * command's own output */
	bool verbose;
	bool quiet;
	bool said_comments;
	uint64_t said_violations;	/* seq of the last one logged live */
	struct hm_store *store;		/* its lock held from load to the
					 * last save */

	struct hm_collector *c;
	struct hm_learn_session *s;
	struct hm_path_rule rule;	/* the policy's, as loaded */
	struct hm_path_rule used;	/* this run's, saved with the policy */
	struct hm_diag diag;
	time_t last_progress;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac learn -p POLICYDIR (-i LOG... | --follow LOG | --plugin) [OPTIONS]\n"
"       histmac learn -p POLICYDIR [OPTIONS] -- COMMAND [ARGS]\n"
"\n"
"Learn per-domain access policy from audit records: rebuild each process's\n"
"domain (the chain of programs executed from the kernel down to it) and add\n"
"to that domain the entries TOMOYO's learning mode would have added.  An\n"
"existing policy in POLICYDIR is loaded first and only what is new is added;\n"
"the policy is saved atomically.\n"
"\n"
"Input:\n"
"  -i, --input LOG...       audit log files, oldest first (a rotated set:\n"
"                           audit.log.3 audit.log.2 audit.log.1 audit.log); - is stdin\n"
"      --follow LOG         follow LOG like tail -F, across auditd's rotations\n"
"      --plugin             run as an auditd plugin (events on stdin)\n"
"  -- COMMAND [ARGS]        run COMMAND and learn what it and every process it\n"
"                           starts do, traced (ptrace and seccomp): no root, no\n"
"                           auditd.  Exits with COMMAND's status (128+N for\n"
"                           signal N); the summary goes to stderr\n"
"      --checkpoint FILE    follow mode position (default POLICYDIR/follow.checkpoint)\n"
"      --follow-from start|end  follow mode with no checkpoint yet: read LOG\n"
"                           from its beginning or from its current end\n"
"                           (default; said on stderr); --from is its old name\n"
"      --state FILE         process table, loaded at start and saved with the\n"
"                           policy (default POLICYDIR/histmac.state in follow and\n"
"                           plugin mode); the enforcer can import it\n"
"      --resolve            resolve symlinks in paths through this host's files\n"
"                           (the default for every source, as TOMOYO names\n"
"                           realpaths; a policy keeps the rule it was learned\n"
"                           with in histmac_paths.conf and goes on with it)\n"
"      --no-resolve         keep paths as the log wrote them (a log from\n"
"                           another host, with no image of it)\n"
"      --resolve-root DIR   resolve against DIR (another host's image)\n"
"      --threads N          parse -i logs with libauparse on N threads (default:\n"
"                           one per online CPU; 1: one thread); the policy is\n"
"                           the same.  Input in flight stays near 1 MiB.\n"
"                           --follow and --plugin read on one thread (latency)\n"
"\n"
"Policy:\n"
"  -p, --policy DIR         policy directory (created when missing)\n"
"      --dialect D          write tomoyo (2.6, default), tomoyo-2.1 or tomoyo-1.8\n"
"      --profile N          profile for every new domain (default: the parent's,\n"
"                           as TOMOYO; new roots get 1, learning)\n"
"      --max-learning-entry N  entries per domain before learning stops (default\n"
"                           the policy's profile.conf, else 2048; 0 = no limit)\n"
"      --no-builtin-rules   keep pids, fd numbers and inode numbers literal\n"
"      --no-exec-realpath   do not add exec.realpath=\"...\" to execute entries\n"
"      --learn-failed       learn from failed syscalls too\n"
"      --logins LIST        learn only the processes of these logins (audit's\n"
"                           auid, comma-separated, '-' for none, 4 at most):\n"
"                           another user's run of a service's program is not\n"
"                           learned into the service's domain (counted)\n"
"      --peer-ports A-B     accept/recv peer ports in A-B are learned as A-B\n"
"                           (default 1024-65535)\n"
"      --ephemeral-ports A-B  connect/send ports in A-B are learned as A-B\n"
"                           (default 32768-60999)\n"
"      --save-interval SEC  follow/plugin: save every SEC seconds (default 60)\n"
"                           when something was read since the last save;\n"
"                           each save is logged on stderr (events, new entries)\n"
"      --wait[=SECONDS]     another command is writing POLICYDIR: wait for it\n"
"                           (default: fail at once, exit 3)\n"
"\n"
"  -v, --verbose            list every skipped record\n"
"  -q, --quiet              no summary\n"
"  -h, --help               this text\n"
"\n"
"One writer at a time: learn holds POLICYDIR's lock (.histmac.lock) until it\n"
"exits.  Edits made to POLICYDIR by hand while it runs (profiles, deleted\n"
"entries or domains, the exception policy, rewrite rules) are kept: before\n"
"each save, and at once on SIGHUP, learn re-reads the directory and adds only\n"
"what it learned since its last save; a directory with errors (an edit\n"
"not finished) is not saved over until it is fixed.  SIGTERM/SIGINT save\n"
"and exit.\n"
"Re-learning a log changes nothing: the policy keeps, per host, the newest\n"
"event learned (# histmac: learned), and older events are not counted again.\n"
"A run over files (-i) that fails saves nothing.\n"
"Only domains in learning mode learn (histmac profile): in a permissive or\n"
"enforcing domain an access the ACL lacks is printed as a violation, as\n"
"histmac check prints it, and not added; a live learner (--follow, --plugin)\n"
"also logs each one on stderr at the save after it was first seen.\n"
"Traced (docs/TRACE.md), learn passes SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2\n"
"on to COMMAND, and leaves SIGINT and SIGQUIT to the terminal, which sends\n"
"them to COMMAND too.  Traced by a user other than root, set-user-ID and\n"
"set-group-ID programs run without their privileges.  COMMAND's domain is\n"
"<kernel> COMMAND (histmac sandbox --domain '<kernel>' -- COMMAND enters it).\n"
"mount, umount2, pivot_root, chroot (and i386's socketcall) are not traced yet.\n"
"Exit: 0 saved, 4 the policy in POLICYDIR has errors (nothing written), 1\n"
"violations in domains not in learning mode, 2 usage, 3 could not read,\n"
"learn or save; traced, COMMAND's status (128+N for signal N) once saved.\n");
}

enum {
	OPT_FOLLOW = 256, OPT_PLUGIN, OPT_CHECKPOINT, OPT_STATE, OPT_PROFILE,
	OPT_MAX, OPT_SAVE_INTERVAL, OPT_FROM,
};

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "policy", required_argument, NULL, 'p' },
	{ "follow", required_argument, NULL, OPT_FOLLOW },
	{ "plugin", no_argument, NULL, OPT_PLUGIN },
	{ "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
	{ "state", required_argument, NULL, OPT_STATE },
	HM_CLI_OPTS_PATHS,
	HM_CLI_OPT_THREADS,
	HM_CLI_OPT_DIALECT,
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "max-learning-entry", required_argument, NULL, OPT_MAX },
	HM_CLI_OPTS_LEARN,
	{ "save-interval", required_argument, NULL, OPT_SAVE_INTERVAL },
	HM_CLI_OPT_WAIT,
	{ "follow-from", required_argument, NULL, OPT_FROM },
	/* its old name, before --from D meant a policy's dialect read */
	{ "from", required_argument, NULL, OPT_FROM },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int number_option(const char *name, const char *arg, uint64_t max,
			 uint64_t *out)
{
	if (hm_cli_parse_u64(arg, max, out))
		return hm_cli_usage_error(CMD, "bad %s '%s'", name, arg);
	return 0;
}

static int parse_option(struct learn *L, int c, const char *arg)
{
	int r = hm_cli_shared_option(CMD, c, arg, &L->sh);
	uint64_t v;

	if (r != HM_CLI_NOT_SHARED)
		return r;
	switch (c) {
	case 'i':
		return hm_cli_input_add(&L->in, (char *)arg) ? HM_EXIT_FAIL : 0;
	case 'p': L->policy = arg; return 0;
	case OPT_FOLLOW: L->in.follow = arg; return 0;
	case OPT_PLUGIN: L->in.plugin = true; return 0;
	case OPT_CHECKPOINT: L->checkpoint = strdup(arg); return 0;
	case OPT_STATE: L->state = strdup(arg); return 0;
	case OPT_PROFILE:
		if (number_option("profile", arg, 255, &v))
			return HM_EXIT_USAGE;
		L->profile = (int)v;
		return 0;
	case OPT_MAX:
		if (number_option("max-learning-entry", arg, UINT32_MAX, &v))
			return HM_EXIT_USAGE;
		L->max_entry = (long)v;
		return 0;
	case OPT_FROM:
		if (strcmp(arg, "start") && strcmp(arg, "end"))
			return hm_cli_usage_error(CMD, "--follow-from start or end");
		L->from = arg;
		return 0;
	case OPT_SAVE_INTERVAL:
		if (number_option("save-interval", arg, 86400, &v))
			return HM_EXIT_USAGE;
		L->save_interval = (unsigned)v;
		return 0;
	case 'v': L->verbose = true; return 0;
	case 'q': L->quiet = true; return 0;
	default:
		return hm_cli_usage_error(CMD, "unknown option");
	}
}

static char *in_policy(const char *dir, const char *name)
{
	char *s;

	return asprintf(&s, "%s/%s", dir, name) < 0 ? NULL : s;
}

static int parse_args(struct learn *L, int argc, char **argv)
{
	int c;
	int modes;

	while ((c = getopt_long(argc, argv, "i:p:vqh", options, NULL)) != -1) {
		int r;

		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		if (c == '?')
			return hm_cli_usage_error(CMD, "bad option");
		r = parse_option(L, c, optarg);
		if (r)
			return r;
	}
	L->command = hm_cli_command(argc, argv);
	for (; optind < argc; optind++) {
		if (!L->in.n_files)
			return hm_cli_usage_error(CMD, "unexpected '%s'",
						  argv[optind]);
		if (hm_cli_input_add(&L->in, argv[optind]))
			return HM_EXIT_FAIL;
	}
	if (!L->policy)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	modes = (L->in.n_files > 0) + !!L->in.follow + L->in.plugin +
		!!L->command;
	if (modes != 1)
		return hm_cli_usage_error(CMD, "give exactly one of -i LOG..., "
					  "--follow LOG, --plugin, -- COMMAND");
	if (L->sh.lo.peer_port_min > L->sh.lo.peer_port_max)
		return hm_cli_usage_error(CMD, "bad --peer-ports");
	if ((L->in.follow || L->in.plugin) && !L->state)
		L->state = in_policy(L->policy, "histmac.state");
	if (L->in.follow && !L->checkpoint)
		L->checkpoint = in_policy(L->policy, "follow.checkpoint");
	if (L->from && !L->in.follow)
		return hm_cli_usage_error(CMD, "--follow-from needs --follow");
	return 0;
}

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_flag = 1;
	else
		stop_flag = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* In a run's summary: entries kept as '# not in' comments, the policy's
 * dialect cannot say them (a fact of the dialect, not a failure). */
static void commented(struct learn *L)
{
	const struct hm_convert_stats *st = hm_learn_session_converted(L->s);
	struct hm_model *m = hm_learn_session_model(L->s);
	enum hm_dialect dialect = L->sh.dialect >= 0 ?
				  (enum hm_dialect)L->sh.dialect : m->dialect;

	if (st->n_commented)
		fprintf(L->out, "  kept as '# not in' comments: %lu (%s cannot "
			"say them; histmac reads them back)\n",
			st->n_commented, hm_dialect_names[dialect]);
}

/* A live learner's log: said once a run, not at every periodic save. */
static void say_comments(struct learn *L)
{
	const struct hm_convert_stats *st = hm_learn_session_converted(L->s);
	struct hm_model *m = hm_learn_session_model(L->s);
	enum hm_dialect dialect = L->sh.dialect >= 0 ?
				  (enum hm_dialect)L->sh.dialect : m->dialect;

	if (!st->n_commented || L->quiet || L->said_comments)
		return;
	warnx("%s: %lu entries cannot be said in %s and were written as "
	      "'# not in' comments (histmac reads them back)", CMD,
	      st->n_commented, hm_dialect_names[dialect]);
	L->said_comments = true;
}

static void progress(struct learn *L, bool force)
{
	time_t now = time(NULL);
	struct hm_learn_session_stats st;

	if (L->quiet || !hm_cli_stderr_is_tty() ||
	    (!force && now == L->last_progress))
		return;
	L->last_progress = now;
	hm_learn_session_stats(L->s, &st);
	fprintf(stderr, "\rlearn: %llu events, %zu domains, %zu entries  ",
		(unsigned long long)st.learn.events, st.domains, st.entries);
	if (force)
		fputc('\n', stderr);
}

/* A long-running learner says each save: one line. */
static bool live(const struct learn *L)
{
	return L->in.follow || L->in.plugin;
}

/*
 * A live learner logs each violation once, when first seen (by the save
 * after it): an operator watching does not wait for the exit report.
 */
static void log_new_violations(struct learn *L)
{
	struct hm_checker *ck = hm_learn_session_violations(L->s);
	const struct hm_model *m = hm_checker_model(ck);
	const struct hm_violation *const *v;
	uint64_t top = L->said_violations;
	struct hm_sbuf b = { 0 };
	size_t n;

	v = hm_checker_violations(ck, &n);
	for (size_t i = 0; v && i < n; i++) {
		char *e = NULL;

		if (v[i]->seq <= L->said_violations)
			continue;
		if (v[i]->seq > top)
			top = v[i]->seq;
		if (hm_acl_format(m, v[i]->entry, m->dialect, &e, NULL))
			continue;
		hm_sbuf_reset(&b);
		hm_sbuf_printf(&b, "learn: violation: %s: %s (pid %lld",
			       v[i]->domain->str, e,
			       (long long)v[i]->example_pid);
		if (v[i]->example_comm) {	/* the process names itself */
			hm_sbuf_adds(&b, " comm=");
			hm_sbuf_add_printable(&b, v[i]->example_comm,
					      strlen(v[i]->example_comm));
		}
		hm_sbuf_adds(&b, ")\n");
		if (!b.oom)
			fputs(b.s, stderr);
		free(e);
	}
	hm_sbuf_free(&b);
	L->said_violations = top;
}

static void saved(struct learn *L)
{
	struct hm_learn_session_stats st;

	if (L->quiet)
		return;
	hm_learn_session_stats(L->s, &st);
	fprintf(stderr, "learn: saved %s: %llu events, %llu new entries\n",
		L->policy, (unsigned long long)st.learn.events,
		(unsigned long long)st.learn.entries_new);
}

/* Learn until the input ends; print what the session has to say. */
static int run_loop(struct learn *L)
{
	int r;

	while ((r = hm_learn_session_run(L->s)) > 0) {
		if (r == HM_SESSION_PROGRESS) {
			progress(L, false);
			continue;
		}
		if (r == HM_SESSION_IDLE)
			continue;
		hm_cli_print_diag(&L->diag, stderr);
		hm_diag_free(&L->diag);
		if (r == HM_SESSION_HELD)
			continue;	/* nothing saved: said why */
		if (live(L))
			say_comments(L);
		saved(L);
		if (live(L))
			log_new_violations(L);
	}
	return r;
}

/* What the process table met that changes what was learned where. */
static void print_tracker(const struct hm_tracker_stats *ts, FILE *f)
{
	if (ts->too_long)
		fprintf(f, "  transition_failed (domain name over %d bytes): "
			"%llu\n", HM_MAX_DOMAIN,
			(unsigned long long)ts->too_long);
	if (ts->exe_changed)
		fprintf(f, "  processes whose exe changed without an exec "
			"(domain kept): %llu\n",
			(unsigned long long)ts->exe_changed);
	if (ts->pid_reuse || ts->evictions)
		fprintf(f, "  processes: %llu pid reuse, %llu evicted "
			"(cap %llu)\n", (unsigned long long)ts->pid_reuse,
			(unsigned long long)ts->evictions,
			(unsigned long long)ts->max_procs);
}

static size_t several_logins(const struct hm_model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		n += hm_domain_several_logins(m->domains[i]);
	return n;
}

static void summary(struct learn *L)
{
	const struct hm_collector_stats *cs = hm_collector_stats(L->c);
	struct hm_learn_session_stats st;
	FILE *f = L->out;
	size_t n;

	if (L->quiet)
		return;
	hm_learn_session_stats(L->s, &st);
	if (L->command)
		fprintf(f, "learned from %llu traced calls into %s\n",
			(unsigned long long)cs->events, L->policy);
	else
		fprintf(f, "learned from %llu events (%llu records) into %s\n",
			(unsigned long long)cs->events,
			(unsigned long long)cs->records, L->policy);
	fprintf(f, "  domains: %llu new, %zu total\n",
		(unsigned long long)st.learn.domains_new, st.domains);
	fprintf(f, "  entries: %llu new, %llu widened, %zu total\n",
		(unsigned long long)st.learn.entries_new,
		(unsigned long long)st.learn.perms_new, st.entries);
	if (st.learn.folded)
		fprintf(f, "  folded into patterns: %llu\n",
			(unsigned long long)st.learn.folded);
	if (st.learn.quota_hits)
		fprintf(f, "  refused by max_learning_entry: %llu\n",
			(unsigned long long)st.learn.quota_hits);
	n = hm_sensitive_count(hm_learn_session_model(L->s));
	if (n)	/* whoever's activity learned them */
		fprintf(f, "  sensitive entries: %zu (review them first: "
			"histmac stats)\n", n);
	n = several_logins(hm_learn_session_model(L->s));
	if (n)
		fprintf(f, "  domains entered by several logins: %zu (review "
			"them first: histmac stats)\n", n);
	if (cs->traced_other_abi)
		fprintf(f, "  calls of an ABI the tracer does not read (x32), "
			"not learned: %llu\n",
			(unsigned long long)cs->traced_other_abi);
	if (cs->traced_unread)
		fprintf(f, "  traced calls whose process could not be read "
			"(gone at the call's end), not learned: %llu\n",
			(unsigned long long)cs->traced_unread);
	commented(L);
	print_tracker(&st.procs, f);
	hm_cli_print_collector_skips(cs, f);
	hm_cli_print_walk_skips(st.walk, f);
}

/*
 * Accesses in domains that are permissive or enforcing were judged, not
 * learned: print them as check does.  Returns 1 when there were any.
 */
static int violations(struct learn *L)
{
	struct hm_checker *ck = hm_learn_session_violations(L->s);
	struct hm_check_summary s = { .policy = L->policy };
	size_t n;

	hm_checker_violations(ck, &n);
	if (!n && !hm_checker_unlisted(ck))
		return 0;
	fprintf(L->out, "# not learned: domains in permissive or enforcing "
		"mode (histmac profile)\n");
	if (hm_check_write_text(ck, hm_learn_session_model(L->s)->dialect, &s,
				L->out))
		warnx("%s: writing the violations failed", CMD);
	return 1;
}

static int open_input(struct learn *L)
{
	struct hm_collector_opts o;
	int r;

	hm_collector_opts_init(&o);
	o.resolve = L->sh.resolve;
	o.resolve_root = L->sh.resolve_root;
	o.threads = hm_cli_threads(L->sh.threads);
	o.verbose = L->verbose;
	o.diag = &L->diag;
	o.checkpoint = L->checkpoint;
	o.checkpoint_interval_ms = 0;	/* only after the policy is saved */
	o.stop = &stop_flag;
	o.reload = &reload_flag;
	if (live(L))
		o.timeout_ms = 1000;
	/* go on naming paths as the policy does, unless told otherwise */
	r = hm_path_rule_apply(L->policy, &o, &L->rule, &L->diag);
	hm_cli_print_diag(&L->diag, stderr);
	hm_diag_free(&L->diag);
	if (r) {
		warnx("%s: %s/%s: %s", CMD, L->policy, HM_PATH_RULE_FILE,
		      strerror(-r));
		return r;
	}
	hm_path_rule_of(&o, &L->used);
	if (L->in.follow && access(L->checkpoint, F_OK) != 0) {
		o.from_start = L->from && !strcmp(L->from, "start");
		if (!L->quiet && !L->from)
			warnx("%s: no checkpoint %s: starting at the end of %s "
			      "(--follow-from start reads it from its beginning)", CMD,
			      L->checkpoint, L->in.follow);
	}
	if (L->command)
		return hm_cli_open_trace(CMD, L->command, &o, &L->c);
	return hm_cli_open_input(CMD, &L->in, &o, &L->c);
}

/* The policy as it is, and a session learning into it (the store's lock
 * held from here to the last save). */
static int start_session(struct learn *L)
{
	struct hm_learn_session_opts o = {
		.store = L->store,
		.state = L->state,
		.profile = L->profile,
		.max_entry = L->max_entry,
		.save_interval = live(L) ? L->save_interval : 0,
		.lo = &L->sh.lo,
		.diag = &L->diag,
		.paths = &L->used,
	};
	struct hm_model *m;
	int r = hm_cli_store_load(CMD, L->store, true, &m);

	if (r != HM_EXIT_OK) {
		if (r == HM_EXIT_POLICY)
			warnx("%s: fix the policy first (histmac policy check -p "
			      "%s); nothing was learned", CMD, L->policy);
		hm_model_free(m);
		return r;
	}
	r = hm_learn_session_new(&L->s, &o, m);
	/* bad rewrite rules, the process table */
	hm_cli_print_diag(&L->diag, stderr);
	hm_diag_free(&L->diag);
	if (r) {
		warnx("%s: %s", CMD, strerror(-r));
		hm_model_free(m);
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

static int setup(struct learn *L)
{
	int r = hm_cli_open_store(CMD, L->policy, L->sh.target.wait_s,
				  L->sh.dialect, true, &L->diag, &L->store);

	if (r == HM_EXIT_OK)
		r = start_session(L);
	if (r == HM_EXIT_OK && open_input(L))
		r = HM_EXIT_FAIL;
	if (r == HM_EXIT_OK && !live(L) && !L->command)
		hm_heap_huge_start();	/* a read that ends: lib/heap.c */
	if (r == HM_EXIT_OK && L->command)
		hm_cli_trace_signals(L->c);
	if (r == HM_EXIT_OK)
		hm_learn_session_start(L->s, L->c);
	return r;
}

static void cleanup(struct learn *L)
{
	hm_learn_session_free(L->s);
	hm_collector_free(L->c);
	hm_path_rule_free(&L->rule);
	hm_diag_free(&L->diag);
	free(L->in.files);
	free(L->state);
	free(L->checkpoint);
}

/*
 * At exit the session (the model and the process table: millions of
 * allocations after a large log) is not freed: the process ends at once
 * and the kernel takes its pages back whole, while free() walks every
 * allocation (30 ms of a 1 GB log's 0.4 s after its last event, on one
 * core).  It stays reachable from @kept, so a leak checker calls it
 * "still reachable", not lost.  Under ASan it is freed: the golden tests'
 * leak check (make test-asan) then covers the whole learn run, the
 * session's free included.
 */
#ifndef HM_ASAN
static struct hm_learn_session *volatile kept;
#endif

static void end_session(struct learn *L)
{
#ifdef HM_ASAN
	hm_learn_session_free(L->s);
#else
	kept = L->s;
#endif
	L->s = NULL;
}

HM_CMD(learn)
{
	struct learn L = { .profile = -1, .max_entry = -1,
			   .save_interval = 60, .out = stdout };
	int status;
	int r;

	hm_cli_shared_init(&L.sh);
	status = parse_args(&L, argc, argv);
	if (status) {
		cleanup(&L);
		return status < 0 ? HM_EXIT_OK : status;
	}
	if (L.command)
		L.out = stderr;
	else
		install_signals();
	status = setup(&L);
	if (status == HM_EXIT_OK) {
		r = run_loop(&L);
		progress(&L, true);
		if (!r && !L.command)
			r = hm_cli_no_records(CMD, &L.in, hm_collector_stats(L.c));
		hm_store_set_last(L.store);	/* the process exits after it */
		/* A live learner keeps what it learned before a failure (it
		 * saved periodically anyway); a run over files that failed
		 * changes nothing. */
		if (r && !live(&L))
			status = HM_EXIT_FAIL;
		else if (hm_learn_session_save(L.s) || r)
			status = HM_EXIT_FAIL;
		hm_cli_print_diag(&L.diag, stderr);
		if (live(&L))
			say_comments(&L);
		if (status == HM_EXIT_FAIL && !live(&L))
			warnx("%s: nothing was saved in %s", CMD, L.policy);
		else
			summary(&L);
		if (violations(&L) && status == HM_EXIT_OK)
			status = HM_EXIT_FINDINGS;
		if (L.command && status != HM_EXIT_FAIL)
			status = hm_cli_command_status(CMD, L.c, L.command);
	}
	end_session(&L);
	hm_cli_close_store(L.store, status == HM_EXIT_FAIL);
	L.store = NULL;
	cleanup(&L);
	return status;
}
