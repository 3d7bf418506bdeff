// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - hm_sbx_run(): COMMAND under a built table.  The table goes in
 * a sealed memfd and its copy, the environment names them, then a fork:
 * the child restricts itself to domain 0 (a new session, Landlock, the
 * terminal filter) and executes COMMAND; this process stays as its
 * supervisor, passing on signals and saying what the preload reports,
 * and removes the sandbox's directory when COMMAND exits.
 *
 * The sandbox's runtime, not a pure library: like the enforcer's daemon
 * it speaks on stderr (as "histmac: ..."), and its child exits.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "histmac/kernel_names.h"
#include "internal.h"
#include "landlock_abi.h"

_Static_assert(HM_SBX_ABI_MAX == HM_LL_ABI_MAX, "one newest ABI");

int hm_sbx_abi(void)
{
	long v = syscall(HM_LL_SYS_CREATE_RULESET, NULL, 0,
			 HM_LL_CREATE_RULESET_VERSION);

	return v < 0 ? -errno : (int)v;
}

/* Does an edge of @d before its @j-th run the same program, set-id? */
static bool setid_seen(const struct hm_sbx_thdr *h,
		       const struct hm_sbx_tdom *d, uint32_t j)
{
	const char *p = hm_sbx_tstr(h, hm_sbx_tedge(h, d->edge_first + j)->program);

	for (uint32_t k = 0; k < j; k++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + k);

		if ((e->flags & HM_SBX_EXEC_SETID) &&
		    !strcmp(hm_sbx_tstr(h, e->program), p))
			return true;
	}
	return false;
}

void hm_sbx_setid_scan(const void *blob, struct hm_sbx_setid *ss)
{
	const struct hm_sbx_thdr *h = blob;

	*ss = (struct hm_sbx_setid){ 0 };
	for (uint32_t i = 0; i < h->n_domains; i++) {
		const struct hm_sbx_tdom *d = hm_sbx_tdom(h, i);

		ss->domains += !!(d->flags & HM_SBX_DOM_SETID);
		for (uint32_t j = 0; j < d->n_edges; j++) {
			const struct hm_sbx_tedge *e =
				hm_sbx_tedge(h, d->edge_first + j);

			if (!(e->flags & HM_SBX_EXEC_SETID) ||
			    setid_seen(h, d, j))
				continue;
			if (!ss->programs++) {
				ss->prog = hm_sbx_tstr(h, e->program);
				ss->domain = hm_sbx_tstr(h, d->name);
			}
		}
	}
}

int hm_sbx_exec(char **cmd, const char *prog)
{
	int e;

	fflush(stdout);
	fflush(stderr);
	execv(prog, cmd);
	e = errno;
	warn("cannot execute %s", prog);
	return e == ENOENT ? HM_SBX_EXIT_NOT_FOUND : HM_SBX_EXIT_CANNOT_RUN;
}

/* ------------------------------------------------------------ the child */

/*
 * Apply COMMAND's ruleset (table domain 0), with no_new_privs unless
 * the table has set-id programs (domain 0 marked HM_SBX_DOM_SETID) and
 * the kernel lets this process restrict itself without it: Landlock
 * takes landlock_restrict_self() from a process with CAP_SYS_ADMIN (a
 * root sandbox).  Then the set-id programs below keep their privilege,
 * inside the Landlock domain (it survives a set-id exec), and the
 * domains above them keep their parents' bound (preload.c); every other
 * domain below sets no_new_privs as it narrows.  Otherwise (no
 * CAP_SYS_ADMIN, or no_new_privs already set by whoever started us),
 * say once that those programs run without their privilege.
 */
static int restrict_first(const void *blob, struct hm_sbx_apply_stats *st)
{
	bool setid = hm_sbx_tdom(blob, 0)->flags & HM_SBX_DOM_SETID;
	struct hm_sbx_setid ss;
	int r = -EPERM;

	if (setid)
		r = hm_sbx_apply(blob, 0, st);
	if (r == -EPERM) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return -errno;
		r = hm_sbx_apply(blob, 0, st);
	}
	if (r || !setid || prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return r;
	hm_sbx_setid_scan(blob, &ss);
	if (!ss.programs)	/* not from the table's edges: cannot be */
		return 0;
	warnx("%u execs of set-id programs (the first: %s, by %s) run "
	      "without their privilege: no_new_privs is set (restricting "
	      "without it needs CAP_SYS_ADMIN)", ss.programs, ss.prog,
	      ss.domain);
	return 0;
}

