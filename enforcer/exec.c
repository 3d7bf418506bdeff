// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exec.c - naming execs live.  fanotify shows the real path of what is
 * executed; learned domain names use the path passed to execve.  When an
 * exec is allowed in domain D for real path R, the program name the
 * decision found (an execute entry matching R, or one whose
 * exec.realpath is R) is kept here as the pid's pending exec; the proc
 * connector's exec event then enters the next domain with that name
 * (proc.c).  The loader or #! interpreter the same execve opens next is
 * part of that exec, as are the plain opens of the same files that
 * fsnotify sends after each exec open.  Owns the pending table.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enforcer.h"

#define PENDING_MAX HM_ARRAY_SIZE(((struct hm_enforcer *)0)->pend)
#define PENDING_TTL_NS (5ull * 1000 * 1000 * 1000)

struct hm_pending_exec *hm_enf_pending(struct hm_enforcer *E, int32_t pid)
{
	for (size_t i = 0; i < E->n_pend; i++)
		if (E->pend[i].pid == pid)
			return &E->pend[i];
	return NULL;
}

static void pending_free(struct hm_pending_exec *pe)
{
	free(pe->program);
	free(pe->interp);
}

static void pending_remove(struct hm_enforcer *E, size_t i)
{
	pending_free(&E->pend[i]);
	E->pend[i] = E->pend[--E->n_pend];
}

void hm_enf_pending_drop(struct hm_enforcer *E, int32_t pid)
{
	for (size_t i = 0; i < E->n_pend; i++)
		if (E->pend[i].pid == pid) {
			pending_remove(E, i);
			return;
		}
}

/* Forget execs that never arrived (the execve failed after the open). */
void hm_enf_pending_expire(struct hm_enforcer *E, uint64_t now)
{
	for (size_t i = 0; i < E->n_pend;)
		if (now - E->pend[i].since_ns > PENDING_TTL_NS)
			pending_remove(E, i);
		else
			i++;
}

void hm_enf_pending_clear(struct hm_enforcer *E)
{
	while (E->n_pend)
		pending_remove(E, E->n_pend - 1);
}

/* The interpreter an executable names: "#!" line or ELF PT_INTERP. */
static char *elf_interp(int fd, const unsigned char *h, size_t n)
{
	uint64_t phoff, off = 0, size = 0;
	unsigned phentsize, phnum;
	bool is64;
	char *s;

	if (n <= EI_CLASS)	/* h[EI_CLASS] was not read */
		return NULL;
	is64 = h[EI_CLASS] == ELFCLASS64;
	if (n < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return NULL;
	if (is64) {
		const Elf64_Ehdr *e = (const void *)h;

		phoff = e->e_phoff;
		phentsize = e->e_phentsize;
		phnum = e->e_phnum;
	} else {
		const Elf32_Ehdr *e = (const void *)h;

		phoff = e->e_phoff;
		phentsize = e->e_phentsize;
		phnum = e->e_phnum;
	}
	if (phnum > 256 || phentsize < (is64 ? sizeof(Elf64_Phdr) :
					 sizeof(Elf32_Phdr)))
		return NULL;
	for (unsigned i = 0; i < phnum; i++) {
		union { Elf64_Phdr p64; Elf32_Phdr p32; } ph;

		if (pread(fd, &ph, is64 ? sizeof(ph.p64) : sizeof(ph.p32),
			  (off_t)(phoff + (uint64_t)i * phentsize)) <
		    (ssize_t)(is64 ? sizeof(ph.p64) : sizeof(ph.p32)))
			return NULL;
		if ((is64 ? ph.p64.p_type : ph.p32.p_type) != PT_INTERP)
			continue;
		off = is64 ? ph.p64.p_offset : ph.p32.p_offset;
		size = is64 ? ph.p64.p_filesz : ph.p32.p_filesz;
		break;
	}
	if (!size || size > PATH_MAX)
		return NULL;
	s = calloc(1, size + 1);
	if (s && pread(fd, s, size, (off_t)off) != (ssize_t)size) {
		free(s);
		return NULL;
	}
	return s;
}

static char *script_interp(const unsigned char *h, size_t n)
{
	size_t i = 2, j;

	while (i < n && (h[i] == ' ' || h[i] == '\t'))
		i++;
	j = i;
	while (j < n && h[j] != ' ' && h[j] != '\t' && h[j] != '\n' && h[j])
		j++;
	return j > i ? strndup((const char *)h + i, j - i) : NULL;
}

/* Read what @fd (an event fd: reading it raises no event) executes next. */
static char *interp_of(int fd, bool *script)
{
	unsigned char h[256];
	ssize_t n = pread(fd, h, sizeof(h), 0);

	*script = false;
	if (n >= 2 && h[0] == '#' && h[1] == '!') {
		*script = true;
		return script_interp(h, (size_t)n);
	}
	if (n >= SELFMAG && !memcmp(h, ELFMAG, SELFMAG))
		return elf_interp(fd, h, (size_t)n);
	return NULL;
}

static void add_obj(struct hm_pending_exec *pe, uint64_t dev, uint64_t ino)
{
	if (pe->n_obj < (int)HM_ARRAY_SIZE(pe->ino)) {
		pe->dev[pe->n_obj] = dev;
		pe->ino[pe->n_obj] = ino;
		pe->n_obj++;
	}
}

bool hm_enf_pending_has_obj(const struct hm_pending_exec *pe, uint64_t dev,
			    uint64_t ino)
{
	for (int i = 0; i < pe->n_obj; i++)
		if (pe->dev[i] == dev && pe->ino[i] == ino)
			return true;
	return false;
}

int hm_enf_pending_set(struct hm_enforcer *E, int32_t pid,
		       const char *program, int fd, uint64_t dev,
		       uint64_t ino)
{
	struct hm_pending_exec *pe = hm_enf_pending(E, pid);
	char *prog = strdup(program);

	if (!prog)
		return -ENOMEM;
	if (pe) {
		pending_free(pe);
	} else {
		if (E->n_pend == PENDING_MAX) {
			size_t oldest = 0;

			for (size_t i = 1; i < E->n_pend; i++)
				if (E->pend[i].since_ns <
				    E->pend[oldest].since_ns)
					oldest = i;
			pending_remove(E, oldest);
		}
		pe = &E->pend[E->n_pend++];
	}
	memset(pe, 0, sizeof(*pe));
	pe->pid = pid;
	pe->program = prog;
	pe->since_ns = hm_now_ns();
	pe->interp = interp_of(fd, &pe->script);
	add_obj(pe, dev, ino);
	return 0;
}

/*
 * Is this exec open (real path @raw) the loader or interpreter of @pe's
 * exec?  Then it becomes part of it, and what it names in turn is next.
 */
bool hm_enf_pending_interp(struct hm_pending_exec *pe, const char *raw,
			   int fd, uint64_t dev, uint64_t ino)
{
	char real[PATH_MAX];
	bool script;

	if (!pe->interp || !realpath(pe->interp, real) || strcmp(real, raw))
		return false;
	free(pe->interp);
	pe->interp = interp_of(fd, &script);
	add_obj(pe, dev, ino);
	return true;
}
