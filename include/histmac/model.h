/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h (analyzer) - the policy model: domains, ACL entries, groups and
 * the exception policy.  It is the union of what TOMOYO 2.6, 1.8 and the
 * 2007 posting (2.1) can say; the dialect code in exporters/ maps it to
 * text.
 *
 * A struct hm_model owns everything in it.  Build entries on the stack with
 * names interned in model->names, then hand them to hm_domain_add(), which
 * merges permission bits into an existing entry with the same operands or
 * copies the entry into the model.  Load, learn and merge all go through it.
 */
#ifndef HISTMAC_MODEL_H
#define HISTMAC_MODEL_H

#include "acl_kinds.h"
#include "intern.h"

struct hm_sbuf;

/* ---------------------------------------------------------------- kinds */

enum hm_acl_kind {
#define X(e, s, d) HM_ACL_##e,
	HM_ACL_KINDS(X)
#undef X
	HM_ACL_KIND_MAX
};

enum hm_file_op {
#define X(e, k, kw, kw21) HM_FILE_##e,
	HM_FILE_OPS(X)
#undef X
	HM_FILE_OP_MAX
};

enum hm_net_op {
#define X(e, kw, mainline) HM_NET_##e,
	HM_NET_OPS(X)
#undef X
	HM_NET_OP_MAX
};

enum hm_net_proto {
#define X(e, kw, kw21) HM_PROTO_##e,
	HM_NET_PROTOS(X)
#undef X
	HM_PROTO_MAX
};

/* Keyword tables, indexed by the enums above. */
extern const char *const hm_acl_kind_names[HM_ACL_KIND_MAX];
extern const char *const hm_file_op_names[HM_FILE_OP_MAX];
extern const char *const hm_file_op_names21[HM_FILE_OP_MAX]; /* NULL: none */
extern const enum hm_acl_kind hm_file_op_kind[HM_FILE_OP_MAX];
extern const char *const hm_net_op_names[HM_NET_OP_MAX];
extern const bool hm_net_op_mainline[HM_NET_OP_MAX];
extern const char *const hm_net_proto_names[HM_PROTO_MAX];
extern const char *const hm_net_proto_names21[HM_PROTO_MAX];

/* ------------------------------------------------------------- operands */

struct hm_group;

/* How a number was written, so printing gives it back the same way. */
enum hm_radix {
	HM_RADIX_DEC,
	HM_RADIX_OCT,	/* leading 0: modes */
	HM_RADIX_HEX,	/* leading 0x: ioctl commands, mount flags */
};

/*
 * struct hm_number - a number, a range "min-max", or "@GROUP".
 * Invariant: group != NULL, or min <= max.
 */
struct hm_number {
	uint64_t min;
	uint64_t max;
	uint8_t radix_min;	/* enum hm_radix */
	uint8_t radix_max;
	const struct hm_group *group;	/* number_group, or NULL */
};

/*
 * struct hm_name_op - a path operand: a word (literal or pattern) or
 * "@GROUP".  Exactly one of @name and @group is non-NULL.
 */
struct hm_name_op {
	const struct hm_name *name;
	const struct hm_group *group;	/* path_group */
};

/*
 * struct hm_addr - an IP address, a range "a-b", or "@GROUP".
 * Addresses are in network byte order; IPv4 uses the first 4 bytes.
 */
struct hm_addr {
	uint8_t min[16];
	uint8_t max[16];
	bool is_ipv6;
	const struct hm_group *group;	/* address_group, or NULL */
};

/* ----------------------------------------------------------- conditions */

/*
 * Condition operands (left side of "left=right").  Kept small: what the
 * learner writes and the checker evaluates.  Anything else that TOMOYO
 * accepts is kept as text (HM_COND_OTHER) so it round-trips.
 */
enum hm_cond_var {
	HM_COND_TASK_UID,
	HM_COND_TASK_EUID,
	HM_COND_TASK_SUID,
	HM_COND_TASK_FSUID,
	HM_COND_TASK_GID,
	HM_COND_TASK_EGID,
	HM_COND_TASK_SGID,
	HM_COND_TASK_FSGID,
	HM_COND_TASK_PID,
	HM_COND_TASK_PPID,
	HM_COND_EXEC_REALPATH,
	HM_COND_EXEC_ARGC,
	HM_COND_EXEC_ARGV,	/* exec.argv[index] */
	HM_COND_SYMLINK_TARGET,
	HM_COND_OTHER,		/* kept as text, never evaluated */
	HM_COND_VAR_MAX,
};

/*
 * What an HM_COND_OTHER item tests, for the evaluator (the public
 * @var stays HM_COND_OTHER, so exports keep the item as text).  Zero is
 * "cannot evaluate": an item imported without it never holds.
 */
