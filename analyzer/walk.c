// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * walk.c - one normalised event -> the permission checks TOMOYO would have
 * made, each in the domain the process was in (docs/ARCHITECTURE.md "Events
 * learned").  Owns the tracker and a scratch name table for request names;
 * knows nothing of learning or checking, which receive the accesses.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "histmac/append.h"
#include "histmac/decision.h"
#include "histmac/learn.h"
#include "histmac/passed.h"
#include "histmac/word.h"

/* Renew the scratch names after this many events (no name outlives one). */
#define SCRATCH_EVENTS 65536

const char *const hm_walk_skip_names[HM_WSKIP_MAX] = {
#define X(e, id, s) [HM_WSKIP_##e] = s,
	HM_WALK_SKIPS(X)
#undef X
};

const char *const hm_walk_skip_ids[HM_WSKIP_MAX] = {
#define X(e, id, s) [HM_WSKIP_##e] = id,
	HM_WALK_SKIPS(X)
#undef X
};

const char *const hm_walk_blind_names[HM_WBLIND_MAX] = {
#define X(e, id, s) [HM_WBLIND_##e] = s,
	HM_WALK_BLIND(X)
#undef X
};

const char *const hm_walk_blind_ids[HM_WBLIND_MAX] = {
#define X(e, id, s) [HM_WBLIND_##e] = id,
	HM_WALK_BLIND(X)
#undef X
};

/* The event kind each row of HM_WALK_BLIND counts. */
static const uint8_t blind_kind[HM_WBLIND_MAX] = {
#define X(e, id, s) [HM_WBLIND_##e] = HM_EV_##e,
	HM_WALK_BLIND(X)
#undef X
};

struct hm_walker {
	struct hm_model *m;
	struct hm_tracker *t;
	struct hm_learn_opts o;
	struct hm_names *scratch;
	uint64_t scratch_events;
	char *buf;
	size_t cap;
	const char **argv;	/* the exec's, for exec.argv conditions */
	size_t argv_cap;
	struct hm_walk_stats st;
	bool create_domains;
};

/* One event's accesses go through this. */
struct walk {
	struct hm_walker *w;
	const struct hm_event *ev;
	struct hm_access a;
	int (*fn)(const struct hm_access *a, void *arg);
	void *arg;
};

void hm_learn_opts_default(struct hm_learn_opts *o)
{
	*o = (struct hm_learn_opts){
		.builtin_rules = true,
		.exec_realpath = true,
		.peer_port_min = 1024,
		.peer_port_max = 65535,
		.ephemeral_min = 32768,
		.ephemeral_max = 60999,
	};
}

int hm_walker_new(struct hm_model *m, const struct hm_learn_opts *o,
		  bool create_domains, struct hm_walker **out)
{
	struct hm_walker *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->m = m;
	if (o)
		w->o = *o;
	else
		hm_learn_opts_default(&w->o);
	w->create_domains = create_domains;
	w->t = hm_tracker_new(m, create_domains, w->o.max_procs);
	w->scratch = hm_names_new(NULL);
	if (!w->t || !w->scratch) {
		hm_walker_free(w);
		return -ENOMEM;
	}
	*out = w;
	return 0;
}

void hm_walker_free(struct hm_walker *w)
{
	if (!w)
		return;
	hm_tracker_free(w->t);
	hm_names_free(w->scratch);
	for (int i = 0; i < HM_WBLIND_MAX; i++)
		free(w->st.blind_domain[i]);
	free(w->buf);
	free(w->argv);
	free(w);
}

struct hm_tracker *hm_walker_tracker(struct hm_walker *w)
{
	return w->t;
}

const struct hm_walk_stats *hm_walker_stats(const struct hm_walker *w)
{
	return &w->st;
}

void hm_walker_set_model(struct hm_walker *w, struct hm_model *m)
{
	w->m = m;
	hm_tracker_set_model(w->t, m);
}

/* ---------------------------------------------------------------- names */

static int skip(struct walk *k, enum hm_walk_skip why)
{
	k->w->st.skipped[why]++;
	return 0;
}

/*
 * Encode raw @b as a TOMOYO name (with a trailing '/' when @dir) and
 * intern it in the scratch table.  Returns 0, 1 when it cannot be a name
 * (counted), or negative errno.
 */
/* Encode @b into @w->buf (room for a '/' more); its length or -errno. */
static long encode_buf(struct hm_walker *w, const struct hm_bytes *b)
{
	size_t len = hm_encode_len(b->s, b->len);

	if (len + 2 > HM_MAX_WORD)
		return -ENAMETOOLONG;
	if (len + 2 > w->cap) {
		char *n = realloc(w->buf, len + 2);

		if (!n)
			return -ENOMEM;
		w->buf = n;
		w->cap = len + 2;
	}
	return (long)hm_encode(w->buf, b->s, b->len);
}

static int name_of(struct walk *k, const struct hm_bytes *b, bool dir,
		   const struct hm_name **out)
{
	struct hm_walker *w = k->w;
	long len;

	if (!b->s || !b->len)
		return skip(k, HM_WSKIP_NO_PATH), 1;
	len = encode_buf(w, b);
	if (len == -ENAMETOOLONG)
		return skip(k, HM_WSKIP_TOO_LONG), 1;
	if (len < 0)
		return (int)len;
	if (dir && w->buf[len - 1] != '/')
		w->buf[len++] = '/';
	return hm_name_intern(w->scratch, w->buf, (size_t)len, out);
}

static bool is_dir(const struct hm_ev_path *p)
{
	return (p->mode & S_IFMT) == S_IFDIR;
}

static int path_name(struct walk *k, unsigned i, bool dir,
		     const struct hm_name **out)
{
	const struct hm_ev_path *p;

	if (i >= k->ev->n_paths)
		return skip(k, HM_WSKIP_NO_PATH), 1;
	p = &k->ev->paths[i];
	if (p->proof > k->a.proof)
		k->a.proof = p->proof;
	return name_of(k, &p->path, dir || is_dir(p), out);
}

/* -------------------------------------------------------------- emitting */

static int emit(struct walk *k, enum hm_acl_kind kind, unsigned op)
{
	k->a.req.kind = kind;
	k->a.req.op = op;
	k->a.req.ctx = &k->a.ctx;
	k->w->st.accesses++;
	k->w->st.unproven += k->a.proof == HM_PROOF_NONE;
	return k->fn(&k->a, k->arg);
}

static void reset_request(struct walk *k)
{
	k->a.req = (struct hm_request){ 0 };
	k->a.ctx.exec_realpath = NULL;
	k->a.ctx.symlink_target = NULL;
	k->a.enters = false;
	k->a.no_realpath_cond = false;
	k->a.append_open = false;
}

static int emit_path(struct walk *k, unsigned op, const struct hm_name *n)
{
	reset_request(k);
	k->a.req.name1 = n;
	return emit(k, HM_ACL_PATH, op);
}

/*
 * An O_APPEND open for writing: asked as the enforcer asks it (append.h:
 * "file write"; the trail does not show chattr +a), and marked, so that
 * learn adds the "file append" a TOMOYO kernel asks and check says why.
 */
static int emit_append(struct walk *k, const struct hm_name *n)
{
	reset_request(k);
	k->a.req.name1 = n;
	k->a.append_open = true;
	return emit(k, HM_ACL_PATH, hm_append_asks(false));
}

static int emit_path_number(struct walk *k, unsigned op,
			    const struct hm_name *n, uint64_t number)
{
	reset_request(k);
	k->a.req.name1 = n;
	k->a.req.number = number;
	return emit(k, HM_ACL_PATH_NUMBER, op);
}

/* ------------------------------------------------------------ file kinds */

/*
 * A create that Landlock denied before the kernel looked the new name up:
 * the trail holds only the directory, so the entry that would allow it
 * names any file in it.
 */
static int denied_create(struct walk *k)
{
	const struct hm_name *dir, *any;
	char *s;
	int r = path_name(k, 0, true, &dir);

	if (r)
		return r < 0 ? r : 0;
	if (asprintf(&s, "%s\\*", dir->str) < 0)
		return -ENOMEM;
	r = hm_name_intern(k->w->scratch, s, strlen(s), &any);
	free(s);
	return r ? r : emit_path_number(k, HM_FILE_CREATE, any,
					k->ev->mode & 07777);
}

static int open_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	uint32_t flags = ev->open_flags;
	const struct hm_name *n;
	bool rd, wr;
	int r;

	if (ev->n_paths && is_dir(&ev->paths[0]) && (flags & O_CREAT) &&
	    ev->landlock_blockers.s &&
	    strstr(ev->landlock_blockers.s, "fs.make_reg"))
		return denied_create(k);
	if (!ev->has_open_flags)	/* openat2: no flags in the trail */
		flags = ev->created ? O_CREAT | O_WRONLY : O_RDONLY;
	if (flags & O_PATH)
		return skip(k, HM_WSKIP_NO_ACCESS_MODE);
	/* TOMOYO checks a directory opened for reading (opendir, getdents,
	 * a walk) as "file read DIR/" (file_open hook); it cannot be opened
	 * for writing, and O_DIRECTORY of a non-directory fails before. */
	if ((ev->n_paths && is_dir(&ev->paths[0])) ||
	    ((flags & O_DIRECTORY) && !ev->created)) {
		r = path_name(k, 0, true, &n);
		return r ? (r < 0 ? r : 0) : emit_path(k, HM_FILE_READ, n);
	}
	r = path_name(k, 0, false, &n);
	if (r)
		return r < 0 ? r : 0;
	rd = (flags & O_ACCMODE) != O_WRONLY;
	wr = (flags & O_ACCMODE) != O_RDONLY;
	/* TOMOYO's order: create (mknod hook), open, then truncate. */
	if (ev->created && (r = emit_path_number(k, HM_FILE_CREATE, n,
						 ev->mode & 07777)))
		return r;
	if (rd && (r = emit_path(k, HM_FILE_READ, n)))
		return r;
	if (wr && (r = (flags & O_APPEND) ? emit_append(k, n) :
					    emit_path(k, HM_FILE_WRITE, n)))
		return r;
	/* the kernel truncates (and TOMOYO checks it) only a regular file:
	 * not "> /dev/null" (handle_truncate) */
	if ((flags & O_TRUNC) && wr && !ev->created &&
	    (!ev->n_paths || !(ev->paths[0].mode & S_IFMT) ||
	     S_ISREG(ev->paths[0].mode)))
		return emit_path(k, HM_FILE_TRUNCATE, n);
	return 0;
}

