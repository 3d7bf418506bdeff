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

#include "enforcer.h"

#define MAX_HELD 64

struct hm_super {
	int lfd;
	int cfd;
	char *path;
	char in[4096];
	size_t in_len;
	struct hm_held *held[MAX_HELD];
	size_t n_held;
	uint32_t next_id;
};

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

int hm_super_open(struct hm_enforcer *E, const char *path,
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
	r = hm_enf_watch(E, s->lfd);
	if (r) {
		errno = -r;
		goto fail;
	}
	hm_enf_log(E, "supervisor listening on %s", path);
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

static void send_line(struct hm_enforcer *E, struct hm_super *s,
		      const char *fmt, ...) HM_PRINTF(3, 4);

static void drop_client(struct hm_enforcer *E, struct hm_super *s,
			const char *why);

static void send_line(struct hm_enforcer *E, struct hm_super *s,
		      const char *fmt, ...)
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
		drop_client(E, s, "out of memory");
		return;
	}
	/* a client that does not read is as good as gone */
	if (send(s->cfd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) != n)
		drop_client(E, s, "not reading");
	free(line);
}

/* Answer held query @i and forget it. */
static void answer(struct hm_enforcer *E, size_t i,
		   enum hm_decision_result res)
{
	struct hm_super *s = E->sup;
	struct hm_held *h = s->held[i];
	bool allow = res == HM_DECISION_GRANT || res == HM_DECISION_LEARNED;
	struct hm_name nm = { .str = h->path, .len = (uint32_t)strlen(h->path) };

	s->held[i] = s->held[--s->n_held];
	hm_name_fill(&nm);
	if (allow && h->exec) {
		int fd = hm_answers_fd(E->ans, h->ref);

		if (fd >= 0)
			hm_enf_pending_set(E, h->pid, h->path, fd, h->key.dev,
					   h->key.ino);
	}
	hm_answers_finish(E->ans, h->ref, allow, true);
	switch (res) {
	case HM_DECISION_GRANT:
		E->c.granted++;
		break;
	case HM_DECISION_LEARNED:
		E->c.granted_learned++;
		if (hm_enf_learn(E, h->tdomain, h->perm, &nm, NULL) < 0)
			E->c.internal_errors++;
		break;
	case HM_DECISION_TIMEOUT:
		E->c.query_timeouts++;
		break;
	default:
		E->c.rejected++;
		break;
	}
	send_line(E, s, "DONE %u %s\n", h->id, hm_decision_result_names[res]);
	hm_enf_log(E, "supervisor %s pid=%d domain=\"%s\" %s",
		   hm_decision_result_names[res], h->pid, h->domain, h->acl);
	hm_enf_audit(E, res, h->perm, h->pid, h->profile, h->tdomain, h->raw,
		     h->raw_len);
	hm_held_free(h);
}

static void release(struct hm_enforcer *E, enum hm_decision_result res)
{
	while (E->sup && E->sup->n_held)
		answer(E, E->sup->n_held - 1, res);
}

static void drop_client(struct hm_enforcer *E, struct hm_super *s,
			const char *why)
{
	if (s->cfd < 0)
		return;
	hm_enf_unwatch(E, s->cfd);
	close(s->cfd);
	s->cfd = -1;
	s->in_len = 0;
	E->c.client_lost++;
	hm_enf_log(E, "supervisor client gone (%s): %zu held quer%s "
		   "rejected", why, s->n_held, s->n_held == 1 ? "y" : "ies");
	release(E, HM_DECISION_REJECT);
}

void hm_super_close(struct hm_enforcer *E, struct hm_super *s)
{
	if (!s)
		return;
	release(E, HM_DECISION_REJECT);
	if (s->cfd >= 0) {
		hm_enf_unwatch(E, s->cfd);
		close(s->cfd);
	}
	hm_enf_unwatch(E, s->lfd);
	close(s->lfd);
	unlink(s->path);
	free(s->path);
	free(s);
	E->sup = NULL;
}

bool hm_super_connected(const struct hm_super *s)
{
	return s && s->cfd >= 0;
}

