// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * enforce_helper.c - the workload of the enforcer's end-to-end tests,
 * compiled by the test into the tree it marks and copied under several
 * names (each name is another domain).
 *
 *   helper read FILE...        open and read each file; prints
 *                              "read FILE: ok" or "read FILE: <strerror>"
 *   helper linger MS FILE...   the same, then stay MS milliseconds (so a
 *                              --dry-run enforcer, which judges after the
 *                              fact, still finds the process)
 *   helper exec PROG ARGS...   execv(PROG, [PROG, ARGS...]); on failure
 *                              prints "exec PROG: <strerror>"
 *   helper setenv NAME VALUE CMD...  set NAME=VALUE in the environment
 *                              (an exec in CMD passes it on), then CMD
 *   helper write FILE          open FILE O_WRONLY|O_CREAT|O_TRUNC, write
 *   helper loop N FILE         open and read FILE N times; prints the
 *                              number of failures
 *   helper as UID CMD...       drop to UID (and gid UID, no groups), then
 *                              CMD in the same process: an unprivileged
 *                              attacker in this domain
 *   helper ns CMD...           unshare a user and a mount namespace (as
 *                              any user can), then CMD: the files are
 *                              reached through another mount
 *   helper bind SRC DST CMD... bind-mount SRC over DST (in a namespace
 *                              of its own: after "ns"), then CMD: DST's
 *                              name now reaches SRC's file
 *   helper move FROM TO CMD... move the mount at FROM to TO (MS_MOVE, in
 *                              a namespace of its own), then CMD
 *   helper read1 FILE CMD...   read FILE, then CMD
 *   helper chroot DIR CMD...   chroot(DIR) (in a namespace of its own),
 *                              then CMD
 *   helper reopen FILE         open FILE, unlink it, open it again
 *                              through /proc/self/fd (no name left);
 *                              prints "reopen FILE: ok" or the step that
 *                              failed and why
 *   helper passfd SRC DST      a child unshares a user and a mount
 *                              namespace, bind-mounts SRC over DST there,
 *                              opens DST O_PATH (no open event) and passes
 *                              the fd back; this process, in its own
 *                              namespace, opens it through /proc/self/fd:
 *                              "passfd DST: ok" or "passfd DST: <strerror>"
 *   helper rewrite FILE        open FILE O_WRONLY|O_APPEND, clear O_APPEND
 *                              (fcntl F_SETFL 0), pwrite "X" at offset 0,
 *                              ftruncate to 1 byte; prints "rewrite FILE:
 *                              ok" or the step that failed and why
 *   helper setappend FILE      make FILE append-only (chattr +a, root)
 *   helper waitread MS FILE    sleep MS milliseconds, then read FILE
 *   helper thread-exit MS CMD...  the main thread exits (SYS_exit); a
 *                              second thread waits MS milliseconds, then
 *                              runs CMD (read/exec ...) and ends the group
 *   helper failexec PROG CMD...  execve(PROG) with a bad argv (EFAULT
 *                              after the kernel opened PROG), then open
 *                              PROG O_RDWR|O_APPEND ("append PROG: ..."),
 *                              then CMD
 *   helper open MODE FILE      open FILE with MODE: rdonly, wronly, rdwr,
 *                              append (O_WRONLY|O_APPEND), rdappend
 *                              (O_RDWR|O_APPEND), trunc (O_RDONLY|O_TRUNC),
 *                              wrtrunc (O_WRONLY|O_TRUNC); prints
 *                              "open MODE FILE: ok" or "...: <strerror>"
 *   helper open2 MODE FILE     the same through openat2(2)
 *   helper uring MODE FILE     the same through io_uring (IORING_OP_OPENAT),
 *                              inline; "uring-async": in an io-wq worker
 *   helper thread-open FIFO MODE FILE  the main thread waits in
 *                              open(FIFO, O_RDONLY) (no writer comes); once
 *                              it does, a second thread runs "open MODE
 *                              FILE" and ends the group
 *   helper open32 MODE FILE    the same through the 32-bit system call
 *                              entry (int $0x80, ia32 open = 5) from this
 *                              64-bit process (x86_64 only)
 *   helper open2-race N FILE   N openat2(FILE, O_RDWR) calls while a
 *                              second thread keeps flipping the flags in
 *                              their struct open_how between O_RDWR and
 *                              O_RDONLY (the kernel copied O_RDWR; a reader
 *                              of the memory may see either); prints
 *                              "open2-race: K of N opened"
 *   helper pose EXECFN COMM ARG0 ARG1 CMD...  after its exec, write
 *                              EXECFN over the name the kernel gave
 *                              (AT_EXECFN: no longer than it), COMM as
 *                              its command name, [ARG0, ARG1] as its argv
 *                              (/proc/PID/cmdline), then CMD: a process
 *                              that claims another program's name
 *   helper stack N DIR CMD...  mount N tmpfs one on another at DIR (in a
 *                              namespace of its own: after "ns"), then
 *                              CMD: a mount table that is slow to read
 *   helper rebind MS SRC DST   for MS milliseconds: bind-mount SRC over
 *                              DST (a new mount each time), open DST,
 *                              unmount; prints "rebind DST: N opens, D
 *                              denied, slowest T ms".  MS "-": once for
 *                              each line of stdin, which says MS
 *   helper every MS N FILE     open FILE N times, MS milliseconds apart;
 *                              prints "every FILE: F of N failed, slowest
 *                              T ms, median M ms"
 *   helper forge PORT CHILD PARENT  send a proc-connector FORK message
 *                              (CHILD forked by PARENT) to netlink port
 *                              PORT, as a process (not the kernel) can
 *
 * Exit: 0 every step worked, 1 an open or read failed, 126 exec failed,
 * 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "e2e_read.h"


