// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store.c - one owner of a policy directory: the writer's lock, loading,
 * seeing an administrator's edit, rebasing what a writer learned onto it,
 * and the save in crash order (policy and path rule, process table,
 * checkpoint).  See store.h for who uses it and how.
 *
 * Owns: the lock, the base (a copy of the policy as loaded or saved, for
 * learning writers) and the files' identity as last seen.  Borrows: the
 * path rule, the process table, the collector.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "histmac/fs.h"
#include "histmac/rebase.h"
#include "histmac/store.h"
#include "histmac/tracker.h"

struct hm_store {
	struct hm_store_opts o;
	struct hm_lock *lock;		/* held (o.hold), else NULL */
	struct hm_lock_holder holder;	/* who had it, when taking failed */
	struct hm_model *base;		/* o.learning: as loaded or saved */
	struct stat seen[HM_STORE_EDITED];
	const struct hm_path_rule *paths;
	const char *stamp_root;		/* packages.h; NULL: no stamp */
	struct hm_tracker *t;
	const char *state;
	struct hm_collector *c;
	struct hm_convert_stats conv;
	bool counting;			/* uses saved are added to disk's */
	bool last;			/* no base after the next save */
	int held[HM_STORE_EDITED];	/* an edit made while saving that
					 * could not be put back yet: the
					 * replaced file, open; -1 none */
};

/* The files an administrator edits; a change to one means an edit. */
static const char *const edited[HM_STORE_EDITED] = {
	HM_DOMAIN_POLICY, HM_EXCEPTION_POLICY, HM_PROFILE_CONF,
};

static void stat_files(const struct hm_store *s, struct stat *st)
{
	char path[4096];

	for (size_t i = 0; i < HM_STORE_EDITED; i++) {
		snprintf(path, sizeof(path), "%s/%s", s->o.dir, edited[i]);
		if (stat(path, &st[i]) < 0)
			memset(&st[i], 0, sizeof(st[i]));
	}
}

/* ctime too: an edit in place of the same size within one mtime tick */
static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static bool same_files(const struct stat *a, const struct stat *b)
{
	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		if (!same_file(&a[i], &b[i]))
			return false;
	return true;
}

bool hm_store_edited(const struct hm_store *s)
{
	struct stat now[HM_STORE_EDITED];

	stat_files(s, now);
	return !same_files(now, s->seen);
}

/* Describe a failure of @what on @file; returns @r. */
static int failed(struct hm_store *s, const char *file, const char *what,
		  int r)
{
	if (s->o.diag)
		hm_diag_add(s->o.diag, HM_DIAG_ERROR, file, 0, "%s: %s", what,
			    strerror(-r));
	return r;
}

static int take_lock(struct hm_store *s, struct hm_lock **out)
{
	memset(&s->holder, 0, sizeof(s->holder));
	return hm_lock_take(s->o.dir, s->o.holder, s->o.wait_s, &s->holder,
			    out);
}

int hm_store_open(const struct hm_store_opts *o, struct hm_store **out)
{
	struct hm_store *s = calloc(1, sizeof(*s));
	int r;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->o = *o;
	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		s->held[i] = -1;
	if (o->hold && (r = take_lock(s, &s->lock))) {
		*out = s;	/* for hm_store_holder(); close it */
		return r;
	}
	stat_files(s, s->seen);
	*out = s;
	return 0;
}

const char *hm_store_dir(const struct hm_store *s)
{
	return s->o.dir;
}

struct hm_diag *hm_store_diag(const struct hm_store *s)
{
	return s->o.diag;
}

void hm_store_set_dialect(struct hm_store *s, int dialect)
{
	s->o.dialect = dialect;
}

void hm_store_set_wait(struct hm_store *s, int wait_s)
{
	s->o.wait_s = wait_s;
}

const struct hm_lock_holder *hm_store_holder(const struct hm_store *s)
{
	return &s->holder;
}

bool hm_store_has_policy(const struct hm_store *s)
{
	static const char *const files[] = { HM_DOMAIN_POLICY,
					     HM_EXCEPTION_POLICY };
	char path[4096];

	for (size_t i = 0; i < HM_ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", s->o.dir, files[i]);
		if (access(path, F_OK) == 0)
			return true;
	}
	return false;
}

/* What is on disk now is what learning is counted from. */
static int set_base(struct hm_store *s, const struct hm_model *m,
		    const struct stat *st)
{
	struct hm_model *b = NULL;

	if (s->o.learning && m) {
		int r = hm_model_copy(m, &b);

		if (r)
			return r;
	}
	hm_model_free(s->base);
	s->base = b;
	memcpy(s->seen, st, sizeof(s->seen));
	return 0;
}

