// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload.c - libhistmac-sandbox.so: a program started below
 * `histmac sandbox` narrows itself to its own domain's subtree, and an
 * exec that will not narrow is said (and with --strict refused).
 *
 * The sandbox sets LD_PRELOAD to this library and HISTMAC_SANDBOX to
 * "FD:DOMAIN:STATE:MODE:INO:CTIME:DIR" (table.h): FD a sealed memfd
 * holding the precomputed table, DIR/table a copy for when FD was closed,
 * DOMAIN the index of the domain the parent ran in.  At start (before
 * main), the library finds the exec edge of that domain named by the
 * program as it was executed (AT_EXECFN, made absolute; then its real
 * path), applies the child domain's ruleset on top of the inherited one
 * (no new layer when the two rulesets are the same), and writes the
 * child's index back for its own children.  It never parses the policy
 * and allocates nothing.
 *
 * A program that cannot narrow keeps its parent's (wider) ruleset, which
 * the kernel still enforces; it is reported once per program on the
 * sandbox's stderr (through DIR/report) and, in strict mode, does not
 * start (exit 126).  A program without this library (a static one, a
 * secure exec) cannot say so itself: the exec functions below say it
 * for it, in the process that executes it; an environment the program
 * cleaned (env -i) they give the sandbox's variables back.
 * HISTMAC_SANDBOX_DEBUG=1 reports each step on stderr.
 *
 * A process that narrows sets no_new_privs first (landlock_restrict_self()
 * needs it, or CAP_SYS_ADMIN).  Without it (below a root sandbox), a
 * domain the table marks for a set-id program keeps its parent's bound
 * instead, so that the program keeps its privilege (keep_for_setid()).
 */
#include <dlfcn.h>
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "table.h"

#define EXPORT __attribute__((visibility("default")))
#define PRELOAD_NAME "libhistmac-sandbox.so"

/* HISTMAC_SANDBOX, parsed. */
struct sbx {
	char *v;		/* the value in environ, rewritten in place */
	/* our own copy, kept in step: a program may overwrite its
	 * environment's strings (sshd's setproctitle() writes its title
	 * over them), and env_restore() must give the real value */
	char val[96 + PATH_MAX];
	int fd;
	uint32_t dom;
	char state;
	bool strict;
	unsigned long long ino;
	long long ctime_ns;
	char dir[PATH_MAX];
	char lib[PATH_MAX];	/* this library as loaded, for LD_PRELOAD */
};

static struct sbx g;		/* valid when g.v */

/* The table, kept mapped for the exec functions (what each program of
 * g.dom's edges is, so they need not read it); NULL if none. */
static const struct hm_sbx_thdr *table;

static void find_libc(void);	/* the exec functions, below */
static void find_self(void);

