// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placing.c - what /proc says of a process: what it runs (and whether
 * that is believed), a process not seen yet placed as the tracker places
 * it (docs/ARCHITECTURE.md, "Unobserved history": <kernel> EXE), and
 * the domain a process is judged in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* ------------------------------------------------------------ /proc */

/* ppid and start time (clock ticks) from /proc/PID/stat. */
int hm_procs_stat(int32_t pid, int64_t *ppid, uint64_t *start)
{
	struct hm_procfs_stat st;
	int r = hm_procfs_stat(pid, &st);

	if (r)
		return r;
	*ppid = st.ppid;
	if (start)
		*start = st.start;
	return 0;
}

/* Is /proc/PID/maps line @line an executable mapping of inode @ino (on
 * the device it puts in @maj, @min)? */
static bool maps_exec_ino(const char *line, uint64_t ino, unsigned *maj,
			  unsigned *min)
{
	char perms[5];
	unsigned long long inode;

	if (sscanf(line, "%*[0-9a-f]-%*[0-9a-f] %4s %*[0-9a-f] %x:%x %llu",
		   perms, maj, min, &inode) != 4)
		return false;
	return strlen(perms) == 4 && perms[2] == 'x' && inode == ino &&
	       inode != 0;
}

/**
 * hm_procs_maps_exec() - is this /proc/PID/maps line an executable mapping
 * of the file @dev_major:@dev_minor, inode @ino?
 * @line: "START-END PERMS OFFSET MAJ:MIN INODE [PATH]" (hex device
 *	numbers, as the kernel prints them); the path is not looked at (it
 *	may hold spaces or " (deleted)").
 * Returns: true when it is, false for another file, another mode, or a
 * line that does not parse.
 */
bool hm_procs_maps_exec(const char *line, unsigned dev_major,
		       unsigned dev_minor, uint64_t ino)
{
	unsigned maj, min;

	return maps_exec_ino(line, ino, &maj, &min) && maj == dev_major &&
	       min == dev_minor;
}

/* Put @pid in <kernel> EXE, the same name as the tracker's own rule
 * for unobserved history (analyzer/tracker.c unobserved_name).  @flags:
 * HM_PROC_UNOBSERVED (its next exec is not judged), or 0. */
int hm_procs_set_kernel_exe(struct hm_procs *p, int32_t pid, int64_t ppid,
			  const char *exe, long exe_len, uint32_t flags)
{
	char name[HM_MAX_WORD + sizeof(HM_KERNEL) + 1];
	size_t len = HM_KERNEL_LEN;
	const char *prog;
	size_t plen = hm_tracker_program_of(pid, exe, exe_len > 0 ?
					    (size_t)exe_len : 0, &prog);

	memcpy(name, HM_KERNEL, len);
	/* as the tracker names them: too long for a domain, <kernel> */
	if (plen > 0 && plen + sizeof(HM_KERNEL) <= HM_MAX_DOMAIN) {
		name[len++] = ' ';
		memcpy(name + len, prog, plen);
		len += plen;
	}
	return hm_tracker_set(p->t, pid, ppid, exe_len > 0 ? exe : NULL,
			      exe_len > 0 ? (size_t)exe_len : 0, name, len,
			      flags, time(NULL));
}

int hm_procs_set_unobserved(struct hm_procs *p, int32_t pid, int64_t ppid,
			  const char *exe, long exe_len)
{
	return hm_procs_set_kernel_exe(p, pid, ppid, exe, exe_len,
				       HM_PROC_UNOBSERVED);
}

/*
 * The /proc link to @tgid's executable into @link: /proc/TGID/exe, or
 * when its leader has exited (a zombie has no exe) that of a live
 * thread.  Returns 0 or -ESRCH.
 */
static int exe_link(int32_t tgid, char *link, size_t cap)
{
	char path[64];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = -ESRCH;

	snprintf(link, cap, "/proc/%d/exe", tgid);
	if (!stat(link, &st))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while (r && (de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0 || tid == tgid)
			continue;
		snprintf(link, cap, "/proc/%d/task/%ld/exe", tgid, tid);
		if (!stat(link, &st))
			r = 0;
	}
	closedir(d);
	return r;
}

