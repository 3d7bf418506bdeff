/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.h (lib) - conventions shared by every histmac module.
 *
 * Library functions return 0 or a negative errno; iterators return 1 (got
 * one), 0 (end) or a negative errno.  The library never prints and never
 * exits: problems found in input go into a struct hm_diag that the caller
 * owns and prints.
 */
#ifndef HISTMAC_COMMON_H
#define HISTMAC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define HM_MALLOC_FREE(f) __attribute__((malloc, malloc(f, 1)))
#else
#define HM_MALLOC_FREE(f) __attribute__((malloc))
#endif
#define HM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define HM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* HM_ASAN: built with AddressSanitizer (HISTMAC_SANITIZE), whose leak
 * check needs what a program frees at exit freed. */
#if defined(__SANITIZE_ADDRESS__)
#define HM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HM_ASAN 1
#endif
#endif
#define hm_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Hard limits on attacker-influenced input; every allocation is bounded. */
#define HM_MAX_WORD	  8192	 /* encoded TOMOYO word (path)        */
#define HM_MAX_LINE	  65536	 /* policy line                       */
#define HM_MAX_DOMAIN	  4095	 /* encoded domain name: TOMOYO's      */
				 /* TOMOYO_EXEC_TMPSIZE - 1           */

/* The root of every domain name, TOMOYO's; the one place it is spelled. */
#define HM_KERNEL	"<kernel>"
#define HM_KERNEL_LEN	(sizeof(HM_KERNEL) - 1)

/* Severity of one diagnostic. */
enum hm_diag_level {
	HM_DIAG_NOTE,
	HM_DIAG_WARNING,
	HM_DIAG_ERROR,
};

/* One message: "FILE:LINE: text". */
struct hm_diag_msg {
	enum hm_diag_level level;
	char *file;	/* may be NULL */
	unsigned long line; /* 0 when not about a line */
	char *text;
};

/*
 * struct hm_diag - where parsers report problems with their input.
 * Messages beyond @max_kept are counted but not stored, so hostile input
 * cannot grow it without bound.  Zero-initialise, then hm_diag_free().
 */
struct hm_diag {
	struct hm_diag_msg *msgs;
	size_t n_msgs;
	size_t cap;
	size_t max_kept;	/* 0 means the default (1000) */
	unsigned long n_errors;
	unsigned long n_warnings;
	unsigned long n_notes;
	unsigned long n_dropped; /* counted, not kept */
};

/**
 * hm_diag_add() - record one diagnostic.
 * @d: diagnostics; may be NULL (then nothing is recorded).
 * @level: severity.
 * @file: file name the message is about, or NULL.
 * @line: 1-based line number, or 0.
 * @fmt: printf format.
 *
 * Counting never fails; storing the text may (ENOMEM), then it is counted in
 * n_dropped.
 */
void hm_diag_add(struct hm_diag *d, enum hm_diag_level level, const char *file,
		 unsigned long line, const char *fmt, ...) HM_PRINTF(5, 6);
void hm_diag_vadd(struct hm_diag *d, enum hm_diag_level level,
		  const char *file, unsigned long line, const char *fmt,
		  va_list ap);

/**
 * hm_diag_format() - render one message as "FILE:LINE: level: text".
 * Returns: a malloc()ed string or NULL on ENOMEM; caller frees with free().
 */
char *hm_diag_format(const struct hm_diag_msg *m);

/** hm_diag_free() - free the stored messages; @d itself is the caller's. */
void hm_diag_free(struct hm_diag *d);

/* Monotonic accounting of memory per category, printed by `histmac stats`. */
enum hm_mem_cat {
	HM_MEM_NAMES,
	HM_MEM_DOMAINS,
	HM_MEM_ACL,
	HM_MEM_INDEX,
	HM_MEM_EXCEPTION,
	HM_MEM_TRACKER,
	HM_MEM_OTHER,
	HM_MEM_CAT_MAX,
};