static void debug(const char *fmt, ...)
{
	const char *d = getenv("HISTMAC_SANDBOX_DEBUG");
	va_list ap;

	if (!d || *d != '1')
		return;
	fputs("histmac-sandbox: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static bool parse(char *v, struct sbx *s)
{
	char *p, *end;
	unsigned long dom;

	if (!v)
		return false;
	s->fd = (int)strtol(v, &p, 10);
	if (*p != ':' || p == v)
		return false;
	dom = strtoul(p + 1, &end, 10);
	if (end != p + 1 + HM_SBX_DOM_DIGITS || dom > UINT32_MAX ||
	    end[0] != ':' || !end[1] || end[2] != ':' || !end[3] ||
	    end[4] != ':')
		return false;
	s->dom = (uint32_t)dom;
	s->state = end[1];
	s->strict = end[3] == HM_SBX_MODE_STRICT;
	s->ino = strtoull(end + 5, &p, 10);
	if (*p != ':')
		return false;
	s->ctime_ns = strtoll(p + 1, &p, 10);
	if (*p != ':' || p[1] != '/' || strlen(p + 1) >= sizeof(s->dir) ||
	    strlen(v) >= sizeof(s->val))
		return false;
	strcpy(s->dir, p + 1);
	strcpy(s->val, v);
	s->v = v;
	return true;
}

/*
 * Write the domain and state back in place: a shell builds its
 * children's environment from main()'s envp, which setenv() would not
 * change, so the value keeps its length.
 */
static void set_domain(uint32_t dom, char state)
{
	char *d = strchr(g.v, ':') + 1;
	char buf[HM_SBX_DOM_DIGITS + 3];

	snprintf(buf, sizeof(buf), "%0*u:%c", HM_SBX_DOM_DIGITS, dom, state);
	memcpy(d, buf, HM_SBX_DOM_DIGITS + 2);
	memcpy(strchr(g.val, ':') + 1, buf, HM_SBX_DOM_DIGITS + 2);
	g.dom = dom;
	g.state = state;
}

/* -------------------------------------------------------------- report */

/*
 * Tell the sandbox (DIR/report, a FIFO it reads) "KIND R PID PROGRAM"
 * (table.h): false when it is gone (a daemon outliving COMMAND).
 */
static bool report_fifo(const char *kind, const char *prog, bool refused)
{
	char path[PATH_MAX + 16];
	char line[PIPE_BUF];
	int n, fd;

	n = snprintf(line, sizeof(line), "%s %c %d %.3900s\n", kind,
		     refused ? 'r' : '-', (int)getpid(), prog);
	snprintf(path, sizeof(path), "%s/" HM_SBX_REPORT_FILE, g.dir);
	fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	n = write(fd, line, (size_t)n) == n;
	close(fd);
	return n;
}

/*
 * @prog cannot narrow, for reason @kind (HM_SBX_LOST_KINDS): the sandbox
 * prints each program once; when it is gone, say it on our own stderr.
 */
static void report(const char *kind, const char *prog, bool refused)
{
	if (!report_fifo(kind, prog, refused))
		fprintf(stderr, "histmac-sandbox: %s: cannot narrow (%s)%s\n",
			prog, kind, refused ? ": refused (--strict)" : "");
}

/* @prog cannot narrow: report it; strict, it does not start. */
static void lost(const char *kind, const char *prog, uint32_t dom,
		 char state)
{
	report(kind, prog, g.strict);
	if (g.strict) {
		fprintf(stderr, "histmac-sandbox: %s: refused (--strict): "
			"cannot narrow (%s)\n", prog, kind);
		_exit(126);
	}
	set_domain(dom, state);
}

/* --------------------------------------------------------------- table */

/* @fn made absolute (from the working directory), normalized. */
static bool absolute(const char *fn, char *buf, size_t cap)
{
	size_t n = 0;

	if (fn[0] != '/') {
		if (!getcwd(buf, cap))
			return false;
		n = strlen(buf);
	}
	if (n + strlen(fn) + 2 > cap)
		return false;
	if (n)
		buf[n++] = '/';
	strcpy(buf + n, fn);
	hm_sbx_normalize(buf);
	return true;
}

/* The program as executed, absolute. */
static bool program(char *buf, size_t cap)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);

	return fn && absolute(fn, buf, cap);
}

static const struct hm_sbx_tedge *find_edge(const struct hm_sbx_thdr *h,
					    uint32_t dom, const char *prog)
{
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, dom);

	for (uint32_t i = 0; i < d->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + i);

		if (!strcmp(hm_sbx_tstr(h, e->program), prog))
			return e;
	}
	return NULL;
}

/* The edge of @dom for absolute @prog: by its name, else its real path. */
/*
 * @prog with its directory's links resolved and its own name kept, as
 * learn names a program (docs/PATHS.md): /bin/sh is /usr/bin/sh on a
 * merged /usr, not /bin/sh (the name executed) nor /usr/bin/dash (the
 * real path).  False when there is nothing to resolve or it fails.
 */
static bool dir_resolved(const char *prog, char out[PATH_MAX])
{
	const char *slash = strrchr(prog, '/');
	char dir[PATH_MAX];
	size_t n = slash ? (size_t)(slash - prog) : 0;

	if (!n || n >= sizeof(dir))
		return false;
	memcpy(dir, prog, n);
	dir[n] = '\0';
	if (!realpath(dir, out))
		return false;
	n = strlen(out);
	if (n == 1)		/* "/" */
		n = 0;
	if (n + strlen(slash) >= PATH_MAX)
		return false;
	strcpy(out + n, slash);
	return true;
}