static int run(int argc, char **argv);
static void sleep_ms(long ms);

/* An append-only log rewritten through a descriptor opened to append. */
static int rewrite(const char *path)
{
	const char *step = "open";
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd >= 0) {
		step = "fcntl";
		if (!fcntl(fd, F_SETFL, 0)) {
			step = "pwrite";
			if (pwrite(fd, "X", 1, 0) == 1) {
				step = "ftruncate";
				if (!ftruncate(fd, 1))
					step = NULL;
			}
		}
	}
	if (step) {
		printf("rewrite %s: %s: %s\n", path, step, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	printf("rewrite %s: ok\n", path);
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* helper stack: @n mounts on @dir, each over the last. */
static int stack(long n, const char *dir)
{
	for (long i = 0; i < n; i++) {
		if (mount("none", dir, "tmpfs", 0, "size=4k")) {
			printf("stack %s: mount %ld: %s\n", dir, i,
			       strerror(errno));
			return 2;
		}
	}
	printf("stack %s: %ld mounts\n", dir, n);
	return 0;
}

/* helper rebind: the opener's own file through a new mount each time. */
static int rebind(long ms, const char *src, const char *dst)
{
	double end = now_ms() + (double)ms, slowest = 0;
	long opens = 0, denied = 0;

	while (now_ms() < end) {
		double t;
		int fd;

		if (mount(src, dst, NULL, MS_BIND, NULL)) {
			printf("rebind %s: %s\n", dst, strerror(errno));
			return 2;
		}
		t = now_ms();
		fd = open(dst, O_RDONLY);
		t = now_ms() - t;
		slowest = t > slowest ? t : slowest;
		opens++;
		if (fd < 0)
			denied++;
		else
			close(fd);
		umount2(dst, MNT_DETACH);
	}
	printf("rebind %s: %ld opens, %ld denied, slowest %.1f ms\n", dst,
	       opens, denied, slowest);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* helper every: @n timed opens of @path, @ms apart. */
static int every(long ms, long n, const char *path)
{
	double *t = calloc((size_t)(n > 0 ? n : 1), sizeof(*t));
	long bad = 0;

	if (!t || n < 1)
		return 2;
	for (long i = 0; i < n; i++) {
		double t0 = now_ms();
		int fd = open(path, O_RDONLY);

		t[i] = now_ms() - t0;
		if (fd < 0)
			bad++;
		else
			close(fd);
		sleep_ms(ms);
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	printf("every %s: %ld of %ld failed, slowest %.1f ms, median %.1f "
	       "ms\n", path, bad, n, t[n - 1], t[n / 2]);
	free(t);
	return bad ? 1 : 0;
}

/* An open of a file that has no name any more. */
static int reopen(const char *path)
{
	char link[64];
	const char *step = "open";
	int fd = open(path, O_RDONLY | O_CLOEXEC), fd2 = -1;

	if (fd >= 0) {
		step = "unlink";
		if (!unlink(path)) {
			step = "reopen";
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			fd2 = open(link, O_RDONLY | O_CLOEXEC);
		}
	}
	if (fd2 < 0) {
		printf("reopen %s: %s: %s\n", path, step, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd2);
	close(fd);
	printf("reopen %s: ok\n", path);
	return 0;
}

/* The child's side of passfd: bind, open O_PATH, send over @sock. */
static int pass_child(int sock, const char *src, const char *dst)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	int fd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
	    mount(src, dst, NULL, MS_BIND, NULL))
		return 2;
	fd = open(dst, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 2;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, &mh, 0) != 1)
		return 2;
	/* the namespace lives on until the parent is done with the fd */
	return read(sock, cbuf, 1) < 0 ? 2 : 0;
}

/* A mount of another namespace, used from this one. */
static int pass_fd(const char *src, const char *dst)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b, link[64];
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int sv[2], fd = -1, st = 0, got;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 2;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		_exit(pass_child(sv[1], src, dst));
	}
	close(sv[1]);
	got = pid > 0 && recvmsg(sv[0], &mh, 0) == 1;
	c = CMSG_FIRSTHDR(&mh);
	if (got && c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (fd >= 0) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		got = open(link, O_RDONLY | O_CLOEXEC);
	}
	close(sv[0]);		/* the child may go */
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (fd < 0) {
		printf("passfd %s: no fd from the namespace\n", dst);
		return 2;
	}
	if (got < 0) {
		printf("passfd %s: %s\n", dst, strerror(errno));
		return 1;
	}
	close(got);
	printf("passfd %s: ok\n", dst);
	return 0;
}

