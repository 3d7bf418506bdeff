// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_match.c - TOMOYO word validity and wildcard matching (match.c),
 * against docs/WILDCARDS.md.  Every table is walked by one loop;
 * each loop reports all failing rows before it fails.
 *
 * C escapes: "\\*" is the two characters \* of a TOMOYO word, "\\\\" is
 * the unit \\ (one backslash), "\\040" is the unit \040.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/word.h"

struct match_case {
	const char *pattern;
	const char *name;
	bool match;
};

static const struct match_case match_cases[] = {
	/* No wildcard: exact comparison, trailing '/' included. */
	{ "/etc/passwd", "/etc/passwd", true },
	{ "/etc/passwd", "/etc/passwd/", false },
	{ "/etc/passwd/", "/etc/passwd", false },
	{ "/etc/passwd", "/etc/passw", false },
	{ "/etc/passwd", "/etc/passwdx", false },
	{ "/", "/", true },
	{ "/", "//", false },
	{ "/a\\040b", "/a\\040b", true },
	{ "/a\\040b", "/a\\011b", false },
	{ "/a\\\\b", "/a\\\\b", true },
	{ "/a\\\\b", "/a\\\\c", false },
	{ "/x\\000", "/x\\000", true },
	{ "/srv/\\\\040", "/srv/\\\\040", true },
	{ "/srv/\\\\040", "/srv/\\040", false },
	{ "proc:/self/exe", "proc:/self/exe", true },
	{ "pipe:[1234]", "pipe:[1234]", true },
	{ "pipe:[1234]", "pipe:[12345]", false },

	/* \*: zero or more units, never '/'. */
	{ "/etc/\\*", "/etc/hosts", true },
	{ "/etc/\\*", "/etc/.hidden", true },
	{ "/etc/\\*", "/etc/.", true },
	{ "/etc/\\*", "/etc/..", true },
	{ "/etc/\\*", "/etc/a/b", false },
	{ "/etc/\\*", "/etc/", false },
	{ "/etc/\\*", "/etc", false },
	{ "/etc/\\*", "/etcx", false },
	{ "/etc/\\*", "/etc/a\\040b", true },
	{ "/etc/\\*", "/etc/\\\\", true },
	{ "/etc/\\*", "/etc/\\303\\251", true },
	{ "/etc/\\*/", "/etc/ssl/", true },
	{ "/etc/\\*/", "/etc/ssl", false },
	{ "/etc/\\*/", "/etc/ssl/certs/", false },
	{ "/etc/\\*/", "/etc//", true },
	{ "/etc/\\*.conf", "/etc/a.conf", true },
	{ "/etc/\\*.conf", "/etc/.conf", true },
	{ "/etc/\\*.conf", "/etc/a.b.conf", true },
	{ "/etc/\\*.conf", "/etc/a.conf.bak", false },
	{ "/etc/\\*.conf", "/etc/aconf", false },
	{ "/etc/a\\*", "/etc/a", true },
	{ "/etc/a\\*", "/etc/abc", true },
	{ "/etc/a\\*", "/etc/b", false },
	{ "/etc/a\\*", "/etc/a/b", false },
	{ "/\\*", "/x", true },
	{ "/\\*", "/", false },
	{ "/\\*/", "/", false },
	{ "/\\*/", "//", true },
	{ "\\*", "abc", true },
	{ "\\*", "a/b", false },
	{ "\\*/x", "/x", true },
	{ "\\*/x", "y/x", true },
	{ "/a\\*b\\*c", "/abc", true },
	{ "/a\\*b\\*c", "/aXbYc", true },
	{ "/a\\*b\\*c", "/abcb", false },
	{ "/a\\*b\\*c", "/acb", false },
	{ "/a\\*b\\*c", "/abcc", true },
	{ "/\\*\\*\\*x", "/x", true },
	{ "/\\*x\\*", "/yyy", false },
	{ "/\\*x\\*", "/yxy", true },
	{ "/\\*ab", "/aab", true },
	{ "/\\*ab", "/abab", true },
	{ "/\\*ab", "/aba", false },
	{ "/\\*/\\*/\\*", "/a/b/c", true },
	{ "/\\*/\\*/\\*", "/a/b/c/d", false },

	/* \@: like \* but takes no '.'. */
	{ "/etc/\\@", "/etc/hosts", true },
	{ "/etc/\\@", "/etc/.pwd.lock", false },
	{ "/etc/\\@", "/etc/.", false },
	{ "/etc/\\@", "/etc/", false },
	{ "/etc/\\@.conf", "/etc/adduser.conf", true },
	{ "/etc/\\@.conf", "/etc/ld.so.conf", false },
	{ "/etc/\\@.conf", "/etc/.conf", true },
	{ "/etc/\\@.\\@", "/etc/a.b", true },
	{ "/etc/\\@.\\@", "/etc/a.b.c", false },
	{ "/etc/\\@.\\@", "/etc/.", true },
	{ "/etc/\\@\\*", "/etc/a.b.c", true },
	{ "/etc/\\*\\@", "/etc/a.b.c", true },
	{ "/etc/x\\@", "/etc/x", true },
	{ "/etc/x\\@", "/etc/x.y", false },
	{ "/etc/\\@", "/etc/a\\040b", true },
	{ "/etc/\\@", "/etc/a\\\\b", true },
	{ "/lib/\\@.so.\\$", "/lib/libc.so.6", true },
	{ "/lib/\\@.so.\\$", "/lib/libc.2.so.6", false },

	/* \?: exactly one unit that is not '/'. */
	{ "/srv/\\?", "/srv/a", true },
	{ "/srv/\\?", "/srv/ab", false },
	{ "/srv/\\?", "/srv/", false },
	{ "/srv/\\?", "/srv/.", true },
	{ "/srv/\\?", "/srv/\\040", true },
	{ "/srv/\\?", "/srv/\\\\", true },
	{ "/srv/\\?", "/srv/\\303\\251", false },
	{ "/srv/\\?\\?", "/srv/\\303\\251", true },
	{ "/srv/\\?\\?\\?\\?", "/srv/\\040", false },
	{ "/srv/\\?x", "/srv/\\000x", true },
	{ "/srv/\\?0", "/srv/\\0400", true },
	{ "/srv/\\?/x", "/srv//x", false },
	{ "/srv/\\?/x", "/srv/a/x", true },
	{ "/tmp/tmp.\\?\\?\\?\\?\\?\\?", "/tmp/tmp.Ab3xZ9", true },
	{ "/tmp/tmp.\\?\\?\\?\\?\\?\\?", "/tmp/tmp.Ab3xZ", false },
	{ "/tmp/tmp.\\?\\?\\?\\?\\?\\?", "/tmp/tmp.Ab3xZ9a", false },

	/* \$: one or more decimal digits. */
	{ "/dev/tty\\$", "/dev/tty63", true },
	{ "/dev/tty\\$", "/dev/tty", false },
	{ "/dev/tty\\$", "/dev/tty6a", false },
	{ "/dev/tty\\$", "/dev/ttyS0", false },
	{ "/run/user/\\$/bus", "/run/user/1000/bus", true },
	{ "/run/user/\\$/bus", "/run/user//bus", false },
	{ "/run/user/\\$/bus", "/run/user/10a/bus", false },
	{ "/x/\\$", "/x/0", true },
	{ "/x/\\$", "/x/-1", false },
	{ "/x/\\$.\\$", "/x/1.22", true },
	{ "/x/\\$.\\$", "/x/1.", false },
	{ "/x/\\$\\$", "/x/1", false },
	{ "/x/\\$\\$", "/x/12", true },
	{ "/x/\\$1", "/x/1", false },
	{ "/x/\\$1", "/x/11", true },
	{ "/x/\\$1", "/x/1231", true },
	{ "/x/\\$", "/x/1\\0402", false },
	{ "/x/\\$", "/x/\\0402", false },

	/* \+: exactly one decimal digit. */
	{ "/dev/sd\\a\\+", "/dev/sdb2", true },
	{ "/dev/sd\\a\\+", "/dev/sdb12", false },
	{ "/dev/sd\\a\\+", "/dev/sdb", false },
	{ "/x/\\+\\+", "/x/42", true },
	{ "/x/\\+\\+", "/x/4", false },
	{ "/x/\\+", "/x/a", false },
	{ "/x/\\+", "/x/9", true },

	/* \x and \X: hex digits, either case. */
	{ "/x/\\x", "/x/f", true },
	{ "/x/\\x", "/x/F", true },
	{ "/x/\\x", "/x/9", true },
	{ "/x/\\x", "/x/g", false },
	{ "/x/\\x", "/x/ff", false },
	{ "/var/cache/\\X", "/var/cache/0xff", false },
	{ "/var/cache/\\X", "/var/cache/0ff", true },
	{ "/x/\\X", "/x/deadBEEF", true },
	{ "/x/\\X", "/x/DEADBEEG", false },
	{ "/x/\\X", "/x/", false },
	{ "/x/\\X-\\X", "/x/a0-ff", true },
	{ "/x/\\X-\\X", "/x/a0-", false },
	{ "/x/\\Xg", "/x/abcg", true },
	{ "/x/\\Xf", "/x/abcf", true },
	{ "/x/\\Xf", "/x/f", false },
	{ "/x/0x\\X", "/x/0x1F", true },

	/* \a and \A: ASCII letters only. */
	{ "/x/\\a", "/x/Q", true },
	{ "/x/\\a", "/x/q", true },
	{ "/x/\\a", "/x/1", false },
	{ "/x/\\a", "/x/ab", false },
	{ "/x/\\a", "/x/\\303\\251", false },
	{ "/x/\\a", "/x/_", false },
	{ "/home/\\A/\\*", "/home/bob/notes", true },
	{ "/home/\\A/\\*", "/home/bob2/notes", false },
	{ "/x/\\A\\$", "/x/abc123", true },
	{ "/x/\\A\\$", "/x/123", false },
	{ "/x/\\A\\$", "/x/abc", false },
	{ "/x/\\A\\a", "/x/ab", true },
	{ "/x/\\A\\a", "/x/a", false },
	{ "/x/\\A", "/x/\\303\\251", false },
	{ "/x/\\A\\X", "/x/zzz1", true },
	{ "/x/\\A\\X", "/x/abc", true },
	{ "/x/\\A\\X", "/x/zz", false },
	/* Back to back variable tokens: where one ends, the next starts. */
	{ "/x/\\x\\X\\A\\a", "/x/fab0Zq", true },
	{ "/x/\\x\\X\\A\\a", "/x/fab0Z", false },
	{ "/x/\\X\\x", "/x/ab", true },
	{ "/x/\\X\\x", "/x/a", false },
	{ "/x/\\$\\$\\$", "/x/123", true },
	{ "/x/\\$\\$\\$", "/x/12", false },
	{ "/x/\\A\\a\\A", "/x/abc", true },
	{ "/x/\\A\\a\\A", "/x/ab", false },
	{ "/x/\\@.\\@.\\@", "/x/a.b.c", true },
	{ "/x/\\@.\\@.\\@", "/x/a.b", false },
	{ "/x/\\$\\A\\$", "/x/1a2", true },
	{ "/x/\\$\\A\\$", "/x/12ab", false },

	/* Escapes are units: no wildcard stops inside one. */
	{ "/srv/\\*\\\\\\*", "/srv/a\\\\b", true },
	{ "/srv/\\*\\\\\\*", "/srv/ab", false },
	{ "/srv/\\*\\\\", "/srv/a\\\\", true },
	{ "/srv/\\\\\\*", "/srv/\\\\\\\\", true },
	{ "/srv/\\*\\040\\*", "/srv/My\\040Music", true },
	{ "/srv/\\*\\040\\*", "/srv/My\\011Music", false },
	{ "/srv/\\*0\\*", "/srv/\\040", false },
	{ "/srv/\\*4\\*", "/srv/\\040", false },
	{ "/srv/\\*0", "/srv/\\0400", true },
	{ "/srv/\\@\\040", "/srv/a\\040", true },
	{ "/srv/\\*\\000", "/srv/abc\\000", true },
	{ "/srv/\\*\\000", "/srv/abc\\001", false },
	{ "/srv/\\\\040\\*", "/srv/\\040", false },
	{ "/srv/\\\\040\\*", "/srv/\\\\040x", true },
	{ "/srv/\\*\\\\", "/srv/\\040", false },
	{ "/srv/\\?\\\\", "/srv/\\\\\\\\", true },

	/* Literal prefix: compared first, may end inside a component. */
	{ "/a\\040\\*", "/a\\040b", true },
	{ "/a\\040\\*", "/a\\040", true },
	{ "/a\\040\\*", "/a\\011", false },
	{ "/a\\\\\\*", "/a\\\\b", true },
	{ "/a\\\\\\*", "/a", false },
	{ "/usr/lib\\*", "/usr/lib64", true },
	{ "/usr/lib\\*", "/usr/li", false },
	{ "/usr/lib\\*", "/usr/bin", false },

	/* Directories need a pattern ending in '/', files one that does not. */
	{ "/tmp/\\*/", "/tmp/x", false },
	{ "/tmp/\\*", "/tmp/x/", false },
	{ "/tmp/x/\\*/", "/tmp/x/y/", true },
	{ "/tmp/\\*/\\*/", "/tmp/a/b/", true },
	{ "/tmp/\\*/\\*/", "/tmp/a/", false },
	{ "/tmp/\\$/", "/tmp/12/", true },

	/* Empty components are components. */
	{ "/tmp/\\*/x", "/tmp//x", true },
	{ "/tmp/\\@/x", "/tmp//x", true },
	{ "/tmp/\\$/x", "/tmp//x", false },
	{ "/tmp/\\*//x", "/tmp/a//x", true },
	{ "/tmp/\\*//x", "/tmp/a/x", false },
	{ "/tmp/\\*/\\*/x", "/tmp///x", true },

	/* Trailing component quirk. */
	{ "/home/\\*/\\*", "/home/bob", true },
	{ "/home/\\*/\\*", "/home/bob/notes", true },
	{ "/home/\\*/\\*", "/home/bob/notes/x", false },
	{ "/home/\\*/\\*/\\*", "/home/bob", false },
	{ "/home/\\*/\\@", "/home/bob", true },
	{ "/home/\\*/\\*\\@\\*", "/home/bob", true },
	{ "/home/\\*/\\$", "/home/bob", false },
	{ "/home/\\*/\\?", "/home/bob", false },
	{ "/home/\\*/x\\*", "/home/bob", false },
	{ "/home/\\*/\\*\\-x", "/home/bob", false },
	{ "/home/\\*/\\*/", "/home/bob/", false },
	{ "/home/\\A/\\*", "/home/bob", true },
	{ "/home/\\*/\\*", "/home/", false },
	{ "/home/\\*/\\*", "/home", false },
	{ "/opt/app\\*", "/opt/app", true },
	{ "/opt/app\\*/\\*", "/opt/app", false },
	{ "/opt/app\\*/\\*", "/opt/appx", true },
	{ "/opt/\\*/\\*", "/opt/app", true },

	/* \- subtraction within one component. */
	{ "/srv/\\*\\-\\*.bak", "/srv/data.bak", false },
	{ "/srv/\\*\\-\\*.bak", "/srv/data.txt", true },
	{ "/srv/\\*\\-\\*.bak", "/srv/.bak", false },
	{ "/srv/\\*\\-\\*.bak\\-\\*.tmp", "/srv/a.tmp", false },
	{ "/srv/\\*\\-\\*.bak\\-\\*.tmp", "/srv/a.bak", false },
	{ "/srv/\\*\\-\\*.bak\\-\\*.tmp", "/srv/a.txt", true },
	{ "/srv/\\*\\-tmp", "/srv/tmp", false },
	{ "/srv/\\*\\-tmp", "/srv/tmp2", true },
	{ "/srv/\\*\\-tmp", "/srv/xtmp", true },
	{ "/srv/\\$\\-0", "/srv/0", false },
	{ "/srv/\\$\\-0", "/srv/00", true },
	{ "/srv/\\$\\-0", "/srv/10", true },
	{ "/srv/\\$\\-0", "/srv/x", false },
	{ "/srv/\\*\\-", "/srv/a", true },
	{ "/srv/\\*\\-/x", "/srv//x", false },
	{ "/srv/\\*\\-/x", "/srv/a/x", true },
	{ "/srv/\\*\\-\\@", "/srv/a.b", true },
	{ "/srv/\\*\\-\\@", "/srv/ab", false },
	{ "/srv/\\-x/y", "/srv//y", true },
	{ "/srv/\\-x/y", "/srv/x/y", false },
	{ "/srv/\\*\\-\\\\", "/srv/\\\\", false },
	{ "/srv/\\*\\-\\\\", "/srv/\\\\\\\\", true },
	{ "/srv/\\*\\-\\040", "/srv/\\040", false },
	{ "/srv/\\*\\-\\040", "/srv/a\\040", true },
	{ "/srv/a\\\\-b\\*", "/srv/a\\\\-bc", true },
	{ "/srv/a\\\\-b\\*", "/srv/ac", false },
	{ "/srv/\\*-\\*", "/srv/a-b", true },
	{ "/srv/\\*-\\*", "/srv/ab", false },

	/* \- after a literal prefix sees only what remains (quirk). */
	{ "/opt/app\\*\\-app.old", "/opt/app.old", true },
	{ "/opt/app\\*\\-.old", "/opt/app.old", false },
	{ "/opt/app\\*\\-.old", "/opt/app", false },
	{ "/opt/app\\*\\-.old", "/opt/app.new", true },
	{ "/opt/app\\*\\-x", "/opt/appx", false },
	{ "/opt/app\\*\\-appx", "/opt/appx", true },
	{ "/opt/app\\-x", "/opt/app", false },
	{ "/opt/app\\-x", "/opt/appx", false },
	{ "/opt/\\*\\-app.old", "/opt/app.old", false },
	{ "/opt/x/app\\*\\-.old", "/opt/x/app.old", false },
	{ "/opt/\\*/app\\*\\-.old", "/opt/x/app.old", true },
	{ "/opt/\\*/app\\*\\-app.old", "/opt/x/app.old", false },
	{ "/opt/a/b\\*\\-\\*c/\\*\\-b\\*", "/opt/a/bx/by", false },
	{ "/opt/a/b\\*\\-\\*c/\\*\\-b\\*", "/opt/a/bx/zz", true },
	{ "/opt/a/b\\*\\-\\*c/\\*\\-b\\*", "/opt/a/bc/zz", false },
	{ "/opt/a/b\\*\\-b\\*/x", "/opt/a/bc/x", true },
	{ "/opt/a/b\\*\\-b\\*/x", "/opt/a/bb/x", false },
	{ "/opt/a/\\*\\-b\\*/x", "/opt/a/bc/x", false },

	/* /\{X\}/: one or more whole components, each followed by '/'. */
	{ "/usr/\\{\\*\\}/bin/\\*", "/usr/local/bin/ls", true },
	{ "/usr/\\{\\*\\}/bin/\\*", "/usr/bin/ls", false },
	{ "/usr/\\{\\*\\}/bin/\\*", "/usr/a/b/c/bin/ls", true },
	{ "/usr/\\{\\*\\}/bin/\\*", "/usr/a/b/c/bin/", false },
	{ "/usr/\\{\\*\\}/bin/\\*", "/usr/local/sbin/ls", false },
	{ "/usr/\\{\\*\\}/", "/usr/a/", true },
	{ "/usr/\\{\\*\\}/", "/usr/a/b/", true },
	{ "/usr/\\{\\*\\}/", "/usr/", false },
	{ "/usr/\\{\\*\\}/", "/usr/a", false },
	{ "/usr/\\{\\*\\-games\\}/\\*", "/usr/games/x", false },
	{ "/usr/\\{\\*\\-games\\}/\\*", "/usr/share/games/x", false },
	{ "/usr/\\{\\*\\-games\\}/\\*", "/usr/share/x", true },
	{ "/usr/\\{\\*\\-games\\}/\\*", "/usr/share/doc/x", true },
	{ "/usr/\\{\\*\\-games\\}/\\*", "/usr/share/games", true },
	{ "/\\{\\}/x", "//x", true },
	{ "/\\{\\}/x", "///x", true },
	{ "/\\{\\}/x", "/x", false },
	{ "/\\{\\}/x", "/a/x", false },
	{ "/a/\\{\\$\\}/b", "/a/1/22/b", true },
	{ "/a/\\{\\$\\}/b", "/a/1/x/b", false },
	{ "/a/\\{\\$\\}/b", "/a/b", false },
	{ "/a/\\{\\$\\}/\\$", "/a/1/2", true },
	{ "/a/\\{\\$\\}/\\$", "/a/1", false },
	{ "/a/\\{\\*\\}/\\*", "/a/b", false },
	{ "/a/\\{\\*\\}/\\*", "/a/b/", false },
	{ "/a/\\{\\*\\}/\\*", "/a/b/c", true },
	{ "/a/\\{\\*\\}/\\*/", "/a/b/c/", true },
	{ "/a/\\{\\*\\}/\\{\\*\\}/x", "/a/b/x", false },
	{ "/a/\\{\\*\\}/\\{\\*\\}/x", "/a/b/c/x", true },
	{ "/a/\\{\\*\\}/\\{\\*\\}/x", "/a/b/c/d/x", true },
	{ "/a/\\{x\\}/y", "/a/x/x/y", true },
	{ "/a/\\{x\\}/y", "/a/x/y/y", false },
	{ "/a/\\{\\*\\}/b/\\*", "/a/b/b/c", true },
	{ "/a/\\{\\*\\}/b/\\*", "/a/b/c", false },
	{ "/a/\\{.\\*\\}/x", "/a/.git/.hg/x", true },
	{ "/a/\\{.\\*\\}/x", "/a/.git/hg/x", false },
	{ "/a/\\{\\*\\}/\\*.c", "/a/b/c/d.c", true },
	{ "/a/\\{\\*\\}/\\*/\\*", "/a/b/c", true },
	{ "/\\{\\*\\}/x", "/a/x", true },
	{ "/\\{\\*\\}/x", "/x", false },
	{ "/\\{\\*\\}/x", "/a/b/c/x", true },
	{ "/\\{\\@\\}/x", "/a/b.c/x", false },
	{ "/\\{\\?\\}/x", "/a/\\040/x", true },
	{ "/\\{\\?\\}/x", "/a/bc/x", false },
	{ "/\\{\\*\\}/x/\\{\\*\\}/y", "/a/x/b/x/c/y", true },
	{ "/\\{\\*\\}/x/\\{\\*\\}/y", "/a/x/y", false },
	/* A group tried after an empty component that failed the next one. */
	{ "/\\{\\*\\}/\\{\\$\\}/z", "/a//1/z", true },
	{ "/\\{\\*\\}/\\{\\$\\}/z", "/a//x/z", false },

	/* Pseudo file systems and names without a leading '/'. */
	{ "proc:/self/fd/\\$", "proc:/self/fd/12", true },
	{ "proc:/self/fd/\\$", "proc:/self/fd/", false },
	{ "proc:/\\$/fd/\\$", "proc:/123/fd/4", true },
	{ "proc:/\\$/fd/\\$", "proc:/self/fd/4", false },
	{ "pipe:[\\$]", "pipe:[4026532]", true },
	{ "pipe:[\\$]", "pipe:[]", false },
	{ "socket:[\\$]", "socket:[123]", true },
	{ "socket:[\\$]", "pipe:[123]", false },
	{ "dev(\\$,\\$):/\\*", "dev(8,1):/x", true },
	{ "dev(\\$,\\$):/\\*", "dev(8,):/x", false },
	{ "tmpfs:/\\*", "tmpfs:/x", true },
	{ "/var/log/\\*.\\$", "/var/log/syslog.1", true },
	{ "/var/log/\\*.\\$", "/var/log/syslog.1.gz", false },
};