/* What applying met that COMMAND will notice, and --stats' line. */
static void say_applied(const void *blob, const struct hm_sbx_apply_stats *st,
			const struct hm_stopwatch *sw, bool stats)
{
	char t[64];

	if (st->not_file)
		warnx("%u learned files are directories now: their rules are "
		      "refused (granting them would grant everything beneath)",
		      st->not_file);
	if (st->uncreatable)
		warnx("%u learned files to write do not exist (the first: %s) "
		      "and the policy does not let COMMAND create them: opening "
		      "them fails until they are made", st->uncreatable,
		      hm_sbx_tstr(blob, st->uncreatable_first));
	if (stats)
		fprintf(stderr, "sandbox: %u rules applied (%u on a missing "
			"object's parent, %u unreachable skipped, %u files now "
			"directories refused, %u symlinks skipped) %s\n",
			st->rules, st->missing, st->unreachable, st->not_file,
			st->symlinks, hm_stopwatch_text(sw, t, sizeof(t)));
}

/* In the child: confine this process (a new session, Landlock, the
 * terminal filter) and run COMMAND.  Never returns. */
static void confine_and_run(const void *blob, const struct hm_sbx_run_opts *o,
			    const sigset_t *old)
{
	struct hm_sbx_apply_stats st;
	struct hm_stopwatch sw = hm_stopwatch_start();
	int r = 0;

	/* the caller's terminal stays open, but is no longer ours: its
	 * input cannot be pushed (TIOCSTI needs the controlling terminal
	 * or CAP_SYS_ADMIN, and the filter below refuses it to the latter) */
	if (setsid() < 0)
		r = -errno;
	if (!r)
		r = restrict_first(blob, &st);
	if (r) {
		warnx("cannot apply the Landlock ruleset: %s", strerror(-r));
		_exit(HM_SBX_EXIT_OWN);
	}
	/* only where the kernel would let TIOCSTI through: CAP_SYS_ADMIN */
	r = hm_sbx_tty_filter_needed() ? hm_sbx_tty_filter() : 0;
	if (r == -EOPNOTSUPP)
		warnx("no TIOCSTI filter on this architecture: the new "
		      "session alone keeps COMMAND off the terminal's input");
	else if (r) {
		warnx("cannot filter terminal ioctls: %s", strerror(-r));
		_exit(HM_SBX_EXIT_OWN);
	}
	say_applied(blob, &st, &sw, o->stats);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	_exit(hm_sbx_exec(o->cmd, o->prog));
}

/* ------------------------------------------------------- the supervisor */

/*
 * Wait for COMMAND, passing on the signals a terminal or a supervisor
 * sends us (COMMAND is in its own session: ^C reaches only us), and
 * say what the preload reports.  Returns COMMAND's exit status, or 128
 * and the signal that killed it.
 */
static int supervise(pid_t child, int sfd, struct hm_sbx_relay *rl,
		     bool stats)
{
	struct pollfd pf[2] = { { sfd, POLLIN, 0 }, { rl->fd, POLLIN, 0 } };
	int status = 0;

	for (;;) {
		struct signalfd_siginfo si;

		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			hm_sbx_relay_read(rl);
		if (!(pf[0].revents & POLLIN) ||
		    read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo != SIGCHLD) {
			kill(child, (int)si.ssi_signo);
			continue;
		}
		if (waitpid(child, &status, WNOHANG) == child)
			break;
	}
	hm_sbx_relay_read(rl);
	if (stats)
		hm_sbx_relay_stats(rl);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* LD_PRELOAD gets @preload in front of what it held. */
static int set_env(const char *value, const char *preload)
{
	const char *old = getenv("LD_PRELOAD");
	char *lp = NULL;

	if (setenv(HM_SBX_ENV, value, 1))
		return -errno;
	if (!preload)
		return 0;
	if (asprintf(&lp, "%s%s%s", preload, old && *old ? " " : "",
		     old ? old : "") < 0)
		return -ENOMEM;
	if (setenv("LD_PRELOAD", lp, 1)) {
		free(lp);
		return -errno;
	}
	free(lp);
	return 0;
}

/* The table where COMMAND and what it runs find it: the memfd (@fd, its
 * number, or negative) and the copy in @f, both named by the
 * environment with the preload. */
static int hand_over(const void *blob, size_t size, struct hm_sbx_files *f,
		     const struct hm_sbx_run_opts *o, int *fd)
{
	char *value = NULL;
	int r;

	*fd = hm_sbx_table_fd(blob, size);
	r = *fd < 0 ? *fd : hm_sbx_files_write_table(f, blob, size);
	if (!r)
		r = hm_sbx_env_value(*fd, o->strict, f, &value);
	if (!r)
		r = set_env(value, o->preload);
	free(value);
	return r;
}

/* Block the signals the supervisor reads from its signalfd (@sfd). */
static int hold_signals(sigset_t *old, int *sfd)
{
	static const int sigs[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP,
				    SIGQUIT, SIGUSR1, SIGUSR2 };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < HM_ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, old))
		return -errno;
	*sfd = signalfd(-1, &set, SFD_CLOEXEC);
	return *sfd < 0 ? -errno : 0;
}