enum hm_cond_test {
	HM_CT_UNKNOWN,		/* a test the evaluator cannot do: fails */
	HM_CT_INERT,		/* not a test: grant_log=, a transit
				 * preference; holds */
	HM_CT_NUM,		/* @lval compared with the right side */
	HM_CT_ENVP,		/* exec.envp["@key"]="@str" or NULL (@str
				 * NULL) */
};

/* A numeric value a side of an item reads (HM_CV_NONE: a constant). */
enum hm_cond_value {
	HM_CV_NONE,
	HM_CV_TASK_UID,		/* ... in enum hm_cond_var order */
	HM_CV_TASK_PPID = HM_CV_TASK_UID + HM_COND_TASK_PPID,
	HM_CV_EXEC_ARGC,
	HM_CV_EXEC_ENVC,
	HM_CV_PATH1_UID,
	HM_CV_PATH1_GID,
	HM_CV_PATH1_INO,
	HM_CV_PATH1_PERM,	/* mode & 07777 */
	HM_CV_PATH1_TYPE,	/* mode & S_IFMT */
	HM_CV_PATH1_MAJOR,	/* of the device a device file is */
	HM_CV_PATH1_MINOR,
	HM_CV_PATH1_DEV_MAJOR,	/* of the device the file is on */
	HM_CV_PATH1_DEV_MINOR,
	HM_CV_MAX,
};

/* One "left=right" or "left!=right" of a condition. */
struct hm_cond_item {
	uint8_t var;		/* enum hm_cond_var */
	bool negate;		/* != */
	uint32_t index;		/* for exec.argv[index] */
	struct hm_number num;	/* numeric right side */
	const struct hm_name *str; /* string right side (unquoted); or NULL */
	const struct hm_name *text; /* the whole item as written */
	/* for the evaluator (set by the TOMOYO parser) */
	uint8_t test;		/* HM_COND_OTHER: enum hm_cond_test */
	uint8_t lval;		/* numeric: enum hm_cond_value read on the
				 * left (0: from @var) */
	uint8_t rval;		/* numeric: the right side is this value,
				 * not @num */
	uint32_t rbits;		/* numeric: the right side is a mode bit
				 * (setuid ...): holds when @lval has it */
	uint32_t rtype;		/* numeric: a file type (file, directory
				 * ...): S_IFMT bits @lval must equal */
	const struct hm_name *key; /* exec.envp["@key"] */
};

/*
 * struct hm_cond - the conditions appended to an entry.  Interned in the
 * model (hm_model_cond()), so equal conditions are the same pointer.
 */
struct hm_cond {
	const struct hm_name *text;	/* canonical text, space separated */
	uint32_t n_items;
	struct hm_cond_item items[];
};

/* ----------------------------------------------------------- ACL entries */

/*
 * struct hm_acl_head - first member of every entry struct.
 * @next: the owning domain's list, in insertion order.
 * @hnext: private to the lookup index.
 * @kind: enum hm_acl_kind; selects the containing struct.
 * @perm: bitmask of enum hm_file_op (file kinds), enum hm_net_op (network
 *	kinds), or 1 (signal, env).
 * @cond: conditions, or NULL.  Entries that differ only in @cond are
 *	different entries.
 * @hist: when it was learned and used (never part of its identity).
 */
struct hm_acl_hist {
	int64_t learned;	/* first learned: audit time, 0 unknown */
	int64_t grown;		/* a permission last added to it, 0 never */
	uint64_t uses;		/* accesses it allowed (learn, check) */
	int64_t used;		/* audit time of the last of them */
};

/*
 * struct hm_save_rec - one save of a learner (histmac_saves.conf): the
 * learning curve per save, where per day lumps a long-running learner's
 * saves together.
 * @time: the newest audit event the policy knew at the save.
 * @events: events learned since the save before (not those of a log
 *	learned again).
 * @added: entries the learner added since then.
 * @widened: permissions it added to entries it had.
 */
struct hm_save_rec {
	int64_t time;
	uint64_t events;
	uint64_t added;
	uint64_t widened;
};

struct hm_acl_head {
	struct hm_acl_head *next;
	struct hm_acl_head *hnext;
	uint8_t kind;
	uint32_t perm;
	const struct hm_cond *cond;
	struct hm_acl_hist hist;
};

/* file execute/read/write/append/unlink/getattr/rmdir/truncate/symlink/
 * chroot/unmount PATH */
struct hm_acl_path {
	struct hm_acl_head head;
	struct hm_name_op name;
};

/* file create/mkdir/mkfifo/mksock PATH MODE, file ioctl PATH CMD,
 * file chmod PATH MODE, file chown PATH UID, file chgrp PATH GID */
struct hm_acl_path_number {
	struct hm_acl_head head;
	struct hm_name_op name;
	struct hm_number number;
};