/* The same pattern/name pairs must hold for interned names. */
static void test_match_table(void **state)
{
	struct hm_names *t = hm_names_new(NULL);
	unsigned int failures = 0;

	(void)state;
	assert_non_null(t);
	for (size_t i = 0; i < HM_ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];
		const struct hm_name *np;
		const struct hm_name *pp;
		bool got = hm_path_matches_str(c->name, c->pattern);
		bool ok = hm_word_is_valid(c->pattern, strlen(c->pattern)) &&
			  hm_word_is_valid(c->name, strlen(c->name)) &&
			  !hm_word_is_patterned(c->name, strlen(c->name), NULL);

		assert_int_equal(hm_name_intern_str(t, c->name, &np), 0);
		assert_int_equal(hm_name_intern_str(t, c->pattern, &pp), 0);
		if (!ok || got != c->match || hm_path_matches(np, pp) != got ||
		    !hm_path_matches(np, np)) {
			print_error("match case %zu: pattern %s name %s: "
				    "want %d got %d%s\n", i, c->pattern,
				    c->name, c->match, got,
				    ok ? "" : " (bad test row)");
			failures++;
		}
	}
	hm_names_free(t);
	assert_int_equal(failures, 0);
}

struct valid_case {
	const char *word;
	bool word_ok;
	bool path_ok;
};

