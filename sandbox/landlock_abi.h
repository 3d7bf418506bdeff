/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * landlock_abi.h - the Landlock UAPI histmac uses, declared here from the
 * kernel's documented ABI (Documentation/userspace-api/landlock.rst and
 * include/uapi/linux/landlock.h up to ABI 10): Debian 12's
 * <linux/landlock.h> stops at ABI 3 (no network rules, no scoping, no
 * audit flags), and the syscall numbers are the same on every
 * architecture since 5.13.  ABI 8-10 (Linux 7.0-7.2) are declared from
 * that documentation only: no kernel they ran on had them.  Shared by the sandbox library and the preload
 * library; it holds nothing but constants and structs.
 */
#ifndef HISTMAC_SANDBOX_LANDLOCK_ABI_H
#define HISTMAC_SANDBOX_LANDLOCK_ABI_H

#include <stdint.h>

#define HM_LL_SYS_CREATE_RULESET	444
#define HM_LL_SYS_ADD_RULE		445
#define HM_LL_SYS_RESTRICT_SELF		446

/* landlock_create_ruleset() flags */
#define HM_LL_CREATE_RULESET_VERSION	(1U << 0)

/* landlock_restrict_self() flags (ABI 7) */
#define HM_LL_RESTRICT_LOG_SAME_EXEC_OFF	(1U << 0)
#define HM_LL_RESTRICT_LOG_NEW_EXEC_ON		(1U << 1)
#define HM_LL_RESTRICT_LOG_SUBDOMAINS_OFF	(1U << 2)
/* ABI 8: the domain is for every thread of the process, not the caller */
#define HM_LL_RESTRICT_TSYNC			(1U << 3)

/* rule types */
#define HM_LL_RULE_PATH_BENEATH	1
#define HM_LL_RULE_NET_PORT	2

/* struct landlock_ruleset_attr; the kernel takes a prefix by size, so an
 * older kernel gets only the fields its ABI knows (hm_ll_attr_size()). */
struct hm_ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;	/* ABI 4 */
	uint64_t scoped;		/* ABI 6 */
};

/* struct landlock_path_beneath_attr (packed in the UAPI) */
struct hm_ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* struct landlock_net_port_attr (ABI 4) */
struct hm_ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

/* Filesystem rights, X(enum suffix, bit, ABI, audit blocker name).  The
 * audit names are those of AUDIT_LANDLOCK_ACCESS records' blockers=. */
#define HM_LL_FS_RIGHTS(X)				\
	X(EXECUTE, 0, 1, "fs.execute")			\
	X(WRITE_FILE, 1, 1, "fs.write_file")		\
	X(READ_FILE, 2, 1, "fs.read_file")		\
	X(READ_DIR, 3, 1, "fs.read_dir")		\
	X(REMOVE_DIR, 4, 1, "fs.remove_dir")		\
	X(REMOVE_FILE, 5, 1, "fs.remove_file")		\
	X(MAKE_CHAR, 6, 1, "fs.make_char")		\
	X(MAKE_DIR, 7, 1, "fs.make_dir")		\
	X(MAKE_REG, 8, 1, "fs.make_reg")		\
	X(MAKE_SOCK, 9, 1, "fs.make_sock")		\
	X(MAKE_FIFO, 10, 1, "fs.make_fifo")		\
	X(MAKE_BLOCK, 11, 1, "fs.make_block")		\
	X(MAKE_SYM, 12, 1, "fs.make_sym")		\
	X(REFER, 13, 2, "fs.refer")			\
	X(TRUNCATE, 14, 3, "fs.truncate")		\
	X(IOCTL_DEV, 15, 5, "fs.ioctl_dev")		\
	X(RESOLVE_UNIX, 16, 9, "fs.resolve_unix")

#define X(e, bit, abi, name) HM_LL_FS_##e = 1ULL << bit,
enum { HM_LL_FS_RIGHTS(X) };
#undef X

/* Network rights: TCP (ABI 4), UDP (ABI 10; connect and sendto a port) */
#define HM_LL_NET_BIND_TCP		(1ULL << 0)
#define HM_LL_NET_CONNECT_TCP		(1ULL << 1)
#define HM_LL_NET_BIND_UDP		(1ULL << 2)
#define HM_LL_NET_CONNECT_SEND_UDP	(1ULL << 3)
#define HM_LL_NET_TCP	(HM_LL_NET_BIND_TCP | HM_LL_NET_CONNECT_TCP)
#define HM_LL_NET_UDP	(HM_LL_NET_BIND_UDP | HM_LL_NET_CONNECT_SEND_UDP)

/* Scopes (ABI 6) */
#define HM_LL_SCOPE_ABSTRACT_UNIX	(1ULL << 0)
#define HM_LL_SCOPE_SIGNAL		(1ULL << 1)

/* Rights a rule on a non-directory may hold; the rest need a directory. */
#define HM_LL_FS_FILE_RIGHTS (HM_LL_FS_EXECUTE | HM_LL_FS_WRITE_FILE | \
			      HM_LL_FS_READ_FILE | HM_LL_FS_TRUNCATE |  \
			      HM_LL_FS_IOCTL_DEV | HM_LL_FS_RESOLVE_UNIX)

/* The newest ABI this code knows. */
#define HM_LL_ABI_MAX	10

#endif /* HISTMAC_SANDBOX_LANDLOCK_ABI_H */
