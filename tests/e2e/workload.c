// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.c - drive the system calls histmac learns from, so that a real
 * auditd records them.  Used by the collector e2e tests, by
 * tests/data/record.sh (the recorded unit-test snippets) and by
 * bench/bench_collector.sh (the 1 GB log).  Built on the fly by
 * tests/e2e/lib.sh (hm_build_workload); not part of histmac.
 *
 * usage: workload STEP DIR [N]
 * Every path it touches is under DIR.  Steps print nothing on success and
 * exit 1 with a message on the first unexpected failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;

static void die(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *at(const char *name)
{
	static char buf[8][4096];
	static int i;
	char *p = buf[i++ & 7];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

static void wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
}

static void run(const char *prog, char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execv(prog, argv);
		_exit(127);
	}
	wait_child(pid);
}

static void step_exec(void)
{
	char *a1[] = { "echo", "hello", NULL };
	char *a2[] = { "true", "arg with space", "quote\"d", NULL };

	run("/bin/echo", a1);
	run("/usr/bin/true", a2);
}

/* exec through a relative name: CWD /usr/lib, program ../bin/true */
static void step_relexec(void)
{
	pid_t pid = fork();
	char *a[] = { "true", "rel", NULL };

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (chdir("/usr/lib") < 0)
			_exit(1);
		execv("../bin/true", a);
		_exit(127);
	}
	wait_child(pid);
}

static void step_script(void)
{
	const char *s = "#!/bin/sh\nexit 0\n";
	char *a[] = { "script.sh", "x", NULL };
	int fd = open(at("script.sh"), O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (fd < 0 || write(fd, s, strlen(s)) < 0 || close(fd) < 0)
		die("script.sh");
	run(at("script.sh"), a);
}

/* one argument of 12000 bytes: EXECVE splits it into a1[0], a1[1], ... */
static void step_bigargv(void)
{
	static char big[12001];
	char *a[] = { "true", big, "end", NULL };

	memset(big, 'x', sizeof(big) - 1);
	run("/bin/true", a);
}

static void wr(const char *path, int flags)
{
	int fd = open(path, flags, 0640);

	if (fd < 0)
		die(path);
	if ((flags & O_ACCMODE) != O_RDONLY && write(fd, "data\n", 5) < 0)
		die("write");
	close(fd);
}

static void step_file(void)
{
	struct open_how how = { .flags = O_RDONLY };
	long fd;

	wr(at("f"), O_WRONLY | O_CREAT | O_TRUNC);
	wr(at("f"), O_RDONLY);
	wr(at("f"), O_WRONLY | O_APPEND);
	if (rename(at("f"), at("g")) < 0)
		die("rename");
	if (link(at("g"), at("h")) < 0)
		die("link");
	if (unlink(at("h")) < 0)
		die("unlink");
	if (truncate(at("g"), 2) < 0)
		die("truncate");
	if (chmod(at("g"), 0600) < 0)
		die("chmod");
	if (chown(at("g"), 0, 0) < 0)
		die("chown");
	if (mkdir(at("d"), 0750) < 0)
		die("mkdir");
	if (unlinkat(AT_FDCWD, at("d"), AT_REMOVEDIR) < 0)
		die("unlinkat");
	fd = syscall(SYS_creat, at("c"), 0600);
	if (fd < 0)
		die("creat");
	close(fd);
	fd = syscall(SYS_openat2, AT_FDCWD, at("c"), &how, sizeof(how));
	if (fd < 0)
		die("openat2");
	close(fd);
	if (unlink(at("g")) < 0 || unlink(at("c")) < 0)
		die("unlink");
	/* a name that audit hex-encodes, and one that does not exist */
	wr(at("sp ace"), O_WRONLY | O_CREAT | O_TRUNC);
	if (unlink(at("sp ace")) < 0)
		die("unlink");
	if (open(at("missing"), O_RDONLY) >= 0)
		die("missing exists");
}

/* relative names: CWD is DIR, names go through sub/.. */
static void step_relfile(void)
{
	if (chdir(dir) < 0 || mkdir("sub", 0755) < 0)
		die("sub");
	wr("sub/../rel", O_WRONLY | O_CREAT | O_TRUNC);
	wr("./sub//../rel", O_RDONLY);
	if (unlink("rel") < 0 || rmdir("sub") < 0)
		die("rel cleanup");
}

static void step_fifo(void)
{
	if (mkfifo(at("fifo"), 0600) < 0)
		die("mkfifo");
	if (mknod(at("sock"), S_IFSOCK | 0600, 0) < 0)
		die("mknod sock");
	if (mknod(at("null"), S_IFCHR | 0600, makedev(1, 3)) < 0)
		die("mknod chr");
	unlink(at("fifo"));
	unlink(at("sock"));
	unlink(at("null"));
}

static void step_symlink(void)
{
	if (mkdir(at("real"), 0755) < 0)
		die("real");
	if (symlink("target", at("link")) < 0)
		die("symlink");
	if (symlink("real", at("linkdir")) < 0)
		die("symlink dir");
	/* opened through the directory symlink: learned as DIR/real/obj */
	wr(at("linkdir/obj"), O_WRONLY | O_CREAT | O_TRUNC);
}

static void sin_set(struct sockaddr_in *sin, int port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
}

static void step_net(int port)
{
	struct sockaddr_in sin;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int one = 1;
	int srv, cli, acc, u, us;
	pid_t pid;

	srv = socket(AF_INET, SOCK_STREAM, 0);
	if (srv < 0)
		die("socket");
	setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin_set(&sin, port);
	if (bind(srv, (void *)&sin, sizeof(sin)) < 0)
		die("bind");
	if (listen(srv, 4) < 0)
		die("listen");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		cli = socket(AF_INET, SOCK_STREAM, 0);
		if (cli < 0 || connect(cli, (void *)&sin, sizeof(sin)) < 0)
			_exit(1);
		if (write(cli, "x", 1) < 0)
			_exit(1);
		_exit(0);
	}
	acc = accept(srv, NULL, NULL);
	if (acc < 0)
		die("accept");
	wait_child(pid);
	close(acc);
	close(srv);

	u = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sin, port + 1);
	if (u < 0 || sendto(u, "y", 1, 0, (void *)&sin, sizeof(sin)) < 0)
		die("sendto");
	close(u);

	us = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", at("usock"));
	if (us < 0 || bind(us, (void *)&sun, sizeof(sun)) < 0)
		die("bind unix");
	close(us);
	unlink(at("usock"));
}

