// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * naming.c - TOMOYO's names of objects and programs (histmac/naming.h,
 * docs/PATHS.md).  Owns the host's mount table, read once.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/naming.h"

/*
 * File systems TOMOYO names by type: their root directory has no
 * ->rename and they need no block device (realpath.c,
 * tomoyo_realpath_from_path).  sysfs, cgroup, tmpfs, devtmpfs, bpf and
 * hugetlbfs can rename: they are named by absolute path.
 */
static const char *const by_type[] = {
	"proc", "securityfs", "devpts", "mqueue", "debugfs", "tracefs",
	"configfs", "binfmt_misc", "efivarfs", "pstore", "fusectl", "autofs",
	"rpc_pipefs", "nfsd", "selinuxfs", "smackfs",
};

struct fs_mount {
	const char *dir;	/* mount point, no trailing '/' */
	size_t dir_len;
	const char *type;	/* named by type, or NULL: by path */
	const char *root;	/* the mount's root inside the fs, "" = / */
	size_t root_len;
};

struct hm_fs_table {
	struct fs_mount *m;
	size_t n;
	bool is_static;
	char *text;		/* strings of a parsed table */
};

static struct fs_mount known_mounts[] = {
#define K(d, t) { d, sizeof(d) - 1, t, "", 0 }
	K("/proc", "proc"),
	K("/proc/sys/fs/binfmt_misc", "binfmt_misc"),
	K("/proc/fs/nfsd", "nfsd"),
	K("/sys/kernel/security", "securityfs"),
	K("/sys/kernel/debug", "debugfs"),
	K("/sys/kernel/debug/tracing", "tracefs"),
	K("/sys/kernel/tracing", "tracefs"),
	K("/sys/kernel/config", "configfs"),
	K("/sys/firmware/efi/efivars", "efivarfs"),
	K("/sys/fs/pstore", "pstore"),
	K("/sys/fs/fuse/connections", "fusectl"),
	K("/sys/fs/selinux", "selinuxfs"),
	K("/dev/pts", "devpts"),
	K("/dev/mqueue", "mqueue"),
	K("/run/rpc_pipefs", "rpc_pipefs"),
	K("/var/lib/nfs/rpc_pipefs", "rpc_pipefs"),
#undef K
};

static const struct hm_fs_table known = {
	.m = known_mounts,
	.n = HM_ARRAY_SIZE(known_mounts),
	.is_static = true,
};

const struct hm_fs_table *hm_fs_table_known(void)
{
	return &known;
}

static const char *type_by_name(const char *type)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(by_type); i++)
		if (!strcmp(type, by_type[i]))
			return by_type[i];
	return NULL;
}

/* mountinfo's octal escapes (\040 for a space), in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static size_t trim_slash(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == '/')
		n--;
	return n;
}

/* One mountinfo line, split in place: mount point, root and fs type. */
static bool parse_line(char *line, struct fs_mount *m, const char **type)
{
	char *f[6];
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " ", &save); w && n < 5;
	     w = strtok_r(NULL, " ", &save))
		f[n++] = w;
	if (n < 5)
		return false;
	while (w && strcmp(w, "-"))	/* optional fields end at "-" */
		w = strtok_r(NULL, " ", &save);
	f[5] = w ? strtok_r(NULL, " ", &save) : NULL;
	if (!f[5])
		return false;
	unescape(f[3]);
	unescape(f[4]);
	m->root = f[3];
	m->root_len = trim_slash(f[3]);
	m->dir = f[4];
	m->dir_len = trim_slash(f[4]);
	*type = f[5];
	return true;
}

static bool under(const char *p, size_t len, const char *dir, size_t dlen)
{
	return dlen <= len && !memcmp(p, dir, dlen) &&
	       (len == dlen || p[dlen] == '/');
}

/* Keep mounts named by type, and the mounts over or below them that
 * hide part of them (binfmt_misc over autofs, a bind over a proc file). */
static void keep_relevant(struct hm_fs_table *t)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		bool keep = t->m[i].type != NULL;

		for (size_t j = 0; !keep && j < t->n; j++)
			keep = t->m[j].type && t->m[j].dir_len &&
			       under(t->m[i].dir, t->m[i].dir_len,
				     t->m[j].dir, t->m[j].dir_len);
		if (keep && t->m[i].dir_len)
			t->m[k++] = t->m[i];
	}
	t->n = k;
}

int hm_fs_table_parse(const char *text, struct hm_fs_table **out)
{
	struct hm_fs_table *t = calloc(1, sizeof(*t));
	size_t cap = 0;
	char *save = NULL;

	if (!t || !(t->text = strdup(text)))
		goto nomem;
	for (char *line = strtok_r(t->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct fs_mount m;
		const char *type;

		if (!parse_line(line, &m, &type))
			continue;
		m.type = type_by_name(type);
		if (HM_ARRAY_GROW(&t->m, &cap, t->n + 1))
			goto nomem;
		t->m[t->n++] = m;
	}
	keep_relevant(t);
	*out = t;
	return 0;
nomem:
	hm_fs_table_free(t);
	return -ENOMEM;
}

void hm_fs_table_free(struct hm_fs_table *t)
{
	if (!t || t->is_static)
		return;
	free(t->m);
	free(t->text);
	free(t);
}

static const struct hm_fs_table *host;

static void read_host(void)
{
	struct hm_sbuf b = { 0 };
	char chunk[4096];
	struct hm_fs_table *t = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t n;

	host = &known;
	if (!f)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		hm_sbuf_add(&b, chunk, n);
	fclose(f);
	if (!b.oom && b.len && !hm_fs_table_parse(b.s, &t))
		host = t;
	hm_sbuf_free(&b);
}

const struct hm_fs_table *hm_fs_table_host(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_host);
	return host;
}

