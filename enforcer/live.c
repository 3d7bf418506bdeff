// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live.c - the enforcer's live policy: loaded at start (a policy with errors
 * refuses to enforce, unless --mode permissive), reloaded on SIGHUP by a
 * loader thread while the main loop keeps answering, learned into in
 * learning mode and saved on a timer and at exit through the policy
 * store (store.h): a directory an administrator edited is read again and
 * what was learned is added to it, so the edit stays.  Owns the model,
 * its decision index, the generalizer and the store (struct hm_live); the
 * swap happens in the main loop, between batches, and the caller then
 * flushes what was cached from the old policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/policy_io.h"
#include "histmac/profile.h"
#include "histmac/store.h"

/**
 * hm_live_profile() - the profile that applies to a domain.
 * @L: the live policy.
 * @own: the domain's own profile.
 * Returns: --mode's, else @own (an unknown one as permissive).
 */
uint8_t hm_live_profile(const struct hm_live *L, uint8_t own)
{
	if (L->o->mode != HM_ENFORCER_MODE_PER_DOMAIN)
		return (uint8_t)L->o->mode;
	/* profile.conf may define more; histmac knows the default four */
	return own <= HM_PROFILE_ENFORCING ? own : HM_PROFILE_PERMISSIVE;
}

static void print_diag(const struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		hm_log("%s", s ? s : "(out of memory)");
		free(s);
	}
	if (d->n_dropped)
		hm_log("... and %lu more messages", d->n_dropped);
}

static int new_generalizer(struct hm_live *L, struct hm_model *m,
			   struct hm_generalizer **out)
{
	struct hm_diag d = { 0 };
	int r = hm_generalizer_new(m, &L->o->lo, &d, out);

	print_diag(&d);
	hm_diag_free(&d);
	return r;
}

/* The directory, locked only while a save runs: an administrator's
 * command or a learner is not kept out for the daemon's life. */
static int open_store(struct hm_live *L)
{
	const struct hm_enforcer_opts *o = L->o;
	struct hm_store_opts so = {
		.dir = o->policy, .holder = "histmac enforce (learning save)",
		.learning = true, .read_dialect = HM_DIALECT_AUTO,
		.dialect = o->dialect, .diag = &L->diag,
	};
	int r = hm_store_open(&so, &L->st);

	if (r) {
		hm_store_close(L->st, false);
		L->st = NULL;
	}
	return r;
}

/* Returns 0, a positive number of errors in the policy, or -errno. */
static int load(struct hm_live *L)
{
	int r = open_store(L);

	if (!r)
		r = hm_store_load(L->st, true, &L->m);
	if (r >= 0) {
		int e = hm_enf_index_new(L->m, &L->ix);

		if (e)
			r = e;
	}
	return r;
}

static int first_load(struct hm_live *L)
{
	const struct hm_enforcer_opts *o = L->o;
	struct stat st;
	int r;

	if (stat(o->policy, &st) < 0 || !S_ISDIR(st.st_mode)) {
		hm_log("%s: not a policy directory", o->policy);
		return -ENOENT;
	}
	r = load(L);
	print_diag(&L->diag);
	hm_diag_free(&L->diag);
	if (r < 0) {
		hm_log("cannot load policy %s: %s", o->policy, strerror(-r));
		return r;
	}
	if (r > 0 && o->mode != HM_PROFILE_PERMISSIVE && !o->dry_run) {
		hm_log("%s: %d error%s in the policy (see above): refusing "
		       "to enforce it; fix it (histmac policy check -p %s) or "
		       "run with --mode permissive", o->policy, r,
		       r == 1 ? "" : "s", o->policy);
		return -EINVAL;
	}
	if (r > 0)
		hm_log("%s: %d error%s in the policy: going on (permissive)",
		       o->policy, r, r == 1 ? "" : "s");
	L->errors = r > 0;
	if (o->record_use) {	/* count this run's alone (the store adds) */
		hm_model_clear_uses(L->m);
		hm_store_set_counting(L->st, true);
	}
	return new_generalizer(L, L->m, &L->g);
}

/**
 * hm_live_load() - load @o's policy directory to enforce it.  A policy
 * with errors is refused unless --mode permissive or --dry-run.
 * @o: the options; borrowed, must outlive the policy.
 * @c: counters (reloads, saves); borrowed.
 * @out: caller frees with hm_live_free().
 * Returns: 0, -EINVAL (errors in the policy), or -errno; logged.
 */
int hm_live_load(const struct hm_enforcer_opts *o,
		 struct hm_enforcer_counters *c, struct hm_live **out)
{
	struct hm_live *L = calloc(1, sizeof(*L));
	int r;

	if (!L)
		return -ENOMEM;
	L->o = o;
	L->c = c;
	L->last_save_ns = hm_now_ns();
	r = first_load(L);
	if (r) {
		hm_live_free(L);
		return r;
	}
	*out = L;
	return 0;
}