int hm_store_load(struct hm_store *s, bool may_be_missing,
		  struct hm_model **out)
{
	struct hm_model *m = hm_model_new();
	struct stat st[HM_STORE_EDITED];
	int r = 0;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	/* a save a crash interrupted is finished first: its files are
	 * not an administrator's edit */
	hm_atomic_recover(s->o.dir);
	stat_files(s, st);
	if (may_be_missing && access(s->o.dir, F_OK) < 0 && errno == ENOENT) {
		if (s->o.dialect >= 0)
			hm_model_set_dialect(m, (enum hm_dialect)s->o.dialect);
	} else if (!may_be_missing && !hm_store_has_policy(s)) {
		r = -ENOENT;
	} else {
		r = hm_policy_load_dir(m, s->o.dir, s->o.read_dialect,
				       s->o.diag);
	}
	if (r >= 0) {
		int e = set_base(s, m, st);

		r = e ? e : r;
	}
	if (r < 0) {
		hm_model_free(m);
		return r;
	}
	*out = m;
	return r;
}

/*
 * An editor that writes a file in place (truncate, then write) leaves a
 * moment when it is empty or half written; reading it then and saving
 * would make that the policy.  So the files are read only once none was
 * changed in the last SETTLE_MS, and the read counts only if no file
 * changed while it was read; else it is tried again, for up to
 * SETTLE_TRIES * SETTLE_MS, then taken as it is (with a warning).
 */
#define SETTLE_MS 100
#define SETTLE_TRIES 30

/* Was @st changed in the last SETTLE_MS? */
static bool fresh(const struct stat *st)
{
	struct timespec now;
	int64_t age_ms;

	clock_gettime(CLOCK_REALTIME, &now);
	age_ms = (now.tv_sec - st->st_mtim.tv_sec) * 1000 +
		 (now.tv_nsec - st->st_mtim.tv_nsec) / 1000000;
	return st->st_ino && age_ms < SETTLE_MS;
}

static bool settled(const struct stat *st)
{
	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		if (fresh(&st[i]))
			return false;
	return true;
}

/* One read: 1 it counts, 0 a file changed meanwhile, < 0 errno. */
static int read_once(const struct hm_store *s, struct hm_store_snap *out,
		     struct hm_diag *d)
{
	struct stat after[HM_STORE_EDITED];
	int r;

	out->m = hm_model_new();
	if (!out->m)
		return -ENOMEM;
	r = hm_policy_load_dir(out->m, s->o.dir, s->o.read_dialect, d);
	stat_files(s, after);
	if (r >= 0 && same_files(out->st, after)) {
		out->errors = r;
		return 1;
	}
	hm_model_free(out->m);
	out->m = NULL;
	return r < 0 ? r : 0;
}

/* Read once more, as the files are, saying what is wrong in them. */
static int read_saying(const struct hm_store *s, struct hm_store_snap *out,
		       struct hm_diag *d)
{
	int r;

	stat_files(s, out->st);
	out->m = hm_model_new();
	if (!out->m)
		return -ENOMEM;
	r = hm_policy_load_dir(out->m, s->o.dir, s->o.read_dialect, d);
	if (r < 0) {
		hm_store_snap_free(out);
		return r;
	}
	out->errors = r;
	return 0;
}

int hm_store_read(const struct hm_store *s, struct hm_store_snap *out,
		  struct hm_diag *d)
{
	int r;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < SETTLE_TRIES; i++) {
		stat_files(s, out->st);
		/* no diagnostics from a read that may not count */
		r = settled(out->st) ? read_once(s, out, NULL) : 0;
		if (r < 0 || (r == 1 && !out->errors))
			return r < 0 ? r : 0;
		if (r == 1) {		/* errors: read again, saying them */
			hm_store_snap_free(out);
			return read_saying(s, out, d);
		}
		usleep(SETTLE_MS * 1000);
	}
	if (d)
		hm_diag_add(d, HM_DIAG_WARNING, s->o.dir, 0,
			    "the policy files keep changing; reading them as "
			    "they are");
	return read_saying(s, out, d);
}

void hm_store_snap_free(struct hm_store_snap *snap)
{
	hm_model_free(snap->m);
	snap->m = NULL;
}

