// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sbx_own.c - the files of `histmac sandbox`'s private directory that
 * the programs below it touch for the sandbox (docs/SANDBOX.md "Denials
 * in the audit trail"): the preload reads the table's copy when its
 * descriptor was closed and writes the report FIFO, so `check` counts
 * those accesses as the sandbox's own instead of listing them.
 *
 * The directory is TMP/histmac-sandbox.XXXXXX/RANDOM (sandbox/launch.c:
 * XXXXXX mkdtemp's six letters or digits, RANDOM 32 lowercase hex digits
 * from getrandom(), TMP a real path), holding "table" and "report".
 * Anyone may make a directory of that shape in /tmp, so the name alone
 * excuses nothing: the object must also be what the sandbox made, as
 * the audit record's PATH item says (type, permission bits, owner):
 *   - under a root sandbox (its children may change user): a 0444
 *     regular file, a 0622 FIFO, owned by root;
 *   - otherwise: 0400 and 0600, owned by the process's own fsuid (no one
 *     below that sandbox can become another user).
 * tests/unit/test_sandbox_files.c holds this against the directory
 * hm_sbx_files_make() really makes.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "histmac/learn.h"

#define DIR_PREFIX "histmac-sandbox."
#define DIR_XS 6		/* mkdtemp's XXXXXX */
#define RANDOM_DIGITS 32

static bool all_of(const char *s, size_t n, bool (*ok)(char))
{
	for (size_t i = 0; i < n; i++)
		if (!ok(s[i]))
			return false;
	return true;
}

static bool mkdtemp_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9');
}

static bool hex_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

/*
 * The file name of @name (@len bytes, TOMOYO-encoded: the scheme's
 * characters encode as themselves) when it is /.../DIR_PREFIX XXXXXX/
 * RANDOM/FILE, else NULL.
 */
static const char *private_file(const char *name, size_t len)
{
	const size_t dir = sizeof(DIR_PREFIX) - 1 + DIR_XS;
	const char *file = memrchr(name, '/', len);
	const char *rnd, *d;

	if (!file || (size_t)(file - name) < dir + RANDOM_DIGITS + 2)
		return NULL;
	rnd = file - RANDOM_DIGITS;
	d = rnd - 1 - dir;
	if (rnd[-1] != '/' || d[-1] != '/' || name[0] != '/' ||
	    !all_of(rnd, RANDOM_DIGITS, hex_char) ||
	    memcmp(d, DIR_PREFIX, sizeof(DIR_PREFIX) - 1) ||
	    !all_of(d + sizeof(DIR_PREFIX) - 1, DIR_XS, mkdtemp_char))
		return NULL;
	return file + 1;
}

/* Is @o of type @type, made by a root sandbox (@shared bits, root's)
 * or by one of the process's own user (@private bits, @fsuid's)? */
static bool made_by_sandbox(const struct hm_cond_obj *o, unsigned type,
			    unsigned shared, unsigned private, uint64_t fsuid)
{
	unsigned perm = o->mode & 07777;

	if ((o->mode & S_IFMT) != type)
		return false;
	return (perm == shared && o->uid == 0) ||
	       (perm == private && o->uid == fsuid);
}

bool hm_check_sandbox_file(const char *name, size_t len, enum hm_file_op op,
			   const struct hm_cond_obj *obj, uint64_t fsuid)
{
	const char *file = private_file(name, len);
	size_t n = file ? len - (size_t)(file - name) : 0;

	if (!file || !obj)
		return false;
	if (n == 5 && !memcmp(file, "table", 5))
		return op == HM_FILE_READ &&
		       made_by_sandbox(obj, S_IFREG, 0444, 0400, fsuid);
	if (n == 6 && !memcmp(file, "report", 6))
		return op == HM_FILE_WRITE &&
		       made_by_sandbox(obj, S_IFIFO, 0622, 0600, fsuid);
	return false;
}
