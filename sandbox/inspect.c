// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inspect.c - what the preload must know of a program before it runs
 * it: is it static (an ELF without PT_INTERP, or a script whose "#!"
 * interpreter is one), so that no preload will load into it and it
 * cannot narrow?  And which files were read to say so, by identity, so
 * that a later stat() tells whether the answer still holds.
 *
 * The sandbox inspects every exec edge's program when it builds the
 * table (build.c), before COMMAND starts; the preload only a program
 * the table does not know or whose files changed since (preload.c): a
 * read the preload makes is a "file read" of the caller's domain in the
 * audit trail, which the policy never learned (the kernel's own read of
 * an executed program needs none under TOMOYO).  Linked into both:
 * libc only, no allocation (an exec wrapper may run in a vfork()ed
 * child).  Owns no state.
 *
 * It also says whether the program is set-id (set-user-ID, set-group-ID,
 * file capabilities): without no_new_privs the kernel gives such a
 * program its privilege, and the table keeps the domains above it from
 * narrowing, which would need no_new_privs (build.c, docs/SANDBOX.md).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "table.h"

/* Is ELF @fd's program static (no PT_INTERP)?  -1: not an ELF. */
static int elf_static(int fd)
{
	unsigned char b[sizeof(Elf64_Ehdr)];
	int is64;
	uint64_t off;
	unsigned n, sz;

	if (pread(fd, b, sizeof(b), 0) < (ssize_t)sizeof(Elf32_Ehdr) ||
	    memcmp(b, ELFMAG, SELFMAG))
		return -1;
	is64 = b[EI_CLASS] == ELFCLASS64;
	off = is64 ? ((Elf64_Ehdr *)b)->e_phoff : ((Elf32_Ehdr *)b)->e_phoff;
	n = is64 ? ((Elf64_Ehdr *)b)->e_phnum : ((Elf32_Ehdr *)b)->e_phnum;
	sz = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	for (unsigned i = 0; i < n && i < 256; i++) {
		Elf64_Phdr p64;
		Elf32_Phdr p32;
		uint32_t type;

		if (pread(fd, is64 ? (void *)&p64 : (void *)&p32, sz,
			  (off_t)(off + (uint64_t)i * sz)) != (ssize_t)sz)
			return 0;	/* unreadable: do not claim static */
		type = is64 ? p64.p_type : p32.p_type;
		if (type == PT_INTERP)
			return 0;
	}
	return 1;
}

/*
 * Would the kernel change credentials executing ELF @fd without
 * no_new_privs (fs/exec.c bprm_fill_uid(), cap_bprm_creds_from_file())?
 * Set-user-ID, or set-group-ID with group execute (set-group-ID alone
 * is mandatory locking, not a set-id), or file capabilities; none of it
 * on a nosuid mount.
 */
static bool elf_setid(int fd)
{
	struct statvfs vfs;
	struct stat sb;
	bool bits;

	if (fstat(fd, &sb) || (!fstatvfs(fd, &vfs) && (vfs.f_flag & ST_NOSUID)))
		return false;
	bits = (sb.st_mode & S_ISUID) ||
	       (sb.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
	return bits || fgetxattr(fd, "security.capability", NULL, 0) > 0;
}

static void fid_of(const struct stat *sb, struct hm_sbx_fid *id)
{
	id->dev = (uint64_t)sb->st_dev;
	id->ino = (uint64_t)sb->st_ino;
	id->ctime_ns = (int64_t)sb->st_ctim.tv_sec * 1000000000 +
		       sb->st_ctim.tv_nsec;
}

/*
 * Open @root@path and note its identity as file @out->n.  Returns the
 * fd or negative errno.
 */
static int open_noted(const char *root, const char *path,
		      struct hm_sbx_exec_info *out)
{
	char full[PATH_MAX];
	struct stat sb;
	int fd;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", root, path) >=
	    sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		int e = -errno;

		close(fd);
		return e;
	}
	fid_of(&sb, &out->id[out->n++]);
	return fd;
}

/* The interpreter of "#!" line @buf (@n bytes) into @out, or "". */
static void shebang(char *buf, ssize_t n, char *out, size_t cap)
{
	char *p;

	out[0] = '\0';
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return;
	buf[n] = '\0';
	p = buf + 2 + strspn(buf + 2, " \t");
	p[strcspn(p, " \t\n")] = '\0';
	if (strlen(p) < cap)
		strcpy(out, p);
}

int hm_sbx_inspect(const char *root, const char *prog,
		   struct hm_sbx_exec_info *out)
{
	const char *path = prog;

	out->is_static = false;
	out->setid = false;
	out->n = 0;
	for (;;) {
		char buf[HM_SBX_INTERP_MAX + 1];
		ssize_t n = 0;
		int fd = open_noted(root, path, out);
		int s;

		if (fd < 0)
			return fd;
		s = elf_static(fd);
		if (s < 0)
			n = pread(fd, buf, sizeof(buf) - 1, 0);
		else
			out->setid = elf_setid(fd);
		close(fd);
		if (s >= 0) {
			out->is_static = s;
			return 0;
		}
		if (n < 0)
			return -EIO;
		/* neither ELF nor script, a relative interpreter, or one
		 * more than 3 deep: not static (the kernel decides) */
		if (out->n == HM_SBX_CHAIN)
			return 0;
		shebang(buf, n, out->interp[out->n - 1], HM_SBX_INTERP_MAX);
		path = out->interp[out->n - 1];
		if (path[0] != '/')
			return 0;
	}
}

bool hm_sbx_edge_current(const char *root, const struct hm_sbx_thdr *h,
			 const struct hm_sbx_tedge *e)
{
	if (!(e->flags & HM_SBX_EXEC_KNOWN) || !e->n_files ||
	    e->n_files > HM_SBX_CHAIN)
		return false;
	for (uint32_t i = 0; i < e->n_files; i++) {
		const struct hm_sbx_tfile *f = &e->files[i];
		char full[PATH_MAX];
		struct stat sb;
		struct hm_sbx_fid now;

		if ((size_t)snprintf(full, sizeof(full), "%s%s", root,
				     hm_sbx_tstr(h, f->path)) >= sizeof(full) ||
		    stat(full, &sb))
			return false;
		fid_of(&sb, &now);
		if (now.dev != f->id.dev || now.ino != f->id.ino ||
		    now.ctime_ns != f->id.ctime_ns)
			return false;
	}
	return true;
}
