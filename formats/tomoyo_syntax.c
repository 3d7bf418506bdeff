// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_syntax.c - the one table that says how each ACL kind is written
 * (leading words, operands and their types, what 2.1 leaves out), and
 * which network operations each dialect has.  The line parser
 * (tomoyo_acl_read.c) and printer (tomoyo_acl_write.c) walk this table,
 * so every kind is handled by the same code in every dialect.  Keywords
 * themselves come from acl_kinds.h through the tables in model.h.
 */
#include <stddef.h>

#include "tomoyo_private.h"

const char *const hm_conv_what_names[HM_CONV_MAX] = {
	[HM_CONV_ACL_PATH] = "file (one path)",
	[HM_CONV_ACL_PATH_NUMBER] = "file (path and number)",
	[HM_CONV_ACL_MKDEV] = "file mkblock/mkchar",
	[HM_CONV_ACL_PATH2] = "file (two paths)",
	[HM_CONV_ACL_MOUNT] = "file mount",
	[HM_CONV_ACL_INET] = "network inet",
	[HM_CONV_ACL_UNIX] = "network unix",
	[HM_CONV_ACL_SIGNAL] = "signal",
	[HM_CONV_ACL_ENV] = "misc env",
	[HM_CONV_DOMAIN_FLAG] = "domain flag",
	[HM_CONV_USE_GROUP] = "use_group",
	[HM_CONV_TRANSITION] = "transition rule",
	[HM_CONV_AGGREGATOR] = "aggregator",
	[HM_CONV_ALIAS] = "alias",
	[HM_CONV_PATH_GROUP] = "path_group",
	[HM_CONV_NUMBER_GROUP] = "number_group",
	[HM_CONV_ADDRESS_GROUP] = "address_group",
	[HM_CONV_FILE_PATTERN] = "file_pattern",
	[HM_CONV_DENY_REWRITE] = "deny_rewrite",
	[HM_CONV_DENY_AUTOBIND] = "deny_autobind",
};

/*
 * What 2.1 meant when it left a number out: anything.  Modes are the
 * permission bits (0-07777); device numbers are the kernel's dev_t limits
 * (12-bit major, 20-bit minor); mount flags are an unsigned long.
 */
static const struct hm_number any_mode = {
	.min = 0, .max = 07777,
	.radix_min = HM_RADIX_DEC, .radix_max = HM_RADIX_OCT,
};
static const struct hm_number any_major = { .min = 0, .max = 4095 };
static const struct hm_number any_minor = { .min = 0, .max = 1048575 };
static const struct hm_number any_flags = {
	.min = 0, .max = UINT64_MAX,
	.radix_min = HM_RADIX_HEX, .radix_max = HM_RADIX_HEX,
};

#define OPND(t, in21, st, field, what, widest)                     \
	{ HM_TOPND_##t, HM_IN21_##in21, offsetof(struct st, field), \
	  what, widest }

const struct hm_kind_syntax hm_kind_syntax[HM_ACL_KIND_MAX] = {
	[HM_ACL_PATH] = {
		.family = "file", .has_ops = true, .only = HM_DALL,
		.n_opnd = 1,
		.opnd = { OPND(NAME, YES, hm_acl_path, name, "path", NULL) },
	},
	[HM_ACL_PATH_NUMBER] = {
		.family = "file", .has_ops = true, .only = HM_DALL,
		.n_opnd = 2,
		.opnd = {
			OPND(NAME, YES, hm_acl_path_number, name, "path", NULL),
			OPND(NUMBER, OMIT, hm_acl_path_number, number,
			     "number", &any_mode),
		},
	},
	[HM_ACL_MKDEV] = {
		.family = "file", .has_ops = true, .only = HM_DALL,
		.n_opnd = 4,
		.opnd = {
			OPND(NAME, YES, hm_acl_mkdev, name, "path", NULL),
			OPND(NUMBER, OMIT, hm_acl_mkdev, mode, "mode",
			     &any_mode),
			OPND(NUMBER, OMIT, hm_acl_mkdev, major, "major",
			     &any_major),
			OPND(NUMBER, OMIT, hm_acl_mkdev, minor, "minor",
			     &any_minor),
		},
	},
	[HM_ACL_PATH2] = {
		.family = "file", .has_ops = true, .only = HM_DALL,
		.n_opnd = 2,
		.opnd = {
			OPND(NAME, YES, hm_acl_path2, name1, "path", NULL),
			OPND(NAME, YES, hm_acl_path2, name2, "second path",
			     NULL),
		},
	},
	[HM_ACL_MOUNT] = {
		.family = "file", .has_ops = true, .only = HM_DALL,
		.n_opnd = 4,
		.opnd = {
			OPND(NAME, YES, hm_acl_mount, dev, "device", NULL),
			OPND(NAME, YES, hm_acl_mount, dir, "directory", NULL),
			OPND(NAME, YES, hm_acl_mount, fstype, "fstype", NULL),
			OPND(NUMBER, OPTIONAL, hm_acl_mount, flags, "flags",
			     &any_flags),
		},
	},
	[HM_ACL_INET] = {
		.family = "network inet", .family21 = "allow_network",
		.has_proto = true, .has_ops = true, .only = HM_DALL,
		.n_opnd = 2,
		.opnd = {
			OPND(ADDR, YES, hm_acl_inet, addr, "address", NULL),
			OPND(NUMBER, YES, hm_acl_inet, port, "port", NULL),
		},
	},
	[HM_ACL_UNIX] = {
		.family = "network unix", .has_proto = true, .has_ops = true,
		.only = HM_DMODERN, .n_opnd = 1,
		.opnd = { OPND(NAME, YES, hm_acl_unix, name, "address", NULL) },
	},
	[HM_ACL_SIGNAL] = {
		.family = "ipc signal", .family21 = "allow_signal",
		.only = HM_D18 | HM_D21, .n_opnd = 2,
		.opnd = {
			OPND(NUMBER, YES, hm_acl_signal, sig, "signal", NULL),
			OPND(DOMAIN, YES, hm_acl_signal, domain, "domain",
			     NULL),
		},
	},
	[HM_ACL_ENV] = {
		.family = "misc env", .family21 = "allow_env",
		.only = HM_DALL, .n_opnd = 1,
		.opnd = { OPND(WORD, YES, hm_acl_env, name, "variable", NULL) },
	},
};

