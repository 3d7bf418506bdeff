// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_patternize.c - histmac patternize: suggest rewrite rules for names
 * that vary between runs, and initialize_domain entries for services;
 * with --apply, add them and rewrite the policy.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "histmac/patternize.h"
#include "histmac/policy_io.h"
#include "histmac/store.h"

#define CMD "patternize"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac patternize -p POLICYDIR [--apply [--yes] [--wait[=SECONDS]]]\n"
"                          [--min N] [--no-fs]\n"
"\n"
"Suggest rewrite rules (POLICYDIR/rewrite.conf) for names that change\n"
"from run to run, and initialize_domain entries for services, as\n"
"tomoyo-findtemp and tomoyo-patternize did.\n"
"\n"
"Names: names of one shape are grouped, and only what varies between them\n"
"is generalized, once N names (--min) show it: a number (r18.txt,\n"
"r19.txt, r20.txt -> r\\$.txt), a long hex.  A run's letter goes with\n"
"its number, and two names that differ by either show it (up-L-1.dat,\n"
"up-L-2.dat -> up-\\a-\\$.dat: the next period's is up-M-1.dat).\n"
"A random or mkstemp() suffix that varies among N names is generalized\n"
"when each has a digit or both cases (a mail filter's kept copies\n"
"in.0zcgdX, in.Rt5aQp, in.x9Kd2L -> in.\\*; not LC_ADDRESS, LC_CTYPE),\n"
"and in names all gone from the disk so is the number right after the\n"
"one that varies (a process's pid: postfix's incoming/437975.28396,\n"
"incoming/530146.28396, ... -> incoming/\\$.\\$).\n"
"A directory's random or mkstemp() part (mktemp -d) is generalized so\n"
"too, within its one component, when it varies among N names of one\n"
"shape otherwise (dl.0zcgdX/doc-1.txt, dl.Rt5aQp/doc-2.txt,\n"
"dl.x9Kd2L/doc-3.txt -> dl.\\*/doc-\\$.txt); never for names gone alone.\n"
"Without N names: a timestamp of two names, of one a rotation renamed,\n"
"or of one gone from the disk: a date YYYYMMDD or with '-', '_' or '.'\n"
"(2026-12-07), then maybe a time of day hhmm[ss] or with ':', '-' or\n"
"'.', after 'T', '-', '_', '.' or nothing (20261207-084757,\n"
"2026-12-07T08:47:57, 20261207084757), and epoch seconds or\n"
"milliseconds; generalized whole, one \\+ (one digit) a digit, the\n"
"narrowest pattern tomorrow's name matches (data-20261207-1733.tar.gz ->\n"
"data-\\+\\+\\+\\+\\+\\+\\+\\+-\\+\\+\\+\\+.tar.gz).  logrotate's counter\n"
"(.N, then maybe .gz, .bz2, .xz, .zst) of a log (under a log or logs\n"
"directory, or a name ending in log) that two names of one family show\n"
"(syslog.1 and syslog.2.gz -> syslog.\\$ and syslog.\\$.gz), or one that\n"
"a rotation renamed (dpkg.log to dpkg.log.1; access.log to\n"
"access.log-20261207, dateext); a log's counter or a timestamp that one\n"
"name on disk shows is held for review (below);\n"
"a mkstemp() suffix (after a word and '.', '-' or '_', with a digit or a\n"
"capital) whose names are all gone, and a random or hex name gone from\n"
"the disk that the policy both creates and removes.  Absence alone never\n"
"makes a name temporary: a failed connect() learns a name that never\n"
"existed.  A fixed name (/run/fcgiwrap.socket) is never generalized.\n"
"\n"
"A rewrite rule holds for every domain and for what is learned later, so\n"
"one is refused (shown commented out, never applied) when a sensitive\n"
"name motivated it, when it would cover one (/etc/\\* covers\n"
"/etc/shadow), or when a file beside its names on disk matches it but is\n"
"of another shape (/etc/[A-Za-z0-9]+ and /etc/passwd).\n"
"\n"
"Review: what patternize cannot prove is listed beside the refused\n"
"rules, commented out after \"# review:\", and never applied: a\n"
"timestamp or a log's counter of one name, and names users chose (notes,\n"
"uploads): where one domain holds 2N names or more (twice --min) in one\n"
"directory where it makes names, besides those a suggested rule covers,\n"
"a widening over that directory (their common prefix up to '-', '_' or\n"
"'.', and extension, kept: notes/\\*.txt), with the evidence: how many\n"
"names, which domain, and over how long they were learned.  Never in\n"
"/home, /root, /run/user, /tmp, /var/tmp, /dev or a mail spool, nor where a\n"
"name is sensitive or a package's (learn's dpkg owners), and refused\n"
"when it would cover a sensitive name.  To apply one, add its line\n"
"(without \"# \") to POLICYDIR/rewrite.conf and run --apply.\n"
"\n"
"Services: initialize_domain PROG for a program in an sbin directory or\n"
"/etc/init.d started as a service (by init, an init script, a helper,\n"
"itself, a process older than the log, or a program that runs only it)\n"
"from two or more parent domains, or also running before the log began,\n"
"or the daemon an init script (or init) starts through helpers that\n"
"execute at once: each program between the script and PROG, one at\n"
"least, in a domain that executes only the next (/etc/init.d/nginx\n"
"start-stop-daemon nginx; env -i spawn-fcgi fcgiwrap).  What a script\n"
"executes itself (nginx -t, postconf) is its tool, not its daemon.\n"
"Never for helpers: start-stop-daemon, env, setsid, nohup, spawn-fcgi,\n"
"su, sudo, run-parts, service and the like, shells, interpreters and\n"
"sendmail, nor for programs whose runs depend on who ran them (two of\n"
"their domains execute disjoint sets of programs) or that start init\n"
"scripts: that would put every service they start under one domain.\n"
"sshd re-executing itself at a reload counts as a start, and after\n"
"--apply its re-executions stay in <kernel> /usr/sbin/sshd.  Each\n"
"suggestion is printed once.\n"
"\n"
"--apply prints, for each rule, the domains whose entries it widens (how\n"
"many, and one name), then adds the suggestions not refused, re-roots\n"
"every domain the exception policy now names otherwise\n"
"(initialize_domain, keep_domain, reset_domain and their no_ forms,\n"
"hand-added ones too): \"<kernel> A B PROG C\" becomes\n"
"\"<kernel> PROG C\"; domains that become one are merged (entries and their\n"
"history united and folded under patterned entries, counters summed,\n"
"flags united) and the old ones removed, so the policy allows what it was\n"
"learned from without a re-learn.  It refuses, naming the domains and\n"
"saving nothing (exit 3), when domains of different profiles would become\n"
"one (give them one profile first) or a transition control names a\n"
"domain that would be renamed.\n"
"\n"
"  -p, --policy DIR   the policy directory\n"
"      --apply        add the suggestions, re-root, rewrite every name\n"
"                     they cover, fold covered entries, and save\n"
"      --yes          with --apply: also when processes of several logins\n"
"                     entered a domain (reviewed: histmac stats)\n"
"      --min N        names that must show a variation (default 3;\n"
"                     twice as many for a widening)\n"
"      --no-fs        do not check which names exist on this host now\n"
"      --root DIR     check existence under DIR (another host's image)\n"
"      --wait[=SECONDS]  with --apply: another command is writing POLICYDIR:\n"
"                     wait for it (default: fail at once, exit 3)\n"
"  -h, --help         this text\n"
"\n"
"Exit: 0, 4 the policy has errors, 2 usage, 3 could not run (or the\n"
"re-rooting was refused, or --yes is needed).\n");
}