static void drop_loaded(struct hm_live *L)
{
	hm_enf_index_free(L->loaded_ix);
	L->loaded_ix = NULL;
	hm_store_snap_free(&L->loaded);
	if (L->loaded_diag) {
		print_diag(L->loaded_diag);
		hm_diag_free(L->loaded_diag);
		free(L->loaded_diag);
		L->loaded_diag = NULL;
	}
}

/**
 * hm_live_free() - wait for a reload under way, and free it all.
 * @L: may be NULL.
 */
void hm_live_free(struct hm_live *L)
{
	if (!L)
		return;
	if (L->loading) {
		pthread_join(L->loader, NULL);
		drop_loaded(L);
	}
	hm_generalizer_free(L->g);
	hm_enf_index_free(L->ix);
	hm_model_free(L->m);
	hm_model_free(L->scratch);
	hm_store_close(L->st, false);
	print_diag(&L->diag);	/* what closing said: an edit lost */
	hm_diag_free(&L->diag);
	free(L);
}

/* ------------------------------------------------------------- reload */

/*
 * The directory as it is now (once its files hold still), indexed.  The
 * index is of the policy as read: if this enforcer learned meanwhile, the
 * main loop adds that and indexes again (hm_live_reload_finish()).
 */
static void *loader(void *arg)
{
	struct hm_live *L = arg;
	struct hm_diag *d = calloc(1, sizeof(*d));
	int r = d ? hm_store_read(L->st, &L->loaded, d) : -ENOMEM;

	if (!r && L->loaded.errors)
		r = L->loaded.errors;
	if (r >= 0) {
		int e = hm_enf_index_new(L->loaded.m, &L->loaded_ix);

		if (e)
			r = e;
	}
	L->loaded_status = r;
	L->loaded_diag = d;
	/* the flag, then the signal (read through the loop's signalfd):
	 * a SIGUSR2 from anyone else finds the flag clear */
	atomic_store(&L->loaded_done, true);
	kill(getpid(), SIGUSR2);
	return NULL;
}

/**
 * hm_live_reload_start() - load the policy directory again in a thread;
 * SIGUSR2 says it is done.  What was learned or counted and not saved
 * yet is added to what is read when it is taken
 * (hm_live_reload_finish()), so neither an administrator's edit nor
 * learning is lost.
 * @L: the live policy.
 * Returns: 0 (also when a reload is under way already) or -errno.
 */
int hm_live_reload_start(struct hm_live *L)
{
	int r;

	if (L->loading)
		return 0;	/* one at a time; this HUP joins it */
	r = pthread_create(&L->loader, NULL, loader, L);
	if (r)
		return -r;
	L->loading = true;
	hm_log("reloading %s", L->o->policy);
	return 0;
}

/* Has the loader a policy we may take?  Returns 0 or a negative errno. */
static int loaded_ok(struct hm_live *L)
{
	int r = L->loaded_status;

	if (r > 0 && L->o->mode != HM_PROFILE_PERMISSIVE)
		return -EINVAL;
	return r < 0 ? r : 0;
}

/*
 * Take the policy read: what this enforcer learned or counted since its
 * last save is added to it (the store's rebase: entries, and the quiet
 * counts, which are ours), then it is indexed again.
 * Returns 0 or a negative errno (the old policy stays).
 */
static int adopt(struct hm_live *L)
{
	bool ours = L->dirty || L->seen;
	int r = hm_store_adopt(L->st, &L->loaded, ours ? L->m : NULL);

	if (r || !ours)
		return r;
	hm_enf_index_free(L->loaded_ix);
	L->loaded_ix = NULL;
	r = hm_enf_index_new(L->loaded.m, &L->loaded_ix);
	if (r)	/* the old policy stays: the next save must read again */
		hm_store_forget(L->st);
	return r;
}

/*
 * --record-use: the policy read has the directory's use counts; the
 * model in use counts only what was not saved yet, and carries that
 * over (an entry edited away loses its uses, as it is gone).
 */
static int carry_uses(struct hm_live *L)
{
	if (!L->o->record_use)
		return 0;
	hm_model_clear_uses(L->loaded.m);
	return L->used ? hm_model_add_uses(L->loaded.m, L->m) : 0;
}

static void put_in_place(struct hm_live *L, struct hm_generalizer *g)
{
	if (L->t)
		hm_tracker_set_model(L->t, L->loaded.m);
	hm_enf_index_free(L->ix);
	hm_generalizer_free(L->g);
	hm_model_free(L->m);
	L->m = L->loaded.m;
	L->ix = L->loaded_ix;
	L->g = g;
	L->loaded.m = NULL;
	L->loaded_ix = NULL;
}

