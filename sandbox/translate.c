// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * translate.c - one TOMOYO entry -> Landlock grants (docs/SANDBOX.md has
 * the table).  Landlock names objects by inode, opened when the ruleset
 * is applied, and grants a right on an object and everything beneath it;
 * so a name becomes a path to open, and where that is a coarser object
 * than the entry named (a pattern's directory, a parent, /proc for
 * proc:/self) the grant says so.  Whether the object exists is the
 * applier's question (apply.c opens the nearest existing parent of a
 * missing one); with HM_SBX_LOOKUP this file asks it too, for --explain's
 * [missing].  Reads the model, and the file system only for an
 * executable's interpreter and with HM_SBX_LOOKUP; owns only the grants
 * it returns.  Next: build.c unions the grants of a subtree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "histmac/kernel_names.h"
#include "histmac/naming.h"
#include "histmac/word.h"
#include "internal.h"
#include "table.h"
#include "landlock_abi.h"

#define PORT_MAX 65535u
#define INTERP_DEPTH 3	/* script -> interpreter -> ld.so */

const char *const hm_sbx_widen_words[HM_SBX_W_MAX] = {
#define X(e, w, s) [HM_SBX_W_##e] = w,
	HM_SBX_WIDENINGS(X)
#undef X
};

const char *const hm_sbx_widen_text[HM_SBX_W_MAX] = {
#define X(e, w, s) [HM_SBX_W_##e] = s,
	HM_SBX_WIDENINGS(X)
#undef X
};

const char *const hm_sbx_unenforced_text[HM_SBX_NE_MAX] = {
#define X(e, s) [HM_SBX_NE_##e] = s,
	HM_SBX_UNENFORCED(X)
#undef X
};

const char *const hm_sbx_fs_right_names[64] = {
#define X(e, bit, abi, name) [bit] = name,
	HM_LL_FS_RIGHTS(X)
#undef X
};

static const int right_abi[64] = {
#define X(e, bit, abi, name) [bit] = abi,
	HM_LL_FS_RIGHTS(X)
#undef X
};

int hm_sbx_right_abi(unsigned bit)
{
	return bit < 64 ? right_abi[bit] : 0;
}

const char *const hm_sbx_net_right_names[HM_SBX_NET_RIGHTS] = {
	"net.bind_tcp", "net.connect_tcp", "net.bind_udp",
	"net.connect_send_udp",
};

int hm_sbx_net_right_abi(unsigned bit)
{
	return (1ULL << bit) & HM_LL_NET_UDP ? 10 : 4;
}

uint64_t hm_sbx_fs_abi_mask(int abi)
{
	uint64_t m = 0;

	for (unsigned b = 0; b < 64; b++)
		if (right_abi[b] && right_abi[b] <= abi)
			m |= 1ULL << b;
	return m;
}

/* ------------------------------------------------------------- grants */

/* Takes @path (NULL: a port grant; then @port..@port_max). */
/* @file: @path was learned as a file (hm_sbx_grant's @file). */
/* @at: set to the index of the grant that holds it; may be NULL. */
static int add_grant_at(struct hm_sbx_xlat *x, char *path, uint64_t port,
			uint64_t port_max, uint64_t access, uint32_t widen,
			bool file, size_t *at)
{
	struct hm_sbx_grant *g;

	for (size_t i = 0; path && i < x->n; i++) {
		g = &x->grants[i];
		if (g->path && g->widen == widen && !strcmp(g->path, path)) {
			g->access |= access;	/* one line per object */
			g->file = g->file && file;
			free(path);
			if (at)
				*at = i;
			return 0;
		}
	}
	if (!(x->n & (x->n + 1))) {	/* n + 1 is a power of two: grow */
		g = realloc(x->grants, (2 * x->n + 2) * sizeof(*g));
		if (!g) {
			free(path);
			return -ENOMEM;
		}
		x->grants = g;
	}
	if (at)
		*at = x->n;
	x->grants[x->n++] = (struct hm_sbx_grant){ path, port, port_max, access,
						    widen, path && file };
	return 0;
}

static int add_grant(struct hm_sbx_xlat *x, char *path, uint64_t port,
		     uint64_t port_max, uint64_t access, uint32_t widen,
		     bool file)
{
	return add_grant_at(x, path, port, port_max, access, widen, file, NULL);
}

