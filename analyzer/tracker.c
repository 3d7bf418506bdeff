// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracker.c - the process table: (node, pid) -> (ppid, exe, domain name).
 * The node is the host of a multi-host log (node=); the enforcer and
 * single-host logs have none.  Owns
 * its processes and a name table for domain names and executables; holds
 * domain pointers only as a cache keyed on the model generation.  Gets
 * events from the learner (audit) or the enforcer (proc connector); hands
 * back domains.  Bounded: the least recently seen process is evicted.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/naming.h"
#include "histmac/word.h"
#include "histmac/profile.h"
#include "histmac/sbuf.h"
#include "histmac/tracker.h"
#include "histmac/map.h"

#define DEFAULT_MAX_PROCS (1u << 20)

struct proc {
	int64_t pid;
	int64_t ppid;
	int64_t sec;
	const struct hm_name *node;	/* in t->names; NULL: no node */
	uint64_t key;			/* in t->by_pid */
	uint32_t ses;			/* audit session, when has_ses */
	bool has_ses;
	bool forked;			/* its fork was read: another fork of
					 * its pid is a new process */
	uint32_t flags;			/* enum hm_proc_flag */
	const struct hm_name *dname;	/* in t->names */
	const struct hm_name *exe;	/* in t->names; may be NULL */
	/* its exec, seen before the process that ran it (parent unknown
	 * then): program and realpath (may be NULL), in t->names, until
	 * its parent's fork record names the domain it ran in */
	const struct hm_name *late_prog, *late_real;
	struct hm_domain *dom;		/* cache, valid when gen == t->gen */
	uint64_t gen;
	struct proc *prev, *next;	/* LRU: head most recent */
};

struct hm_tracker {
	struct hm_model *m;
	struct hm_names *names;
	struct hm_map by_pid;		/* proc_key() -> proc */
	struct hm_map node_ids;		/* node name -> id (1, 2, ...) */
	uint32_t n_nodes;
	const struct hm_name *node;	/* of the current event; NULL none */
	uint32_t node_id;		/* its id; 0 for none */
	struct proc *head, *tail;
	size_t max_procs;
	uint64_t gen;
	bool create_domains;
	struct hm_tracker_stats st;
	struct hm_mem mem;
};

/*
 * (node, pid) in one key: the node's id above the low 32 bits of the pid
 * (pid_max is 2^22).  A hostile pid past 32 bits may share a key with
 * another process; find() then sees a different pid and the newer one
 * replaces the older in add().
 */
static uint64_t proc_key(uint32_t node_id, int64_t pid)
{
	return ((uint64_t)node_id << 32 | (uint32_t)pid) + 1;	/* 0 reserved */
}

struct hm_tracker *hm_tracker_new(struct hm_model *m, bool create_domains,
				  size_t max_procs)
{
	struct hm_tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->names = hm_names_new(&t->mem);
	if (!t->names) {
		free(t);
		return NULL;
	}
	hm_map_init(&t->by_pid, &t->mem, HM_MEM_TRACKER);
	hm_map_init(&t->node_ids, &t->mem, HM_MEM_TRACKER);
	t->m = m;
	t->gen = 1;
	t->create_domains = create_domains;
	t->max_procs = max_procs ? max_procs : DEFAULT_MAX_PROCS;
	t->st.max_procs = t->max_procs;
	return t;
}

void hm_tracker_free(struct hm_tracker *t)
{
	if (!t)
		return;
	for (struct proc *p = t->head, *n; p; p = n) {
		n = p->next;
		free(p);
	}
	hm_map_fini(&t->by_pid);
	hm_map_fini(&t->node_ids);
	hm_names_free(t->names);
	free(t);
}

