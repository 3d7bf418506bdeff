// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_canon.c - canon.c's caches of resolved names (docs/PATHS.md
 * "Cost"), on real files in a temporary directory used as the resolve
 * root: a name seen before costs nothing, each cache keeps its bound,
 * a followed log's directory replaced by a symlink is noticed (at once
 * when the trail says so, else within HM_CANON_RECHECK names), a
 * symlink the trail creates or removes changes the names through it, and
 * a name whose object is not the record's is proven only through
 * directories no user but root could have changed (docs/PATHS.md "The
 * rule").
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"

struct fx {
	char root[64];
	struct hm_canon *c;
	struct hm_collector_stats st;
	struct hm_arena a;
};

/* Run a shell command on the fixture's root (cd'ed into). */
static void sh(const struct fx *f, const char *cmd)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "cd '%s' && %s", f->root, cmd);
	assert_int_equal(system(buf), 0);
}

static void fx_open(struct fx *f, bool live)
{
	memset(f, 0, sizeof(*f));
	strcpy(f->root, "/tmp/hm-test-canon.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->c = hm_canon_new(f->root, true, &f->st);
	assert_non_null(f->c);
	hm_canon_set_live(f->c, live);
}

static void fx_close(struct fx *f)
{
	char buf[128];

	hm_canon_free(f->c);
	hm_arena_free(&f->a);
	snprintf(buf, sizeof(buf), "rm -rf '%s'", f->root);
	assert_int_equal(system(buf), 0);
}

/* @name (absolute) canonicalised, the last component followed. */
static const char *canon(struct fx *f, const char *name)
{
	struct hm_canon_req r = {
		.name = name, .len = strlen(name), .follow_last = true,
	};
	struct hm_bytes out;
	uint8_t proof;

	assert_int_equal(hm_canon_path(f->c, &f->a, &r, &out, &proof), 0);
	assert_int_equal(proof, HM_PROOF_OBJECT);
	return out.s;
}

/* A name seen before is not resolved again; its directory is shared. */
static void test_hit_miss(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, false);
	sh(&f, "mkdir -p real/d && ln -s real/d d && touch real/d/f real/d/g");
	assert_string_equal(canon(&f, "/d/f"), "/real/d/f");
	assert_int_equal(f.st.namecache_misses, 1);
	assert_int_equal(f.st.dircache_misses, 1);
	assert_string_equal(canon(&f, "/d/f"), "/real/d/f");
	assert_int_equal(f.st.namecache_hits, 1);
	assert_int_equal(f.st.dircache_hits, 0);
	/* another name in the directory: only its last component */
	assert_string_equal(canon(&f, "/d/g"), "/real/d/g");
	assert_int_equal(f.st.namecache_misses, 2);
	assert_int_equal(f.st.dircache_hits, 1);
	assert_int_equal(f.st.resolved, 3);
	fx_close(&f);
}

/* Each cache holds at most its slots: past them, names evict others,
 * and an evicted name resolves as before. */
static void test_eviction(void **state)
{
	size_t n = 2 * HM_CANON_NAME_SLOTS, dirs = 2 * HM_CANON_DIR_SLOTS;
	char name[64];
	struct fx f;

	(void)state;
	fx_open(&f, false);
	sh(&f, "mkdir -p real && ln -s real d");
	for (size_t i = 0; i < n; i++) {
		if (i < dirs)
			snprintf(name, sizeof(name), "/d/%zu/f", i);
		else
			snprintf(name, sizeof(name), "/d/0/f%zu", i);
		canon(&f, name);
		hm_arena_reset(&f.a);
	}
	assert_int_equal(f.st.namecache_misses, n);
	assert_true(f.st.namecache_evictions >= n - HM_CANON_NAME_SLOTS);
	assert_true(f.st.dircache_evictions >= dirs - HM_CANON_DIR_SLOTS);
	assert_string_equal(canon(&f, "/d/1/f"), "/real/1/f");
	assert_string_equal(canon(&f, "/d/0/f4096"), "/real/0/f4096");
	fx_close(&f);
}

/* d/f is resolved (cached), then d replaced by a symlink to other/. */
static void d_becomes_link(struct fx *f)
{
	sh(f, "mkdir d other && touch d/f d/g other/f other/g");
	assert_string_equal(canon(f, "/d/f"), "/d/f");
	sh(f, "rm -r d && ln -s other d");
}

