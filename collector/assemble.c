// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * assemble.c - one auparse event -> one struct hm_event.
 *
 * Walks the event's records and fields once with auparse's cursor
 * (auparse_next_record / auparse_next_field), or over the same event as a
 * worker thread copied it (struct hm_evread, parallel.c), keeps what the analyzer
 * needs from SYSCALL, EXECVE, CWD, PATH, SOCKADDR, OBJ_PID, PROCTITLE,
 * OPENAT2 and FANOTIFY, then works out the kind-specific parts: which PATH
 * items are the objects, open flags and modes from the right argument,
 * socket types from the socket table, signal targets.  No field is assumed
 * to exist; a missing or malformed one is counted and left at 0/NULL.
 *
 * histmac's own decisions (enforcer) are user records whose text holds
 * "op=histmac-decision"; they become HM_EV_HM_DECISION events, with the
 * domain="..." field as decision_domain.
 *
 * Owns: the socket table, the path canonicaliser, scratch buffers.  Event
 * memory comes from the caller's arena.  Next: the collector's queue.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaudit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "internal.h"

#define SOCKTAB_SIZE	4096
#define OBJINO_SLOTS	4096
#define PROCTITLE_MAX	4096
#define STRING_MAX	4096

#ifndef AUDIT_OPENAT2
#define AUDIT_OPENAT2	1337
#endif

/* An object's name by its inode, for names relative to a dirfd (a
 * directory's) and for objects opened through proc's links. */
struct obj_ino {
	uint64_t ino;
	uint32_t dev_major;
	uint32_t dev_minor;
	char *path;		/* no trailing '/'; NULL: empty slot */
	size_t len;
};

struct hm_assembler {
	struct hm_report *rep;
	struct hm_collector_stats *st;
	struct hm_canon *canon;
	struct hm_socktab *socks;
	struct hm_proctab *procs;	/* roots (chroot), files (ftruncate) */
	struct hm_proctab *dirfds;	/* directories opened, by descriptor;
					 * apart, so that they never push a
					 * root out */
	struct hm_sbuf rname;		/* a name and CWD inside a root */
	struct hm_sbuf rcwd;
	struct obj_ino objs[OBJINO_SLOTS];	/* objects named, by inode */
	struct hm_sbuf args;		/* decoded argv bytes */
	struct hm_sbuf tmp;		/* one decoded value */
	size_t *arg_end;		/* end offset of each arg in args */
	size_t arg_cap;
	uint32_t nargs;
	struct hm_dec_item items[HM_COLLECTOR_MAX_PATHS];
	uint32_t nitems;
	uint64_t serial;		/* of the event being built */
	bool cut_argv;
	bool has_openat2;
	uint32_t openat2_flags;
	uint32_t openat2_mode;
	bool decision;
	bool want_proctitle;
	bool quoted;			/* a quoted number counted already */
	unsigned int sc_next;		/* next SYSCALL field expected */
	const char *saddr;		/* SOCKADDR saddr=, decoded last */
	struct hm_event *ev;		/* the event being built */
	struct hm_arena *a;
	int err;			/* -ENOMEM: the event is not handed out
					 * half decoded, but as an error */
	struct hm_memo *memo;		/* a worker's (memo.c), may be NULL */
	struct hm_memo_refs *refs;	/* lines cut from its batch */
	bool rec_first;			/* the record is its event's first */
};

struct hm_assembler *hm_decoder_new(struct hm_report *rep,
				    const struct hm_collector_opts *o)
{
	struct hm_assembler *as = calloc(1, sizeof(*as));

	if (!as)
		return NULL;
	as->rep = rep;
	as->st = &rep->st;
	as->want_proctitle = o->proctitle;
	return as;
}

void hm_decoder_memo(struct hm_assembler *as, struct hm_memo *m,
		     struct hm_memo_refs *refs)
{
	as->memo = m;
	as->refs = refs;
}

/* A decoder with the tables finishing needs. */
struct hm_assembler *hm_assembler_new(struct hm_report *rep,
				      const struct hm_collector_opts *o,
				      bool resolve)
{
	struct hm_assembler *as = hm_decoder_new(rep, o);

	if (!as)
		return NULL;
	as->canon = hm_canon_new(o->resolve_root, resolve, as->st);
	as->socks = hm_socktab_new(SOCKTAB_SIZE);
	as->procs = hm_proctab_new();
	as->dirfds = hm_proctab_new();
	if (!as->canon || !as->socks || !as->procs || !as->dirfds) {
		hm_assembler_free(as);
		return NULL;
	}
	return as;
}

void hm_assembler_free(struct hm_assembler *as)
{
	if (!as)
		return;
	hm_canon_free(as->canon);
	hm_socktab_free(as->socks);
	hm_proctab_free(as->procs);
	hm_proctab_free(as->dirfds);
	for (size_t i = 0; i < OBJINO_SLOTS; i++)
		free(as->objs[i].path);
	hm_sbuf_free(&as->rname);
	hm_sbuf_free(&as->rcwd);
	hm_sbuf_free(&as->args);
	hm_sbuf_free(&as->tmp);
	free(as->arg_end);
	free(as);
}

/* strcmp() == 0 for field names: short, compared against literals. */
static inline bool eq(const char *a, const char *lit)
{
	while (*lit)
		if (*a++ != *lit++)
			return false;
	return *a == '\0';
}

/*
 * Fields a policy decision rests on.  A bad value in any other (key=,
 * comm=, ses=, ...) is counted and the event is not damaged.
 */
static bool needed(const char *field)
{
	static const char *const need[] = {
		"arch", "syscall", "success", "exit", "pid", "ppid", "uid",
		"gid", "euid", "suid", "fsuid", "egid", "sgid", "fsgid",
		"exe", "item", "name", "nametype", "objtype", "inode", "dev",
		"mode", "cwd", "saddr", "argc", "opid", "oflag", "resp", "sig",
	};

	if (field[0] == 'a' && field[1] >= '0' && field[1] <= '9')
		return true;	/* a0..a3, EXECVE arguments */
	for (size_t i = 0; i < HM_ARRAY_SIZE(need); i++)
		if (!strcmp(field, need[i]))
			return true;
	return false;
}

static void bad(struct hm_assembler *as, enum hm_skip_reason why,
		const char *rec, const char *field)
{
	if (needed(field))
		as->ev->damaged = true;
	hm_report_skip_event(as->rep, why, as->serial, "%s %s%s", rec, field,
				needed(field) ? " (event damaged)" : "");
}

/*
 * A number or flag written in quotes (hand-edited or converted logs:
 * success="yes", exit="0"): read without them, counted once per event.
 * Returns @v, or its inside copied to @buf.
 */
static const char *unquote(struct hm_assembler *as, const char *v,
			   char *buf, size_t cap, const char *rec,
			   const char *f)
{
	size_t n;

	if (!v || v[0] != '"')	/* first: this runs on most fields */
		return v;
	n = strlen(v);
	if (n < 2 || v[n - 1] != '"' || n - 2 >= cap)
		return v;
	memcpy(buf, v + 1, n - 2);
	buf[n - 2] = '\0';
	if (!as->quoted)
		hm_report_skip_event(as->rep, HM_SKIP_QUOTED_VALUE,
					as->serial, "%s %s=%s read as %s",
					rec, f, v, buf);
	as->quoted = true;
	return buf;
}

/*
 * The common case inline: up to 16 hex digits; anything else (empty,
 * longer, not hex) goes through the checked parser, which counts it.
 */
static uint64_t hex(struct hm_assembler *as, const char *v, const char *f)
{
	uint64_t x = 0;
	const char *p = v;

	if (p && *p) {
		for (; p - v < 16; p++) {
			unsigned int c = (unsigned char)*p;

			if (c - '0' < 10)
				x = x << 4 | (c - '0');
			else if ((c | 0x20) - 'a' < 6)
				x = x << 4 | ((c | 0x20) - 'a' + 10);
			else
				break;
		}
		if (!*p)
			return x;
	}
	if (!hm_parse_u64(v, 16, &x))
		bad(as, HM_SKIP_BAD_VALUE, "SYSCALL", f);
	return x;
}