/* The mount @p is on, among @fs's: the longest mount point (the later
 * mount where two are equal); NULL when none holds it. */
static const struct fs_mount *mount_of(const struct hm_fs_table *fs,
				       const char *p, size_t len)
{
	const struct fs_mount *best = NULL;

	for (size_t i = 0; i < fs->n; i++) {
		const struct fs_mount *m = &fs->m[i];

		if (under(p, len, m->dir, m->dir_len) &&
		    (!best || m->dir_len >= best->dir_len))
			best = m;
	}
	return best;
}

static bool is_pid(const char *s, size_t n, int64_t pid)
{
	char buf[24];
	int k;

	if (pid <= 0)
		return false;
	k = snprintf(buf, sizeof(buf), "%lld", (long long)pid);
	return (size_t)k == n && !memcmp(s, buf, n);
}

/* @rest (a path inside proc) with its first component as TOMOYO has it:
 * the own pid as "self"; /net and /mounts are links to self/. */
static int proc_rest(const char *rest, size_t n, int64_t pid,
		     struct hm_sbuf *out)
{
	size_t j = 1;

	while (j < n && rest[j] != '/')
		j++;
	if (n > 1 && ((j == 5 && !memcmp(rest + 1, "self", 4)) ||
		      is_pid(rest + 1, j - 1, pid))) {
		if (hm_sbuf_add(out, "/self", 5) < 0)
			return -ENOMEM;
		return hm_sbuf_add(out, rest + j, n - j);
	}
	if ((j == 4 && !memcmp(rest + 1, "net", 3)) ||
	    (j == 7 && !memcmp(rest + 1, "mounts", 6)))
		if (hm_sbuf_add(out, "/self", 5) < 0)
			return -ENOMEM;
	return hm_sbuf_add(out, rest, n);
}

int hm_object_name(const struct hm_fs_table *fs, const char *p, size_t len,
		   int64_t pid, bool is_dir, struct hm_sbuf *out)
{
	const struct fs_mount *m = mount_of(fs, p, len);

	hm_sbuf_reset(out);
	if (m && m->type) {
		const char *rest = p + m->dir_len;
		size_t n = len - m->dir_len;

		hm_sbuf_adds(out, m->type);
		hm_sbuf_addc(out, ':');
		if (m->root_len)
			hm_sbuf_add(out, m->root, m->root_len);
		if (!strcmp(m->type, "proc") && !m->root_len && n)
			proc_rest(rest, n, pid, out);
		else
			hm_sbuf_add(out, rest, n);
		if (!m->root_len && !n)
			hm_sbuf_addc(out, '/');
	} else {
		hm_sbuf_add(out, len ? p : "/", len ? len : 1);
	}
	if (is_dir && out->len && out->s[out->len - 1] != '/')
		hm_sbuf_addc(out, '/');
	return out->oom ? -ENOMEM : 0;
}

int hm_program_name(const char *path, const char *real, struct hm_sbuf *out)
{
	const char *base = strrchr(path, '/');
	char dir[PATH_MAX];
	char res[PATH_MAX];
	size_t dlen;

	hm_sbuf_reset(out);
	if (!base || path[0] != '/')
		return -ENOENT;
	dlen = (size_t)(base - path);
	if (dlen >= sizeof(dir))
		return -ENOENT;
	memcpy(dir, path, dlen);
	dir[dlen] = '\0';
	if (!realpath(dlen ? dir : "/", res))
		return -ENOENT;
	/* an exec through proc (/proc/self/exe, /dev/fd/N): the kernel
	 * takes the real path instead */
	if (real && under(res, strlen(res), "/proc", 5))
		return hm_sbuf_adds(out, real);
	if (strcmp(res, "/"))
		hm_sbuf_adds(out, res);
	hm_sbuf_adds(out, base);
	return out->oom ? -ENOMEM : 0;
}

int hm_object_path(const struct hm_fs_table *fs, const char *name, size_t len,
		   struct hm_sbuf *out)
{
	const char *colon = memchr(name, ':', len);
	size_t tlen, rlen;
	const char *rest;

	hm_sbuf_reset(out);
	if (!colon || colon == name || (size_t)(colon - name) + 1 >= len ||
	    colon[1] != '/')
		return -EINVAL;
	tlen = (size_t)(colon - name);
	rest = colon + 1;
	rlen = len - tlen - 1;
	for (size_t i = 0; i < fs->n; i++) {
		const struct fs_mount *m = &fs->m[i];

		if (!m->type || strlen(m->type) != tlen ||
		    memcmp(m->type, name, tlen) ||
		    !under(rest, rlen, m->root_len ? m->root : "", m->root_len))
			continue;
		hm_sbuf_add(out, m->dir, m->dir_len);
		hm_sbuf_add(out, rest + m->root_len, rlen - m->root_len);
		if (!out->len)
			hm_sbuf_addc(out, '/');
		return out->oom ? -ENOMEM : 0;
	}
	return -ENOENT;
}
