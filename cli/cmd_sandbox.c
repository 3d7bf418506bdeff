// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_sandbox.c - histmac sandbox: run COMMAND confined by Landlock to
 * what its domain's subtree learned.  Options, the domain COMMAND enters,
 * --explain printing and the exec; the translation and the table are
 * sandbox/'s (docs/SANDBOX.md).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/kernel_names.h"
#include "histmac/policy_io.h"
#include "histmac/procfs.h"
#include "histmac/sandbox.h"
#include "../sandbox/landlock_abi.h"
#include "../sandbox/table.h"

#define CMD "sandbox"
#define PRELOAD_NAME HM_SBX_PRELOAD_NAME

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
"subtree when it starts (" PRELOAD_NAME ", set through LD_PRELOAD).\n"
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
	a->max_abi = HM_LL_ABI_MAX;
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

			if (hm_cli_parse_u64(optarg, HM_LL_ABI_MAX, &v) || !v)
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

/* ----------------------------------------------------- where COMMAND is */

/* COMMAND's path as execve gets it: absolute, lexically clean; a bare
 * name is looked up in PATH as execvp() would. */
static char *program_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *out = NULL;

	if (strchr(cmd, '/')) {
		char cwd[PATH_MAX];

		if (cmd[0] == '/')
			out = strdup(cmd);
		else if (getcwd(cwd, sizeof(cwd)) &&
			 asprintf(&out, "%s/%s", cwd, cmd) < 0)
			out = NULL;
		if (out)
			hm_sbx_normalize(out);
		return out;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (asprintf(&out, "%.*s/%s", (int)n, p, cmd) < 0)
			return NULL;
		hm_sbx_normalize(out);
		if (out[0] == '/' && access(out, X_OK) == 0)
			return out;
		free(out);
		out = NULL;
		p += n + (p[n] == ':');
	}
	return NULL;
}

/* The caller's domain when --domain is not given: the executables of our
 * ancestors from the oldest down, through the transitions.  A script
 * shows as its interpreter here, so --domain is the reliable way. */
static char *ancestry_domain(struct hm_model *m)
{
	char *chain[64];
	size_t n = 0;
	char *dom = strdup("<kernel>");
	pid_t pid = getppid();

	while (pid > 0 && n < HM_ARRAY_SIZE(chain)) {
		char exe[PATH_MAX];
		struct hm_procfs_stat st;

		if (hm_procfs_exe(pid, exe, sizeof(exe)) <= 0)
			break;
		chain[n++] = strdup(exe);
		if (hm_procfs_stat(pid, &st))
			break;
		pid = (pid_t)st.ppid;
	}
	while (n--) {
		char *next = NULL;

		if (dom && chain[n] &&
		    !hm_sbx_enter_domain(m, dom, chain[n], &next)) {
			free(dom);
			dom = next;
		}
		free(chain[n]);
	}
	return dom;
}

/* The preload library: the first readable of hm_sbx_preload_places(). */
static char *preload_path(void)
{
	char *places[HM_SBX_PRELOAD_PLACES];
	size_t n = hm_sbx_preload_places(places);
	char *p = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!p && !access(places[i], R_OK))
			p = places[i];
		else
			free(places[i]);
	}
	return p;
}

/* ------------------------------------------------------------- explain */

static void print_rights(FILE *f, uint64_t access, uint64_t handled, int abi)
{
	const char *sep = "";

	for (unsigned b = 0; b < 64; b++) {
		if (!(access & (1ULL << b)) || !hm_sbx_fs_right_names[b])
			continue;
		fprintf(f, "%s%s", sep, hm_sbx_fs_right_names[b]);
		if (!(handled & (1ULL << b)) && hm_sbx_right_abi(b) > abi)
			fprintf(f, "(not enforced: ABI %d)",
				hm_sbx_right_abi(b));
		else if (!(handled & (1ULL << b)))
			fputs("(not enforced: --no-truncate)", f);
		sep = ",";
	}
}

