// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_sbx.c - latency of the three things a sandbox is in the way of,
 * for bench/bench_sandbox.sh: each call timed alone, one line printed:
 *   op=OP n=N p50_ns=A p99_ns=B fail=F
 * usage: bench_sbx [--floor ABI[:notrunc][:rules][:tty]] OP N ARG...
 *        bench_sbx open N FILE...    open+close, files round robin
 *        bench_sbx exec N PROG       fork, execve PROG noop, wait
 *        bench_sbx connect N PORT    TCP connect to 127.0.0.1:PORT, close
 *        bench_sbx noop              exit 0 (what exec runs)
 * Runs in the domain under test itself: no wrapper in front of it.
 *
 * --floor: first restrict itself with Landlock's smallest ruleset for the
 * operation, handling what `histmac sandbox` handles at that ABI (file
 * rights, all but device ioctl, and truncate unless ":notrunc"; TCP
 * ports from ABI 4; signal and abstract unix scoping from ABI 6) with one
 * rule: read on the files' deepest common directory (open), execute and
 * read on "/" (exec: the program and its libraries), the port (connect).
 * What the sandbox costs beyond that is its own.  To tell where that
 * goes, two more parts of the spec ABI[:notrunc][:rules][:tty]:
 *   :rules  open: one read rule per file instead (the ruleset a learned
 *           domain of those files needs, applied by Landlock alone)
 *   :tty    also the sandbox's seccomp filter on terminal ioctls
 *           (hm_sbx_tty_filter()), which every system call then passes
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "histmac/sandbox.h"
#include "../sandbox/internal.h"
#include "../sandbox/landlock_abi.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int do_open(char **files, int nf, long i)
{
	int fd = open(files[i % nf], O_RDONLY);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int do_exec(const char *prog)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		execl(prog, prog, "noop", (char *)NULL);
		_exit(127);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static int do_connect(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int r;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0)
		return -1;
	r = connect(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	return r;
}

static int add_path_rule(int rfd, const char *path, uint64_t access)
{
	struct hm_ll_path_beneath_attr pb;
	int fd = open(path, O_PATH | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	pb.allowed_access = access;
	pb.parent_fd = fd;
	r = (int)syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_PATH_BENEATH, &pb, 0);
	close(fd);
	return r;
}

/* The deepest directory holding every one of @files (@n >= 1) in @dir. */
static void common_dir(char **files, int n, char *dir, size_t cap)
{
	char *slash;
	size_t len;

	snprintf(dir, cap, "%s", files[0]);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	len = strlen(dir);
	for (int i = 1; i < n; i++)
		while (len && (strncmp(files[i], dir, len) ||
			       files[i][len] != '/')) {
			slash = strrchr(dir, '/');
			len = (size_t)(slash - dir);
			*slash = '\0';
		}
	if (!dir[0])
		strcpy(dir, "/");
}

/* One @access rule on each of @files. */
static int add_path_rules(int rfd, char **files, int n, uint64_t access)
{
	for (int i = 0; i < n; i++)
		if (add_path_rule(rfd, files[i], access))
			return -1;
	return 0;
}

/* The floor ruleset (see the top) for @op with its @args; @spec
 * "ABI[:notrunc][:rules][:tty]". */
static int floor_restrict(const char *spec, const char *op, char **args,
			  int n_args)
{
	const char *arg = args[0];
	int abi = atoi(spec);
	struct hm_ll_ruleset_attr attr = { 0 };
	struct hm_ll_net_port_attr np = { HM_LL_NET_CONNECT_TCP, 0 };
	char dir[4096];
	int rfd, r = 0;

	/* the rights of ABI 1..abi: bits 0-12, refer (2), truncate (3) */
	attr.handled_access_fs = (1ULL << (abi >= 3 ? 15 : abi >= 2 ? 14 : 13)) - 1;
	if (strstr(spec, ":notrunc"))
		attr.handled_access_fs &= ~(uint64_t)HM_LL_FS_TRUNCATE;
	if (abi >= 4)
		attr.handled_access_net = HM_LL_NET_BIND_TCP | HM_LL_NET_CONNECT_TCP;
	if (abi >= 6)
		attr.scoped = HM_LL_SCOPE_SIGNAL | HM_LL_SCOPE_ABSTRACT_UNIX;
	rfd = (int)syscall(HM_LL_SYS_CREATE_RULESET, &attr,
			   abi >= 6 ? sizeof(attr) : abi >= 4 ? 16 : 8, 0);
	if (rfd < 0)
		return -1;
	if (!strcmp(op, "open") && strstr(spec, ":rules")) {
		r = add_path_rules(rfd, args, n_args, HM_LL_FS_READ_FILE);
	} else if (!strcmp(op, "open")) {
		common_dir(args, n_args, dir, sizeof(dir));
		r = add_path_rule(rfd, dir, HM_LL_FS_READ_FILE);
	} else if (!strcmp(op, "exec")) {
		r = add_path_rule(rfd, "/", HM_LL_FS_EXECUTE | HM_LL_FS_READ_FILE);
	} else if (abi >= 4) {
		np.port = (uint64_t)atoi(arg);
		r = (int)syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_NET_PORT,
				 &np, 0);
	}
	if (!r)
		r = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (!r && strstr(spec, ":tty"))
		r = hm_sbx_tty_filter();
	if (!r)
		r = (int)syscall(HM_LL_SYS_RESTRICT_SELF, rfd, abi >= 7 ?
				 HM_LL_RESTRICT_LOG_NEW_EXEC_ON : 0);
	close(rfd);
	return r;
}

int main(int argc, char **argv)
{
	long n, fail = 0;
	uint64_t *lat;

	if (argc == 2 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc >= 6 && !strcmp(argv[1], "--floor")) {
		if (floor_restrict(argv[2], argv[3], argv + 5, argc - 5)) {
			perror("bench_sbx: floor ruleset");
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: bench_sbx "
			"[--floor ABI[:notrunc][:rules][:tty]] "
			"open|exec|connect N ARG...\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 10);
	lat = n > 0 ? malloc((size_t)n * sizeof(*lat)) : NULL;
	if (!lat)
		return 2;
	for (long i = -n / 20; i < n; i++) {	/* 5% warm-up */
		uint64_t a = now_ns();
		int r;

		if (!strcmp(argv[1], "open"))
			r = do_open(argv + 3, argc - 3, i < 0 ? -i : i);
		else if (!strcmp(argv[1], "exec"))
			r = do_exec(argv[3]);
		else
			r = do_connect(atoi(argv[3]));
		if (i < 0)
			continue;
		fail += r != 0;
		lat[i] = now_ns() - a;
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp);
	printf("op=%s n=%ld p50_ns=%llu p99_ns=%llu fail=%ld\n", argv[1], n,
	       (unsigned long long)lat[n / 2],
	       (unsigned long long)lat[n * 99 / 100], fail);
	free(lat);
	return fail ? 1 : 0;
}
