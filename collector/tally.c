// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tally.c - what the collector tells its caller about the input: the
 * counters (struct hm_collector_stats), the file and line being read, and
 * skipped input as FILE:LINE warnings into the caller's diag (with
 * opts.verbose).  Every other part of the collector is handed this when
 * it is built and writes into it; it calls no other part.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void hm_report_skip(struct hm_report *r, enum hm_skip_reason why,
		    const char *fmt, ...)
{
	va_list ap;

	r->st.skipped[why]++;
	r->told++;
	if (!r->verbose || !r->diag)
		return;
	va_start(ap, fmt);
	hm_diag_vadd(r->diag, HM_DIAG_WARNING, r->file, r->line, fmt, ap);
	va_end(ap);
}

void hm_report_skip_event(struct hm_report *r, enum hm_skip_reason why,
			  uint64_t serial, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	r->st.skipped[why]++;
	r->told++;
	if (!r->verbose || !r->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hm_diag_add(r->diag, HM_DIAG_WARNING, r->file, 0,
		    "event %llu: %s: %s", (unsigned long long)serial,
		    hm_skip_names[why], msg);
}

void hm_report_warn(struct hm_report *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->diag)
		return;
	va_start(ap, fmt);
	hm_diag_vadd(r->diag, HM_DIAG_WARNING, r->file, r->line, fmt, ap);
	va_end(ap);
}