/* A port grant, each right saying whether this kernel enforces it. */
static void print_net(FILE *f, const struct hm_sbx_grant *g,
		      const struct hm_sbx_summary *s, int abi)
{
	static const char *const names[] = { "net.bind_tcp", "net.connect_tcp",
					     "net.bind_udp",
					     "net.connect_send_udp" };
	const char *sep = "";

	for (unsigned b = 0; b < HM_ARRAY_SIZE(names); b++) {
		int need = (1ULL << b) & HM_LL_NET_UDP ? 10 : 4;

		if (!(g->access & (1ULL << b)))
			continue;
		fprintf(f, "%s%s", sep, names[b]);
		if (abi < need)
			fprintf(f, "(not enforced: ABI %d)", need);
		else if (!(s->handled_net & (1ULL << b)))
			fputs("(not enforced: too many ports)", f);
		sep = ",";
	}
	fprintf(f, " port %lu", (unsigned long)g->port);
	if (g->port_max > g->port)
		fprintf(f, "-%lu", (unsigned long)g->port_max);
}

static void print_grant(FILE *f, const struct hm_sbx_grant *g,
			const struct hm_sbx_summary *s, int abi)
{
	fputs("      ", f);
	if (g->path) {
		print_rights(f, g->access, s->handled_fs, abi);
		fprintf(f, " on %s", g->path);
	} else {
		print_net(f, g, s, abi);
	}
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		if (g->widen & (1u << w))
			fprintf(f, "  [%s]", hm_sbx_widen_words[w]);
	if (g->widen & HM_SBX_SYMLINK)
		fputs("  [symlink: not granted]", f);
	fputc('\n', f);
}

struct explain {
	FILE *f;
	struct hm_model *m;
	const struct hm_sbx_summary *s;
	int abi;
	uint64_t missing;	/* entries granted on a missing object's parent */
	uint64_t symlinks;	/* grants skipped: a symlink on the way */
};

static int explain_entry(const struct hm_acl_head *e, void *arg)
{
	struct explain *x = arg;
	struct hm_sbx_xlat t;
	char *text = NULL;
	int r;

	r = hm_acl_format(x->m, e, HM_DIALECT_18, &text, NULL);
	if (r)
		return r;
	fprintf(x->f, "  %s\n", text);
	free(text);
	/* looked up now, so that [missing] says what applying will do */
	r = hm_sbx_translate(x->m, e, "", HM_SBX_LOOKUP, &t);
	if (r)
		return r;
	for (size_t i = 0; i < t.n; i++)
		print_grant(x->f, &t.grants[i], x->s, x->abi);
	for (size_t i = 0; i < t.n; i++)
		if (t.grants[i].widen & (1u << HM_SBX_W_MISSING)) {
			x->missing++;
			break;
		}
	for (size_t i = 0; i < t.n; i++)
		x->symlinks += !!(t.grants[i].widen & HM_SBX_SYMLINK);
	if (t.unenforced)
		fprintf(x->f, "      not enforced: %s\n",
			hm_sbx_unenforced_text[t.unenforced]);
	if (t.static_exec)
		fprintf(x->f, "      static program: it and what it runs keep "
			"this domain's ruleset (no preload)\n");
	hm_sbx_xlat_fini(&t);
	return 0;
}

/* --no-truncate, said wherever what is enforced is said. */
static void print_truncate(FILE *f, const struct hm_sbx_summary *s, int abi)
{
	if (abi < 3 || (s->handled_fs & HM_LL_FS_TRUNCATE))
		return;
	fprintf(f, "sandbox: fs.truncate not enforced (--no-truncate): "
		"truncate, ftruncate and O_TRUNC of any file are left to file "
		"permissions; %lu entries grant it\n",
		(unsigned long)s->truncate_unenforced);
}