static int64_t dec(struct hm_assembler *as, const char *v, const char *rec,
		   const char *f)
{
	int64_t x = 0;
	const char *p = v;

	if (p && *p >= '0' && *p <= '9') {
		for (; *p >= '0' && *p <= '9' && p - v < 18; p++)
			x = x * 10 + (*p - '0');
		if (!*p)
			return x;
	}
	if (!hm_parse_i64(v, &x))
		bad(as, HM_SKIP_BAD_VALUE, rec, f);
	return x;
}

/* uid, gid, auid, ses: decimal, 0..4294967295 ("-1" in OBJ_PID) */
static uint32_t id(struct hm_assembler *as, const char *v, const char *rec,
		   const char *f)
{
	uint64_t x = 0;
	const char *p = v;

	if (p && *p >= '0' && *p <= '9') {
		for (; *p >= '0' && *p <= '9' && x <= UINT32_MAX; p++)
			x = x * 10 + (uint64_t)(*p - '0');
		if (!*p && x <= UINT32_MAX)
			return (uint32_t)x;
	}
	return (uint32_t)dec(as, v, rec, f);
}

/* hm_arena_strndup() that marks the event as failed when it fails. */
static char *adup(struct hm_assembler *as, const char *s, size_t n)
{
	char *p = hm_arena_strndup(as->a, s, n);

	if (!p)
		as->err = -ENOMEM;
	return p;
}

/* SOCKADDR's saddr, once the arch is known; a bad one is counted, a
 * failed allocation fails the event. */
static void sockaddr(struct hm_assembler *as, struct hm_event *ev)
{
	int rc = hm_sockaddr_decode(as->saddr, ev->arch, &ev->sa, as->a);

	if (rc == -ENOMEM)
		as->err = rc;
	else if (rc < 0)
		bad(as, HM_SKIP_BAD_VALUE, "SOCKADDR", "saddr");
}

/* A string value (quoted, hex or (null)) into the arena. */
static void str(struct hm_assembler *as, const char *v, struct hm_bytes *out,
		const char *rec, const char *f)
{
	size_t n = v ? strlen(v) : 0;
	struct hm_sbuf *b = &as->tmp;
	int rc;

	out->s = NULL;
	out->len = 0;
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		if (n - 2 > STRING_MAX) {
			bad(as, HM_SKIP_BAD_VALUE, rec, f);
			return;
		}
		out->s = adup(as, v + 1, n - 2);
		out->len = out->s ? n - 2 : 0;
		return;
	}
	hm_sbuf_reset(b);
	rc = hm_field_bytes(b, v, STRING_MAX);
	if (rc == -ENOMEM)
		as->err = rc;
	else if (rc < 0)
		bad(as, HM_SKIP_BAD_VALUE, rec, f);
	if (rc > 0) {
		out->s = adup(as, b->s, b->len);
		out->len = out->s ? b->len : 0;
	}
}

/*
 * SYSCALL fields, in the order the kernel writes them.  Looking for the
 * next expected name first makes the usual record a run of predictable
 * comparisons; a field out of order or unknown is searched for.
 */
enum sc_field {
	SF_ARCH, SF_SYSCALL, SF_SUCCESS, SF_EXIT, SF_A0, SF_A1, SF_A2, SF_A3,
	SF_ITEMS, SF_PPID, SF_PID, SF_AUID, SF_UID, SF_GID, SF_EUID, SF_SUID,
	SF_FSUID, SF_EGID, SF_SGID, SF_FSGID, SF_TTY, SF_SES, SF_COMM, SF_EXE,
	SF_SUBJ, SF_KEY, SF_MAX
};

static const char *const sc_names[SF_MAX] = {
	[SF_ARCH] = "arch", [SF_SYSCALL] = "syscall", [SF_SUCCESS] = "success",
	[SF_EXIT] = "exit", [SF_A0] = "a0", [SF_A1] = "a1", [SF_A2] = "a2",
	[SF_A3] = "a3", [SF_ITEMS] = "items", [SF_PPID] = "ppid",
	[SF_PID] = "pid", [SF_AUID] = "auid", [SF_UID] = "uid",
	[SF_GID] = "gid", [SF_EUID] = "euid", [SF_SUID] = "suid",
	[SF_FSUID] = "fsuid", [SF_EGID] = "egid", [SF_SGID] = "sgid",
	[SF_FSGID] = "fsgid", [SF_TTY] = "tty", [SF_SES] = "ses",
	[SF_COMM] = "comm", [SF_EXE] = "exe", [SF_SUBJ] = "subj",
	[SF_KEY] = "key",
};

static int sc_find(struct hm_assembler *as, const char *n)
{
	/* from the expected name on, round: a field the record lacks
	 * (subj= without an LSM) costs one comparison more, where the key=
	 * after it was searched for from the first name on */
	for (unsigned int i = 0; i < SF_MAX; i++) {
		unsigned int k = (as->sc_next + i) % SF_MAX;

		if (eq(n, sc_names[k])) {
			as->sc_next = k + 1;
			return (int)k;
		}
	}
	return -1;
}

