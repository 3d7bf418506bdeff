// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc_attack.c - attacks on the enforcer's process tracking, for the
 * end-to-end tests (compiled by the test, as enforce_helper.c is; run
 * as an unprivileged user).
 *
 *   proc_attack spoof TARGET GO FILE...
 *       copy every mapping of its own program to anonymous memory (so
 *       the file is no longer mapped), unshare a user namespace, set its
 *       exe link to TARGET with prctl(PR_SET_MM_MAP), print "spoofed
 *       EXE" (what /proc/self/exe now says), then wait (60 s at most)
 *       until the file GO exists and read each FILE ("read FILE: ok" or
 *       "read FILE: <strerror>")
 *   proc_attack spoof-mapped TARGET GO FILE...
 *       the same, and maps TARGET executable too
 *   proc_attack spoof-vfork TARGET GO FILE...
 *       the same in a child of clone(CLONE_VFORK) (without CLONE_VM:
 *       a copy of our memory) made in our user namespace, whose first
 *       audited call carries the exe link set: our clone record comes
 *       only once it exits; the child's status is ours
 *   proc_attack wait GO FILE...
 *       wait as spoof does, then read each FILE (the genuine process)
 *   proc_attack ptrace-open PID FILE...
 *       attach to PID (PTRACE_ATTACH), make it open each FILE (an
 *       openat(2) injected at the system call it is stopped in), print
 *       "inject open FILE: ok" or "inject open FILE: <strerror>", then
 *       detach (it goes on with what it was doing)
 *   proc_attack exec PROG ARGS...
 *       execv at once (a judged program that execs another)
 *
 * Exit: 0 every step worked, 1 an open or read failed, 2 the attack
 * could not be set up (usage, prctl, ptrace), 126 exec failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/prctl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e_read.h"


/* Wait (60 s at most) until @argv[2] exists, then read @argv[3...]. */
static int wait_read(int argc, char **argv)
{
	int rc = 0;

	for (int i = 0; i < 6000 && access(argv[2], F_OK); i++)
		usleep(10000);
	for (int i = 3; i < argc; i++)
		rc |= read_one(argv[i]);
	return rc;
}

/* Move the mapping [@start, @end) to anonymous memory with @prot. */
static int to_anon(uintptr_t start, uintptr_t end, int prot)
{
	size_t len = end - start;
	void *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (tmp == MAP_FAILED)
		return -1;
	memcpy(tmp, (void *)start, len);
	if (mprotect(tmp, len, prot))
		return -1;
	/* the code running now is in one of these: the copy is the same */
	return mremap(tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
		      (void *)start) == MAP_FAILED ? -1 : 0;
}

/* Every mapping of our own program (inode @ino) to anonymous memory. */
static int unmap_self(ino_t ino)
{
	struct { uintptr_t s, e; int prot; } m[64];
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (n < 64 && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, i;
		char perms[5];

		if (sscanf(line, "%llx-%llx %4s %*s %*s %llu", &s, &e, perms,
			   &i) != 4 || i != ino)
			continue;
		m[n].s = (uintptr_t)s;
		m[n].e = (uintptr_t)e;
		m[n].prot = (perms[0] == 'r' ? PROT_READ : 0) |
			    (perms[1] == 'w' ? PROT_WRITE : 0) |
			    (perms[2] == 'x' ? PROT_EXEC : 0);
		n++;
	}
	fclose(f);
	for (int i = 0; i < n; i++)
		if (to_anon(m[i].s, m[i].e, m[i].prot))
			return -1;
	return n ? 0 : -1;
}

/* The layout we have, for prctl(PR_SET_MM_MAP) (reads /proc/self/stat:
 * an audited open). */
static int mm_map(struct prctl_mm_map *map)
{
	unsigned long long v[52] = { 0 };
	char buf[2048], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	int i = 2;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	p = strrchr(buf, ')') + 2;
	for (i = 3; i < 52 && *p; i++) {
		v[i] = strtoull(p, &p, 10);
		while (*p == ' ')
			p++;
		if (i == 3)	/* the state: a letter */
			p = strchr(p, ' ') ? strchr(p, ' ') + 1 : p;
	}
	*map = (struct prctl_mm_map){ 0 };
	map->start_code = v[26];
	map->end_code = v[27];
	map->start_stack = v[28];
	map->start_data = v[45];
	map->end_data = v[46];
	map->start_brk = v[47];
	map->brk = (uint64_t)(uintptr_t)sbrk(0);
	map->arg_start = v[48];
	map->arg_end = v[49];
	map->env_start = v[50];
	map->env_end = v[51];
	return 0;
}

/* prctl(PR_SET_MM_MAP) with layout @map and @fd as exe. */
static int set_exe(struct prctl_mm_map *map, int fd)
{
	map->exe_fd = (uint32_t)fd;
	return prctl(PR_SET_MM, PR_SET_MM_MAP, map, sizeof(*map), 0);
}

/* unshare a user namespace; 0 or 2 (said why) */
static int own_userns(void)
{
	if (!unshare(CLONE_NEWUSER))
		return 0;
	printf("spoof: unshare: %s\n", strerror(errno));
	return 2;
}

/* set the exe link to @target (@fd); 0 or 2 (said why) */
static int set_exe_to(struct prctl_mm_map *map, const char *target, int fd)
{
	if (!set_exe(map, fd))
		return 0;
	printf("spoof: PR_SET_MM_MAP %s: %s\n", target, strerror(errno));
	return 2;
}

/* Say what /proc/self/exe says now, then wait_read(). */
static int spoofed(int argc, char **argv)
{
	char now[4096];
	ssize_t n = readlink("/proc/self/exe", now, sizeof(now) - 1);

	now[n > 0 ? n : 0] = '\0';
	printf("spoofed %s\n", now);
	fflush(stdout);
	return wait_read(argc - 1, argv + 1);
}