/* Join the loader and take what it read, or say why not. */
static int take_loaded(struct hm_live *L)
{
	struct hm_generalizer *g = NULL;
	bool unsaved = hm_live_unsaved(L);
	int r;

	pthread_join(L->loader, NULL);
	L->loading = false;
	atomic_store(&L->loaded_done, false);
	r = loaded_ok(L);
	if (!r)
		r = new_generalizer(L, L->loaded.m, &g);
	if (!r && (r = adopt(L)) == 0 && (r = carry_uses(L)))
		hm_store_forget(L->st);	/* adopted: read again next time */
	if (r)
		hm_generalizer_free(g);
	if (r) {
		L->c->reload_failures++;
		hm_log("reload refused (%s): the old policy stays",
		       r == -EINVAL ? "errors in the policy" :
				      strerror(-r));
		drop_loaded(L);
		return r;
	}
	L->errors = L->loaded_status > 0;
	put_in_place(L, g);
	drop_loaded(L);
	L->c->reloads++;
	hm_log("policy reloaded: %zu domains", L->m->n_domains);
	if (unsaved)	/* the edit and our learning or counts, on disk */
		hm_live_save(L);
	return 1;
}

/**
 * hm_live_reload_finish() - put the reloaded policy in place when the
 * loader is done and it has no errors (else the old one stays), with
 * what was learned since the last save added, and save that.
 * @L: the live policy.
 * Returns: 1 swapped (the caller flushes what it cached), 0 nothing to
 * take, or a negative errno (-EINVAL: errors in it) when refused.
 */
int hm_live_reload_finish(struct hm_live *L)
{
	if (!L->loading || !atomic_load(&L->loaded_done))
		return 0;
	return take_loaded(L);
}

/* ------------------------------------------------------------ learning */

/* A domain created by learning inherits use_group and use_profile from
 * its nearest ancestor, as TOMOYO's (and the tracker's) do. */
static int learn_domain(struct hm_live *L, const struct hm_name *name,
			struct hm_domain **out)
{
	int r = hm_model_domain(L->m, name->str, name->len, true, out);

	if (r == 1) {
		hm_domain_inherit(L->m, *out);
		/* processes already in it must find it */
		if (L->t)
			hm_tracker_set_model(L->t, L->m);
	}
	return r < 0 ? r : 0;
}

/* Folding freed entries the index (and the cache, --record-use's
 * entries) points to: build it again. */
static int reindex(struct hm_live *L)
{
	struct hm_enf_index *ix;
	int r;

	if (L->cache)
		hm_dcache_invalidate(L->cache);
	r = hm_enf_index_new(L->m, &ix);
	if (r)
		return r;
	hm_enf_index_free(L->ix);
	L->ix = ix;
	return 0;
}

/* One more event of learning domain @d: quiet until one adds something
 * (hm_learn_add() restarts the count), as `learn` counts audit events. */
static void seen(struct hm_domain *d)
{
	d->events++;
	d->quiet_events++;
}

/**
 * hm_live_seen() - an open of a learning domain the policy allowed: one
 * more quiet event for `histmac stats`' verdict (saved at the next save:
 * every --save-interval while they come, and at stop).
 * @L: the live policy.
 * @d: the process's domain; NULL (the policy lacks it): nothing.
 */
void hm_live_seen(struct hm_live *L, struct hm_domain *d)
{
	if (!d)
		return;
	seen(d);
	L->seen = true;
}

/**
 * hm_live_learn() - add what a learning domain did to the policy, as the
 * learner would (generalized), within max_learning_entry, stamped with
 * the wall-clock second (as audit times are) for `histmac stats`.
 * @L: the live policy.
 * @domain_name: the process's domain (created when missing).
 * @perm: bitmask of enum hm_file_op; 0: read.
 * @path: the object's name.
 * @ctx: task values for a condition; may be NULL.
 * Returns: 0 or -errno.
 */
int hm_live_learn(struct hm_live *L, const struct hm_name *domain_name,
		  uint32_t perm, const struct hm_name *path,
		  const struct hm_cond_ctx *ctx)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path, .ctx = ctx };
	struct hm_learn_added res;
	union hm_acl_any e;
	struct hm_domain *d;
	int r = learn_domain(L, domain_name, &d);

	if (!r) {
		seen(d);	/* quiet unless what follows adds */
		L->seen = true;
		r = hm_learn_quota(L->m, d, L->g, &L->scratch, NULL, &req,
				   &res);
	}
	if (r > 0) {
		r = hm_generalize_request(L->g, L->m, &req, NULL, &e);
		e.head.perm = perm ? perm : 1u << HM_FILE_READ;
		if (!r)
			r = hm_learn_add(L->m, d, &e, (int64_t)time(NULL),
					 &res);	/* learn's own, stamped */
	}
	if (r || res.what == HM_LEARN_KNOWN)
		return r;
	if (res.what == HM_LEARN_QUOTA) {
		if (res.first_quota_hit)
			hm_log("%s: max_learning_entry (%u) reached; learning "
			       "stops for this domain", d->name->str,
			       L->m->max_learning_entry);
		return 0;
	}
	L->dirty = true;
	return res.folded ? reindex(L) : hm_enf_index_add(L->ix, d, res.in);
}

