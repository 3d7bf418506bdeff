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
