// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_heap.c - hm_heap_huge() (lib/heap.c): nothing before
 * hm_heap_huge_start() (a heap grown before it is not advised); after
 * it, the part the heap grew by is advised huge pages (the "hg" flag of
 * its mapping in /proc/self/smaps).  Under an allocator
 * that is not brk's (ASan's, valgrind's) there is no such heap to look
 * at: the test says so and skips.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/common.h"

#define SMALL	100		/* bytes: from the heap, not mmap() */
#define MANY	200000		/* 20 MB of them */

/* Is @p in a mapping with @flag among its VmFlags? -1: not found. */
static int has_flag(const void *p, const char *flag)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	uintptr_t a = (uintptr_t)p, lo = 0, hi = 0;
	bool in = false;
	int r = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			char want[8];

			snprintf(want, sizeof(want), " %s", flag);
			r = strstr(line + 8, want) != NULL;
			break;
		}
	}
	fclose(f);
	return r;
}

static bool in_brk_heap(const void *p, uintptr_t start)
{
	return (uintptr_t)p >= start && (uintptr_t)p < (uintptr_t)sbrk(0);
}

/* MANY blocks of SMALL bytes, touched: the heap grows. */
static char **grow(void)
{
	char **v = calloc(MANY, sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < MANY; i++) {
		v[i] = malloc(SMALL);
		assert_non_null(v[i]);
		memset(v[i], 1, SMALL);
	}
	return v;
}

static void drop(char **v)
{
	for (size_t i = 0; i < MANY; i++)
		free(v[i]);
	free(v);
}

static void test_advised_after_start(void **state)
{
	uintptr_t start = (uintptr_t)sbrk(0);
	char **u, **v;
	int grown = -1, old = -1;
	bool brk;

	(void)state;
	u = grow();		/* before the start: grown, but not advised */
	hm_heap_huge();
	hm_heap_huge_start();
	v = grow();
	brk = in_brk_heap(u[MANY - 1], start) && in_brk_heap(v[MANY - 1], start);
	if (brk) {
		hm_heap_huge();
		grown = has_flag(v[MANY - 1], "hg");
		old = has_flag(u[MANY - 1], "hg");
	}
	drop(u);
	drop(v);
	if (!brk) {
		print_message("the allocator is not brk's: no heap to advise\n");
		skip();
	}
	assert_int_equal(grown, 1);
	assert_int_equal(old, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advised_after_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