/**
 * hm_live_unsaved() - is there something to save: entries learned, or
 * uses (--record-use) or a learning domain's events counted, since the
 * last save?  Counts alone are not saved over a policy with errors
 * (permissive mode runs one): the save would drop its bad lines; they
 * wait for a reload without errors.
 * @L: the live policy.
 */
bool hm_live_unsaved(const struct hm_live *L)
{
	return L->dirty || ((L->used || L->seen) && !L->errors);
}

static void saved(struct hm_live *L)
{
	/* the store added our counts to the directory's */
	if (L->used)
		hm_model_clear_uses(L->m);
	L->used = false;
	L->dirty = false;
	L->seen = false;
	L->c->saves++;
	hm_log("policy saved to %s", L->o->policy);
}

static int save_failed(struct hm_live *L, int r)
{
	const struct hm_lock_holder *h = hm_store_holder(L->st);

	if (r == -EWOULDBLOCK)
		hm_log("saving %s: being written by pid %ld (%s); will try "
		       "again", L->o->policy, (long)h->pid, h->command);
	else if (L->diag.n_msgs)
		print_diag(&L->diag);
	else
		hm_log("saving %s: %s", L->o->policy, strerror(-r));
	hm_diag_free(&L->diag);
	return r;
}

/**
 * hm_live_save() - save what was learned into the policy directory
 * through its store (crash-safe, under its lock).  A directory edited
 * since it was loaded or saved is not saved over: it is reloaded, and
 * the reload adds what was learned and saves (hm_live_reload_finish()).
 * @L: the live policy.
 * Returns: 0 (saved, or a reload started) or -errno (logged; -EWOULDBLOCK:
 * another writer holds the lock, tried again at the next interval).
 */
int hm_live_save(struct hm_live *L)
{
	int r;

	L->last_save_ns = hm_now_ns();
	if (L->loading)
		return 0;	/* the reload saves when it is done */
	r = hm_store_save(L->st, L->m, NULL, 0);
	if (r == -ESTALE) {
		hm_log("%s was edited: reloading it before saving",
		       L->o->policy);
		return hm_live_reload_start(L);
	}
	if (r)
		return save_failed(L, r);
	saved(L);
	return 0;
}

/* At stop a writer holding the lock is waited for this long. */
#define LAST_SAVE_WAIT_S 30
#define LAST_SAVE_TRIES 5

/**
 * hm_live_save_last() - the save at stop: a reload under way is taken
 * first; an edited directory is read here (no loop left to wait for a
 * loader); the lock is waited for up to LAST_SAVE_WAIT_S seconds.
 * @L: the live policy.
 * Returns: 0 or -errno (logged).
 */
int hm_live_save_last(struct hm_live *L)
{
	int r = 0;

	hm_store_set_wait(L->st, LAST_SAVE_WAIT_S);
	for (int i = 0; i < LAST_SAVE_TRIES; i++) {
		if (L->loading) {	/* it saves what it adds */
			while (!atomic_load(&L->loaded_done))
				usleep(10000);
			take_loaded(L);
			continue;
		}
		if (!hm_live_unsaved(L))
			break;
		r = hm_store_save(L->st, L->m, NULL, 0);
		if (!r)
			saved(L);
		else if (r != -ESTALE)
			return save_failed(L, r);
		else if ((r = hm_live_reload_start(L)))
			break;
	}
	if (hm_live_unsaved(L))
		hm_log("%s: what was learned or counted since the last save "
		       "is not saved", L->o->policy);
	else if (L->used)
		hm_log("%s: use counts not saved: the policy has errors",
		       L->o->policy);
	return r;
}

/**
 * hm_live_acl_line() - the entry learning would add for @perm on @path,
 * as a policy line (for logs and supervisor queries).
 * @L: the live policy.
 * @path: the object's name.
 * @perm: bitmask of enum hm_file_op; 0: read.
 * Returns: the line (caller frees with free()) or NULL (no memory).
 */
char *hm_live_acl_line(struct hm_live *L, const struct hm_name *path,
		       uint32_t perm)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path };
	union hm_acl_any a;
	char *line = NULL;

	if (!perm)
		perm = 1u << HM_FILE_READ;
	if (hm_generalize_request(L->g, L->m, &req, NULL, &a))
		return NULL;
	a.head.perm = perm;
	if (hm_acl_format(L->m, &a.head, L->m->dialect, &line, NULL))
		return NULL;
	return line;
}