#define STARS5 "\\*\\*\\*\\*\\*"
#define GROUP "/\\{\\*\\}"

static const struct valid_case valid_cases[] = {
	{ "/etc/passwd", true, true },
	{ "", false, false },
	{ "/", true, true },
	{ "a", true, false },
	{ "~", true, false },
	/* Raw bytes outside 0x21-0x7e. */
	{ "/a b", false, false },
	{ " /a", false, false },
	{ "/a ", false, false },
	{ "/a\tb", false, false },
	{ "/a\nb", false, false },
	{ "/a\rb", false, false },
	{ "/a\x01", false, false },
	{ "/a\x1f", false, false },
	{ "/a\x7f", false, false },
	{ "/a\x80", false, false },
	{ "/a\xff", false, false },
	{ "/\xc3\xa9", false, false },
	/* Backslashes. */
	{ "/a\\", false, false },
	{ "\\", false, false },
	{ "/a\\\\", true, true },
	{ "/a\\\\\\", false, false },
	{ "\\\\", true, false },
	{ "/a\\q", false, false },
	{ "/a\\n", false, false },
	{ "/a\\t", false, false },
	{ "/a\\.", false, false },
	{ "/a\\/", false, false },
	{ "/a\\ ", false, false },
	{ "/a\\b", false, false },
	{ "/a\\B", false, false },
	{ "/a\\Z", false, false },
	{ "/a\\%", false, false },
	{ "/a\\(", false, false },
	{ "/a\\x7f", true, true },	/* \x then "7f" */
	/* \ooo. */
	{ "/a\\4", false, false },
	{ "/a\\400", false, false },
	{ "/a\\777", false, false },
	{ "/a\\8", false, false },
	{ "/a\\0", false, false },
	{ "/a\\00", false, false },
	{ "/a\\008", false, false },
	{ "/a\\080", false, false },
	{ "/a\\0a0", false, false },
	{ "/a\\000", true, true },
	{ "/a\\001", true, true },
	{ "/a\\037", true, true },
	{ "/a\\040", true, true },
	{ "/a\\041", false, false },
	{ "/a\\056", false, false },
	{ "/a\\057", false, false },
	{ "/a\\101", false, false },
	{ "/a\\134", false, false },
	{ "/a\\176", false, false },
	{ "/a\\177", true, true },
	{ "/a\\200", true, true },
	{ "/a\\377", true, true },
	{ "/a\\0400", true, true },
	{ "\\040/", true, true },
	/* Every wildcard token. */
	{ "/a\\*", true, true },
	{ "/a\\@", true, true },
	{ "/a\\?", true, true },
	{ "/a\\$", true, true },
	{ "/a\\+", true, true },
	{ "/a\\x", true, true },
	{ "/a\\X", true, true },
	{ "/a\\a", true, true },
	{ "/a\\A", true, true },
	{ "/a\\-", true, true },
	{ "/a\\-b\\-c", true, true },
	{ "\\-", true, false },
	/* \{ \} placement and pairing. */
	{ "/a/\\{\\*\\}/b", true, true },
	{ "/srv/\\{\\*\\}/x", true, true },
	{ "/a\\{\\*\\}/b", false, false },
	{ "/srv\\{x\\}/y", false, false },
	{ "/a/\\{\\*\\}", false, false },
	{ "/srv/\\{x\\}", false, false },
	{ "/a/\\{\\*\\}b/", false, false },
	{ "/a/\\{a/b\\}/", false, false },
	{ "/srv/\\{a/b\\}/x", false, false },
	{ "/a/\\{\\*/", false, false },
	{ "/a/\\{\\*", false, false },
	{ "/a/\\{", false, false },
	{ "/a/\\}/", false, false },
	{ "/a/\\}", false, false },
	{ "/a/\\{\\}/", true, true },
	{ "/\\{\\*\\}/\\{\\*\\}/", true, true },
	{ "\\{x\\}/", false, false },
	{ "/\\{\\{x\\}\\}/", false, false },
	{ "/\\{/\\{x\\}/\\}/", false, false },
	{ "/a/\\{\\*\\}/\\}/", false, false },
	{ "/a/\\{\\*\\-x\\}/", true, true },
	{ "/a/\\{x\\}//", true, true },
	{ "//\\{x\\}/", true, true },
	/* At most 20 of \* \@ \$ \X \A \{ \}; /\{\*\}/ uses 3. */
	{ "/" STARS5 STARS5 STARS5 STARS5, true, true },
	{ "/" STARS5 STARS5 STARS5 STARS5 "\\*", false, false },
	{ "/" STARS5 STARS5 STARS5 STARS5 "\\?\\?\\?\\+\\x\\a\\-", true, true },
	{ "/\\@\\@\\@\\@\\@\\$\\$\\$\\$\\$\\X\\X\\X\\X\\X\\A\\A\\A\\A\\A", true,
	  true },
	{ "/\\@\\@\\@\\@\\@\\$\\$\\$\\$\\$\\X\\X\\X\\X\\X\\A\\A\\A\\A\\A\\$",
	  false, false },
	{ GROUP GROUP GROUP GROUP GROUP GROUP "/\\*\\*", true, true },
	{ GROUP GROUP GROUP GROUP GROUP GROUP "/\\*\\*\\*", false, false },
	{ GROUP GROUP GROUP GROUP GROUP GROUP GROUP "/x", false, false },
	{ "/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/"
	  "\\{\\}/x", true, true },
	{ "/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/\\{\\}/"
	  "\\{\\}/\\{\\}/x", false, false },
	/* Paths: a '/', and the first '/' before the first '.'. */
	{ "pipe:[1]", true, false },
	{ "a.b/c", true, false },
	{ "./x", true, false },
	{ ".x/", true, false },
	{ "proc:/self/exe", true, true },
	{ "dev(8,1):/sbin/init", true, true },
	{ "/a.b", true, true },
	{ "x/y", true, true },
	{ "x/.y", true, true },
	{ "a\\040.b/", true, false },
	{ "\\*/x", true, true },
	{ "\\*.x/y", true, false },
	{ "/a b/", false, false },
};

