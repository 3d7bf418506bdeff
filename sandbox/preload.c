// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload.c - libhistmac-sandbox.so: a program started below
 * `histmac sandbox` narrows itself to its own domain's subtree.
 *
 * The sandbox sets LD_PRELOAD to this library and HISTMAC_SANDBOX to
 * "FD:DOMAIN:STATE" (table.h), FD being a sealed memfd holding the
 * precomputed table and DOMAIN the index of the domain the parent ran in.  At
 * start (before main), the library finds the exec edge of that domain
 * named by the program as it was executed (AT_EXECFN, made absolute),
 * applies the child domain's ruleset on top of the inherited one, and
 * writes the child's index back for its own children.  It never parses
 * the policy and allocates nothing.
 *
 * What it cannot do is documented in docs/SANDBOX.md: a static program,
 * one started without the environment or with FD closed keeps its
 * parent's (wider) ruleset, which the kernel still enforces.  STATE '-'
 * marks an unknown domain, so nothing below it narrows by a wrong guess.  HISTMAC_SANDBOX_DEBUG=1 reports each step on stderr.
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
#include <time.h>
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

/*
 * Write the domain back in place: a shell builds its children's
 * environment from main()'s envp, which setenv() would not change, so
 * the value keeps its length ("FD:DDDDDDDDDD:S", table.h).
 */
static void set_domain(char *v, uint32_t dom, char state)
{
	char *d = strchr(v, ':') + 1;
	char buf[HM_SBX_DOM_DIGITS + 3];

	snprintf(buf, sizeof(buf), "%0*u:%c", HM_SBX_DOM_DIGITS, dom, state);
	memcpy(d, buf, HM_SBX_DOM_DIGITS + 2);
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

/* Microseconds since @t0 (CLOCK_MONOTONIC), for the debug report. */
static long usec_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000L +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

static void narrow(char *v, const struct hm_sbx_thdr *h, uint32_t dom,
		   const struct timespec *t0)
{
	char prog[PATH_MAX];
	char real[PATH_MAX];
	struct hm_sbx_apply_stats st;
	long child = -1;
	int r;

	if (program(prog, sizeof(prog)))
		child = find_edge(h, dom, prog);
	if (child < 0 && realpath(prog, real))
		child = find_edge(h, dom, real);
	if (child >= 0 && !hm_sbx_table_check_domain(h, (uint32_t)child)) {
		debug("%s: domain %ld is not valid in the table", prog, child);
		child = -1;
	}
	if (child < 0) {
		debug("%s: no transition from %s: keeping its bound", prog,
		      hm_sbx_tstr(h, hm_sbx_tdom(h, dom)->name));
		set_domain(v, dom, HM_SBX_UNKNOWN);
		return;
	}
	if ((uint32_t)child == dom)
		return;
	r = hm_sbx_apply(h, (uint32_t)child, &st);
	if (r) {
		debug("%s: cannot narrow: %s", prog, strerror(-r));
		set_domain(v, dom, HM_SBX_UNKNOWN);
		return;
	}
	debug("%s: %s (%u rules, %u on a missing object's parent) in %ld us, "
	      "%u us of them in landlock_restrict_self()", prog,
	      hm_sbx_tstr(h, hm_sbx_tdom(h, child)->name), st.rules,
	      st.missing, usec_since(t0), st.restrict_us);
	set_domain(v, (uint32_t)child, HM_SBX_PARENT);
}

__attribute__((constructor)) static void hm_sandbox_start(void)
{
	char *v = getenv(HM_SBX_ENV);
	struct timespec t0;
	unsigned long dom;
	struct stat sb;
	char *colon;
	char *end;
	void *t;
	int fd;

	if (!v)
		return;
	fd = (int)strtol(v, &colon, 10);
	if (*colon != ':' || strlen(colon) != HM_SBX_DOM_DIGITS + 3)
		return;		/* not "FD:DDDDDDDDDD:S" */
	dom = strtoul(colon + 1, &end, 10);
	if (end != colon + 1 + HM_SBX_DOM_DIGITS || *end != ':' ||
	    end[1] == HM_SBX_UNKNOWN)
		return;
	if (end[1] == HM_SBX_APPLIED) {	/* by the sandbox, for this exec */
		end[1] = HM_SBX_PARENT;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (fstat(fd, &sb) || sb.st_size < (off_t)sizeof(struct hm_sbx_thdr)) {
		debug("%s=%s: no table open: keeping the parent's bound",
		      HM_SBX_ENV, v);
		return;
	}
	/* private: a shared map of a write-sealed memfd may be refused */
	t = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (t == MAP_FAILED) {
		debug("cannot map the table: %s", strerror(errno));
		return;
	}
	if (hm_sbx_table_check_header(t, (size_t)sb.st_size) &&
	    dom <= UINT32_MAX && hm_sbx_table_check_domain(t, (uint32_t)dom))
		narrow(v, t, (uint32_t)dom, &t0);
	else
		debug("fd %d holds no valid table", fd);
	munmap(t, (size_t)sb.st_size);
}
