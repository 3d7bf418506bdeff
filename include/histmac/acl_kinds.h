/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * acl_kinds.h - the tables every ACL kind is described by (X-macros), so
 * enums and keyword strings cannot drift apart.  See CONTRIBUTING.md,
 * "Adding an ACL kind".
 */
#ifndef HISTMAC_ACL_KINDS_H
#define HISTMAC_ACL_KINDS_H

/*
 * Entry kinds, grouped by operand shape as TOMOYO groups them.
 * X(enum suffix, struct name, description)
 */
#define HM_ACL_KINDS(X)                                                      \
	X(PATH, hm_acl_path, "file op on one path")                          \
	X(PATH_NUMBER, hm_acl_path_number, "file op on a path and a number") \
	X(MKDEV, hm_acl_mkdev, "file mkblock/mkchar")                        \
	X(PATH2, hm_acl_path2, "file op on two paths")                       \
	X(MOUNT, hm_acl_mount, "file mount")                                 \
	X(INET, hm_acl_inet, "network inet")                                 \
	X(UNIX, hm_acl_unix, "network unix")                                 \
	X(SIGNAL, hm_acl_signal, "ipc signal")                               \
	X(ENV, hm_acl_env, "misc env")

/*
 * File operations: X(enum suffix, kind, 2.6/1.8 keyword, 2.1 keyword).
 * A NULL 2.1 keyword means the 2007 syntax cannot say it.  2.1's numeric
 * forms (1 execute, 2 write, 4 read, sums thereof) are handled by the
 * 2.1 dialect code on top of this table.
 */
#define HM_FILE_OPS(X)                                                   \
	X(EXECUTE, PATH, "execute", "allow_execute")                     \
	X(READ, PATH, "read", "allow_read")                              \
	X(WRITE, PATH, "write", "allow_write")                           \
	X(APPEND, PATH, "append", NULL)                                  \
	X(UNLINK, PATH, "unlink", "allow_unlink")                        \
	X(GETATTR, PATH, "getattr", NULL)                                \
	X(RMDIR, PATH, "rmdir", "allow_rmdir")                           \
	X(TRUNCATE, PATH, "truncate", "allow_truncate")                  \
	X(SYMLINK, PATH, "symlink", "allow_symlink")                     \
	X(CHROOT, PATH, "chroot", "allow_chroot")                        \
	X(UNMOUNT, PATH, "unmount", NULL)                                \
	X(CREATE, PATH_NUMBER, "create", "allow_create")                 \
	X(MKDIR, PATH_NUMBER, "mkdir", "allow_mkdir")                    \
	X(MKFIFO, PATH_NUMBER, "mkfifo", "allow_mkfifo")                 \
	X(MKSOCK, PATH_NUMBER, "mksock", "allow_mksock")                 \
	X(IOCTL, PATH_NUMBER, "ioctl", NULL)                             \
	X(CHMOD, PATH_NUMBER, "chmod", NULL)                             \
	X(CHOWN, PATH_NUMBER, "chown", NULL)                             \
	X(CHGRP, PATH_NUMBER, "chgrp", NULL)                             \
	X(MKBLOCK, MKDEV, "mkblock", "allow_mkblock")                    \
	X(MKCHAR, MKDEV, "mkchar", "allow_mkchar")                       \
	X(LINK, PATH2, "link", "allow_link")                             \
	X(RENAME, PATH2, "rename", "allow_rename")                       \
	X(PIVOT_ROOT, PATH2, "pivot_root", "allow_pivot_root")           \
	X(MOUNT, MOUNT, "mount", "allow_mount")

/*
 * Network operations: X(enum suffix, keyword, in mainline 2.6).
 * accept and recv exist only in TOMOYO 1.8 and the 2007 posting.
 */
#define HM_NET_OPS(X)             \
	X(BIND, "bind", true)     \
	X(LISTEN, "listen", true) \
	X(CONNECT, "connect", true) \
	X(SEND, "send", true)     \
	X(ACCEPT, "accept", false) \
	X(RECV, "recv", false)

/* Socket types: X(enum suffix, 2.6 keyword, 2.1 keyword or NULL). */
#define HM_NET_PROTOS(X)                      \
	X(STREAM, "stream", "TCP")            \
	X(DGRAM, "dgram", "UDP")              \
	X(RAW, "raw", "RAW")                  \
	X(SEQPACKET, "seqpacket", NULL)

#endif /* HISTMAC_ACL_KINDS_H */
