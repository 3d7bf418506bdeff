/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock.h (lib) - one writer at a time in a policy directory (lib/lock.c).
 *
 * Every command that writes a policy directory holds its lock from before
 * it reads the policy until after it saved it, so no writer saves over
 * another's work.  The lock is flock(2) on DIR/.histmac.lock, which names
 * the holder (pid and command line) while it is held and is removed on
 * release, so an idle directory holds only the policy.
 */
#ifndef HISTMAC_LOCK_H
#define HISTMAC_LOCK_H

#include <stdbool.h>
#include <sys/types.h>

#define HM_LOCK_FILE ".histmac.lock"

struct hm_lock;

/* Who holds a lock we could not take. */
struct hm_lock_holder {
	pid_t pid;		/* 0 when the holder has not named itself yet */
	char command[256];	/* its command line, spaces between words */
};

/**
 * hm_lock_take() - lock policy directory @dir for writing, creating @dir
 * (mode 0700, not its parents) when it does not exist.
 * @what: the holder's command line, written into the lock file.
 * @wait_s: 0 fail at once, > 0 wait that many seconds, < 0 wait forever.
 * @holder: on -EWOULDBLOCK, who holds the lock; may be NULL.
 * @out: the lock; release with hm_lock_release().
 * Returns: 0, -EWOULDBLOCK (held by another process, or the wait ran
 * out), or another negative errno.
 */
int hm_lock_take(const char *dir, const char *what, int wait_s,
		 struct hm_lock_holder *holder, struct hm_lock **out);

/**
 * hm_lock_release() - unlock and free @l (NULL is fine).
 * @failed: the run failed: a directory hm_lock_take() created is removed
 *	again when nothing else was put in it, so a failed run leaves no
 *	trace.
 */
void hm_lock_release(struct hm_lock *l, bool failed);

#endif /* HISTMAC_LOCK_H */