static void print_summary(FILE *f, const struct hm_sbx_summary *s, int abi)
{
	uint64_t ne = 0;

	fprintf(f, "sandbox: %lu domain%s, %lu entries, %lu rules; Landlock "
		"ABI %d\n", (unsigned long)s->domains, s->domains == 1 ? "" :
		"s", (unsigned long)s->entries, (unsigned long)s->grants, abi);
	fputs("sandbox: widened:", f);
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		fprintf(f, " %s %lu", hm_sbx_widen_words[w],
			(unsigned long)s->widened[w]);
	fputc('\n', f);
	for (unsigned u = 1; u < HM_SBX_NE_MAX; u++)
		ne += s->unenforced[u];
	fprintf(f, "sandbox: entries not (wholly) enforced: %lu\n",
		(unsigned long)ne);
	for (unsigned u = 1; u < HM_SBX_NE_MAX; u++)
		if (s->unenforced[u])
			fprintf(f, "  %lu: %s\n", (unsigned long)s->unenforced[u],
				hm_sbx_unenforced_text[u]);
	if (s->static_execs)
		fprintf(f, "sandbox: %lu execute entries run static programs: "
			"they cannot narrow below\n",
			(unsigned long)s->static_execs);
	if (s->abi_unenforced)
		fprintf(f, "sandbox: %lu entries need rights this kernel's "
			"ABI lacks\n", (unsigned long)s->abi_unenforced);
	print_truncate(f, s, abi);
	if (abi < 4 || s->ports_too_wide_bind || s->ports_too_wide_connect)
		fprintf(f, "sandbox: TCP %s%s%s not restricted (%s)\n",
			abi < 4 || s->ports_too_wide_bind ? "bind" : "",
			abi < 4 || (s->ports_too_wide_bind &&
				    s->ports_too_wide_connect) ? "/" : "",
			abi < 4 || s->ports_too_wide_connect ? "connect" : "",
			abi < 4 ? "needs ABI 4" : "too many ports allowed");
	fprintf(f, "sandbox: signals %s, abstract unix sockets %s\n",
		s->scoped & HM_LL_SCOPE_SIGNAL ? "scoped" : "not restricted",
		s->scoped & HM_LL_SCOPE_ABSTRACT_UNIX ? "scoped" :
		"not restricted");
	if (abi < 10 || s->ports_too_wide_udp)
		fprintf(f, "sandbox: UDP not restricted (%s)\n", abi < 10 ?
			"needs ABI 10" : "too many ports allowed");
	if (abi < 9)
		fprintf(f, "sandbox: connecting to pathname unix sockets not "
			"restricted (needs ABI 9)\n");
	fprintf(f, "sandbox: the ruleset holds for %s\n", abi >= 8 ?
		"every thread of the process (ABI 8)" : "the thread that "
		"applies it and what it starts (before ABI 8; applied before "
		"any other thread exists)");
	if (abi < 7)
		fprintf(f, "sandbox: ABI %d writes no audit records: denials "
			"are not in the trail\n", abi);
}

/* What the explained domain's ruleset (COMMAND's, run from it) adds on
 * the sources of moves to another directory (docs/SANDBOX.md "Moving a
 * file to another directory"). */
static int print_moves(FILE *f, struct hm_model *m,
		       const struct hm_domain *root,
		       const struct hm_sbx_summary *s, int abi)
{
	struct hm_sbx_opts o = { .abi = abi, .root = "" };
	struct hm_sbx_widened_move *v;
	size_t n;
	int r = hm_sbx_widened_moves(m, root, &o, &v, &n);

	for (size_t i = 0; !r && i < n; i++) {
		if (!(v[i].added & s->handled_fs))
			continue;
		fputs("sandbox: refer: ", f);
		print_rights(f, v[i].added & s->handled_fs, s->handled_fs, abi);
		fprintf(f, " added on %s: files move from it to %s (%s)\n",
			v[i].from, v[i].to, hm_sbx_widen_text[HM_SBX_W_REFER]);
	}
	if (!r)
		hm_sbx_widened_moves_free(v, n);
	return r;
}

static int explain(FILE *f, struct hm_model *m, const struct hm_domain *root,
		   const struct hm_sbx_summary *s, int abi)
{
	const struct hm_domain **v;
	struct explain x = { f, m, s, abi, 0, 0 };
	struct hm_sbx_summary sum = *s;
	size_t n;
	int r = hm_sbx_subtree(m, root, &v, &n);

	for (size_t i = 0; !r && i < n; i++) {
		fprintf(f, "%s\n", v[i]->name->str);
		r = hm_sbx_domain_entries(m, v[i], explain_entry, &x);
	}
	if (!r)
		free(v);
	sum.widened[HM_SBX_W_MISSING] = x.missing;	/* the build did not look */
	print_summary(f, &sum, abi);
	if (!r)
		r = print_moves(f, m, root, s, abi);
	if (x.symlinks)
		fprintf(f, "sandbox: %lu objects are symlinks or lie beneath "
			"one: not granted (a symlink is never followed)\n",
			(unsigned long)x.symlinks);
	return r;
}

/*
 * The execs of set-id programs in table @blob (edges with
 * HM_SBX_EXEC_SETID, one per domain and program: a child by name and an
 * execute entry are two edges of one exec), the first one with the
 * domain that executes it, and the domains marked for them
 * (HM_SBX_DOM_SETID: they keep their parent's bound when no_new_privs is
 * off).
 */