/* How long a widening's names took to be learned: "2 d 3 h", "5 min". */
static void print_span(int64_t first, int64_t last)
{
	int64_t t = last - first;

	if (!first || !last)
		printf("an unknown time");
	else if (t >= 86400)
		printf("%lld d %lld h", (long long)(t / 86400),
		       (long long)(t % 86400 / 3600));
	else if (t >= 3600)
		printf("%lld h %lld min", (long long)(t / 3600),
		       (long long)(t % 3600 / 60));
	else if (t >= 60)
		printf("%lld min", (long long)(t / 60));
	else
		printf("%lld s", (long long)t);
}

static void print(const struct hm_suggestion *s, size_t n)
{
	bool rew = false, init = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i].type == HM_SUGGEST_REWRITE) {
			if (!rew)
				printf("# rewrite.conf rules (REGEX<TAB>REPLACEMENT):\n");
			rew = true;
			printf("# %zu names in %zu domains, %zu absent now, "
			       "e.g. %s\n", s[i].n_names, s[i].n_domains,
			       s[i].n_absent, s[i].example);
			if (s[i].refused)	/* shown, never applied */
				printf("# %s: %s: %s\n# ", s[i].review ?
				       "review" : "refused", s[i].refused,
				       s[i].refused_by);
			if (s[i].domain) {	/* a widening's evidence */
				printf("  %zu names of %s, learned over ",
				       s[i].n_names, s[i].domain->str);
				print_span(s[i].first, s[i].last);
				printf("\n# ");
			}
			printf("%s\t%s\n", s[i].regex, s[i].replacement);
		} else {
			if (!init)
				printf("%s# exception_policy.conf:\n",
				       rew ? "\n" : "");
			init = true;
			printf("# %s from %zu parent domain%s, e.g. %s\n"
			       "initialize_domain %s from any\n",
			       s[i].by_script ? "a daemon an init script starts "
						"through helpers, started" :
						"started as a service",
			       s[i].n_names, s[i].n_names == 1 ? "" : "s",
			       s[i].example, s[i].program->str);
		}
	}
	if (!n)
		printf("# no suggestions\n");
}