int hm_tracker_set_node(struct hm_tracker *t, const char *node, size_t len)
{
	const struct hm_name *n;
	uintptr_t id;
	int r;

	if (!node || !len) {
		t->node = NULL;
		t->node_id = 0;
		return 0;
	}
	if (t->node && t->node->len == len && !memcmp(t->node->str, node, len))
		return 0;
	r = hm_name_intern(t->names, node, len, &n);
	if (r)
		return r;
	id = (uintptr_t)hm_map_get(&t->node_ids, hm_map_ptr_key(n));
	if (!id) {
		if (t->n_nodes == UINT32_MAX)
			return -EOVERFLOW;
		id = ++t->n_nodes;
		r = hm_map_put(&t->node_ids, hm_map_ptr_key(n), (void *)id);
		if (r) {
			t->n_nodes--;
			return r;
		}
	}
	t->node = n;
	t->node_id = (uint32_t)id;
	return 0;
}

void hm_tracker_set_model(struct hm_tracker *t, struct hm_model *m)
{
	t->m = m;
	t->gen++;
}

/* ------------------------------------------------------------------ LRU */

static void lru_unlink(struct hm_tracker *t, struct proc *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		t->head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		t->tail = p->prev;
	p->prev = p->next = NULL;
}

static void lru_push(struct hm_tracker *t, struct proc *p)
{
	p->next = t->head;
	p->prev = NULL;
	if (t->head)
		t->head->prev = p;
	t->head = p;
	if (!t->tail)
		t->tail = p;
}

static void touch(struct hm_tracker *t, struct proc *p)
{
	if (t->head == p)
		return;
	lru_unlink(t, p);
	lru_push(t, p);
}

static uint64_t key_of(const struct hm_tracker *t, int64_t pid)
{
	return proc_key(t->node_id, pid);
}

static void drop(struct hm_tracker *t, struct proc *p)
{
	if (hm_map_get(&t->by_pid, p->key) == p)
		hm_map_del(&t->by_pid, p->key);
	lru_unlink(t, p);
	free(p);
	t->st.procs--;
}

/* @pid on the current event's node. */
static struct proc *find(const struct hm_tracker *t, int64_t pid)
{
	struct proc *p = hm_map_get(&t->by_pid, key_of(t, pid));

	return p && p->pid == pid && p->node == t->node ? p : NULL;
}

static struct proc *add(struct hm_tracker *t, int64_t pid, int64_t ppid)
{
	struct proc *p = calloc(1, sizeof(*p));
	struct proc *old;

	if (!p)
		return NULL;
	p->pid = pid;
	p->ppid = ppid;
	p->node = t->node;
	p->key = key_of(t, pid);
	old = hm_map_get(&t->by_pid, p->key);
	if (old)
		drop(t, old);	/* a pid sharing the key (see proc_key()) */
	if (hm_map_put(&t->by_pid, p->key, p)) {
		free(p);
		return NULL;
	}
	lru_push(t, p);
	if (++t->st.procs > t->max_procs && t->tail != p) {
		drop(t, t->tail);
		t->st.evictions++;
	}
	return p;
}

/* ---------------------------------------------------------------- names */

static int intern(struct hm_tracker *t, const char *s, size_t len,
		  const struct hm_name **out)
{
	return hm_name_intern(t->names, s, len, out);
}

static bool same_exe(const struct proc *p, const struct hm_task *task)
{
	if (!p->exe || !task->exe)
		return true;	/* unknown on one side: no evidence */
	return p->exe->len == task->exe_len &&
	       !memcmp(p->exe->str, task->exe, task->exe_len);
}

/* Domain name for a process of unobserved history: <kernel> EXE. */
/* The init program's TOMOYO name and its encoded real path, once. */
static struct {
	pthread_once_t once;
	char name[HM_MAX_WORD];
	char real[HM_MAX_WORD];
} init_prog = { .once = PTHREAD_ONCE_INIT };

static void find_init(void)
{
	char real[PATH_MAX];
	struct hm_sbuf b = { 0 };

	if (realpath("/sbin/init", real) && !hm_program_name("/sbin/init",
							       NULL, &b) &&
	    hm_encode_len(b.s, b.len) < sizeof(init_prog.name) &&
	    hm_encode_len(real, strlen(real)) < sizeof(init_prog.real)) {
		hm_encode(init_prog.name, b.s, b.len);
		hm_encode(init_prog.real, real, strlen(real));
	}
	hm_sbuf_free(&b);
}