static const struct hm_sbx_tedge *edge_of(const struct hm_sbx_thdr *h,
					  uint32_t dom, const char *prog)
{
	const struct hm_sbx_tedge *e = find_edge(h, dom, prog);
	char real[PATH_MAX];

	if (!e && dir_resolved(prog, real) && strcmp(real, prog))
		e = find_edge(h, dom, real);
	if (!e && realpath(prog, real))
		e = find_edge(h, dom, real);
	return e;
}

/* Map table fd @fd: NULL unless it holds a table whose header and our
 * domain check. */
static void *map_table(int fd, size_t *size)
{
	struct stat sb;
	void *t;

	if (fd < 0 || fstat(fd, &sb) ||
	    sb.st_size < (off_t)sizeof(struct hm_sbx_thdr))
		return NULL;
	/* private: a shared map of a write-sealed memfd may be refused */
	t = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (t == MAP_FAILED)
		return NULL;
	*size = (size_t)sb.st_size;
	if (hm_sbx_table_check_header(t, *size) &&
	    hm_sbx_table_check_domain(t, g.dom))
		return t;
	munmap(t, *size);
	return NULL;
}

/*
 * The copy DIR/table, if it is the one the sandbox wrote: same inode,
 * same ctime (a write or chmod since would have changed it), reached
 * without a symlink.
 */
static void *map_copy(size_t *size)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS };
	char path[PATH_MAX + 16];
	struct stat sb;
	void *t = NULL;
	int fd;

	snprintf(path, sizeof(path), "%s/" HM_SBX_TABLE_FILE, g.dir);
	fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &sb) && (unsigned long long)sb.st_ino == g.ino &&
	    (long long)sb.st_ctim.tv_sec * 1000000000 + sb.st_ctim.tv_nsec ==
	    g.ctime_ns)
		t = map_table(fd, size);
	close(fd);
	return t;
}

/* Microseconds since @t0 (CLOCK_MONOTONIC), for the debug report. */
static long usec_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000L +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

/* Is no_new_privs set on this process (inherited, or set by us)? */
static bool no_new_privs(void)
{
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
}

/*
 * Without no_new_privs (below a root sandbox), a domain the table marks
 * HM_SBX_DOM_SETID keeps its parent's bound: a set-id program the table
 * knows runs in it or below, and narrowing would need no_new_privs
 * (landlock_restrict_self() refuses a process without it or
 * CAP_SYS_ADMIN: cron's job shell, which became the user), under which
 * the kernel ignores that program's set-id bits (postdrop, run by the
 * job's mail, could not queue the mail).  Any other domain narrows, and
 * sets no_new_privs first even where CAP_SYS_ADMIN would do without:
 * its subtree runs no set-id program the table knows, and one it does
 * not know then runs without its privilege, as under a sandbox that set
 * it.  True when @child keeps the bound (reported, never refused).
 */
static bool keep_for_setid(const struct hm_sbx_thdr *h, const char *prog,
			   uint32_t child)
{
	if (no_new_privs())
		return false;
	if (hm_sbx_tdom(h, child)->flags & HM_SBX_DOM_SETID) {
		debug("%s: %s: a set-id program runs in or below it: keeping "
		      "the parent's bound", prog,
		      hm_sbx_tstr(h, hm_sbx_tdom(h, child)->name));
		report(HM_SBX_SETID, prog, false);
		set_domain(child, g.state == HM_SBX_LAYERS ? HM_SBX_LAYERS :
				  HM_SBX_SETID_KEPT);
		return true;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		debug("%s: cannot set no_new_privs: %s", prog, strerror(errno));
		lost("error", prog, g.dom, HM_SBX_UNKNOWN);
		return true;
	}
	return false;
}

