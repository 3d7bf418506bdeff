// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * standalone.c - replay driver for the fuzz targets without libFuzzer.
 *
 * Linked with any tests/fuzz/fuzz_<target>.c, it feeds every file named on
 * the command line, or found (sorted, dot files skipped, not recursive) in
 * a directory named there, to LLVMFuzzerTestOneInput(), so every CI run
 * replays the corpus and each crasher in it.  Each input gets a buffer of
 * exactly its size, so ASan sees any read past the end.
 *
 * usage: replay_<target> FILE|DIR...
 * Exit 0 when every input ran, 1 when an argument could not be read or
 * held no input at all (a missing corpus must not pass as success).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs one file; returns 0, or -1 after printing why it could not. */
static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t size = 0;
	size_t cap = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (size == cap) {
			uint8_t *b = realloc(buf, cap ? cap * 2 : 4096);

			if (!b) {
				fprintf(stderr, "%s: out of memory\n", path);
				rc = -1;
				break;
			}
			buf = b;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		rc = -1;
	}
	fclose(f);
	if (!rc) {
		/* An exact-size copy, so an over-read is an ASan error. */
		uint8_t *exact = malloc(size ? size : 1);

		if (!exact) {
			fprintf(stderr, "%s: out of memory\n", path);
			rc = -1;
		} else {
			if (size)
				memcpy(exact, buf, size);
			LLVMFuzzerTestOneInput(exact, size);
			free(exact);
		}
	}
	free(buf);
	return rc;
}

static int skip_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Runs every regular file in @dir; adds to *count; -1 on any error. */
static int run_dir(const char *dir, unsigned long *count)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, skip_dot, alphasort);
	int rc = 0;

	if (n < 0) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *path;
		struct stat st;

		if (asprintf(&path, "%s/%s", dir, ents[i]->d_name) < 0) {
			rc = -1;
		} else {
			if (!stat(path, &st) && S_ISREG(st.st_mode)) {
				if (run_file(path))
					rc = -1;
				else
					(*count)++;
			}
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			status = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count))
				status = 1;
		} else if (run_file(argv[i])) {
			status = 1;
		} else {
			count++;
		}
	}
	fprintf(stderr, "%s: replayed %lu inputs\n", argv[0], count);
	if (!count) {
		fprintf(stderr, "%s: no inputs\n", argv[0]);
		status = 1;
	}
	return status;
}