size_t hm_tracker_program_of(int64_t pid, const char *exe, size_t exe_len,
			     const char **name)
{
	*name = exe;
	if (pid != 1 || !exe)
		return exe_len;
	pthread_once(&init_prog.once, find_init);
	/* PID 1 before it runs what /sbin/init leads to (an initramfs, a
	 * boot script): TOMOYO activates at that exec, so until then PID 1
	 * is in <kernel> itself */
	*name = NULL;
	if (!init_prog.real[0] || strlen(init_prog.real) != exe_len ||
	    memcmp(init_prog.real, exe, exe_len))
		return 0;
	*name = init_prog.name;
	return strlen(init_prog.name);
}

static int unobserved_name(struct hm_tracker *t, const struct hm_task *task,
			   const struct hm_name **out)
{
	const char *exe;
	size_t exe_len = hm_tracker_program_of(task->pid, task->exe,
					       task->exe_len, &exe);
	char *s;
	int r;

	if (!exe || !exe_len)
		return intern(t, HM_KERNEL, HM_KERNEL_LEN, out);
	/* "<kernel> EXE": sizeof counts the NUL, which stands for the space */
	if (exe_len + sizeof(HM_KERNEL) > HM_MAX_DOMAIN) {
		t->st.too_long++;
		return intern(t, HM_KERNEL, HM_KERNEL_LEN, out);
	}
	if (asprintf(&s, HM_KERNEL " %.*s", (int)exe_len, exe) < 0)
		return -ENOMEM;
	r = intern(t, s, strlen(s), out);
	free(s);
	return r;
}

static int set_exe(struct hm_tracker *t, struct proc *p,
		   const struct hm_task *task)
{
	if (!task->exe || !task->exe_len)
		return 0;
	return intern(t, task->exe, task->exe_len, &p->exe);
}

/* Ancestors looked at for a reaper: deeper trees are not told apart. */
#define MAX_REAPER_DEPTH 64

/*
 * Was @p's parent replaced by its reaper?  When a parent exits, the kernel
 * gives its children to the nearest subreaper among its ancestors, else
 * to init.  So the new ppid is 1 or an ancestor of the old parent.
 */
static bool reparented(const struct hm_tracker *t, const struct proc *p,
		       int64_t ppid)
{
	const struct proc *a = find(t, p->ppid);

	if (ppid == 1)
		return true;
	for (int i = 0; a && i < MAX_REAPER_DEPTH; i++) {
		if (a->ppid == ppid)
			return true;
		a = a->ppid != a->pid ? find(t, a->ppid) : NULL;
	}
	return false;
}

/* Does @task's exe say @p executed unseen?  Only when believed (struct
 * hm_task): an audit record's exe= is the process's own to set. */
static bool missed_exec(const struct proc *p, const struct hm_task *task)
{
	return task->exe_believed && !same_exe(p, task);
}

/* Evidence that @task is another process than @p: its audit session
 * (inherited, never changed by reparenting or exec) differs. */
static bool other_session(const struct proc *p, const struct hm_task *task)
{
	return p->has_ses && task->has_ses && p->ses != task->ses;
}

/*
 * Is the known @p, whose ppid differs from @task's, still the same
 * process?  A reparented process is; so is it not when a believed exe
 * changed without an exec.  On the exec record itself exe= is the new
 * program, so there only the session tells a reused pid.
 */
static bool same_after_reparent(const struct hm_tracker *t,
				const struct proc *p,
				const struct hm_task *task, bool check_exe)
{
	if (!reparented(t, p, task->ppid) || other_session(p, task))
		return false;
	return !check_exe || !missed_exec(p, task);
}

static void set_session(struct proc *p, const struct hm_task *task)
{
	if (!task->has_ses)
		return;
	p->ses = task->ses;
	p->has_ses = true;
}

/* @p's exe changed without an exec, not believed: no process chooses
 * its domain by that, so it keeps the one it has, flagged. */
static int exe_changed(struct hm_tracker *t, struct proc *p,
		       const struct hm_task *task)
{
	p->flags |= HM_PROC_EXE_CHANGED;
	t->st.exe_changed++;
	return set_exe(t, p, task);
}