static int one_path(struct walk *k, unsigned op, bool dir)
{
	const struct hm_name *n;
	int r = path_name(k, 0, dir, &n);

	return r ? (r < 0 ? r : 0) : emit_path(k, op, n);
}

static int symlink_access(struct walk *k)
{
	const struct hm_name *n;
	const struct hm_name *target = NULL;
	int r = path_name(k, 0, false, &n);

	if (!r && k->ev->link_target.len &&
	    name_of(k, &k->ev->link_target, false, &target) < 0)
		return -ENOMEM;
	if (r)
		return r < 0 ? r : 0;
	reset_request(k);
	k->a.req.name1 = n;
	k->a.ctx.symlink_target = target;
	return emit(k, HM_ACL_PATH, HM_FILE_SYMLINK);
}

static int path_mode(struct walk *k, unsigned op, bool dir)
{
	const struct hm_name *n;
	int r = path_name(k, 0, dir, &n);

	if (r)
		return r < 0 ? r : 0;
	return emit_path_number(k, op, n, k->ev->mode & 07777);
}

static int mknod_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const struct hm_name *n;
	unsigned op;
	int r;

	switch (ev->mode & S_IFMT) {
	case S_IFIFO:
		op = HM_FILE_MKFIFO;
		break;
	case S_IFSOCK:
		op = HM_FILE_MKSOCK;
		break;
	case S_IFBLK:
		op = HM_FILE_MKBLOCK;
		break;
	case S_IFCHR:
		op = HM_FILE_MKCHAR;
		break;
	default:
		return path_mode(k, HM_FILE_CREATE, false);
	}
	if (op == HM_FILE_MKFIFO || op == HM_FILE_MKSOCK)
		return path_mode(k, op, false);
	r = path_name(k, 0, false, &n);
	if (r)
		return r < 0 ? r : 0;
	reset_request(k);
	k->a.req.name1 = n;
	k->a.req.number = ev->mode & 07777;
	k->a.req.major = ev->dev_major;
	k->a.req.minor = ev->dev_minor;
	return emit(k, HM_ACL_MKDEV, op);
}

