/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h (session) - a learning session (session/learn_session.c): audit
 * events from a collector go into a learner, and what was learned is saved
 * into a policy directory through its store (store.h), periodically when
 * following a live log.
 *
 * A save writes the policy first, then the process table, then the
 * collector's checkpoint.  A crash between two of them makes the next run
 * read some events again (learning them twice merges, it changes
 * nothing), but never skip one that the saved policy lacks.  An edit an
 * administrator made to the directory meanwhile is read before the save
 * and what the session learned is added to it (the edit stays).
 *
 *	hm_store_load(store, true, &model);
 *	hm_learn_session_new(&s, &o, model);	// a learner on it
 *	hm_learn_session_start(s, collector);
 *	while ((r = hm_learn_session_run(s)) > 0)
 *		show progress, or print s's diagnostics after a save;
 *	r2 = hm_learn_session_save(s);	// also after a failed run
 *	hm_learn_session_free(s);
 */
#ifndef HISTMAC_SESSION_H
#define HISTMAC_SESSION_H

#include <errno.h>

#include "histmac/collector.h"
#include "histmac/learn.h"
#include "histmac/pathrule.h"
#include "histmac/policy_io.h"
#include "histmac/store.h"
#include "histmac/tracker.h"

struct hm_learn_session;

/*
 * struct hm_learn_session_opts - where and how a session saves.
 * @store: the policy directory, opened with .learning (the session sets
 *	its path rule, process table and checkpoint); borrowed.
 * @state: process table file, loaded at start (when it exists: else the
 *	table starts empty, said in @diag) and saved with the policy; may
 *	be NULL.
 * @profile: the profile of every new domain (0-255), or -1: the parent's
 *	(TOMOYO's way; new roots learn).
 * @max_entry: the max_learning_entry to keep, also across reloads (-1:
 *	the policy's).
 * @save_interval: seconds between saves while running; 0: only when the
 *	caller calls hm_learn_session_save().
 * @lo: learning options, for the model a reload installs; borrowed.
 * @diag: where failures are described (file and what failed); borrowed.
 * @paths: the path rule the collector reads with, recorded with the
 *	policy (pathrule.h, histmac_paths.conf); may be NULL; borrowed.
 */
struct hm_learn_session_opts {
	struct hm_store *store;
	const char *state;
	int profile;
	long max_entry;
	unsigned int save_interval;
	const struct hm_learn_opts *lo;
	struct hm_diag *diag;
	const struct hm_path_rule *paths;
};

/* What hm_learn_session_run() stopped for. */
enum hm_session_tick {
	HM_SESSION_END = 0,		/* input ended (or the stop flag) */
	HM_SESSION_PROGRESS = 1,	/* HM_SESSION_BATCH events learned */
	HM_SESSION_SAVED = 2,		/* a periodic save (or reload) done */
	HM_SESSION_IDLE = 3,		/* no event for the collector's
					 * timeout_ms (follow, plugin) */
	HM_SESSION_HELD = 4,		/* a save held back: the policy on
					 * disk has errors (in the diag) */
};

#define HM_SESSION_BATCH 4096

/* A save refused because the policy on disk has errors (an edit not
 * finished): nothing written, learning kept for the next save. */
#define HM_SESSION_UNREADABLE (-EBADMSG)

/**
 * hm_learn_session_new() - a session learning into @m: the options'
 * profile and max_entry set on it, a learner on it, the process table
 * loaded (@o->state).
 * @out: the new session.
 * @o: options; copied, its pointers borrowed.
 * @m: the model; the session takes ownership (a reload replaces it).
 * Returns: 0 or a negative errno (then @m is still the caller's).
 * Caller frees with hm_learn_session_free().
 */
int hm_learn_session_new(struct hm_learn_session **out,
			 const struct hm_learn_session_opts *o,
			 struct hm_model *m);

/**
 * hm_learn_session_start() - learn from @c (borrowed until
 * hm_learn_session_free()); its checkpoint is saved after the policy.
 */
void hm_learn_session_start(struct hm_learn_session *s,
			    struct hm_collector *c);

/**
 * hm_learn_session_run() - learn events until something to report.
 * @s: the session.
 *
 * A reload request from the collector (-EINTR: SIGHUP) loads the policy
 * directory anew (the administrator may have edited the exception policy
 * or rewrite.conf), adds what was learned since the last save, learns on
 * into it and saves; a directory with errors is reported into the diag,
 * not saved over, and learning goes on with the old model.
 * Returns: an enum hm_session_tick (call again for more), or a negative
 * errno (reading, learning or saving failed; described in the diag).
 */
int hm_learn_session_run(struct hm_learn_session *s);

/**
 * hm_learn_session_save() - save the policy, then the process table, then
 * the collector's checkpoint, stopping at the first failure.  A policy
 * edited on disk since it was loaded or saved is read first, and what was
 * learned since is added to it.
 * Returns: 0, HM_SESSION_UNREADABLE, or a negative errno (described in
 * the diag).
 */
int hm_learn_session_save(struct hm_learn_session *s);

/** hm_learn_session_model() - the model learned into; borrowed. */
struct hm_model *hm_learn_session_model(const struct hm_learn_session *s);

/*
 * struct hm_learn_session_stats - what a session has to report.
 * @learn: the learner's counters.
 * @walk: accesses the walker skipped, and why; borrowed from the session.
 * @procs: the process table's counters.
 * @domains: domains in the policy now.
 * @entries: entries in the policy now.
 */
struct hm_learn_session_stats {
	struct hm_learn_stats learn;
	const struct hm_walk_stats *walk;
	struct hm_tracker_stats procs;
	size_t domains;
	size_t entries;
};

/** hm_learn_session_stats() - the session's counters, now. */
void hm_learn_session_stats(const struct hm_learn_session *s,
			    struct hm_learn_session_stats *out);

/**
 * hm_learn_session_violations() - accesses in domains not in learning
 * mode, judged as `check` judges them (check.h); borrowed.
 */
struct hm_checker *
hm_learn_session_violations(const struct hm_learn_session *s);

/**
 * hm_learn_session_converted() - what every save so far could not say in
 * the dialect (struct hm_convert_stats of the policy writes); borrowed.
 */
const struct hm_convert_stats *
hm_learn_session_converted(const struct hm_learn_session *s);

/** hm_learn_session_free() - free the session, its model and learner. */
void hm_learn_session_free(struct hm_learn_session *s);

#endif /* HISTMAC_SESSION_H */