/*
 * Does new @p, whose parent @pp runs another program, start in <kernel>
 * EXE?  When the exe is believed, it executed unseen (the enforcer's
 * resync rules, enforcer/proc.c resync_one); when @pp's own start was
 * not in the trail, @p may have executed before the trail began.  When
 * it was, so were @p's fork and any exec of it: its exe= is its own
 * doing (prctl), and it stays in @pp's domain.
 */
static bool unseen_exec(const struct proc *pp, const struct hm_task *task)
{
	return task->exe_believed || (pp->flags & HM_PROC_UNOBSERVED);
}

/*
 * The process @task names, created by the rules of docs/ARCHITECTURE.md
 * ("Domain tracking"): a known pid with the same ppid (or reparented to
 * its reaper) is the same process; a new one inherits its parent's
 * domain when it runs its parent's program, or when the trail saw its
 * parent start (unseen_exec()), else gets <kernel> EXE.
 * @check_exe: compare the exe: a believed one that changed without an
 *	exec means we missed the exec, another keeps the domain, flagged
 *	(not for the exec event itself, whose exe is the new program).
 * @guessed: may be NULL; set when the process is new, of unobserved
 *	history, named after @task's exe (on an exec record: the new
 *	program, not the one that ran the exec).
 */
static int get_proc(struct hm_tracker *t, const struct hm_task *task,
		    bool check_exe, struct proc **out, bool *guessed)
{
	struct proc *p = find(t, task->pid);
	struct proc *pp = NULL;
	bool missed = false, changed = false;
	int r;

	if (p && p->ppid != task->ppid) {
		if (same_after_reparent(t, p, task, check_exe)) {
			p->ppid = task->ppid;	/* parent died */
			t->st.reparented++;
		} else {
			drop(t, p);
			p = NULL;
			t->st.pid_reuse++;
		}
	}
	if (p && check_exe && missed_exec(p, task)) {
		drop(t, p);		/* an exec we did not see: */
		p = NULL;		/* its history is unknown now */
		missed = true;
	}
	if (p) {
		touch(t, p);
		set_session(p, task);
		*out = p;
		return check_exe && !same_exe(p, task) ?
		       exe_changed(t, p, task) : 0;
	}
	p = add(t, task->pid, task->ppid);
	if (!p)
		return -ENOMEM;
	p->sec = task->sec;
	set_session(p, task);
	/* (a pid is not its own parent: such a record is damaged) */
	if (task->ppid > 0 && task->ppid != task->pid && !missed)
		pp = find(t, task->ppid);
	changed = pp && check_exe && !same_exe(pp, task);
	if (changed && unseen_exec(pp, task))
		pp = NULL;
	if (pp) {
		p->dname = pp->dname;	/* forked, not executed yet */
		p->flags = pp->flags;
		p->exe = pp->exe;
	} else {
		r = unobserved_name(t, task, &p->dname);
		if (r) {
			drop(t, p);
			return r;
		}
		p->flags = HM_PROC_UNOBSERVED;
		t->st.unobserved++;
		if (guessed)
			*guessed = true;
	}
	if (check_exe && (r = pp && changed ? exe_changed(t, p, task) :
			       set_exe(t, p, task))) {
		drop(t, p);
		return r;
	}
	*out = p;
	return 0;
}

/* Resolve @p's domain in the model, creating it when learning. */
static int resolve(struct hm_tracker *t, struct proc *p, uint8_t new_flags,
		   bool *created)
{
	int r;

	if (created)
		*created = false;
	if (p->gen == t->gen && (p->dom || !t->create_domains))
		return 0;
	r = hm_model_domain(t->m, p->dname->str, p->dname->len,
			    t->create_domains, &p->dom);
	if (r < 0)
		return r;
	if (r == 1) {
		p->dom->flags |= new_flags;
		/* use_group and use_profile from the nearest ancestor, as
		 * TOMOYO's new domains take them (ML 707-711) */
		hm_domain_inherit(t->m, p->dom);
		if (created)
			*created = true;
	}
	p->gen = t->gen;
	return 0;
}