static int two_paths(struct walk *k, unsigned op, bool dir)
{
	const struct hm_name *a;
	const struct hm_name *b;
	bool d = dir || (k->ev->n_paths && is_dir(&k->ev->paths[0]));
	int r = path_name(k, 0, d, &a);

	if (!r)
		r = path_name(k, 1, d, &b);
	if (r)
		return r < 0 ? r : 0;
	reset_request(k);
	k->a.req.name1 = a;
	k->a.req.name2 = b;
	return emit(k, HM_ACL_PATH2, op);
}

static int chown_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const struct hm_name *n;
	int r = path_name(k, 0, false, &n);

	if (r)
		return r < 0 ? r : 0;
	if (ev->owner_uid != UINT32_MAX &&
	    (r = emit_path_number(k, HM_FILE_CHOWN, n, ev->owner_uid)))
		return r;
	if (ev->owner_gid != UINT32_MAX)
		return emit_path_number(k, HM_FILE_CHGRP, n, ev->owner_gid);
	return 0;
}

/*
 * TOMOYO names the kind of a mount by its flags ("--bind", "--remount",
 * "--make-private", ...) and checks the file system type otherwise.
 * The audit trail holds the source only when the kernel looked it up as
 * a path, and never the type string: what it lacks is learned as \*.
 */