static int set_append(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int fl = 0;

	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &fl) ||
	    (fl |= FS_APPEND_FL, ioctl(fd, FS_IOC_SETFLAGS, &fl))) {
		printf("setappend %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int as_user(int argc, char **argv)
{
	uid_t id = (uid_t)strtoul(argv[2], NULL, 10);

	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		printf("as %u: %s\n", id, strerror(errno));
		return 2;
	}
	return run(argc - 2, argv + 2);
}

struct thread_arg {
	int argc;
	char **argv;
};

static void *second_thread(void *p)
{
	struct thread_arg *a = p;

	sleep_ms(strtol(a->argv[2], NULL, 10));
	exit(run(a->argc - 2, a->argv + 2));	/* the whole group */
}

/* The leader leaves; another thread of the group goes on. */
static int thread_exit(int argc, char **argv)
{
	static struct thread_arg a;
	pthread_t t;

	a = (struct thread_arg){ argc, argv };
	if (pthread_create(&t, NULL, second_thread, &a))
		return 2;
	syscall(SYS_exit, 0);
	return 2;
}

static int fail_exec(int argc, char **argv)
{
	int fd;

	syscall(SYS_execve, argv[2], (char **)1, NULL);
	printf("failexec %s: %s\n", argv[2], strerror(errno));
	fd = open(argv[2], O_RDWR | O_APPEND);
	if (fd < 0) {
		printf("append %s: %s\n", argv[2], strerror(errno));
	} else {
		printf("append %s: ok\n", argv[2]);
		close(fd);
	}
	return run(argc - 2, argv + 2) | (fd >= 0);
}

/* One IORING_OP_OPENAT of @path with @flags on a ring of one entry;
 * @async: IOSQE_ASYNC (an io-wq worker thread opens).  Returns the fd or
 * -errno. */
static int uring_open(const char *path, int flags, bool async)
{
	struct io_uring_params pr = { 0 };
	int ring = (int)syscall(SYS_io_uring_setup, 1, &pr);
	size_t sq_len, cq_len;
	char *sq, *cq;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned *tail, *head;
	int res;

	if (ring < 0)
		return -errno;
	sq_len = pr.sq_off.array + pr.sq_entries * sizeof(unsigned);
	cq_len = pr.cq_off.cqes + pr.cq_entries * sizeof(*cqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_CQ_RING);
	sqe = mmap(NULL, sizeof(*sqe), PROT_READ | PROT_WRITE, MAP_SHARED,
		   ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqe == MAP_FAILED)
		return -errno;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uint64_t)(uintptr_t)path;
	sqe->open_flags = (uint32_t)(flags | O_CLOEXEC);
	sqe->flags = async ? IOSQE_ASYNC : 0;
	tail = (unsigned *)(sq + pr.sq_off.tail);
	((unsigned *)(sq + pr.sq_off.array))[*tail &
		*(unsigned *)(sq + pr.sq_off.ring_mask)] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -errno;
	head = (unsigned *)(cq + pr.cq_off.head);
	cqe = (struct io_uring_cqe *)(cq + pr.cq_off.cqes) +
	      (*head & *(unsigned *)(cq + pr.cq_off.ring_mask));
	res = cqe->res;
	close(ring);
	return res;
}