static int print_widening(const struct hm_suggestion *s,
			  const struct hm_domain *d, size_t entries,
			  const struct hm_name *example, void *arg)
{
	const struct hm_suggestion **last = arg;

	if (*last != s)
		printf("# %s widens:\n", s->replacement);
	*last = s;
	printf("#   %s: %zu entr%s, e.g. %s\n", d->name->str, entries,
	       entries == 1 ? "y" : "ies", example->str);
	return 0;
}

/*
 * A rule widens every domain at once: where processes of several logins
 * entered a domain, what it learned may be another user's choosing
 * (their run of the service's program), so it takes --yes.
 */
static bool mixed_logins(const struct hm_model *m, bool yes)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		n += hm_domain_several_logins(m->domains[i]);
	if (!n || yes)
		return false;
	warnx("%s: %zu domain%s entered by the processes of several "
	      "logins (histmac stats lists them): review them, then --apply "
	      "--yes; nothing changed", CMD, n, n == 1 ? " was" : "s were");
	return true;
}

static int apply(struct hm_model *m, struct hm_store *st,
		 const struct hm_suggestion *s, size_t n, bool yes)
{
	struct hm_diag d = { 0 };
	struct hm_patternize_result res;
	const struct hm_suggestion *last = NULL;
	size_t refused = 0, review = 0;
	int r;

	if (mixed_logins(m, yes))
		return HM_EXIT_FAIL;
	/* what each rule widens, per domain, before anything is written */
	for (size_t i = 0; i < n; i++) {
		refused += s[i].refused && !s[i].review;
		review += s[i].review;
	}
	r = hm_patternize_widens(m, s, n, print_widening, &last);
	if (!r)
		r = hm_patternize_apply(m, s, n, &d, &res);

	hm_cli_print_diag(&d, stderr);
	hm_diag_free(&d);
	if (r == -ECANCELED) {
		warnx("%s: cannot re-root the domains above; nothing changed",
		      CMD);
		return HM_EXIT_FAIL;
	}
	if (r) {
		warnx("%s: %s", CMD, strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (hm_cli_store_save(CMD, st, m, NULL, 0))
		return HM_EXIT_FAIL;
	printf("# applied %zu suggestions (%zu refused, %zu for review): %zu "
	       "domains re-rooted (%zu new), %zu entries rewritten; saved %s\n",
	       n - refused - review, refused, review, res.reroot.moved, res.reroot.created, res.rewritten,
	       hm_store_dir(st));
	return HM_EXIT_OK;
}

HM_CMD(patternize)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "apply", no_argument, NULL, 'a' },
		{ "yes", no_argument, NULL, 'y' },
		HM_CLI_OPT_WAIT,
		{ "min", required_argument, NULL, 'm' },
		{ "no-fs", no_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hm_patternize_opts o = { .min_names = 3, .check_fs = true };
	const char *policy = NULL;
	bool do_apply = false, yes = false;
	struct hm_store *st = NULL;
	struct hm_diag d = { 0 };
	int wait_s = 0;
	struct hm_suggestion *s = NULL;
	struct hm_model *m;
	size_t n = 0;
	uint64_t v;
	int status;
	int c;

	while ((c = getopt_long(argc, argv, "p:h", options, NULL)) != -1) {
		switch (c) {
		case 'p': policy = optarg; break;
		case 'a': do_apply = true; break;
		case 'y': yes = true; break;
		case HM_OPT_WAIT:
			if (hm_cli_wait_option(CMD, optarg, &wait_s))
				return HM_EXIT_USAGE;
			break;
		case 'n': o.check_fs = false; break;
		case 'r': o.fs_root = optarg; break;
		case 'm':
			if (hm_cli_parse_u64(optarg, 1000000, &v) || !v)
				return hm_cli_usage_error(CMD, "bad --min");
			o.min_names = (size_t)v;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!policy || optind != argc)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR");
	/* --apply reads and rewrites: hold the lock across both */
	if (do_apply && hm_cli_open_store(CMD, policy, wait_s,
					  HM_DIALECT_AUTO, false, &d, &st))
		return HM_EXIT_FAIL;
	status = st ? hm_cli_store_load(CMD, st, false, &m) :
		      hm_cli_load_policy(CMD, policy, HM_DIALECT_AUTO, false,
					 &m);
	if (status != HM_EXIT_OK) {
		hm_cli_close_store(st, true);
		hm_diag_free(&d);
		hm_model_free(m);
		return status;
	}
	if (hm_patternize_suggest(m, &o, &s, &n)) {
		warnx("%s: out of memory", CMD);
		status = HM_EXIT_FAIL;
	} else {
		print(s, n);
		if (do_apply)
			status = apply(m, st, s, n, yes);
	}
	hm_cli_close_store(st, status != HM_EXIT_OK);
	hm_diag_free(&d);
	hm_suggestions_free(s, n);
	hm_model_free(m);
	return status;
}