static const char *mount_type(uint64_t flags)
{
	if (flags & 0x20)		/* MS_REMOUNT */
		return "--remount";
	if (flags & 0x1000)		/* MS_BIND */
		return "--bind";
	if (flags & 0x2000)		/* MS_MOVE */
		return "--move";
	if (flags & (1u << 20))		/* MS_SHARED */
		return "--make-shared";
	if (flags & (1u << 18))		/* MS_PRIVATE */
		return "--make-private";
	if (flags & (1u << 19))		/* MS_SLAVE */
		return "--make-slave";
	if (flags & (1u << 17))		/* MS_UNBINDABLE */
		return "--make-unbindable";
	return NULL;
}

/* An already encoded word, into the scratch table. */
static int word(struct walk *k, const char *w, const struct hm_name **out)
{
	return hm_name_intern(k->w->scratch, w, strlen(w), out);
}

static int mount_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const char *type = mount_type(ev->mount_flags);
	bool by_path = type && (!strcmp(type, "--bind") ||
				!strcmp(type, "--move"));
	const struct hm_name *dev;
	const struct hm_name *dir;
	const struct hm_name *fs;
	int r = path_name(k, 0, true, &dir);

	if (!r && ev->n_paths > 1)
		r = path_name(k, 1, false, &dev);
	else if (!r)	/* flag-only kinds name no device */
		r = word(k, type && !by_path ? "none" : "\\*", &dev);
	if (!r && type)
		r = word(k, type, &fs);
	else if (!r && ev->fstype.len)
		r = name_of(k, &ev->fstype, false, &fs);
	else if (!r)
		r = word(k, "\\*", &fs);
	if (r)
		return r < 0 ? r : 0;
	reset_request(k);
	k->a.req.name1 = dev;
	k->a.req.name2 = dir;
	k->a.req.name3 = fs;
	k->a.req.number = ev->mount_flags;
	return emit(k, HM_ACL_MOUNT, HM_FILE_MOUNT);
}

/* ---------------------------------------------------------------- network */

static enum hm_net_proto proto_of(struct walk *k, enum hm_event_kind kind)
{
	switch (k->ev->sock_type & 0xf) {
	case SOCK_STREAM:
		return HM_PROTO_STREAM;
	case SOCK_DGRAM:
		return HM_PROTO_DGRAM;
	case SOCK_RAW:
		return HM_PROTO_RAW;
	case SOCK_SEQPACKET:
		return HM_PROTO_SEQPACKET;
	default:
		k->w->st.guessed_socket_type++;
		return kind == HM_EV_SEND || kind == HM_EV_RECV ?
			       HM_PROTO_DGRAM : HM_PROTO_STREAM;
	}
}

static unsigned net_op(enum hm_event_kind kind, enum hm_net_proto proto)
{
	switch (kind) {
	case HM_EV_BIND:
		return HM_NET_BIND;
	case HM_EV_LISTEN:
		return HM_NET_LISTEN;
	case HM_EV_CONNECT:
		/* TOMOYO checks connect() on datagram sockets as send. */
		return proto == HM_PROTO_DGRAM || proto == HM_PROTO_RAW ?
			       HM_NET_SEND : HM_NET_CONNECT;
	case HM_EV_ACCEPT:
		return HM_NET_ACCEPT;
	case HM_EV_SEND:
		return HM_NET_SEND;
	default:
		return HM_NET_RECV;
	}
}

/*
 * bind() of a path unix socket creates its file: TOMOYO checks that as
 * "file mksock PATH MODE" (unix_bind's mknod), the file's real path with
 * the umask applied, which the CREATE record's mode has.  (The network
 * entry keeps sun_path as passed.)
 */
static int bound_socket_file(struct walk *k)
{
	const struct hm_event *ev = k->ev;

	for (uint32_t i = 0; i < ev->n_paths; i++)
		if (ev->paths[i].nametype == HM_NT_CREATE &&
		    S_ISSOCK(ev->paths[i].mode)) {
			const struct hm_name *n;
			int r = path_name(k, i, false, &n);

			return r ? (r < 0 ? r : 0) :
				   emit_path_number(k, HM_FILE_MKSOCK, n,
						    ev->paths[i].mode & 07777);
		}
	return 0;
}

/*
 * An IPv4 peer of an IPv6 socket (::ffff:a.b.c.d) is learned as the IPv4
 * address it is, so one entry covers both socket families.
 */
