// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * heap.c - the heap of a long read in huge pages.
 *
 * A learn from a 1 GB log touches about 100 MB of heap for the first
 * time (the model, the memo, the batches), and each first touch of a page
 * is a fault: 26,700 of them; halving them took 5 % off the run's CPU on
 * a virtual machine, where a fault is dear (bench/RESULTS.md).  Most
 * systems leave transparent huge pages to madvise(); a heap advised
 * MADV_HUGEPAGE faults in 2 MB at a time.  glibc does it itself only when
 * told by an environment variable at start (glibc.malloc.hugetlb=1), so
 * this does it for the main arena, where the collector's thread (the
 * model, the learner, the save) allocates: the heap grows by at least
 * HEAP_PAD at a time (M_TOP_PAD), and each call advises what it grew by
 * since the last, before most of the new part is touched.  Other
 * threads' arenas keep small pages.
 *
 * Only for a learn from logs read whole (hm_heap_huge_start()): the pad
 * is address space until touched, a heap of huge pages gives little back
 * to a daemon that runs for weeks, and a reader that keeps little
 * (events) would only see its peak memory rounded up to 2 MB steps.
 * Where transparent huge pages are off ("never"), or the heap is not
 * brk's (a sanitizer's allocator), the advice changes nothing.
 */
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "histmac/common.h"

#define HEAP_PAD	(64u << 20)	/* a huge page is 2 MB */

static uintptr_t advised;	/* the heap's end when last advised; 0: off */

void hm_heap_huge_start(void)
{
	uintptr_t end = (uintptr_t)sbrk(0);

	if (advised || end == (uintptr_t)-1)
		return;
	mallopt(M_TOP_PAD, HEAP_PAD);
	advised = end;		/* what was touched before stays as it is */
}

void hm_heap_huge(void)
{
	uintptr_t end = (uintptr_t)sbrk(0), from;
	long page = sysconf(_SC_PAGESIZE);

	if (!advised || end == (uintptr_t)-1 || end <= advised || page <= 0)
		return;
	from = (advised + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	advised = end;
	if (end > from)	/* best effort: a failure leaves small pages */
		(void)madvise((void *)from, end - from, MADV_HUGEPAGE);
}
