// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_canon.c - canon.c's caches of resolved names (docs/PATHS.md
 * "Cost"), on real files in a temporary directory used as the resolve
 * root: a name seen before costs nothing, each cache keeps its bound,
 * a followed log's directory replaced by a symlink is noticed (at once
 * when the trail says so, else within HM_CANON_RECHECK names), and a
 * symlink the trail creates or removes changes the names through it.
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

	assert_int_equal(hm_canon_path(f->c, &f->a, &r, &out), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_miss),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_live_replaced),
		cmocka_unit_test(test_past_trusted),
		cmocka_unit_test(test_trail_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