static void set_address(struct hm_request *r, const struct hm_ev_sockaddr *sa)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	memset(r->addr, 0, sizeof(r->addr));
	if (sa->family == AF_INET6 && !memcmp(sa->addr, mapped, 12)) {
		memcpy(r->addr, sa->addr + 12, 4);
		r->is_ipv6 = false;
		return;
	}
	r->is_ipv6 = sa->family == AF_INET6;
	memcpy(r->addr, sa->addr, r->is_ipv6 ? 16 : 4);
}

static int net_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const struct hm_ev_sockaddr *sa = &ev->sa;
	enum hm_net_proto proto = proto_of(k, ev->kind);
	unsigned op = net_op(ev->kind, proto);
	const struct hm_name *n;
	int r;

	reset_request(k);
	k->a.req.proto = (uint8_t)proto;
	if (sa->family == AF_UNIX) {
		if (!sa->unix_path.len)	/* unnamed or autobind */
			return skip(k, HM_WSKIP_NO_ADDRESS);
		r = name_of(k, &sa->unix_path, false, &n);
		if (r)
			return r < 0 ? r : 0;
		reset_request(k);
		k->a.req.proto = (uint8_t)proto;
		k->a.req.name1 = n;
		r = emit(k, HM_ACL_UNIX, op);
		if (r || op != HM_NET_BIND)
			return r;
		return bound_socket_file(k);
	}
	if (sa->family != AF_INET && sa->family != AF_INET6)
		return skip(k, HM_WSKIP_NO_ADDRESS);
	/* A stream socket's sendto() address is ignored by the kernel. */
	if (op == HM_NET_SEND && proto == HM_PROTO_STREAM)
		return skip(k, HM_WSKIP_NO_ADDRESS);
	set_address(&k->a.req, sa);
	k->a.req.port = proto == HM_PROTO_RAW ? (uint64_t)ev->sock_protocol :
						sa->port;
	return emit(k, HM_ACL_INET, op);
}

/* ---------------------------------------------------------------- signal */

static int signal_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	struct hm_proc_view target;

	if (ev->sig <= 0 || ev->target_pid <= 0 ||
	    !hm_tracker_lookup(k->w->t, ev->target_pid, &target))
		return skip(k, HM_WSKIP_SIGNAL_TARGET);
	reset_request(k);
	k->a.req.number = (uint64_t)ev->sig;
	k->a.req.target = target.name;
	return emit(k, HM_ACL_SIGNAL, 0);
}

/* ------------------------------------------------------------------ exec */

/* ld.so is the loader of an ELF program; anything else in PATH item 1 of
 * an exec is a #! interpreter, so item 0 was a script. */
static bool is_loader(const struct hm_bytes *p)
{
	const char *base = p->s ? memrchr(p->s, '/', p->len) : NULL;

	base = base ? base + 1 : p->s;
	return !base || !strncmp(base, "ld-", 3) || !strncmp(base, "ld.so", 5);
}

static bool is_script(const struct hm_event *ev)
{
	return ev->n_paths >= 2 && !is_loader(&ev->paths[1].path);
}

static bool same_bytes(const struct hm_bytes *a, const struct hm_bytes *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->s, b->s, a->len));
}

/*
 * Which item of a script's exec is its interpreter: the last that is
 * neither ld.so nor the script again.  Mostly item 1; but the exec that
 * activates TOMOYO also holds what the kernel looked up in it, the
 * policy loader (/sbin/tomoyo-init) and the script once more, before
 * the interpreter.
 */
static uint32_t interp_item(const struct hm_event *ev)
{
	for (uint32_t i = ev->n_paths - 1; i > 1; i--)
		if (!is_loader(&ev->paths[i].path) &&
		    !same_bytes(&ev->paths[i].path, &ev->paths[0].path))
			return i;
	return 1;
}

/* `file execute PROG` in @dom, with exec.realpath when learning it. */
static int emit_execute(struct walk *k, const struct hm_proc_view *dom,
			const struct hm_name *prog,
			const struct hm_name *real)
{
	reset_request(k);
	k->a.dom = *dom;
	k->a.req.name1 = prog;
	/* judged by it either way (an entry that tests it must not fail as
	 * unknown); learned only when asked */
	k->a.ctx.exec_realpath = real;
	k->a.no_realpath_cond = !k->w->o.exec_realpath;
	return emit(k, HM_ACL_PATH, HM_FILE_EXECUTE);
}

