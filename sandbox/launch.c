// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * launch.c - what `histmac sandbox` sets up around COMMAND besides the
 * Landlock ruleset (docs/SANDBOX.md "Terminal" and "The table"):
 *
 *   - a seccomp filter refusing TIOCSTI and TIOCLINUX, the ioctls that
 *     push input into a terminal (the caller's shell would run it once
 *     the sandbox exits);
 *   - the table in a sealed memfd at a high descriptor, and a copy in a
 *     private directory with the FIFO the preload reports to, for a
 *     program whose descriptors were closed (close_range, `exec 3>&-`);
 *   - the HISTMAC_SANDBOX value naming all of it (table.h).
 *
 * Library code: returns 0 or negative errno, prints nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* ------------------------------------------------------ terminal ioctls */

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#define COMPAT_ARCH	AUDIT_ARCH_I386
#define COMPAT_IOCTL	54
#define X32_BIT		0x40000000u
#define X32_IOCTL	514		/* x32's own ioctl entry */
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#define COMPAT_ARCH	AUDIT_ARCH_ARM
#define COMPAT_IOCTL	54
#endif
#define NATIVE_IOCTL	16	/* __NR_ioctl on x86_64 */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG1_LO offsetof(struct seccomp_data, args[1])
#else
#define ARG1_LO (offsetof(struct seccomp_data, args[1]) + 4)
#endif

#define LD_W(off)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define JEQ(k, t, f)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))

int hm_sbx_tty_filter(void)
{
#ifdef NATIVE_ARCH
	/*
	 * ioctl(fd, TIOCSTI or TIOCLINUX, ...) fails with EPERM, from the
	 * native ABI, x32 and the 32-bit compat entry (int $0x80) alike.
	 * The kernel takes the command as an unsigned int, so only the low
	 * 32 bits of the argument are compared: the high half is ignored by
	 * ioctl() and must not let a caller slip past.
	 */
	struct sock_filter f[] = {
		/* 0 */ LD_W(offsetof(struct seccomp_data, arch)),
		/* 1 */ JEQ(NATIVE_ARCH, 0, 4),		/* else 6 */
		/* 2 */ LD_W(offsetof(struct seccomp_data, nr)),
#ifdef X32_BIT
		/* 3 */ JEQ(NATIVE_IOCTL, 5, 0),	/* 9 */
		/* 4 */ JEQ(X32_BIT | NATIVE_IOCTL, 4, 0),
		/* 5 */ JEQ(X32_BIT | X32_IOCTL, 3, 6),	/* 9, else 12 */
#else
		/* 3 */ JEQ(__NR_ioctl, 5, 0),
		/* 4 */ JEQ(__NR_ioctl, 4, 0),
		/* 5 */ JEQ(__NR_ioctl, 3, 6),
#endif
		/* 6 */ JEQ(COMPAT_ARCH, 0, 7),		/* else 14 */
		/* 7 */ LD_W(offsetof(struct seccomp_data, nr)),
		/* 8 */ JEQ(COMPAT_IOCTL, 0, 3),	/* else 12 */
		/* 9 */ LD_W(ARG1_LO),
		/* 10 */ JEQ(TIOCSTI, 2, 0),		/* 13 */
		/* 11 */ JEQ(TIOCLINUX, 1, 0),		/* 13 */
		/* 12 */ RET(SECCOMP_RET_ALLOW),
		/* 13 */ RET(SECCOMP_RET_ERRNO | EPERM),
		/* 14 */ RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
				   .filter = f };

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/*
 * After setsid() the caller's terminal is no longer this process's
 * controlling terminal, and the kernel refuses TIOCSTI and TIOCLINUX on
 * any tty but the caller's own controlling one (EPERM) unless the
 * caller has CAP_SYS_ADMIN (in the initial user namespace): the filter
 * adds nothing then, but costs every system call the seccomp entry path
 * (about 4 % of an open, bench/RESULTS.md).  With no_new_privs set,
 * nothing below can gain a capability its permitted set lacks
 * (set-user-ID and file capabilities are ignored), so the permitted set
 * decides; only a sandbox holding CAP_SYS_ADMIN runs without it (for
 * set-id programs, run.c), and that one gets the filter, which
 * a set-user-ID root program below inherits.
 */
/* Is @cap in this process's permitted set?  @unknown when it cannot
 * tell. */
static bool permitted(int cap, bool unknown)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return unknown;
	return d[CAP_TO_INDEX(cap)].permitted & CAP_TO_MASK(cap);
}