void hm_sbx_xlat_fini(struct hm_sbx_xlat *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->grants[i].path);
	free(x->grants);
	free(x->moves);
	memset(x, 0, sizeof(*x));
}

static void set_unenforced(struct hm_sbx_xlat *x, enum hm_sbx_unenforced u)
{
	if (!x->unenforced)
		x->unenforced = u;
}

/* ------------------------------------------------------------- names */

/* The part of encoded word @w (@len bytes) that names a directory to
 * grant on: @w itself, its parent (@parent), or a pattern's literal
 * directory prefix.  Sets the widenings that took. */
static size_t object_word(const char *w, size_t len, bool parent,
			  uint32_t *widen)
{
	struct hm_name n = { .str = w, .len = (uint32_t)len };
	const char *slash;

	if (parent) {
		size_t l = len > 1 && w[len - 1] == '/' ? len - 1 : len;

		slash = memrchr(w, '/', l);
		len = slash ? (size_t)(slash - w) + 1 : len;
		*widen |= 1u << HM_SBX_W_PARENT;
		n.len = (uint32_t)len;
	}
	hm_name_fill(&n);
	if (!n.is_patterned)
		return len;
	slash = memrchr(w, '/', n.const_len);
	*widen |= 1u << HM_SBX_W_PATTERN;
	return slash ? (size_t)(slash - w) + 1 : 0;
}

/* Raw absolute path of encoded word @w, "/" kept only for the root. */
static char *decode_path(const char *w, size_t len)
{
	char *raw = malloc(len + 1);
	size_t n;

	if (!raw || hm_decode(raw, &n, w, len)) {
		free(raw);
		return NULL;
	}
	while (n > 1 && raw[n - 1] == '/')
		n--;
	raw[n] = '\0';
	return raw;
}

/* openat2()'s answer without it: an O_PATH fd, or -1 with errno ELOOP
 * when the object itself is a symlink (a link on the way is followed). */
static int exists_nofollow(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		return -1;
	}
	return open(path, O_PATH | O_CLOEXEC);
}

/* Does @path exist, as apply.c decides: only ENOENT and ENOTDIR say no
 * (an object this process may not reach is not widened), and a symlink
 * anywhere on the way is neither: apply.c skips it (HM_SBX_SYMLINK). */
static int exists(const char *root, const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS |
					   RESOLVE_NO_MAGICLINKS };
	char *full = NULL;
	int fd;

	if (*root && asprintf(&full, "%s%s", root, path) < 0)
		return 1;	/* no memory: do not claim a widening */
	fd = (int)syscall(SYS_openat2, AT_FDCWD, full ? full : path, &how,
			  sizeof(how));
	if (fd < 0 && errno == ENOSYS)	/* valgrind 3.19 has no openat2 */
		fd = exists_nofollow(full ? full : path);
	free(full);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == ELOOP ? -1 : errno != ENOENT && errno != ENOTDIR;
}

/* Walk @path up to an object that exists (at worst "/"), as apply.c
 * does when it opens the object: through root's links (the real path
 * replaces @path), stopped by any other symlink.  Returns @path or its
 * replacement. */
static char *nearest_existing(const char *root, char *path, uint32_t *widen)
{
	char real[PATH_MAX];
	int e = exists(root, path);

	if (e < 0 && !hm_sbx_real_path(root, path, real, sizeof(real)) &&
	    strcmp(real, path)) {
		char *n = strdup(real);

		if (n) {
			free(path);
			path = n;
			e = exists(root, path);
		}
	}
	while (!e) {
		char *slash = strrchr(path, '/');

		*widen |= 1u << HM_SBX_W_MISSING;
		if (!slash || slash == path) {
			strcpy(path, "/");
			break;
		}
		*slash = '\0';
		e = exists(root, path);
	}
	if (e < 0)
		*widen |= HM_SBX_SYMLINK;
	return path;
}

/* The real path of program @path under @root through root's links only
 * (hm_sbx_real_path()); NULL when that fails: the grant keeps the name,
 * and applying skips it unless the link is root's. */