/* file mkblock/mkchar PATH MODE MAJOR MINOR */
struct hm_acl_mkdev {
	struct hm_acl_head head;
	struct hm_name_op name;
	struct hm_number mode;
	struct hm_number major;
	struct hm_number minor;
};

/* file link/rename/pivot_root PATH1 PATH2 */
struct hm_acl_path2 {
	struct hm_acl_head head;
	struct hm_name_op name1;
	struct hm_name_op name2;
};

/* file mount DEV DIR FSTYPE FLAGS */
struct hm_acl_mount {
	struct hm_acl_head head;
	struct hm_name_op dev;
	struct hm_name_op dir;
	struct hm_name_op fstype;
	struct hm_number flags;
};

/* network inet stream|dgram|raw bind/listen/connect/send/accept/recv
 * ADDRESS PORT (PORT is the protocol number for raw) */
struct hm_acl_inet {
	struct hm_acl_head head;
	uint8_t proto;		/* enum hm_net_proto */
	struct hm_addr addr;
	struct hm_number port;
};

/* network unix stream|dgram|seqpacket bind/listen/connect/send/accept/recv
 * PATH (abstract addresses start with \000) */
struct hm_acl_unix {
	struct hm_acl_head head;
	uint8_t proto;		/* enum hm_net_proto */
	struct hm_name_op name;
};

/* ipc signal SIG DOMAIN (1.8), allow_signal SIG DOMAIN (2.1).
 * DOMAIN is a domain name; a target matches when its name starts with it
 * followed by end or space (TOMOYO 1.8 semantics). */
struct hm_acl_signal {
	struct hm_acl_head head;
	struct hm_number sig;
	const struct hm_name *domain;
};

/* misc env NAME */
struct hm_acl_env {
	struct hm_acl_head head;
	const struct hm_name *name;
};

/* An entry of any kind, built on the stack: k_PATH, k_INET, ... */
union hm_acl_any {
	struct hm_acl_head head;
#define X(e, s, d) struct s k_##e;
	HM_ACL_KINDS(X)
#undef X
};

/* The kind table (acl_kinds.h): each kind's keywords and operands. */
extern const struct hm_kind hm_kinds[HM_ACL_KIND_MAX];

/* ----------------------------------------------------------------- groups */

enum hm_group_type {
	HM_GROUP_PATH,
	HM_GROUP_NUMBER,
	HM_GROUP_ADDRESS,
	HM_GROUP_TYPE_MAX,
};

/* One member of a group; which field is used depends on the group type. */
struct hm_group_member {
	struct hm_group_member *next;
	const struct hm_name *name;	/* path_group */
	struct hm_number number;	/* number_group */
	struct hm_addr addr;		/* address_group */
};

/* path_group / number_group / address_group NAME MEMBER */
struct hm_group {
	struct hm_group *next;
	uint8_t type;			/* enum hm_group_type */
	const struct hm_name *name;	/* without the '@' */
	struct hm_group_member *members; /* insertion order, no duplicates */
	struct hm_group_member **tail;
	size_t n_members;
};

/* ---------------------------------------------------------------- domains */

enum hm_profile {
	HM_PROFILE_DISABLED = 0,
	HM_PROFILE_LEARNING = 1,
	HM_PROFILE_PERMISSIVE = 2,
	HM_PROFILE_ENFORCING = 3,
};

enum hm_domain_flag {
	HM_DOMAIN_HISTORY_UNOBSERVED = 1 << 0, /* process start not seen */
	HM_DOMAIN_PARENT_UNOBSERVED = 1 << 1,  /* exec by such a process */
	HM_DOMAIN_TRANSITION_FAILED = 1 << 2,  /* TOMOYO transition_failed */
	HM_DOMAIN_QUOTA_EXCEEDED = 1 << 3,     /* max_learning_entry hit */
};

struct hm_acl_index;

/*
 * struct hm_domain - one domain ("<kernel> /sbin/init /usr/sbin/sshd"), or
 * one acl_group (then @name is NULL and @group_no is set).
 * @parent: the domain named by dropping the last word, if the model holds
 *	it; NULL for roots and for domains whose parent is absent.
 * @profile: 0-255; 0-3 mean enum hm_profile in the default profile.conf.
 * @flags: bitmask of enum hm_domain_flag.
 * @groups: use_group bitmap (256 bits).
 * @events, @first_seen, @last_seen: learning counters (seconds since the
 *	epoch; 0 when unknown).
 * @quiet_events: events learned in the domain since it last got a new
 *	entry or permission (histmac_entries.conf).
 * @package, @package_version: the Debian package that owned the program
 *	the domain is named after when it was last learned, or NULL.
 */
/*
 * A set of login uids (audit's auid; HM_LOGIN_UNSET: none, as at boot):
 * the logins a domain learned from, or those learning takes.
 */
