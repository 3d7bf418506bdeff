// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_patternize.c - patternize's suggestions on the names of issue 25:
 * which names become a rewrite rule and to what, and which programs get
 * initialize_domain.  Existence on disk is checked under an empty
 * directory (every name is gone) or not at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy_fixture.h"

#include "histmac/patternize.h"
#include "histmac/policy_io.h"
#include "histmac/sensitive.h"

#define D "<kernel>\nuse_profile 1\n\n"
/* A timestamp's digits, one \+ each */
#define T2 "\\+\\+"
#define T4 T2 T2
#define T8 T4 T4

static const struct {
	const char *what;
	const char *policy;	/* domain policy */
	size_t min;
	bool gone;		/* every name is absent from the disk */
	const char *want;	/* the suggestions, "\n"-joined; "" none */
} cases[] = {
	{ "a letters+digits stem varies: r\\$",
	  D "file read /s/r18.txt\nfile read /s/r19.txt\nfile read /s/r20.txt\n",
	  3, false, "/s/r\\$.txt" },
	{ "a stem that never varies stays (python3, apache2)",
	  D "file read /usr/bin/python3\nfile read /etc/apache2/a\n"
	  "file read /etc/apache2/b\n", 3, true, "" },
	{ "one fixed name with a word suffix is not a temporary file",
	  D "file read /run/fcgiwrap.socket\n", 3, true, "" },
	{ "one gone mkstemp() name is",
	  D "file read /tmp/tmp.RzStSQwzSU\n", 3, true, "/tmp/tmp.\\*" },
	{ "a run's letter goes with its number (the next period's differs)",
	  D "file read /s/up-L-1.dat\nfile read /s/up-L-2.dat\n"
	  "file read /s/up-L-3.dat\n", 3, false, "/s/up-\\a-\\$.dat" },
	{ "a period letter that varies is \\a",
	  D "file read /s/up-L-1.dat\nfile read /s/up-M-2.dat\n"
	  "file read /s/up-N-3.dat\n", 3, false, "/s/up-\\a-\\$.dat" },
	{ "a date from one rotation that is gone",
	  D "file read /l/access.log-20261201\n", 3, true, "/l/access.log-" T8 },
	{ "a date on disk needs a second rotation: held for review",
	  D "file read /l/access.log-20261201\n", 3, false,
	  "review /l/access.log-" T8 },
	{ "epoch seconds from two names",
	  D "file read /l/e-1796500000.log\nfile read /l/e-1796600000.log\n",
	  3, false, "/l/e-" T8 T2 ".log" },
	{ "two numbers are fewer than --min 3",
	  D "file read /l/x.1\nfile read /l/x.2\n", 3, false, "" },
	{ "only the part that varies is generalized",
	  D "file read /l/x86_64-1.log\nfile read /l/x86_64-2.log\n"
	  "file read /l/x86_64-3.log\n", 3, false, "/l/x86_64-\\$.log" },
	{ "a date from two rotations on disk",
	  D "file read /l/access.log-20261201\nfile read /l/access.log-20261202\n",
	  3, false, "/l/access.log-" T8 },
	{ "one fixed name on disk is not generalized either",
	  D "file read /run/fcgiwrap.socket\n", 3, false, "" },
	{ "a mail filter's mktemp names kept on disk, three of them",
	  D "file read /h/mail/order/in.0zcgdX\nfile read /h/mail/order/in.Rt5aQp\n"
	  "file read /h/mail/order/in.x9Kd2L\nfile read /h/mail/news/in.Ab3dEf\n",
	  3, false, "/h/mail/order/in.\\*" },
	{ "a locale's files on disk are words, not mktemp names",
	  D "file read /l/C.utf8/LC_ADDRESS\nfile read /l/C.utf8/LC_CTYPE\n"
	  "file read /l/C.utf8/LC_IDENTIFICATION\nfile read /l/C.utf8/LC_TIME\n",
	  3, false, "" },
	{ "two mktemp names on disk are fewer than --min 3",
	  D "file read /h/mail/order/in.0zcgdX\nfile read /h/mail/order/in.Rt5aQp\n",
	  3, false, "" },
	{ "postfix's incoming/USEC.PID of one cleanup, gone: the pid too",
	  D "file read /q/incoming/437975.28396\nfile read /q/incoming/530146.28396\n"
	  "file read /q/incoming/560350.28396\n", 3, true, "/q/incoming/\\$.\\$" },
	{ "the same names on disk: only what varies",
	  D "file read /q/incoming/437975.28396\nfile read /q/incoming/530146.28396\n"
	  "file read /q/incoming/560350.28396\n", 3, false,
	  "/q/incoming/\\$.28396" },
	{ "a fixed number before the one that varies stays, names gone",
	  D "file read /l/x86_64-1.log\nfile read /l/x86_64-2.log\n"
	  "file read /l/x86_64-3.log\n", 3, true, "/l/x86_64-\\$.log" },
	{ "a fixed number of two gone names stays (fewer than --min)",
	  D "file read /q/incoming/437975.28396\nfile read /q/incoming/530146.28396\n",
	  3, true, "" },
	{ "mktemp -d's directories with files below: the directory too",
	  D "file read /k/dl.0zcgdX/doc-1.txt\nfile read /k/dl.0zcgdX/doc-7.txt\n"
	  "file read /k/dl.Rt5aQp/doc-2.txt\nfile read /k/dl.x9Kd2L/doc-3.txt\n",
	  3, false, "/k/dl.\\*/doc-\\$.txt" },
	{ "a random directory that stays is kept, its files generalized",
	  D "file read /k/c.Ab3dEf/doc-1.txt\nfile read /k/c.Ab3dEf/doc-2.txt\n"
	  "file read /k/c.Ab3dEf/doc-3.txt\n", 3, true, "/k/c.Ab3dEf/doc-\\$.txt" },
	{ "one gone configuration directory is not widened",
	  D "file read /etc/app/conf.Ab3dEf/main.cf\n", 3, true, "" },
	{ "two random directories are fewer than --min 3, gone or not",
	  D "file read /k/dl.aB3xYz/doc.txt\nfile read /k/dl.Q9wErT/doc.txt\n",
	  3, true, "" },
	{ "one gone random name alone is no temporary file (a failed connect)",
	  D "file read /e/Xq7Rb2Kd\n", 3, true, "" },
	{ "nor is a gone random hex name alone",
	  D "file read /e/9f8e7d6c5b4a\n", 3, true, "" },
	{ "one made and removed in the trail is",
	  D "file create /e/Xq7Rb2Kd 0600\nfile unlink /e/Xq7Rb2Kd\n", 3, true,
	  "/e/\\*" },
	{ "made alone is not a temporary life",
	  D "file create /e/Xq7Rb2Kd 0600\nfile read /e/Xq7Rb2Kd\n", 3, true,
	  "" },
	{ "random names that vary in /etc would cover /etc/shadow",
	  D "file read /etc/Ab3dEfGh\nfile read /etc/Xq7Rb2Kd\n"
	  "file read /etc/Pq9Zt4Mw\n", 3, false, "refused /etc/\\*" },
	{ "a sensitive name never motivates a rule",
	  D "file read /etc/ssl/private/k1.pem\nfile read /etc/ssl/private/k2.pem\n"
	  "file read /etc/ssl/private/k3.pem\n", 3, false,
	  "refused /etc/ssl/private/k\\$.pem" },
	{ "logrotate's dateext with a time of day: the stamp whole",
	  D "file read /l/postfix.log.20261207-084757\n"
	  "file read /l/postfix.log.20261208-084757\n", 3, false,
	  "/l/postfix.log." T8 "-" T4 T2 },
	{ "a backup of two runs of one day: the date too (tomorrow's differs)",
	  D "file read /b/data-20261207-1.tar.gz\nfile read /b/data-20261207-2.tar.gz\n"
	  "file read /b/data-20261207-3.tar.gz\n", 3, false,
	  "/b/data-" T8 "-\\$.tar.gz" },
	{ "a date with dashes and a time with colons, two samples",
	  D "file read /r/report-2026-12-07T03:00:01.txt\n"
	  "file read /r/report-2026-12-08T03:00:02.txt\n", 3, false,
	  "/r/report-" T4 "-" T2 "-" T2 "T" T2 ":" T2 ":" T2 ".txt" },
	{ "a date and hhmm after '_'",
	  D "file read /b/db_2026_12_07_0300.sql\nfile read /b/db_2026_12_08_0300.sql\n",
	  3, false, "/b/db_" T4 "_" T2 "_" T2 "_" T4 ".sql" },
	{ "not a date: a month 13, a version",
	  D "file read /v/app-2026-13-07.cfg\nfile read /v/app-2026-13-08.cfg\n",
	  3, false, "" },
	{ "logrotate's counter: a log's two names, one compressed",
	  D "file read /var/log/syslog.1\nfile read /var/log/syslog.2.gz\n",
	  3, false, "/var/log/syslog.\\$\n/var/log/syslog.\\$.gz" },
	{ "logrotate's counter: one name a rotation renamed",
	  D "file rename /var/log/dpkg.log /var/log/dpkg.log.1\n"
	  "file read /var/log/dpkg.log.1\n", 3, false, "/var/log/dpkg.log.\\$" },
	{ "a log's counter of one name and no rename: held for review",
	  D "file read /var/log/dpkg.log.1\n", 3, false,
	  "review /var/log/dpkg.log.\\$" },
	{ "a library's two sonames are no rotation (fewer than --min)",
	  D "file read /usr/lib/libfoo.so.1\nfile read /usr/lib/libfoo.so.2\n",
	  3, false, "" },
	{ "a manual page is no rotation",
	  D "file read /usr/share/man/man1/ls.1.gz\n", 3, false, "" },
	{ "dateext: one name a rotation renamed",
	  D "file rename /srv/app/app.log /srv/app/app.log-20261207\n", 3, false,
	  "/srv/app/app.log-" T8 },
	{ "dateext: a compressed and a plain rotation are one family",
	  D "file read /var/log/syslog-20261206.gz\nfile read /var/log/syslog-20261207\n",
	  3, false, "/var/log/syslog-" T8 ".gz\n/var/log/syslog-" T8 },
	{ "a date and time without separators, two samples",
	  D "file read /b/x-20261207084757.bin\nfile read /b/x-20261208084801.bin\n",
	  3, false, "/b/x-" T8 T4 T2 ".bin" },
	{ "epoch milliseconds, two samples",
	  D "file read /b/s-1796500000123.db\nfile read /b/s-1796600000456.db\n",
	  3, false, "/b/s-" T8 T4 "\\+.db" },
	{ "a cron backup's date and hhmm of one name on disk: held",
	  D "file create /b/data-20261207-1733.tar.gz 0644\n", 3, false,
	  "review /b/data-" T8 "-" T4 ".tar.gz" },
	{ "a run's letter that changes, two names",
	  D "file read /s/up-L-1.dat\nfile read /s/up-M-1.dat\n", 3, false,
	  "/s/up-\\a-\\$.dat" },
	{ "a run's number that changes, two names: its letter too",
	  D "file read /s/up-L-1.dat\nfile read /s/up-L-2.dat\n", 3, false,
	  "/s/up-\\a-\\$.dat" },
	{ "one run's name is not generalized",
	  D "file read /s/up-L-1.dat\n", 3, false, "" },
	{ "one-letter names are no run's letters",
	  D "file read /s/a\nfile read /s/b\n", 3, false, "" },
	{ "a key's timestamp is refused, not held",
	  D "file read /etc/ssl/private/k-20261207.pem\n"
	  "file read /etc/ssl/private/k-20261208.pem\n", 3, false,
	  "refused /etc/ssl/private/k-" T8 ".pem" },
	{ "names a domain chose in a directory it writes: held for review",
	  D "file create /srv/notes/groceries.txt 0644\nfile create /srv/notes/todo.txt 0644\n"
	  "file create /srv/notes/ideas.txt 0644\nfile create /srv/notes/books.txt 0644\n"
	  "file read /srv/notes/films.txt\nfile read /srv/notes/plan-b.txt\n",
	  3, false, "review /srv/notes/\\*.txt" },
	{ "their common prefix up to a separator stays",
	  D "file create /srv/n/note-a1.md 0644\nfile create /srv/n/note-bob.md 0644\n"
	  "file create /srv/n/note-cat.md 0644\nfile create /srv/n/note-dog.md 0644\n"
	  "file create /srv/n/note-eel.md 0644\nfile create /srv/n/note-fox.txt 0644\n",
	  3, false, "review /srv/n/note-\\*" },
	{ "five names are fewer than twice --min",
	  D "file create /srv/notes/a1.txt 0644\nfile create /srv/notes/b2x.txt 0644\n"
	  "file create /srv/notes/cq.txt 0644\nfile create /srv/notes/dz.txt 0644\n"
	  "file create /srv/notes/ex.txt 0644\n", 3, false, "" },
	{ "names it only reads are not its own directory's",
	  D "file read /srv/notes/groceries.txt\nfile read /srv/notes/todo.txt\n"
	  "file read /srv/notes/ideas.txt\nfile read /srv/notes/books.txt\n"
	  "file read /srv/notes/films.txt\nfile read /srv/notes/plan-b.txt\n",
	  3, false, "" },
	{ "never in a user's home",
	  D "file create /home/ann/n/groceries.txt 0644\nfile create /home/ann/n/todo.txt 0644\n"
	  "file create /home/ann/n/ideas.txt 0644\nfile create /home/ann/n/books.txt 0644\n"
	  "file create /home/ann/n/films.txt 0644\nfile create /home/ann/n/plan-b.txt 0644\n",
	  3, false, "" },
	{ "never where a name is a credential",
	  D "file create /etc/ssl/private/web.pem 0600\nfile create /etc/ssl/private/db.pem 0600\n"
	  "file create /etc/ssl/private/api.pem 0600\nfile create /etc/ssl/private/vpn.pem 0600\n"
	  "file create /etc/ssl/private/ldap.pem 0600\nfile create /etc/ssl/private/mx.pem 0600\n",
	  3, false, "" },
	{ "refused where the widening covers a credential",
	  D "file create /etc/ssh/alpha 0644\nfile create /etc/ssh/beta 0644\n"
	  "file create /etc/ssh/gamma 0644\nfile create /etc/ssh/delta 0644\n"
	  "file create /etc/ssh/epsilon 0644\nfile create /etc/ssh/zeta 0644\n",
	  3, false, "refused /etc/ssh/\\*" },
	{ "names a counter rule covers are no user's choice",
	  D "file create /srv/q/job-1.out 0644\nfile create /srv/q/job-2.out 0644\n"
	  "file create /srv/q/job-3.out 0644\nfile create /srv/q/job-4.out 0644\n"
	  "file create /srv/q/job-5.out 0644\nfile create /srv/q/job-6.out 0644\n",
	  3, false, "/srv/q/job-\\$.out" },
	{ "a name seen in two domains is suggested once",
	  D "file read /l/x.1\nfile read /l/x.2\nfile read /l/x.3\n\n"
	  "<kernel> /a\nuse_profile 1\n\nfile read /l/x.1\nfile read /l/x.4\n",
	  3, false, "/l/x.\\$" },
};

