/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h (store) - a policy directory and its one owner (store/store.c).
 *
 * Every command that writes a policy directory - learn (all sources), the
 * enforcer's learning mode, import, merge -o, patternize --apply, profile
 * - goes through a store.  The store owns what writing one takes:
 *  - the writer's lock (lock.h): held from open to close (a command), or
 *    only while saving (a long-running writer, so a command is not kept
 *    out for its life);
 *  - loading, with the files' identity remembered;
 *  - seeing an administrator's edit: before a save, files that changed
 *    since they were loaded or saved make the save refuse (-ESTALE); the
 *    writer reads them again (hm_store_read(), once they hold still) and
 *    rebases what it learned onto them (hm_store_adopt(), rebase.h), so
 *    deleted entries stay deleted, added ones and profiles stay;
 *  - the crash-ordered save: the policy and its path rule in one commit,
 *    then the process table, then the collector's checkpoint, so a crash
 *    repeats learning (harmless: it merges) and never loses any.
 *
 *	hm_store_open(&o, &s);			// lock (o.hold), stat
 *	hm_store_load(s, false, &m);		// the policy as it is
 *	... change m ...
 *	r = hm_store_save(s, m, NULL, 0);
 *	if (r == -ESTALE) {			// edited under us
 *		hm_store_read(s, &snap, diag);
 *		hm_store_adopt(s, &snap, m);	// snap.m: disk + our learning
 *		... learn on in snap.m, save again ...
 *	}
 *	hm_store_close(s, r != 0);
 *
 * Library code: nothing is printed; failures go into the options' diag.
 */
#ifndef HISTMAC_STORE_H
#define HISTMAC_STORE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "histmac/collector.h"
#include "histmac/lock.h"
#include "histmac/pathrule.h"
#include "histmac/policy_io.h"

struct hm_store;
struct hm_tracker;

/* The files an administrator edits, in the order hm_store_snap keeps. */
#define HM_STORE_EDITED 3

/*
 * struct hm_store_opts - how a writer holds a directory.
 * @dir: the policy directory (created when missing).
 * @holder: the writer's command line, named to the next writer that finds
 *	the lock taken.
 * @wait_s: for the lock: 0 fail at once, > 0 that many seconds, < 0 ever.
 * @hold: take the lock at open and keep it to close (a command); false:
 *	only while a save runs (a long-running writer).
 * @learning: keep a copy of what was loaded or saved (the base), so what
 *	is learned since can be rebased onto an edited directory.
 * @read_dialect: read as (HM_DIALECT_AUTO: each file says).
 * @dialect: written as (HM_DIALECT_AUTO: the model's own).
 * @diag: where failures are described, file and what; borrowed; may be
 *	NULL.
 */
struct hm_store_opts {
	const char *dir;
	const char *holder;
	int wait_s;
	bool hold;
	bool learning;
	int read_dialect;
	int dialect;
	struct hm_diag *diag;
};

/*
 * struct hm_store_snap - the directory as read at one moment.
 * @m: the policy (NULL when it could not be read at all).
 * @errors: errors in it (described into the diag the read was given).
 * @st: its files' identity when read.
 */
struct hm_store_snap {
	struct hm_model *m;
	int errors;
	struct stat st[HM_STORE_EDITED];
};

/**
 * hm_store_open() - open policy directory @o->dir for writing.
 * @o: copied; its strings and diag are borrowed until hm_store_close().
 * @out: the store, also on failure (hm_store_holder() names who holds
 *	the lock); close it with hm_store_close().
 * Returns: 0, -EWOULDBLOCK (@o->hold and another writer holds the lock:
 * hm_store_holder() names it), or another negative errno.
 */
int hm_store_open(const struct hm_store_opts *o, struct hm_store **out);

/**
 * hm_store_close() - release the lock (if held) and free @s (NULL is fine).
 * @failed: the run failed: a directory the lock created is removed again
 *	when nothing else was put in it.
 */
void hm_store_close(struct hm_store *s, bool failed);

/** hm_store_dir() - the directory. */
const char *hm_store_dir(const struct hm_store *s);

/** hm_store_diag() - where the store describes failures (opts' diag). */
struct hm_diag *hm_store_diag(const struct hm_store *s);

/** hm_store_set_dialect() - write as @dialect from now on (AUTO: the
 * model's own). */
void hm_store_set_dialect(struct hm_store *s, int dialect);

/** hm_store_set_wait() - wait up to @wait_s for the lock from now on
 * (as hm_store_opts.wait_s). */
void hm_store_set_wait(struct hm_store *s, int wait_s);

/** hm_store_holder() - who held the lock when taking it last failed. */
const struct hm_lock_holder *hm_store_holder(const struct hm_store *s);

/** hm_store_has_policy() - does the directory hold a policy file? */
bool hm_store_has_policy(const struct hm_store *s);