#define HM_LOGINS_MAX 4
#define HM_LOGIN_UNSET 4294967295u

struct hm_logins {
	uint32_t v[HM_LOGINS_MAX];
	uint8_t n;		/* HM_LOGINS_MAX + 1: more than it keeps */
};

struct hm_domain {
	const struct hm_name *name;
	struct hm_domain *parent;
	int group_no;			/* -1 for a real domain */
	uint8_t profile;
	uint8_t flags;
	uint8_t groups[32];
	uint64_t events;
	int64_t first_seen;
	int64_t last_seen;
	uint64_t quiet_events;
	struct hm_logins logins;	/* of the processes that entered it by
					 * exec */
	const struct hm_name *package;
	const struct hm_name *package_version;
	struct hm_acl_head *acl;	/* insertion order */
	struct hm_acl_head **acl_tail;
	size_t n_acl;
	struct hm_acl_index *index;	/* private to analyzer/acl.c */
};

/* ------------------------------------------------------ exception policy */

/* Transition controls, in TOMOYO's precedence order (lowest first wins). */
enum hm_transition {
	HM_TR_NO_RESET,
	HM_TR_RESET,
	HM_TR_NO_INITIALIZE,
	HM_TR_INITIALIZE,
	HM_TR_NO_KEEP,
	HM_TR_KEEP,
	HM_TR_MAX,
};

extern const char *const hm_transition_names[HM_TR_MAX];

/*
 * X_domain PROGRAM from DOMAIN.
 * @program: a path (may be a pattern), or NULL for "any".
 * @domain: NULL for "any" (or absent "from"); a domain name ("<kernel>
 *	/sbin/init") matched as a prefix ending at a word boundary; or, when
 *	it does not start with '<', a program name matched against the last
 *	word of the current domain.
 */
struct hm_transition_rule {
	struct hm_transition_rule *next;
	uint8_t type;			/* enum hm_transition */
	const struct hm_name *program;
	const struct hm_name *domain;
};

/* aggregator PATTERN NAME; also 2.1's alias ORIGINAL ALIAS (@is_alias). */
struct hm_rename_rule {
	struct hm_rename_rule *next;
	const struct hm_name *original;	/* may be a pattern (aggregator) */
	const struct hm_name *renamed;
	bool is_alias;
};

/* A one-word list entry: 2.1 file_pattern and deny_rewrite. */
struct hm_word_entry {
	struct hm_word_entry *next;
	const struct hm_name *word;
};

/*
 * histmac rewrite rule (PCRE2), from rewrite.conf in the policy directory:
 * applied to learned path names before they are added.  @regex_src and
 * @replacement are as written; the compiled form is the learner's.
 */
struct hm_rewrite_rule {
	struct hm_rewrite_rule *next;
	char *regex_src;
	char *replacement;
	unsigned long line;
};

/* The exception policy (exception_policy.conf). */
struct hm_exception {
	struct hm_transition_rule *transitions;	/* file order */
	struct hm_rename_rule *renames;		/* aggregators and aliases */
	struct hm_group *groups;		/* all three types */
	struct hm_word_entry *file_patterns;	/* 2.1 file_pattern */
	struct hm_word_entry *deny_rewrites;	/* 2.1 deny_rewrite */
	struct hm_rewrite_rule *rewrites;	/* histmac rewrite.conf */
	struct hm_domain *acl_groups[256];	/* acl_group N; NULL if empty */
	uint64_t deny_autobind_min, deny_autobind_max; /* 1.8; max 0: none */
};

/* --------------------------------------------------------------- dialects */

enum hm_dialect {
	HM_DIALECT_26,		/* TOMOYO 2.6 mainline (default) */
	HM_DIALECT_21,		/* the 2007 posting */
	HM_DIALECT_18,		/* TOMOYO 1.8 / AKARI */
	HM_DIALECT_MAX,
};

extern const char *const hm_dialect_names[HM_DIALECT_MAX];

/* A bitmask of dialects: 1 << enum hm_dialect. */
#define HM_D26 (1u << HM_DIALECT_26)
#define HM_D21 (1u << HM_DIALECT_21)
#define HM_D18 (1u << HM_DIALECT_18)
#define HM_DMODERN (HM_D26 | HM_D18)
#define HM_DALL (HM_D26 | HM_D21 | HM_D18)

/* ------------------------------------------------------------------ model */

struct hm_owners;

/*
 * struct hm_model - a whole policy.  Fields are public for reading;
 * change it only through the functions below.
 */
