/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the sandbox's files share; not a public header.
 *
 *   translate.c  one policy entry -> grants
 *   build.c      subtree, per-domain union, ABI cut, the table blob
 *   apply.c      a table domain -> Landlock (also in the preload)
 *   launch.c     around COMMAND: the TIOCSTI filter, the table's memfd
 *                and copy, the report FIFO, HISTMAC_SANDBOX
 *   command.c    where COMMAND is, the domain it is run from
 *   run.c        hm_sbx_run(): restrict, launch, supervise
 *   relay.c      what the preload reports on the FIFO, said on stderr
 *   explain.c    --explain's report and --stats' notes
 *   preload.c    libhistmac-sandbox.so
 */
#ifndef HISTMAC_SANDBOX_INTERNAL_H
#define HISTMAC_SANDBOX_INTERNAL_H

#include <limits.h>

#include "histmac/sandbox.h"
#include "table.h"

/**
 * hm_sbx_exec_grants() - add to @x the grants executing @path (raw,
 * absolute) needs: execute and read on it and on its interpreters.
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_exec_grants(const char *root, const char *path,
		       struct hm_sbx_xlat *x);

/* Landlock's network rights: TCP bind, connect; UDP bind, connect/send. */
#define HM_SBX_NET_RIGHTS 4

/* hm_sbx_net_right_names[bit] - "net.bind_tcp", as audit names them. */
extern const char *const hm_sbx_net_right_names[HM_SBX_NET_RIGHTS];

/** hm_sbx_net_right_abi() - the ABI that brought network right @bit. */
int hm_sbx_net_right_abi(unsigned bit);

/*
 * struct hm_sbx_setid - the execs of set-id programs in a table (one per
 * domain and program: a child by name and an execute entry are two edges
 * of one exec), the first one with the domain that executes it, and the
 * domains marked for them (they keep their parent's bound when
 * no_new_privs is off).  @prog and @domain point into the table.
 */
struct hm_sbx_setid {
	uint32_t domains, programs;
	const char *prog, *domain;
};

/** hm_sbx_setid_scan() - what table @blob says of set-id programs. */
void hm_sbx_setid_scan(const void *blob, struct hm_sbx_setid *out);

/* The kinds the preload reports (table.h HM_SBX_LOST_KINDS), and after
 * them, at HM_SBX_LOST_MAX, the one that is a decision, not a loss: a
 * domain that keeps its parent's bound for a set-id program. */
#define X(k, text) HM_SBX_LOST_##k,
enum { HM_SBX_LOST_KINDS(X) HM_SBX_LOST_MAX };
#undef X

/* The supervisor's end of the report FIFO, and what it heard. */
struct hm_sbx_relay {
	int fd;			/* the FIFO's read end */
	int wfd;		/* our own write end: never hung up */
	char buf[2 * PIPE_BUF];
	size_t len;
	char **seen;		/* "KIND PROGRAM" already said */
	size_t n_seen;
	uint64_t programs[HM_SBX_LOST_MAX + 1];	/* distinct per kind */
	uint64_t refused;
	uint64_t restored;	/* execs given LD_PRELOAD/HISTMAC_SANDBOX back */
};

/**
 * hm_sbx_relay_open() - open FIFO @fifo to read what the preload reports.
 * Returns: 0 or negative errno (@rl then holds nothing).
 */
int hm_sbx_relay_open(struct hm_sbx_relay *rl, const char *fifo);

/** hm_sbx_relay_read() - say on stderr, once per kind and program, what
 * the FIFO holds now. */
void hm_sbx_relay_read(struct hm_sbx_relay *rl);

/** hm_sbx_relay_stats() - --stats' counts of what was reported. */
void hm_sbx_relay_stats(const struct hm_sbx_relay *rl);

/** hm_sbx_relay_fini() - close both ends; forget what was said. */
void hm_sbx_relay_fini(struct hm_sbx_relay *rl);

#endif /* HISTMAC_SANDBOX_INTERNAL_H */