/*
 * Following a log, a directory is replaced by a symlink to another one:
 * trusted until the trail says something moved, or HM_CANON_RECHECK
 * names later, when one stat() of the directory sees it changed.
 */
static void test_live_replaced(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, true);
	d_becomes_link(&f);
	assert_string_equal(canon(&f, "/d/f"), "/d/f");	/* trusted */
	hm_canon_trail_changed(f.c);
	assert_string_equal(canon(&f, "/d/f"), "/other/f");

	/* not in the trail: noticed by the recheck */
	sh(&f, "rm d && mkdir d && touch d/g");
	assert_string_equal(canon(&f, "/d/g"), "/other/g");	/* trusted */
	for (int i = 0; i < HM_CANON_RECHECK; i++) {
		canon(&f, "/other/f");
		hm_arena_reset(&f.a);
	}
	assert_string_equal(canon(&f, "/d/g"), "/d/g");
	assert_true(f.st.dircache_rechecks >= 1);
	fx_close(&f);
}

/* Reading a past log, the files do not change with its records. */
static void test_past_trusted(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, false);
	d_becomes_link(&f);
	hm_canon_trail_changed(f.c);
	assert_string_equal(canon(&f, "/d/f"), "/d/f");
	assert_int_equal(f.st.dircache_rechecks, 0);
	fx_close(&f);
}

/* A symlink the trail created (gone from disk) leads names through it
 * from then on, and no longer once the trail removed it. */
static void test_trail_link(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, false);
	sh(&f, "mkdir d t");
	assert_string_equal(canon(&f, "/d/l/x"), "/d/l/x");
	hm_canon_link_created(f.c, "/d/l", 4, "/t", 2);
	assert_string_equal(canon(&f, "/d/l/x"), "/t/x");
	assert_string_equal(canon(&f, "/d/l/y"), "/t/y");
	hm_canon_link_removed(f.c, "/d/l", 4);
	assert_string_equal(canon(&f, "/d/l/x"), "/d/l/x");
	fx_close(&f);
}

/*
 * What a record proves of its name, by who could have changed the
 * directories since: the files are made by the setup (as root, 0755
 * unless chmod'ed), the record is of @obj's inode when it was read
 * (NULL: of an inode not there), then @after changes the files.
 */
static const struct {
	const char *setup;
	const char *obj;	/* the record's object, before @after */
	const char *after;
	const char *name;
	uint8_t proof;
	const char *want;
} proofs[] = {
	/* the object is there: proven whoever owns the directories */
	{ "mkdir -m 1777 w && mkdir w/d && touch w/d/f", "/w/d/f", "true",
	  "/w/d/f", HM_PROOF_OBJECT, "/w/d/f" },
	/* replaced since in a directory only root can change: /run/x.pid
	 * of a service that runs again, through /var/run */
	{ "mkdir -p run var && ln -s ../run var/run && touch run/x.pid",
	  "/run/x.pid", "touch run/x.new && mv run/x.new run/x.pid",
	  "/var/run/x.pid", HM_PROOF_DIRS, "/run/x.pid" },
	/* W/d/file read, then d swapped for a symlink to a protected
	 * directory by a user: the name as logged, not proven */
	{ "mkdir -m 700 etc && touch etc/file && mkdir -m 1777 w && "
	  "mkdir w/d && touch w/d/file", "/w/d/file",
	  "rm -r w/d && ln -s ../etc w/d && chown -h 65534 w/d",
	  "/w/d/file", HM_PROOF_NONE, "/w/d/file" },
	/* the same with a directory owned by a user */
	{ "mkdir -m 700 etc && touch etc/file && mkdir -p u/d && "
	  "touch u/d/file && chown 65534 u", "/u/d/file",
	  "rm -r u/d && ln -s ../etc u/d", "/u/d/file", HM_PROOF_NONE,
	  "/u/d/file" },
	/* ... and the file not there any more: nothing there, through a
	 * link a user could have put there */
	{ "mkdir -m 700 etc && mkdir -m 1777 w && mkdir w/d && "
	  "touch w/d/gone", "/w/d/gone",
	  "rm -r w/d && ln -s ../etc w/d && chown -h 65534 w/d",
	  "/w/d/gone", HM_PROOF_NONE, "/w/d/gone" },
	/* a file removed since, through root's links: as it resolves */
	{ "mkdir -p run var && ln -s ../run var/run && touch run/y.pid",
	  "/run/y.pid", "rm run/y.pid", "/var/run/y.pid", HM_PROOF_OBJECT,
	  "/run/y.pid" },
	/* a file removed since in sticky /tmp, no link on the way */
	{ "mkdir -m 1777 tmp && touch tmp/t.XXXX", "/tmp/t.XXXX",
	  "rm tmp/t.XXXX", "/tmp/t.XXXX", HM_PROOF_OBJECT, "/tmp/t.XXXX" },
	/* replaced since in a user's own directory, no link on the way:
	 * the name the process used (sftp's upload over a file) */
	{ "mkdir u && touch u/f && chown 65534 u", "/u/f",
	  "touch u/n && mv u/n u/f", "/u/f", HM_PROOF_DIRS, "/u/f" },
	/* replaced in sticky /tmp: /tmp is root's, the name holds */
	{ "mkdir -m 1777 tmp && touch tmp/r", "/tmp/r",
	  "touch tmp/n && mv tmp/n tmp/r", "/tmp/r", HM_PROOF_DIRS, "/tmp/r" },
	/* mktemp -d in /var/lock (a link to sticky /run/lock), renamed away
	 * since: as it resolves (apache2ctl's lock directory) */
	{ "mkdir -p -m 1777 run/lock && mkdir var && ln -s ../run/lock var/lock "
	  "&& mkdir run/lock/a.X", "/run/lock/a.X",
	  "mv run/lock/a.X run/lock/a", "/var/lock/a.X", HM_PROOF_OBJECT,
	  "/run/lock/a.X" },
};