struct hm_model {
	struct hm_mem mem;
	struct hm_names *names;
	struct hm_domain **domains;	/* creation order */
	size_t n_domains;
	size_t cap_domains;
	struct hm_domain_table *by_name; /* private */
	struct hm_cond_table *conds;	/* private */
	struct hm_exception ex;
	enum hm_dialect dialect;	/* as loaded; default 2.6 */
	uint8_t default_profile;	/* for new roots, default learning */
	bool inherit_profile;		/* new domains take the parent's
					 * profile, as TOMOYO's do (default);
					 * false: all get default_profile */
	uint32_t max_learning_entry;	/* per domain; 0 = unlimited */
	char *path_note;		/* how paths were canonicalised, or NULL */
	struct hm_learned *learned;	/* per-node marks (learned.h) */
	struct hm_save_rec *saves;	/* a learner's saves, in order */
	size_t n_saves;
	size_t cap_saves;
	struct hm_owners *owners;	/* files' packages (owners.h) */
};

/**
 * hm_model_new() - an empty model: no domains, 2.6 dialect, new domains
 * learning, max_learning_entry 2048 (TOMOYO's default).
 * Returns: the model or NULL; caller frees with hm_model_free().
 */
struct hm_model *hm_model_new(void);
void hm_model_free(struct hm_model *m);

/** hm_model_set_dialect() - the dialect @m is written in by default. */
void hm_model_set_dialect(struct hm_model *m, enum hm_dialect d);

/** hm_model_set_max_learning_entry() - entries per domain before
 * learning stops (0: no limit). */
void hm_model_set_max_learning_entry(struct hm_model *m, uint32_t n);

/** hm_model_set_inherit_profile() - do new domains take their parent's
 * profile (TOMOYO's way), or default_profile? */
void hm_model_set_inherit_profile(struct hm_model *m, bool inherit);

/**
 * hm_model_intern() - intern @len bytes in the model's name table.
 * Returns: 0 or negative errno; *@out borrowed until hm_model_free().
 */
int hm_model_intern(struct hm_model *m, const char *s, size_t len,
		    const struct hm_name **out);

/**
 * hm_model_domain() - find the domain called @name, or create it.
 * @name: a valid domain name.
 * @create: create it when absent (profile = m->default_profile, parent
 *	linked if the model has it; see hm_model_relink()).
 * @out: the domain, borrowed until hm_model_free(); NULL when absent and
 *	!@create.
 * Returns: 1 when created, 0 when found (or absent), negative errno.
 */
int hm_model_domain(struct hm_model *m, const char *name, size_t len,
		    bool create, struct hm_domain **out);

/**
 * hm_model_relink() - recompute every domain's parent pointer; call after
 * loading, where children may come before their parents.
 */
void hm_model_relink(struct hm_model *m);

/**
 * hm_model_remove_domain() - remove domain @d of @m with its entries and
 * free it; the other domains keep their order and are relinked.  Entries
 * that name @d (a signal's target) are left as they are.
 */
void hm_model_remove_domain(struct hm_model *m, struct hm_domain *d);

/** hm_model_find_domain() - lookup by interned name; NULL when absent. */
struct hm_domain *hm_model_find_domain(const struct hm_model *m,
				       const struct hm_name *name);

/**
 * hm_model_acl_group() - the acl_group @no pseudo-domain, created on demand.
 * Returns: 0 or negative errno.
 */
int hm_model_acl_group(struct hm_model *m, unsigned no,
		       struct hm_domain **out);

/**
 * hm_model_group() - find or create the group @name of @type.
 * Returns: 0, -EEXIST if @name is a group of another type, or -ENOMEM.
 */
int hm_model_group(struct hm_model *m, enum hm_group_type type,
		   const char *name, size_t len, struct hm_group **out);

/** hm_model_find_group() - lookup; NULL when absent. */
struct hm_group *hm_model_find_group(const struct hm_model *m,
				     enum hm_group_type type,
				     const char *name, size_t len);

/**
 * hm_group_add() - add @member (copied) unless an equal member is present.
 * Returns: 1 added, 0 already there, negative errno.
 */
int hm_group_add(struct hm_model *m, struct hm_group *g,
		 const struct hm_group_member *member);

/**
 * hm_model_cond() - intern a condition built on the stack.
 * Returns: 0 or negative errno; *@out borrowed until hm_model_free().
 */
int hm_model_cond(struct hm_model *m, const struct hm_cond *c,
		  const struct hm_cond **out);

/**
 * hm_model_cond_items() - intern the condition of @n items (copied) with
 * canonical @text (interned in @m).
 * Returns: 0 or negative errno; *@out borrowed until hm_model_free().
 */
int hm_model_cond_items(struct hm_model *m, const struct hm_name *text,
			const struct hm_cond_item *items, uint32_t n,
			const struct hm_cond **out);

/**
 * hm_model_add_transition() / _rename() / _word() - add an exception
 * entry unless an identical one exists.
 * Returns: 1 added, 0 already present, negative errno.
 */
