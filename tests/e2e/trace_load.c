// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_load.c - what real programs do that a tracer must follow, for
 * t_trace_learn.sh and t_trace_fidelity.sh (histmac learn -- COMMAND):
 *
 *   trace_load thread DIR    a second thread writes DIR/thread, a third
 *                            executes /bin/true (an exec from a thread
 *                            other than the leader)
 *   trace_load spawn DIR     posix_spawn (clone with CLONE_VFORK) of
 *                            /bin/cat DIR/spawned
 *   trace_load failexec DIR  execute DIR/missing (ENOENT), then
 *                            DIR/notexec (EACCES): failed execs
 *   trace_load net DIR       a TCP listener on 127.0.0.1 (port 0: the
 *                            kernel's), a connect to it, its accept, and
 *                            a UDP datagram sent to that port
 *   trace_load die DIR       read DIR/in, then kill itself with SIGTERM
 *
 * Prints nothing on success; exits 1 with a message on the first
 * unexpected failure.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *dir;

static void die(const char *what)
{
	fprintf(stderr, "trace_load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static char *in_dir(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void *writer(void *arg)
{
	int fd = open(in_dir("thread"), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	(void)arg;
	if (fd < 0 || write(fd, "t\n", 2) != 2 || close(fd))
		die("thread write");
	return NULL;
}

static void *executor(void *arg)
{
	char *argv[] = { "true", NULL };

	(void)arg;
	execv("/bin/true", argv);
	die("exec from a thread");
	return NULL;
}

static int thread(void)
{
	pthread_t w, x;

	if (pthread_create(&w, NULL, writer, NULL) ||
	    pthread_join(w, NULL))
		die("thread");
	if (pthread_create(&x, NULL, executor, NULL))
		die("thread");
	pause();	/* the exec ends this */
	return 1;
}

static int spawn(void)
{
	char *argv[] = { "cat", in_dir("spawned"), NULL };
	pid_t pid;
	int st;

	if (posix_spawn(&pid, "/bin/cat", NULL, NULL, argv, environ))
		die("posix_spawn");
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the spawned cat");
	return 0;
}

static int failexec(void)
{
	char *argv[] = { "x", NULL };

	if (execv(in_dir("missing"), argv) == 0 || errno != ENOENT)
		die("exec of a missing file");
	if (execv(in_dir("notexec"), argv) == 0 || errno != EACCES)
		die("exec of a file without x");
	return 0;
}

static int net(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct sockaddr_in peer;
	socklen_t len = sizeof(sa);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	int a;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || c < 0 || u < 0 ||
	    bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sa, &len))
		die("listen");
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	len = sizeof(peer);
	a = accept(l, (struct sockaddr *)&peer, &len);
	if (a < 0)
		die("accept");
	if (sendto(u, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) != 1)
		die("sendto");
	close(a);
	close(c);
	close(l);
	close(u);
	return 0;
}

static int killed(void)
{
	char c;
	int fd = open(in_dir("in"), O_RDONLY);

	if (fd < 0 || read(fd, &c, 1) != 1)
		die("read in");
	kill(getpid(), SIGTERM);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: trace_load STEP DIR\n");
		return 2;
	}
	dir = argv[2];
	if (!strcmp(argv[1], "thread"))
		return thread();
	if (!strcmp(argv[1], "spawn"))
		return spawn();
	if (!strcmp(argv[1], "failexec"))
		return failexec();
	if (!strcmp(argv[1], "net"))
		return net();
	if (!strcmp(argv[1], "die"))
		return killed();
	fprintf(stderr, "trace_load: unknown step %s\n", argv[1]);
	return 2;
}
