/*
 * uapi/mman.h - mmap's, mprotect's and madvise's constants (Linux v6.10's
 * include/uapi/asm-generic/mman-common.h and mman.h, which ARM and RISC-V both use), shared by
 * the kernel (mm/mmap_sys.c) and the user runtime; prefixed LINUX_ beside a C library's.
 */
#ifndef TINYMM_UAPI_MMAN_H
#define TINYMM_UAPI_MMAN_H

#define LINUX_PROT_NONE		0x0
#define LINUX_PROT_READ		0x1
#define LINUX_PROT_WRITE	0x2
#define LINUX_PROT_EXEC		0x4
#define LINUX_PROT_SEM		0x8
#define LINUX_PROT_GROWSDOWN	0x01000000
#define LINUX_PROT_GROWSUP	0x02000000

#define LINUX_MAP_SHARED		0x01
#define LINUX_MAP_PRIVATE		0x02
#define LINUX_MAP_SHARED_VALIDATE	0x03
#define LINUX_MAP_TYPE			0x0f
#define LINUX_MAP_FIXED			0x10
#define LINUX_MAP_ANONYMOUS		0x20
#define LINUX_MAP_LOCKED		0x2000
#define LINUX_MAP_NORESERVE		0x4000
#define LINUX_MAP_POPULATE		0x8000
#define LINUX_MAP_FIXED_NOREPLACE	0x100000
#define LINUX_MAP_FAILED		((void *)-1)

#define LINUX_MADV_NORMAL	0
#define LINUX_MADV_RANDOM	1
#define LINUX_MADV_SEQUENTIAL	2
#define LINUX_MADV_WILLNEED	3
#define LINUX_MADV_DONTNEED	4
#define LINUX_MADV_FREE		8
#define LINUX_MADV_HWPOISON	100	/* poison the pages (memory_failure), docs/hwpoison.md */
#define LINUX_MADV_SOFT_OFFLINE	101	/* move the pages, then retire their frames */

/* msync's flags (v6.10 include/uapi/asm-generic/mman-common.h). */
#define LINUX_MS_ASYNC		1
#define LINUX_MS_INVALIDATE	2
#define LINUX_MS_SYNC		4

/* mlockall's and mlock2's flags (v6.10 include/uapi/asm-generic/mman.h, mman-common.h). */
#define LINUX_MCL_CURRENT	1
#define LINUX_MCL_FUTURE	2
#define LINUX_MCL_ONFAULT	4
#define LINUX_MLOCK_ONFAULT	0x01

#define LINUX_MMAP2_SHIFT	12	/* mmap2's offset unit: 4096 bytes on ARM and RV32 */

#endif
