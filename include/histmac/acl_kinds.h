/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * acl_kinds.h (analyzer) - what every ACL kind is: the X-macro lists (enums
 * and keyword strings cannot drift apart) and the shape of the kind table,
 * hm_kinds[] (analyzer/acl_kinds.c), which describes each kind's operands
 * once.  Same, compare, match, index, copy, merge, learn, and reading and
 * writing in every dialect, XML and JSON all follow from the operand
 * types.  See CONTRIBUTING.md, "Add an ACL kind".
 */
#ifndef HISTMAC_ACL_KINDS_H
#define HISTMAC_ACL_KINDS_H

#include <stdbool.h>
#include <stdint.h>

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

/* ------------------------------------------------------ the kind table */

/* What an operand is; everything done to an operand follows from this. */
enum hm_operand_type {
	HM_OT_NAME,	/* struct hm_name_op: a word or @path_group */
	HM_OT_NUMBER,	/* struct hm_number: number, range or @number_group */
	HM_OT_ADDR,	/* struct hm_addr: address, range or @address_group */
	HM_OT_WORD,	/* const struct hm_name *: one word */
	HM_OT_DOMAIN,	/* const struct hm_name *: a domain name, matched as
			 * a prefix ending at a word boundary */
	HM_OT_PROTO,	/* uint8_t: enum hm_net_proto, written before the
			 * operations, compared before the other operands */
};

/* How TOMOYO 2.1 writes an operand. */
enum hm_in21 {
	HM_IN21_YES,		/* as in 2.6 */
	HM_IN21_OMIT,		/* never written: read as @widest */
	HM_IN21_OPTIONAL,	/* may be left out: then @widest */
};

/* hm_operand.radix: the number is written as the operation's are
 * (modes octal, ioctl commands hex, ids decimal). */
#define HM_RADIX_OF_OP 0xff

/* Which operations an entry's permission bits name. */
enum hm_kind_ops {
	HM_OPS_NONE,		/* none: perm is 1 (signal, env) */
	HM_OPS_FILE,		/* enum hm_file_op of this kind */
	HM_OPS_NET,		/* enum hm_net_op */
};

struct hm_number;

/*
 * struct hm_operand - one operand of a kind.
 * @id: its name in XML and JSON ("path", "mode"); NULL ends the list.
 * @what: its name in messages ("second path").
 * @type: enum hm_operand_type.
 * @in21: enum hm_in21; @widest what 2.1 means when it leaves it out.
 * @radix: enum hm_radix of a learned number, or HM_RADIX_OF_OP.
 * @offset: of the field in the entry struct.
 * @req: of the request field it is matched against and learned from
 *	(struct hm_request: name1, number, ...).
 */
struct hm_operand {
	const char *id;
	const char *what;
	uint8_t type;
	uint8_t in21;
	uint8_t radix;
	uint16_t offset;
	uint16_t req;
	const struct hm_number *widest;
};

#define HM_MAX_OPERANDS 4
#define HM_NO_KEY (-1)

/*
 * struct hm_kind - one ACL kind.
 * @id: its name in XML and JSON ("path-number").
 * @title: its name in conversion counts ("file (path and number)").
 * @family: the leading words in 2.6/1.8 ("file", "network inet").
 * @family21: the 2.1 keyword for kinds that have one ("allow_network",
 *	"allow_signal", "allow_env"); NULL for file kinds (one keyword per
 *	operation, hm_file_op_names21) and for kinds 2.1 cannot say.
 * @ops: enum hm_kind_ops.
 * @dialects: those the kind exists in (HM_D26 | ...).
 * @key: index in @opnd of the operand the lookup index files the entry
 *	under (a NAME or WORD: its word; the request's field @req), or
 *	HM_NO_KEY.  Entries sort by protocol, then key, then the rest.
 * @opnd: the operands in policy order, ended by one with a NULL @id.
 */
struct hm_kind {
	const char *id;
	const char *title;
	const char *family;
	const char *family21;
	uint8_t ops;
	uint8_t dialects;
	int8_t key;
	struct hm_operand opnd[HM_MAX_OPERANDS + 1];
};

/* Walk the operands of @kind: for (each) { o is const struct hm_operand * } */
#define hm_for_each_operand(o, kind) \
	for (const struct hm_operand *o = hm_kinds[kind].opnd; o->id; o++)

/** hm_operand_ptr() - the field of operand @o in entry @e. */
static inline void *hm_operand_ptr(const void *e, const struct hm_operand *o)
{
	return (char *)e + o->offset;
}

#endif /* HISTMAC_ACL_KINDS_H */
