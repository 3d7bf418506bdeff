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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/enforce.h"
#include "histmac/policy_io.h"
#include "histmac/sandbox.h"
#include "../sandbox/landlock_abi.h"
#include "../sandbox/table.h"

#define CMD "sandbox"
#define PRELOAD_NAME "libhistmac-sandbox.so"

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
"      --no-truncate       leave truncation (truncate, ftruncate, O_TRUNC)\n"
"                          to file permissions: faster opens, but any file\n"
"                          the user may write can be truncated\n"
"      --from D            read the policy as tomoyo, tomoyo-2.1 or\n"
"                          tomoyo-1.8 (default: detected)\n"
"      --stats             print how long building and applying took\n"
"      --abi N             use at most Landlock ABI N (1-7; default: the\n"
"                          kernel's), as an older kernel would\n"
"  -h, --help              this text\n"
"\n"
"Environment: HISTMAC_SANDBOX_PRELOAD the preload library (default: next\n"
"to histmac, else " HM_SANDBOX_PRELOAD ");\n"
"HISTMAC_SANDBOX_DEBUG=1 makes it report what it does.\n"
"Exit: COMMAND's status once it runs; else, as env, timeout and nice,\n"
"125 histmac failed (the policy lacks the domain or has errors, usage,\n"
"no Landlock, I/O, memory), 126 COMMAND cannot run, 127 COMMAND not\n"
"found.  Without COMMAND (--explain): 1 the policy lacks the domain,\n"
"4 the policy has errors, 2 usage, 3 could not run.\n");
}

enum { OPT_DOMAIN = 256, OPT_MODE, OPT_EXPLAIN, OPT_BEST, OPT_DIALECT,
       OPT_STATS, OPT_ABI, OPT_WRITE_DIALECT, OPT_NO_TRUNCATE };

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "domain", required_argument, NULL, OPT_DOMAIN },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "best-effort", no_argument, NULL, OPT_BEST },
	{ "no-truncate", no_argument, NULL, OPT_NO_TRUNCATE },
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
		char path[64], exe[PATH_MAX], stat[512];
		ssize_t len;
		FILE *f;
		char *rp;

		snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
		len = readlink(path, exe, sizeof(exe) - 1);
		if (len <= 0)
			break;
		exe[len] = '\0';
		chain[n++] = strdup(exe);
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (!f || !fgets(stat, sizeof(stat), f)) {
			if (f)
				fclose(f);
			break;
		}
		fclose(f);
		rp = strrchr(stat, ')');
		pid = rp ? (pid_t)strtol(rp + 4, NULL, 10) : 0;
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

/* The preload library: $HISTMAC_SANDBOX_PRELOAD, else next to this
 * histmac (a build tree), else where it is installed. */
static char *preload_path(void)
{
	const char *env = getenv("HISTMAC_SANDBOX_PRELOAD");
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *p = NULL;

	if (env)
		return access(env, R_OK) ? NULL : strdup(env);
	if (len > 0) {
		self[len] = '\0';
		*strrchr(self, '/') = '\0';
		if (asprintf(&p, "%s/%s", self, PRELOAD_NAME) >= 0 &&
		    !access(p, R_OK))
			return p;
		free(p);
	}
	return access(HM_SANDBOX_PRELOAD, R_OK) ? NULL :
	       strdup(HM_SANDBOX_PRELOAD);
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

static void print_grant(FILE *f, const struct hm_sbx_grant *g,
			const struct hm_sbx_summary *s, int abi)
{
	fputs("      ", f);
	if (g->path) {
		print_rights(f, g->access, s->handled_fs, abi);
		fprintf(f, " on %s", g->path);
	} else {
		fprintf(f, "%s%s%s port %lu", g->access & HM_LL_NET_BIND_TCP ?
			"net.bind_tcp" : "",
			(g->access & HM_LL_NET_BIND_TCP) &&
			(g->access & HM_LL_NET_CONNECT_TCP) ? "," : "",
			g->access & HM_LL_NET_CONNECT_TCP ?
			"net.connect_tcp" : "", (unsigned long)g->port);
		if (g->port_max > g->port)
			fprintf(f, "-%lu", (unsigned long)g->port_max);
		if (!s->handled_net)
			fputs(" (not enforced: ABI 4 or a port range too wide)",
			      f);
	}
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		if (g->widen & (1u << w))
			fprintf(f, "  [%s]", hm_sbx_widen_words[w]);
	fputc('\n', f);
}

struct explain {
	FILE *f;
	struct hm_model *m;
	const struct hm_sbx_summary *s;
	int abi;
	uint64_t missing;	/* entries granted on a missing object's parent */
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
	if (abi < 7)
		fprintf(f, "sandbox: ABI %d writes no audit records: denials "
			"are not in the trail\n", abi);
}

static int explain(FILE *f, struct hm_model *m, const struct hm_domain *root,
		   const struct hm_sbx_summary *s, int abi)
{
	const struct hm_domain **v;
	struct explain x = { f, m, s, abi, 0 };
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
	return r;
}

/* ---------------------------------------------------------------- run */

/* The table in a sealed memfd that stays open across exec. */
static int table_fd(const void *blob, size_t size)
{
	int fd = memfd_create("histmac-sandbox", MFD_ALLOW_SEALING);

	if (fd < 0)
		return -errno;
	if (write(fd, blob, size) != (ssize_t)size ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
		  F_SEAL_WRITE | F_SEAL_SEAL)) {
		int e = errno ? errno : EIO;

		close(fd);
		return -e;
	}
	return fd;
}