static char *program_realpath(const char *root, const char *path)
{
	char real[PATH_MAX];

	return hm_sbx_real_path(root, path, real, sizeof(real)) ? NULL :
	       strdup(real);
}

/* Grant @g names a program: name its real path (program_realpath()). */
static void resolve_program(const char *root, struct hm_sbx_grant *g)
{
	char *real = program_realpath(root, g->path);

	if (real) {
		free(g->path);
		g->path = real;
	}
}

/*
 * The object to grant on for TOMOYO name @name: NULL with *@ne set when it
 * is not a path.  proc:/self/x is another inode in every process; other
 * proc:/x names are /proc/x, securityfs:/x, devpts:/N, ... are where
 * those file systems are mounted here.
 */
static char *resolve(const char *root, bool lookup,
		     const struct hm_name *name, bool parent, uint32_t *widen,
		     enum hm_sbx_unenforced *ne)
{
	const char *w = name->str;
	size_t len = name->len;
	char *path;

	if (!strncmp(w, "proc:/self", 10)) {
		*widen |= 1u << HM_SBX_W_PROC;
		return strdup("/proc");
	}
	if (w[0] != '/' && memchr(w, ':', len)) {
		/* a file system TOMOYO names by type (lib/naming.c): where
		 * it is mounted here, the rest of the word as it is */
		const char *rest = (const char *)memchr(w, ':', len) + 1;
		struct hm_sbuf dir = { 0 };
		char *word, *enc;
		int r = rest[0] == '/' ?
				hm_object_path(hm_fs_table_host(), w,
					       (size_t)(rest - w) + 1, &dir) :
				-EINVAL;

		if (r < 0 || !(enc = malloc(hm_encode_len(dir.s, dir.len) + 1))) {
			hm_sbuf_free(&dir);
			if (r == -ENOMEM || r == 0)
				return NULL;
			*ne = HM_SBX_NE_NOT_PATH;
			return NULL;
		}
		hm_encode(enc, dir.s, dir.len - 1);	/* its '/' is rest's */
		hm_sbuf_free(&dir);
		r = asprintf(&word, "%s%.*s", enc,
			     (int)(len - (size_t)(rest - w)), rest);
		free(enc);
		if (r < 0)
			return NULL;
		path = resolve(root, lookup, &(struct hm_name){ .str = word,
				.len = (uint32_t)strlen(word) }, parent, widen,
			       ne);
		free(word);
		return path;
	}
	if (w[0] != '/') {
		*ne = HM_SBX_NE_NOT_PATH;
		return NULL;
	}
	len = object_word(w, len, parent, widen);
	path = len ? decode_path(w, len) : strdup("/");
	if (path && lookup)
		path = nearest_existing(root, path, widen);
	return path;
}

/* Call @fn on each name of path operand @op (a word or a path_group). */
static int each_name(const struct hm_name_op *op,
		     int (*fn)(const struct hm_name *n, void *arg), void *arg)
{
	int r = 0;

	if (op->name)
		return fn(op->name, arg);
	for (const struct hm_group_member *gm = op->group ?
	     op->group->members : NULL; gm && !r; gm = gm->next)
		r = fn(gm->name, arg);
	return r;
}

/* --------------------------------------------------------------- file */

struct fs_ctx {
	struct hm_sbx_xlat *x;
	const char *root;
	bool lookup;		/* HM_SBX_LOOKUP */
	uint64_t access;	/* rights on the object */
	uint64_t dir_access;	/* instead, when the name is a directory */
	bool parent;		/* on the parent directory */
	uint32_t widen;		/* added to every grant */
};

/* Widenings that grant on a directory instead of the name's object. */
#define NOT_THE_FILE	(1u << HM_SBX_W_PARENT | 1u << HM_SBX_W_PATTERN | \
			 1u << HM_SBX_W_MISSING | 1u << HM_SBX_W_PROC)