static void syscall_field(struct hm_assembler *as, struct hm_event *ev,
			  const char *n, const char *v)
{
	int f = sc_find(as, n);
	char buf[32];

	if (f >= 0 && f != SF_COMM && f != SF_EXE && f != SF_KEY &&
	    f != SF_SUBJ)
		v = unquote(as, v, buf, sizeof(buf), "SYSCALL", n);
	switch (f) {
	case SF_ARCH:
		ev->arch = (int)hex(as, v, n);
		break;
	case SF_SYSCALL:
		ev->syscall = (int)dec(as, v, "SYSCALL", n);
		ev->has_syscall = true;
		break;
	case SF_SUCCESS:
		if (v && (!strcmp(v, "yes") || !strcmp(v, "no"))) {
			ev->success = v[0] == 'y';
			ev->present |= HM_EVP_SUCCESS;
		} else {
			bad(as, HM_SKIP_BAD_VALUE, "SYSCALL", n);
		}
		break;
	case SF_EXIT:
		ev->exit = dec(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_EXIT;
		break;
	case SF_A0:
	case SF_A1:
	case SF_A2:
	case SF_A3:
		ev->a[f - SF_A0] = hex(as, v, n);
		break;
	case SF_PPID:
		ev->ppid = dec(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_PPID;
		break;
	case SF_PID:
		ev->pid = dec(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_PID;
		break;
	case SF_AUID:
		ev->auid = id(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_AUID;
		break;
	case SF_UID:
		ev->uid = id(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_UID;
		break;
	case SF_GID:
		ev->gid = id(as, v, "SYSCALL", n);
		break;
	case SF_EUID:
		ev->euid = id(as, v, "SYSCALL", n);
		break;
	case SF_SUID:
		ev->suid = id(as, v, "SYSCALL", n);
		break;
	case SF_FSUID:
		ev->fsuid = id(as, v, "SYSCALL", n);
		break;
	case SF_EGID:
		ev->egid = id(as, v, "SYSCALL", n);
		break;
	case SF_SGID:
		ev->sgid = id(as, v, "SYSCALL", n);
		break;
	case SF_FSGID:
		ev->fsgid = id(as, v, "SYSCALL", n);
		break;
	case SF_SES:
		ev->ses = id(as, v, "SYSCALL", n);
		ev->present |= HM_EVP_SES;
		break;
	case SF_COMM:
		str(as, v, &ev->comm, "SYSCALL", n);
		break;
	case SF_EXE:
		str(as, v, &ev->exe, "SYSCALL", n);
		break;
	case SF_KEY:
		str(as, v, &ev->key, "SYSCALL", n);
		break;
	default:
		break;
	}
}

/* Start argument @i (argv index) in the argv buffer. */
static int arg_start(struct hm_assembler *as)
{
	if (as->nargs >= HM_COLLECTOR_MAX_ARGC) {
		as->cut_argv = true;
		return -E2BIG;
	}
	if (HM_ARRAY_GROW(&as->arg_end, &as->arg_cap, as->nargs + 1))
		return as->err = -ENOMEM;
	as->arg_end[as->nargs++] = as->args.len;
	return 0;
}

static void arg_append(struct hm_assembler *as, const char *v)
{
	size_t before = as->args.len;
	int rc;

	if (as->cut_argv)
		return;
	rc = hm_field_bytes(&as->args, v, HM_COLLECTOR_MAX_ARGV);
	if (rc == -E2BIG) {
		as->cut_argv = true;
	} else if (rc == -ENOMEM) {
		as->err = rc;
	} else if (rc < 0) {
		as->args.len = before;
		bad(as, HM_SKIP_BAD_VALUE, "EXECVE", "argument");
	}
	as->arg_end[as->nargs - 1] = as->args.len;
}

/* aN, aN_len, aN[k] */
static void execve_field(struct hm_assembler *as, struct hm_event *ev,
			 const char *n, const char *v)
{
	char *end;
	unsigned long idx;

	if (eq(n, "argc")) {
		ev->argc = (uint32_t)dec(as, v, "EXECVE", n);
		return;
	}
	if (n[0] != 'a' || n[1] < '0' || n[1] > '9')
		return;
	idx = strtoul(n + 1, &end, 10);
	if (!strcmp(end, "_len"))
		return;		/* the chunks follow */
	if (*end == '[') {
		/* a chunk of a long argument: new arg on the first chunk */
		if (!strncmp(end, "[0]", 3) && arg_start(as) < 0)
			return;
	} else if (*end == '\0') {
		if (arg_start(as) < 0)
			return;
	} else {
		return;
	}
	(void)idx;
	if (as->nargs)
		arg_append(as, v);
}

/* "MAJ:MIN" in hex, as PATH records write dev= and rdev= */
static bool dev_pair(const char *v, unsigned int *ma, unsigned int *mi)
{
	const char *colon = v ? strchr(v, ':') : NULL;
	char major[16];
	uint64_t a, b;

	if (!colon || colon == v || (size_t)(colon - v) >= sizeof(major))
		return false;
	memcpy(major, v, (size_t)(colon - v));
	major[colon - v] = '\0';
	if (!hm_parse_u64(major, 16, &a) || !hm_parse_u64(colon + 1, 16, &b) ||
	    a > UINT32_MAX || b > UINT32_MAX)
		return false;
	*ma = (unsigned int)a;
	*mi = (unsigned int)b;
	return true;
}

/* NORMAL, PARENT, CREATE, DELETE (UNKNOWN and others stay unknown) */
static void nametype(struct hm_ev_path *p, const char *v)
{
	static const char *const nt[] = {
		[HM_NT_NORMAL] = "NORMAL",
		[HM_NT_CREATE] = "CREATE",
		[HM_NT_DELETE] = "DELETE",
		[HM_NT_PARENT] = "PARENT",
	};

	for (size_t i = 1; v && i < HM_ARRAY_SIZE(nt); i++)
		if (!strcmp(v, nt[i]))
			p->nametype = (uint8_t)i;
}

static void path_field(struct hm_assembler *as, struct hm_dec_item *it,
		       const char *n, const char *v)
{
	struct hm_ev_path *p = &it->rec;
	unsigned int ma, mi;
	uint64_t x;

	switch (n[0]) {
	case 'i':
		if (eq(n, "item")) {
			it->item = (int)dec(as, v, "PATH", n);
		} else if (eq(n, "inode")) {
			if (hm_parse_u64(v, 10, &x)) {
				p->ino = x;
				p->has_inode = true;
			} else {
				bad(as, HM_SKIP_BAD_VALUE, "PATH", n);
			}
		}
		break;
	case 'n':
		if (eq(n, "name")) {
			struct hm_bytes b;

			str(as, v, &b, "PATH", n);
			it->has_name = b.s != NULL;
			it->name = b.s;
			it->len = b.len;
		} else if (eq(n, "nametype")) {
			nametype(p, v);
		}
		break;
	case 'd':
	case 'r':
		if (!eq(n, "dev") && !eq(n, "rdev"))
			break;
		if (!dev_pair(v, &ma, &mi)) {
			bad(as, HM_SKIP_BAD_VALUE, "PATH", n);
			break;
		}
		if (n[0] == 'd') {
			p->dev_major = ma;
			p->dev_minor = mi;
		} else {
			p->rdev_major = ma;
			p->rdev_minor = mi;
		}
		break;
	case 'm':
		if (!eq(n, "mode"))
			break;
		if (hm_parse_u64(v, 8, &x))
			p->mode = (uint32_t)x;
		else
			bad(as, HM_SKIP_BAD_VALUE, "PATH", n);
		break;
	case 'o':
		if (eq(n, "ouid"))
			p->ouid = id(as, v, "PATH", n);
		else if (eq(n, "ogid"))
			p->ogid = id(as, v, "PATH", n);
		else if (eq(n, "objtype"))	/* RHEL/CentOS 7 kernels */
			nametype(p, v);
		break;
	}
}

static void proctitle(struct hm_assembler *as, struct hm_event *ev,
		      const char *v)
{
	struct hm_sbuf *b = &as->tmp;
	int rc;

	hm_sbuf_reset(b);
	rc = hm_field_bytes(b, v, PROCTITLE_MAX);
	if (rc == -ENOMEM) {
		as->err = rc;
	} else if (rc == -E2BIG || rc == -EINVAL) {
		bad(as, HM_SKIP_BAD_VALUE, "PROCTITLE", "proctitle");
	} else if (rc > 0) {
		while (b->len && b->s[b->len - 1] == '\0')
			b->len--;
		for (size_t i = 0; i < b->len; i++)
			if (b->s[i] == '\0')
				b->s[i] = ' ';
		ev->proctitle.s = adup(as, b->s, b->len);
		ev->proctitle.len = ev->proctitle.s ? b->len : 0;
	}
}

bool hm_record_text_read(int type)
{
	return (type >= AUDIT_FIRST_USER_MSG && type <= AUDIT_LAST_USER_MSG) ||
	       (type >= AUDIT_FIRST_USER_MSG2 &&
		type <= AUDIT_LAST_USER_MSG2) || type == AUDIT_USER ||
	       type == HM_AUDIT_LANDLOCK_ACCESS ||
	       type == HM_AUDIT_LANDLOCK_DOMAIN;
}

enum hm_rec_use hm_record_use(int type, bool proctitle)
{
	switch (type) {
	case AUDIT_SYSCALL:
	case AUDIT_EXECVE:
	case AUDIT_CWD:
	case AUDIT_SOCKADDR:
	case AUDIT_FANOTIFY:
	case AUDIT_OPENAT2:
	case AUDIT_OBJ_PID:
	case AUDIT_PATH:
	case AUDIT_ANOM_ABEND:
		return HM_REC_FIELDS;
	case AUDIT_PROCTITLE:
		return proctitle ? HM_REC_FIELDS : HM_REC_CHECKED;
	case HM_AUDIT_LANDLOCK_ACCESS:
	case HM_AUDIT_LANDLOCK_DOMAIN:
		return HM_REC_TEXT;
	}
	return hm_record_text_read(type) ? HM_REC_TEXT : HM_REC_TYPE;
}

/* The next PATH item of the event, or NULL (counted) past the last. */
static struct hm_dec_item *path_slot(struct hm_assembler *as)
{
	struct hm_dec_item *it;

	if (as->nitems == HM_COLLECTOR_MAX_PATHS) {
		hm_report_skip_event(as->rep, HM_SKIP_PATHS_CUT, as->serial,
				     "PATH record %u", as->nitems);
		return NULL;
	}
	it = &as->items[as->nitems++];
	memset(it, 0, sizeof(*it));
	it->item = -1;
	return it;
}

/*
 * A record decoded without a word told: kept for the next time (memo.c).
 * @it: the PATH item it filled.  A SYSCALL record only as its event's
 * first (the event was new: what it set is all it set).
 */
static void memo_keep(struct hm_assembler *as, const struct hm_evread *x,
		      int type, const struct hm_dec_item *it,
		      const struct hm_event *ev, bool cwd_seen)
{
	struct hm_memo_rec r = { .type = type };
	const char *text = hm_er_text(x);

	switch (type) {
	case AUDIT_PATH:
		r.u.item = *it;
		r.s[0] = (struct hm_bytes){ it->name, it->len };
		break;
	case AUDIT_CWD:
		r.cwd_seen = cwd_seen;
		r.s[0] = ev->cwd;
		break;
	case AUDIT_SYSCALL:
		if (!as->rec_first)
			return;
		memcpy(r.u.sc, (const char *)ev + HM_SC_FIRST, sizeof(r.u.sc));
		r.s[0] = ev->comm;
		r.s[1] = ev->exe;
		r.s[2] = ev->key;
		break;
	default:
		return;
	}
	if (text && hm_memo_put(as->memo, type, text, &r,
				hm_memo_fed_hash(as->refs, text)) < 0)
		as->err = -ENOMEM;
}

/* A line memo.c took out of the batch, back in its place (@first: the
 * event's first record).  false: it cannot be (out of step). */
static bool memo_splice(struct hm_assembler *as, struct hm_event *ev,
			const struct hm_memo_rec *r, bool first)
{
	struct hm_dec_item *it;

	switch (r->type) {
	case AUDIT_CWD:
		if (r->cwd_seen)
			ev->cwd = r->s[0];
		return true;
	case AUDIT_PATH:
		if ((it = path_slot(as))) {
			*it = r->u.item;
			it->name = r->s[0].s;
			it->len = r->s[0].len;
		}
		return true;
	case AUDIT_SYSCALL:
		if (!first)
			return false;
		memcpy((char *)ev + HM_SC_FIRST, r->u.sc, sizeof(r->u.sc));
		ev->comm = r->s[0];
		ev->exe = r->s[1];
		ev->key = r->s[2];
		return true;
	}
	return false;
}

/* The lines cut before the record auparse hands back next (@nrec: the
 * event's records so far); their count. */
static unsigned int splice_before(struct hm_assembler *as, struct hm_event *ev,
				  unsigned int nrec)
{
	struct hm_memo_refs *q = as->refs;
	unsigned int n = 0;

	for (; q->next < q->n && q->v[q->next].line == q->fed; q->next++) {
		/* out of step: the batch is parsed again whole */
		if (q->v[q->next].serial != ev->serial ||
		    !memo_splice(as, ev, &q->v[q->next].rec, nrec + n == 0))
			q->bad = true;
		n++;
	}
	q->fed++;
	return n;
}

/* One record: dispatch its fields (what is read: hm_record_use()). */
static void record(struct hm_assembler *as, struct hm_evread *x, int type,
		   struct hm_event *ev, bool *seen_objpid)
{
	struct hm_dec_item *it = NULL;
	bool cwd_seen = false;
	uint64_t told;

	if (hm_landlock_record(x, type, ev, as->a))
		return;
	switch (type) {
	case AUDIT_SYSCALL:
	case AUDIT_EXECVE:
	case AUDIT_CWD:
	case AUDIT_SOCKADDR:
	case AUDIT_PROCTITLE:
	case AUDIT_FANOTIFY:
	case AUDIT_OPENAT2:
		break;
	case AUDIT_OBJ_PID:
		if (*seen_objpid)
			return;
		*seen_objpid = true;
		break;
	case AUDIT_PATH:
		it = path_slot(as);
		if (!it)
			return;
		break;
	case AUDIT_EOE:
		return;
	case AUDIT_ANOM_ABEND:
		if (ev->has_syscall)
			return;
		break;
	default:
		if (!audit_msg_type_to_name(type))
			hm_report_skip_event(as->rep, HM_SKIP_UNKNOWN_RECORD,
						as->serial, "record type %d",
						type);
		else if (hm_record_text_read(type)) {
			const char *t = hm_er_text(x);

			if (t && strstr(t, "op=histmac-decision")) {
				const char *m = strstr(t, "): ");

				as->decision = true;
				m = m ? m + 3 : t;
				ev->decision_text.s = adup(as, m, strlen(m));
				ev->decision_text.len = ev->decision_text.s ?
							strlen(m) : 0;
				break;
			}
		}
		return;
	}
	if (!hm_er_first_field(x))
		return;
	as->sc_next = 0;
	told = as->rep->told;
	do {
		const char *n = hm_er_name(x);
		const char *v = hm_er_value(x);

		if (!n)
			continue;
		/* first byte first: this runs on every field */
		if (v && v[0] == HM_MALFORMED_VALUE[0] &&
		    !strcmp(v, HM_MALFORMED_VALUE)) {
			/* cut by stream.c: absent, damaging only if needed */
			if (needed(n))
				bad(as, HM_SKIP_BAD_VALUE,
				    audit_msg_type_to_name(type), n);
			continue;
		}
		switch (type) {
		case AUDIT_SYSCALL:
			syscall_field(as, ev, n, v);
			break;
		case AUDIT_EXECVE:
			execve_field(as, ev, n, v);
			break;
		case AUDIT_CWD:
			if (eq(n, "cwd")) {
				str(as, v, &ev->cwd, "CWD", n);
				cwd_seen = true;
			}
			break;
		case AUDIT_PATH:
			path_field(as, it, n, v);
			break;
		case AUDIT_SOCKADDR:
			/* decoded once the arch is known (byte order) */
			if (eq(n, "saddr") && !as->saddr && v)
				as->saddr = adup(as, v, strlen(v));
			break;
		case AUDIT_OBJ_PID:
			if (eq(n, "opid"))
				ev->target_pid = dec(as, v, "OBJ_PID", n);
			else if (eq(n, "ocomm"))
				str(as, v, &ev->target_comm, "OBJ_PID", n);
			break;
		case AUDIT_PROCTITLE:
			if (as->want_proctitle && eq(n, "proctitle"))
				proctitle(as, ev, v);
			break;
		case AUDIT_FANOTIFY:
			if (eq(n, "resp"))
				ev->fan_response = (int)dec(as, v, "FANOTIFY", n);
			break;
		case AUDIT_OPENAT2: {
			uint64_t u;

			if (eq(n, "oflag") && hm_parse_u64(v, 8, &u)) {
				as->openat2_flags = (uint32_t)u;
				as->has_openat2 = true;
			} else if (eq(n, "mode") && hm_parse_u64(v, 8, &u)) {
				as->openat2_mode = (uint32_t)u;
			}
			break;
		}
		case AUDIT_ANOM_ABEND:
			if (eq(n, "sig"))
				ev->sig = (int)dec(as, v, "ANOM_ABEND", n);
			else
				syscall_field(as, ev, n, v);
			break;
		default:
			if (as->decision && eq(n, "domain"))
				str(as, v, &ev->decision_domain, "USER", n);
			break;
		}
	} while (hm_er_next_field(x));
	if (as->memo && as->rep->told == told && !as->err)
		memo_keep(as, x, type, it, ev, cwd_seen);
}

static int cmp_item(const void *a, const void *b)
{
	const struct hm_dec_item *x = a, *y = b;

	return (x->item > y->item) - (x->item < y->item);
}

/* A cut argv: counted, and told once (@argc: what EXECVE said). */
static void argv_cut(struct hm_assembler *as, struct hm_event *ev)
{
	ev->argv_truncated = true;
	hm_report_skip_event(as->rep, HM_SKIP_ARGV_CUT, as->serial,
			     "argc %u, %u arguments kept", ev->argc,
			     as->nargs);
}

/* argv as decoded: ev->argc entries in ev->argv, whatever argc= said. */
static int finish_argv(struct hm_assembler *as, struct hm_event *ev)
{
	struct hm_bytes *argv;
	char *bytes;
	size_t start = 0;

	if (!as->nargs) {
		/* an argc= without one argument: none kept */
		if (ev->argc)
			argv_cut(as, ev);
		ev->argc = 0;
		return 0;
	}
	argv = hm_arena_alloc(as->a, as->nargs * sizeof(*argv));
	bytes = hm_arena_alloc(as->a, as->args.len + as->nargs);
	if (!argv || !bytes)
		return -ENOMEM;
	for (uint32_t i = 0; i < as->nargs; i++) {
		size_t len = as->arg_end[i] - start;

		if (len)	/* args.p is NULL while every arg is empty */
			memcpy(bytes, as->args.s + start, len);
		bytes[len] = '\0';
		argv[i].s = bytes;
		argv[i].len = len;
		bytes += len + 1;
		start = as->arg_end[i];
	}
	ev->argv = argv;
	if (ev->argc != as->nargs || as->cut_argv)
		argv_cut(as, ev);
	ev->argc = as->nargs;
	return 0;
}

/* Is this PATH item's name relative to a directory fd (*@dfd), not to
 * CWD? */
static bool dirfd_relative(const struct hm_event *ev,
			   const struct hm_dec_item *it, int32_t *dfd_out)
{
	const char *n = ev->syscall_name;
	int32_t dfd;

	if (!it->len || it->name[0] == '/' || !n)
		return false;
	/* *at() calls take the dirfd in a0; renameat/linkat also in a2 */
	if (!strstr(n, "at") || eq(n, "creat"))
		return false;
	dfd = (int32_t)ev->a[0];
	if (eq(n, "symlinkat"))
		dfd = (int32_t)ev->a[1];
	else if (eq(n, "linkat") && it->item >= 1)
		dfd = (int32_t)ev->a[2];
	else if (!strncmp(n, "renameat", 8) &&
		 (it->rec.nametype == HM_NT_CREATE || it->item == 1))
		dfd = (int32_t)ev->a[2];
	*dfd_out = dfd;
	return dfd != AT_FDCWD;
}

static bool follows_last(const struct hm_event *ev,
			 const struct hm_dec_item *it)
{
	const char *n = ev->syscall_name ? ev->syscall_name : "";

	if (it->rec.nametype == HM_NT_CREATE || it->rec.nametype == HM_NT_DELETE)
		return false;
	switch (ev->kind) {
	case HM_EV_EXEC:
		return it != NULL;
	case HM_EV_OPEN:
		return !(ev->open_flags & O_NOFOLLOW);
	case HM_EV_TRUNCATE:
	case HM_EV_MOUNT:
	case HM_EV_PIVOT_ROOT:
	case HM_EV_CHROOT:
		return true;
	case HM_EV_CHMOD:
		return !(eq(n, "fchmodat2") && (ev->a[3] & AT_SYMLINK_NOFOLLOW));
	case HM_EV_CHOWN:
		/* fchownat's flags are a4, which audit does not record */
		return strncmp(n, "lchown", 6) != 0;
	default:
		return false;
	}
}

/* @b = @root + @s (an absolute name or CWD inside that root). */
static int rooted(struct hm_sbuf *b, struct hm_bytes root, const char *s,
		  size_t len)
{
	hm_sbuf_reset(b);
	hm_sbuf_add(b, root.s, root.len);
	hm_sbuf_add(b, s, len);
	return b->oom ? -ENOMEM : 0;
}

#define ROOT_SLOT	(-1)

/*
 * The root of a chrooted process, from the trail's chroot() calls and
 * inherited by fork.  A process that chrooted before the trail began is
 * not known.  A pid seen under another parent than the one recorded
 * (unless reparented to init) is another process: its entry goes.
 */
static bool root_of(struct hm_assembler *as, struct hm_bytes node,
		    int64_t pid, int64_t ppid, struct hm_bytes *root)
{
	int64_t *was = hm_proctab_get(as->procs, node, pid, ROOT_SLOT, root);

	if (!was)
		return false;
	if (ppid > 0 && ppid != *was) {
		if (ppid != 1) {
			hm_proctab_drop(as->procs, node, pid, ROOT_SLOT);
			return false;
		}
		*was = ppid;
	}
	return true;
}

/* @pid's root is now @root (the real root: "/" or ""). */
static int set_root(struct hm_assembler *as, struct hm_bytes node,
		    int64_t pid, int64_t ppid, const char *root, size_t len)
{
	while (len > 0 && root[len - 1] == '/')
		len--;
	if (!len) {
		hm_proctab_drop(as->procs, node, pid, ROOT_SLOT);
		return 0;
	}
	return hm_proctab_put(as->procs, node, pid, ROOT_SLOT, ppid, root, len);
}

/*
 * A chrooted process's names and CWD are inside its root (root_of()): name
 * them from the real root, as TOMOYO does.  A name relative to a dirfd
 * stays as passed.
 */
static int in_root(struct hm_assembler *as, const struct hm_event *ev,
		   struct hm_canon_req *r)
{
	struct hm_bytes root;

	if (!root_of(as, ev->node, ev->pid, ev->ppid, &root))
		return 0;
	as->st->chrooted++;
	if (r->len && r->name[0] == '/') {
		if (rooted(&as->rname, root, r->name, r->len) < 0)
			return -ENOMEM;
		r->name = as->rname.s;
		r->len = as->rname.len;
	} else if (r->cwd && r->cwd_len && r->cwd[0] == '/') {
		if (rooted(&as->rcwd, root, r->cwd, r->cwd_len) < 0)
			return -ENOMEM;
		r->cwd = as->rcwd.s;
		r->cwd_len = as->rcwd.len;
	}
	return 0;
}

/*
 * After the event's names: a successful chroot gives the process its
 * root (the name just made, so a chroot inside a chroot nests), a fork
 * gives the child its parent's.
 */
static int track_root(struct hm_assembler *as, const struct hm_event *ev)
{
	const uint64_t clone_thread = 0x10000;
	struct hm_bytes root;

	if (!ev->success || ev->pid <= 0)
		return 0;
	if (ev->kind == HM_EV_CHROOT && ev->n_paths && ev->paths[0].path.s &&
	    ev->paths[0].path.s[0] == '/')
		return set_root(as, ev->node, ev->pid, ev->ppid,
				ev->paths[0].path.s, ev->paths[0].path.len);
	if (ev->kind != HM_EV_FORK || ev->exit <= 0 ||
	    (ev->syscall_name && !strcmp(ev->syscall_name, "clone") &&
	     (ev->a[0] & clone_thread)))
		return 0;
	if (!root_of(as, ev->node, ev->pid, ev->ppid, &root)) {
		hm_proctab_drop(as->procs, ev->node, ev->exit, ROOT_SLOT);
		return 0;
	}
	return set_root(as, ev->node, ev->exit, ev->pid, root.s, root.len);
}

static struct obj_ino *obj_slot(struct hm_assembler *as,
				const struct hm_ev_path *rec)
{
	uint64_t k = rec->ino * 0x9E3779B97F4A7C15ull ^
		     ((uint64_t)rec->dev_major << 20 | rec->dev_minor);

	return &as->objs[(k ^ (k >> 29)) % OBJINO_SLOTS];
}

/* The name the trail gave @rec's object, or NULL. */
static const struct obj_ino *obj_named(struct hm_assembler *as,
				       const struct hm_ev_path *rec)
{
	const struct obj_ino *d = obj_slot(as, rec);

	return rec->has_inode && d->path && d->ino == rec->ino &&
	       d->dev_major == rec->dev_major &&
	       d->dev_minor == rec->dev_minor ? d : NULL;
}

/*
 * Remember object @rec's name (absolute, canonical, proven: @rec's
 * object is there) by its inode; a deleted one is forgotten, as its
 * inode may be another file's next.
 */
static void obj_seen(struct hm_assembler *as, const struct hm_ev_path *rec,
		     const struct hm_bytes *name)
{
	struct obj_ino *d;
	size_t len = name->len;

	if (rec->nametype == HM_NT_DELETE && obj_named(as, rec)) {
		d = obj_slot(as, rec);
		free(d->path);
		d->path = NULL;
		return;
	}
	if (!rec->has_inode || rec->proof != HM_PROOF_OBJECT || !name->s ||
	    !len || name->s[0] != '/' || rec->nametype == HM_NT_DELETE)
		return;
	while (len > 1 && name->s[len - 1] == '/')
		len--;
	d = obj_slot(as, rec);
	if (d->path && d->ino == rec->ino && d->dev_major == rec->dev_major &&
	    d->dev_minor == rec->dev_minor && d->len == len &&
	    !memcmp(d->path, name->s, len))
		return;
	free(d->path);
	d->path = strndup(name->s, len);
	d->len = d->path ? len : 0;
	d->ino = rec->ino;
	d->dev_major = rec->dev_major;
	d->dev_minor = rec->dev_minor;
}

/* The directory seen earlier with PARENT item @p's inode, or NULL. */
static const struct obj_ino *parent_seen(struct hm_assembler *as,
					 const struct hm_ev_path *p)
{
	return p->nametype == HM_NT_PARENT ? obj_named(as, p) : NULL;
}

/*
 * The directory a dirfd-relative item @it is in, named by a directory
 * seen earlier with the inode an event's PARENT item gives (rm -r, gzip,
 * find, mv open the directory first, then work relative to it).  Which
 * PARENT: the one whose directory is @fdir, the one descriptor @dfd was
 * opened on (track_fds), when there is one.  A rename has two, and the
 * kernel does not list them in the order of the names (6.x: the new
 * name's first, as getname() runs on the arguments right to left), so
 * mv's renameat2(AT_FDCWD, "/d/f", fd of /d/box, "f") needs this.
 * Otherwise the PARENT of the same rank as @it.  NULL when not seen.
 */
static const struct obj_ino *dirfd_dir(struct hm_assembler *as,
				       const struct hm_dec_item *it,
				       const struct hm_bytes *fdir)
{
	uint32_t rank = 0, k = 0;

	for (uint32_t i = 0; fdir->s && i < as->nitems; i++) {
		const struct obj_ino *d = parent_seen(as, &as->items[i].rec);

		if (d && d->len == fdir->len && !memcmp(d->path, fdir->s, d->len))
			return d;
	}
	for (const struct hm_dec_item *i = as->items; i < it; i++)
		if (i->rec.nametype != HM_NT_PARENT)
			rank++;
	for (uint32_t i = 0; i < as->nitems; i++)
		if (as->items[i].rec.nametype == HM_NT_PARENT && k++ == rank)
			return parent_seen(as, &as->items[i].rec);
	return NULL;
}

static bool has_parent_item(const struct hm_assembler *as)
{
	for (uint32_t i = 0; i < as->nitems; i++)
		if (as->items[i].rec.nametype == HM_NT_PARENT)
			return true;
	return false;
}

/*
 * ftruncate(fd) has no PATH record: name it by the file the descriptor
 * was opened on (proctab.c), kept from each writable open.  A directory
 * opened is kept too (as->dirfds), for a name relative to its descriptor
 * that has no PARENT item.
 */
static int track_fds(struct hm_assembler *as, struct hm_event *ev)
{
	struct hm_bytes p;
	struct hm_ev_path *item;

	if (ev->kind == HM_EV_OPEN && ev->success && ev->exit >= 0 &&
	    ev->n_paths && ev->paths[0].path.s && ev->paths[0].path.len) {
		const struct hm_bytes *f = &ev->paths[0].path;
		bool dir = f->s[f->len - 1] == '/';
		bool wr = ev->has_open_flags &&
			  (ev->open_flags & O_ACCMODE) != O_RDONLY;
		int fd = (int)ev->exit;

		/* the descriptor is no longer what an earlier open left */
		hm_proctab_drop(as->dirfds, ev->node, ev->pid, fd);
		hm_proctab_drop(as->procs, ev->node, ev->pid, fd);
		/* a directory, for names relative to it (without its '/') */
		if (dir)
			return hm_proctab_put(as->dirfds, ev->node, ev->pid, fd,
					      0, f->s, f->len - (f->len > 1));
		return wr ? hm_proctab_put(as->procs, ev->node, ev->pid, fd, 0,
					   f->s, f->len) : 0;
	}
	if (ev->kind != HM_EV_TRUNCATE || ev->n_paths || !ev->syscall_name ||
	    strncmp(ev->syscall_name, "ftruncate", 9) ||
	    !hm_proctab_get(as->procs, ev->node, ev->pid,
			    (int)(int32_t)ev->a[0], &p))
		return 0;
	item = hm_arena_alloc(as->a, sizeof(*item));
	if (!item || !(p.s = hm_arena_strndup(as->a, p.s, p.len)))
		return -ENOMEM;
	*item = (struct hm_ev_path){ .path = p, .mode = S_IFREG };
	ev->paths = item;
	ev->n_paths = 1;
	return 0;
}

void hm_assembler_set_live(struct hm_assembler *as, bool live)
{
	hm_canon_set_live(as->canon, live);
}

/* Can @ev change what a name resolves to?  Only a symlink that appears
 * or goes, something moved, or a mount: a file created or removed
 * leaves the names around it as they were. */
static bool moves_names(const struct hm_event *ev)
{
	switch (ev->kind) {
	case HM_EV_SYMLINK:
	case HM_EV_LINK:
	case HM_EV_RENAME:
	case HM_EV_MOUNT:
	case HM_EV_UMOUNT:
	case HM_EV_PIVOT_ROOT:
		return true;
	case HM_EV_UNLINK:	/* a symlink, or not known */
		return !ev->n_paths || !ev->paths[0].mode ||
		       S_ISLNK(ev->paths[0].mode);
	default:
		return false;
	}
}

/* Symlinks the trail creates and removes, for names resolved after
 * they are gone (canon.c), and what a followed log's cached names must
 * not outlive. */
static void track_links(struct hm_assembler *as, const struct hm_event *ev)
{
	const struct hm_bytes *p = ev->n_paths ? &ev->paths[0].path : NULL;

	if (ev->success && moves_names(ev))
		hm_canon_trail_changed(as->canon);
	if (!ev->success || !p || !p->s)
		return;
	if (ev->kind == HM_EV_SYMLINK && ev->link_target.s)
		hm_canon_link_created(as->canon, p->s, p->len,
				      ev->link_target.s, ev->link_target.len);
	else if (ev->kind == HM_EV_UNLINK)
		hm_canon_link_removed(as->canon, p->s, p->len);
}

/*
 * @p was opened through a process's link in proc (/proc/self/fd/N after
 * an O_PATH open, /dev/fd/N, cwd, exe): TOMOYO names the object it leads
 * to, which the record's inode is.  Named as the trail named that inode
 * earlier; else not proven (the link's name, as logged).
 */
static int by_object(struct hm_assembler *as, struct hm_ev_path *p)
{
	const struct obj_ino *d = obj_named(as, p);
	bool dir = p->path.s[p->path.len - 1] == '/';
	size_t n;
	char *s;

	as->st->magic_links++;
	if (!d) {
		if (p->proof != HM_PROOF_NONE)
			as->st->resolve_unproven++;
		p->proof = HM_PROOF_NONE;
		return 0;
	}
	n = d->len;
	s = hm_arena_alloc(as->a, n + 2);
	if (!s)
		return -ENOMEM;
	memcpy(s, d->path, n);
	if (dir && !(n == 1 && s[0] == '/'))
		s[n++] = '/';
	s[n] = '\0';
	p->path = (struct hm_bytes){ .s = s, .len = n };
	p->proof = HM_PROOF_OBJECT;
	return 0;
}

static int canon_item(struct hm_assembler *as, struct hm_event *ev,
		      const struct hm_dec_item *it, bool program,
		      struct hm_ev_path *out)
{
	struct hm_canon_req r = {
		.name = it->name,
		.len = it->len,
		.cwd = ev->cwd.s,
		.cwd_len = ev->cwd.len,
		.pid = ev->pid,
		.is_dir = S_ISDIR(it->rec.mode) ||
			  it->rec.nametype == HM_NT_PARENT ||
			  ((ev->kind == HM_EV_MKDIR || ev->kind == HM_EV_RMDIR) &&
			   it->rec.nametype != HM_NT_NORMAL),
	};
	struct hm_canon *canon = as->canon;
	int32_t dfd;
	int rc;

	*out = it->rec;
	if (!it->has_name)
		return 0;
	if (dirfd_relative(ev, it, &dfd)) {
		struct hm_bytes fdir = { 0 };
		const struct obj_ino *d;

		as->st->dirfd_relative++;
		hm_proctab_get(as->dirfds, ev->node, ev->pid, dfd, &fdir);
		d = dirfd_dir(as, it, &fdir);
		/* no PARENT item (a plain open: gzip reading "log.1"): the
		 * directory that descriptor was opened on (track_fds); a
		 * PARENT of another inode says the descriptor changed */
		if (!d && has_parent_item(as))
			fdir = (struct hm_bytes){ 0 };
		r.cwd = d ? d->path : fdir.s;
		r.cwd_len = d ? d->len : fdir.len;
	} else if ((rc = in_root(as, ev, &r)) < 0) {
		return rc;
	}
	if (hm_canon_resolving(canon)) {
		r.follow_last = !program && follows_last(ev, it);
		/* check the inode only where the object should still be */
		if (ev->success && it->rec.nametype != HM_NT_DELETE &&
		    it->rec.nametype != HM_NT_PARENT)
			r.rec = &it->rec;
	}
	r.program = program;
	rc = hm_canon_path(canon, as->a, &r, &out->path, &out->proof);
	if (!rc && !program && hm_canon_magic(out->path.s, out->path.len))
		rc = by_object(as, out);
	if (!rc)
		obj_seen(as, out, &out->path);
	if (rc == -E2BIG) {
		hm_report_skip_event(as->rep, HM_SKIP_PATH_CUT, as->serial,
					"path of %zu bytes", it->len);
		out->path.s = NULL;
		out->path.len = 0;
		return 0;
	}
	return rc;
}

static bool same_name(const struct hm_dec_item *a,
		      const struct hm_dec_item *b)
{
	return a->has_name && b->has_name && a->len == b->len &&
	       !memcmp(a->name, b->name, a->len);
}

static bool same_inode(const struct hm_dec_item *a,
		       const struct hm_dec_item *b)
{
	if (a->rec.has_inode && b->rec.has_inode)
		return a->rec.ino == b->rec.ino &&
		       a->rec.dev_major == b->rec.dev_major &&
		       a->rec.dev_minor == b->rec.dev_minor;
	return same_name(a, b);
}

/*
 * Is PATH item @it (not the first) an object of the event?
 *  - exec: newer kernels repeat the program (same inode) in item 1, when
 *    the binary is opened, or the symlink it was called by (same name);
 *    the interpreter (#! or ld.so) follows.  The repeat is not a read of
 *    the program by itself.
 *  - mount: only a bind or move mount looks its source up as a path, and
 *    a file system on a block device its device; any other item (the
 *    mount point again, the root of the new mount) is not the device.
 */
static bool extra_item(const struct hm_event *ev,
		       const struct hm_dec_item *first,
		       const struct hm_dec_item *it)
{
	switch (ev->kind) {
	case HM_EV_EXEC:
		/* a program called through a symlink: 6.1 records the
		 * link itself too (same name, mode 0120777) */
		return !same_inode(first, it) && !S_ISLNK(it->rec.mode) &&
		       !same_name(first, it);
	case HM_EV_MOUNT:
		return (ev->mount_flags & (MS_BIND | MS_MOVE)) ||
		       S_ISBLK(it->rec.mode);
	default:
		return true;
	}
}

static int finish_paths(struct hm_assembler *as, struct hm_event *ev)
{
	struct hm_dec_item *sel[HM_COLLECTOR_MAX_PATHS];
	uint32_t n = 0;
	int rc;

	if (!as->nitems)
		return 0;
	/* by item number; they nearly always come in order */
	for (uint32_t i = 1; i < as->nitems; i++)
		for (uint32_t k = i; k > 0 &&
		     cmp_item(&as->items[k - 1], &as->items[k]) > 0; k--) {
			struct hm_dec_item t = as->items[k];

			as->items[k] = as->items[k - 1];
			as->items[k - 1] = t;
		}
	for (uint32_t i = 0; i < as->nitems; i++) {
		struct hm_dec_item *it = &as->items[i];

		if (ev->kind == HM_EV_SYMLINK && !ev->link_target.s &&
		    it->rec.nametype == HM_NT_UNKNOWN && !it->rec.has_inode) {
			/* symlink's first name is the target, not a path */
			ev->link_target.s = it->name;
			ev->link_target.len = it->len;
			continue;
		}
		/* an item without a name after one with: what the kernel did
		 * on the process's behalf (an overlay's copy-up creates and
		 * renames in its upper layer), not what the process named */
		if (n && (!it->has_name || !extra_item(ev, sel[0], it)))
			continue;
		if (ev->kind == HM_EV_EXEC || it->rec.nametype != HM_NT_PARENT)
			sel[n++] = it;
	}
	if (!n)
		for (uint32_t i = 0; i < as->nitems; i++)
			sel[n++] = &as->items[i];
	if (ev->kind == HM_EV_RENAME && n > 2)
		n = 2;
	ev->paths = hm_arena_alloc(as->a, n * sizeof(*ev->paths));
	if (!ev->paths)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		rc = canon_item(as, ev, sel[i], ev->kind == HM_EV_EXEC && i == 0,
				&ev->paths[i]);
		if (rc < 0)
			return rc;
		if (sel[i]->rec.nametype == HM_NT_CREATE)
			ev->created = true;
	}
	ev->n_paths = n;
	return 0;
}

/*
 * A create's mode as TOMOYO checks it: on a file system without POSIX
 * ACLs the kernel has applied the umask by then, which the created
 * inode's mode shows (what the inode adds, a directory's inherited
 * setgid bit, is not asked for and stays out).
 */
void hm_event_umask(struct hm_canon *canon, struct hm_event *ev)
{
	if (!ev->created || (ev->kind != HM_EV_OPEN && ev->kind != HM_EV_MKDIR &&
			     ev->kind != HM_EV_MKNOD))
		return;
	for (uint32_t i = 0; i < ev->n_paths; i++) {
		const struct hm_ev_path *p = &ev->paths[i];

		if (p->nametype != HM_NT_CREATE)
			continue;
		if (hm_canon_acl_less(canon, p))
			ev->mode = (ev->mode & ~07777u) |
				   (ev->mode & p->mode & 07777);
		return;
	}
}

static void socket_call(struct hm_event *ev)
{
	static const enum hm_event_kind sub[] = {
		[1] = HM_EV_SOCKET, [2] = HM_EV_BIND, [3] = HM_EV_CONNECT,
		[4] = HM_EV_LISTEN, [5] = HM_EV_ACCEPT, [11] = HM_EV_SEND,
		[12] = HM_EV_RECV, [18] = HM_EV_ACCEPT,
	};

	if (ev->a[0] < HM_ARRAY_SIZE(sub) && sub[ev->a[0]])
		ev->kind = sub[ev->a[0]];
}

void hm_event_network(struct hm_socktab *socks, struct hm_collector_stats *st,
		      struct hm_event *ev, bool direct)
{
	struct hm_sock_info *si;

	if (!direct || ev->kind < HM_EV_SOCKET || ev->kind > HM_EV_RECV)
		return;		/* socketcall: arguments are behind a pointer */
	if (ev->kind == HM_EV_SOCKET) {
		ev->sock_family = (int)ev->a[0];
		ev->sock_type = (int)(ev->a[1] & 0xf);
		ev->sock_protocol = (int)ev->a[2];
		if (!ev->success || ev->exit < 0)
			return;
		ev->fd = (int)ev->exit;
		si = hm_socktab_put(socks, ev->node, ev->pid, ev->fd,
				    st);
		si->family = ev->sock_family;
		si->type = ev->sock_type;
		si->protocol = ev->sock_protocol;
		return;
	}
	ev->fd = (int)(int32_t)ev->a[0];
	si = hm_socktab_get(socks, ev->node, ev->pid, ev->fd, st);
	if (si) {
		ev->sock_family = si->family;
		ev->sock_type = si->type;
		ev->sock_protocol = si->protocol;
		if (ev->kind == HM_EV_LISTEN && !ev->sa.family)
			ev->sa = si->bound;
	}
	if (ev->kind == HM_EV_BIND && ev->success && si &&
	    ev->sa.unix_path.len <= sizeof(si->bound_unix)) {
		si->bound = ev->sa;
		if (ev->sa.unix_path.s) {
			memcpy(si->bound_unix, ev->sa.unix_path.s,
			       ev->sa.unix_path.len);
			si->bound.unix_path.s = (const char *)si->bound_unix;
		}
	}
	if (ev->kind == HM_EV_ACCEPT && ev->success && ev->exit >= 0) {
		struct hm_sock_info copy = si ? *si : (struct hm_sock_info){ 0 };
		struct hm_sock_info *n;

		n = hm_socktab_put(socks, ev->node, ev->pid, (int)ev->exit,
				   st);
		n->family = copy.family;
		n->type = copy.type;
		n->protocol = copy.protocol;
	}
}

void hm_event_arguments(struct hm_event *ev, const struct hm_open_how *how)
{
	const char *n = ev->syscall_name ? ev->syscall_name : "";
	bool at = strstr(n, "at") && strcmp(n, "creat");
	uint64_t dev;

	switch (ev->kind) {
	case HM_EV_OPEN:
		if (eq(n, "creat")) {
			ev->open_flags = O_CREAT | O_WRONLY | O_TRUNC;
			ev->mode = (uint32_t)ev->a[1];
			ev->has_open_flags = true;
		} else if (eq(n, "openat2")) {
			if (how) {
				ev->open_flags = how->flags;
				ev->mode = how->mode;
				ev->has_open_flags = true;
			}
		} else {
			ev->open_flags = (uint32_t)ev->a[at ? 2 : 1];
			ev->mode = (uint32_t)ev->a[at ? 3 : 2];
			ev->has_open_flags = true;
		}
		/* the kernel reads the mode only to create: else it is
		 * whatever was in the register */
		if (!(ev->open_flags & O_CREAT) &&
		    (ev->open_flags & O_TMPFILE) != O_TMPFILE)
			ev->mode = 0;
		break;
	case HM_EV_MKDIR:
	case HM_EV_CHMOD:
		ev->mode = (uint32_t)ev->a[at ? 2 : 1];
		break;
	case HM_EV_MKNOD:
		ev->mode = (uint32_t)ev->a[at ? 2 : 1];
		dev = ev->a[at ? 3 : 2];
		ev->dev_major = major((dev_t)dev);
		ev->dev_minor = minor((dev_t)dev);
		break;
	case HM_EV_CHOWN:
		ev->owner_uid = (uint32_t)ev->a[at ? 2 : 1];
		ev->owner_gid = (uint32_t)ev->a[at ? 3 : 2];
		break;
	case HM_EV_UNLINK:
		if (eq(n, "unlinkat") && (ev->a[2] & AT_REMOVEDIR)) {
			ev->removedir = true;
			ev->kind = HM_EV_RMDIR;
		}
		break;
	case HM_EV_MOUNT:
		ev->mount_flags = ev->a[3];
		break;
	case HM_EV_UMOUNT:
		if (eq(n, "umount2"))
			ev->mount_flags = ev->a[1];
		break;
	case HM_EV_SIGNAL:
		if (eq(n, "tgkill")) {
			ev->sig = (int)ev->a[2];
			if (!ev->target_pid)
				ev->target_pid = (int32_t)ev->a[0];
		} else {
			ev->sig = (int)ev->a[1];
			if (!ev->target_pid)
				ev->target_pid = (int32_t)ev->a[0];
		}
		break;
	default:
		break;
	}
}

/* The event's stamp, as auparse read it. */
static void stamp(struct hm_assembler *as, const struct hm_evread *x,
		  struct hm_event *ev)
{
	const au_event_t *ts = x->api->get_timestamp(x->au);
	const char *host = ts ? ts->host : NULL;

	if (ts) {
		ev->sec = ts->sec;
		ev->msec = ts->milli;
		ev->serial = ts->serial;
	}
	if (host) {
		ev->node.s = adup(as, host, strlen(host));
		ev->node.len = ev->node.s ? strlen(host) : 0;
	}
}

int hm_assemble_decode(struct hm_assembler *as, struct hm_evread *x,
		       struct hm_event *ev, struct hm_arena *a)
{
	bool seen_objpid = false;
	bool only_eoe = true;
	bool has_fan = false;
	unsigned int nrec = 0;

	memset(ev, 0, sizeof(*ev));
	ev->fd = -1;
	ev->owner_uid = ev->owner_gid = (uint32_t)-1;
	as->a = a;
	as->err = 0;
	as->nitems = 0;
	as->nargs = 0;
	hm_sbuf_reset(&as->args);
	as->cut_argv = false;
	as->has_openat2 = false;
	as->decision = false;
	as->quoted = false;
	as->saddr = NULL;
	as->ev = ev;
	stamp(as, x, ev);
	as->serial = ev->serial;
	/*
	 * Called from auparse's callback: auparse_next_event() has left the
	 * cursor on the first record and field (auparse_first_record() would
	 * only parse its interpretations a second time).
	 */
	if (!hm_er_num_records(x))
		return 0;
	do {
		int type = hm_er_type(x);

		if (as->refs && as->refs->next < as->refs->n) {
			unsigned int k = splice_before(as, ev, nrec);

			nrec += k;
			only_eoe = only_eoe && !k;
		} else if (as->refs) {
			as->refs->fed++;
		}
		as->rec_first = !nrec++;
		if (type != AUDIT_EOE)
			only_eoe = false;
		if (type == AUDIT_FANOTIFY)
			has_fan = true;
		record(as, x, type, ev, &seen_objpid);
	} while (hm_er_next_record(x));
	as->st->records += nrec;
	if (only_eoe)
		return 0;	/* an EOE for an event auparse had closed */

	if (as->saddr)
		sockaddr(as, ev);
	if ((ev->present & HM_EVP_SUCCESS) && !ev->success &&
	    ev->exit < 0 && ev->exit >= -4095)
		ev->err = (int)-ev->exit;
	if (has_fan && !ev->has_syscall)
		ev->kind = HM_EV_FANOTIFY;
	else if (as->decision && !ev->has_syscall)
		ev->kind = HM_EV_HM_DECISION;
	/* before the syscall's arguments, which tell no skip: the same
	 * order of messages as when they came first */
	return finish_argv(as, ev) < 0 ? -ENOMEM : 1;
}

const struct hm_dec_item *hm_assemble_save(const struct hm_assembler *as,
					   struct hm_decoded *d)
{
	d->err = as->err;
	d->nitems = as->nitems;
	d->has_openat2 = as->has_openat2;
	d->openat2_flags = as->openat2_flags;
	d->openat2_mode = as->openat2_mode;
	return as->items;
}

int hm_assemble_finish(struct hm_assembler *as, struct hm_event *ev,
		       struct hm_arena *a, const struct hm_decoded *d,
		       const struct hm_dec_item *items)
{
	int rc;

	if (d) {
		as->a = a;
		as->ev = ev;
		as->serial = ev->serial;
		as->err = d->err;
		as->nitems = d->nitems;
		if (d->nitems)
			memcpy(as->items, items, d->nitems * sizeof(*items));
		as->has_openat2 = d->has_openat2;
		as->openat2_flags = d->openat2_flags;
		as->openat2_mode = d->openat2_mode;
	}
	if (ev->has_syscall) {
		const struct hm_syscall_info *si =
			hm_syscall_lookup(ev->arch, ev->syscall);

		ev->syscall_name = si->name;
		ev->kind = si->kind;
		if (si->name && !strcmp(si->name, "socketcall"))
			socket_call(ev);
		/* prctl() changes the exe= the trail shows only with
		 * PR_SET_MM (the same number on every arch); its other
		 * options are not of this kind */
		if (ev->kind == HM_EV_SET_MM && ev->a[0] != PR_SET_MM)
			ev->kind = HM_EV_OTHER;
		hm_event_arguments(ev, as->has_openat2 ? &(struct hm_open_how){
			.flags = as->openat2_flags, .mode = as->openat2_mode } :
			NULL);
		hm_event_network(as->socks, as->st, ev,
				 !si->name || strcmp(si->name, "socketcall"));
	}
	if ((rc = finish_paths(as, ev)) < 0)
		return rc;
	hm_event_umask(as->canon, ev);
	if ((rc = track_root(as, ev)) < 0)
		return rc;
	track_links(as, ev);
	if ((rc = track_fds(as, ev)) < 0)
		return rc;
	return as->err ? as->err : 1;
}

int hm_assemble(struct hm_assembler *as, struct hm_evread *x,
		struct hm_event *ev, struct hm_arena *a)
{
	int rc = hm_assemble_decode(as, x, ev, a);

	return rc <= 0 ? rc : hm_assemble_finish(as, ev, a, NULL, NULL);
}