static int set_env(int fd, const char *preload)
{
	const char *old = getenv("LD_PRELOAD");
	char v[32];
	char *lp = NULL;

	snprintf(v, sizeof(v), "%d:%0*u:%c", fd, HM_SBX_DOM_DIGITS, 0,
		 HM_SBX_APPLIED);
	if (setenv(HM_SBX_ENV, v, 1))
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

static int confine(const void *blob, size_t size, const char *preload,
		   bool stats)
{
	struct hm_sbx_apply_stats st;
	int fd = table_fd(blob, size);
	struct stopwatch sw = stopwatch_start();
	char what[160];
	int r;

	if (fd < 0) {
		warnx("cannot hold the rulesets: %s", strerror(-fd));
		return HM_EXIT_FAIL;
	}
	r = set_env(fd, preload);
	if (!r && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		r = -errno;
	if (!r)
		r = hm_sbx_apply(blob, 0, &st);
	if (r) {
		warnx("cannot apply the Landlock ruleset: %s", strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (stats) {
		snprintf(what, sizeof(what), "sandbox: %u rules applied (%u on "
			 "a missing object's parent, %u unreachable skipped)",
			 st.rules, st.missing, st.unreachable);
		stopwatch_print(&sw, what);
	}
	return 0;
}

/* A wrapper's statuses (env, timeout, nice), so that a script can tell
 * them from COMMAND's own: histmac failed; COMMAND cannot run; not found. */
enum { SBX_EXIT_OWN = 125, SBX_EXIT_CANNOT_RUN = 126, SBX_EXIT_NOT_FOUND = 127 };

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

struct plan {
	struct hm_model *m;
	char *prog;		/* COMMAND's path, or NULL */
	char *domain;		/* the domain COMMAND enters */
	const struct hm_domain *d;	/* it in the policy, or NULL */
	char *preload;
	int abi;
};

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

static int sandbox(const struct args *a, struct plan *p)
{
	struct hm_sbx_summary sum = { 0 };
	struct hm_sbx_opts o = { .abi = p->abi, .root = "", .program = p->prog,
				 .preload = p->preload,
				 .no_truncate = a->no_truncate };
	FILE *ef = a->cmd ? stderr : stdout;
	struct stopwatch sw = stopwatch_start();
	size_t size = 0;
	void *blob = NULL;
	int r;

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
		return HM_EXIT_FAIL;
	}
	if (a->explain && explain(ef, p->m, p->d, &sum, p->abi))
		r = HM_EXIT_FAIL;
	if (!r && a->cmd && !a->dry_run) {
		if (!p->preload)
			warnx("no %s: programs below %s keep its ruleset",
			      PRELOAD_NAME, a->cmd[0]);
		else if (is_static(p->prog))
			warnx("%s is statically linked: it and what it runs "
			      "keep this subtree's ruleset", p->prog);
		r = confine(blob, size, p->preload, a->stats);
	} else if (!r && a->cmd) {
		warnx("dry run: %s runs unconfined in %s", a->cmd[0],
		      p->domain);
	}
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
	return wrapping && r && r < SBX_EXIT_OWN ? SBX_EXIT_OWN : r;
}
