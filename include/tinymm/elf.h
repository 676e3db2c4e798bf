/*
 * elf.h - the ELF file format, as far as loading a static executable needs it: the file header
 * and the program headers of ELF32 and ELF64, with the names of Linux's include/uapi/linux/elf.h
 * (which follow the System V ABI).  fs/binfmt_elf_check.c reads them.
 */
#ifndef TINYMM_ELF_H
#define TINYMM_ELF_H
#include <stdint.h>

#define EI_NIDENT	16
#define EI_CLASS	4
#define EI_DATA		5
#define EI_VERSION	6
#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define EV_CURRENT	1

#define ET_EXEC		2
#define ET_DYN		3

#define EM_ARM		40
#define EM_RISCV	243

#define PT_NULL		0
#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_PHDR		6
#define PT_GNU_STACK	0x6474e551

#define PF_X		0x1
#define PF_W		0x2
#define PF_R		0x4

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
	uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
} Elf32_Phdr;

typedef struct {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

_Static_assert(sizeof(Elf32_Ehdr) == 52 && sizeof(Elf64_Ehdr) == 64, "ELF header layout");
_Static_assert(sizeof(Elf32_Phdr) == 32 && sizeof(Elf64_Phdr) == 56, "ELF phdr layout");
#endif