struct setid_scan {
	uint32_t domains, programs;
	const char *prog, *domain;	/* the first, in the table */
};

/* Does an edge of @d before its @j-th run the same program, set-id? */
static bool setid_seen(const struct hm_sbx_thdr *h,
		       const struct hm_sbx_tdom *d, uint32_t j)
{
	const char *p = hm_sbx_tstr(h, hm_sbx_tedge(h, d->edge_first + j)->program);

	for (uint32_t k = 0; k < j; k++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + k);

		if ((e->flags & HM_SBX_EXEC_SETID) &&
		    !strcmp(hm_sbx_tstr(h, e->program), p))
			return true;
	}
	return false;
}

static void setid_scan(const void *blob, struct setid_scan *ss)
{
	const struct hm_sbx_thdr *h = blob;

	*ss = (struct setid_scan){ 0 };
	for (uint32_t i = 0; i < h->n_domains; i++) {
		const struct hm_sbx_tdom *d = hm_sbx_tdom(h, i);

		ss->domains += !!(d->flags & HM_SBX_DOM_SETID);
		for (uint32_t j = 0; j < d->n_edges; j++) {
			const struct hm_sbx_tedge *e =
				hm_sbx_tedge(h, d->edge_first + j);

			if (!(e->flags & HM_SBX_EXEC_SETID) ||
			    setid_seen(h, d, j))
				continue;
			if (!ss->programs++) {
				ss->prog = hm_sbx_tstr(h, e->program);
				ss->domain = hm_sbx_tstr(h, d->name);
			}
		}
	}
}

/* --explain's and --stats' line about them, if any. */
static void print_setid(FILE *f, const void *blob)
{
	struct setid_scan ss;

	setid_scan(blob, &ss);
	if (!ss.programs)
		return;
	fprintf(f, "sandbox: %u execs of set-id programs (the first: %s, by "
		"%s); %u domains run one or reach one (" HM_SBX_SETID "): "
		"without no_new_privs (a root sandbox) they keep their "
		"parent's bound\n", ss.programs, ss.prog, ss.domain,
		ss.domains);
}

/* A wrapper's statuses (env, timeout, nice), so that a script can tell
 * them from COMMAND's own: histmac failed; COMMAND cannot run; not found. */
enum { SBX_EXIT_OWN = 125, SBX_EXIT_CANNOT_RUN = 126, SBX_EXIT_NOT_FOUND = 127 };

struct plan {
	struct hm_model *m;
	char *prog;		/* COMMAND's path, or NULL */
	char *domain;		/* the domain COMMAND enters */
	const struct hm_domain *d;	/* it in the policy, or NULL */
	char *preload;
	int abi;
	bool ran;		/* COMMAND was started: its status is ours */
};

/* ---------------------------------------------------------------- run */

static int set_env(const char *value, const char *preload)
{
	const char *old = getenv("LD_PRELOAD");
	char *lp = NULL;

	if (setenv(HM_SBX_ENV, value, 1))
		return -errno;
	if (!preload)
		return 0;
	if (asprintf(&lp, "%s%s%s", preload, old && *old ? " " : "",
		     old ? old : "") < 0)
		return -ENOMEM;
	if (setenv("LD_PRELOAD", lp, 1)) {
		free(lp);
		return -errno;
	}
	free(lp);
	return 0;
}

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Wall clock and this process's CPU time (user + system): on a busy
 * machine the second is what the work itself took. */
struct stopwatch {
	double wall, cpu;
};

static struct stopwatch stopwatch_start(void)
{
	return (struct stopwatch){ clock_ms(CLOCK_MONOTONIC),
				   clock_ms(CLOCK_PROCESS_CPUTIME_ID) };
}

static void stopwatch_print(const struct stopwatch *sw, const char *what)
{
	fprintf(stderr, "%s in %.2f ms (%.2f ms CPU)\n", what,
		clock_ms(CLOCK_MONOTONIC) - sw->wall,
		clock_ms(CLOCK_PROCESS_CPUTIME_ID) - sw->cpu);
}