#define OP(x) (1u << HM_NET_##x)

/*
 * Operations per protocol, as tomoyo-checkpolicy and the kernels accept
 * them: [unix?][proto] -> mainline ops, and what 1.8 adds.
 */
static const uint32_t net_ops26[2][HM_PROTO_MAX] = {
	[0] = {
		[HM_PROTO_STREAM] = OP(BIND) | OP(LISTEN) | OP(CONNECT),
		[HM_PROTO_DGRAM] = OP(BIND) | OP(SEND),
		[HM_PROTO_RAW] = OP(BIND) | OP(SEND),
	},
	[1] = {
		[HM_PROTO_STREAM] = OP(BIND) | OP(LISTEN) | OP(CONNECT),
		[HM_PROTO_DGRAM] = OP(BIND) | OP(SEND),
		[HM_PROTO_SEQPACKET] = OP(BIND) | OP(LISTEN) | OP(CONNECT),
	},
};

static const uint32_t net_ops18_extra[2][HM_PROTO_MAX] = {
	[0] = {
		[HM_PROTO_STREAM] = OP(ACCEPT),
		[HM_PROTO_DGRAM] = OP(RECV),
		[HM_PROTO_RAW] = OP(RECV),
	},
	[1] = {
		[HM_PROTO_STREAM] = OP(ACCEPT),
		[HM_PROTO_DGRAM] = OP(RECV),
		[HM_PROTO_SEQPACKET] = OP(ACCEPT),
	},
};

/* 2.1 ("TCP bind/listen/connect/accept, UDP bind/connect, RAW
 * bind/connect"): the word of each operation; connect on a datagram
 * socket is what 2.6 calls send. */
static const char *const net_words21[HM_PROTO_MAX][HM_NET_OP_MAX] = {
	[HM_PROTO_STREAM] = {
		[HM_NET_BIND] = "bind", [HM_NET_LISTEN] = "listen",
		[HM_NET_CONNECT] = "connect", [HM_NET_ACCEPT] = "accept",
	},
	[HM_PROTO_DGRAM] = { [HM_NET_BIND] = "bind", [HM_NET_SEND] = "connect" },
	[HM_PROTO_RAW] = { [HM_NET_BIND] = "bind", [HM_NET_SEND] = "connect" },
};

uint32_t hm_net_ops_allowed(enum hm_acl_kind kind, unsigned proto,
			    enum hm_dialect dialect)
{
	int ux = kind == HM_ACL_UNIX;
	uint32_t ops = 0;

	if (proto >= HM_PROTO_MAX || (kind != HM_ACL_INET && !ux))
		return 0;
	switch (dialect) {
	case HM_DIALECT_26:
		return net_ops26[ux][proto];
	case HM_DIALECT_18:
		return net_ops26[ux][proto] | net_ops18_extra[ux][proto];
	default:
		if (ux)
			return 0;
		for (unsigned op = 0; op < HM_NET_OP_MAX; op++)
			if (net_words21[proto][op])
				ops |= 1u << op;
		return ops;
	}
}

const char *hm_net_op21(unsigned proto, unsigned op)
{
	if (proto >= HM_PROTO_MAX || op >= HM_NET_OP_MAX)
		return NULL;
	return net_words21[proto][op];
}
