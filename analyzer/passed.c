// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * passed.c - the "passed the check" table: per event kind, the errno
 * values a call returns only after the LSM hook TOMOYO checks in has run
 * and allowed it.  Pure data; the walker asks it for every failed event,
 * and through the walker both the learner and the checker.
 *
 * Rules that hold for every row (docs/PASSED.md):
 *  - EACCES and EPERM never count as passed: they are what a security
 *    check (DAC, capabilities, another LSM, TOMOYO itself) answers, and a
 *    log cannot say which check said no.  With ENOENT (a lookup that
 *    failed before any object-based hook) they make an attempt.
 *  - An errno is listed only when every kernel path that returns it runs
 *    after the hook; one that may come from before the hook is not.
 */
#include <errno.h>
#include <string.h>

#include "histmac/passed.h"

#define MAX_PASSED 16

/* Kernel order, hook first: what follows it may fail in these ways. */
static const int passed[HM_EV_KIND_MAX][MAX_PASSED] = {
	/* security_socket_connect(), then ->connect(): everything after
	 * the address is copied and the socket found is protocol work;
	 * AF_UNIX looks the path up after the hook (ENOENT, ECONNREFUSED),
	 * a full backlog of a non-blocking unix connect is EAGAIN. */
	[HM_EV_CONNECT] = { EINPROGRESS, EALREADY, ECONNREFUSED, ETIMEDOUT,
			    ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL,
			    EISCONN, ECONNRESET, ECONNABORTED, ENETDOWN,
			    EINTR, EAGAIN, ENOENT },
	/* security_socket_bind(), then ->bind(): the port or unix path in
	 * use, an address not local, the unix path's directory missing or
	 * full. */
	[HM_EV_BIND] = { EADDRINUSE, EADDRNOTAVAIL, ENOENT, ENOTDIR, EROFS,
			 ENOSPC, EDQUOT },
	/* security_socket_listen(), then ->listen(): autobind found no
	 * free port. */
	[HM_EV_LISTEN] = { EADDRINUSE },
	/* security_socket_sendmsg(), then ->sendmsg(): queue full,
	 * peer refused or unreachable, unix peer path missing. */
	[HM_EV_SEND] = { EAGAIN, ECONNREFUSED, EMSGSIZE, ENETUNREACH,
			 EHOSTUNREACH, ENETDOWN, ENOBUFS, EPIPE, ECONNRESET,
			 EINTR, ENOENT, EADDRNOTAVAIL },
	/* accept/recv: a failed call names no peer; nothing to check. */
	/* security_file_open(), then break_lease() (EWOULDBLOCK on
	 * O_NONBLOCK), then the driver's ->open(): a FIFO without reader
	 * (ENXIO), absent device or medium, busy device, a signal. */
	[HM_EV_OPEN] = { EAGAIN, ENXIO, ENODEV, ENOMEDIUM, EBUSY, EINTR },
	/* security_path_unlink(), then vfs_unlink(): a mount point. */
	[HM_EV_UNLINK] = { EBUSY },
	/* security_path_rmdir(), then vfs_rmdir(): not empty, mount point. */
	[HM_EV_RMDIR] = { ENOTEMPTY, EEXIST, EBUSY },
	/* security_path_mkdir()/mknod()/symlink(), then the file system. */
	[HM_EV_MKDIR] = { ENOSPC, EDQUOT, EMLINK },
	[HM_EV_MKNOD] = { ENOSPC, EDQUOT },
	[HM_EV_SYMLINK] = { ENOSPC, EDQUOT },
	/* security_path_link(), then vfs_link() (EXDEV is found before). */
	[HM_EV_LINK] = { EMLINK, ENOSPC, EDQUOT },
	/* security_path_rename(), then vfs_rename(): a non-empty target
	 * directory, a mount point. */
	[HM_EV_RENAME] = { ENOTEMPTY, EEXIST, EBUSY, ENOSPC, EDQUOT, EMLINK },
	/* security_path_truncate(), then do_truncate(): over the limit. */
	[HM_EV_TRUNCATE] = { EFBIG },
	/* security_sb_mount() runs after may_mount() (EPERM); then the
	 * type, device and mount point are looked at. */
	[HM_EV_MOUNT] = { EBUSY, ENODEV, ENOTBLK },
	/* security_sb_umount(), then do_umount(): still in use. */
	[HM_EV_UMOUNT] = { EBUSY },
	[HM_EV_PIVOT_ROOT] = { EBUSY },
	/* exec: the transition happens only when the exec succeeds; chmod,
	 * chown, chroot, kill: nothing but EPERM/EACCES after the hook. */
};

const int *hm_passed_errnos(enum hm_event_kind kind)
{
	static const int none[1];

	return (unsigned)kind < HM_EV_KIND_MAX ? passed[kind] : none;
}

static bool listed(const struct hm_event *ev, int err)
{
	/* renameat2()'s RENAME_NOREPLACE fails with EEXIST before the
	 * hook, and its flags (a4) are not in the record: coreutils' mv
	 * tries it on "DIR/" before it renames into DIR */
	if (err == EEXIST && ev->kind == HM_EV_RENAME && ev->syscall_name &&
	    !strcmp(ev->syscall_name, "renameat2"))
		return false;
	for (const int *e = hm_passed_errnos(ev->kind); *e; e++)
		if (*e == err)
			return true;
	return false;
}

enum hm_outcome hm_passed_outcome(const struct hm_event *ev)
{
	int err;

	if (ev->success)
		return HM_OUTCOME_PASSED;
	if (ev->exit >= 0 || ev->exit < -4095)
		return HM_OUTCOME_FAILED;	/* no errno in the record */
	err = (int)-ev->exit;
	if (listed(ev, err))
		return HM_OUTCOME_PASSED;
	if (err == EACCES || err == EPERM || err == ENOENT)
		return HM_OUTCOME_ATTEMPT;
	return HM_OUTCOME_FAILED;
}