/**
 * hm_store_load() - load the directory's policy.
 * @may_be_missing: a directory that does not exist is an empty policy.
 * @out: the policy (also when it has errors); caller frees it.
 * Returns: 0, the number of errors in the policy (described in the diag),
 * or a negative errno (-ENOENT: no policy there and not @may_be_missing).
 */
int hm_store_load(struct hm_store *s, bool may_be_missing,
		  struct hm_model **out);

/**
 * hm_store_edited() - has a policy file changed since it was loaded,
 * read (hm_store_adopt()) or saved?
 */
bool hm_store_edited(const struct hm_store *s);

/**
 * hm_store_read() - read the directory once its files hold still (an
 * editor that writes in place leaves a moment with half a file); after a
 * few seconds of changes, as they are (said in @d).  Reads only: safe in
 * a thread while the store's owner goes on (not with its other calls).
 * @out: the policy read; free with hm_store_snap_free() unless adopted.
 * @d: errors in the policy; may be NULL.
 * Returns: 0 (errors counted in @out->errors) or a negative errno.
 */
int hm_store_read(const struct hm_store *s, struct hm_store_snap *out,
		  struct hm_diag *d);

/** hm_store_snap_free() - free what hm_store_read() read. */
void hm_store_snap_free(struct hm_store_snap *snap);

/**
 * hm_store_adopt() - take what hm_store_read() read as the directory's
 * state, and add to it what @cur learned since the base (rebase.h): the
 * writer then goes on in @snap->m, which it owns from now on.
 * @cur: the model learned into (NULL: nothing learned); read only.
 * Returns: 0 or a negative errno (then @snap is unchanged but for
 * partly merged learning, and is still the caller's to free).
 */
int hm_store_adopt(struct hm_store *s, struct hm_store_snap *snap,
		   const struct hm_model *cur);

/**
 * hm_store_forget() - forget the files as last seen: the next save finds
 * them edited and refuses (-ESTALE), so the writer reads them again.  For
 * a writer that adopted a read but could not go on with it.
 */
void hm_store_forget(struct hm_store *s);

/**
 * hm_store_set_paths() - save the path rule @r (pathrule.h) with every
 * policy save, in the same commit; borrowed; NULL: leave the file alone.
 */
void hm_store_set_paths(struct hm_store *s, const struct hm_path_rule *r);

/**
 * hm_store_set_stamp() - stamp the model's packages from @root's dpkg
 * database (hm_policy_save_dir_stamped()) in every policy save; borrowed;
 * NULL (the default): no stamp.
 */
void hm_store_set_stamp(struct hm_store *s, const char *root);

/**
 * hm_store_set_state() - after each policy save, save the process table
 * of @t to @path, then the checkpoint of @c; each may be NULL; borrowed.
 */
void hm_store_set_state(struct hm_store *s, struct hm_tracker *t,
			const char *path, struct hm_collector *c);

/**
 * hm_store_set_counting() - from now on the use counts (struct
 * hm_acl_hist's uses) of the models saved are what this writer counted
 * since its last save, not totals: each save adds them to the counts in
 * the directory as it is then (read under the lock: what another writer,
 * e.g. `check --record-use`, counted meanwhile stays), and the writer
 * clears its counts after a save that succeeded (hm_model_clear_uses()).
 */
void hm_store_set_counting(struct hm_store *s, bool on);

/**
 * hm_store_set_last() - the next save that succeeds is this writer's last
 * (it exits after it): no copy of the saved policy is kept as the base of
 * a later rebase.  A learner's base is a copy of its whole model: after
 * a 1 GB log, making it took 63 ms of the 0.47 s from its last event to
 * its exit, and freeing it 23 ms more.
 * Until that save succeeds (an administrator's edit refused it), the
 * rebase works as before: only a successful save drops the base.
 */
void hm_store_set_last(struct hm_store *s);

/**
 * hm_store_load_state() - load the process table saved with the policy
 * into @t (a missing file is an empty table).
 * Returns: 0 or a negative errno (the table stays empty).
 */
int hm_store_load_state(struct hm_store *s, struct hm_tracker *t,
			const char *path);

/**
 * hm_store_save() - save @m into the directory: the policy, the path rule
 * and @extra (e.g. a merge's provenance) in one commit, then the process
 * table, then the checkpoint, stopping at the first failure.  Takes the
 * lock for the save when the store does not hold it.
 * @extra: up to 2 more files of the same commit; may be NULL.
 * Returns: 0, -ESTALE (a policy file changed since it was loaded, read or
 * saved: nothing written; or while this save committed: the edit is kept,
 * put back if the commit replaced it, and the base is not moved; either
 * way read it again and adopt), -EWOULDBLOCK (another
 * writer holds the lock), or another negative errno (described in the
 * diag).
 */
int hm_store_save(struct hm_store *s, const struct hm_model *m,
		  const struct hm_file_out *extra, size_t n_extra);

/**
 * hm_store_converted() - what the saves so far could not say in the
 * dialect (struct hm_convert_stats).
 */
const struct hm_convert_stats *hm_store_converted(const struct hm_store *s);

#endif /* HISTMAC_STORE_H */