/*
 * Apply COMMAND's ruleset (table domain 0), with no_new_privs unless
 * the table has set-id programs (domain 0 marked HM_SBX_DOM_SETID) and
 * the kernel lets this process restrict itself without it: Landlock
 * takes landlock_restrict_self() from a process with CAP_SYS_ADMIN (a
 * root sandbox).  Then the set-id programs below keep their privilege,
 * inside the Landlock domain (it survives a set-id exec), and the
 * domains above them keep their parents' bound (preload.c); every other
 * domain below sets no_new_privs as it narrows.  Otherwise (no
 * CAP_SYS_ADMIN, or no_new_privs already set by whoever started us),
 * say once that those programs run without their privilege.
 */
static int restrict_first(const void *blob, struct hm_sbx_apply_stats *st)
{
	bool setid = hm_sbx_tdom(blob, 0)->flags & HM_SBX_DOM_SETID;
	struct setid_scan ss;
	int r = -EPERM;

	if (setid)
		r = hm_sbx_apply(blob, 0, st);
	if (r == -EPERM) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return -errno;
		r = hm_sbx_apply(blob, 0, st);
	}
	if (r || !setid || prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return r;
	setid_scan(blob, &ss);
	if (!ss.programs)	/* not from the table's edges: cannot be */
		return 0;
	warnx("%u execs of set-id programs (the first: %s, by %s) run "
	      "without their privilege: no_new_privs is set (restricting "
	      "without it needs CAP_SYS_ADMIN)", ss.programs, ss.prog,
	      ss.domain);
	return 0;
}

/* In the child: confine this process (a new session, Landlock, the
 * terminal filter) and run COMMAND.  Never returns. */
static void confine_and_run(const void *blob, char **cmd, const char *prog,
			    const sigset_t *old, bool stats)
{
	struct hm_sbx_apply_stats st;
	struct stopwatch sw = stopwatch_start();
	char what[200];
	int r = 0;

	/* the caller's terminal stays open, but is no longer ours: its
	 * input cannot be pushed (TIOCSTI needs the controlling terminal
	 * or CAP_SYS_ADMIN, and the filter below refuses it to the latter) */
	if (setsid() < 0)
		r = -errno;
	if (!r)
		r = restrict_first(blob, &st);
	if (r) {
		warnx("cannot apply the Landlock ruleset: %s", strerror(-r));
		_exit(HM_EXIT_FAIL);
	}
	/* only where the kernel would let TIOCSTI through: CAP_SYS_ADMIN */
	r = hm_sbx_tty_filter_needed() ? hm_sbx_tty_filter() : 0;
	if (r == -EOPNOTSUPP)
		warnx("no TIOCSTI filter on this architecture: the new "
		      "session alone keeps COMMAND off the terminal's input");
	else if (r) {
		warnx("cannot filter terminal ioctls: %s", strerror(-r));
		_exit(HM_EXIT_FAIL);
	}
	if (st.not_file)
		warnx("%u learned files are directories now: their rules are "
		      "refused (granting them would grant everything beneath)",
		      st.not_file);
	if (st.uncreatable)
		warnx("%u learned files to write do not exist (the first: %s) "
		      "and the policy does not let COMMAND create them: opening "
		      "them fails until they are made", st.uncreatable,
		      hm_sbx_tstr(blob, st.uncreatable_first));
	if (stats) {
		snprintf(what, sizeof(what), "sandbox: %u rules applied (%u on "
			 "a missing object's parent, %u unreachable skipped, "
			 "%u files now directories refused, %u symlinks "
			 "skipped)", st.rules, st.missing, st.unreachable,
			 st.not_file, st.symlinks);
		stopwatch_print(&sw, what);
	}
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	fflush(stdout);
	fflush(stderr);
	execv(prog, cmd);
	r = errno;
	warn("cannot execute %s", prog);
	_exit(r == ENOENT ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_RUN);
}

/* ----------------------------------------------------- the supervisor */

/* What the preload reported on the FIFO (table.h HM_SBX_LOST_KINDS). */
#define X(k, text) LOST_##k,
enum lost_kind { HM_SBX_LOST_KINDS(X) LOST_MAX };
#undef X
/* and after them, at LOST_MAX, the one kind that is a decision, not a
 * loss: a domain that keeps its parent's bound for a set-id program */
#define X(k, text) #k,
static const char *const lost_words[LOST_MAX + 1] = { HM_SBX_LOST_KINDS(X)
						      HM_SBX_SETID };
#undef X
#define X(k, text) text,
static const char *const lost_text[LOST_MAX + 1] = { HM_SBX_LOST_KINDS(X)
						     HM_SBX_SETID_TEXT };
