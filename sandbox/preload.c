// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload.c - libhistmac-sandbox.so: a program started below
 * `histmac sandbox` narrows itself to its own domain's subtree.
 *
 * The sandbox sets LD_PRELOAD to this library and HISTMAC_SANDBOX to
 * "FD:DOMAIN", FD being a sealed memfd holding the precomputed table
 * (table.h) and DOMAIN the index of the domain the parent ran in.  At
 * start (before main), the library finds the exec edge of that domain
 * named by the program as it was executed (AT_EXECFN, made absolute),
 * applies the child domain's ruleset on top of the inherited one, and
 * writes the child's index back for its own children.  It never parses
 * the policy and allocates nothing.
 *
 * What it cannot do is documented in docs/SANDBOX.md: a static program,
 * one started without the environment or with FD closed keeps its
 * parent's (wider) ruleset, which the kernel still enforces.  "FD:-"
 * marks such an unknown domain, so nothing below it narrows by a wrong
 * guess.  HISTMAC_SANDBOX_DEBUG=1 reports each step on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table.h"

static void debug(const char *fmt, ...)
{
	const char *d = getenv("HISTMAC_SANDBOX_DEBUG");
	va_list ap;

	if (!d || *d != '1')
		return;
	fputs("histmac-sandbox: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void set_domain(int fd, const char *dom)
{
	char v[64];

	snprintf(v, sizeof(v), "%d:%s", fd, dom);
	setenv(HM_SBX_ENV, v, 1);
}

/* The program as executed, absolute. */
static bool program(char *buf, size_t cap)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);
	size_t n = 0;

	if (!fn)
		return false;
	if (fn[0] != '/') {
		if (!getcwd(buf, cap))
			return false;
		n = strlen(buf);
	}
	if (n + strlen(fn) + 2 > cap)
		return false;
	if (n)
		buf[n++] = '/';
	strcpy(buf + n, fn);
	hm_sbx_normalize(buf);
	return true;
}

static long find_edge(const struct hm_sbx_thdr *h, uint32_t dom,
		      const char *prog)
{
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, dom);

	for (uint32_t i = 0; i < d->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + i);

		if (!strcmp(hm_sbx_tstr(h, e->program), prog))
			return e->child;
	}
	return -1;
}

static void narrow(int fd, const struct hm_sbx_thdr *h, uint32_t dom)
{
	char prog[PATH_MAX];
	char real[PATH_MAX];
	struct hm_sbx_apply_stats st;
	long child = -1;
	char idx[24];
	int r;

	if (program(prog, sizeof(prog)))
		child = find_edge(h, dom, prog);
	if (child < 0 && realpath(prog, real))
		child = find_edge(h, dom, real);
	if (child < 0) {
		debug("%s: no transition from %s: keeping its bound", prog,
		      hm_sbx_tstr(h, hm_sbx_tdom(h, dom)->name));
		set_domain(fd, "-");
		return;
	}
	if ((uint32_t)child == dom)
		return;
	r = hm_sbx_apply(h, (uint32_t)child, &st);
	if (r) {
		debug("%s: cannot narrow: %s", prog, strerror(-r));
		set_domain(fd, "-");
		return;
	}
	debug("%s: %s (%u rules, %u gone)", prog,
	      hm_sbx_tstr(h, hm_sbx_tdom(h, child)->name), st.rules,
	      st.missing);
	snprintf(idx, sizeof(idx), "%ld", child);
	set_domain(fd, idx);
}

__attribute__((constructor)) static void hm_sandbox_start(void)
{
	const char *v = getenv(HM_SBX_ENV);
	unsigned long dom;
	struct stat sb;
	char *end;
	void *t;
	int fd;

	if (!v)
		return;
	fd = (int)strtol(v, &end, 10);
	if (*end != ':' || end[1] == '-' || fstat(fd, &sb) ||
	    sb.st_size < (off_t)sizeof(struct hm_sbx_thdr))
		return;
	dom = strtoul(end + 1, &end, 10);
	if (*end == '!') {	/* the sandbox applied it for this exec */
		char idx[24];

		snprintf(idx, sizeof(idx), "%lu", dom);
		set_domain(fd, idx);
		return;
	}
	t = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (t == MAP_FAILED)
		return;
	if (hm_sbx_table_check(t, (size_t)sb.st_size) &&
	    dom < ((const struct hm_sbx_thdr *)t)->n_domains)
		narrow(fd, t, (uint32_t)dom);
	munmap(t, (size_t)sb.st_size);
}