#define S "use_profile 1\n\n"
/* sshd: by an init script through start-stop-daemon (which starts cron
 * for another script: a helper), by env, and by itself at a reload;
 * cron: by its init script through start-stop-daemon alone (a daemon);
 * sendmail: run by cron for its mail, and by a shell older than the log;
 * service: starts init scripts through env. */
static const char services[] =
	"<kernel> /etc/init.d/ssh\n" S "file execute /sbin/start-stop-daemon\n\n"
	"<kernel> /etc/init.d/ssh /sbin/start-stop-daemon\n" S
	"file execute /usr/sbin/sshd\n\n"
	"<kernel> /etc/init.d/ssh /sbin/start-stop-daemon /usr/sbin/sshd\n" S
	"file execute /usr/sbin/sshd\n\n"
	"<kernel> /etc/init.d/ssh /sbin/start-stop-daemon /usr/sbin/sshd /usr/sbin/sshd\n" S
	"file execute /usr/bin/bash\n\n"
	"<kernel> /etc/init.d/cron\n" S "file execute /sbin/start-stop-daemon\n\n"
	"<kernel> /etc/init.d/cron /sbin/start-stop-daemon\n" S
	"file execute /usr/sbin/cron\n\n"
	"<kernel> /etc/init.d/cron /sbin/start-stop-daemon /usr/sbin/cron\n" S
	"file execute /usr/sbin/sendmail\nfile execute /usr/bin/sh\n\n"
	"<kernel> /etc/init.d/cron /sbin/start-stop-daemon /usr/sbin/cron /usr/sbin/sendmail\n" S
	"file execute /usr/sbin/postdrop\n\n"
	"<kernel> /usr/sbin/sendmail\n" S "file execute /usr/sbin/postdrop\n\n"
	"<kernel> /usr/bin/env\n" S "file execute /usr/sbin/sshd\n\n"
	"<kernel> /usr/bin/env /usr/sbin/sshd\n" S "file read /etc/ssh/moduli\n\n"
	"<kernel> /usr/sbin/service\n" S "file execute /usr/bin/env\n\n"
	"<kernel> /usr/sbin/service /usr/bin/env\n" S
	"file execute /etc/init.d/cron\n\n";