static int exec_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const struct hm_name *prog;
	const struct hm_name *exe = NULL;
	const struct hm_name *real;
	const struct hm_name *interp = NULL;
	struct hm_exec_result res;
	struct hm_task task;
	bool script = is_script(ev);
	int r = path_name(k, 0, false, &prog);

	if (r)
		return r < 0 ? r : 0;
	if (ev->exe.len && (r = name_of(k, &ev->exe, false, &exe)) < 0)
		return r;
	/* For a script exe= is the interpreter, not the script's realpath. */
	real = script ? NULL : exe;
	if (script && (r = path_name(k, interp_item(ev), false, &interp)) < 0)
		return r;
	task = (struct hm_task){ .pid = ev->pid, .ppid = ev->ppid,
				 .exe = exe ? exe->str : NULL,
				 .exe_len = exe ? exe->len : 0,
				 .sec = ev->sec, .ses = ev->ses,
				 .has_ses = true };
	r = hm_tracker_exec(k->w->t, &task, prog, real, &res);
	if (r)
		return r;
	/* who entered the domain: any user can run a service's program, and
	 * a second login among those who did is for review (a login that
	 * changes later, as PAM sets it in cron's and sshd's children, is
	 * the same entry) */
	if (res.now.domain && (ev->present & HM_EVP_AUID))
		hm_logins_add(&res.now.domain->logins, ev->auid);
	/* of unobserved history too: strict enforcing judges it there;
	 * not known yet: when the parent's fork record comes (fork_access) */
	if (res.parent_known &&
	    (r = emit_execute(k, &res.parent, res.candidate, real)))
		return r;
	k->a.dom = res.now;
	if (!interp)
		return 0;
	/* the interpreter's read: not the program's attributes, and no
	 * exec of its own */
	k->a.ctx.has_path1 = false;
	k->a.ctx.argv = NULL;
	return emit_path(k, HM_FILE_READ, interp);
}

/* ----------------------------------------------------------------- fork */

static int acting_domain(struct walk *k);

/*
 * An audited fork/clone: the child starts in the parent's domain.  This
 * keeps a daemon's chain when its parent exits before the child's first
 * audited syscall (it then shows ppid 1).  Threads are not processes.
 * A child whose exec came first (its parent unknown then) has that exec
 * learned now, in the parent's domain.
 */
static int fork_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const uint64_t clone_thread = 0x10000;
	struct hm_late_exec late;
	int r;

	if (ev->exit <= 0 || (ev->syscall_name &&
			      !strcmp(ev->syscall_name, "clone") &&
			      (ev->a[0] & clone_thread)))
		return 0;
	r = acting_domain(k);
	if (r)
		return r;
	r = hm_tracker_fork_late(k->w->t, ev->exit, ev->pid, &late);
	if (r == 1)
		return emit_execute(k, &late.parent, late.program,
				    late.realpath);
	return r == -ENOENT ? 0 : r;
}

/* --------------------------------------------------------------- events */

static int dispatch(struct walk *k)
{
	switch (k->ev->kind) {
	case HM_EV_OPEN:
		return open_access(k);
	case HM_EV_UNLINK:
		return one_path(k, HM_FILE_UNLINK, false);
	case HM_EV_RMDIR:
		return one_path(k, HM_FILE_RMDIR, true);
	case HM_EV_MKDIR:
		return path_mode(k, HM_FILE_MKDIR, true);
	case HM_EV_MKNOD:
		return mknod_access(k);
	case HM_EV_SYMLINK:
		return symlink_access(k);
	case HM_EV_LINK:
		return two_paths(k, HM_FILE_LINK, false);
	case HM_EV_RENAME:
		return two_paths(k, HM_FILE_RENAME, false);
	case HM_EV_TRUNCATE:
		return one_path(k, HM_FILE_TRUNCATE, false);
	case HM_EV_CHMOD:
		return path_mode(k, HM_FILE_CHMOD, false);
	case HM_EV_CHOWN:
		return chown_access(k);
	case HM_EV_MOUNT:
		return mount_access(k);
	case HM_EV_UMOUNT:
		return one_path(k, HM_FILE_UNMOUNT, true);
	case HM_EV_PIVOT_ROOT:
		return two_paths(k, HM_FILE_PIVOT_ROOT, true);
	case HM_EV_CHROOT:
		return one_path(k, HM_FILE_CHROOT, true);
	case HM_EV_BIND:
	case HM_EV_LISTEN:
	case HM_EV_CONNECT:
	case HM_EV_ACCEPT:
	case HM_EV_SEND:
	case HM_EV_RECV:
		return net_access(k);
	case HM_EV_SIGNAL:
		return signal_access(k);
	default:
		return skip(k, HM_WSKIP_UNSUPPORTED);
	}
}