static void narrow(const struct hm_sbx_thdr *h, const char *prog,
		   const struct timespec *t0)
{
	struct hm_sbx_apply_stats st;
	uint32_t dom = g.dom;
	const struct hm_sbx_tedge *e = edge_of(h, dom, prog);
	long child = e ? (long)e->child : -1;
	int r;

	if (child >= 0 && !hm_sbx_table_check_domain(h, (uint32_t)child)) {
		debug("%s: domain %ld is not valid in the table", prog, child);
		child = -1;
	}
	if (child < 0) {
		debug("%s: no transition from %s: keeping its bound", prog,
		      hm_sbx_tstr(h, hm_sbx_tdom(h, dom)->name));
		lost("edge", prog, dom, HM_SBX_UNKNOWN);
		return;
	}
	if (keep_for_setid(h, prog, (uint32_t)child))
		return;
	if (g.state == HM_SBX_LAYERS) {	/* an ancestor hit the limit */
		lost("layers", prog, (uint32_t)child, HM_SBX_LAYERS);
		return;
	}
	/* 'S': the parent's domain kept an ancestor's ruleset, not its own */
	if (g.state != HM_SBX_SETID_KEPT &&
	    hm_sbx_tdom(h, (uint32_t)child)->ruleset ==
	    hm_sbx_tdom(h, dom)->ruleset) {
		debug("%s: %s: the same ruleset as its parent's: no layer", prog,
		      hm_sbx_tstr(h, hm_sbx_tdom(h, child)->name));
		set_domain((uint32_t)child, HM_SBX_PARENT);
		return;
	}
	r = hm_sbx_apply(h, (uint32_t)child, &st);
	if (r == -E2BIG) {
		debug("%s: cannot narrow: 16 Landlock layers", prog);
		lost("layers", prog, (uint32_t)child, HM_SBX_LAYERS);
		return;
	}
	if (r) {
		debug("%s: cannot narrow: %s", prog, strerror(-r));
		lost("error", prog, dom, HM_SBX_UNKNOWN);
		return;
	}
	debug("%s: %s (%u rules, %u on a missing object's parent, %u "
	      "symlinks skipped, %u learned files now directories refused) "
	      "in %ld us, %u us of them in landlock_restrict_self()", prog,
	      hm_sbx_tstr(h, hm_sbx_tdom(h, child)->name), st.rules,
	      st.missing, st.symlinks, st.not_file, usec_since(t0),
	      st.restrict_us);
	set_domain((uint32_t)child, HM_SBX_PARENT);
}

__attribute__((constructor)) static void hm_sandbox_start(void)
{
	char prog[PATH_MAX] = "?";
	struct timespec t0;
	size_t size = 0;
	void *t;

	find_libc();
	find_self();
	if (!parse(getenv(HM_SBX_ENV), &g)) {
		g.v = NULL;
		return;
	}
	if (g.state == HM_SBX_UNKNOWN)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	program(prog, sizeof(prog));
	t = map_table(g.fd, &size);
	if (!t) {
		t = map_copy(&size);
		if (t)
			debug("%s: fd %d holds no table: read its copy", prog,
			      g.fd);
	}
	if (g.state == HM_SBX_APPLIED) {	/* by the sandbox, for this exec */
		set_domain(g.dom, HM_SBX_PARENT);
		table = t;
		return;
	}
	if (!t) {
		debug("%s: no table (fd %d closed, %s/" HM_SBX_TABLE_FILE
		      " gone or changed): keeping the parent's bound", prog,
		      g.fd, g.dir);
		lost("table", prog, g.dom, HM_SBX_UNKNOWN);
		return;
	}
	narrow(t, prog, &t0);
	/* kept (private, read-only) for the exec functions below */
	if (g.state != HM_SBX_UNKNOWN)
		table = t;
	else
		munmap(t, size);
}

/* ------------------------------------------------------ exec functions */

/*
 * A program executed without this library in it cannot narrow, so it
 * cannot say so either.  The exec functions a program calls through
 * libc are wrapped to say it in the process that executes: an
 * environment without LD_PRELOAD naming this library or without
 * HISTMAC_SANDBOX that could not be put back (below), a secure exec, or
 * a static program.  A program making the system call itself is not
 * seen: it and what it runs stay within its own ruleset, which the
 * kernel enforces.
 */