static void view(const struct proc *p, struct hm_proc_view *out)
{
	out->name = p->dname;
	out->domain = p->dom;
	out->flags = p->flags;
}

int hm_tracker_current(struct hm_tracker *t, const struct hm_task *task,
		       struct hm_proc_view *out)
{
	struct proc *p;
	int r = get_proc(t, task, true, &p, NULL);

	if (r)
		return r;
	r = resolve(t, p, (p->flags & HM_PROC_UNOBSERVED) ?
			  HM_DOMAIN_HISTORY_UNOBSERVED : 0, NULL);
	if (r)
		return r;
	view(p, out);
	return 0;
}

/* The domain a process of unobserved history enters by exec: <kernel>
 * CANDIDATE, as if initialize_domain CANDIDATE from any applied. */
static int unobserved_exec(struct hm_tracker *t, const struct hm_name *program,
			   const struct hm_name *realpath,
			   const struct hm_name **cand, char **next)
{
	static const struct hm_name kernel = { .str = HM_KERNEL,
					       .len = HM_KERNEL_LEN };
	enum hm_transit ignored;
	int r = hm_transition_compute(t->m, &kernel, program, realpath, cand,
				      next, &ignored);

	if (r)
		return r;
	free(*next);
	if (asprintf(next, HM_KERNEL " %s", (*cand)->str) < 0) {
		*next = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Keep @prog (and @real) as @p's exec not yet placed; NULL: none. */
static int keep_late(struct hm_tracker *t, struct proc *p,
		     const struct hm_name *prog, const struct hm_name *real)
{
	int r = 0;

	p->late_prog = NULL;
	p->late_real = NULL;
	if (prog)
		r = intern(t, prog->str, prog->len, &p->late_prog);
	if (!r && prog && real)
		r = intern(t, real->str, real->len, &p->late_real);
	return r;
}

int hm_tracker_exec(struct hm_tracker *t, const struct hm_task *task,
		    const struct hm_name *program,
		    const struct hm_name *realpath, struct hm_exec_result *out)
{
	struct proc *p;
	char *next = NULL;
	bool guessed = false;
	int r = get_proc(t, task, false, &p, &guessed);

	if (r)
		return r;
	memset(out, 0, sizeof(*out));
	out->parent_observed = !(p->flags & HM_PROC_UNOBSERVED);
	/* <kernel> EXE of a process first seen at its exec is a guess */
	out->parent_known = !guessed;
	if (out->parent_known &&
	    (r = resolve(t, p, out->parent_observed ? 0 :
			 HM_DOMAIN_HISTORY_UNOBSERVED, NULL)))
		return r;
	if (out->parent_observed) {
		r = hm_transition_compute(t->m, p->dname, program, realpath,
					  &out->candidate, &next, &out->type);
	} else {
		out->type = HM_TRANSIT_UNOBSERVED;
		r = unobserved_exec(t, program, realpath, &out->candidate,
				    &next);
	}
	view(p, &out->parent);
	if (r == -ENAMETOOLONG) {
		t->st.too_long++;	/* TOMOYO: transition_failed */
		if (p->dom)
			p->dom->flags |= HM_DOMAIN_TRANSITION_FAILED;
		view(p, &out->now);
		return 0;
	}
	if (!r)
		r = intern(t, next, strlen(next), &p->dname);
	free(next);
	if (r)
		return r;
	r = keep_late(t, p, guessed ? out->candidate : NULL, realpath);
	if (r)
		return r;
	t->st.execs++;
	t->st.transit[out->type]++;
	p->flags &= ~(HM_PROC_UNOBSERVED | HM_PROC_EXE_CHANGED);
	p->gen = 0;
	r = set_exe(t, p, task);
	if (!r)
		r = resolve(t, p, out->parent_observed ? 0 :
				  HM_DOMAIN_PARENT_UNOBSERVED, &out->created);
	view(p, &out->now);
	return r;
}

/* @p, @pp's child, executed before @pp was known: that exec's domain. */
static int place_late(struct hm_tracker *t, struct proc *p, struct proc *pp,
		      struct hm_late_exec *late)
{
	int r = resolve(t, pp, (pp->flags & HM_PROC_UNOBSERVED) ?
			       HM_DOMAIN_HISTORY_UNOBSERVED : 0, NULL);

	if (r)
		return r;
	view(pp, &late->parent);
	late->program = p->late_prog;
	late->realpath = p->late_real;
	p->late_prog = NULL;
	p->late_real = NULL;
	return 1;
}

int hm_tracker_fork(struct hm_tracker *t, int64_t pid, int64_t ppid)
{
	return hm_tracker_fork_late(t, pid, ppid, NULL);
}

int hm_tracker_fork_late(struct hm_tracker *t, int64_t pid, int64_t ppid,
			 struct hm_late_exec *late)
{
	struct proc *pp = pid != ppid ? find(t, ppid) : NULL;
	struct proc parent;
	struct proc *p;

	if (!pp)
		return -ENOENT;
	p = find(t, pid);
	/* Already seen as @ppid's child: the audit trail may show a child's
	 * first syscalls (a vfork child's exec, even) before the fork.  Once
	 * its fork was read, another is of a new process under its pid. */
	if (p && p->ppid == ppid && !p->forked) {
		p->forked = true;
		return late && p->late_prog ? place_late(t, p, pp, late) : 0;
	}
	if (p)
		drop(t, p);
	parent = *pp;	/* add() may evict it to stay under the cap */
	p = add(t, pid, ppid);
	if (!p)
		return -ENOMEM;
	p->dname = parent.dname;
	p->flags = parent.flags;
	p->exe = parent.exe;
	p->dom = parent.dom;
	p->gen = parent.gen;
	p->ses = parent.ses;
	p->has_ses = parent.has_ses;
	p->forked = true;
	return 0;
}

void hm_tracker_exit(struct hm_tracker *t, int64_t pid)
{
	struct proc *p = find(t, pid);

	if (p)
		drop(t, p);
}

int hm_tracker_set(struct hm_tracker *t, int64_t pid, int64_t ppid,
		   const char *exe, size_t exe_len, const char *domain_name,
		   size_t name_len, uint32_t flags, int64_t sec)
{
	struct proc *p = find(t, pid);
	int r;

	if (p)
		drop(t, p);
	p = add(t, pid, ppid);
	if (!p)
		return -ENOMEM;
	p->flags = flags;
	p->sec = sec;
	r = intern(t, domain_name, name_len, &p->dname);
	if (!r && exe && exe_len)
		r = intern(t, exe, exe_len, &p->exe);
	if (r)
		drop(t, p);
	return r;
}

bool hm_tracker_lookup(struct hm_tracker *t, int64_t pid,
		       struct hm_proc_view *out)
{
	struct proc *p = find(t, pid);

	if (!p || resolve(t, p, 0, NULL))
		return false;
	view(p, out);
	return true;
}

/* ---------------------------------------------------------------- state */

int hm_tracker_save(const struct hm_tracker *t, const char *path)
{
	struct hm_sbuf b = { 0 };
	int r;

	hm_sbuf_adds(&b, "# histmac process table v1: [node@]pid ppid sec "
		     "flags exe domain\n");
	/* Oldest first, so a reload rebuilds the same LRU order. */
	for (const struct proc *p = t->tail; p; p = p->prev)
		hm_sbuf_printf(&b, "%s%s%" PRId64 " %" PRId64 " %" PRId64
			       " %u %s %s\n", p->node ? p->node->str : "",
			       p->node ? "@" : "", p->pid, p->ppid, p->sec,
			       p->flags, p->exe ? p->exe->str : "-",
			       p->dname->str);
	r = b.oom ? -ENOMEM : hm_atomic_write(path, b.s, b.len);
	hm_sbuf_free(&b);
	return r;
}

struct state_line {
	char *node;		/* NULL: none */
	int64_t pid, ppid, sec;
	unsigned flags;
	char *exe;
	char *domain;
};

static bool parse_state_line(char *line, struct state_line *s)
{
	int off = 0;
	char *sp = strchr(line, ' ');
	char *at = sp ? memrchr(line, '@', (size_t)(sp - line)) : NULL;

	s->node = NULL;
	if (at && at > line) {	/* node@pid: a process of a multi-host log */
		*at = '\0';
		s->node = line;
		line = at + 1;
	}
	if (sscanf(line, "%" SCNd64 " %" SCNd64 " %" SCNd64 " %u %n", &s->pid,
		   &s->ppid, &s->sec, &s->flags, &off) != 4 || !off)
		return false;
	s->exe = line + off;
	sp = strchr(s->exe, ' ');
	if (!sp || s->pid <= 0)
		return false;
	*sp = '\0';
	s->domain = sp + 1;
	sp = strchr(s->domain, '\n');
	if (sp)
		*sp = '\0';
	return s->domain[0] == '<';
}

/* The longest line hm_tracker_save() writes: numbers, exe, domain. */
#define STATE_LINE_MAX (HM_MAX_DOMAIN + HM_MAX_WORD + 128)

/*
 * One line of @f into @buf (STATE_LINE_MAX + 1 bytes), without its
 * newline.  A longer line, or one holding a NUL byte, is read to its end
 * but not kept: *@bad is set.  Returns 1 for a line, 0 at end of file,
 * -EIO on a read error.
 */
static int state_line(FILE *f, char *buf, bool *bad)
{
	size_t n = 0;
	int c;

	*bad = false;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || n == STATE_LINE_MAX)
			*bad = true;
		else
			buf[n++] = (char)c;
	}
	if (ferror(f))
		return -EIO;
	buf[n] = '\0';
	return c != EOF || n || *bad;
}

