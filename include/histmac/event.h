/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event.h (collector) - the normalised audit event: what the collector
 * hands the analyzer.  One struct hm_event per audit event (one serial),
 * assembled from its SYSCALL, EXECVE, CWD, PATH, SOCKADDR, OBJ_PID,
 * PROCTITLE and FANOTIFY records.  Nothing here knows about domains or
 * policies.
 *
 * Strings are raw bytes with a length (paths may hold any byte but NUL;
 * abstract unix addresses start with NUL), always NUL-terminated too.
 * Everything an event points to is borrowed from the collector until the
 * next hm_collector_next() call.
 */
#ifndef HISTMAC_EVENT_H
#define HISTMAC_EVENT_H

#include "common.h"

/* X(enum suffix, name printed by `histmac events`) */
#define HM_EVENT_KINDS(X)          \
	X(OTHER, "other")          \
	X(EXEC, "exec")            \
	X(OPEN, "open")            \
	X(UNLINK, "unlink")        \
	X(RMDIR, "rmdir")          \
	X(MKDIR, "mkdir")          \
	X(MKNOD, "mknod")          \
	X(SYMLINK, "symlink")      \
	X(LINK, "link")            \
	X(RENAME, "rename")        \
	X(TRUNCATE, "truncate")    \
	X(CHMOD, "chmod")          \
	X(CHOWN, "chown")          \
	X(MOUNT, "mount")          \
	X(UMOUNT, "umount")        \
	X(PIVOT_ROOT, "pivot_root") \
	X(CHROOT, "chroot")        \
	X(SOCKET, "socket")        \
	X(BIND, "bind")            \
	X(LISTEN, "listen")        \
	X(CONNECT, "connect")      \
	X(ACCEPT, "accept")        \
	X(SEND, "send")            \
	X(RECV, "recv")            \
	X(SIGNAL, "signal")        \
	X(FANOTIFY, "fanotify")    \
	X(HM_DECISION, "decision") \
	X(FORK, "fork")            \
	X(MOUNT_API, "mount-api")  \
	X(NAMESPACE, "namespace")  \
	X(SET_MM, "set-mm")        \
	X(IO_URING, "io-uring")

enum hm_event_kind {
#define X(e, s) HM_EV_##e,
	HM_EVENT_KINDS(X)
#undef X
	HM_EV_KIND_MAX
};

extern const char *const hm_event_kind_names[HM_EV_KIND_MAX];

/*
 * The kinds from HM_EV_MOUNT_API on are calls after which the trail
 * cannot name what the process reaches: a mount of the new API or
 * another namespace changes what a name means for it, prctl(PR_SET_MM)
 * its exe=, and io_uring opens files with no system call audit sees.
 */
static inline bool hm_event_kind_blind(int kind)
{
	return kind >= HM_EV_MOUNT_API && kind < HM_EV_KIND_MAX;
}

/* A byte string with its length; @s is NUL-terminated, may be NULL. */
struct hm_bytes {
	const char *s;
	size_t len;
};

/* PATH record nametype. */
enum hm_nametype {
	HM_NT_UNKNOWN,
	HM_NT_NORMAL,
	HM_NT_CREATE,
	HM_NT_DELETE,
	HM_NT_PARENT,
};

/*
 * What ties a path's name to the record's object (docs/PATHS.md "The
 * rule").  The collector resolves names after the event: a name whose
 * object is not the record's any more is named as its directories
 * resolve now, which only a name under directories no user but root
 * could have changed since is allowed to decide.
 */
enum hm_proof {
	HM_PROOF_OBJECT,	/* the record's object is there, or the name
				 * holds without it (no inode to compare, or
				 * gone through nothing a user could change) */
	HM_PROOF_DIRS,		/* another object is there now; the
				 * directories (each root's only) are */
	HM_PROOF_NONE,		/* not proven: the name as logged; learned
				 * as nothing, an unidentified object to
				 * check */
};

/*
 * struct hm_ev_path - one object path of an event.
 * @path: absolute, joined with CWD, "." ".." "//" removed; symlinks
 *	resolved when the collector was asked to (see docs/ARCHITECTURE.md
 *	"Path names");
 *	"/proc/<own pid>/x" written as "proc:/self/x", other /proc/x as
 *	"proc:/x"; directories end with '/'.  Relative (as passed) when it
 *	could not be made absolute (relative to a dirfd of an *at() call).
 *	NULL when the record had no name (fd-based calls).
 * @mode: st_mode from the PATH record (S_IFDIR etc.), 0 when unknown.
 * @has_inode: @ino/@dev_* are valid.
 * @proof: enum hm_proof; HM_PROOF_OBJECT unless resolved.
 */
struct hm_ev_path {
	struct hm_bytes path;
	uint8_t nametype;		/* enum hm_nametype */
	uint8_t proof;			/* enum hm_proof */
	uint32_t mode;
	uint32_t ouid;
	uint32_t ogid;
	bool has_inode;
	uint64_t ino;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint32_t rdev_major;
	uint32_t rdev_minor;
};