int hm_model_add_transition(struct hm_model *m,
			    const struct hm_transition_rule *r);
int hm_model_add_rename(struct hm_model *m, const struct hm_rename_rule *r);
int hm_model_add_word(struct hm_model *m, struct hm_word_entry **list,
		      const struct hm_name *word);
int hm_model_add_rewrite(struct hm_model *m, const char *regex,
			 const char *replacement, unsigned long line);

/**
 * hm_domain_add() - add an ACL entry to @d, merging with an existing entry
 * of the same kind, operands and condition.
 * @e: the head of an entry struct built on the stack, its names interned
 *	in @m (or groups of @m).
 * @out: the entry in the model (may be NULL).
 * A new entry starts with no history (@e's is ignored: callers build
 * entries on the stack); hm_acl_hist_merge() carries one over.
 * Returns: 1 when something new was added (an entry or permission bits),
 *	0 when @d already held it all, negative errno.
 */
int hm_domain_add(struct hm_model *m, struct hm_domain *d,
		  const struct hm_acl_head *e, struct hm_acl_head **out);

/**
 * hm_logins_add() - @auid into @l; past HM_LOGINS_MAX, @l counts "more".
 */
void hm_logins_add(struct hm_logins *l, uint32_t auid);

/** hm_logins_add_all() - every login of @src into @l. */
void hm_logins_add_all(struct hm_logins *l, const struct hm_logins *src);

/** hm_logins_has() - is @auid one of @l's? */
bool hm_logins_has(const struct hm_logins *l, uint32_t auid);

/**
 * hm_logins_text() - @l as policy text: "-,1000" ('-' for
 * HM_LOGIN_UNSET, ",+" when there were more); nothing when empty.
 */
void hm_logins_text(const struct hm_logins *l, struct hm_sbuf *b);

/**
 * hm_logins_parse() - add the logins of @s (@n bytes, as
 * hm_logins_text() writes them) to @l.
 * Returns: 0, -EINVAL when it is not such a list.
 */
int hm_logins_parse(struct hm_logins *l, const char *s, size_t n);

/* Did processes of more than one login enter @d?  Any user can run a
 * service's program (with LD_PRELOAD, say): such a domain's entries may
 * be another user's choosing, for review before they are trusted. */
static inline bool hm_domain_several_logins(const struct hm_domain *d)
{
	return d->logins.n > 1;
}

/**
 * hm_acl_hist_merge() - fold @src into @dst, as merging two hosts does:
 * the earlier learned time, the later grown and used times, uses summed.
 */
void hm_acl_hist_merge(struct hm_acl_hist *dst, const struct hm_acl_hist *src);

/**
 * hm_acl_hist_union() - the history of an entry merged from two hosts,
 * @dst's with @dst_perm (0: new) and @src's with @src_perm: as
 * hm_acl_hist_merge(), but grown is when the union first had all its
 * permissions (a host that learned later does not widen the fleet's).
 */
void hm_acl_hist_union(struct hm_acl_hist *dst, uint32_t dst_perm,
		       const struct hm_acl_hist *src, uint32_t src_perm);

/**
 * hm_acl_hist_keep() - the same for two copies of one host's history
 * (a learner's and the directory's): uses is the larger, not the sum.
 */
void hm_acl_hist_keep(struct hm_acl_hist *dst, const struct hm_acl_hist *src);

/** hm_model_clear_uses() - set every entry's use count to 0 (to count
 * what one run adds: hm_model_add_uses()). */
void hm_model_clear_uses(struct hm_model *m);

/**
 * hm_model_add_uses() - add the use counts (and last use) of @src's
 * entries to the same entries of @dst (names interned in @dst); entries
 * or domains @dst lacks are skipped.  Returns: 0 or -ENOMEM.
 */
int hm_model_add_uses(struct hm_model *dst, const struct hm_model *src);

/** hm_acl_hist_use() - @e allowed an access at @sec (audit time). */
void hm_acl_hist_use(const struct hm_acl_head *e, int64_t sec);

/* Save records kept; past it the two oldest become one (a plugin that
 * saves every minute keeps its curve per save for about three days, and
 * what came before in ever larger first records). */
#define HM_SAVES_MAX 4096

/** hm_model_add_save() - append the record of a save to @m's (at
 * HM_SAVES_MAX, the two oldest are summed into one first).
 * Returns: 0 or -ENOMEM. */
int hm_model_add_save(struct hm_model *m, const struct hm_save_rec *r);

/** hm_model_last_save() - the time of @m's last save record, 0: none
 * (inline: the learner asks it for every entry an event adds). */
static inline int64_t hm_model_last_save(const struct hm_model *m)
{
	return m->n_saves ? m->saves[m->n_saves - 1].time : 0;
}


