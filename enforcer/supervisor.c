// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * supervisor.c - TOMOYO's query supervisor in user space.  With
 * --supervisor SOCKET, an enforcing-mode violation is held (the process
 * keeps waiting in open/execve) and shown to the connected `histmac
 * query` client as the domain and the ACL line that would allow it; the
 * administrator grants it once, grants and learns it, or rejects it.  No
 * answer before --query-timeout, a client that goes away, or a client
 * that does not read: reject.  No client connected: no waiting at all.
 *
 * Protocol (lines, one client at a time, root only):
 *   server: "HELLO histmac-supervisor 1"
 *   server: "QUERY <id> <pid> <execute|open>\t<domain>\t<acl line>"
 *   client: "<id> grant|learn|reject"
 *   server: "DONE <id> grant|learned|reject|timeout"
 * Owns the sockets and the held queries.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "enforcer_private.h"

#define MAX_HELD 64

struct hm_super {
	struct hm_super_env env;
	int lfd;
	int cfd;
	char *path;
	char in[4096];
	size_t in_len;
	struct hm_held *held[MAX_HELD];
	size_t n_held;
	uint32_t next_id;
};

/**
 * hm_held_free() - free a held query and what it holds.
 * @h: may be NULL.
 */
void hm_held_free(struct hm_held *h)
{
	if (!h)
		return;
	free(h->domain);
	free(h->path);
	free(h->raw);
	free(h->acl);
	free(h);
}

/**
 * hm_super_open() - listen on @path (root only, mode 0600).
 * @path: the socket's path; a socket left there is replaced.
 * @env: what answers go through; copied, its pointers borrowed.
 * @out: caller frees with hm_super_close().
 * Returns: 0 or -errno.
 */
int hm_super_open(const char *path, const struct hm_super_env *env,
		  struct hm_super **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct hm_super *s;
	struct stat st;
	mode_t old;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->env = *env;
	s->cfd = -1;
	s->path = strdup(path);
	strcpy(sa.sun_path, path);
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);		/* left by a crashed daemon */
	s->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (!s->path || s->lfd < 0)
		goto fail;
	old = umask(077);
	r = bind(s->lfd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0 || chmod(path, 0600) < 0 || listen(s->lfd, 4) < 0)
		goto fail;
	hm_log("supervisor listening on %s", path);
	*out = s;
	return 0;
fail:
	r = -errno;
	if (s->lfd >= 0)
		close(s->lfd);
	free(s->path);
	free(s);
	return r;
}

static void send_line(struct hm_super *s, const char *fmt, ...)
	HM_PRINTF(2, 3);

static void drop_client(struct hm_super *s, const char *why);

static void send_line(struct hm_super *s, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n;

	if (s->cfd < 0)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		drop_client(s, "out of memory");
		return;
	}
	/* a client that does not read is as good as gone */
	if (send(s->cfd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) != n)
		drop_client(s, "not reading");
	free(line);
}

/* Answer held query @i and forget it. */
static void answer(struct hm_super *s, size_t i, enum hm_decision_result res)
{
	const struct hm_super_env *env = &s->env;
	struct hm_held *h = s->held[i];
	bool allow = res == HM_DECISION_GRANT || res == HM_DECISION_LEARNED;
	struct hm_name nm = { .str = h->path, .len = (uint32_t)strlen(h->path) };

	s->held[i] = s->held[--s->n_held];
	hm_name_fill(&nm);
	if (allow && h->exec) {
		int fd = hm_answers_fd(env->ans, h->ref);

		if (fd >= 0 && hm_procs_judged(env->procs, h->pid, h->path, fd,
					       h->key.dev, h->key.ino, false))
			env->c->internal_errors++;
	}
	hm_answers_finish(env->ans, h->ref, allow, true);
	switch (res) {
	case HM_DECISION_GRANT:
		env->c->granted++;
		break;
	case HM_DECISION_LEARNED:
		env->c->granted_learned++;
		if (hm_live_learn(env->live, h->tdomain, h->perm, &nm, NULL) < 0)
			env->c->internal_errors++;
		break;
	case HM_DECISION_TIMEOUT:
		env->c->query_timeouts++;
		break;
	default:
		env->c->rejected++;
		break;
	}
	send_line(s, "DONE %u %s\n", h->id, hm_decision_result_names[res]);
	hm_log("supervisor %s pid=%d domain=\"%s\" %s",
	       hm_decision_result_names[res], h->pid, h->domain, h->acl);
	if (hm_log_decision(env->audit_fd, res, h->perm, h->pid, h->profile,
			    h->tdomain, h->raw, h->raw_len))
		env->c->audit_failures++;
	hm_held_free(h);
}

static void release(struct hm_super *s, enum hm_decision_result res)
{
	while (s->n_held)
		answer(s, s->n_held - 1, res);
}

static void drop_client(struct hm_super *s, const char *why)
{
	if (s->cfd < 0)
		return;
	close(s->cfd);
	s->cfd = -1;
	s->in_len = 0;
	s->env.c->client_lost++;
	hm_log("supervisor client gone (%s): %zu held quer%s rejected", why,
	       s->n_held, s->n_held == 1 ? "y" : "ies");
	release(s, HM_DECISION_REJECT);
}

/**
 * hm_super_close() - reject every held query, close the sockets, remove
 * the socket file and free.
 * @s: may be NULL.
 */
