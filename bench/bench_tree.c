// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_tree.c - time and memory to draw domain trees of 100, 1,000 and
 * 10,000 domains (or the sizes given): text, SVG and PNG through the
 * exporters, with the default folding limits and, up to a size, with
 * every node drawn.  Each measurement runs in its own child process so
 * its peak RSS (getrusage) is its own.
 *
 * usage: bench_tree [N...]        (default: 100 1000 10000)
 * Output: one line per size, format and mode; bench/run_tree.sh runs it
 * and bench/RESULTS.md keeps the numbers.
 *
 * The trees are synthetic but shaped like learned ones: <kernel>, init,
 * a few dozen services, and below them shells, helpers and their
 * children, most domains near the leaves, with a few ACL entries each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "histmac/exporter.h"
#include "histmac/model.h"

/* Largest size drawn with no folding: dot's layout grows faster than
 * linearly, and an unfolded tree of 10,000 nodes is no use to anyone. */
#define FULL_MAX 2000

static uint32_t rng = 12345;

static uint32_t next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static struct hm_domain *add_domain(struct hm_model *m, const char *name)
{
	struct hm_domain *d;

	if (hm_model_domain(m, name, strlen(name), true, &d) < 0 || !d) {
		fprintf(stderr, "bench_tree: out of memory\n");
		exit(1);
	}
	return d;
}

static void add_entries(struct hm_model *m, struct hm_domain *d, unsigned n)
{
	char path[64];

	for (unsigned i = 0; i < n; i++) {
		struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
						   .perm = 1u << HM_FILE_READ } };

		snprintf(path, sizeof(path), "/etc/conf%u/file%u", i % 7, i);
		if (hm_model_intern(m, path, strlen(path), &e.name.name) ||
		    hm_domain_add(m, d, &e.head, NULL) < 0)
			exit(1);
	}
}

/* A tree of @n domains: breadth first, fan-out shrinking with depth. */
static struct hm_model *make_tree(size_t n)
{
	struct hm_model *m = hm_model_new();
	char **names = calloc(n + 1, sizeof(*names));
	unsigned *depth = calloc(n + 1, sizeof(*depth));
	size_t have = 0;
	size_t head = 0;

	if (!m || !names || !depth)
		exit(1);
	names[have] = strdup("<kernel>");
	depth[have++] = 0;
	while (have < n && head < have) {
		const char *parent = names[head];
		unsigned d = depth[head++];
		unsigned kids = d == 0 ? 1 : d == 1 ? 60 : d == 2 ? 6 :
				next_rand() % (d < 6 ? 5 : 2);

		for (unsigned k = 0; k < kids && have < n; k++) {
			char *s;

			if (asprintf(&s, "%s /usr/%s/prog%u-%zu", parent,
				     d < 2 ? "sbin" : "bin", k, have) < 0)
				exit(1);
			names[have] = s;
			depth[have++] = d + 1;
		}
		if (head == have && have < n)	/* ran dry: widen the top */
			head = 1;
	}
	for (size_t i = 0; i < have; i++) {
		add_entries(m, add_domain(m, names[i]), 3 + next_rand() % 20);
		free(names[i]);
	}
	free(names);
	free(depth);
	hm_model_relink(m);
	return m;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run @e on @m in a child; print seconds, peak RSS and output size. */
static void measure(const struct hm_model *m, const struct hm_exporter *e,
		    const struct hm_export_opts *o, const char *mode)
{
	int pipefd[2];
	pid_t pid;
	struct rusage ru;
	int status;
	double t0;
	double secs = 0;
	long bytes = -1;
	int rc = -1;

	if (pipe(pipefd))
		exit(1);
	pid = fork();
	if (pid == 0) {
		FILE *f = tmpfile();
		double t;
		double res[2];

		if (!f)
			_exit(1);
		t0 = now();
		rc = e->write(m, f, o);
		t = now() - t0;
		res[0] = rc ? -1 : t;
		res[1] = rc ? (double)rc : (double)ftell(f);
		if (write(pipefd[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(rc ? 1 : 0);
	}
	close(pipefd[1]);
	{
		double res[2] = { -1, -1 };

		if (read(pipefd[0], res, sizeof(res)) == sizeof(res)) {
			secs = res[0];
			bytes = (long)res[1];
		}
	}
	close(pipefd[0]);
	if (wait4(pid, &status, 0, &ru) != pid)
		exit(1);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	printf("%-6zu %-5s %-8s %9.3f s %8ld KiB %10ld bytes%s\n",
	       m->n_domains, e->name, mode, secs, ru.ru_maxrss, bytes,
	       rc ? "  FAILED" : "");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 100, 1000, 10000 };
	size_t n_sizes = 3;
	const struct hm_exporter *const fmts[] = {
		&hm_exporter_text, &hm_exporter_svg, &hm_exporter_png,
	};

	if (argc > 1) {
		n_sizes = 0;
		for (int i = 1; i < argc && n_sizes < 16; i++)
			sizes[n_sizes++] = strtoul(argv[i], NULL, 10);
	}
	printf("%-6s %-5s %-8s %11s %12s %16s\n", "domains", "fmt", "mode",
	       "time", "peak RSS", "output");
	for (size_t i = 0; i < n_sizes; i++) {
		struct hm_model *m = make_tree(sizes[i]);
		struct hm_export_opts dflt = { 0 };
		struct hm_export_opts full = {
			.max_children = (unsigned)sizes[i] + 1,
			.max_nodes = (unsigned)sizes[i] + 1,
		};

		for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
			measure(m, fmts[f], &dflt, "folded");
			if (fmts[f] != &hm_exporter_text &&
			    sizes[i] <= FULL_MAX)
				measure(m, fmts[f], &full, "full");
		}
		hm_model_free(m);
	}
	return 0;
}