/**
 * hm_domain_remove() - remove the permission bits @perm of the entry equal
 * to @e (by operands); the entry goes away when no bits remain.
 * Returns: 1 removed something, 0 nothing matched, negative errno.
 */
int hm_domain_remove(struct hm_model *m, struct hm_domain *d,
		     const struct hm_acl_head *e);

/**
 * hm_domain_find() - the entry of @d with the same kind, operands and
 * condition as @e (whatever its permission bits), or NULL.
 */
struct hm_acl_head *hm_domain_find(const struct hm_domain *d,
				   const struct hm_acl_head *e);

/**
 * hm_domain_fold() - remove from @d the permission bits of literal entries
 * that patterned entry @pat (already in @d) now covers: same kind,
 * condition and other operands, name matched by @pat's.
 * Returns: number of entries changed, or negative errno.
 */
int hm_domain_fold(struct hm_model *m, struct hm_domain *d,
		   const struct hm_acl_head *pat);

/**
 * hm_acl_clone() - copy entry @e of model @src into @out for model @dst:
 * names re-interned, groups and conditions found or created in @dst by
 * name (with their members).  Then hm_domain_add(@dst, ..., &@out->head).
 * Returns: 0 or negative errno.
 */
int hm_acl_clone(struct hm_model *dst, const struct hm_model *src,
		 const struct hm_acl_head *e, union hm_acl_any *out);

/**
 * hm_model_merge() - add everything in @src to @dst: domains (profile: the
 * higher; flags and use_group: the union; counters summed), their entries,
 * and the exception policy.  The result does not depend on the order in
 * which several models are merged.
 * Returns: number of domains and entries that were new to @dst, or
 * negative errno.
 */
long hm_model_merge(struct hm_model *dst, const struct hm_model *src);

/**
 * hm_domain_merge() - add domain @s of @src to domain @d of @dst, as
 * hm_model_merge() does for domains of one name: profile the higher, flags
 * and use_group the union, counters summed, the earlier first and later
 * last seen, the fewer quiet events, the package @d has or else @s's, and
 * every entry with its history (hm_acl_hist_union()).  @dst and @src may
 * be one model (patternize folding domains into one).
 * @fresh: @d was just created: it takes @s's profile and quiet count.
 * Returns: entries (or permission bits) new to @d, or negative errno.
 */
long hm_domain_merge(struct hm_model *dst, struct hm_domain *d, bool fresh,
		     const struct hm_model *src, const struct hm_domain *s);

/**
 * hm_model_knows() - does @m already hold every name and condition text
 * entry @e (built in another model) uses?  A caller that must not grow
 * @m adds @e only then: copying it in (hm_acl_clone) interns nothing.
 */
bool hm_model_knows(const struct hm_model *m, const union hm_acl_any *e);

/** hm_acl_size() - sizeof the struct of @kind. */
size_t hm_acl_size(enum hm_acl_kind kind);

/**
 * hm_acl_same_operands() - do @a and @b have the same kind, operands and
 * condition (so their permission bits can be merged)?
 */
bool hm_acl_same_operands(const struct hm_acl_head *a,
			  const struct hm_acl_head *b);

/** hm_acl_cmp() - total order on entries, for deterministic output. */
int hm_acl_cmp(const struct hm_acl_head *a, const struct hm_acl_head *b);

/**
 * hm_domain_sorted_acl() - the entries of @d in hm_acl_cmp() order.
 * Returns: a malloc()ed array of @d->n_acl pointers (borrowed entries),
 * or NULL on ENOMEM; caller frees the array with free().
 */
const struct hm_acl_head **hm_domain_sorted_acl(const struct hm_domain *d);

/**
 * hm_model_sorted_domains() - the domains in name order.
 * Returns: malloc()ed array of m->n_domains pointers, or NULL on ENOMEM;
 * caller frees with free().
 */
struct hm_domain **hm_model_sorted_domains(const struct hm_model *m);

/* ------------------------------------------------------------ requests */

/*
 * struct hm_request - one access to judge: what the checker builds from an
 * audit event and the enforcer from a fanotify event.  Names are literal
 * encoded names (interned or hm_name_fill()ed).
 */
struct hm_request {
	enum hm_acl_kind kind;
	unsigned op;			/* enum hm_file_op or hm_net_op */
	uint32_t op_mask;		/* non-zero: any of these ops will do
					 * (fanotify cannot tell read from
					 * write); then @op is ignored */
	const struct hm_name *name1;	/* path, unix address, dev */
	const struct hm_name *name2;	/* second path, mount dir */
	const struct hm_name *name3;	/* mount fstype */
	uint64_t number;		/* mode, cmd, uid, gid, flags, sig */
	uint64_t major;
	uint64_t minor;
	uint8_t proto;			/* enum hm_net_proto */
	bool is_ipv6;
	uint8_t addr[16];
	uint64_t port;
	const struct hm_name *target;	/* signal target domain */
	const struct hm_cond_ctx *ctx;	/* for conditions; may be NULL */
};

