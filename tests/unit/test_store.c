// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_store.c - the policy store (store/store.c) on a real directory: a
 * save holds the lock and the lock goes with the store; an edit made on
 * disk after a load makes the save refuse (-ESTALE); reading it again and
 * adopting it keeps the edit (a deleted entry stays deleted, an added
 * domain stays) and adds what was learned since; an edit with an error
 * is read with the error counted and said at its line; a writer that holds the
 * lock only to save finds another's lock and is told who holds it.  An
 * edit made in place while a save commits is not lost: written before
 * the save's last look it refuses the save, written into the file the
 * commit replaces it is put back, written into the file the save wrote it
 * stays; each time the save says -ESTALE and the edit and what was
 * learned both end up saved.  A put-back that fails (no file can be
 * written) holds the edit and puts it back before the next save.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/policy_io.h"
#include "histmac/store.h"

struct fixture {
	char dir[64];
	char file[96];
	struct hm_diag d;
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = calloc(1, 65536);

	assert_non_null(f);
	assert_non_null(s);
	assert_true(fread(s, 1, 65535, f) > 0);
	fclose(f);
	return s;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hm-store.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->file, sizeof(f->file), "%s/domain_policy.conf", f->dir);
	write_file(f->file, "<kernel>\nuse_profile 1\n\n"
		   "<kernel> /bin/a\nuse_profile 1\nfile read /etc/one\n"
		   "file read /etc/two\n");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	hm_diag_free(&f->d);
	free(f);
	return 0;
}

static struct hm_store *open_store(struct fixture *f, bool hold)
{
	struct hm_store_opts o = {
		.dir = f->dir, .holder = "test_store", .hold = hold,
		.learning = true, .read_dialect = HM_DIALECT_AUTO,
		.dialect = HM_DIALECT_AUTO, .diag = &f->d,
	};
	struct hm_store *s;

	assert_int_equal(hm_store_open(&o, &s), 0);
	return s;
}

/* Learn "file read PATH" into domain "<kernel> /bin/a" of @m. */
static void learn(struct hm_model *m, const char *path)
{
	char text[256];

	snprintf(text, sizeof(text), "<kernel> /bin/a\nfile read %s\n", path);
	assert_int_equal(hm_policy_parse_domain(m, text, strlen(text),
						HM_DIALECT_26, "t", NULL), 0);
}

static bool lock_exists(const struct fixture *f)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", f->dir, HM_LOCK_FILE);
	return access(p, F_OK) == 0;
}

/* The administrator's edit: /etc/one deleted, a domain added. */
static const char edit_text[] =
	"<kernel>\nuse_profile 1\n\n"
	"<kernel> /bin/a\nuse_profile 1\nfile read /etc/two\n\n"
	"<kernel> /bin/b\nuse_profile 3\nfile read /etc/b\n";

/* After a save refused for @f's edit: read, adopt, save; the edit and
 * what @m learned are both there.  Closes @s, frees @m. */
static void adopt_keeps_both(struct fixture *f, struct hm_store *s,
			     struct hm_model *m)
{
	struct hm_store_snap snap;
	char *text;

	assert_int_equal(hm_store_read(s, &snap, &f->d), 0);
	assert_int_equal(snap.errors, 0);
	assert_int_equal(hm_store_adopt(s, &snap, m), 0);
	hm_model_free(m);
	m = snap.m;
	assert_int_equal(hm_store_save(s, m, NULL, 0), 0);
	hm_store_close(s, false);
	text = read_file(f->file);
	assert_null(strstr(text, "file read /etc/one\n"));	/* deleted */
	assert_non_null(strstr(text, "file read /etc/two\n"));
	assert_non_null(strstr(text, "<kernel> /bin/b\nuse_profile 3\n"));
	assert_non_null(strstr(text, "file read /etc/learned\n"));
	free(text);
	hm_model_free(m);
}

static void test_save_holds_lock(void **state)
{
	struct fixture *f = *state;
	struct hm_store *s = open_store(f, true);
	struct hm_model *m;
	char *text;

	assert_true(lock_exists(f));
	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/three");
	assert_int_equal(hm_store_save(s, m, NULL, 0), 0);
	assert_false(hm_store_edited(s));
	hm_store_close(s, false);
	assert_false(lock_exists(f));
	text = read_file(f->file);
	assert_non_null(strstr(text, "file read /etc/three\n"));
	free(text);
	hm_model_free(m);
}

static void test_edit_is_kept(void **state)
{
	struct fixture *f = *state;
	struct hm_store *s = open_store(f, true);
	struct hm_model *m;
	char *text;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/learned");
	/* the administrator deletes /etc/one and adds a domain, in place */
	usleep(20000);
	write_file(f->file, edit_text);
	assert_true(hm_store_edited(s));
	assert_int_equal(hm_store_save(s, m, NULL, 0), -ESTALE);
	text = read_file(f->file);
	assert_null(strstr(text, "/etc/learned"));	/* nothing written */
	free(text);
	adopt_keeps_both(f, s, m);
}

/* An edit left with an error: read, counted, said with its line. */
static void test_broken_edit(void **state)
{
	struct fixture *f = *state;
	struct hm_store *s = open_store(f, true);
	struct hm_store_snap snap;
	struct hm_model *m;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	write_file(f->file, "<kernel>\nuse_profile 1\n\n<kernel> /bin/a\n"
		   "file reed /etc/one\n");
	assert_int_equal(hm_store_save(s, m, NULL, 0), -ESTALE);
	assert_int_equal(hm_store_read(s, &snap, &f->d), 0);
	assert_true(snap.errors > 0);
	assert_true(f->d.n_msgs > 0);
	assert_int_equal(f->d.msgs[0].line, 5);
	hm_store_snap_free(&snap);
	hm_store_close(s, false);
	hm_model_free(m);
}