/* Socket address from a SOCKADDR record. */
struct hm_ev_sockaddr {
	int family;			/* AF_INET, AF_INET6, AF_UNIX, 0 none */
	uint8_t addr[16];		/* network order; IPv4 in first 4 */
	uint16_t port;
	struct hm_bytes unix_path;	/* abstract: starts with NUL byte */
};

/*
 * Which values the records carried, where 0 is a legal value
 * (hm_event.present).  A record without SYSCALL (ANOM_ABEND, USER_*)
 * may still carry pid= and the ids; old kernels write no ses=.
 */
enum hm_ev_present {
	HM_EVP_PID = 1u << 0,		/* pid */
	HM_EVP_PPID = 1u << 1,		/* ppid */
	HM_EVP_UID = 1u << 2,		/* uid (and euid... when written) */
	HM_EVP_AUID = 1u << 3,		/* auid */
	HM_EVP_SES = 1u << 4,		/* ses */
	HM_EVP_EXIT = 1u << 5,		/* exit */
	HM_EVP_SUCCESS = 1u << 6,	/* success */
};

/*
 * struct hm_event - one audit event, normalised.
 * Fields that the records did not carry are 0/NULL, with has_* flags
 * or a bit in @present where 0 is a legal value.
 */
struct hm_event {
	enum hm_event_kind kind;
	int64_t sec;			/* audit(SEC.MSEC:SERIAL) */
	uint32_t msec;
	uint64_t serial;
	struct hm_bytes node;		/* node= (multi-host logs), may be NULL */

	/* SYSCALL record */
	bool has_syscall;
	int arch;			/* AUDIT_ARCH_* */
	int syscall;			/* number, for the arch */
	const char *syscall_name;	/* "openat"; static or borrowed */
	bool success;
	int64_t exit;			/* fork: the new task's id */
	int err;			/* errno of a failed call (-exit when
					 * exit is -1..-4095), else 0; what
					 * include/histmac/passed.h judges */
	uint32_t present;		/* bitmask of enum hm_ev_present */
	bool damaged;			/* a field this event needs was
					 * malformed: counted as
					 * bad-field-value, left at 0/NULL */
	uint64_t a[4];			/* raw a0..a3 */
	int64_t pid;
	int64_t ppid;
	uint32_t uid, euid, suid, fsuid, gid, egid, sgid, fsgid;
	uint32_t auid;
	uint32_t ses;
	struct hm_bytes comm;
	struct hm_bytes exe;		/* canonical executable of the task */
	struct hm_bytes key;		/* key= of the audit rule */
	struct hm_bytes cwd;

	/* exec: paths[0] is the program as passed; paths[1..] interpreter
	 * items in record order (ld.so for ELF, the interpreter for #!) */
	uint32_t argc;
	const struct hm_bytes *argv;	/* argc entries, decoded bytes */
	bool argv_truncated;		/* EXECVE had fewer args than argc,
					 * or the collector's cap was hit */

	/* file ops: object paths. open/unlink/...: paths[0];
	 * rename/link: paths[0] old, paths[1] new; symlink: paths[0] the link
	 * (its target is in @link_target); mount: paths[0] target, paths[1]
	 * source only when the kernel looked it up as a path (bind or move
	 * mount); pivot_root: paths[0] new root, paths[1] put_old */
	uint32_t n_paths;
	struct hm_ev_path *paths;

	uint32_t open_flags;		/* O_* as passed */
	bool has_open_flags;		/* false for openat2 without OPENAT2 */
	bool created;			/* the object was created (CREATE) */
	uint32_t mode;			/* create/mkdir/mknod/chmod mode arg */
	uint32_t dev_major, dev_minor;	/* mknod device */
	uint32_t owner_uid, owner_gid;	/* chown; (uint32_t)-1 unchanged */
	bool removedir;			/* unlinkat(AT_REMOVEDIR) */
	struct hm_bytes fstype;		/* mount; NULL: not in the trail */
	struct hm_bytes link_target;	/* symlink: target as passed */
	uint64_t mount_flags;		/* mount */

	/* network */
	int fd;				/* socket fd, -1 unknown */
	int sock_family;		/* from socket(), 0 unknown */
	int sock_type;			/* SOCK_STREAM..., 0 unknown */
	int sock_protocol;
	struct hm_ev_sockaddr sa;	/* SOCKADDR, family 0 if none */

	/* signal: OBJ_PID */
	int sig;
	int64_t target_pid;
	struct hm_bytes target_comm;
	struct hm_bytes target_exe;	/* may be NULL (not in OBJ_PID) */

	/* fanotify / histmac decision records */
	int fan_response;		/* 1 allow, 2 deny, 0 none */
	struct hm_bytes decision_domain; /* HM_DECISION: domain name */
	struct hm_bytes decision_text;	/* HM_DECISION: the whole msg */

	/* Landlock denials (records 1423/1424, collector/landlock.c) */
	struct hm_bytes landlock_blockers; /* "fs.read_file,..." or NULL */
	uint64_t landlock_domain;	/* the Landlock domain's id, 0 none */

	struct hm_bytes proctitle;	/* decoded, NULs as spaces; NULL
					 * unless opts.proctitle */
};

#endif /* HISTMAC_EVENT_H */