/* Fork COMMAND confined and supervise it.  Returns its status, or
 * negative errno when it did not start. */
static int launch(const void *blob, const struct hm_sbx_run_opts *o,
		  struct hm_sbx_relay *rl, int sfd, const sigset_t *old)
{
	pid_t child;

	fflush(stdout);
	fflush(stderr);
	child = fork();
	if (child == 0) {
		close(rl->fd);
		close(rl->wfd);
		close(sfd);
		confine_and_run(blob, o, old);
	}
	if (child < 0) {
		int e = errno;

		warn("cannot fork");
		return -e;
	}
	return supervise(child, sfd, rl, o->stats);
}

/* --strict: COMMAND itself would not narrow what it runs. */
static int refuse(const struct hm_sbx_run_opts *o, const char *fmt, ...)
	HM_PRINTF(2, 3);
static int refuse(const struct hm_sbx_run_opts *o, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "histmac: %s: refused (--strict): ", o->cmd[0]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EPERM;
}

static bool is_static(const char *prog)
{
	int fd = open(prog, O_RDONLY | O_CLOEXEC);
	bool script;
	char *interp;

	if (fd < 0)
		return false;
	interp = hm_exec_interp(fd, &script);
	close(fd);
	free(interp);
	return !interp;
}

/* Will the programs below COMMAND narrow?  Said, or refused (--strict). */
static int check_narrowing(const struct hm_sbx_run_opts *o)
{
	if (!o->preload && o->strict)
		return refuse(o, "no %s: programs below it cannot narrow",
			      HM_SBX_PRELOAD_NAME);
	if (!o->preload)
		warnx("no %s: programs below %s keep its ruleset",
		      HM_SBX_PRELOAD_NAME, o->cmd[0]);
	else if (is_static(o->prog) && o->strict)
		return refuse(o, "statically linked: what it runs cannot "
			      "narrow");
	else if (is_static(o->prog))
		warnx("%s is statically linked: it and what it runs keep this "
		      "subtree's ruleset", o->prog);
	return 0;
}

int hm_sbx_run(const void *blob, size_t size, struct hm_sbx_files *f,
	       const struct hm_sbx_run_opts *o)
{
	struct hm_sbx_relay rl = { .fd = -1, .wfd = -1 };
	sigset_t old;
	int fd = -1, sfd = -1, r = check_narrowing(o);

	if (r)
		return r;
	r = hand_over(blob, size, f, o, &fd);
	if (!r)
		r = hm_sbx_relay_open(&rl, f->report);
	sigprocmask(SIG_SETMASK, NULL, &old);
	if (!r)
		r = hold_signals(&old, &sfd);
	if (r)
		warnx("cannot hold the rulesets: %s", strerror(-r));
	else
		r = launch(blob, o, &rl, sfd, &old);
	if (fd >= 0)
		close(fd);
	if (sfd >= 0)
		close(sfd);
	hm_sbx_relay_fini(&rl);
	hm_sbx_files_remove(f);
	if (r > 128 && r - 128 < NSIG && r - 128 != SIGCHLD) {
		/* killed by a signal: die of it too, as a shell reports */
		signal(r - 128, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		raise(r - 128);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
