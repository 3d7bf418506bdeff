// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exec.c - naming execs live.  fanotify shows the real path of what is
 * executed; learned domain names use the path passed to execve.  When an
 * exec is allowed in domain D for real path R, the program name the
 * decision found (an execute entry matching R, or one whose
 * exec.realpath is R) is kept here as a pending exec of the pid, one
 * per judged exec, in order; the proc connector's exec event then enters
 * the next domain with that name (proc.c).  The loader or #! interpreter the same execve opens next is
 * part of that exec, as are the plain opens of the same files that
 * fsnotify sends after each exec open.  Owns the pending table.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/naming.h"
#include "histmac/pattern.h"
#include "histmac/procfs.h"

/* The oldest (@newest false) or newest pending exec of @pid, or NULL. */
static struct hm_pending_exec *find_by_age(struct hm_execs *x, int32_t pid,
					   bool newest)
{
	struct hm_pending_exec *best = NULL;

	for (size_t i = 0; i < x->n; i++) {
		struct hm_pending_exec *pe = &x->pend[i];

		if (pe->pid == pid &&
		    (!best || (newest ? pe->seq > best->seq :
					pe->seq < best->seq)))
			best = pe;
	}
	return best;
}

/**
 * hm_execs_find() - the newest pending exec of @pid: the exec it is in
 * now (its loader and interpreter opens are part of that one).
 * @x: the table.
 * @pid: a process (thread group) id.
 * Returns: the entry or NULL; borrowed until the table changes.
 */
struct hm_pending_exec *hm_execs_find(struct hm_execs *x, int32_t pid)
{
	return find_by_age(x, pid, true);
}

/**
 * hm_execs_oldest() - the oldest pending exec of @pid judged before
 * @before_ns: the one an exec event of that time names when a later
 * exec of the same process is queued too (proc.c).
 * @x: the table.
 * @pid: a process id.
 * @before_ns: the exec event's time (CLOCK_MONOTONIC, as hm_now_ns()).
 * Returns: the entry or NULL; borrowed until the table changes.
 */
struct hm_pending_exec *hm_execs_oldest(struct hm_execs *x, int32_t pid,
					uint64_t before_ns)
{
	struct hm_pending_exec *pe = find_by_age(x, pid, false);

	return pe && pe->since_ns <= before_ns ? pe : NULL;
}

static void pending_free(struct hm_pending_exec *pe)
{
	free(pe->program);
	free(pe->interp);
}

static void pending_remove(struct hm_execs *x, size_t i)
{
	pending_free(&x->pend[i]);
	x->pend[i] = x->pend[--x->n];
}

/**
 * hm_execs_drop() - forget @pid's pending execs (applied, or it is gone).
 * @x: the table.
 * @pid: a process id.
 */
void hm_execs_drop(struct hm_execs *x, int32_t pid)
{
	for (size_t i = 0; i < x->n;)
		if (x->pend[i].pid == pid)
			pending_remove(x, i);
		else
			i++;
}

/**
 * hm_execs_remove() - forget one pending exec (applied).
 * @x: the table.
 * @pe: an entry of @x (hm_execs_find(), hm_execs_oldest()).
 */
void hm_execs_remove(struct hm_execs *x, struct hm_pending_exec *pe)
{
	pending_remove(x, (size_t)(pe - x->pend));
}

/**
 * hm_execs_expire() - forget execs that never arrived (the execve failed
 * after the open) HM_EXECS_TTL_NS after they were judged.
 * @x: the table.
 * @now: hm_now_ns().
 */
void hm_execs_expire(struct hm_execs *x, uint64_t now)
{
	/* @now may be older than an entry set since (the loop's wake
	 * time): that one is young, not 2^64 ns old */
	for (size_t i = 0; i < x->n;)
		if (now > x->pend[i].since_ns &&
		    now - x->pend[i].since_ns > HM_EXECS_TTL_NS)
			pending_remove(x, i);
		else
			i++;
}

/**
 * hm_execs_clear() - forget every pending exec, freeing what they hold.
 * @x: the table.
 */
void hm_execs_clear(struct hm_execs *x)
{
	while (x->n)
		pending_remove(x, x->n - 1);
}

static void add_obj(struct hm_pending_exec *pe, uint64_t dev, uint64_t ino)
{
	if (pe->n_obj < (int)HM_ARRAY_SIZE(pe->ino)) {
		pe->dev[pe->n_obj] = dev;
		pe->ino[pe->n_obj] = ino;
		pe->n_obj++;
	}
}

