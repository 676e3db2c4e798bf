/*
 * uapi/fcntl.h - Linux v6.10's open flags and *at() flags as each ABI has them, shared by the
 * kernel's system calls (fs/sys_*.c translate them to the VFS's generic O_* of vfs.h) and the
 * user runtime (user/lib translates picolibc's newlib values to these).  Prefixed LINUX_ so a
 * C library's own <fcntl.h> can sit beside it.
 * Sources: include/uapi/asm-generic/fcntl.h (RISC-V, the host) and
 * arch/arm/include/uapi/asm/fcntl.h, which moves four bits: O_DIRECTORY 040000,
 * O_NOFOLLOW 0100000, O_DIRECT 0200000, O_LARGEFILE 0400000.
 */
#ifndef TINYMM_UAPI_FCNTL_H
#define TINYMM_UAPI_FCNTL_H

#define LINUX_O_ACCMODE		00000003
#define LINUX_O_RDONLY		00000000
#define LINUX_O_WRONLY		00000001
#define LINUX_O_RDWR		00000002
#define LINUX_O_CREAT		00000100
#define LINUX_O_EXCL		00000200
#define LINUX_O_NOCTTY		00000400
#define LINUX_O_TRUNC		00001000
#define LINUX_O_APPEND		00002000
#define LINUX_O_NONBLOCK	00004000
#define LINUX_O_DSYNC		00010000
#if defined(__arm__)
#define LINUX_O_DIRECTORY	00040000
#define LINUX_O_NOFOLLOW	00100000
#define LINUX_O_DIRECT		00200000
#define LINUX_O_LARGEFILE	00400000
#else
#define LINUX_O_DIRECT		00040000
#define LINUX_O_LARGEFILE	00100000
#define LINUX_O_DIRECTORY	00200000
#define LINUX_O_NOFOLLOW	00400000
#endif
#define LINUX_O_NOATIME		01000000
#define LINUX_O_CLOEXEC		02000000
#define LINUX_O_SYNC		04010000
#define LINUX_O_PATH		010000000
#define LINUX_O_TMPFILE		(020000000 | LINUX_O_DIRECTORY)

/* include/uapi/linux/fcntl.h */
#define LINUX_AT_FDCWD			(-100)
#define LINUX_AT_SYMLINK_NOFOLLOW	0x100
#define LINUX_AT_REMOVEDIR		0x200
#define LINUX_AT_NO_AUTOMOUNT		0x800
#define LINUX_AT_EMPTY_PATH		0x1000
#define LINUX_AT_STATX_SYNC_TYPE	0x6000

/* include/uapi/linux/fs.h: renameat2's flags */
#define LINUX_RENAME_NOREPLACE		(1 << 0)
#define LINUX_RENAME_EXCHANGE		(1 << 1)
#define LINUX_RENAME_WHITEOUT		(1 << 2)

#endif