static void on_accept(struct hm_enforcer *E, struct hm_super *s)
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
	if (hm_enf_watch(E, fd)) {
		close(fd);
		return;
	}
	s->cfd = fd;
	hm_enf_log(E, "supervisor client connected (pid %d)", cr.pid);
	send_line(E, s, "HELLO histmac-supervisor 1\n");
}

static void on_line(struct hm_enforcer *E, struct hm_super *s, char *line)
{
	char verb[16];
	unsigned id;

	if (sscanf(line, "%u %15s", &id, verb) != 2) {
		send_line(E, s, "ERR bad line\n");
		return;
	}
	for (size_t i = 0; i < s->n_held; i++) {
		if (s->held[i]->id != id)
			continue;
		if (!strcmp(verb, "grant"))
			answer(E, i, HM_DECISION_GRANT);
		else if (!strcmp(verb, "learn"))
			answer(E, i, HM_DECISION_LEARNED);
		else if (!strcmp(verb, "reject"))
			answer(E, i, HM_DECISION_REJECT);
		else
			send_line(E, s, "ERR unknown answer '%s'\n", verb);
		return;
	}
	send_line(E, s, "ERR no query %u (answered or timed out)\n", id);
}

static void on_client(struct hm_enforcer *E, struct hm_super *s)
{
	ssize_t n = read(s->cfd, s->in + s->in_len,
			 sizeof(s->in) - 1 - s->in_len);
	char *nl;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		drop_client(E, s, n ? strerror(errno) : "closed");
		return;
	}
	if (n < 0)
		return;
	s->in_len += (size_t)n;
	s->in[s->in_len] = '\0';
	while (s->cfd >= 0 && (nl = strchr(s->in, '\n'))) {
		size_t used = (size_t)(nl - s->in) + 1;

		*nl = '\0';
		on_line(E, s, s->in);
		memmove(s->in, s->in + used, s->in_len - used + 1);
		s->in_len -= used;
	}
	if (s->in_len == sizeof(s->in) - 1)
		drop_client(E, s, "line too long");
}

void hm_super_ready(struct hm_enforcer *E, int fd, short revents)
{
	struct hm_super *s = E->sup;

	if (!s)
		return;
	if (fd == s->lfd)
		on_accept(E, s);
	else if (fd == s->cfd && (revents & (POLLIN | POLLHUP | POLLERR)))
		on_client(E, s);
}

bool hm_super_ask(struct hm_enforcer *E, struct hm_held *h)
{
	struct hm_super *s = E->sup;

	if (!hm_super_connected(s) || s->n_held == MAX_HELD)
		return false;
	h->id = ++s->next_id;
	h->deadline_ns = hm_now_ns() +
			 (uint64_t)E->o.query_timeout_ms * 1000000ull;
	hm_answers_hold(E->ans, h->ref, h->deadline_ns);
	s->held[s->n_held++] = h;
	send_line(E, s, "QUERY %u %d %s\t%s\t%s\n", h->id, h->pid,
		  h->exec ? "execute" : "open", h->domain, h->acl);
	if (s->cfd < 0)
		return true;	/* dropped while sending: already rejected */
	hm_enf_log(E, "held pid=%d domain=\"%s\" %s (query %u)", h->pid,
		   h->domain, h->acl, h->id);
	return true;
}

int hm_super_timeout(struct hm_enforcer *E, uint64_t now)
{
	struct hm_super *s = E->sup;
	uint64_t next = UINT64_MAX;

	if (!s || !s->n_held)
		return -1;
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i]->deadline_ns < next)
			next = s->held[i]->deadline_ns;
	return next <= now ? 0 : (int)((next - now) / 1000000 + 1);
}

void hm_super_expire(struct hm_enforcer *E, uint64_t now)
{
	struct hm_super *s = E->sup;

	for (size_t i = 0; s && i < s->n_held;)
		if (s->held[i]->deadline_ns <= now)
			answer(E, i, HM_DECISION_TIMEOUT);
		else
			i++;
}

void hm_super_release_all(struct hm_enforcer *E)
{
	release(E, HM_DECISION_REJECT);
}