/**
 * hm_execs_has_obj() - did @pe's exec open the object @dev, @ino?
 * @pe: a pending exec.
 * @dev, @ino: the object.
 * Returns: true when it is the program, its loader or its interpreter.
 */
bool hm_execs_has_obj(const struct hm_pending_exec *pe, uint64_t dev,
		      uint64_t ino)
{
	for (int i = 0; i < pe->n_obj; i++)
		if (pe->dev[i] == dev && pe->ino[i] == ino)
			return true;
	return false;
}

/* How many pending execs of @pid, and its oldest one. */
static size_t count_of(struct hm_execs *x, int32_t pid, size_t *oldest)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		if (x->pend[i].pid == pid &&
		    (!n++ || x->pend[i].seq < x->pend[*oldest].seq))
			*oldest = i;
	return n;
}

/* Room for one more entry of @pid: its own oldest goes past
 * HM_EXECS_PER_PID (execs that failed after their open), the table's
 * oldest when it is full. */
static void make_room(struct hm_execs *x, int32_t pid)
{
	size_t oldest = 0;

	if (count_of(x, pid, &oldest) >= HM_EXECS_PER_PID) {
		pending_remove(x, oldest);
		return;
	}
	if (x->n < HM_EXECS_MAX)
		return;
	oldest = 0;
	for (size_t i = 1; i < x->n; i++)
		if (x->pend[i].seq < x->pend[oldest].seq)
			oldest = i;
	pending_remove(x, oldest);
}

/**
 * hm_execs_set() - @pid's exec of @program was allowed: enter with that
 * name when the proc connector says the exec happened.  Each judged exec
 * is its own entry, in order: a process may exec again before its first
 * exec event is applied (proc.c applies each event by its own entry).
 * @x: the table; when full, the oldest entry makes room.
 * @pid: the process.
 * @program: the encoded name to enter the next domain with (copied).
 * @fd: the event fd of the exec open: what it names next (a "#!"
 *	interpreter, an ELF loader) is read from it; -1: nothing.
 * @dev, @ino: the program's object.
 * Returns: 0 or -ENOMEM.
 */
int hm_execs_set(struct hm_execs *x, int32_t pid, const char *program,
		 int fd, uint64_t dev, uint64_t ino)
{
	struct hm_pending_exec *pe;
	char *prog = strdup(program);

	if (!prog)
		return -ENOMEM;
	make_room(x, pid);
	pe = &x->pend[x->n++];
	memset(pe, 0, sizeof(*pe));
	pe->pid = pid;
	pe->program = prog;
	pe->since_ns = hm_now_ns();
	pe->seq = ++x->seq;
	pe->interp = hm_exec_interp(fd, &pe->script);
	add_obj(pe, dev, ino);
	return 0;
}

/**
 * hm_execs_interp() - is this exec open (real path @raw) the loader or
 * interpreter of @pe's exec?  Then it becomes part of it, and what it
 * names in turn is next.
 * @pe: a pending exec.
 * @raw: the real path of the exec open.
 * @fd: its event fd (read, never closed here).
 * @dev, @ino: its object.
 * Returns: true when it is part of @pe's exec.
 */
bool hm_execs_interp(struct hm_pending_exec *pe, const char *raw, int fd,
		     uint64_t dev, uint64_t ino)
{
	char real[PATH_MAX];
	bool script;

	if (!pe->interp || !realpath(pe->interp, real) || strcmp(real, raw))
		return false;
	free(pe->interp);
	pe->interp = hm_exec_interp(fd, &script);
	add_obj(pe, dev, ino);
	return true;
}

/* @pid's argv (NUL-separated) into @buf; the count of words in @w. */
static int proc_argv(int32_t pid, char *buf, size_t cap, const char **w,
		     int max)
{
	ssize_t n = hm_procfs_cmdline(pid, buf, cap);
	int k = 0;

	for (ssize_t i = 0; i < n && k < max; i += (ssize_t)strlen(buf + i) + 1)
		w[k++] = buf + i;
	return k;
}

/*
 * The script a process runs when it was started by "#!": the kernel gave
 * it argv [INTERP, (ARG,) SCRIPT, ...], INTERP as the "#!" line wrote it
 * (here: an absolute name of the program that runs, @exe).  SCRIPT is the
 * name the script was called by: argv[1] or, after an ARG, argv[2], an
 * executable regular file.  Its absolute name into @abs.  Nothing is
 * opened: a file inside the marks would wait for our own answer.
 */