/*
 * path1.* from the event's first PATH item, when the record has the
 * inode's attributes (not for an object the call created: TOMOYO checks
 * before it exists).
 */
static void fill_path1(struct hm_cond_ctx *c, const struct hm_event *ev)
{
	const struct hm_ev_path *p = ev->n_paths ? &ev->paths[0] : NULL;

	if (!p || !p->has_inode || !p->mode || p->nametype == HM_NT_CREATE ||
	    p->nametype == HM_NT_PARENT)
		return;
	c->path1 = (struct hm_cond_obj){
		.uid = p->ouid, .gid = p->ogid, .ino = p->ino, .mode = p->mode,
		.rdev_major = p->rdev_major, .rdev_minor = p->rdev_minor,
		.dev_major = p->dev_major, .dev_minor = p->dev_minor,
	};
	c->has_path1 = true;
}

/*
 * exec.argv from the EXECVE record, encoded and interned in the scratch
 * table.  A truncated record leaves argv unknown (its items fail).
 */
static int fill_argv(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	struct hm_walker *w = k->w;

	if (ev->kind != HM_EV_EXEC || !ev->argv || ev->argv_truncated)
		return 0;
	if (HM_ARRAY_GROW(&w->argv, &w->argv_cap, ev->argc + 1))
		return -ENOMEM;
	for (uint32_t i = 0; i < ev->argc; i++) {
		const struct hm_name *n;
		long len = encode_buf(w, &ev->argv[i]);
		int r;

		if (len == -ENAMETOOLONG)
			return 0;	/* unknown */
		if (len < 0)
			return (int)len;
		r = hm_name_intern(w->scratch, w->buf, (size_t)len, &n);
		if (r)
			return r;
		w->argv[i] = n->str;
	}
	k->a.ctx.argv = w->argv;
	k->a.ctx.argc = ev->argc;
	return 0;
}

static void fill_ctx(struct hm_cond_ctx *c, const struct hm_event *ev)
{
	*c = (struct hm_cond_ctx){
		.uid = ev->uid, .euid = ev->euid, .suid = ev->suid,
		.fsuid = ev->fsuid, .gid = ev->gid, .egid = ev->egid,
		.sgid = ev->sgid, .fsgid = ev->fsgid, .pid = (uint64_t)ev->pid,
		.ppid = (uint64_t)ev->ppid, .has_task = true,
	};
	fill_path1(c, ev);
}

/* The domain a non-exec event is checked in. */
static int acting_domain(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	const struct hm_name *exe = NULL;
	struct hm_task task = { .pid = ev->pid, .ppid = ev->ppid,
				.sec = ev->sec, .ses = ev->ses,
				.has_ses = true };
	int r = 0;

	if (ev->exe.len)
		r = name_of(k, &ev->exe, false, &exe);
	if (r < 0)
		return r;
	if (r > 0)	/* an exe we cannot name counts as unknown, not a skip */
		k->w->st.skipped[HM_WSKIP_NO_PATH]--;
	task.exe = exe ? exe->str : NULL;
	task.exe_len = exe ? exe->len : 0;
	return hm_tracker_current(k->w->t, &task, &k->a.dom);
}

static void renew_scratch(struct hm_walker *w)
{
	struct hm_names *n;

	if (++w->scratch_events < SCRATCH_EVENTS)
		return;
	n = hm_names_new(NULL);
	if (!n)
		return;		/* keep the old one; try again next event */
	hm_names_free(w->scratch);
	w->scratch = n;
	w->scratch_events = 0;
}

/*
 * A decision record of `histmac enforce` (analyzer/decision.c): what the
 * policy did not allow, in the domain the enforcer named, so that check
 * reports it and learn learns it like any other access.
 */
static int decision_access(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	struct hm_decision d;
	struct hm_bytes path;
	const struct hm_name *n;
	uint32_t perm;
	char *buf = malloc(ev->decision_text.len + 1);
	int r;

	if (!buf)
		return -ENOMEM;
	if (!ev->decision_text.s ||
	    hm_decision_parse(ev->decision_text.s, ev->decision_text.len, buf,
			      &d) ||
	    d.result == HM_DECISION_ALLOW || d.result == HM_DECISION_LEARNED ||
	    !hm_domainname_is_valid(d.domain, d.domain_len)) {
		free(buf);
		return skip(k, HM_WSKIP_UNSUPPORTED);
	}
	path = (struct hm_bytes){ .s = d.path, .len = d.path_len };
	r = name_of(k, &path, false, &n);
	if (!r)
		r = hm_name_intern(k->w->scratch, d.domain, d.domain_len,
				   &k->a.dom.name);
	if (!r && (r = hm_model_domain(k->w->m, d.domain, d.domain_len,
				       k->w->create_domains,
				       &k->a.dom.domain)) > 0)
		r = 0;		/* created (learning) */
	free(buf);
	if (r)
		return r < 0 ? r : 0;
	k->a.dom.flags = 0;
	k->a.ev = ev;
	perm = d.perm ? d.perm : 1u << HM_FILE_READ;
	for (unsigned op = 0; op < HM_FILE_OP_MAX; op++)
		if ((perm & (1u << op)) && (r = emit_path(k, op, n)))
			return r;
	return 0;
}