/*
 * Is the mapping of maps line @line of the task at @dir the object @e,
 * as its map_files link shows it?  On an overlay maps prints the device
 * of the file the overlay opened in its layer, while the exe link, like
 * any path through the overlay, shows the overlay's; the map_files link
 * is that path, stat()ed.
 */
static bool mapped_as(const char *dir, const char *line,
		      const struct hm_exe *e)
{
	char range[40], path[192];
	struct statx stx;

	if (sscanf(line, "%39[0-9a-f-]", range) != 1)
		return false;
	snprintf(path, sizeof(path), "%smap_files/%s", dir, range);
	return !statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_INO, &stx) &&
	       stx.stx_ino == e->ino &&
	       ((uint64_t)stx.stx_dev_major << 32 | stx.stx_dev_minor) == e->dev;
}

/* Does the task at @dir ("/proc/PID/" or "/proc/PID/task/TID/") map
 * the object @e executable? */
static bool exe_mapped(const char *dir, const struct hm_exe *e)
{
	char path[128];
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	unsigned maj, min;
	FILE *f;

	snprintf(path, sizeof(path), "%smaps", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = maps_exec_ino(line, e->ino, &maj, &min) &&
			(((uint64_t)maj << 32 | min) == e->dev ||
			 mapped_as(dir, line, e));
	free(line);
	fclose(f);
	return found;
}

/* Is the task at @dir in our own user namespace? */
static bool own_userns(const struct hm_procs *p, const char *dir)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%sns/user", dir);
	return !stat(path, &st) && st.st_dev == p->userns_dev &&
	       st.st_ino == p->userns_ino;
}

/* The exe link at @link into @e; 0, -ESRCH or -ENAMETOOLONG. */
static int exe_at(const char *link, struct hm_exe *e)
{
	struct statx stx;
	ssize_t n;

	if (statx(AT_FDCWD, link, AT_STATX_DONT_SYNC, STATX_INO, &stx) < 0)
		return -ESRCH;
	e->dev = (uint64_t)stx.stx_dev_major << 32 | stx.stx_dev_minor;
	e->ino = stx.stx_ino;
	n = readlink(link, e->raw, sizeof(e->raw));
	if (n < 0)
		return -ESRCH;
	if ((size_t)n >= sizeof(e->raw) ||
	    hm_encode_len(e->raw, (size_t)n) >= sizeof(e->name))
		return -ENAMETOOLONG;
	e->raw[n] = '\0';
	e->len = (long)hm_encode(e->name, e->raw, (size_t)n);
	return 0;
}

/*
 * What @tgid (or a live thread of it: a leader may be gone) runs, into
 * @e, and whether the link is believed.  prctl(PR_SET_MM_MAP) sets the
 * link to any file its caller may execute, once it has unmapped its own
 * program, and an unprivileged process may call it in a user namespace
 * of its own: the link is believed only when the process maps that file
 * executable (an exec maps its program; for a script or `ld.so PROG`
 * the link is the interpreter, which is mapped) and, with @own_ns, when
 * the process is in our user namespace (in its own it can map the file
 * too).  An exec in between two reads is read again.
 * Returns: 0 (believed), -EPERM (not believed, e->why says why; the name
 * is in @e), -ESRCH (gone, or no exe: a kernel thread), -ENAMETOOLONG.
 */
int hm_procs_read_exe(const struct hm_procs *p, int32_t tgid, bool own_ns,
		    struct hm_exe *e)
{
	char link[96];
	int r = -ESRCH;