/* The object's attributes (path1.*), as stat(2) gives them. */
struct hm_cond_obj {
	uint64_t uid, gid, ino;
	uint32_t mode;				/* st_mode: type and perm */
	uint32_t rdev_major, rdev_minor;	/* a device file's */
	uint32_t dev_major, dev_minor;		/* the file system's */
};

/*
 * What conditions are evaluated against.  What a caller does not know
 * it leaves unset (has_* false, NULL): an item that needs it does not
 * hold, whether written "=" or "!=".
 */
struct hm_cond_ctx {
	uint64_t uid, euid, suid, fsuid, gid, egid, sgid, fsgid;
	uint64_t pid, ppid;
	bool has_task;
	const struct hm_name *exec_realpath;	/* may be NULL */
	const char *const *argv;		/* encoded words; may be NULL */
	uint32_t argc;
	const char *const *envp;		/* "NAME=value", encoded;
						 * NULL: not known */
	uint32_t envc;
	const struct hm_name *symlink_target;	/* may be NULL */
	bool has_path1;
	struct hm_cond_obj path1;
};

/**
 * hm_domain_allows() - is @r allowed by @d's ACL or by an acl_group @d
 * uses?  Literal operands are found through a hash, patterned ones
 * through an index on their literal directory prefix: never a scan of
 * every entry.
 * @match: the entry that allowed it (may be NULL).
 */
bool hm_domain_allows(const struct hm_model *m, const struct hm_domain *d,
		      const struct hm_request *r,
		      const struct hm_acl_head **match);

/** hm_acl_matches() - does entry @e allow @r?  (one entry, no index) */
bool hm_acl_matches(const struct hm_model *m, const struct hm_acl_head *e,
		    const struct hm_request *r);

/**
 * hm_word_matches() - does @name match @word, a literal word (equal bytes)
 * or a pattern?  A patterned @name matches only an identical @word.
 */
bool hm_word_matches(const struct hm_name *word, const struct hm_name *name);

/** hm_name_op_matches() - does literal @name match word or group @op? */
bool hm_name_op_matches(const struct hm_name_op *op,
			const struct hm_name *name);

/** hm_number_equal() / hm_addr_equal() - same operand (radix ignored). */
bool hm_number_equal(const struct hm_number *a, const struct hm_number *b);
bool hm_addr_equal(const struct hm_addr *a, const struct hm_addr *b);

/** hm_number_matches() - is @v within @n (range or group)? */
bool hm_number_matches(const struct hm_number *n, uint64_t v);

/** hm_addr_matches() - is @addr within @a (range or group)? */
bool hm_addr_matches(const struct hm_addr *a, bool is_ipv6,
		     const uint8_t addr[16]);

/**
 * hm_cond_holds() - do all items of @c hold in @ctx?  NULL @c holds.
 * An item that cannot be evaluated (a NULL @ctx, a value @ctx lacks, a
 * keyword the evaluator does not know) does not hold, "=" or "!=": an
 * entry whose condition is unknown grants nothing (fail closed).
 */
bool hm_cond_holds(const struct hm_cond *c, const struct hm_cond_ctx *ctx);

/**
 * hm_cond_item_reads_task() - does @it need values of the task (task.*)?
 * Returns: true when either side reads one.
 */
bool hm_cond_item_reads_task(const struct hm_cond_item *it);

/**
 * hm_acl_unevaluable() - the first item of @e's condition the enforcer
 * cannot evaluate, or NULL.  It supplies task.* (the opener's
 * /proc/PID/status), path1.* (the event's file) and, for an exec,
 * exec.realpath; never exec.argv, exec.argc, exec.envp, exec.envc (the
 * permission event comes before the new program's arguments exist),
 * path2.*, parents, symlink.target or @groups on a string's right side.
 * Such an entry grants nothing under the enforcer.  Entries the
 * enforcer never consults (not an open or an exec) give NULL.
 */
const struct hm_cond_item *hm_acl_unevaluable(const struct hm_acl_head *e);

/** hm_acl_literal_name() - @e's path when it is a "file ..." entry of
 * one literal path (no wildcard), else NULL.  Borrowed. */
static inline const struct hm_name *
hm_acl_literal_name(const struct hm_acl_head *e)
{
	const struct hm_acl_path *x;

	if (!e || e->kind != HM_ACL_PATH)
		return NULL;
	x = hm_container_of(e, struct hm_acl_path, head);
	return x->name.name && !x->name.name->is_patterned ? x->name.name :
							     NULL;
}

#endif /* HISTMAC_MODEL_H */