/* The spoof in a vfork child (spoof-vfork), in our user namespace (the
 * audit rules may audit unshare: its first audited call is then the
 * prctl, with the exe set); its status. */
static int spoof_child(int argc, char **argv, struct prctl_mm_map *map,
		       int fd)
{
	long pid;
	int st;

	if (own_userns())
		return 2;
	pid = syscall(SYS_clone, CLONE_VFORK | SIGCHLD, 0, NULL, NULL, 0);
	if (pid < 0) {
		printf("spoof: clone: %s\n", strerror(errno));
		return 2;
	}
	if (!pid) {
		int rc = set_exe_to(map, argv[2], fd);

		fflush(stdout);
		_exit(rc ? rc : spoofed(argc, argv));
	}
	if (waitpid((pid_t)pid, &st, 0) < 0 || !WIFEXITED(st))
		return 2;
	return WEXITSTATUS(st);
}

static int spoof(int argc, char **argv, int mapped)
{
	struct prctl_mm_map map;
	struct stat st;
	int fd, rc;

	if (argc < 5 || stat("/proc/self/exe", &st))
		return 2;
	/* HM_SPOOF_AFTER: a file to wait for first (the enforcer has seen
	 * this program's exec by then) */
	if (getenv("HM_SPOOF_AFTER"))
		for (int i = 0; i < 6000 && access(getenv("HM_SPOOF_AFTER"),
						   F_OK); i++)
			usleep(10000);
	if (unmap_self(st.st_ino)) {
		printf("spoof: cannot unmap the program: %s\n", strerror(errno));
		return 2;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || mm_map(&map)) {
		printf("spoof: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (mapped < 0)
		return spoof_child(argc, argv, &map, fd);
	rc = own_userns();
	if (!rc)
		rc = set_exe_to(&map, argv[2], fd);
	if (rc)
		return rc;
	if (mapped && mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd,
			   0) == MAP_FAILED) {
		printf("spoof: mmap %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	return spoofed(argc, argv);
}

/* The stopped @pid runs openat(AT_FDCWD, @path, O_RDONLY): the path goes
 * below its stack pointer, the call at the system call instruction it
 * stopped after.  Returns the call's result (fd or -errno). */
static long inject_open(pid_t pid, const struct user_regs_struct *saved,
			const char *path)
{
	struct user_regs_struct r = *saved;
	uintptr_t at = (saved->rsp - 4096) & ~(uintptr_t)7;
	size_t len = strlen(path) + 1;
	int st;

	for (size_t i = 0; i < len; i += sizeof(long)) {
		long word = 0;

		memcpy(&word, path + i, len - i < sizeof(long) ? len - i :
							      sizeof(long));
		if (ptrace(PTRACE_POKEDATA, pid, at + i, word))
			return -errno;
	}
	r.rip = saved->rip - 2;		/* the syscall instruction */
	r.rax = SYS_openat;
	r.orig_rax = (unsigned long long)-1;	/* no restart */
	r.rdi = (unsigned long long)AT_FDCWD;
	r.rsi = at;
	r.rdx = O_RDONLY;
	r.r10 = 0;
	if (ptrace(PTRACE_SETREGS, pid, 0, &r) ||
	    ptrace(PTRACE_SINGLESTEP, pid, 0, 0) || waitpid(pid, &st, 0) < 0 ||
	    !WIFSTOPPED(st) || ptrace(PTRACE_GETREGS, pid, 0, &r))
		return -EIO;
	return (long)r.rax;
}

static int ptrace_open(int argc, char **argv)
{
	pid_t pid = (pid_t)strtol(argv[2], NULL, 10);
	struct user_regs_struct saved;
	long word;
	int st, rc = 0;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0)) {
		printf("ptrace-open: attach %d: %s\n", pid, strerror(errno));
		return 2;
	}
	if (waitpid(pid, &st, 0) < 0 ||
	    ptrace(PTRACE_GETREGS, pid, 0, &saved)) {
		printf("ptrace-open: stop: %s\n", strerror(errno));
		return 2;
	}
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, saved.rip - 2, 0);
	if (errno || (word & 0xffff) != 0x050f) {
		printf("ptrace-open: not stopped after a syscall\n");
		return 2;
	}
	for (int i = 3; i < argc; i++) {
		long fd = inject_open(pid, &saved, argv[i]);

		printf("inject open %s: %s\n", argv[i],
		       fd >= 0 ? "ok" : strerror((int)-fd));
		rc |= fd < 0;
	}
	/* it goes on as it was: the sleep it was in restarts */
	if (ptrace(PTRACE_SETREGS, pid, 0, &saved) ||
	    ptrace(PTRACE_DETACH, pid, 0, 0)) {
		printf("ptrace-open: detach: %s\n", strerror(errno));
		kill(pid, SIGKILL);
		return 2;
	}
	return rc;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		printf("exec %s: %s\n", argv[2], strerror(errno));
		return 126;
	}
	if (argc >= 4 && !strcmp(argv[1], "wait"))
		return wait_read(argc, argv);
	if (argc >= 5 && !strcmp(argv[1], "spoof"))
		return spoof(argc, argv, 0);
	if (argc >= 5 && !strcmp(argv[1], "spoof-mapped"))
		return spoof(argc, argv, 1);
	if (argc >= 5 && !strcmp(argv[1], "spoof-vfork"))
		return spoof(argc, argv, -1);
	if (argc >= 4 && !strcmp(argv[1], "ptrace-open"))
		return ptrace_open(argc, argv);
	fprintf(stderr, "usage: see proc_attack.c\n");
	return 2;
}