static const struct {
	const char *name;
	int flags;
} modes[] = {
	{ "rdonly", O_RDONLY },
	{ "wronly", O_WRONLY },
	{ "rdwr", O_RDWR },
	{ "append", O_WRONLY | O_APPEND },
	{ "rdappend", O_RDWR | O_APPEND },
	{ "trunc", O_RDONLY | O_TRUNC },
	{ "wrtrunc", O_WRONLY | O_TRUNC },
};

/* open(2), openat2(2) (@how 2) or io_uring (@how 3, 4: async) of @path
 * with the mode named @mode. */
static int open_mode(const char *mode, const char *path, int how_)
{
	struct open_how how = { 0 };
	int fd = -1;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(modes[i].name, mode))
			break;
	if (i == sizeof(modes) / sizeof(modes[0])) {
		printf("open: no mode %s\n", mode);
		return 2;
	}
	how.flags = (uint64_t)(modes[i].flags | O_CLOEXEC);
	if (how_ == 2)
		fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how,
				  sizeof(how));
	else if (how_ >= 3)
		fd = uring_open(path, modes[i].flags, how_ == 4);
	else
		fd = open(path, modes[i].flags | O_CLOEXEC);
	if (how_ >= 3 && fd < 0) {
		errno = -fd;
		fd = -1;
	}
	if (fd < 0) {
		printf("open %s %s: %s\n", mode, path, strerror(errno));
		return 1;
	}
	close(fd);
	printf("open %s %s: ok\n", mode, path);
	return 0;
}