/* Daemons each started by its init script alone, as the nginx test's
 * log has them: nginx through start-stop-daemon (which executes nothing
 * at a log rotation's signal, and nginx only, from two parents: no
 * disjoint sets, still a helper), fcgiwrap through env -i spawn-fcgi.
 * Not daemons: nginx -t and postconf, which the scripts run themselves,
 * a script's CGI below fcgiwrap, and a python daemon whose last
 * at-once program is an interpreter. */
static const char daemons[] =
	"<kernel> /usr/bin/bash /etc/init.d/nginx\n" S
	"file execute /usr/sbin/nginx\nfile execute /usr/sbin/start-stop-daemon\n"
	"file execute /usr/sbin/postconf\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/nginx /usr/sbin/postconf\n" S
	"file read /etc/postfix/main.cf\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/nginx /usr/sbin/start-stop-daemon\n" S
	"file execute /usr/sbin/nginx\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/nginx /usr/sbin/start-stop-daemon /usr/sbin/nginx\n" S
	"file read /etc/nginx/nginx.conf\n\n"
	"<kernel> /usr/bin/bash /usr/sbin/logrotate /usr/bin/sh /etc/init.d/nginx\n" S
	"file execute /usr/sbin/start-stop-daemon\n\n"
	"<kernel> /usr/bin/bash /usr/sbin/logrotate /usr/bin/sh /etc/init.d/nginx /usr/sbin/start-stop-daemon\n" S
	"file read /run/nginx.pid\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap\n" S
	"file execute /usr/bin/env\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap /usr/bin/env\n" S
	"file execute /usr/bin/spawn-fcgi\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap /usr/bin/env /usr/bin/spawn-fcgi\n" S
	"file execute /usr/sbin/fcgiwrap\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap /usr/bin/env /usr/bin/spawn-fcgi /usr/sbin/fcgiwrap\n" S
	"file execute /srv/cgi-bin/a.sh\nfile execute /srv/cgi-bin/b.sh\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap /usr/bin/env /usr/bin/spawn-fcgi /usr/sbin/fcgiwrap /srv/cgi-bin/a.sh\n" S
	"file execute /usr/sbin/sendmail\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/fcgiwrap /usr/bin/env /usr/bin/spawn-fcgi /usr/sbin/fcgiwrap /srv/cgi-bin/a.sh /usr/sbin/sendmail\n" S
	"file read /etc/mailname\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/app\n" S
	"file execute /sbin/start-stop-daemon\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/app /sbin/start-stop-daemon\n" S
	"file execute /usr/bin/python3.11\n\n"
	"<kernel> /usr/bin/bash /etc/init.d/app /sbin/start-stop-daemon /usr/bin/python3.11\n" S
	"file read /srv/app.py\n\n";