/*
 * What the exec of @prog (as the exec will name it) will run: static
 * (itself, or a script whose interpreter is), set-id, and the file the
 * kernel takes the new credentials from (the program, or the ELF its
 * "#!" chain ends at).  For a program of an edge of g.dom, the table
 * says, as the sandbox found it before COMMAND started, while a stat()
 * of each file it read then finds the same one: reading it here would
 * be a "file read" of this domain in the audit trail that the policy
 * never learned.  Anything else (an exec the policy has no literal edge
 * for, a program made or changed since) is read now.
 */
struct exec_look {
	bool is_static;
	bool setid;
	bool known_setid;	/* a set-id program of the table's edges */
	char cred[PATH_MAX];
};

static void exec_look(const char *prog, struct exec_look *lk)
{
	struct hm_sbx_exec_info info;
	const struct hm_sbx_tedge *e = NULL;
	char buf[PATH_MAX];
	const char *abs = absolute(prog, buf, sizeof(buf)) ? buf : prog;

	if (table)
		e = edge_of(table, g.dom, abs);
	if (e && hm_sbx_edge_current("", table, e)) {
		lk->is_static = e->flags & HM_SBX_EXEC_STATIC;
		lk->setid = lk->known_setid = e->flags & HM_SBX_EXEC_SETID;
		snprintf(lk->cred, sizeof(lk->cred), "%s",
			 hm_sbx_tstr(table, e->files[e->n_files - 1].path));
		return;
	}
	debug("%s: %s: reading it", prog, !table ? "no table" : !e ?
	      "not a program of this domain's edges" :
	      "not looked at by the sandbox, or changed since");
	hm_sbx_inspect("", abs, &info);
	lk->is_static = info.is_static;
	lk->setid = info.setid;
	lk->known_setid = false;
	snprintf(lk->cred, sizeof(lk->cred), "%s",
		 info.n > 1 ? info.interp[info.n - 2] : abs);
}

/* ------------------------------------------------- environment put back */

/*
 * Services clean their children's environment: Debian's `service` runs
 * `env -i`, sshd and cron build each session's and job's, postfix's
 * master keeps only import_environment.  The program would start without
 * this library and keep its parent's bound.  So an exec whose environment
 * lacks HISTMAC_SANDBOX, or whose LD_PRELOAD (the last one: ld.so takes
 * it) does not name this library, gets a copy with them put back:
 * HISTMAC_SANDBOX with this process's value (its domain as it is now),
 * and this library ahead of whatever LD_PRELOAD the program set.
 *
 * The copy is an array of the same string pointers plus two strings, on
 * the caller's stack: the exec functions may run in a vfork()ed child
 * (Python's subprocess), where malloc is not safe and an mmap would stay
 * in the parent's address space; and nothing is left when the exec
 * fails.  An environment with more than ENV_MAX entries, or an
 * LD_PRELOAD too long for ENV_LD_MAX, is run as given, and reported as
 * `preload` (with --strict refused).
 */
#define ENV_MAX		1024	/* entries */
#define ENV_LD_MAX	4096	/* bytes of the LD_PRELOAD entry */

struct env_fix {
	char *envp[ENV_MAX + 3];
	char var[sizeof(HM_SBX_ENV "=") + 96 + PATH_MAX];
	char ld[ENV_LD_MAX];
};

/* Is @e the entry of variable @name (of @len bytes)? */
static bool is_var(const char *e, const char *name, size_t len)
{
	return !strncmp(e, name, len) && e[len] == '=';
}

#define IS_LD_PRELOAD(e)	is_var((e), "LD_PRELOAD", 10)

#define IS_SBX_VAR(e)	is_var((e), HM_SBX_ENV, sizeof(HM_SBX_ENV) - 1)

/* @envp, or @fx's copy of it with the sandbox put back; NULL when it
 * does not fit.  A HISTMAC_SANDBOX other than this process's own value
 * (overwritten, stale, set by the program) is replaced by it. */