/* Is the main thread asleep in openat()?  (/proc/self/task/TGID) */
static bool leader_waits_in_open(void)
{
	char path[64], st[512] = "", sc[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", getpid());
	if ((f = fopen(path, "r"))) {
		if (!fgets(st, sizeof(st), f))
			st[0] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", getpid());
	if ((f = fopen(path, "r"))) {
		if (!fgets(sc, sizeof(sc), f))
			sc[0] = '\0';
		fclose(f);
	}
	return strstr(st, ") S ") && atol(sc) == SYS_openat;
}

static void *opener_thread(void *p)
{
	char **argv = p;
	int i;

	for (i = 0; i < 2000 && !leader_waits_in_open(); i++)
		sleep_ms(5);
	if (i == 2000) {
		printf("thread-open: the main thread never waited\n");
		exit(2);
	}
	exit(open_mode(argv[3], argv[4], 1));	/* the whole group */
}

/* The leader waits in a read-only open; another thread opens FILE. */
static int thread_open(char **argv)
{
	pthread_t t;
	int fd;

	/* after "as UID" the process is not dumpable: /proc/self/task/N/
	 * syscall would be root's to read */
	prctl(PR_SET_DUMPABLE, 1);
	if (pthread_create(&t, NULL, opener_thread, argv))
		return 2;
	fd = open(argv[2], O_RDONLY);	/* a FIFO: waits for a writer */
	printf("thread-open: the FIFO opened (%d): %s\n", fd,
	       strerror(errno));
	return 2;
}

#ifdef __x86_64__
static sigjmp_buf no32;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(no32, 1);
}
#endif

/* ia32 open(2) through int $0x80: its number (5) and registers are the
 * 32-bit table's, which the enforcer does not read as an open.  A kernel
 * without ia32 emulation (or with it off) answers int $0x80 with SIGSEGV. */
static int open32(const char *mode, const char *path)
{
#ifdef __x86_64__
	static const int rdonly = O_RDONLY, rdwr = O_RDWR;
	int flags = !strcmp(mode, "rdonly") ? rdonly :
		    !strcmp(mode, "rdwr") ? rdwr : -1;
	char *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long r = 5;	/* __NR_open of the ia32 table */

	if (flags < 0 || low == MAP_FAILED || strlen(path) >= 4096) {
		printf("open32: usage or mmap\n");
		return 2;
	}
	strcpy(low, path);
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(no32, 1)) {
		printf("open32: no 32-bit system call entry here\n");
		return 3;
	}
	__asm__ volatile("int $0x80"
			 : "+a"(r)
			 : "b"((uint32_t)(uintptr_t)low), "c"(flags), "d"(0)
			 : "r8", "r9", "r10", "r11", "memory");
	if (r < 0) {
		printf("open32 %s %s: %s\n", mode, path, strerror((int)-r));
		return 1;
	}
	close((int)r);
	printf("open32 %s %s: ok\n", mode, path);
	return 0;
#else
	(void)mode, (void)path;
	printf("open32: x86_64 only\n");
	return 2;
#endif
}

static struct open_how race_how;
static volatile int race_done;

static void *race_flip(void *arg)
{
	(void)arg;
	while (!race_done) {
		__atomic_store_n(&race_how.flags, (uint64_t)O_RDONLY,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&race_how.flags, (uint64_t)O_RDWR,
				 __ATOMIC_RELAXED);
	}
	return NULL;
}

/* openat2 O_RDWR while another thread rewrites the flags it passed. */
static int open2_race(int n, const char *path)
{
	pthread_t t;
	int ok = 0;

	race_how.flags = O_RDWR;
	if (pthread_create(&t, NULL, race_flip, NULL))
		return 2;
	for (int i = 0; i < n; i++) {
		int fd;

		__atomic_store_n(&race_how.flags, (uint64_t)O_RDWR,
				 __ATOMIC_RELAXED);
		fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &race_how,
				  sizeof(race_how));
		if (fd >= 0) {
			ok++;
			close(fd);
		}
	}
	race_done = 1;
	pthread_join(t, NULL);
	printf("open2-race: %d of %d opened\n", ok, n);
	return ok ? 1 : 0;
}