/* The suggestions as text: replacements, or "init PROGRAM"; "refused "
 * before one that is only shown.  Existence is checked under @root. */
static char *suggest_in(const char *policy, size_t min, bool check,
			const char *root)
{
	struct hm_patternize_opts o = { .min_names = min, .check_fs = check,
					.fs_root = root };
	struct hm_model *m = parse(policy);
	struct hm_suggestion *s = NULL;
	char *out = NULL;
	size_t n, len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(hm_patternize_suggest(m, &o, &s, &n), 0);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s%s%s", i ? "\n" : "",
			s[i].review ? "review " : s[i].refused ? "refused " : "",
			s[i].type == HM_SUGGEST_REWRITE ? "" : "init ",
			s[i].type == HM_SUGGEST_REWRITE ? s[i].replacement :
							  s[i].program->str);
	fclose(f);
	hm_suggestions_free(s, n);
	hm_model_free(m);
	return out;
}

static char *suggest(const char *policy, size_t min, bool gone)
{
	return suggest_in(policy, min, gone, "/nonexistent-histmac");
}

static void test_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = suggest(cases[i].policy, cases[i].min,
				    cases[i].gone);

		if (strcmp(got, cases[i].want))
			fail_msg("%s: got '%s', want '%s'", cases[i].what, got,
				 cases[i].want);
		free(got);
	}
}

