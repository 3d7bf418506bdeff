// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * notify.c - tell systemd how the daemon is doing (Type=notify units):
 * READY=1 once the marks are in place, WATCHDOG=1 from the event loop's
 * once-a-second tick (so a loop that stops turning gets the daemon
 * killed, which frees every held open), STOPPING=1 on the way out.
 * Outside systemd (no $NOTIFY_SOCKET) every call does nothing.
 */
#include <systemd/sd-daemon.h>

#include "enforcer_private.h"

void hm_notify_ready(void)
{
	sd_notify(0, "READY=1\nSTATUS=enforcing");
}

void hm_notify_watchdog(void)
{
	static int enabled = -1;
	uint64_t usec;

	if (enabled < 0)
		enabled = sd_watchdog_enabled(0, &usec) > 0;
	if (enabled)
		sd_notify(0, "WATCHDOG=1");
}

void hm_notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}