/* A FORK event as the kernel's proc connector would send it. */
static int forge(char **argv)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK,
				  .nl_pid = (uint32_t)strtoul(argv[2], NULL,
							      10) };
	union {
		struct nlmsghdr align;
		char b[NLMSG_SPACE(sizeof(struct cn_msg) +
				   sizeof(struct proc_event))];
	} msg = { 0 };
	struct nlmsghdr *nl = &msg.align;
	struct cn_msg *cn = NLMSG_DATA(nl);
	struct proc_event ev = { .what = PROC_EVENT_FORK };
	int fd = socket(PF_NETLINK, SOCK_DGRAM, NETLINK_CONNECTOR);

	ev.event_data.fork.parent_pid = atoi(argv[4]);
	ev.event_data.fork.parent_tgid = atoi(argv[4]);
	ev.event_data.fork.child_pid = atoi(argv[3]);
	ev.event_data.fork.child_tgid = atoi(argv[3]);
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(ev));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(ev);
	memcpy(cn->data, &ev, sizeof(ev));
	if (fd < 0 || sendto(fd, nl, nl->nlmsg_len, 0, (struct sockaddr *)&to,
			     sizeof(to)) != (ssize_t)nl->nlmsg_len) {
		printf("forge: %s\n", strerror(errno));
		return 1;
	}
	printf("forge: sent\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	return run(argc, argv);
}

static int run(int argc, char **argv);

/* helper pose: the process's own memory and name say what it is not.
 * CMD's words are copied first: they live in the argv written over. */
static int pose(int argc, char **argv)
{
	char *fn = (char *)getauxval(AT_EXECFN);
	char *area = argv[0];
	size_t room = (size_t)(argv[argc - 1] + strlen(argv[argc - 1]) - area);
	size_t n0 = strlen(argv[4]), n1 = strlen(argv[5]);
	char **cmd = calloc((size_t)argc, sizeof(*cmd));
	char *arg0;

	if (!fn || strlen(argv[2]) > strlen(fn) || n0 + n1 + 2 > room || !cmd) {
		printf("pose: no room\n");
		return 2;
	}
	for (int i = 5; i < argc; i++)
		cmd[i - 5] = strdup(argv[i]);
	memset(fn, 0, strlen(fn));
	memcpy(fn, argv[2], strlen(argv[2]));
	if (prctl(PR_SET_NAME, argv[3], 0, 0, 0)) {
		printf("pose: %s\n", strerror(errno));
		return 2;
	}
	arg0 = strdup(argv[4]);
	if (!arg0)
		return 2;
	memcpy(area, arg0, n0 + 1);
	memcpy(area + n0 + 1, cmd[0], n1 + 1);
	memset(area + n0 + n1 + 2, 0, room - n0 - n1 - 2);
	return run(argc - 5, cmd);
}