#undef X

struct relay {
	int fd;			/* the FIFO's read end */
	char buf[2 * PIPE_BUF];
	size_t len;
	char **seen;		/* "KIND PROGRAM" already printed */
	size_t n_seen;
	uint64_t programs[LOST_MAX + 1];	/* distinct programs per kind */
	uint64_t refused;
	uint64_t restored;	/* execs given LD_PRELOAD/HISTMAC_SANDBOX back */
};

static bool relay_seen(struct relay *rl, const char *key)
{
	char **n;

	for (size_t i = 0; i < rl->n_seen; i++)
		if (!strcmp(rl->seen[i], key))
			return true;
	if (rl->n_seen >= 10000)	/* bounded: say again rather than grow */
		return false;
	n = realloc(rl->seen, (rl->n_seen + 1) * sizeof(*n));
	if (!n)
		return false;
	rl->seen = n;
	rl->seen[rl->n_seen] = strdup(key);
	if (rl->seen[rl->n_seen])
		rl->n_seen++;
	return false;
}

/* The reporter is a confined process: print its words as text only. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

/* One line "KIND R PID PROGRAM" from the preload. */
static void relay_line(struct relay *rl, char *line)
{
	char kind[16], key[PIPE_BUF + 16], r;
	int pid, off = 0;
	unsigned k;

	sanitize(line);
	if (sscanf(line, "%15s %c %d %n", kind, &r, &pid, &off) != 3 || !off)
		return;
	if (!strcmp(kind, HM_SBX_ENV_RESTORED)) {
		rl->restored++;
		return;
	}
	for (k = 0; k <= LOST_MAX && strcmp(kind, lost_words[k]); k++)
		;
	if (k > LOST_MAX)
		return;
	rl->refused += r == 'r';
	if (!line[off] || snprintf(key, sizeof(key), "%s %s", kind,
				   line + off) >= (int)sizeof(key) ||
	    relay_seen(rl, key))
		return;
	rl->programs[k]++;
	fprintf(stderr, "histmac sandbox: %s (pid %d) %s: %s\n", line + off,
		pid, r == 'r' ? "refused (--strict), it cannot narrow" :
		"keeps its parent's bound", lost_text[k]);
}

static void relay_read(struct relay *rl)
{
	ssize_t n;

	while ((n = read(rl->fd, rl->buf + rl->len,
			 sizeof(rl->buf) - rl->len - 1)) > 0) {
		char *nl, *p = rl->buf;

		rl->len += (size_t)n;
		rl->buf[rl->len] = '\0';
		while ((nl = strchr(p, '\n'))) {
			*nl = '\0';
			relay_line(rl, p);
			p = nl + 1;
		}
		rl->len -= (size_t)(p - rl->buf);
		memmove(rl->buf, p, rl->len);
		if (rl->len == sizeof(rl->buf) - 1)
			rl->len = 0;	/* a line too long: not ours */
	}
}

static void relay_stats(const struct relay *rl)
{
	uint64_t total = 0;

	for (unsigned k = 0; k < LOST_MAX; k++)
		total += rl->programs[k];
	fprintf(stderr, "sandbox: programs that could not narrow: %lu",
		(unsigned long)total);
	for (unsigned k = 0; k < LOST_MAX; k++)
		fprintf(stderr, " %s %lu", lost_words[k],
			(unsigned long)rl->programs[k]);
	fprintf(stderr, "; execs refused (--strict): %lu\n",
		(unsigned long)rl->refused);
	fprintf(stderr, "sandbox: programs that kept their parent's bound for "
		"a set-id program (" HM_SBX_SETID "): %lu\n",
		(unsigned long)rl->programs[LOST_MAX]);
	fprintf(stderr, "sandbox: execs whose environment lacked the preload "
		"and got it back: %lu\n", (unsigned long)rl->restored);
}

/*
 * Wait for COMMAND, passing on the signals a terminal or a supervisor
 * sends us (COMMAND is in its own session: ^C reaches only us), and
 * print what the preload reports.  Returns COMMAND's exit status, or
 * re-raises the signal that killed it.
 */