static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		struct rlimit rl = { 0, 0 };

		setrlimit(RLIMIT_CORE, &rl);
		pause();
		_exit(0);
	}
	return pid;
}

static void step_signal(void)
{
	pid_t pid = sleeper();

	if (kill(pid, SIGTERM) < 0)
		die("kill");
	wait_child(pid);
}

/* a crash: ANOM_ABEND, a one-record event with no end marker */
static void step_crash(void)
{
	pid_t pid = sleeper();

	if (kill(pid, SIGSEGV) < 0)
		die("kill");
	wait_child(pid);
}

static void in_child_ns(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(1);
		fn();
		_exit(0);
	}
	wait_child(pid);
}

static void do_mount(void)
{
	mkdir(at("mnt"), 0755);
	if (mount("hmtmp", at("mnt"), "tmpfs", MS_NOSUID | MS_NODEV,
		  "size=1m") < 0)
		_exit(1);
	if (umount2(at("mnt"), 0) < 0)
		_exit(1);
}

static void do_pivot(void)
{
	mkdir(at("newroot"), 0755);
	if (mount("hmroot", at("newroot"), "tmpfs", 0, "size=1m") < 0)
		_exit(1);
	mkdir(at("newroot/old"), 0755);
	syscall(SYS_pivot_root, at("newroot"), at("newroot/old"));
}

static void do_chroot(void)
{
	if (chroot(dir) < 0)
		_exit(1);
}

static void step_mount(void)
{
	in_child_ns(do_mount);
	in_child_ns(do_pivot);
	in_child_ns(do_chroot);
}

/*
 * Many cheap events for the benchmark log: per round some opens, a
 * create/unlink, a failed connect; an exec every 50 rounds and, with
 * crash_every, one crash every crash_every rounds.
 */
static void step_bulk(long n, long crash_every)
{
	struct sockaddr_in sin;
	char *a[] = { "true", "bulk", NULL };

	sin_set(&sin, 9);
	for (long i = 0; i < n; i++) {
		int s;

		wr("/etc/passwd", O_RDONLY);
		wr("/etc/hostname", O_RDONLY);
		wr(at("bulk.tmp"), O_WRONLY | O_CREAT | O_TRUNC);
		wr(at("bulk.tmp"), O_RDONLY);
		unlink(at("bulk.tmp"));
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s >= 0) {
			connect(s, (void *)&sin, sizeof(sin));
			close(s);
		}
		if (i % 50 == 0)
			run("/bin/true", a);
		if (crash_every && i % crash_every == crash_every - 1)
			step_crash();
	}
}

