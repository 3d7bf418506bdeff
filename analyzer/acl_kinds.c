// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * acl_kinds.c - the kind table: for each ACL kind, how policy lines name
 * it and what its operands are (type, field, request field), once.  The
 * entry code (acl.c: same, compare, match, index), copying (merge.c),
 * learning (generalize.c), the TOMOYO reader and writer, XML and JSON
 * all walk this table and act by operand type.  Data only.
 */
#include <stddef.h>

#include "histmac/model.h"

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

/*
 * OPND(kind, field, type, id, what, request field, more...): @more are
 * designated initializers of struct hm_operand (.in21, .widest, .radix).
 */
#define OPND(k, f, t, i, w, r, ...)                                     \
	{ .id = i, .what = w, .type = HM_OT_##t,                        \
	  .offset = offsetof(union hm_acl_any, k_##k.f),                \
	  .req = offsetof(struct hm_request, r), __VA_ARGS__ }

const struct hm_kind hm_kinds[HM_ACL_KIND_MAX] = {
	[HM_ACL_PATH] = {
		.id = "path", .title = "file (one path)",
		.family = "file", .ops = HM_OPS_FILE, .dialects = HM_DALL,
		.key = 0,
		.opnd = { OPND(PATH, name, NAME, "path", "path", name1) },
	},
	[HM_ACL_PATH_NUMBER] = {
		.id = "path-number", .title = "file (path and number)",
		.family = "file", .ops = HM_OPS_FILE, .dialects = HM_DALL,
		.key = 0,
		.opnd = {
			OPND(PATH_NUMBER, name, NAME, "path", "path", name1),
			OPND(PATH_NUMBER, number, NUMBER, "number", "number",
			     number, .radix = HM_RADIX_OF_OP,
			     .in21 = HM_IN21_OMIT, .widest = &any_mode),
		},
	},
	[HM_ACL_MKDEV] = {
		.id = "mkdev", .title = "file mkblock/mkchar",
		.family = "file", .ops = HM_OPS_FILE, .dialects = HM_DALL,
		.key = 0,
		.opnd = {
			OPND(MKDEV, name, NAME, "path", "path", name1),
			OPND(MKDEV, mode, NUMBER, "mode", "mode", number,
			     .radix = HM_RADIX_OCT, .in21 = HM_IN21_OMIT,
			     .widest = &any_mode),
			OPND(MKDEV, major, NUMBER, "major", "major", major,
			     .in21 = HM_IN21_OMIT, .widest = &any_major),
			OPND(MKDEV, minor, NUMBER, "minor", "minor", minor,
			     .in21 = HM_IN21_OMIT, .widest = &any_minor),
		},
	},
	[HM_ACL_PATH2] = {
		.id = "path2", .title = "file (two paths)",
		.family = "file", .ops = HM_OPS_FILE, .dialects = HM_DALL,
		.key = 0,
		.opnd = {
			OPND(PATH2, name1, NAME, "path1", "path", name1),
			OPND(PATH2, name2, NAME, "path2", "second path",
			     name2),
		},
	},
	[HM_ACL_MOUNT] = {
		.id = "mount", .title = "file mount",
		.family = "file", .ops = HM_OPS_FILE, .dialects = HM_DALL,
		.key = 1,
		.opnd = {
			OPND(MOUNT, dev, NAME, "device", "device", name1),
			OPND(MOUNT, dir, NAME, "dir", "directory", name2),
			OPND(MOUNT, fstype, NAME, "fstype", "fstype", name3),
			OPND(MOUNT, flags, NUMBER, "flags", "flags", number,
			     .radix = HM_RADIX_HEX, .in21 = HM_IN21_OPTIONAL,
			     .widest = &any_flags),
		},
	},
	[HM_ACL_INET] = {
		.id = "inet", .title = "network inet",
		.family = "network inet", .family21 = "allow_network",
		.ops = HM_OPS_NET, .dialects = HM_DALL, .key = HM_NO_KEY,
		.opnd = {
			OPND(INET, proto, PROTO, "protocol", "protocol", proto),
			OPND(INET, addr, ADDR, "address", "address", addr),
			OPND(INET, port, NUMBER, "port", "port", port),
		},
	},
	[HM_ACL_UNIX] = {
		.id = "unix", .title = "network unix",
		.family = "network unix",
		.ops = HM_OPS_NET, .dialects = HM_DMODERN, .key = 1,
		.opnd = {
			OPND(UNIX, proto, PROTO, "protocol", "protocol", proto),
			OPND(UNIX, name, NAME, "path", "address", name1),
		},
	},
	[HM_ACL_SIGNAL] = {
		.id = "signal", .title = "signal",
		.family = "ipc signal", .family21 = "allow_signal",
		.ops = HM_OPS_NONE, .dialects = HM_D18 | HM_D21,
		.key = HM_NO_KEY,
		.opnd = {
			OPND(SIGNAL, sig, NUMBER, "signal", "signal", number),
			OPND(SIGNAL, domain, DOMAIN, "domain", "domain",
			     target),
		},
	},
	[HM_ACL_ENV] = {
		.id = "env", .title = "misc env",
		.family = "misc env", .family21 = "allow_env",
		.ops = HM_OPS_NONE, .dialects = HM_DALL, .key = 0,
		.opnd = { OPND(ENV, name, WORD, "name", "variable", name1) },
	},
};
