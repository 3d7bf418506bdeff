// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - the one clock for intervals and deadlines (the collector's
 * timeouts and checkpoints, the enforcer's timers): CLOCK_MONOTONIC,
 * which a change of the wall clock does not move.
 */
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