	for (int i = 0; i < 3; i++) {
		uint64_t dev, ino;
		char *dir;

		if (exe_link(tgid, link, sizeof(link)) || exe_at(link, e))
			return -ESRCH;
		dir = strrchr(link, '/');
		dir[1] = '\0';	/* "/proc/PID/" or ".../task/TID/" */
		dev = e->dev;
		ino = e->ino;
		e->why = NULL;
		if (!exe_mapped(link, e))
			e->why = "no executable mapping of it";
		else if (own_ns && !own_userns(p, link))
			e->why = "in another user namespace";
		strcat(link, "exe");
		if (!e->why)
			return 0;
		r = exe_at(link, e);
		if (r || (e->dev == dev && e->ino == ino))
			return r ? r : -EPERM;	/* no exec in between */
	}
	return -EPERM;
}

/* Count and log an exe link not believed; @what: what it leads to. */
void hm_procs_log_unbelieved(struct hm_procs *p, int32_t pid,
			   const struct hm_exe *e, const char *what)
{
	p->c->exe_unbelieved++;
	hm_procs_log(p, "pid %d: exe link %s not believed (%s): %s", pid,
		     e->name, e->why, what);
}

/* The domain @pid is in (hm_procs_where() without its tracer): a process
 * not seen yet is read from /proc and placed as the tracker places it. */
static int own_view(struct hm_procs *p, int32_t pid, struct hm_proc_view *out)
{
	struct hm_exe e;
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	int n;
	int r;

	if (hm_tracker_lookup(p->t, pid, out))
		return 0;
	r = hm_procs_stat(pid, &task.ppid, NULL);
	if (r && r != -ESRCH)
		return r;
	n = r ? -ESRCH : hm_procs_read_exe(p, pid, true, &e);
	if (n == -EPERM) {
		/* a link it may have set itself: <kernel>, flagged */
		hm_procs_log_unbelieved(p, pid, &e, "placed in " HM_KERNEL);
		r = hm_procs_set_unobserved(p, pid, task.ppid, NULL, 0);
		if (r)
			return r;
		return hm_tracker_lookup(p->t, pid, out) ? 0 : -ENOMEM;
	}
	if (r || n == -ESRCH) {
		/* gone, or its leader left: no history we know of, so
		 * judged as <kernel> EXE (DESIGN.md "Unobserved history"),
		 * its execs too: never let through unjudged */
		p->c->placed_gone++;
		r = hm_procs_set_kernel_exe(p, pid, task.ppid, NULL, 0, 0);
		if (r)
			return r;
		return hm_tracker_lookup(p->t, pid, out) ? 0 : -ENOMEM;
	}
	if (!n) {
		task.exe = e.name;
		task.exe_len = (size_t)e.len;
		task.exe_believed = true;
	}
	return hm_tracker_current(p->t, &task, out);
}

/* Tracers of tracers are followed this far (a loop of them ends). */
#define MAX_TRACERS 8

/**
 * hm_procs_where() - the domain @pid is judged in.  A process not seen yet
 * is read from /proc and placed as the tracker places it.  A traced
 * process is judged in its tracer's domain: the tracer decides what it
 * does (ptrace), so it gets no more than the tracer has.
 * @p: the keeper.
 * @pid: the process.
 * @out: its view; the names are the tracker's (borrowed).
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_procs_where(struct hm_procs *p, int32_t pid, struct hm_proc_view *out)
{
	int32_t tracer;
	int r = own_view(p, pid, out);

	for (int i = 0; !r && i < MAX_TRACERS; i++) {
		struct hm_proc_view tv;

		if (!(p->n_traced || p->traced_full) ||
		    !(tracer = hm_procs_tracer_of(p, pid)) || tracer == pid)
			break;
		if (!hm_tracker_lookup(p->t, tracer, &tv) &&
		    (hm_procs_stat(tracer, &(int64_t){ 0 }, NULL) ||
		     own_view(p, tracer, &tv))) {
			/* detached */
			hm_procs_untrace_exit(p, tracer, tracer);
			break;
		}
		if (p->verbose)
			hm_procs_log(p, "pid %d traced by %d: judged in %s",
				     pid, tracer, tv.name->str);
		p->c->traced_views++;
		*out = tv;
		pid = tracer;
	}
	return r;
}
