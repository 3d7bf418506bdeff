// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_syntax.c - what the dialects can say beyond the kind table
 * (hm_kinds[]: leading words, operands and their types, what 2.1 leaves
 * out): which network operations each dialect has, and the names of what
 * a conversion can lose.  The line parser (tomoyo_acl_read.c) and
 * printer (tomoyo_acl_write.c) walk the kind table, so every kind is
 * handled by the same code in every dialect.
 */
#include <stddef.h>

#include "tomoyo_private.h"

/* The rest of enum hm_conv_what, after the kinds. */
static const char *const conv_what_names[HM_CONV_MAX] = {
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

const char *hm_conv_what_name(enum hm_conv_what w)
{
	if ((unsigned)w < HM_ACL_KIND_MAX)
		return hm_kinds[w].title;
	return (unsigned)w < HM_CONV_MAX ? conv_what_names[w] : "?";
}

const struct hm_operand *hm_tomoyo_proto(unsigned kind)
{
	if (kind >= HM_ACL_KIND_MAX)
		return NULL;
	hm_for_each_operand(o, kind)
		if (o->type == HM_OT_PROTO)
			return o;
	return NULL;
}

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