static int merge_all(struct hm_model *into, const struct hm_model *m)
{
	long n = hm_model_merge(into, m);

	return n < 0 ? (int)n : 0;
}

int hm_store_adopt(struct hm_store *s, struct hm_store_snap *snap,
		   const struct hm_model *cur)
{
	struct hm_model *b = NULL;
	int r = 0;

	/* the base is the directory as read, before our learning is in */
	if (s->o.learning && (r = hm_model_copy(snap->m, &b)))
		return r;
	if (cur && s->base)
		r = hm_model_rebase(snap->m, cur, s->base);
	else if (cur)	/* no base: all of it is ours */
		r = merge_all(snap->m, cur);
	if (r) {
		hm_model_free(b);
		return r;
	}
	hm_model_free(s->base);
	s->base = b;
	memcpy(s->seen, snap->st, sizeof(s->seen));
	return 0;
}

void hm_store_forget(struct hm_store *s)
{
	memset(s->seen, 0xff, sizeof(s->seen));	/* no file is like that */
}

void hm_store_set_paths(struct hm_store *s, const struct hm_path_rule *r)
{
	s->paths = r;
}

void hm_store_set_stamp(struct hm_store *s, const char *root)
{
	s->stamp_root = root;
}

void hm_store_set_state(struct hm_store *s, struct hm_tracker *t,
			const char *path, struct hm_collector *c)
{
	s->t = t;
	s->state = path;
	s->c = c;
}

void hm_store_set_counting(struct hm_store *s, bool on)
{
	s->counting = on;
}

void hm_store_set_last(struct hm_store *s)
{
	s->last = true;
}

int hm_store_load_state(struct hm_store *s, struct hm_tracker *t,
			const char *path)
{
	if (access(path, F_OK) < 0)
		return 0;
	return hm_tracker_load(t, path, s->o.diag, NULL, NULL);
}

#define EXTRA_MAX 2

/* The policy, its path rule and @extra: one commit, if @g lets it. */
static int write_policy(struct hm_store *s, const struct hm_model *m,
			const struct hm_file_out *extra, size_t n_extra,
			const struct hm_commit_guard *g)
{
	struct hm_file_out f[EXTRA_MAX + 1] = { 0 };
	enum hm_dialect dialect = s->o.dialect >= 0 ?
				  (enum hm_dialect)s->o.dialect : m->dialect;
	size_t n = 0;
	int r = 0;

	if (n_extra > EXTRA_MAX)
		return -EINVAL;
	if (s->paths && (r = hm_path_rule_text(s->paths, &f[n++])))
		return r;
	for (size_t i = 0; i < n_extra; i++)
		f[n++] = extra[i];
	r = hm_mkdir_p(s->o.dir, 0700);
	if (!r)	/* stamping sets only the packages, the save's own */
		r = hm_policy_save_dir_stamped((struct hm_model *)m, s->o.dir,
					       dialect, &s->conv, f, n,
					       s->stamp_root, g);
	if (s->paths)
		free((char *)f[0].text);
	return r;
}

/* Counting: the uses of @m's entries, in walk order, to put back. */
static uint64_t *take_uses(const struct hm_model *m)
{
	size_t n = 0, k = 0;
	uint64_t *v;

	for (size_t i = 0; i < m->n_domains; i++)
		n += m->domains[i]->n_acl;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; v && i < m->n_domains; i++)
		for (const struct hm_acl_head *e = m->domains[i]->acl; e;
		     e = e->next)
			v[k++] = e->hist.uses;
	return v;
}

static void put_uses(struct hm_model *m, const uint64_t *v)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		for (struct hm_acl_head *e = m->domains[i]->acl; e; e = e->next)
			e->hist.uses = v[k++];
}

/*
 * Counting (hm_store_set_counting()): add the uses counted in the
 * directory now to @m's for the save; the policy there is the one @m was
 * loaded from or last saved as (the caller checked it was not edited).
 * The counts are bookkeeping beside the entries (as hm_acl_hist_use()
 * treats them): the caller gets its own back (put_uses()).
 */
static int add_disk_uses(const struct hm_store *s, struct hm_model *m)
{
	struct hm_model *disk = hm_model_new();
	int r = disk ? hm_policy_load_dir(disk, s->o.dir, s->o.read_dialect,
					  NULL) : -ENOMEM;

	if (r >= 0)
		r = hm_model_add_uses(m, disk);
	hm_model_free(disk);
	return r;
}