extern const char *const hm_mem_cat_names[HM_MEM_CAT_MAX];

/* Memory counters: current bytes and allocation count per category. */
struct hm_mem {
	size_t bytes[HM_MEM_CAT_MAX];
	size_t count[HM_MEM_CAT_MAX];
};

/**
 * hm_mem_alloc() - calloc() that counts into @mem (may be NULL).
 * Returns: zeroed memory, or NULL on ENOMEM or when @size is 0.
 */
void *hm_mem_alloc(struct hm_mem *mem, enum hm_mem_cat cat, size_t size);
void hm_mem_free(struct hm_mem *mem, enum hm_mem_cat cat, void *p,
		 size_t size);

/**
 * hm_array_grow() - make room for @need elements of @size bytes in the
 * array *@arrayp of capacity *@cap (doubling, at least 16).  Use it through
 * HM_ARRAY_GROW(), which passes the element size of the array's type.
 * @arrayp: address of the array pointer (e.g. &v->items).
 * @cap: its capacity in elements; updated on success.
 * @need: elements needed (usually the count + 1).
 * @size: bytes per element.
 *
 * Returns: 0, or -ENOMEM (also when @need * @size would overflow); on
 * failure the array and @cap are left as they were.
 */
int hm_array_grow(void *arrayp, size_t *cap, size_t need, size_t size);
#define HM_ARRAY_GROW(pp, capp, need) \
	hm_array_grow((pp), (capp), (need), sizeof(**(pp)))

/* Value + 1 of each hex digit (either case), 0 for other bytes. */
extern const signed char hm_hex_table[256];

/** hm_hex_digit() - the value of hex digit @c, or -1. */
static inline int hm_hex_digit(char c)
{
	return hm_hex_table[(unsigned char)c] - 1;
}

/**
 * hm_hex_decode() - decode @n hex digits (either case) at @s into @n / 2
 * bytes at @out.  The one hex decoder: audit fields, XML -hex attributes,
 * enforcer decision records.
 * Returns: true, or false when @n is odd or a byte is not a hex digit
 * (@out then holds part of the bytes).
 */
bool hm_hex_decode(void *out, const char *s, size_t n);

/** hm_memcount() - how many of the @n bytes at @p are @c. */
size_t hm_memcount(const void *p, size_t n, unsigned char c);

/** hm_hash_bytes() - a 32-bit hash of @len bytes, the same in every run. */
uint32_t hm_hash_bytes(const void *p, size_t len);

/*
 * FNV-1a 32-bit, for a hash grown a byte at a time (every prefix of a
 * name in turn: analyzer/acl.c): hm_hash_fnv(p, n) is hm_fnv_step()
 * applied to each byte from HM_FNV_BASIS.
 */
#define HM_FNV_BASIS	2166136261u
static inline uint32_t hm_fnv_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}
uint32_t hm_hash_fnv(const void *p, size_t len);

/* The monotonic clock (lib/clock.c), for intervals and deadlines. */
uint64_t hm_now_ns(void);
uint64_t hm_now_ms(void);

/* Wall clock and this process's CPU time (user + system) since
 * hm_stopwatch_start(): on a busy machine the second is what the work
 * itself took. */
struct hm_stopwatch {
	uint64_t wall_ns, cpu_ns;
};
struct hm_stopwatch hm_stopwatch_start(void);
/** hm_stopwatch_text() - "in W ms (C ms CPU)" since @sw, in @buf. */
const char *hm_stopwatch_text(const struct hm_stopwatch *sw, char *buf,
			      size_t cap);

/**
 * hm_utc() - audit seconds @t as UTC text in @buf: "2026-12-01T10:00:00Z",
 * or with @day "2026-12-01"; "unknown" for 0 or a time gmtime() refuses.
 * Returns: @buf.
 */
const char *hm_utc(int64_t t, bool day, char *buf, size_t size);