bool hm_sbx_tty_filter_needed(void)
{
	return permitted(CAP_SYS_ADMIN, true);	/* cannot tell: filter */
}

/* ------------------------------------------------------------- preload */

size_t hm_sbx_preload_places(char *out[HM_SBX_PRELOAD_PLACES])
{
	const char *env = getenv("HISTMAC_SANDBOX_PRELOAD");
	char self[PATH_MAX];
	ssize_t len;
	size_t n = 0;

	if (env)
		return (out[0] = strdup(env)) ? 1 : 0;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		self[len] = '\0';
		*strrchr(self, '/') = '\0';
		if (asprintf(&out[n], "%s/%s", self, HM_SBX_PRELOAD_NAME) >= 0)
			n++;
	}
	if ((out[n] = strdup(HM_SANDBOX_PRELOAD)))
		n++;
	return n;
}

char *hm_sbx_preload_path(void)
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

/* --------------------------------------------------------------- table */

/*
 * The lowest free descriptor at or above HM_SBX_TABLE_FD (or half the
 * soft limit when that is lower): shells and scripts reuse low numbers
 * (`exec 3<>...`), bash keeps its script at 255, and a number far up
 * would make the kernel grow every descendant's descriptor table.
 */
static int move_high(int fd)
{
	struct rlimit rl;
	long base = HM_SBX_TABLE_FD;
	int hi;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur <= (rlim_t)base)
		base = (long)rl.rlim_cur / 2;
	if (base <= fd)
		return fd;
	hi = fcntl(fd, F_DUPFD, (int)base);
	if (hi < 0)
		return fd;	/* keep the low one: still works */
	close(fd);
	return hi;
}

int hm_sbx_table_fd(const void *blob, size_t size)
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
	return move_high(fd);
}

/* -------------------------------------------------- the private files */

/*
 * DIR is a directory with a random name (128 bits) inside
 * TMP/histmac-sandbox.XXXXXX.  A sandbox that may change users (CAP_SETUID
 * permitted: root starting sshd, cron, postfix) makes both 0711, the
 * table's copy 0444 and the FIFO 0622, so that a program below it that
 * became another user and closed its descriptors still finds its table
 * and reports: anyone who knows DIR's name can read the table (the
 * policy's paths) and write reports, and the name is only in the
 * environment of the processes below the sandbox (docs/SANDBOX.md).
 * Otherwise (no one below can change user: an unprivileged sandbox sets
 * no_new_privs) 0700, 0400, 0600 as before.
 */
/* 32 random hex digits (and a NUL) at @out */
static int random_name(char *out)
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return errno ? errno : EIO;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* TMP/histmac-sandbox.XXXXXX/RANDOM in @dir (TMP/...XXXXXX on entry). */
static int make_dirs(char *dir, bool shared)
{
	mode_t m = shared ? 0711 : 0700;
	size_t n;
	int e = 0;

	if (!mkdtemp(dir))
		return -errno;
	n = strlen(dir);
	if (n + 34 > PATH_MAX)
		e = ENAMETOOLONG;
	else if (chmod(dir, m))	/* mkdtemp's is 0700 */
		e = errno;
	if (!e) {
		dir[n] = '/';
		e = random_name(dir + n + 1);
		/* chmod: mkdir's mode goes through the umask */
		if (!e && (mkdir(dir, 0700) || chmod(dir, m))) {
			e = errno;
			rmdir(dir);
		}
		if (e)
			dir[n] = '\0';
	}
	if (e)
		rmdir(dir);
	return -e;
}