static void test_proof(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(proofs); i++) {
		char buf[256];
		uint8_t proof;
		struct fx f;
		struct hm_ev_path rec = { .has_inode = true };
		struct stat st;
		struct hm_canon_req r = {
			.name = proofs[i].name,
			.len = strlen(proofs[i].name),
			.follow_last = true,
			.rec = &rec,
		};
		struct hm_bytes out;

		fx_open(&f, false);
		sh(&f, proofs[i].setup);
		snprintf(buf, sizeof(buf), "%s%s", f.root, proofs[i].obj);
		assert_int_equal(stat(buf, &st), 0);
		rec.ino = st.st_ino;
		rec.dev_major = major(st.st_dev);
		rec.dev_minor = minor(st.st_dev);
		sh(&f, proofs[i].after);
		assert_int_equal(hm_canon_path(f.c, &f.a, &r, &out, &proof),
				 0);
		if (proof != proofs[i].proof || strcmp(out.s, proofs[i].want))
			fail_msg("case %zu: %s proof %u, want %s %u", i, out.s,
				 proof, proofs[i].want, proofs[i].proof);
		/* the same again, from the caches */
		assert_int_equal(hm_canon_path(f.c, &f.a, &r, &out, &proof),
				 0);
		assert_int_equal(proof, proofs[i].proof);
		assert_string_equal(out.s, proofs[i].want);
		fx_close(&f);
	}
}

/* A process's links in proc, which name no object of their own. */
static void test_magic(void **state)
{
	static const struct {
		const char *name;
		bool magic;
	} cases[] = {
		{ "proc:/self/fd/3", true },
		{ "proc:/thread-self/fd/12", true },
		{ "proc:/1234/fd/0", true },
		{ "proc:/1234/task/1240/fd/7", true },
		{ "proc:/self/cwd/", true },
		{ "proc:/self/root/", true },
		{ "proc:/self/exe", true },
		{ "proc:/self/map_files/7f00-7f01", true },
		{ "proc:/self/fd/", false },
		{ "proc:/self/fd/3/x", false },
		{ "proc:/self/fdinfo/3", false },
		{ "proc:/self/status", false },
		{ "proc:/self/cwd/etc/passwd", false },
		{ "proc:/self/map_files/", false },
		{ "proc:/x1/fd/3", false },
		{ "proc:/self", false },
		{ "/proc/self/fd/3", false },
		{ "sysfs:/self/fd/3", false },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++)
		if (hm_canon_magic(cases[i].name, strlen(cases[i].name)) !=
		    cases[i].magic)
			fail_msg("%s: want %d", cases[i].name, cases[i].magic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_miss),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_live_replaced),
		cmocka_unit_test(test_past_trusted),
		cmocka_unit_test(test_trail_link),
		cmocka_unit_test(test_proof),
		cmocka_unit_test(test_magic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