static int supervise(pid_t child, int sfd, struct relay *rl, bool stats)
{
	struct pollfd pf[2] = { { sfd, POLLIN, 0 }, { rl->fd, POLLIN, 0 } };
	int status = 0;

	for (;;) {
		struct signalfd_siginfo si;

		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			relay_read(rl);
		if (!(pf[0].revents & POLLIN) ||
		    read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo != SIGCHLD) {
			kill(child, (int)si.ssi_signo);
			continue;
		}
		if (waitpid(child, &status, WNOHANG) == child)
			break;
	}
	relay_read(rl);
	if (stats)
		relay_stats(rl);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static void relay_fini(struct relay *rl)
{
	for (size_t i = 0; i < rl->n_seen; i++)
		free(rl->seen[i]);
	free(rl->seen);
	if (rl->fd >= 0)
		close(rl->fd);
}

/*
 * Run COMMAND confined, in a child in its own session: the table in a
 * memfd and its copy, the environment, then fork; this process stays to
 * relay signals and reports, and removes the copy when COMMAND exits.
 */
static int launch(const void *blob, size_t size, struct hm_sbx_files *f,
		  const struct args *a, struct plan *p)
{
	static const int sigs[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP,
				    SIGQUIT, SIGUSR1, SIGUSR2 };
	struct relay rl = { .fd = -1 };
	sigset_t set, old;
	char *value = NULL;
	int fd, wfd = -1, sfd = -1, r;
	pid_t child;

	fd = hm_sbx_table_fd(blob, size);
	r = fd < 0 ? fd : hm_sbx_files_write_table(f, blob, size);
	if (!r)
		r = hm_sbx_env_value(fd, a->strict, f, &value);
	if (!r)
		r = set_env(value, p->preload);
	free(value);
	/* read end first (non-blocking), and a write end of our own so that
	 * the FIFO never reads as hung up between two reporters */
	if (!r && ((rl.fd = open(f->report, O_RDONLY | O_NONBLOCK |
				 O_CLOEXEC)) < 0 ||
		   (wfd = open(f->report, O_WRONLY | O_CLOEXEC)) < 0))
		r = -errno;
	sigemptyset(&set);
	for (size_t i = 0; i < HM_ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	if (!r && (sigprocmask(SIG_BLOCK, &set, &old) ||
		   (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0))
		r = -errno;
	if (r) {
		warnx("cannot hold the rulesets: %s", strerror(-r));
		relay_fini(&rl);
		return HM_EXIT_FAIL;
	}
	fflush(stdout);
	fflush(stderr);
	child = fork();
	if (child == 0) {
		close(rl.fd);
		close(wfd);
		close(sfd);
		confine_and_run(blob, a->cmd, p->prog, &old, a->stats);
	}
	if (child < 0) {
		warn("cannot fork");
		r = HM_EXIT_FAIL;
	} else {
		p->ran = true;
		r = supervise(child, sfd, &rl, a->stats);
	}
	close(fd);
	close(wfd);
	close(sfd);
	relay_fini(&rl);
	hm_sbx_files_remove(f);
	if (r > 128 && r - 128 < NSIG && r - 128 != SIGCHLD) {
		/* killed by a signal: die of it too, as a shell reports */
		signal(r - 128, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		raise(r - 128);
	}
	return r;
}

static int run(char **cmd, const char *prog)
{
	int e;

	fflush(stdout);
	fflush(stderr);
	execv(prog, cmd);
	e = errno;
	warn("cannot execute %s", prog);
	return e == ENOENT ? SBX_EXIT_NOT_FOUND : SBX_EXIT_CANNOT_RUN;
}

static bool is_static(const char *prog)
{
	int fd = open(prog, O_RDONLY | O_CLOEXEC);
	bool script;
	char *interp;

	if (fd < 0)
		return false;
	interp = hm_exec_interp(fd, &script);
	close(fd);
	free(interp);
	return !interp;
}

/* ---------------------------------------------------------------- main */


static int plan_domain(const struct args *a, struct plan *p)
{
	char *caller;
	int r;

	if (!a->cmd) {
		p->domain = strdup(a->domain);
	} else {
		p->prog = program_path(a->cmd[0]);
		if (!p->prog || access(p->prog, F_OK)) {
			warnx("%s: command not found", a->cmd[0]);
			return SBX_EXIT_NOT_FOUND;
		}
		caller = a->domain ? strdup(a->domain) : ancestry_domain(p->m);
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

/* --strict: COMMAND itself would not narrow what it runs. */
static int refuse(const struct args *a, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "histmac: %s: refused (--strict): ", a->cmd[0]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return HM_EXIT_FAIL;
}

/* COMMAND under the rulesets, unless --strict refuses it first. */
static int run_confined(const void *blob, size_t size,
			struct hm_sbx_files *files, const struct args *a,
			struct plan *p)
{
	if (!p->preload && a->strict)
		return refuse(a, "no %s: programs below it cannot narrow",
			      PRELOAD_NAME);
	if (!p->preload)
		warnx("no %s: programs below %s keep its ruleset",
		      PRELOAD_NAME, a->cmd[0]);
	else if (is_static(p->prog) && a->strict)
		return refuse(a, "statically linked: what it runs cannot "
			      "narrow");
	else if (is_static(p->prog))
		warnx("%s is statically linked: it and what it runs keep this "
		      "subtree's ruleset", p->prog);
	return launch(blob, size, files, a, p);
}

static int sandbox(const struct args *a, struct plan *p)
{
	struct hm_sbx_summary sum = { 0 };
	struct hm_sbx_files files = { 0 };
	struct hm_sbx_opts o = { .abi = p->abi, .root = "", .program = p->prog,
				 .preload = p->preload,
				 .no_truncate = a->no_truncate };
	FILE *ef = a->cmd ? stderr : stdout;
	struct stopwatch sw = stopwatch_start();
	size_t size = 0;
	void *blob = NULL;
	int r = 0;

	if (a->cmd && !a->dry_run) {
		/* a reader of our stderr gone (| head) must not kill us
		 * before the directory is removed; COMMAND gets SIGPIPE back */
		signal(SIGPIPE, SIG_IGN);
		r = hm_sbx_files_make(&files);
		if (r) {
			warnx("cannot make the sandbox's directory: %s",
			      strerror(-r));
			return HM_EXIT_FAIL;
		}
		o.table_path = files.table;
		o.report_path = files.report;
	}
	r = hm_sbx_table(p->m, p->d, &o, &blob, &size, &sum);
	if (!r && a->stats) {
		fprintf(stderr, "sandbox: rulesets of %lu domains (%lu entries, "
			"%lu rules at the top, %zu bytes)\n",
			(unsigned long)sum.domains, (unsigned long)sum.entries,
			(unsigned long)sum.grants, size);
		stopwatch_print(&sw, "sandbox: built");
		print_truncate(stderr, &sum, p->abi);
	}
	if (r) {
		warnx("cannot build the rulesets: %s", strerror(-r));
		hm_sbx_files_remove(&files);
		return HM_EXIT_FAIL;
	}
	if (a->stats)
		print_setid(stderr, blob);
	if (a->explain && explain(ef, p->m, p->d, &sum, p->abi))
		r = HM_EXIT_FAIL;
	else if (a->explain)
		print_setid(ef, blob);
	if (!r && a->cmd && !a->dry_run)
		r = run_confined(blob, size, &files, a, p);
	hm_sbx_files_remove(&files);
	if (a->cmd && !a->dry_run) {
		free(blob);
		return r;
	}
	if (!r && a->cmd)
		warnx("dry run: %s runs unconfined in %s", a->cmd[0],
		      p->domain);
	free(blob);
	if (r || !a->cmd)
		return r ? r : hm_cli_finish(HM_EXIT_OK);
	return run(a->cmd, p->prog);
}

static int no_landlock(const struct args *a, struct plan *p)
{
	const char *why = p->abi == -EOPNOTSUPP ? "disabled at boot" :
			  "not in this kernel";

	if (a->cmd && (a->best_effort || a->dry_run)) {
		warnx("Landlock is %s: running %s UNCONFINED", why, a->cmd[0]);
		return run(a->cmd, p->prog);
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
		return wrapping ? SBX_EXIT_OWN : r;
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
		p.preload = preload_path();
	}
	if (!r && p.abi < 0)
		r = no_landlock(&a, &p);
	else if (!r && !p.d && !a.cmd)
		r = HM_EXIT_FINDINGS;	/* nothing to explain */
	else if (!r && !p.d) {
		warnx("dry run: %s runs unconfined in '%s', which the policy "
		      "lacks", a.cmd[0], p.domain);
		r = run(a.cmd, p.prog);
	}
	else if (!r)
		r = sandbox(&a, &p);
	free(p.prog);
	free(p.domain);
	free(p.preload);
	hm_model_free(p.m);
	return wrapping && !p.ran && r && r < SBX_EXIT_OWN ? SBX_EXIT_OWN : r;
}