/* The edit an administrator makes at a step of a save's commit. */
static const char *edit_path;
static enum hm_atomic_step edit_step;

static void edit_at(const char *dir, enum hm_atomic_step step)
{
	(void)dir;
	if (step != edit_step)
		return;
	hm_atomic_test_step = NULL;	/* once */
	write_file(edit_path, edit_text);	/* in place, as cat > does */
}

static bool said(const struct hm_diag *d, const char *what)
{
	for (size_t i = 0; i < d->n_msgs; i++)
		if (strstr(d->msgs[i].text, what))
			return true;
	return false;
}

static void save_while_edited(struct fixture *f, enum hm_atomic_step step)
{
	struct hm_store *s = open_store(f, true);
	struct hm_model *m;
	char *text;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/learned");
	edit_path = f->file;
	edit_step = step;
	hm_atomic_test_step = edit_at;
	assert_int_equal(hm_store_save(s, m, NULL, 0), -ESTALE);
	assert_null(hm_atomic_test_step);	/* the edit was made */
	text = read_file(f->file);
	assert_string_equal(text, edit_text);
	free(text);
	assert_int_equal(said(&f->d, "edited while it was saved"),
			 step == HM_ATOMIC_CHECKED);
	adopt_keeps_both(f, s, m);
}

/* Written while the save rendered: its last look refuses it. */
static void test_edit_before_commit(void **state)
{
	save_while_edited(*state, HM_ATOMIC_STAGED);
}

/* Written into the file the commit then replaced: put back. */
static void test_edit_in_replaced(void **state)
{
	save_while_edited(*state, HM_ATOMIC_CHECKED);
}

/* Written into the file the save had just put there. */
static void test_edit_after_rename(void **state)
{
	save_while_edited(*state, HM_ATOMIC_RENAMED);
}

/*
 * From the commit's renames on, no file can be opened (EMFILE; a full
 * disk would fail the same writes): the commit fails past its renames
 * and the put-back of the edit written into the replaced file fails.
 */
static struct rlimit nofile;

static void edit_then_starve(const char *dir, enum hm_atomic_step step)
{
	struct rlimit none = nofile;
	int fd;

	(void)dir;
	if (step == HM_ATOMIC_CHECKED) {
		write_file(edit_path, edit_text);
		return;
	}
	if (step != HM_ATOMIC_RENAMED)
		return;
	hm_atomic_test_step = NULL;	/* once */
	fd = open("/dev/null", O_RDONLY);	/* the lowest free one */
	assert_true(fd >= 0);
	close(fd);
	none.rlim_cur = (rlim_t)fd;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
}

/* The edit a put-back could not write is held, and put back first at
 * the next save, which is refused for it: nothing of it is lost. */
static void test_put_back_fails(void **state)
{
	struct fixture *f = *state;
	struct hm_store *s = open_store(f, true);
	struct hm_model *m;
	char *text;
	int r;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/learned");
	edit_path = f->file;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &nofile), 0);
	hm_atomic_test_step = edit_then_starve;
	r = hm_store_save(s, m, NULL, 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &nofile), 0);
	assert_null(hm_atomic_test_step);	/* the edit was made */
	assert_int_equal(r, -EMFILE);
	assert_true(said(&f->d, "held open and put back"));
	text = read_file(f->file);		/* ours, for now */
	assert_non_null(strstr(text, "file read /etc/learned\n"));
	free(text);
	assert_int_equal(hm_store_save(s, m, NULL, 0), -ESTALE);
	assert_true(said(&f->d, "edited while it was saved"));
	text = read_file(f->file);
	assert_string_equal(text, edit_text);
	free(text);
	adopt_keeps_both(f, s, m);
}

/* Closed while the edit still cannot be put back: said to be lost. */
static void test_put_back_lost(void **state)
{
	struct fixture *f = *state;
	struct hm_store *s = open_store(f, true);
	struct hm_model *m;
	struct rlimit none;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/learned");
	edit_path = f->file;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &nofile), 0);
	hm_atomic_test_step = edit_then_starve;
	assert_int_equal(hm_store_save(s, m, NULL, 0), -EMFILE);
	assert_false(said(&f->d, "is lost"));
	hm_store_close(s, false);	/* still no file can be opened */
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &none), 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &nofile), 0);
	assert_true(none.rlim_cur < nofile.rlim_cur);
	assert_true(said(&f->d, "could not be put back and is lost"));
	hm_model_free(m);
}

static void test_other_writer(void **state)
{
	struct fixture *f = *state;
	struct hm_store *holder = open_store(f, true);
	struct hm_store *s = open_store(f, false);	/* locks to save only */
	struct hm_store *other;
	struct hm_model *m;
	time_t start;

	assert_int_equal(hm_store_load(s, false, &m), 0);
	learn(m, "/etc/later");
	assert_int_equal(hm_store_save(s, m, NULL, 0), -EWOULDBLOCK);
	assert_int_equal(hm_store_holder(s)->pid, getpid());
	assert_string_equal(hm_store_holder(s)->command, "test_store");
	/* with nothing to put back, closing does not wait for the lock */
	other = open_store(f, false);
	hm_store_set_wait(other, 5);
	start = time(NULL);
	hm_store_close(other, false);
	assert_true(time(NULL) - start < 2);
	hm_store_close(holder, false);
	assert_int_equal(hm_store_save(s, m, NULL, 0), 0);
	assert_false(lock_exists(f));	/* taken for the save only */
	hm_store_close(s, false);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_save_holds_lock, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_edit_is_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_broken_edit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_writer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_edit_before_commit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_edit_in_replaced, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_edit_after_rename, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_put_back_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_put_back_lost, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