/*
 * A failed call still made an access when TOMOYO's check had passed
 * before it failed (passed.c); one that failed with EACCES/EPERM/ENOENT
 * is an attempt.  An exec moves the process only when it succeeds.
 * Returns 0 to go on, 1 when the event is skipped.
 */
/*
 * A call after which the trail cannot name what the process reaches: no
 * access, but counted in the acting domain's name, so a review sees who
 * made it (a failed one changed nothing, and is skipped as failed).
 */
static int blind_call(struct walk *k)
{
	struct hm_walk_stats *st = &k->w->st;
	const struct hm_name *dn;
	int i = 0, r;

	while (i < HM_WBLIND_MAX && blind_kind[i] != k->ev->kind)
		i++;
	if (i == HM_WBLIND_MAX)
		return skip(k, HM_WSKIP_UNSUPPORTED);
	r = acting_domain(k);
	if (r)
		return r;
	dn = k->a.dom.name;
	if (!st->blind[i]++ && dn &&
	    !(st->blind_domain[i] = strndup(dn->str, dn->len)))
		return -ENOMEM;
	return 0;
}

static int judge_result(struct walk *k)
{
	const struct hm_event *ev = k->ev;
	enum hm_outcome o = hm_passed_outcome(ev);

	if (ev->success)
		return 0;
	/* Landlock's check ran and denied it (histmac sandbox): a denial,
	 * which check lists as enforced, not an attempt */
	if (ev->landlock_blockers.s && ev->kind != HM_EV_EXEC)
		return 0;
	if (k->w->o.learn_failed && ev->kind != HM_EV_EXEC)
		o = HM_OUTCOME_PASSED;
	if (ev->kind == HM_EV_EXEC || hm_event_kind_blind(ev->kind) ||
	    o == HM_OUTCOME_FAILED)
		return skip(k, HM_WSKIP_FAILED), 1;
	k->a.attempt = o == HM_OUTCOME_ATTEMPT;
	if (k->a.attempt)
		k->w->st.attempts++;
	else
		k->w->st.failed_passed++;
	return 0;
}

int hm_walker_event(struct hm_walker *w, const struct hm_event *ev,
		    int (*fn)(const struct hm_access *a, void *arg), void *arg)
{
	struct walk k = { .w = w, .ev = ev, .fn = fn, .arg = arg };
	int r;

	w->st.events++;
	renew_scratch(w);
	if (ev->kind == HM_EV_HM_DECISION)
		return decision_access(&k);
	if (!ev->has_syscall || ev->pid <= 0)
		return skip(&k, HM_WSKIP_NO_SYSCALL);
	/* learning one login: every process of it carries it, as the
	 * audit rules' -F auid= would select them */
	if (w->o.logins.n && !((ev->present & HM_EVP_AUID) &&
			       hm_logins_has(&w->o.logins, ev->auid)))
		return skip(&k, HM_WSKIP_OTHER_LOGIN);
	r = judge_result(&k);
	if (r)
		return r < 0 ? r : 0;
	/* processes are keyed by (node, pid): hosts of one log never meet */
	r = hm_tracker_set_node(w->t, ev->node.s, ev->node.len);
	if (r)
		return r;
	fill_ctx(&k.a.ctx, ev);
	k.a.ev = ev;
	r = fill_argv(&k);
	if (r)
		return r;
	if (ev->kind == HM_EV_EXEC)
		return exec_access(&k);
	if (ev->kind == HM_EV_FORK)
		return fork_access(&k);
	if (hm_event_kind_blind(ev->kind))
		return blind_call(&k);
	if (ev->kind == HM_EV_OTHER || ev->kind == HM_EV_SOCKET ||
	    ev->kind == HM_EV_FANOTIFY || ev->kind == HM_EV_HM_DECISION)
		return skip(&k, HM_WSKIP_UNSUPPORTED);
	r = acting_domain(&k);
	if (r)
		return r;
	return dispatch(&k);
}
