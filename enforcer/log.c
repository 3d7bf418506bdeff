// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log.c - what the enforcer tells: its own log lines on stderr, and one
 * audit user record (AUDIT_USER_AVC, "op=histmac-decision ...") per
 * decision worth keeping, so `histmac check` and `histmac learn` read the
 * enforcement results from the audit trail like any other record.  Called
 * only after the event was answered.  Owns the libaudit socket.
 */
#include <errno.h>
#include <libaudit.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "enforcer_private.h"

/**
 * hm_log() - one line of the daemon's log on stderr, with the time.
 * @fmt: printf format, without the newline.
 */
void hm_log(const char *fmt, ...)
{
	struct timespec ts;
	struct tm tm;
	char when[32];
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	flockfile(stderr);
	fprintf(stderr, "histmac enforce %s.%03ld: ", when,
		ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

/**
 * hm_log_decision() - send one decision's audit user record.
 * @audit_fd: from audit_open(); negative: no record, not an error.
 * @res, @perm, @pid, @profile, @domain: as struct hm_decision holds them.
 * @raw_path, @raw_len: the object's raw path bytes.
 * Returns: 0, -ENOMEM, or -EIO when the kernel did not take it.
 */
int hm_log_decision(int audit_fd, enum hm_decision_result res,
		    uint32_t perm, int32_t pid, uint8_t profile,
		    const struct hm_name *domain, const char *raw_path,
		    size_t raw_len)
{
	struct hm_decision d = {
		.result = res, .perm = perm, .pid = pid, .profile = profile,
		.domain = domain->str, .domain_len = domain->len,
		.path = raw_path, .path_len = raw_len,
	};
	char *text;
	int r = 0;
	bool ok = res != HM_DECISION_DENY && res != HM_DECISION_REJECT &&
		  res != HM_DECISION_TIMEOUT;

	if (audit_fd < 0)
		return 0;
	if (hm_decision_format(&d, &text))
		return -ENOMEM;
	if (audit_log_user_message(audit_fd, AUDIT_USER_AVC, text, NULL,
				   NULL, NULL, ok) <= 0)
		r = -EIO;
	free(text);
	return r;
}

/*
 * Below this the kernel's audit backlog is small enough for one burst of
 * denials to fill it: each denied open is about six records (fanotify's,
 * the opener's SYSCALL, CWD, PATH, PROCTITLE, and ours).  64 is the
 * kernel's default, what an auditd started without its rules leaves.
 */
#define HM_AUDIT_BACKLOG_LOW 1024

/**
 * hm_audit_backlog_low() - is auditing on with a backlog a burst fills?
 * @audit_fd: from audit_open().
 * @limit: set to the kernel's backlog_limit when the answer is true.
 * @wait: set to its backlog_wait_time, in the kernel's jiffies.
 *
 * When the backlog is over its limit, the kernel makes every process that
 * logs a record sleep, uninterruptibly, until the queue drains or
 * backlog_wait_time passes; it wakes one sleeper per drain, so a denied
 * opener can sleep the whole time while we sleep for our own record.
 * Asked once at start, when the queue is not full (the kernel also makes
 * the sender of a status request wait then).
 * Returns: true when enabled and the limit is below HM_AUDIT_BACKLOG_LOW.
 */
bool hm_audit_backlog_low(int audit_fd, uint32_t *limit, uint32_t *wait)
{
	struct audit_reply rep;

	if (audit_fd < 0 || audit_request_status(audit_fd) <= 0)
		return false;
	for (int i = 0; i < 8; i++) {
		if (audit_get_reply(audit_fd, &rep, GET_REPLY_BLOCKING, 0) <= 0)
			return false;
		if (rep.type != AUDIT_GET || !rep.status)
			continue;
		*limit = rep.status->backlog_limit;
		*wait = rep.status->backlog_wait_time;
		return rep.status->enabled &&
		       rep.status->backlog_limit > 0 &&
		       rep.status->backlog_limit < HM_AUDIT_BACKLOG_LOW;
	}
	return false;
}
