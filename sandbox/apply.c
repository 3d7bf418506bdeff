// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply.c - a precomputed domain ruleset (table.h) into the kernel:
 * create the ruleset, add its rules, restrict self.  Linked into both
 * histmac and libhistmac-sandbox.so, so it needs nothing but libc: no
 * model, no allocation.  Owns no state.
 */
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock_abi.h"
#include "table.h"

static size_t attr_size(uint32_t abi)
{
	if (abi >= 6)
		return sizeof(struct hm_ll_ruleset_attr);
	if (abi >= 4)
		return 2 * sizeof(uint64_t);
	return sizeof(uint64_t);
}

int hm_sbx_abi(void)
{
	long v = syscall(HM_LL_SYS_CREATE_RULESET, NULL, 0,
			 HM_LL_CREATE_RULESET_VERSION);

	return v < 0 ? -errno : (int)v;
}

/* Is [@off, @off + @len) inside [0, @limit)? */
static bool in(uint64_t off, uint64_t len, uint64_t limit)
{
	return off <= limit && len <= limit - off;
}

bool hm_sbx_table_check(const void *t, size_t size)
{
	const struct hm_sbx_thdr *h = t;
	const char *s;

	if (size < sizeof(*h) || h->magic != HM_SBX_MAGIC ||
	    (h->dom_off | h->edge_off | h->rule_off) % 8 ||
	    h->version != HM_SBX_VERSION || h->size != size ||
	    !in(h->dom_off, (uint64_t)h->n_domains * sizeof(struct hm_sbx_tdom),
		size) ||
	    !in(h->edge_off, (uint64_t)h->n_edges * sizeof(struct hm_sbx_tedge),
		size) ||
	    !in(h->rule_off, (uint64_t)h->n_rules * sizeof(struct hm_sbx_trule),
		size) ||
	    !in(h->str_off, h->str_len, size) || !h->str_len)
		return false;
	s = hm_sbx_tstr(h, 0);
	if (s[h->str_len - 1])
		return false;	/* every string ends inside the blob */
	for (uint32_t i = 0; i < h->n_domains; i++) {
		const struct hm_sbx_tdom *d = hm_sbx_tdom(h, i);

		if (d->name >= h->str_len ||
		    !in(d->rule_first, d->n_rules, h->n_rules) ||
		    !in(d->edge_first, d->n_edges, h->n_edges))
			return false;
	}
	for (uint32_t i = 0; i < h->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, i);

		if (e->program >= h->str_len || e->child >= h->n_domains)
			return false;
	}
	for (uint32_t i = 0; i < h->n_rules; i++)
		if (hm_sbx_trule(h, i)->path >= h->str_len)
			return false;
	return true;
}

static int add_path(int rfd, const char *path, uint64_t access,
		    struct hm_sbx_apply_stats *st)
{
	struct hm_ll_path_beneath_attr pb = { .allowed_access = access };
	struct stat sb;
	int r = 0;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0) {
		st->missing++;
		return 0;
	}
	/* The object may have been replaced by a file since the build. */
	if (fstat(pb.parent_fd, &sb) == 0 && !S_ISDIR(sb.st_mode) &&
	    (access & ~(uint64_t)HM_LL_FS_FILE_RIGHTS)) {
		pb.allowed_access &= HM_LL_FS_FILE_RIGHTS;
		st->not_dir++;
	}
	if (pb.allowed_access &&
	    syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_PATH_BENEATH, &pb, 0))
		r = -errno;
	else if (pb.allowed_access)
		st->rules++;
	close(pb.parent_fd);
	return r;
}

static int add_port(int rfd, uint64_t port, uint64_t access,
		    struct hm_sbx_apply_stats *st)
{
	struct hm_ll_net_port_attr np = { .allowed_access = access,
					  .port = port };

	if (syscall(HM_LL_SYS_ADD_RULE, rfd, HM_LL_RULE_NET_PORT, &np, 0))
		return -errno;
	st->rules++;
	return 0;
}

static int add_rules(int rfd, const struct hm_sbx_thdr *h,
		     const struct hm_sbx_tdom *d,
		     struct hm_sbx_apply_stats *st)
{
	for (uint32_t i = 0; i < d->n_rules; i++) {
		const struct hm_sbx_trule *ru = hm_sbx_trule(h, d->rule_first + i);
		int r;

		if (ru->type == HM_SBX_RULE_PATH)
			r = add_path(rfd, hm_sbx_tstr(h, ru->path),
				     ru->access & d->handled_fs, st);
		else
			r = add_port(rfd, ru->port, ru->access & d->handled_net,
				     st);
		if (r)
			return r;
	}
	return 0;
}

int hm_sbx_apply(const struct hm_sbx_thdr *h, uint32_t dom,
		 struct hm_sbx_apply_stats *st)
{
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, dom);
	struct hm_ll_ruleset_attr attr = {
		.handled_access_fs = d->handled_fs,
		.handled_access_net = d->handled_net,
		.scoped = d->scoped,
	};
	struct hm_sbx_apply_stats dummy;
	int rfd;
	int r;

	if (!st)
		st = &dummy;
	*st = (struct hm_sbx_apply_stats){ 0 };
	rfd = (int)syscall(HM_LL_SYS_CREATE_RULESET, &attr,
			   attr_size(h->abi), 0);
	if (rfd < 0)
		return -errno;
	r = add_rules(rfd, h, d, st);
	if (!r && syscall(HM_LL_SYS_RESTRICT_SELF, rfd,
			  h->abi >= 7 ? h->restrict_flags : 0))
		r = -errno;
	close(rfd);
	return r;
}

void hm_sbx_normalize(char *p)
{
	const char *r = p;
	char *w = p;

	while (*r) {
		const char *e;
		size_t n;

		if (*r == '/') {
			r++;
			continue;
		}
		e = strchrnul(r, '/');
		n = (size_t)(e - r);
		if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > p && *--w != '/')
				;
		} else if (n != 1 || r[0] != '.') {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r = e;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}
