// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sandbox_exec.c - what the table says of each exec edge's program
 * (table.h, sandbox/inspect.c), so that the preload does not read the
 * program before an exec: static or not, through "#!" interpreters, and
 * the identity of every file read to say it; an edge whose program was
 * missing or changed just before the build is not vouched for; a
 * program changed after the build is no longer current (the preload
 * then reads it, and finds the truth).  Against a small tree made here.
 * The preload's side, under the real auditd: t_sandbox_execread.sh.
 */
#include <elf.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/policy_io.h"
#include "histmac/sandbox.h"
#include "../../sandbox/table.h"

static char root[64];

static void path_of(char *p, size_t cap, const char *rel)
{
	snprintf(p, cap, "%s%s", root, rel);
}

static void put_bytes(const char *rel, const void *b, size_t n)
{
	char p[256];
	int fd;

	path_of(p, sizeof(p), rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

static void put(const char *rel, const char *text)
{
	put_bytes(rel, text, strlen(text));
}

/* An ELF header with @interp as PT_INTERP, or none (static) if NULL. */
static void put_elf(const char *rel, const char *interp)
{
	struct {
		Elf64_Ehdr e;
		Elf64_Phdr ph;
		char interp[32];
	} f = { 0 };

	memcpy(f.e.e_ident, ELFMAG, SELFMAG);
	f.e.e_ident[EI_CLASS] = ELFCLASS64;
	f.e.e_ident[EI_DATA] = ELFDATA2LSB;
	f.e.e_ident[EI_VERSION] = EV_CURRENT;
	f.e.e_type = ET_DYN;
	f.e.e_phoff = offsetof(__typeof__(f), ph);
	f.e.e_ehsize = sizeof(f.e);
	f.e.e_phentsize = sizeof(f.ph);
	f.e.e_phnum = 1;
	f.ph.p_type = interp ? PT_INTERP : PT_LOAD;
	if (interp) {
		f.ph.p_offset = offsetof(__typeof__(f), interp);
		f.ph.p_filesz = strlen(interp) + 1;
		snprintf(f.interp, sizeof(f.interp), "%s", interp);
	}
	put_bytes(rel, &f, sizeof(f));
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t ctime_of(const char *rel)
{
	char p[256];
	struct stat sb;

	path_of(p, sizeof(p), rel);
	assert_int_equal(stat(p, &sb), 0);
	return (int64_t)sb.st_ctim.tv_sec * 1000000000 + sb.st_ctim.tv_nsec;
}

static int setup(void **state)
{
	char p[256];

	(void)state;
	strcpy(root, "/tmp/hm-test-sbxexec.XXXXXX");
	assert_non_null(mkdtemp(root));
	path_of(p, sizeof(p), "/bin");
	assert_int_equal(mkdir(p, 0755), 0);
	put_elf("/bin/ld.so", NULL);
	put_elf("/bin/dyn", "/bin/ld.so");
	put_elf("/bin/static", NULL);
	put("/bin/script", "#!/bin/dyn -x\n");
	put("/bin/sscript", "#! /bin/static\n");
	put("/bin/chain", "#!/bin/sscript\n");	/* script, script, static */
	put("/bin/deep3", "#!/bin/chain\n");	/* the 4th file is static */
	put("/bin/deep4", "#!/bin/deep3\n");	/* a 5th is not read */
	put("/bin/text", "just text\n");
	/* the build vouches only for files older than a second */
	while (now_ns() - ctime_of("/bin/text") < 1100000000LL)
		usleep(50000);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static struct hm_model *policy(const char *text)
{
	struct hm_model *m = hm_model_new();
	struct hm_diag diag = { 0 };

	assert_non_null(m);
	assert_int_equal(hm_policy_parse_domain(m, text, strlen(text),
						HM_DIALECT_26, "dom", &diag), 0);
	assert_int_equal(diag.n_msgs, 0);
	hm_diag_free(&diag);
	hm_model_relink(m);
	return m;
}

static const char progs[][16] = { "/bin/dyn", "/bin/static", "/bin/script",
				  "/bin/sscript", "/bin/chain", "/bin/deep3", "/bin/deep4",
				  "/bin/text", "/bin/missing", "/bin/fresh" };

/* The table of "<kernel> /a", which executes every one of progs[]. */
static void *build(size_t *size)
{
	char text[2048];
	size_t n = snprintf(text, sizeof(text), "<kernel> /a\n");
	struct hm_sbx_opts o = { .abi = 3, .root = root };
	struct hm_sbx_summary s;
	struct hm_model *m;
	struct hm_domain *d = NULL;
	void *blob;

	for (size_t i = 0; i < HM_ARRAY_SIZE(progs); i++)
		n += snprintf(text + n, sizeof(text) - n, "file execute %s\n",
			      progs[i]);
	for (size_t i = 0; i < HM_ARRAY_SIZE(progs); i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "\n<kernel> /a %s\nfile read /bin/text\n",
			      progs[i]);
	m = policy(text);
	hm_model_domain(m, "<kernel> /a", 11, false, &d);
	assert_non_null(d);
	assert_int_equal(hm_sbx_table(m, d, &o, &blob, size, &s), 0);
	assert_true(hm_sbx_table_check(blob, *size));
	hm_model_free(m);
	return blob;
}

/* The root domain's (first) edge for @prog. */
static struct hm_sbx_tedge *edge(void *blob, const char *prog)
{
	const struct hm_sbx_thdr *h = blob;
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, 0);

	for (uint32_t i = 0; i < d->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + i);

		if (!strcmp(hm_sbx_tstr(h, e->program), prog))
			return (struct hm_sbx_tedge *)e;
	}
	fail_msg("no edge for %s", prog);
	return NULL;
}

/* Edge @prog: @flags, the chain @files ("a b c"), current or not. */
static void expect(void *blob, const char *prog, uint32_t flags,
		   const char *files, bool current)
{
	const struct hm_sbx_thdr *h = blob;
	const struct hm_sbx_tedge *e = edge(blob, prog);
	char got[512] = "";
	size_t n = 0;

	for (uint32_t i = 0; i < e->n_files; i++)
		n += snprintf(got + n, sizeof(got) - n, "%s%s", i ? " " : "",
			      hm_sbx_tstr(h, e->files[i].path));
	if (e->flags != flags || strcmp(got, files) ||
	    hm_sbx_edge_current(root, h, e) != current)
		fail_msg("%s: flags %u files '%s' current %d; want %u '%s' %d",
			 prog, e->flags, got, hm_sbx_edge_current(root, h, e),
			 flags, files, current);
}

#define KNOWN HM_SBX_EXEC_KNOWN
#define STATIC (HM_SBX_EXEC_KNOWN | HM_SBX_EXEC_STATIC)

/* Every edge says what its program is, as the preload needed to read. */
static void test_edges(void **state)
{
	size_t size;
	void *blob;

	(void)state;
	put("/bin/fresh", "#!/bin/static\n");	/* changed just now */
	blob = build(&size);
	expect(blob, "/bin/dyn", KNOWN, "/bin/dyn", true);
	expect(blob, "/bin/static", STATIC, "/bin/static", true);
	expect(blob, "/bin/script", KNOWN, "/bin/script /bin/dyn", true);
	expect(blob, "/bin/sscript", STATIC, "/bin/sscript /bin/static", true);
	expect(blob, "/bin/chain", STATIC,
	       "/bin/chain /bin/sscript /bin/static", true);
	expect(blob, "/bin/deep3", STATIC,
	       "/bin/deep3 /bin/chain /bin/sscript /bin/static", true);
	expect(blob, "/bin/deep4", KNOWN,
	       "/bin/deep4 /bin/deep3 /bin/chain /bin/sscript", true);
	expect(blob, "/bin/text", KNOWN, "/bin/text", true);
	/* not vouched for: the preload reads them at the exec */
	expect(blob, "/bin/missing", 0, "", false);
	expect(blob, "/bin/fresh", 0, "", false);
	free(blob);
}

/*
 * A program changed after the build is no longer current, whatever
 * file of its chain changed: the preload reads it again, and finds a
 * now-static program static (a stale "dynamic" would be a narrowing
 * failure nobody reports).
 */
static void test_stale(void **state)
{
	struct hm_sbx_exec_info info;
	char a[256], b[256];
	size_t size;
	void *blob = build(&size);

	(void)state;
	/* replaced by a static one (a new inode, as a package upgrade) */
	put_elf("/bin/new", NULL);
	path_of(a, sizeof(a), "/bin/new");
	path_of(b, sizeof(b), "/bin/dyn");
	assert_int_equal(rename(a, b), 0);
	expect(blob, "/bin/dyn", KNOWN, "/bin/dyn", false);
	expect(blob, "/bin/script", KNOWN, "/bin/script /bin/dyn", false);
	assert_int_equal(hm_sbx_inspect(root, "/bin/dyn", &info), 0);
	assert_true(info.is_static);
	assert_int_equal(hm_sbx_inspect(root, "/bin/script", &info), 0);
	assert_true(info.is_static);
	/* rewritten in place (same inode): its ctime moved */
	put("/bin/static", "#!/bin/ld.so\n");
	expect(blob, "/bin/static", STATIC, "/bin/static", false);
	expect(blob, "/bin/chain", STATIC,
	       "/bin/chain /bin/sscript /bin/static", false);
	/* a chmod is a change too */
	path_of(a, sizeof(a), "/bin/text");
	assert_int_equal(chmod(a, 0700), 0);
	expect(blob, "/bin/text", KNOWN, "/bin/text", false);
	free(blob);
}

/* The preload trusts an edge's files only inside the table. */
static void test_check(void **state)
{
	size_t size;
	void *blob = build(&size);
	struct hm_sbx_tedge *e = edge(blob, "/bin/chain");
	const struct hm_sbx_thdr *h = blob;
	uint32_t n = e->n_files, p = e->files[1].path;

	(void)state;
	e->n_files = HM_SBX_CHAIN + 1;
	assert_false(hm_sbx_table_check(blob, size));
	e->n_files = n;
	e->files[1].path = h->str_len;
	assert_false(hm_sbx_table_check(blob, size));
	e->files[1].path = p;
	assert_true(hm_sbx_table_check(blob, size));
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_stale),	/* changes the tree: last */
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
