// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn_session.c - a learning session: the loop that takes events from
 * the collector into the learner, the periodic save of a live learner,
 * and the reload on SIGHUP, both through the policy store (store.h),
 * which keeps an administrator's edits and saves in crash order.
 *
 * Owns: the model and the learner (a reload swaps the model).  Borrows
 * the collector and the store.  Next: the caller prints progress and
 * diagnostics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>

#include "histmac/convergence.h"
#include "histmac/profile.h"
#include "histmac/session.h"
#include "histmac/tracker.h"

struct hm_learn_session {
	struct hm_learn_session_opts o;
	struct hm_model *m;
	struct hm_learner *l;
	struct hm_collector *c;
	time_t last_save;
	unsigned long n;		/* events since the last PROGRESS */
	struct hm_learn_stats saved;	/* the learner's, at the last save */
	bool saved_once;		/* a save succeeded in this run */
	struct hm_collector_stats at_save; /* the collector's, then */
};

static struct hm_tracker *tracker(const struct hm_learn_session *s)
{
	return hm_walker_tracker(hm_learner_walker(s->l));
}

/* The process table saved with the policy: a running process's later
 * execs go on from its domain. */
static void load_state(struct hm_learn_session *s)
{
	int r = s->o.state ? hm_store_load_state(s->o.store, tracker(s),
						 s->o.state) : 0;

	if (r < 0)
		hm_diag_add(s->o.diag, HM_DIAG_WARNING, s->o.state, 0,
			    "%s (starting with no process table)",
			    strerror(-r));
}

/* The policy's settings this run asks for, then a learner on it. */
static int new_learner(struct hm_learn_session *s)
{
	const struct hm_learn_session_opts *o = &s->o;

	if (o->profile >= 0)
		hm_model_set_inherit_profile(s->m, false);
	if (o->max_entry >= 0)
		hm_model_set_max_learning_entry(s->m, (uint32_t)o->max_entry);
	return hm_learner_new(s->m, o->lo, o->profile >= 0 ?
			      (uint8_t)o->profile : HM_PROFILE_LEARNING,
			      o->diag, &s->l);
}

/* Each domain stamped with its program's package where the names are
 * this host's or an image's (not a foreign log's read as written): by
 * the save (hm_store_set_stamp()), while it renders.  The rule is the
 * one in use now (the caller fills it in after hm_learn_session_new()). */
static const char *stamp_root(const struct hm_path_rule *p)
{
	if (p && !p->resolve)
		return NULL;
	return p && p->root ? p->root : "/";
}

int hm_learn_session_new(struct hm_learn_session **out,
			 const struct hm_learn_session_opts *o,
			 struct hm_model *m)
{
	struct hm_learn_session *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -ENOMEM;
	s->o = *o;
	s->m = m;
	s->last_save = time(NULL);
	r = new_learner(s);
	if (r) {
		free(s);	/* @m stays the caller's */
		return r;
	}
	hm_store_set_paths(o->store, o->paths);
	load_state(s);
	*out = s;
	return 0;
}

void hm_learn_session_start(struct hm_learn_session *s,
			    struct hm_collector *c)
{
	s->c = c;
	hm_store_set_state(s->o.store, tracker(s), s->o.state, c);
}

void hm_learn_session_free(struct hm_learn_session *s)
{
	if (!s)
		return;
	hm_learner_free(s->l);
	hm_model_free(s->m);
	free(s);
}

struct hm_model *hm_learn_session_model(const struct hm_learn_session *s)
{
	return s->m;
}

void hm_learn_session_stats(const struct hm_learn_session *s,
			    struct hm_learn_session_stats *out)
{
	memset(out, 0, sizeof(*out));
	hm_learner_stats(s->l, &out->learn);
	out->walk = hm_walker_stats(hm_learner_walker(s->l));
	hm_tracker_stats(tracker(s), &out->procs);
	out->domains = s->m->n_domains;
	for (size_t i = 0; i < s->m->n_domains; i++)
		out->entries += s->m->domains[i]->n_acl;
}

struct hm_checker *
hm_learn_session_violations(const struct hm_learn_session *s)
{
	return hm_learner_checker(s->l);
}

const struct hm_convert_stats *
hm_learn_session_converted(const struct hm_learn_session *s)
{
	return hm_store_converted(s->o.store);
}

/* Describe a failure of @what on @file; returns @r. */
static int failed(struct hm_learn_session *s, const char *file,
		  const char *what, int r)
{
	hm_diag_add(s->o.diag, HM_DIAG_ERROR, file, 0, "%s: %s", what,
		    strerror(-r));
	return r;
}

/* Learn on into @n (the directory's policy) instead of the current model. */
static int install(struct hm_learn_session *s, struct hm_model *n)
{
	int r;

	hm_model_set_inherit_profile(n, s->m->inherit_profile);
	if (s->o.max_entry >= 0)
		hm_model_set_max_learning_entry(n, (uint32_t)s->o.max_entry);
	r = hm_learner_set_model(s->l, n, s->o.lo);
	if (r)
		return r;
	hm_model_free(s->m);
	s->m = n;
	return 0;
}

/*
 * The directory's policy as it is on disk now, with what we learned since
 * it was loaded or saved added (store.h): the administrator's edits
 * (profiles, deleted entries and domains, the exception policy, rewrite
 * rules) survive our next save.  A policy with errors is not saved over:
 * HM_SESSION_UNREADABLE until it is fixed; learning goes on.
 */