/*
 * An administrator's edit can land while a save renders and commits
 * (a second and more for a large policy and its package stamps).  So the
 * save looks again just before its commit point (before_commit(), which
 * holds each edited file open from then) and once more after it
 * (as_left()):
 *  - an edit in place of a file the commit then replaced went into the
 *    replaced inode, which no name reaches any more: it is put back;
 *  - any other change (written after our rename, renamed in, written in
 *    place of a file the save left alone) is on disk already.
 * Either way the save reports -ESTALE and keeps its base, so the writer
 * reads the edit and rebases all it learned onto it.  Not seen: an
 * editor's rename in the moment between the look before the commit and
 * our rename over it.
 */
struct watch {
	struct hm_store *s;
	int fd[HM_STORE_EDITED];		/* as last seen; -1: none */
	struct stat staged[HM_STORE_EDITED];	/* ours; st_ino 0: left alone */
};

static void edited_path(const struct hm_store *s, size_t i, char *path,
			size_t size)
{
	snprintf(path, size, "%s/%s", s->o.dir, edited[i]);
}

/* @fd's identity, zeroed for none (as stat_files() leaves a missing one) */
static void fd_stat(int fd, struct stat *st)
{
	if (fd < 0 || fstat(fd, st) < 0)
		memset(st, 0, sizeof(*st));
}

static int before_commit(void *arg, const struct hm_file_out *f,
			 const struct stat *staged, size_t n)
{
	struct watch *w = arg;
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < HM_STORE_EDITED; i++) {
		edited_path(w->s, i, path, sizeof(path));
		/* O_NONBLOCK: a FIFO in its place does not stall the save */
		w->fd[i] = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
					      O_NOCTTY);
		fd_stat(w->fd[i], &st);
		if (!same_file(&st, &w->s->seen[i]))
			return -ESTALE;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(f[j].name, edited[i]))
				w->staged[i] = staged[j];
	}
	return 0;
}

static void unwatch(struct watch *w)
{
	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
}

/* The same inode, not written since?  Renaming it, or over it, changes
 * only its ctime (the file the save wrote, the file it replaced). */
static bool unwritten(const struct stat *now, const struct stat *then)
{
	return now->st_ino == then->st_ino && now->st_dev == then->st_dev &&
	       now->st_size == then->st_size &&
	       now->st_mtim.tv_sec == then->st_mtim.tv_sec &&
	       now->st_mtim.tv_nsec == then->st_mtim.tv_nsec;
}

/* The edit in @fd, which the commit replaced, back in place of ours once
 * it holds still (as hm_store_read() waits).  Returns 0 or -errno. */
static int put_back(struct hm_store *s, size_t i, int fd)
{
	char path[4096];
	struct stat st;
	int r;

	for (int k = 0; k < SETTLE_TRIES; k++) {
		fd_stat(fd, &st);
		if (!fresh(&st))
			break;
		usleep(SETTLE_MS * 1000);
	}
	edited_path(s, i, path, sizeof(path));
	r = hm_atomic_write_fd(path, fd);
	if (r) {
		failed(s, path, "putting back an edit made while saving", r);
		if (s->o.diag)
			hm_diag_add(s->o.diag, HM_DIAG_ERROR, path, 0,
				    "the edit is held open and put back "
				    "before the next save");
	} else if (s->o.diag) {
		hm_diag_add(s->o.diag, HM_DIAG_NOTE, path, 0,
			    "edited while it was saved: the edit stays, and "
			    "what was learned is added to it");
	}
	return r;
}

/*
 * An edit a put-back could not write (a full disk) lives only in the
 * replaced file, which the store holds open: it goes back first, before
 * anything else is saved.  Returns 1 when one went back (the directory
 * changed: read it again), 0 when none is held, or -errno (still held).
 */
static int put_back_held(struct hm_store *s)
{
	int r = 0;

	for (size_t i = 0; i < HM_STORE_EDITED; i++) {
		int e = s->held[i] >= 0 ? put_back(s, i, s->held[i]) : 0;

		if (e < 0)
			return e;
		if (s->held[i] >= 0) {
			close(s->held[i]);
			s->held[i] = -1;
			r = 1;
		}
	}
	if (r)
		hm_store_forget(s);
	return r;
}

