// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - the one clock for intervals and deadlines (the collector's
 * timeouts and checkpoints, the enforcer's timers): CLOCK_MONOTONIC,
 * which a change of the wall clock does not move; and audit times as
 * the UTC text every output writes.
 */
#include <stdio.h>
#include <time.h>

#include "histmac/common.h"

uint64_t hm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t hm_now_ms(void)
{
	return hm_now_ns() / 1000000;
}

const char *hm_utc(int64_t t, bool day, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, day ? "%Y-%m-%d" : "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "unknown");
	return buf;
}