static char *const *env_restore(char *const envp[], struct env_fix *fx)
{
	const char *ld = NULL;	/* the last LD_PRELOAD's value */
	bool var = false, other = false, keep_ld;
	size_t n, k = 0;

	for (n = 0; envp && envp[n]; n++) {
		if (!IS_SBX_VAR(envp[n]))
			;
		else if (!strcmp(envp[n] + sizeof(HM_SBX_ENV), g.val))
			var = true;
		else
			other = true;
		if (IS_LD_PRELOAD(envp[n]))
			ld = envp[n] + sizeof("LD_PRELOAD");
	}
	var = var && !other;
	keep_ld = ld && strstr(ld, PRELOAD_NAME);
	if (var && keep_ld)
		return envp;
	if (n > ENV_MAX || !g.lib[0] ||
	    (size_t)snprintf(fx->var, sizeof(fx->var), HM_SBX_ENV "=%s",
			     g.val) >= sizeof(fx->var) ||
	    (size_t)snprintf(fx->ld, sizeof(fx->ld), "LD_PRELOAD=%s%s%s",
			     g.lib, ld && *ld ? " " : "",
			     ld ? ld : "") >= sizeof(fx->ld))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if ((keep_ld || !IS_LD_PRELOAD(envp[i])) &&
		    (var || !IS_SBX_VAR(envp[i])))
			fx->envp[k++] = envp[i];
	if (!keep_ld)
		fx->envp[k++] = fx->ld;
	if (!var)
		fx->envp[k++] = fx->var;
	fx->envp[k] = NULL;
	return fx->envp;
}

/* This library's path as ld.so loaded it (its LD_PRELOAD word), for
 * env_restore(); none if it would not survive as one word. */
static void find_self(void)
{
	Dl_info di;

	if (dladdr((void *)find_self, &di) && di.dli_fname &&
	    strstr(di.dli_fname, PRELOAD_NAME) &&
	    !strpbrk(di.dli_fname, " :\t\n") &&
	    strlen(di.dli_fname) < sizeof(g.lib))
		strcpy(g.lib, di.dli_fname);
}

/*
 * Will the kernel make the exec @lk looked at secure (AT_SECURE: ld.so
 * ignores LD_PRELOAD then)?  As cap_bprm_creds_from_file() decides:
 * when the new effective ids differ from the real ones, or, for a user
 * other than root, the program has file capabilities with the effective
 * bit (or any, when this process holds permitted capabilities the
 * program could keep).  The new effective ids are the old ones, unless
 * no_new_privs is off (@nnp false: below a root sandbox) and the program
 * is set-user-ID or set-group-ID (with group execute): then the file's
 * owner or group (bprm_fill_uid()).  Under no_new_privs the kernel
 * ignores those bits, and a set-id program is no secure exec: it loads
 * the preload and narrows like any other, so the bits matter only
 * without it.  What remains then: ids that differ in the process that
 * executes (a program between seteuid() calls), file capabilities.
 */
static bool secure_exec(const struct exec_look *lk, bool nnp)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	struct vfs_ns_cap_data cap;
	struct stat sb;
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (getresuid(&ru, &eu, &su) || getresgid(&rg, &eg, &sg))
		return false;
	if (!nnp && lk->setid && !stat(lk->cred, &sb)) {
		if (sb.st_mode & S_ISUID)
			eu = sb.st_uid;
		if ((sb.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			eg = sb.st_gid;
	}
	if (ru != eu || rg != eg)
		return true;
	if (!ru || getxattr(lk->cred, "security.capability", &cap,
			    sizeof(cap)) < (ssize_t)sizeof(cap.magic_etc))
		return false;
	if (le32toh(cap.magic_etc) & VFS_CAP_FLAGS_EFFECTIVE)
		return true;
	return syscall(SYS_capget, &h, d) || d[0].permitted || d[1].permitted;
}

/* Does @envp keep the sandbox (its variable and this library)? */
static bool env_keeps(char *const envp[])
{
	bool var = false, lib = false;

	for (size_t i = 0; envp && envp[i]; i++) {
		if (!strncmp(envp[i], HM_SBX_ENV "=", sizeof(HM_SBX_ENV)))
			var = true;
		else if (!strncmp(envp[i], "LD_PRELOAD=", 11) &&
			 strstr(envp[i], PRELOAD_NAME))
			lib = true;
	}
	return var && lib;
}

/* @file looked up in PATH as execvp() does (the first executable). */
static const char *search(const char *file, char *buf, size_t cap)
{
	const char *path = getenv("PATH");

	if (strchr(file, '/'))
		return file;
	for (const char *p = path ? path : "/bin:/usr/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if ((size_t)snprintf(buf, cap, "%.*s/%s", (int)n, p, file) < cap &&
		    !access(buf, X_OK))
			return buf;
		p += n + (p[n] == ':');
	}
	return file;
}

