// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * called.c - the name an exec was called by, as learn names it, from
 * what the kernel shows of the new image (AT_EXECFN, argv, comm) and
 * only where the kernel's facts back it (hm_exec_name()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/naming.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

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

/*
 * AT_EXECFN of @pid's image into @buf: the kernel copies the name execve
 * was given (for a "#!" script, the script's name) onto the new stack
 * and points the auxiliary vector at it.  The process may have written
 * over it since: what it names is checked (called_as()).
 */
static bool execfn(int32_t pid, char *buf, size_t cap)
{
	unsigned long av[128];
	unsigned long at = 0;
	char path[64];
	struct iovec mine = { .iov_base = buf, .iov_len = cap - 1 };
	struct iovec its;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	n = hm_procfs_read(path, (char *)av, sizeof(av));
	for (size_t i = 0; n > 0 && i + 1 < (size_t)n / sizeof(av[0]); i += 2)
		if (av[i] == AT_EXECFN) {
			at = av[i + 1];
			break;
		}
	if (!at)
		return false;
	its = (struct iovec){ .iov_base = (void *)at, .iov_len = cap - 1 };
	/* a short read ends at the stack's last page: the name is there */
	n = process_vm_readv(pid, &mine, 1, &its, 1, 0);
	return n > 0 && memchr(buf, '\0', (size_t)n);
}

/* @name made absolute in @abs: a relative one joined with @pid's cwd. */
static bool absolute(int32_t pid, const char *name, char *abs, size_t cap)
{
	char link[64];
	size_t nl = strlen(name);
	ssize_t len;

	if (name[0] == '/') {
		if (nl >= cap)
			return false;
		memcpy(abs, name, nl + 1);
		return true;
	}
	snprintf(link, sizeof(link), "/proc/%d/cwd", (int)pid);
	len = readlink(link, abs, cap - 1);
	if (len <= 0 || (size_t)len + 1 + nl >= cap)
		return false;
	abs[len] = '/';
	memcpy(abs + len + 1, name, nl + 1);
	return true;
}

static bool same_obj(const struct stat *st, const struct hm_exe *e)
{
	return ((uint64_t)major(st->st_dev) << 32 | minor(st->st_dev)) ==
		       e->dev && st->st_ino == e->ino;
}

/*
 * Is @real (a realpath) a "#!" script whose interpreter is @e, the very
 * object that runs?  Its first line is read only when an open of it is
 * not seen by the marks (@judged_open, asked of the opened objects):
 * the daemon must never wait for its own answer, and a script inside the
 * marks cannot have run unseen anyway (its exec open would have been
 * judged, and named the exec).
 */
static bool script_runs(const char *real, const struct hm_exe *e,
			bool (*judged_open)(int dirfd, int fd))
{
	const char *base = strrchr(real, '/');
	char dir[PATH_MAX], self[64];
	int dfd, pfd = -1, fd = -1;
	struct stat a, b, st;
	char *interp = NULL;
	bool yes = false, script = false;

	if (!base || (size_t)(base - real) >= sizeof(dir))
		return false;
	memcpy(dir, real, (size_t)(base - real));
	dir[base - real] = '\0';
	dfd = open(dir[0] ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		pfd = openat(dfd, base + 1, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &a) || !S_ISREG(a.st_mode) ||
	    !(a.st_mode & 0111) || (judged_open && judged_open(dfd, pfd)))
		goto out;
	/* the same object that was checked, not the name again */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		goto out;
	interp = hm_exec_interp(fd, &script);
	yes = script && interp && interp[0] == '/' && !stat(interp, &st) &&
	      same_obj(&st, e);
out:
	free(interp);
	if (fd >= 0)
		close(fd);
	if (pfd >= 0)
		close(pfd);
	if (dfd >= 0)
		close(dfd);
	return yes;
}

enum { CALLED_PROGRAM = 1, CALLED_SCRIPT = 2 };

/*
 * Is @word a name @pid's exec was called by, with the kernel's facts?
 * @e is what runs (/proc/PID/exe, believed, or the judged object):
 *  - a program: @word's link chain ends at that very object (the same
 *    device and inode), so a name of another file is never taken;
 *  - a script: @word is a script outside the marks whose "#!"
 *    interpreter is that object (script_runs()), and the process is
 *    named after it (comm), as the kernel names a script's process.
 * @kinds: which of the two to accept.  The name, as learn names a
 * program (directories resolved, the last component kept), encoded into
 * @out.  Returns its length (0: not such a name), *@script its kind.
 */
