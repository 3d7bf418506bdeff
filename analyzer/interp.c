// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interp.c - what else an exec opens: the "#!" interpreter of a script or
 * the ELF program interpreter (ld.so) of a dynamic executable.  The
 * enforcer follows an exec through them; the sandbox grants them beside
 * the program.  Reads the file; owns nothing.
 */
#include <elf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "histmac/kernel_names.h"

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

char *hm_exec_interp(int fd, bool *script)
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