/* 0, or -1 when strict refuses this exec (errno EPERM). */
static int exec_check(const char *file, bool path_search,
		      char *const envp[])
{
	char buf[PATH_MAX];
	const char *prog = path_search ? search(file, buf, sizeof(buf)) : file;
	const char *kind = NULL;
	struct exec_look lk;
	bool nnp, refused;

	if (!g.v || g.state == HM_SBX_UNKNOWN || !prog)
		return 0;
	if (!env_keeps(envp)) {
		kind = "preload";
	} else {
		nnp = no_new_privs();
		exec_look(prog, &lk);
		/* a set-id program the table knows, run with its privilege
		 * (no no_new_privs: its domain kept the bound for it) */
		if (secure_exec(&lk, nnp))
			kind = !nnp && lk.known_setid ? HM_SBX_SETID : "preload";
		else if (lk.is_static)
			kind = "static";
	}
	if (!kind)
		return 0;
	refused = g.strict && strcmp(kind, HM_SBX_SETID);
	report(kind, prog, refused);
	if (!refused)
		return 0;
	fprintf(stderr, "histmac-sandbox: %s: refused (--strict): it would "
		"not narrow (%s)\n", prog, kind);
	errno = EPERM;
	return -1;
}

/*
 * The environment to exec @file with (@envp, or @fx's copy with the
 * sandbox put back, said to the sandbox for --stats), or NULL with errno
 * EPERM when --strict refuses the exec.
 */
static char *const *exec_prepare(const char *file, bool path_search,
				 char *const envp[], struct env_fix *fx)
{
	char buf[PATH_MAX];
	const char *prog = path_search ? search(file, buf, sizeof(buf)) : file;
	char *const *env;

	if (!g.v || g.state == HM_SBX_UNKNOWN || !prog)
		return envp;
	env = env_restore(envp, fx);
	if (exec_check(prog, false, env ? env : envp))
		return NULL;
	if (!env)
		return envp;
	if (env != envp)	/* counted only for an exec that is tried */
		report_fifo(HM_SBX_ENV_RESTORED, prog, false);
	return env;
}

/*
 * libc's own functions, looked up in the constructor: an exec function
 * may be called in a vfork()ed child (Python's subprocess), where
 * dlsym() and the allocation it may do are not safe.  glibc's execv(),
 * execvp() and the execl() family are execve() and execvpe() with
 * environ or their own arguments: those two do the work for all.
 */
static struct {
	int (*execve)(const char *, char *const[], char *const[]);
	int (*execvpe)(const char *, char *const[], char *const[]);
	int (*fexecve)(int, char *const[], char *const[]);
	int (*posix_spawn)(pid_t *, const char *,
			   const posix_spawn_file_actions_t *,
			   const posix_spawnattr_t *, char *const[],
			   char *const[]);
	int (*posix_spawnp)(pid_t *, const char *,
			    const posix_spawn_file_actions_t *,
			    const posix_spawnattr_t *, char *const[],
			    char *const[]);
} libc;

static void find_libc(void)
{
	libc.execve = (__typeof__(libc.execve))dlsym(RTLD_NEXT, "execve");
	libc.execvpe = (__typeof__(libc.execvpe))dlsym(RTLD_NEXT, "execvpe");
	libc.fexecve = (__typeof__(libc.fexecve))dlsym(RTLD_NEXT, "fexecve");
	libc.posix_spawn = (__typeof__(libc.posix_spawn))
			   dlsym(RTLD_NEXT, "posix_spawn");
	libc.posix_spawnp = (__typeof__(libc.posix_spawnp))
			    dlsym(RTLD_NEXT, "posix_spawnp");
}