static void test_service_roots(void **state)
{
	char *got = suggest(services, 3, false);

	(void)state;
	/* cron: its script starts it through start-stop-daemon */
	assert_string_equal(got, "init /usr/sbin/sshd\ninit /usr/sbin/cron");
	free(got);
}

static void test_script_daemons(void **state)
{
	char *got = suggest(daemons, 3, false);

	(void)state;
	assert_string_equal(got, "init /usr/sbin/fcgiwrap\ninit /usr/sbin/nginx");
	free(got);
}

static void touch(const char *root, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

/* A rule that would cover a file of another shape beside its names is
 * refused (it holds for every domain: /d/passwd, /t/tmp.conf); one that
 * covers only files of its own shape is not (/t/tmp.zz9YY8). */
static void test_refused_on_disk(void **state)
{
	char root[] = "/tmp/hm-patternize.XXXXXX";
	char dir[256];
	char *got;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/d", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/t", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	touch(root, "/t/tmp.zz9YY8");
	got = suggest_in(D "file read /d/Ab3dEfGh\nfile read /d/Xq7Rb2Kd\n"
			 "file read /d/Pq9Zt4Mw\n", 3, true, root);
	assert_string_equal(got, "/d/\\*");	/* nothing else there */
	free(got);
	touch(root, "/d/passwd");
	got = suggest_in(D "file read /d/Ab3dEfGh\nfile read /d/Xq7Rb2Kd\n"
			 "file read /d/Pq9Zt4Mw\n", 3, true, root);
	assert_string_equal(got, "refused /d/\\*");
	free(got);
	got = suggest_in(D "file read /t/tmp.Ab3dEf\nfile read /t/tmp.Xq7Rb2\n"
			 "file read /t/tmp.Pq9Zt4\n", 3, true, root);
	assert_string_equal(got, "/t/tmp.\\*");
	free(got);
	/* hex is hex whatever the order of its letters and digits */
	snprintf(dir, sizeof(dir), "%s/h", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	touch(root, "/h/item-fd757664");
	got = suggest_in(D "file read /h/item-00e828cd\nfile read /h/item-01aa74e4\n"
			 "file read /h/item-07782a9e\n", 3, true, root);
	assert_string_equal(got, "/h/item-\\X");
	free(got);
	touch(root, "/t/tmp.conf");	/* a word: the rule would grant it */
	got = suggest_in(D "file read /t/tmp.Ab3dEf\nfile read /t/tmp.Xq7Rb2\n"
			 "file read /t/tmp.Pq9Zt4\n", 3, true, root);
	assert_string_equal(got, "refused /t/tmp.\\*");
	free(got);
	for (const char *f = "/d/passwd\0/t/tmp.zz9YY8\0/t/tmp.conf\0"
			     "/h/item-fd757664\0/d\0/t\0/h\0";
	     *f; f += strlen(f) + 1) {
		snprintf(dir, sizeof(dir), "%s%s", root, f);
		assert_int_equal(remove(dir), 0);
	}
	assert_int_equal(rmdir(root), 0);
}

/* Which names are sensitive: literal ones, and patterns covering one. */
static void test_sensitive(void **state)
{
	static const struct {
		const char *name;
		const char *why;	/* NULL: not sensitive */
	} names[] = {
		{ "/etc/shadow", "password hashes" },
		{ "/etc/passwd", NULL },
		{ "/etc/\\*", "password hashes" },
		{ "/etc/ssh/ssh_host_rsa_key", "ssh host key" },
		{ "/etc/ssh/ssh_host_rsa_key.pub", NULL },
		{ "/home/ann/.ssh/id_ed25519", "ssh key" },
		{ "/home/ann/notes.txt", NULL },
		{ "/root/.bashrc", "root's home" },
		{ "/root/.ssh/authorized_keys", "root's home" },
		{ "proc:/1/mem", "another process's memory" },
		{ "proc:/self/mem", NULL },
		{ "/etc/sudoers.d/90-cloud", "sudo rules" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *why = hm_sensitive_why(names[i].name);

		if (why != names[i].why &&
		    (!why || !names[i].why || strcmp(why, names[i].why)))
			fail_msg("%s: got %s, want %s", names[i].name,
				 why ? why : "(none)",
				 names[i].why ? names[i].why : "(none)");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_service_roots),
		cmocka_unit_test(test_script_daemons),
		cmocka_unit_test(test_refused_on_disk),
		cmocka_unit_test(test_sensitive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