static void test_valid_table(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(valid_cases); i++) {
		const struct valid_case *c = &valid_cases[i];
		size_t len = strlen(c->word);
		bool w = hm_word_is_valid(c->word, len);
		bool p = hm_path_is_valid(c->word, len);
		char buf[128];
		const char *why = hm_word_why_invalid(c->word, len, buf,
						      sizeof(buf));

		if (w != c->word_ok || p != c->path_ok || (why == NULL) != w) {
			print_error("valid case %zu: \"%s\": want word %d path "
				    "%d, got %d %d (%s)\n", i, c->word,
				    c->word_ok, c->path_ok, w, p,
				    why ? why : "no reason");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* Lengths, not C strings: a NUL byte is a raw byte like any other. */
static void test_valid_with_nul(void **state)
{
	(void)state;
	assert_false(hm_word_is_valid("/a\0b", 4));
	assert_true(hm_word_is_valid("/a\0b", 2));
	assert_false(hm_path_is_valid("/a\0", 3));
	assert_false(hm_domainname_is_valid("<kernel>\0", 9));
	assert_true(hm_word_is_valid("/a\\*\\", 4));
	assert_false(hm_word_is_valid("/a\\*\\", 5));
	assert_false(hm_word_is_valid("/a/\\{x\\}/", 8));
	assert_false(hm_word_is_valid("/a\\040", 5));
}

struct domain_case {
	const char *domain;
	bool ok;
};

static const struct domain_case domain_cases[] = {
	{ "<kernel>", true },
	{ "<kernel> /sbin/init /usr/sbin/sshd", true },
	{ "<kernel> /sbin/init", true },
	{ "<kernel>  /x", false },
	{ "<kernel> /x  /y", false },
	{ " <kernel>", false },
	{ "<kernel> ", false },
	{ "<kernel> /x ", false },
	{ "<kernel> pipe:[1]", false },
	{ "<kernel> a.b/c", false },
	{ "<kernel> proc:/self/exe", true },
	{ "<kernel> /usr/bin/\\*", true },
	{ "<kernel> /\\{\\*\\}/x", true },
	{ "<kernel> /a\\q", false },
	{ "<kernel> /a\\040b", true },
	{ "<kernel>\t/x", false },
	{ "<kernel>/sbin/init", false },
	{ "<kernel> /sbin/init>", true },
	{ "", false },
	{ "<>", false },
	{ "<> /x", false },
	{ "<", false },
	{ ">", false },
	{ "kernel", false },
	{ "<kernel", false },
	{ "kernel>", false },
	{ "<k e>", false },
	{ "<k\\*>", true },
	{ "<\\040>", true },
	{ "<a<b>>", true },
	{ "<a\\>", false },
	{ "<kernel> /" STARS5 STARS5 STARS5 STARS5, true },
	{ "<kernel> /" STARS5 STARS5 STARS5 STARS5 "\\*", false },
	{ "<kernel> /x /y /z /w", true },
};

static void test_domain_table(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(domain_cases); i++) {
		const struct domain_case *c = &domain_cases[i];
		bool got = hm_domainname_is_valid(c->domain,
						  strlen(c->domain));

		if (got != c->ok) {
			print_error("domain case %zu: \"%s\": want %d\n", i,
				    c->domain, c->ok);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

struct why_case {
	const char *word;
	const char *reason;	/* substring of the message */
};

static const struct why_case why_cases[] = {
	{ "", "empty" },
	{ "/a b", "raw byte 0x20 at offset 2 (write it as \\040)" },
	{ "/\xc3\xa9", "raw byte 0xc3 at offset 1 (write it as \\303)" },
	{ "/a\\q", "bad escape \\q at offset 2" },
	{ "/a\\", "lone '\\' at the end of the word at offset 2" },
	{ "/ab\\101", "\\101 at offset 3 is 'A'" },
	{ "/ab\\134", "\\134: write a backslash as \\\\ at offset 3" },
	{ "/a\\08", "bad octal escape at offset 2" },
	{ "/a\\4xx", "bad escape \\4 at offset 2" },
	{ "/a\\{x\\}/", "\\{ must come right after '/' at offset 2" },
	{ "/a/\\{x\\}", "\\} must come right before '/' at offset 6" },
	{ "/a/\\}/", "\\} without \\{ at offset 3" },
	{ "/a/\\{x/", "'/' inside \\{ \\} at offset 6" },
	{ "/a/\\{x", "\\{ without \\} at offset 3" },
	{ "/" STARS5 STARS5 STARS5 STARS5 "\\*", "more than 20 wildcards" },
	{ "/" STARS5 STARS5 STARS5 STARS5 "\\*", "at offset 41" },
	{ "/a\\*\\q", "bad escape \\q at offset 4" },
};

static void test_why_table(void **state)
{
	unsigned int failures = 0;
	char buf[128];

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(why_cases); i++) {
		const struct why_case *c = &why_cases[i];
		const char *why = hm_word_why_invalid(c->word, strlen(c->word),
						      buf, sizeof(buf));

		if (!why || !strstr(why, c->reason)) {
			print_error("why case %zu: \"%s\": want \"%s\", got "
				    "\"%s\"\n", i, c->word, c->reason,
				    why ? why : "(valid)");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void test_why_buffers(void **state)
{
	char small[8];
	const char *why;

	(void)state;
	assert_null(hm_word_why_invalid("/ok", 3, small, sizeof(small)));
	why = hm_word_why_invalid("/a\\q", 4, NULL, 0);
	assert_string_equal(why, "bad escape");
	why = hm_word_why_invalid("/a\\q", 4, small, sizeof(small));
	assert_ptr_equal(why, small);
	assert_int_equal(strlen(why), sizeof(small) - 1);
	assert_true(!strncmp(why, "bad esc", 7));
}

/*
 * Hostile patterns that make naive backtracking exponential; with the
 * bounded search each is a few milliseconds at most.  A regression shows
 * as a test that never ends (ctest's timeout fails it).
 */
struct hostile_case {
	const char *head;
	const char *unit;
	unsigned int n;
	const char *tail;
	const char *name_head;
	const char *name_unit;
	unsigned int name_n;
	const char *name_tail;
	bool match;
};

static const struct hostile_case hostile_cases[] = {
	{ "/", "\\*a", 19, "\\*b", "/", "a", 3000, "", false },
	{ "/", "\\*a", 19, "\\*b", "/", "a", 3000, "b", true },
	{ "/", "\\*a", 19, "\\*b", "/", "a", 18, "b", false },
	{ "/", "\\*a", 19, "\\*b", "/", "a", 19, "b", true },
	{ "/", "\\@\\*", 10, "b", "/", "a.", 2000, "", false },
	{ "/", "\\@\\*", 10, "b", "/", "a.", 2000, "b", true },
	{ "/", "\\$1", 19, "\\$2", "/", "1", 3000, "", false },
	{ "/", "\\$1", 19, "\\$2", "/", "1", 3000, "2", true },
	{ "/", "\\$1", 19, "\\$2", "/", "1", 38, "2", false },
	{ "/", "\\$1", 19, "\\$2", "/", "1", 39, "2", true },
	{ "/", "\\?\\*", 19, "q", "/", "\\040", 2000, "", false },
	{ "/", "\\?\\*", 19, "q", "/", "\\040", 2000, "q", true },
	{ "", "/\\{\\*\\}", 6, "/x", "", "/a", 2000, "/y", false },
	{ "", "/\\{\\*\\}", 6, "/x", "", "/a", 2000, "/x", true },
	{ "", "/\\{\\*\\}", 6, "/x", "", "/a", 5, "/x", false },
	{ "", "/\\{\\}", 10, "/x", "", "/", 3000, "y", false },
	{ "", "/\\{\\}", 10, "/x", "", "/", 3000, "x", true },
	{ "", "/\\{\\*a\\*a\\*\\}", 2, "/\\*a\\*a\\*a\\*b", "",
	  "/aaaaaaaa", 300, "/aaaaaaa", false },
	{ "", "/\\{\\*a\\*a\\*\\}", 2, "/\\*a\\*a\\*a\\*b", "",
	  "/aaaaaaaa", 300, "/aaab", true },
	{ "/\\*", "\\-\\*a\\*b", 6, "", "/", "ab", 3000, "", false },
	{ "/\\*", "\\-\\*a\\*b", 6, "", "/", "ba", 3000, "", true },
};

static char *repeat(const char *head, const char *unit, unsigned int n,
		    const char *tail)
{
	size_t len = strlen(head) + strlen(unit) * n + strlen(tail) + 1;
	char *s = malloc(len);

	assert_non_null(s);
	strcpy(s, head);
	for (unsigned int i = 0; i < n; i++)
		strcat(s, unit);
	strcat(s, tail);
	return s;
}

static void test_hostile_table(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(hostile_cases); i++) {
		const struct hostile_case *c = &hostile_cases[i];
		char *p = repeat(c->head, c->unit, c->n, c->tail);
		char *n = repeat(c->name_head, c->name_unit, c->name_n,
				  c->name_tail);

		if (!hm_word_is_valid(p, strlen(p)) ||
		    hm_path_matches_str(n, p) != c->match) {
			print_error("hostile case %zu: want %d\n", i,
				    c->match);
			failures++;
		}
		free(p);
		free(n);
	}
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_valid_table),
		cmocka_unit_test(test_valid_with_nul),
		cmocka_unit_test(test_domain_table),
		cmocka_unit_test(test_why_table),
		cmocka_unit_test(test_why_buffers),
		cmocka_unit_test(test_hostile_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