static int run(int argc, char **argv)
{
	int rc = 0;

	if (argc >= 4 && !strcmp(argv[1], "as"))
		return as_user(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "ns")) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
			printf("ns: %s\n", strerror(errno));
			return 2;
		}
		return run(argc - 1, argv + 1);
	}
	if (argc >= 5 && !strcmp(argv[1], "bind")) {
		if (mount(argv[2], argv[3], NULL, MS_BIND, NULL)) {
			printf("bind %s %s: %s\n", argv[2], argv[3],
			       strerror(errno));
			return 2;
		}
		return run(argc - 3, argv + 3);
	}
	if (argc >= 4 && !strcmp(argv[1], "chroot")) {
		if (chroot(argv[2]) || chdir("/")) {
			printf("chroot %s: %s\n", argv[2], strerror(errno));
			return 2;
		}
		return run(argc - 2, argv + 2);
	}
	if (argc >= 5 && !strcmp(argv[1], "stack")) {
		rc = stack(strtol(argv[2], NULL, 10), argv[3]);
		return rc ? rc : run(argc - 3, argv + 3);
	}
	if (argc == 5 && !strcmp(argv[1], "rebind") && strcmp(argv[2], "-"))
		return rebind(strtol(argv[2], NULL, 10), argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "rebind")) {
		char line[32];

		while (fgets(line, sizeof(line), stdin))
			rc |= rebind(strtol(line, NULL, 10), argv[3], argv[4]);
		return rc;
	}
	if (argc == 5 && !strcmp(argv[1], "every"))
		return every(strtol(argv[2], NULL, 10),
			     strtol(argv[3], NULL, 10), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "passfd"))
		return pass_fd(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "reopen"))
		return reopen(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "move")) {
		if (mount(argv[2], argv[3], NULL, MS_MOVE, NULL)) {
			printf("move %s %s: %s\n", argv[2], argv[3],
			       strerror(errno));
			return 2;
		}
		return run(argc - 3, argv + 3);
	}
	if (argc >= 4 && !strcmp(argv[1], "read1")) {
		rc = read_one(argv[2]);
		return run(argc - 2, argv + 2) | rc;
	}
	if (argc == 3 && !strcmp(argv[1], "rewrite"))
		return rewrite(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "setappend"))
		return set_append(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "thread-exit"))
		return thread_exit(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "failexec"))
		return fail_exec(argc, argv);
	if (argc >= 8 && !strcmp(argv[1], "pose"))
		return pose(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "forge"))
		return forge(argv);
	if (argc == 4 && !strcmp(argv[1], "open"))
		return open_mode(argv[2], argv[3], 1);
	if (argc == 4 && !strcmp(argv[1], "open2"))
		return open_mode(argv[2], argv[3], 2);
	if (argc == 4 && !strcmp(argv[1], "open32"))
		return open32(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "open2-race"))
		return open2_race(atoi(argv[2]), argv[3]);
	if (argc == 4 && !strcmp(argv[1], "uring"))
		return open_mode(argv[2], argv[3], 3);
	if (argc == 4 && !strcmp(argv[1], "uring-async"))
		return open_mode(argv[2], argv[3], 4);
	if (argc == 5 && !strcmp(argv[1], "thread-open"))
		return thread_open(argv);
	if (argc == 4 && !strcmp(argv[1], "waitread")) {
		sleep_ms(strtol(argv[2], NULL, 10));
		return read_one(argv[3]);
	}
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		for (int i = 2; i < argc; i++)
			rc |= read_one(argv[i]);
		return rc;
	}
	if (argc >= 4 && !strcmp(argv[1], "linger")) {
		for (int i = 3; i < argc; i++)
			rc |= read_one(argv[i]);
		sleep_ms(strtol(argv[2], NULL, 10));
		return rc;
	}
	if (argc >= 5 && !strcmp(argv[1], "setenv")) {
		if (setenv(argv[2], argv[3], 1)) {
			printf("setenv: %s\n", strerror(errno));
			return 2;
		}
		return run(argc - 3, argv + 3);
	}
	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		printf("exec %s: %s\n", argv[2], strerror(errno));
		return 126;
	}
	if (argc == 3 && !strcmp(argv[1], "write")) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || write(fd, "w\n", 2) != 2) {
			printf("write %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		close(fd);
		printf("write %s: ok\n", argv[2]);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "loop")) {
		long n = strtol(argv[2], NULL, 10), bad = 0;

		for (long i = 0; i < n; i++) {
			int fd = open(argv[3], O_RDONLY);

			if (fd < 0)
				bad++;
			else
				close(fd);
		}
		printf("loop %s: %ld of %ld failed\n", argv[3], bad, n);
		return bad ? 1 : 0;
	}
	fprintf(stderr, "usage: helper read FILE... | linger MS FILE... | "
		"exec PROG ARGS... | setenv N V CMD | write FILE | loop N FILE | "
		"as UID CMD | "
		"waitread MS FILE | thread-exit MS CMD | failexec PROG CMD | "
		"forge PORT CHILD PARENT | ns CMD | bind SRC DST CMD | "
		"chroot DIR CMD | reopen FILE | passfd SRC DST | "
		"stack N DIR CMD | rebind MS SRC DST | every MS N FILE | "
		"move FROM TO CMD | read1 FILE CMD | "
		"rewrite FILE | setappend FILE | open MODE FILE | "
		"open2 MODE FILE | uring[-async] MODE FILE | "
		"thread-open FIFO MODE FILE\n");
	return 2;
}