int hm_tracker_load(struct hm_tracker *t, const char *path, struct hm_diag *d,
		    bool (*accept)(int64_t pid, int64_t ppid, const char *exe,
				   int64_t sec, void *arg),
		    void *arg)
{
	FILE *f = fopen(path, "re");
	char *line = malloc(STATE_LINE_MAX + 1);
	unsigned long lineno = 0;
	bool bad;
	int n = 0;
	int r = 0;

	if (!f || !line) {
		r = f ? -ENOMEM : -errno;
		free(line);
		if (f)
			fclose(f);
		return r;
	}
	while ((r = state_line(f, line, &bad)) > 0) {
		struct state_line s;
		bool no_exe;

		r = 0;
		lineno++;
		if (bad) {
			hm_diag_add(d, HM_DIAG_ERROR, path, lineno,
				    "process table line longer than %d bytes "
				    "or holding a NUL byte", STATE_LINE_MAX);
			continue;
		}
		if (line[0] == '#')
			continue;
		if (!parse_state_line(line, &s)) {
			hm_diag_add(d, HM_DIAG_ERROR, path, lineno,
				    "malformed process table line");
			continue;
		}
		no_exe = !strcmp(s.exe, "-");
		if (accept && !accept(s.pid, s.ppid, no_exe ? NULL : s.exe,
				      s.sec, arg))
			continue;
		r = hm_tracker_set_node(t, s.node, s.node ? strlen(s.node) : 0);
		if (!r)
			r = hm_tracker_set(t, s.pid, s.ppid,
					   no_exe ? NULL : s.exe,
					   no_exe ? 0 : strlen(s.exe), s.domain,
					   strlen(s.domain), s.flags, s.sec);
		if (r)
			break;
		n++;
	}
	free(line);
	fclose(f);
	hm_tracker_set_node(t, NULL, 0);
	return r ? r : n;
}

void hm_tracker_stats(const struct hm_tracker *t, struct hm_tracker_stats *out)
{
	*out = t->st;
}

void hm_tracker_foreach(const struct hm_tracker *t,
			void (*fn)(int64_t pid, const struct hm_proc_view *v,
				   void *arg),
			void *arg)
{
	for (const struct proc *p = t->head; p; p = p->next) {
		struct hm_proc_view v;

		view(p, &v);
		fn(p->pid, &v, arg);
	}
}