void hm_super_close(struct hm_super *s)
{
	if (!s)
		return;
	release(s, HM_DECISION_REJECT);
	if (s->cfd >= 0)
		close(s->cfd);
	close(s->lfd);
	unlink(s->path);
	free(s->path);
	free(s);
}

/**
 * hm_super_pollfds() - the supervisor's fds for the daemon's poll set.
 * @s: may be NULL (none).
 * @out: room for two: the listening socket, the client if connected.
 * Returns: how many were filled in.
 */
size_t hm_super_pollfds(const struct hm_super *s, struct pollfd *out)
{
	size_t n = 0;

	if (!s)
		return 0;
	out[n++] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
	if (s->cfd >= 0)
		out[n++] = (struct pollfd){ .fd = s->cfd, .events = POLLIN };
	return n;
}

/**
 * hm_super_connected() - is a client there to ask?
 * @s: may be NULL.
 * Returns: true when connected.
 */
bool hm_super_connected(const struct hm_super *s)
{
	return s && s->cfd >= 0;
}

static void on_accept(struct hm_super *s)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0 ||
	    cr.uid != 0) {
		(void)!write(fd, "ERR root only\n", 14);
		close(fd);
		return;
	}
	if (s->cfd >= 0) {
		(void)!write(fd, "ERR busy: another supervisor is connected\n",
			     42);
		close(fd);
		return;
	}
	s->cfd = fd;
	hm_log("supervisor client connected (pid %d)", cr.pid);
	send_line(s, "HELLO histmac-supervisor 1\n");
}

static void on_line(struct hm_super *s, char *line)
{
	char verb[16];
	unsigned id;

	if (sscanf(line, "%u %15s", &id, verb) != 2) {
		send_line(s, "ERR bad line\n");
		return;
	}
	for (size_t i = 0; i < s->n_held; i++) {
		if (s->held[i]->id != id)
			continue;
		if (!strcmp(verb, "grant"))
			answer(s, i, HM_DECISION_GRANT);
		else if (!strcmp(verb, "learn"))
			answer(s, i, HM_DECISION_LEARNED);
		else if (!strcmp(verb, "reject"))
			answer(s, i, HM_DECISION_REJECT);
		else
			send_line(s, "ERR unknown answer '%s'\n", verb);
		return;
	}
	send_line(s, "ERR no query %u (answered or timed out)\n", id);
}

static void on_client(struct hm_super *s)
{
	ssize_t n = read(s->cfd, s->in + s->in_len,
			 sizeof(s->in) - 1 - s->in_len);
	char *nl;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		drop_client(s, n ? strerror(errno) : "closed");
		return;
	}
	if (n < 0)
		return;
	s->in_len += (size_t)n;
	s->in[s->in_len] = '\0';
	while (s->cfd >= 0 && (nl = strchr(s->in, '\n'))) {
		size_t used = (size_t)(nl - s->in) + 1;

		*nl = '\0';
		on_line(s, s->in);
		memmove(s->in, s->in + used, s->in_len - used + 1);
		s->in_len -= used;
	}
	if (s->in_len == sizeof(s->in) - 1)
		drop_client(s, "line too long");
}

/**
 * hm_super_ready() - one of hm_super_pollfds()'s fds is ready.
 * @s: may be NULL.
 * @fd: which.
 * @revents: what poll() said.
 */
void hm_super_ready(struct hm_super *s, int fd, short revents)
{
	if (!s)
		return;
	if (fd == s->lfd)
		on_accept(s);
	else if (fd == s->cfd && (revents & (POLLIN | POLLHUP | POLLERR)))
		on_client(s);
}

/**
 * hm_super_ask() - hold an enforcing violation and ask the client.
 * @s: may be NULL.
 * @h: the query; taken when held.
 * Returns: true when held (or already rejected: the client dropped while
 * it was asked), false when not (no client, too many held).
 */
bool hm_super_ask(struct hm_super *s, struct hm_held *h)
{
	if (!hm_super_connected(s) || s->n_held == MAX_HELD)
		return false;
	h->id = ++s->next_id;
	h->deadline_ns = hm_now_ns() +
			 (uint64_t)s->env.query_timeout_ms * 1000000ull;
	hm_answers_hold(s->env.ans, h->ref, h->deadline_ns);
	s->held[s->n_held++] = h;
	send_line(s, "QUERY %u %d %s\t%s\t%s\n", h->id, h->pid,
		  h->exec ? "execute" : "open", h->domain, h->acl);
	if (s->cfd < 0)
		return true;	/* dropped while sending: already rejected */
	hm_log("held pid=%d domain=\"%s\" %s (query %u)", h->pid, h->domain,
	       h->acl, h->id);
	return true;
}

/**
 * hm_super_timeout() - how long poll() may sleep for the supervisor.
 * @s: may be NULL.
 * @now: hm_now_ns().
 * Returns: ms until the next query deadline, or -1 (none).
 */
int hm_super_timeout(const struct hm_super *s, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	if (!s || !s->n_held)
		return -1;
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i]->deadline_ns < next)
			next = s->held[i]->deadline_ns;
	return next <= now ? 0 : (int)((next - now) / 1000000 + 1);
}

/**
 * hm_super_expire() - reject (as timeouts) the queries past deadline.
 * @s: may be NULL.
 * @now: hm_now_ns().
 */
void hm_super_expire(struct hm_super *s, uint64_t now)
{
	for (size_t i = 0; s && i < s->n_held;)
		if (s->held[i]->deadline_ns <= now)
			answer(s, i, HM_DECISION_TIMEOUT);
		else
			i++;
}