/* The kernel names a process after the file it executed (comm, 15
 * bytes): a "#!" script's own name, not its interpreter's. */
static bool comm_is(int32_t pid, const char *path)
{
	char link[64], comm[32];
	const char *base = strrchr(path, '/');
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/comm", pid);
	n = hm_procfs_read(link, comm, sizeof(comm));
	if (n <= 0)
		return false;
	comm[n - (comm[n - 1] == '\n')] = '\0';
	base = base ? base + 1 : path;
	return !strncmp(comm, base, 15) && strlen(comm) == strnlen(base, 15);
}

static bool script_of(int32_t pid, const char *const *w, int n,
		      const char *exe, char *abs, size_t cap)
{
	char real[PATH_MAX], cwd[PATH_MAX], link[64];
	ssize_t len = 0;

	if (n < 2 || w[0][0] != '/' || !realpath(w[0], real) ||
	    strcmp(real, exe))
		return false;
	snprintf(link, sizeof(link), "/proc/%d/cwd", pid);
	for (int i = 1; i < n && i <= 2; i++) {
		struct stat st;
		size_t wl = strlen(w[i]);

		if (w[i][0] == '/') {
			if (wl >= cap)
				continue;
			memcpy(abs, w[i], wl + 1);
		} else {
			if (!len && (len = readlink(link, cwd, sizeof(cwd) - 1)) <= 0)
				return false;
			if ((size_t)len + 1 + wl >= cap)
				continue;
			memcpy(abs, cwd, (size_t)len);
			abs[len] = '/';
			memcpy(abs + len + 1, w[i], wl + 1);
		}
		/* an ELF program given an executable file as argument
		 * (env, nice, timeout PROG) is not that file: the kernel
		 * named the process after what it executed */
		if (!stat(abs, &st) && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111) && comm_is(pid, abs))
			return true;
	}
	return false;
}

static long put_name(const struct hm_name *n, char *out, size_t cap)
{
	if (n->len >= cap)
		return -ENAMETOOLONG;
	memcpy(out, n->str, n->len);
	out[n->len] = '\0';
	return (long)n->len;
}

/**
 * hm_exec_name() - the name an exec the enforcer did not judge (its
 * program outside the marks) enters its next domain by, as learn names
 * it (docs/PATHS.md).  A "#!" script (script_of()) is named by its own
 * path, directories resolved, when @parent's execute entries name it or
 * name nothing for what runs; else the name @parent's execute entries
 * have for the real path that runs (a program called through a
 * symlink); else that real path.
 * @parent: the domain the exec happened in (may be NULL).
 * @pid: the process, just after its exec.
 * @exe, @exe_len: the encoded real path of what runs (/proc/PID/exe).
 * @out, @cap: the encoded name, NUL-terminated.
 * @script: set when named as a script (then @exe is its interpreter).
 * Returns: the name's length, or -ENAMETOOLONG.
 */
long hm_exec_name(const struct hm_domain *parent, int32_t pid,
		  const char *exe, size_t exe_len, char *out, size_t cap,
		  bool *script)
{
	char args[4096], raw_exe[PATH_MAX], abs[PATH_MAX];
	const char *w[3];
	struct hm_name real = { .str = exe, .len = (uint32_t)exe_len };
	struct hm_name sname = { 0 };
	const struct hm_name *known;
	struct hm_sbuf b = { 0 };
	char *enc = NULL;
	size_t raw_len;
	long len;
	int n = proc_argv(pid, args, sizeof(args), w, 3);

	*script = false;
	hm_name_fill(&real);
	if (exe_len < sizeof(raw_exe) &&
	    !hm_decode(raw_exe, &raw_len, exe, exe_len)) {
		raw_exe[raw_len] = '\0';
		if (script_of(pid, w, n, raw_exe, abs, sizeof(abs)) &&
		    !hm_program_name(abs, NULL, &b) &&
		    (enc = malloc(hm_encode_len(b.s, b.len) + 1))) {
			sname.str = enc;
			sname.len = (uint32_t)hm_encode(enc, b.s, b.len);
			hm_name_fill(&sname);
		}
	}
	hm_sbuf_free(&b);
	known = hm_enf_exec_known(parent, &real);
	if (enc && (!known || hm_enf_exec_known(parent, &sname))) {
		*script = true;
		len = put_name(&sname, out, cap);
	} else {
		len = put_name(known ? known : &real, out, cap);
	}
	free(enc);
	return len;
}
