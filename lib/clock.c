// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - the one clock for intervals and deadlines (the collector's
 * timeouts and checkpoints, the enforcer's timers): CLOCK_MONOTONIC,
 * which a change of the wall clock does not move; audit times as the
 * UTC text every output writes; and a stopwatch that also reads the
 * process's CPU clock (histmac sandbox --stats).
 */
#include <stdio.h>
#include <time.h>

#include "histmac/common.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t hm_now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
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

struct hm_stopwatch hm_stopwatch_start(void)
{
	return (struct hm_stopwatch){ hm_now_ns(),
				      clock_ns(CLOCK_PROCESS_CPUTIME_ID) };
}

const char *hm_stopwatch_text(const struct hm_stopwatch *sw, char *buf,
			      size_t cap)
{
	snprintf(buf, cap, "in %.2f ms (%.2f ms CPU)",
		 (double)(hm_now_ns() - sw->wall_ns) / 1e6,
		 (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - sw->cpu_ns) /
		 1e6);
	return buf;
}
