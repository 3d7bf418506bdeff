// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_query.c - histmac query: the administrator's side of the enforcer's
 * supervisor (TOMOYO's tomoyo-queryd).  Shows each held violation as the
 * domain and the ACL line that would allow it, and sends back grant once,
 * grant and learn, or reject - typed at the prompt, or given once for all
 * with --answer (scripts, tests).  Protocol: enforcer/supervisor.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define CMD "query"

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac query -S SOCKET [--answer grant|learn|reject] [--count N]\n"
"\n"
"Connect to the supervisor socket of `histmac enforce --supervisor SOCKET`\n"
"and answer the violations it holds: the process waits in open() or\n"
"execve() until you answer, or until the enforcer's --query-timeout.\n"
"Each query shows the domain and the ACL line that would allow it:\n"
"  g  grant once            l  grant and learn (added to the policy)\n"
"  r  reject (EPERM)\n"
"\n"
"  -S, --socket SOCKET   the supervisor socket (root only)\n"
"      --answer A        answer every query with A, no prompt\n"
"      --count N         exit after N queries were answered\n"
"      --timeout SEC     exit with status 1 if N queries were not answered\n"
"                        within SEC seconds\n"
"  -h, --help            this text\n"
"\n"
"Exit: 0 done (the enforcer closed the socket, or N queries answered),\n"
"1 timeout, 2 usage, 3 cannot connect.\n");
}

struct query {
	const char *socket;
	const char *answer;	/* NULL: ask on stdin */
	unsigned long count;	/* 0: until the enforcer goes */
	unsigned long timeout;	/* seconds, 0: none */
	unsigned long answered;
	int fd;
	char in[8192];
	size_t in_len;
};

static const struct option options[] = {
	{ "socket", required_argument, NULL, 'S' },
	{ "answer", required_argument, NULL, 'a' },
	{ "count", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *verb_of(const char *s)
{
	if (!strcmp(s, "g") || !strcmp(s, "grant"))
		return "grant";
	if (!strcmp(s, "l") || !strcmp(s, "learn"))
		return "learn";
	if (!strcmp(s, "r") || !strcmp(s, "reject"))
		return "reject";
	return NULL;
}

static int parse_args(struct query *Q, int argc, char **argv)
{
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "S:h", options, NULL)) != -1) {
		switch (c) {
		case 'S': Q->socket = optarg; break;
		case 'a':
			Q->answer = verb_of(optarg);
			if (!Q->answer)
				return hm_cli_usage_error(CMD, "--answer grant, "
							  "learn or reject");
			break;
		case 'n':
			if (hm_cli_parse_u64(optarg, 1u << 30, &v) || !v)
				return hm_cli_usage_error(CMD, "bad --count");
			Q->count = (unsigned long)v;
			break;
		case 't':
			if (hm_cli_parse_u64(optarg, 86400, &v) || !v)
				return hm_cli_usage_error(CMD, "bad --timeout");
			Q->timeout = (unsigned long)v;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected '%s'", argv[optind]);
	if (!Q->socket)
		return hm_cli_usage_error(CMD, "-S SOCKET is required");
	return 0;
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

static int send_answer(struct query *Q, unsigned id, const char *verb)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "%u %s\n", id, verb);

	if (write(Q->fd, line, (size_t)n) != n) {
		warn("%s: sending the answer", CMD);
		return -1;
	}
	return 0;
}

/* Ask on stdin until a valid answer comes; NULL at end of input. */
static const char *prompt(void)
{
	char buf[64];

	for (;;) {
		const char *v;

		printf("  [g]rant once, grant and [l]earn, [r]eject? ");
		fflush(stdout);
		if (!fgets(buf, sizeof(buf), stdin))
			return NULL;
		buf[strcspn(buf, "\r\n")] = '\0';
		v = verb_of(buf);
		if (v)
			return v;
	}
}

static int on_query(struct query *Q, char *line)
{
	unsigned id;
	int pid, off = 0;
	char kind[16];
	char *domain, *acl;
	const char *verb;

	if (sscanf(line, "QUERY %u %d %15s%n", &id, &pid, kind, &off) != 3 ||
	    line[off] != '\t')
		return 0;
	domain = line + off + 1;
	acl = strchr(domain, '\t');
	if (!acl)
		return 0;
	*acl++ = '\0';
	printf("query %u: pid %d %s\n  domain: %s\n  acl:    %s\n", id, pid,
	       kind, domain, acl);
	verb = Q->answer ? Q->answer : prompt();
	if (!verb)
		verb = "reject";
	if (Q->answer)
		printf("  answer: %s\n", verb);
	fflush(stdout);
	return send_answer(Q, id, verb);
}

static int on_line(struct query *Q, char *line)
{
	if (!strncmp(line, "QUERY ", 6))
		return on_query(Q, line);
	if (!strncmp(line, "DONE ", 5)) {
		printf("%s\n", line);
		fflush(stdout);
		Q->answered++;
		return 0;
	}
	if (!strncmp(line, "ERR ", 4)) {
		warnx("%s: enforcer says: %s", CMD, line + 4);
		return 0;
	}
	return 0;	/* HELLO and anything newer */
}

static int run(struct query *Q)
{
	time_t end = Q->timeout ? time(NULL) + (time_t)Q->timeout : 0;

	while (!Q->count || Q->answered < Q->count) {
		struct pollfd p = { .fd = Q->fd, .events = POLLIN };
		int ms = end ? (int)(end - time(NULL)) * 1000 : -1;
		ssize_t n;
		char *nl;

		if (end && ms <= 0)
			return HM_EXIT_FINDINGS;
		if (poll(&p, 1, ms) < 0) {
			if (errno == EINTR)
				continue;
			return HM_EXIT_FAIL;
		}
		if (!p.revents)
			continue;
		n = read(Q->fd, Q->in + Q->in_len, sizeof(Q->in) - 1 - Q->in_len);
		if (n <= 0)
			return Q->count ? HM_EXIT_FINDINGS : HM_EXIT_OK;
		Q->in_len += (size_t)n;
		Q->in[Q->in_len] = '\0';
		while ((nl = strchr(Q->in, '\n'))) {
			size_t used = (size_t)(nl - Q->in) + 1;

			*nl = '\0';
			if (on_line(Q, Q->in))
				return HM_EXIT_FAIL;
			memmove(Q->in, Q->in + used, Q->in_len - used + 1);
			Q->in_len -= used;
		}
		if (Q->in_len == sizeof(Q->in) - 1)
			Q->in_len = 0;	/* an overlong line: drop it */
	}
	return HM_EXIT_OK;
}

HM_CMD(query)
{
	struct query Q = { .fd = -1 };
	int status = parse_args(&Q, argc, argv);

	if (status)
		return status < 0 ? HM_EXIT_OK : status;
	Q.fd = connect_to(Q.socket);
	if (Q.fd < 0) {
		warnx("%s: %s: %s", CMD, Q.socket, strerror(-Q.fd));
		return HM_EXIT_FAIL;
	}
	status = run(&Q);
	close(Q.fd);
	return status;
}