static int sync_disk(struct hm_learn_session *s)
{
	const char *dir = hm_store_dir(s->o.store);
	struct hm_store_snap snap;
	int r = hm_store_read(s->o.store, &snap, s->o.diag);

	if (r)
		return failed(s, dir, "reloading", r);
	if (snap.errors) {
		hm_diag_add(s->o.diag, HM_DIAG_WARNING, dir, 0,
			    "the policy has errors (see above): learning goes "
			    "on, and is saved once they are fixed");
		hm_store_snap_free(&snap);
		return HM_SESSION_UNREADABLE;
	}
	r = hm_store_adopt(s->o.store, &snap, s->m);
	if (!r && (r = install(s, snap.m)))	/* the old model stays: */
		hm_store_forget(s->o.store);	/* read again next time */
	if (r) {
		hm_store_snap_free(&snap);
		return failed(s, dir, "reloading", r);
	}
	return 0;
}

/* Entries learned and widened after @since, by their stamps (as the
 * curve per day counts them, convergence.h).  What was learned after the
 * save before, in its second, is stamped with the next (learn.c):
 * counted here, not there. */
static void count_new(const struct hm_model *m, int64_t since,
		      struct hm_save_rec *rec)
{
	for (size_t i = 0; i < m->n_domains; i++)
		for (const struct hm_acl_head *e = m->domains[i]->acl; e;
		     e = e->next) {
			rec->added += e->hist.learned > since;
			rec->widened += e->hist.grown > since;
		}
}

/*
 * The record of this save (histmac_saves.conf: the curve per save), when
 * it learned events no save counted before.  Returns 1 added (take it
 * back with drop_record() if the save fails), 0 none, -ENOMEM.
 */
static int add_record(struct hm_learn_session *s,
		      const struct hm_learn_stats *now)
{
	const struct hm_model *m = s->m;
	int64_t since = hm_model_last_save(m);
	struct hm_save_rec rec = {
		.time = hm_convergence_end(m),
		.events = now->events_new - s->saved.events_new,
	};

	if (!rec.events)
		return 0;
	if (rec.time < since)	/* entries deleted by an edit */
		rec.time = since;
	count_new(m, since, &rec);
	return hm_model_add_save(s->m, &rec) ? -ENOMEM : 1;
}

static void drop_record(struct hm_learn_session *s, int added)
{
	if (added == 1 && s->m->n_saves)
		s->m->n_saves--;
}

/* Edits keep coming while we rebase: give up after this many rounds. */
#define SAVE_TRIES 5

int hm_learn_session_save(struct hm_learn_session *s)
{
	struct hm_learn_stats now;
	int r = -ESTALE, rec = 0;

	s->last_save = time(NULL);
	hm_learner_stats(s->l, &now);
	hm_store_set_stamp(s->o.store, stamp_root(s->o.paths));
	for (int i = 0; r == -ESTALE && i < SAVE_TRIES; i++) {
		r = rec = add_record(s, &now);
		if (r >= 0)
			r = hm_store_save(s->o.store, s->m, NULL, 0);
		if (r)	/* a reload below replaces the model, record too */
			drop_record(s, rec);
		if (r == -ESTALE && (r = sync_disk(s)) == 0)
			r = -ESTALE;	/* adopted: save that */
	}
	if (!r) {
		s->saved = now;
		s->saved_once = true;
		if (s->c)
			s->at_save = *hm_collector_stats(s->c);
	}
	if (r == -ESTALE)
		return failed(s, hm_store_dir(s->o.store), "saving "
			      "(the policy keeps being edited)", r);
	return r;
}

/* SIGHUP: learn on into the directory's policy as it is now, and save. */
static int reload(struct hm_learn_session *s)
{
	int r = sync_disk(s);

	return r ? r : hm_learn_session_save(s);
}

/* A save or reload the policy's errors held back is not the end. */
static int tick_saved(int r)
{
	if (r == HM_SESSION_UNREADABLE)
		return HM_SESSION_HELD;
	return r ? r : HM_SESSION_SAVED;
}

static bool save_due(const struct hm_learn_session *s)
{
	return s->o.save_interval &&
	       time(NULL) - s->last_save >= (time_t)s->o.save_interval;
}

/*
 * Nothing read and no event handed out since the last save (an event the
 * log left open comes out later, when it is closed for it): the policy,
 * the process table and the checkpoint are as it wrote them, and saving
 * again would only render the whole policy and stamp its packages once
 * more (a fleet's learner sits idle most of the time).  An administrator's
 * edit meanwhile is noticed at the next save that has something to add,
 * or on SIGHUP.
 */
static bool idle_since_save(const struct hm_learn_session *s)
{
	const struct hm_collector_stats *st;

	if (!s->saved_once || !s->c)
		return false;
	st = hm_collector_stats(s->c);
	return st->bytes == s->at_save.bytes &&
	       st->events == s->at_save.events;
}

int hm_learn_session_run(struct hm_learn_session *s)
{
	const struct hm_event *ev;
	int r;

	for (;;) {
		r = hm_collector_next(s->c, &ev);
		if (r == 1) {
			r = hm_learner_event(s->l, ev);
			if (r < 0)
				return failed(s, hm_store_dir(s->o.store),
					      "learning", r);
			if (++s->n == HM_SESSION_BATCH) {
				s->n = 0;
				return HM_SESSION_PROGRESS;
			}
		} else if (r == -EINTR) {
			return tick_saved(reload(s));
		} else if (r == 0) {
			return HM_SESSION_END;
		} else if (r != -EAGAIN) {
			return failed(s, "audit records", "reading", r);
		}
		if (save_due(s)) {
			if (!idle_since_save(s))
				return tick_saved(hm_learn_session_save(s));
			s->last_save = time(NULL);
		}
		if (r == -EAGAIN)
			return HM_SESSION_IDLE;
	}
}