static long called_as(int32_t pid, const char *word, const struct hm_exe *e,
		      bool (*jo)(int, int), int kinds, char *out, size_t cap,
		      bool *script)
{
	char abs[PATH_MAX], real[PATH_MAX];
	struct hm_sbuf b = { 0 };
	struct stat st;
	long k = 0;
	int kind = 0;

	if (!absolute(pid, word, abs, sizeof(abs)) ||
	    hm_program_name(abs, e->raw, &b) || !b.len || b.oom ||
	    !strcmp(b.s, e->raw))	/* its real path, or through /proc */
		goto out;
	if ((kinds & CALLED_PROGRAM) && !stat(b.s, &st) && same_obj(&st, e))
		kind = CALLED_PROGRAM;
	else if ((kinds & CALLED_SCRIPT) && realpath(b.s, real) &&
		 comm_is(pid, b.s) && script_runs(real, e, jo))
		kind = CALLED_SCRIPT;
	if (kind && hm_encode_len(b.s, b.len) < cap) {
		k = (long)hm_encode(out, b.s, b.len);
		*script = kind == CALLED_SCRIPT;
	}
out:
	hm_sbuf_free(&b);
	return k;
}

/*
 * The name @pid's exec was called by (called_as()): AT_EXECFN, the name
 * given to execve (a program's or a script's); else a script's name the
 * kernel put in its argv after the interpreter (argv[1], or argv[2]
 * after a "#!" argument); else argv[0] when it is a path.
 */
static long exec_called(int32_t pid, const struct hm_exe *e,
			bool (*jo)(int, int), char *out,
			size_t cap, bool *script)
{
	char args[4096], fn[PATH_MAX];
	const char *w[3];
	int n = proc_argv(pid, args, sizeof(args), w, 3);
	long k = 0;

	if (execfn(pid, fn, sizeof(fn)))
		k = called_as(pid, fn, e, jo, CALLED_PROGRAM | CALLED_SCRIPT,
			      out, cap, script);
	for (int i = 1; !k && i < n; i++)
		k = called_as(pid, w[i], e, jo, CALLED_SCRIPT, out, cap,
			      script);
	if (!k && n > 0 && strchr(w[0], '/'))
		k = called_as(pid, w[0], e, jo, CALLED_PROGRAM, out, cap,
			      script);
	return k;
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
 * hm_exec_name() - the name an exec enters its next domain by, as learn
 * names it (docs/PATHS.md, docs/ENFORCE.md "Exec naming"): the name it
 * was called by (exec_called(): a program through a symlink, a "#!"
 * script by its own path, directories resolved) when @parent's execute
 * entries name it or name nothing for what runs (and, for a script whose
 * interpreter an entry allowed, name the script); else the name the
 * exec's judgement found; else the name @parent's execute entries have
 * for the real path that runs; else that real path.
 *
 * What a process shows of its exec (AT_EXECFN, argv, comm) it can write
 * over once it runs, before this is read.  So a name is taken only when
 * the kernel's facts back it: a program's name must lead to the very
 * file that runs, a script's must be a script outside the marks whose
 * interpreter is the very file that runs.  A process can pick among the
 * names of its own program, or among the unmarked scripts of its own
 * interpreter (mark the scripts that matter), never a name of another
 * program; and when the policy allowed the interpreter's exec by an
 * entry, only a script @parent may execute.
 * @parent: the domain the exec happened in (may be NULL).
 * @pid: the process, just after its exec.
 * @e: what runs (/proc/PID/exe, believed).
 * @pe: the exec's judgement (its name, whether an entry allowed it), or
 *	NULL: not judged.
 * @judged_open: would an open of a file be judged (the marks)?
 * @out, @cap: the encoded name, NUL-terminated.
 * @script: set when named as a script (then @e is its interpreter).
 * Returns: the name's length, or -ENAMETOOLONG.
 */
long hm_exec_name(const struct hm_domain *parent, int32_t pid,
		  const struct hm_exe *e, const struct hm_pending_exec *pe,
		  bool (*judged_open)(int dirfd, int fd), char *out,
		  size_t cap, bool *script)
{
	struct hm_name real = { .str = e->name, .len = (uint32_t)e->len };
	struct hm_name called = { 0 }, judged = { 0 };
	const struct hm_name *known;
	char *buf = malloc(HM_MAX_WORD);
	bool cscript = false, named;
	long len, k = buf ? exec_called(pid, e, judged_open, buf,
					    HM_MAX_WORD, &cscript) : 0;

	*script = false;
	hm_name_fill(&real);
	known = hm_enf_exec_known(parent, &real);
	if (k > 0) {
		called = (struct hm_name){ .str = buf, .len = (uint32_t)k };
		hm_name_fill(&called);
	}
	named = k > 0 && hm_enf_exec_known(parent, &called);
	if (k > 0 && (named || (!known && !(cscript && pe && pe->allowed)))) {
		*script = cscript;
		len = put_name(&called, out, cap);
	} else if (pe) {
		judged = (struct hm_name){ .str = pe->program,
			.len = (uint32_t)strlen(pe->program) };
		len = put_name(&judged, out, cap);
	} else {
		len = put_name(known ? known : &real, out, cap);
	}
	free(buf);
	return len;
}