/*
 * A daemon: the middle process forks the daemon and exits; the daemon
 * waits until it has been given to its reaper (init, or this process when
 * @reaper), then execs /usr/bin/true.  Returns when the exec is done (the
 * close-on-exec pipe reaches EOF).
 */
static void step_daemon(int reaper)
{
	int fd[2];
	char c;
	pid_t mid;

	if (reaper && prctl(PR_SET_CHILD_SUBREAPER, 1))
		die("PR_SET_CHILD_SUBREAPER");
	if (pipe2(fd, O_CLOEXEC))
		die("pipe2");
	mid = fork();
	if (mid < 0)
		die("fork");
	if (mid == 0) {
		pid_t self = getpid();
		pid_t d = fork();

		if (d < 0)
			die("fork");
		if (d == 0) {
			close(fd[0]);
			while (getppid() == self)
				usleep(1000);
			execl("/usr/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	close(fd[1]);
	wait_child(mid);
	while (read(fd[0], &c, 1) < 0)
		if (errno != EINTR)
			die("read");
	if (reaper)
		while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * A service: listen on 127.0.0.1:@port, create DIR/ready, answer one HTTP
 * request; then, when @out_port, connect to 127.0.0.1:@out_port without
 * blocking (EINPROGRESS, or ECONNREFUSED when refused at once).
 */
static void step_serve(int port, int out_port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	static const char reply[] = "HTTP/1.0 200 OK\r\nContent-Length: 3"
				    "\r\n\r\nhi\n";
	char buf[4096];
	int one = 1;
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int c;

	if (s < 0)
		die("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	a.sin_port = htons((uint16_t)port);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 4))
		die("bind/listen");
	c = creat(at("ready"), 0644);
	if (c < 0)
		die("creat ready");
	close(c);
	c = accept(s, NULL, NULL);
	if (c < 0)
		die("accept");
	if (read(c, buf, sizeof(buf)) < 0 ||
	    write(c, reply, sizeof(reply) - 1) < 0)
		die("read/write");
	close(c);
	close(s);
	if (!out_port)
		return;
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (s < 0)
		die("socket");
	a.sin_port = htons((uint16_t)out_port);
	if (!connect(s, (struct sockaddr *)&a, sizeof(a)) ||
	    (errno != EINPROGRESS && errno != ECONNREFUSED))
		die("non-blocking connect");
	close(s);
}

int main(int argc, char **argv)
{
	const char *step;

	if (argc < 3) {
		fprintf(stderr, "usage: workload STEP DIR [N [CRASH_EVERY]]\n");
		return 2;
	}
	step = argv[1];
	dir = argv[2];
	if (!strcmp(step, "exec"))
		step_exec();
	else if (!strcmp(step, "relexec"))
		step_relexec();
	else if (!strcmp(step, "script"))
		step_script();
	else if (!strcmp(step, "bigargv"))
		step_bigargv();
	else if (!strcmp(step, "file"))
		step_file();
	else if (!strcmp(step, "relfile"))
		step_relfile();
	else if (!strcmp(step, "fifo"))
		step_fifo();
	else if (!strcmp(step, "symlink"))
		step_symlink();
	else if (!strcmp(step, "net"))
		step_net(argc > 3 ? atoi(argv[3]) : 47000);
	else if (!strcmp(step, "signal"))
		step_signal();
	else if (!strcmp(step, "crash"))
		step_crash();
	else if (!strcmp(step, "mount"))
		step_mount();
	else if (!strcmp(step, "daemon"))
		step_daemon(argc > 3 && !strcmp(argv[3], "reaper"));
	else if (!strcmp(step, "serve"))
		step_serve(argc > 3 ? atoi(argv[3]) : 47000,
			   argc > 4 ? atoi(argv[4]) : 0);
	else if (!strcmp(step, "bulk"))
		step_bulk(argc > 3 ? atol(argv[3]) : 1000,
			  argc > 4 ? atol(argv[4]) : 0);
	else {
		fprintf(stderr, "workload: unknown step %s\n", step);
		return 2;
	}
	return 0;
}