/* libc's @name, or fail with ENOSYS (looked up late only if the
 * constructor did not run yet: another library's constructor execs). */
#define REAL(name)							\
	if (!libc.name)							\
		find_libc();						\
	if (!libc.name) {						\
		errno = ENOSYS;						\
		return -1;						\
	}

static int do_execve(const char *path, char *const argv[],
		     char *const envp[])
{
	struct env_fix fx;
	char *const *env;

	REAL(execve);
	env = exec_prepare(path, false, envp, &fx);
	return env ? libc.execve(path, argv, env) : -1;
}

static int do_execvpe(const char *file, char *const argv[],
		      char *const envp[])
{
	struct env_fix fx;
	char *const *env;

	REAL(execvpe);
	env = exec_prepare(file, true, envp, &fx);
	return env ? libc.execvpe(file, argv, env) : -1;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	return do_execve(path, argv, envp);
}

EXPORT int execv(const char *path, char *const argv[])
{
	return do_execve(path, argv, environ);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return do_execvpe(file, argv, environ);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return do_execvpe(file, argv, envp);
}

/*
 * The execl() family: glibc's call its internal execve, not ours, so
 * they are wrapped too (cron runs each job with execle(), postfix's
 * commands with execl()).  The arguments, @arg0 up to the NULL, are
 * counted, then put in an array on the stack, as glibc does.
 */
static size_t va_count(const char *arg0, va_list *ap)
{
	size_t n = 0;

	if (arg0)
		for (n = 1; va_arg(*ap, char *); n++)
			;
	return n;
}

static void va_fill(char **argv, size_t n, const char *arg0, va_list *ap)
{
	argv[0] = (char *)arg0;
	for (size_t i = 1; i < n; i++)
		argv[i] = va_arg(*ap, char *);
	argv[n] = NULL;
	if (n)
		(void)va_arg(*ap, char *);	/* the NULL */
}

#define EXECL(arg0, call_with_argv_ap)					\
	do {								\
		va_list ap;						\
		size_t n;						\
									\
		va_start(ap, arg0);					\
		n = va_count(arg0, &ap);				\
		va_end(ap);						\
		{							\
			char *argv[n + 1];				\
			int r;						\
									\
			va_start(ap, arg0);				\
			va_fill(argv, n, arg0, &ap);			\
			r = call_with_argv_ap;				\
			va_end(ap);					\
			return r;					\
		}							\
	} while (0)

EXPORT int execl(const char *path, const char *arg0, ...)
{
	EXECL(arg0, do_execve(path, argv, environ));
}

EXPORT int execlp(const char *file, const char *arg0, ...)
{
	EXECL(arg0, do_execvpe(file, argv, environ));
}

EXPORT int execle(const char *path, const char *arg0, ...)
{
	EXECL(arg0, do_execve(path, argv, va_arg(ap, char *const *)));
}

/* fexecve(): the program is named by where its descriptor leads. */
EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	char proc[32], prog[PATH_MAX];
	struct env_fix fx;
	char *const *env;
	ssize_t n;

	REAL(fexecve);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, prog, sizeof(prog) - 1);
	if (n > 0 && prog[0] == '/')
		prog[n] = '\0';
	else
		strcpy(prog, proc);
	env = exec_prepare(prog, false, envp, &fx);
	return env ? libc.fexecve(fd, argv, env) : -1;
}

EXPORT int posix_spawn(pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[],
		       char *const envp[])
{
	struct env_fix fx;
	char *const *env;

	REAL(posix_spawn);
	env = exec_prepare(path, false, envp, &fx);
	return env ? libc.posix_spawn(pid, path, fa, attr, argv, env) : EPERM;
}

EXPORT int posix_spawnp(pid_t *pid, const char *file,
			const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[],
			char *const envp[])
{
	struct env_fix fx;
	char *const *env;

	REAL(posix_spawnp);
	env = exec_prepare(file, true, envp, &fx);
	return env ? libc.posix_spawnp(pid, file, fa, attr, argv, env) : EPERM;
}