/* rmdir @dir and its parent (the histmac-sandbox.XXXXXX one) */
static void remove_dirs(char *dir)
{
	char *slash;

	rmdir(dir);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		rmdir(dir);
	}
}

/* May everyone search @path and each directory above it?  A user a
 * program below becomes must reach DIR through it. */
static bool searchable(const char *path)
{
	char p[PATH_MAX];
	struct stat st;
	char *slash;

	if (strlen(path) >= sizeof(p))
		return false;
	strcpy(p, path);
	do {
		if (stat(p[0] ? p : "/", &st) || !S_ISDIR(st.st_mode) ||
		    !(st.st_mode & S_IXOTH))
			return false;
		slash = strrchr(p, '/');
		if (slash)
			*slash = '\0';
	} while (slash);
	return true;
}

int hm_sbx_files_make(struct hm_sbx_files *f)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	int r;

	memset(f, 0, sizeof(*f));
	f->shared = permitted(CAP_SETUID, false);
	if (!tmp || tmp[0] != '/' || strchr(tmp, ':') ||
	    (f->shared && !searchable(tmp)))
		tmp = "/tmp";
	if (snprintf(dir, sizeof(dir), "%s/histmac-sandbox.XXXXXX", tmp) >=
	    (int)sizeof(dir))
		return -ENAMETOOLONG;
	r = make_dirs(dir, f->shared);
	if (r)
		return r;
	/* the rules name real paths (apply.c follows no symlink) */
	if (!realpath(dir, f->dir) || strchr(f->dir, ':') ||
	    strlen(f->dir) + sizeof("/" HM_SBX_REPORT_FILE) > sizeof(f->table)) {
		int e = realpath(dir, f->dir) ? ENAMETOOLONG : errno;

		remove_dirs(dir);
		f->dir[0] = '\0';
		return -e;
	}
	strcat(strcpy(f->table, f->dir), "/" HM_SBX_TABLE_FILE);
	strcat(strcpy(f->report, f->dir), "/" HM_SBX_REPORT_FILE);
	if (mkfifo(f->report, 0600) ||
	    chmod(f->report, f->shared ? 0622 : 0600)) {
		int e = errno;

		unlink(f->report);
		remove_dirs(f->dir);
		f->dir[0] = '\0';
		return -e;
	}
	return 0;
}

/* Wait until a change made from now on gets a later ctime than @ts: the
 * preload believes the copy only while its ctime is the one recorded,
 * and a coarse clock could give a change in the same tick the same. */
static void wait_past(const struct timespec *ts)
{
	for (int i = 0; i < 100; i++) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (now.tv_sec > ts->tv_sec ||
		    (now.tv_sec == ts->tv_sec && now.tv_nsec > ts->tv_nsec))
			return;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

int hm_sbx_files_write_table(struct hm_sbx_files *f, const void *blob,
			     size_t size)
{
	int fd = open(f->table, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		      O_NOFOLLOW, 0600);
	struct stat st;
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, blob, size) != (ssize_t)size ||
	    fchmod(fd, f->shared ? 0444 : 0400) || fstat(fd, &st))
		r = errno ? -errno : -EIO;
	close(fd);
	if (r)
		return r;
	f->ino = (uint64_t)st.st_ino;
	f->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 +
		      st.st_ctim.tv_nsec;
	wait_past(&st.st_ctim);
	return 0;
}

void hm_sbx_files_remove(struct hm_sbx_files *f)
{
	if (!f->dir[0])
		return;
	unlink(f->table);
	unlink(f->report);
	remove_dirs(f->dir);
	f->dir[0] = '\0';
}

int hm_sbx_env_value(int fd, bool strict, const struct hm_sbx_files *f,
		     char **out)
{
	if (asprintf(out, "%d:%0*u:%c:%c:%llu:%lld:%s", fd, HM_SBX_DOM_DIGITS,
		     0, HM_SBX_APPLIED, strict ? HM_SBX_MODE_STRICT :
		     HM_SBX_MODE_REPORT, (unsigned long long)f->ino,
		     (long long)f->ctime_ns, f->dir) < 0)
		return -ENOMEM;
	return 0;
}