/* At close, a held edit's last chance (under the lock, as a save). */
static void close_held(struct hm_store *s)
{
	struct hm_lock *lock = NULL;
	char path[4096];
	bool any = false;

	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		any |= s->held[i] >= 0;
	if (!any)
		return;
	if (!s->lock && take_lock(s, &lock))
		lock = NULL;	/* put back all the same: else it is lost */
	put_back_held(s);
	hm_lock_release(lock, false);
	for (size_t i = 0; i < HM_STORE_EDITED; i++) {
		if (s->held[i] < 0)
			continue;
		edited_path(s, i, path, sizeof(path));
		if (s->o.diag)
			hm_diag_add(s->o.diag, HM_DIAG_ERROR, path, 0,
				    "an edit made while saving could not be "
				    "put back and is lost");
		close(s->held[i]);
	}
}

void hm_store_close(struct hm_store *s, bool fail)
{
	if (!s)
		return;
	close_held(s);
	hm_lock_release(s->lock, fail);
	hm_model_free(s->base);
	free(s);
}

/*
 * After the commit, or a failure past it: are the edited files as the
 * save left them (@now: their identity)?  Else an edit landed meanwhile,
 * put back where it went into a replaced file (or held when that fails).
 * Returns 0 clean, 1 edited, or the -errno of a put-back that failed.
 */
static int as_left(struct hm_store *s, struct watch *w, struct stat *now)
{
	int r = 0;
	struct stat held;

	stat_files(s, now);
	for (size_t i = 0; i < HM_STORE_EDITED; i++) {
		fd_stat(w->fd[i], &held);
		if (!w->staged[i].st_ino) {
			r = r ? r : !same_file(&now[i], &s->seen[i]);
		} else if (!unwritten(&now[i], &w->staged[i])) {
			r = r ? r : 1;
		} else if (w->fd[i] >= 0 && !unwritten(&held, &s->seen[i])) {
			int e = put_back(s, i, w->fd[i]);

			if (e < 0) {		/* the store keeps it open */
				s->held[i] = w->fd[i];
				w->fd[i] = -1;
			}
			r = r < 0 ? r : e < 0 ? e : 1;
		}
	}
	return r;
}

/* Under the lock: the policy, then the process table, then the
 * checkpoint (the events it says are done are in the files above). */
static int save_locked(struct hm_store *s, const struct hm_model *m,
		       const struct hm_file_out *extra, size_t n_extra)
{
	struct watch w = { .s = s };
	struct hm_commit_guard g = { before_commit, &w };
	struct stat st[HM_STORE_EDITED];
	uint64_t *own = NULL;
	int edit;
	int r;

	r = put_back_held(s);
	if (r)
		return r < 0 ? r : -ESTALE;
	if (hm_store_edited(s))
		return -ESTALE;
	for (size_t i = 0; i < HM_STORE_EDITED; i++)
		w.fd[i] = -1;
	if (s->counting) {
		own = take_uses(m);
		r = own ? add_disk_uses(s, (struct hm_model *)m) : -ENOMEM;
		if (r) {
			if (own)
				put_uses((struct hm_model *)m, own);
			free(own);
			return failed(s, s->o.dir, "reading its use counts", r);
		}
	}
	r = write_policy(s, m, extra, n_extra, &g);
	if (own)
		put_uses((struct hm_model *)m, own);
	free(own);
	/* a commit that failed past its renames replaced the files too */
	edit = r == -ESTALE ? 0 : as_left(s, &w, st);
	unwatch(&w);
	if (r == -ESTALE)
		return r;
	if (r)
		return failed(s, s->o.dir, "saving", r);
	if (edit < 0)
		return edit;	/* said; the base stays, as below */
	if (edit) {	/* the base stays what the edit is measured from */
		hm_store_forget(s);
		return -ESTALE;
	}
	r = set_base(s, s->last ? NULL : m, st);
	if (r)
		return failed(s, s->o.dir, "saving", r);
	if (s->t && s->state && (r = hm_tracker_save(s->t, s->state)))
		return failed(s, s->state, "saving", r);
	if (s->c && (r = hm_collector_checkpoint(s->c)))
		return failed(s, "checkpoint", "saving", r);
	return 0;
}

int hm_store_save(struct hm_store *s, const struct hm_model *m,
		  const struct hm_file_out *extra, size_t n_extra)
{
	struct hm_lock *lock = NULL;
	int r;

	if (!s->lock && (r = take_lock(s, &lock)))
		return r == -EWOULDBLOCK ? r : failed(s, s->o.dir, "locking", r);
	r = save_locked(s, m, extra, n_extra);
	hm_lock_release(lock, false);
	return r;
}

const struct hm_convert_stats *hm_store_converted(const struct hm_store *s)
{
	return &s->conv;
}
