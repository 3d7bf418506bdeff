// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn_session.c - a learning session: the loop that takes events from
 * the collector into the learner, the periodic save of a live learner,
 * the reload on SIGHUP, and the order of a save: policy, then process
 * table, then checkpoint, so a crash repeats learning (harmless: it
 * merges) and never loses any.
 *
 * Owns: the model and the learner (a reload swaps the model).  Borrows
 * the collector.  Next: the caller prints progress and diagnostics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histmac/fs.h"
#include "histmac/session.h"
#include "histmac/tracker.h"

struct hm_learn_session {
	struct hm_learn_session_opts o;
	struct hm_model *m;
	struct hm_learner *l;
	struct hm_collector *c;
	struct hm_convert_stats conv;
	time_t last_save;
	unsigned long n;		/* events since the last PROGRESS */
};

int hm_learn_session_new(struct hm_learn_session **out,
			 const struct hm_learn_session_opts *o,
			 struct hm_model *m, struct hm_learner *l,
			 struct hm_collector *c)
{
	struct hm_learn_session *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->o = *o;
	s->m = m;
	s->l = l;
	s->c = c;
	s->last_save = time(NULL);
	*out = s;
	return 0;
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

struct hm_learner *hm_learn_session_learner(const struct hm_learn_session *s)
{
	return s->l;
}

const struct hm_convert_stats *
hm_learn_session_converted(const struct hm_learn_session *s)
{
	return &s->conv;
}

/* Describe a failure of @what on @file; returns @r. */
static int failed(struct hm_learn_session *s, const char *file,
		  const char *what, int r)
{
	hm_diag_add(s->o.diag, HM_DIAG_ERROR, file, 0, "%s: %s", what,
		    strerror(-r));
	return r;
}

int hm_learn_session_save(struct hm_learn_session *s)
{
	enum hm_dialect dialect = s->o.dialect >= 0 ?
				  (enum hm_dialect)s->o.dialect : s->m->dialect;
	int r;

	s->last_save = time(NULL);
	r = hm_mkdir_p(s->o.policy, 0700);
	if (r)
		return failed(s, s->o.policy, "creating", r);
	r = hm_policy_save_dir(s->m, s->o.policy, dialect, 0, &s->conv);
	if (r)
		return failed(s, s->o.policy, "saving", r);
	if (s->o.state) {
		r = hm_tracker_save(hm_walker_tracker(hm_learner_walker(s->l)),
				    s->o.state);
		if (r)
			return failed(s, s->o.state, "saving", r);
	}
	/* last: the events it says are done are in the files above */
	r = s->c ? hm_collector_checkpoint(s->c) : 0;
	if (r)
		return failed(s, "checkpoint", "saving", r);
	return 0;
}

/* Save, then learn on into the policy directory as it is on disk now. */
static int reload(struct hm_learn_session *s)
{
	struct hm_model *n;
	int r = hm_learn_session_save(s);

	if (r)
		return r;
	n = hm_model_new();
	if (!n)
		return failed(s, s->o.policy, "reloading", -ENOMEM);
	r = hm_policy_load_dir(n, s->o.policy, s->o.dialect, s->o.diag);
	if (r) {
		hm_diag_add(s->o.diag, HM_DIAG_WARNING, s->o.policy, 0,
			    "reload failed%s%s; learning goes on with the old "
			    "policy", r < 0 ? ": " : "",
			    r < 0 ? strerror(-r) : "");
		hm_model_free(n);
		return 0;
	}
	n->inherit_profile = s->m->inherit_profile;
	if (s->o.max_entry >= 0)
		n->max_learning_entry = (uint32_t)s->o.max_entry;
	r = hm_learner_set_model(s->l, n, s->o.lo);
	if (r) {
		hm_model_free(n);
		return failed(s, s->o.policy, "reloading", r);
	}
	hm_model_free(s->m);
	s->m = n;
	return 0;
}

static bool save_due(const struct hm_learn_session *s)
{
	return s->o.save_interval &&
	       time(NULL) - s->last_save >= (time_t)s->o.save_interval;
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
				return failed(s, s->o.policy, "learning", r);
			if (++s->n == HM_SESSION_BATCH) {
				s->n = 0;
				return HM_SESSION_PROGRESS;
			}
		} else if (r == -EINTR) {
			r = reload(s);
			return r ? r : HM_SESSION_SAVED;
		} else if (r == 0) {
			return HM_SESSION_END;
		} else if (r != -EAGAIN) {
			return failed(s, "audit records", "reading", r);
		}
		if (save_due(s)) {
			r = hm_learn_session_save(s);
			return r ? r : HM_SESSION_SAVED;
		}
		if (r == -EAGAIN)
			return HM_SESSION_IDLE;
	}
}
