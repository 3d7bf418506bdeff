// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * caps.c - once the fanotify group, the marks and the proc connector are
 * set up, keep only the capabilities the daemon still uses: reading other
 * users' /proc/PID/exe and status (SYS_PTRACE), following their
 * /proc/PID/map_files links, to tell a program mapped from an overlay
 * (CHECKPOINT_RESTORE: procs/placing.c), reading and writing the policy
 * and marking files we may not own (DAC_OVERRIDE, DAC_READ_SEARCH), and
 * sending audit records (AUDIT_WRITE).  SYS_ADMIN, NET_ADMIN and the
 * rest go, from the bounding set too.  No libcap: two system calls.
 */
#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforcer_private.h"

static const int keep[] = {
	CAP_SYS_PTRACE, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_AUDIT_WRITE,
	CAP_CHECKPOINT_RESTORE,
};

static bool kept(int cap)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(keep); i++)
		if (keep[i] == cap)
			return true;
	return false;
}

/**
 * hm_caps_drop() - keep only the capabilities the daemon still uses.
 * Returns: 0 or -errno.
 */
int hm_caps_drop(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	for (int cap = 0; cap <= CAP_LAST_CAP; cap++) {
		if (kept(cap)) {
			d[cap / 32].effective |= 1u << (cap % 32);
			d[cap / 32].permitted |= 1u << (cap % 32);
		} else if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 &&
			   prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 &&
			   errno != EINVAL) {
			return -errno;
		}
	}
	if (syscall(SYS_capset, &h, d) < 0)
		return -errno;
	return 0;
}