static int grant_name(const struct hm_name *n, void *arg)
{
	struct fs_ctx *c = arg;
	enum hm_sbx_unenforced ne = HM_SBX_NE_NONE;
	uint32_t widen = c->widen;
	char *path = resolve(c->root, c->lookup, n, c->parent, &widen, &ne);

	if (!path) {
		if (ne)
			set_unenforced(c->x, ne);
		return ne ? 0 : -ENOMEM;
	}
	/* Landlock's rights hold beneath: fs.read_dir on D lists every
	 * directory under D too, where TOMOYO's "file read D/" is D alone */
	if (n->is_dir && c->dir_access == HM_LL_FS_READ_DIR)
		widen |= 1u << HM_SBX_W_DIR;
	return add_grant(c->x, path, 0, 0, n->is_dir && c->dir_access ?
			 c->dir_access : c->access, widen,
			 !n->is_dir && !(widen & NOT_THE_FILE));
}

static int fs_grant(struct fs_ctx *c, const struct hm_name_op *op,
		    uint64_t access, uint64_t dir_access, bool parent)
{
	c->access = access;
	c->dir_access = dir_access;
	c->parent = parent;
	return each_name(op, grant_name, c);
}

/* Execute: the program and what the kernel opens with it, each for
 * execute and read (open_exec() asks for both). */