/**
 * hm_heap_huge_start() - from now on the main heap grows in large steps
 * and in transparent huge pages (lib/heap.c): for a learn from logs read
 * whole.  hm_heap_huge() - advise MADV_HUGEPAGE what it grew by since
 * the last call; nothing unless started.  Called as the read goes.
 */
void hm_heap_huge_start(void);
void hm_heap_huge(void);

/**
 * hm_atomic_write() - replace @path with @len bytes of @data atomically:
 * temp file in the same directory, fsync, rename, fsync the directory.
 * A file that already holds @data is left alone.
 * Returns: 0 or a negative errno; on failure @path is untouched.
 */
int hm_atomic_write(const char *path, const void *data, size_t len);

/**
 * hm_atomic_write_mode() - hm_atomic_write(), the new file with @mode
 * (hm_atomic_write()'s is 0600): for a file another user's daemon reads.
 * Returns: 0 or a negative errno; on failure @path is untouched.
 */
int hm_atomic_write_mode(const char *path, const void *data, size_t len,
			 mode_t mode);

/**
 * hm_atomic_write_fd() - replace @path, as hm_atomic_write() does, with
 * all that the open file @src holds (read from its start; its offset is
 * not moved).
 * Returns: 0 or a negative errno; on failure @path is untouched.
 */
int hm_atomic_write_fd(const char *path, int src);

/* One file of a set replaced together by hm_atomic_write_set(). */
struct hm_file_out {
	const char *name;	/* a plain name inside the directory */
	const char *text;	/* NULL: leave this file alone */
	size_t len;
};

/* The redo journal of hm_atomic_write_set(), inside the directory. */
#define HM_COMMIT_JOURNAL ".histmac-commit"

/**
 * hm_atomic_write_set() - replace several files of @dir as one: a crash
 * leaves either all old or (after hm_atomic_recover()) all new files.
 * Each new file is written and fsynced as ".NAME.hmnew"; then the journal
 * naming them is written atomically; then each is renamed over NAME; then
 * the journal is removed.  The journal is the commit point.  A file that
 * already holds its new text is left alone (same inode, same times).
 * Returns: 0 or a negative errno (before the commit point nothing changed).
 */
int hm_atomic_write_set(const char *dir, const struct hm_file_out *f,
			size_t n);

struct stat;

/*
 * A last word before a set's commit point: @check gets the set and, for
 * each file, the identity of its ".NAME.hmnew" (st_ino 0: left alone, as
 * it already held its text).  A negative return abandons the set (no file
 * was replaced) and is what hm_atomic_write_set_guarded() returns.  The
 * store uses it to see an administrator's edit made while it rendered and
 * staged (store.c).
 */
struct hm_commit_guard {
	int (*check)(void *arg, const struct hm_file_out *f,
		     const struct stat *staged, size_t n);
	void *arg;
};

/* hm_atomic_write_set(), asking @g (NULL: no one) before the commit. */
int hm_atomic_write_set_guarded(const char *dir, const struct hm_file_out *f,
				size_t n, const struct hm_commit_guard *g);

/* Steps of hm_atomic_write_set_guarded() a test can act at: the new
 * files written, the guard said yes (before the commit point), renamed. */
enum hm_atomic_step { HM_ATOMIC_STAGED, HM_ATOMIC_CHECKED, HM_ATOMIC_RENAMED };

#ifdef HM_TEST_HOOKS
/* Test builds: called at each step with the set's directory; NULL: none. */
extern void (*hm_atomic_test_step)(const char *dir, enum hm_atomic_step step);
#endif

/**
 * hm_atomic_recover() - finish or forget an interrupted
 * hm_atomic_write_set() in @dir: with a journal, rename the files it names
 * (roll forward); without one, remove stale ".NAME.hmnew" files.
 * Returns: 1 when a commit was rolled forward, 0 when there was nothing to
 * finish, or a negative errno (a read-only directory with a journal).
 */
int hm_atomic_recover(const char *dir);

#endif /* HISTMAC_COMMON_H */