/* @loader: @prog is an ELF's own interpreter (ld.so, itself static). */
static int grant_interp(struct fs_ctx *c, const char *prog, int depth,
			bool loader)
{
	char *full = NULL;
	char *interp;
	char *path;
	char magic[4];
	bool script;
	int fd;
	int r;

	if (depth >= INTERP_DEPTH ||
	    asprintf(&full, "%s%s", c->root, prog) < 0)
		return 0;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	free(full);
	if (fd < 0)
		return 0;
	interp = hm_exec_interp(fd, &script);
	/* a static ELF loads no preload: it cannot narrow below */
	if (!interp && !loader &&
	    pread(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
	    !memcmp(magic, "\177ELF", 4))
		c->x->static_exec = true;
	close(fd);
	if (!interp || interp[0] != '/') {
		free(interp);
		return 0;
	}
	path = program_realpath(c->root, interp);
	if (!path)
		path = strdup(interp);
	r = path ? add_grant(c->x, path, 0, 0,
			     HM_LL_FS_EXECUTE | HM_LL_FS_READ_FILE,
			     c->widen | 1u << HM_SBX_W_EXEC_READ, true) :
		   -ENOMEM;
	if (!r)
		r = grant_interp(c, interp, depth + 1, !script);
	free(interp);
	return r;
}

static int grant_exec(const struct hm_name *n, void *arg)
{
	struct fs_ctx *c = arg;
	size_t before = c->x->n;
	int r;

	c->access = HM_LL_FS_EXECUTE | HM_LL_FS_READ_FILE;
	c->dir_access = 0;
	c->parent = false;
	r = grant_name(n, arg);
	if (r || c->x->n == before)
		return r;
	c->x->grants[before].widen |= 1u << HM_SBX_W_EXEC_READ;
	if (n->is_patterned)
		return 0;
	resolve_program(c->root, &c->x->grants[before]);
	return grant_interp(c, c->x->grants[before].path, 0, false);
}

/* Per operation on one path: rights, rights on a directory name, on the
 * parent?  0 access: not enforced for the reason given. */
static const struct {
	uint64_t access;
	uint64_t dir_access;
	bool parent;
	enum hm_sbx_unenforced ne;
} path_ops[HM_FILE_OP_MAX] = {
	[HM_FILE_READ] = { HM_LL_FS_READ_FILE, HM_LL_FS_READ_DIR },
	[HM_FILE_WRITE] = { HM_LL_FS_WRITE_FILE },
	[HM_FILE_APPEND] = { HM_LL_FS_WRITE_FILE },
	[HM_FILE_TRUNCATE] = { HM_LL_FS_TRUNCATE },
	[HM_FILE_UNLINK] = { HM_LL_FS_REMOVE_FILE, 0, true },
	[HM_FILE_RMDIR] = { HM_LL_FS_REMOVE_DIR, 0, true },
	[HM_FILE_SYMLINK] = { HM_LL_FS_MAKE_SYM, 0, true },
	[HM_FILE_CREATE] = { HM_LL_FS_MAKE_REG, 0, true },
	[HM_FILE_MKDIR] = { HM_LL_FS_MAKE_DIR, 0, true },
	[HM_FILE_MKFIFO] = { HM_LL_FS_MAKE_FIFO, 0, true },
	[HM_FILE_MKSOCK] = { HM_LL_FS_MAKE_SOCK, 0, true },
	[HM_FILE_MKBLOCK] = { HM_LL_FS_MAKE_BLOCK, 0, true },
	[HM_FILE_MKCHAR] = { HM_LL_FS_MAKE_CHAR, 0, true },
	[HM_FILE_GETATTR] = { .ne = HM_SBX_NE_ATTR },
	[HM_FILE_CHMOD] = { .ne = HM_SBX_NE_ATTR },
	[HM_FILE_CHOWN] = { .ne = HM_SBX_NE_ATTR },
	[HM_FILE_CHGRP] = { .ne = HM_SBX_NE_ATTR },
	[HM_FILE_IOCTL] = { .ne = HM_SBX_NE_IOCTL },
	[HM_FILE_CHROOT] = { .ne = HM_SBX_NE_CHROOT },
	[HM_FILE_UNMOUNT] = { .ne = HM_SBX_NE_MOUNT },
	[HM_FILE_MOUNT] = { .ne = HM_SBX_NE_MOUNT },
	[HM_FILE_PIVOT_ROOT] = { .ne = HM_SBX_NE_MOUNT },
};

static int one_path_ops(struct fs_ctx *c, const struct hm_name_op *op,
			uint32_t perm)
{
	int r = 0;

	for (unsigned o = 0; o < HM_FILE_OP_MAX && !r; o++) {
		if (!(perm & (1u << o)))
			continue;
		if (o == HM_FILE_EXECUTE)
			r = each_name(op, grant_exec, c);
		else if (path_ops[o].access)
			r = fs_grant(c, op, path_ops[o].access,
				     path_ops[o].dir_access, path_ops[o].parent);
		else if (path_ops[o].ne)
			set_unenforced(c->x, path_ops[o].ne);
	}
	return r;
}

static int add_move(struct hm_sbx_xlat *x, size_t from, size_t to, bool dir)
{
	struct hm_sbx_move *m = realloc(x->moves,
					(x->n_moves + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	x->moves = m;
	x->moves[x->n_moves++] = (struct hm_sbx_move){ (uint32_t)from,
						       (uint32_t)to, dir };
	return 0;
}

/* fs.refer on each source and destination parent that differ. */
static void mark_refer(struct hm_sbx_xlat *src, struct hm_sbx_xlat *dst)
{
	for (size_t i = 0; i < src->n; i++)
		for (size_t j = 0; j < dst->n; j++)
			if (strcmp(src->grants[i].path, dst->grants[j].path)) {
				src->grants[i].access |= HM_LL_FS_REFER;
				dst->grants[j].access |= HM_LL_FS_REFER;
			}
}

/* A move from each of @n_src source grants (@at[0..]) to each of @n_dst
 * destination grants (after them in @at) on another path. */
static int add_moves(struct hm_sbx_xlat *x, const size_t *at, size_t n_src,
		     size_t n_dst, bool dir)
{
	int r = 0;

	for (size_t i = 0; !r && i < n_src; i++)
		for (size_t j = n_src; !r && j < n_src + n_dst; j++)
			if (strcmp(x->grants[at[i]].path,
				   x->grants[at[j]].path))
				r = add_move(x, at[i], at[j], dir);
	return r;
}

/* Move the grants of @from into @x; @at[i] is where from->grants[i] went. */
static int take_grants(struct hm_sbx_xlat *x, struct hm_sbx_xlat *from,
		       size_t *at)
{
	int r = 0;

	for (size_t i = 0; i < from->n && !r; i++) {
		struct hm_sbx_grant *g = &from->grants[i];

		r = add_grant_at(x, g->path, 0, 0, g->access, g->widen,
				 g->file, &at[i]);
		g->path = NULL;		/* taken, even on failure */
	}
	if (from->unenforced)
		set_unenforced(x, from->unenforced);
	return r;
}

/*
 * link and rename: remove from the old parent (rename), make in the new
 * one, and where the two parents differ fs.refer on both (Landlock's
 * reparenting right) and a move recorded for the build: fs.refer is not
 * enough (struct hm_sbx_move, build.c widen_moves()).  Each source
 * parent pairs with each destination parent (path_groups).
 */
static int two_path_ops(struct fs_ctx *c, const struct hm_acl_path2 *p)
{
	bool dir = p->name1.name && p->name1.name->is_dir;
	uint32_t perm = p->head.perm;
	struct hm_sbx_xlat src = { 0 }, dst = { 0 };
	struct fs_ctx sc = *c, dc = *c;
	size_t *at = NULL;
	size_t n_src;
	int r;

	if (perm & (1u << HM_FILE_PIVOT_ROOT))
		set_unenforced(c->x, HM_SBX_NE_MOUNT);
	if (!(perm & ((1u << HM_FILE_RENAME) | (1u << HM_FILE_LINK))))
		return 0;
	sc.x = &src;
	dc.x = &dst;
	r = fs_grant(&sc, &p->name1, !(perm & (1u << HM_FILE_RENAME)) ? 0 :
		     dir ? HM_LL_FS_REMOVE_DIR : HM_LL_FS_REMOVE_FILE, 0, true);
	if (!r)
		r = fs_grant(&dc, &p->name2, dir ? HM_LL_FS_MAKE_DIR :
			     HM_LL_FS_MAKE_REG, 0, true);
	if (!r)
		mark_refer(&src, &dst);
	n_src = src.n;
	at = r ? NULL : malloc((src.n + dst.n + 1) * sizeof(*at));
	if (!r && !at)
		r = -ENOMEM;
	if (!r)
		r = take_grants(c->x, &src, at);
	if (!r)
		r = take_grants(c->x, &dst, at + n_src);
	if (!r)
		r = add_moves(c->x, at, n_src, dst.n, dir);
	free(at);
	hm_sbx_xlat_fini(&src);
	hm_sbx_xlat_fini(&dst);
	return r;
}

/* ------------------------------------------------------------ network */

static int grant_ports(struct hm_sbx_xlat *x, const struct hm_number *n,
		       uint64_t access, uint32_t widen)
{
	int r = 0;

	if (n->group) {
		for (const struct hm_group_member *gm = n->group->members;
		     gm && !r; gm = gm->next)
			r = grant_ports(x, &gm->number, access, widen);
		if (!n->group->members)
			set_unenforced(x, HM_SBX_NE_GROUP);
		return r;
	}
	if (n->min > PORT_MAX)
		return 0;
	/* A range is one grant; build.c expands it. */
	return add_grant(x, NULL, n->min, n->max > PORT_MAX ? PORT_MAX : n->max,
			 access, widen, false);
}

/* Does @a leave nothing for Landlock to miss: every address, or (bind)
 * the wildcard address 0.0.0.0 / ::? */
static bool any_address(const struct hm_addr *a, bool bind)
{
	size_t len = a->is_ipv6 ? 16 : 4;
	bool all = true, wildcard = bind;

	if (a->group)
		return false;
	for (size_t i = 0; i < len; i++) {
		all &= a->min[i] == 0 && a->max[i] == 0xff;
		wildcard &= a->min[i] == 0 && a->max[i] == 0;
	}
	return all || wildcard;
}

static int inet_ops(struct hm_sbx_xlat *x, const struct hm_acl_inet *e,
		    uint32_t widen)
{
	uint32_t perm = e->head.perm;
	uint64_t access = 0;

	uint32_t known = (1u << HM_NET_BIND) | (1u << HM_NET_CONNECT);

	if (e->proto == HM_PROTO_STREAM) {
		if (perm & (1u << HM_NET_BIND))
			access |= HM_LL_NET_BIND_TCP;
		if (perm & (1u << HM_NET_CONNECT))
			access |= HM_LL_NET_CONNECT_TCP;
	} else if (e->proto == HM_PROTO_DGRAM) {
		/* ABI 10; build.c leaves them out on an older kernel */
		known |= 1u << HM_NET_SEND;
		if (perm & (1u << HM_NET_BIND))
			access |= HM_LL_NET_BIND_UDP;
		if (perm & ((1u << HM_NET_CONNECT) | (1u << HM_NET_SEND)))
			access |= HM_LL_NET_CONNECT_SEND_UDP;
	}
	if (perm & ~known || !access)
		set_unenforced(x, HM_SBX_NE_SOCKET);
	if (!access)
		return 0;
	if (!any_address(&e->addr, !(access & ~(HM_LL_NET_BIND_TCP |
						HM_LL_NET_BIND_UDP))))
		widen |= 1u << HM_SBX_W_ADDRESS;
	return grant_ports(x, &e->port, access, widen);
}

/* unix: a bind to a path makes a socket inode in its directory
 * (fs.make_sock there); connecting or sending to a path is fs.resolve_unix
 * on the socket (ABI 9); an abstract name keeps the subtree from
 * abstract-unix scoping. */
static int unix_ops(struct fs_ctx *c, const struct hm_acl_unix *e)
{
	const struct hm_name *n = e->name.name;

	uint32_t perm = e->head.perm;
	uint32_t reach = (1u << HM_NET_CONNECT) | (1u << HM_NET_SEND);
	int r = 0;

	/* an abstract name starts with \000; a group may hold one */
	if (!n || n->str[0] != '/') {
		set_unenforced(c->x, HM_SBX_NE_SOCKET);
		c->x->scope_abstract = true;
		return 0;
	}
	if (perm & ~(reach | (1u << HM_NET_BIND)))
		set_unenforced(c->x, HM_SBX_NE_SOCKET);
	if (perm & (1u << HM_NET_BIND))
		r = fs_grant(c, &e->name, HM_LL_FS_MAKE_SOCK, 0, true);
	/* connect, or send to it (dgram): fs.resolve_unix on the socket
	 * (ABI 9; build.c leaves it out on an older kernel) */
	if (!r && (perm & reach))
		r = fs_grant(c, &e->name, HM_LL_FS_RESOLVE_UNIX, 0, false);
	return r;
}

/* -------------------------------------------------------------- entry */

int hm_sbx_translate(const struct hm_model *m, const struct hm_acl_head *e,
		     const char *root, unsigned int flags,
		     struct hm_sbx_xlat *out)
{
	struct fs_ctx c = { .x = out, .root = root ? root : "",
			    .lookup = flags & HM_SBX_LOOKUP };
	int r = 0;

	(void)m;
	memset(out, 0, sizeof(*out));
	if (e->cond)
		c.widen |= 1u << HM_SBX_W_CONDITION;
	switch (e->kind) {
	case HM_ACL_PATH:
		r = one_path_ops(&c, &hm_container_of(e, struct hm_acl_path,
						      head)->name, e->perm);
		break;
	case HM_ACL_PATH_NUMBER:
		r = one_path_ops(&c, &hm_container_of(
			e, struct hm_acl_path_number, head)->name, e->perm);
		break;
	case HM_ACL_MKDEV:
		r = one_path_ops(&c, &hm_container_of(e, struct hm_acl_mkdev,
						      head)->name, e->perm);
		break;
	case HM_ACL_PATH2:
		r = two_path_ops(&c, hm_container_of(e, struct hm_acl_path2,
						     head));
		break;
	case HM_ACL_MOUNT:
		set_unenforced(out, HM_SBX_NE_MOUNT);
		break;
	case HM_ACL_INET:
		r = inet_ops(out, hm_container_of(e, struct hm_acl_inet, head),
			     c.widen);
		break;
	case HM_ACL_UNIX:
		r = unix_ops(&c, hm_container_of(e, struct hm_acl_unix, head));
		break;
	case HM_ACL_SIGNAL:
		out->scope_signal = true;
		set_unenforced(out, HM_SBX_NE_SIGNAL);
		break;
	case HM_ACL_ENV:
		set_unenforced(out, HM_SBX_NE_ENV);
		break;
	}
	if (r)
		hm_sbx_xlat_fini(out);
	return r;
}

int hm_sbx_exec_grants(const char *root, const char *path,
		       struct hm_sbx_xlat *x)
{
	struct fs_ctx c = { .x = x, .root = root ? root : "" };
	char *p = strdup(path);
	int r;

	r = p ? add_grant(x, p, 0, 0, HM_LL_FS_EXECUTE | HM_LL_FS_READ_FILE,
			  1u << HM_SBX_W_EXEC_READ, true) : -ENOMEM;
	if (r)
		return r;
	resolve_program(c.root, &x->grants[x->n - 1]);
	return grant_interp(&c, x->grants[x->n - 1].path, 0, false);
}
