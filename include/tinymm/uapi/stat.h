/*
 * uapi/stat.h - the three ways Linux v6.10 reports a file's status on tinymm's ABIs, with
 * fixed-width fields so every build (and the host's tests) sees the same bytes:
 *   struct linux_stat    include/uapi/asm-generic/stat.h on a 64-bit ABI (RV64's fstat), 128 bytes
 *   struct linux_stat64  arch/arm/include/uapi/asm/stat.h's stat64 under EABI (ARM's fstat64):
 *                        64-bit members 8-byte aligned, 104 bytes
 *   struct linux_statx   include/uapi/linux/stat.h's statx (every ABI; RV32 has only this), 256 bytes
 */
#ifndef TINYMM_UAPI_STAT_H
#define TINYMM_UAPI_STAT_H

#include <stddef.h>
#include <stdint.h>

struct linux_stat {
	uint64_t st_dev;
	uint64_t st_ino;
	uint32_t st_mode;
	uint32_t st_nlink;
	uint32_t st_uid;
	uint32_t st_gid;
	uint64_t st_rdev;
	uint64_t __pad1;
	int64_t st_size;
	int32_t st_blksize;
	int32_t __pad2;
	int64_t st_blocks;
	int64_t st_atime_sec;
	uint64_t st_atime_nsec;
	int64_t st_mtime_sec;
	uint64_t st_mtime_nsec;
	int64_t st_ctime_sec;
	uint64_t st_ctime_nsec;
	uint32_t __unused4;
	uint32_t __unused5;
};
_Static_assert(sizeof(struct linux_stat) == 128, "asm-generic struct stat is 128 bytes");

struct linux_stat64 {
	uint64_t st_dev;
	uint8_t __pad0[4];
	uint32_t __st_ino;
	uint32_t st_mode;
	uint32_t st_nlink;
	uint32_t st_uid;
	uint32_t st_gid;
	uint64_t st_rdev;
	uint8_t __pad3[4];
	uint32_t __pad3b;		/* EABI aligns st_size to 8 */
	int64_t st_size;
	uint32_t st_blksize;
	uint32_t __pad4;		/* EABI aligns st_blocks to 8 */
	uint64_t st_blocks;
	uint32_t st_atime_sec;
	uint32_t st_atime_nsec;
	uint32_t st_mtime_sec;
	uint32_t st_mtime_nsec;
	uint32_t st_ctime_sec;
	uint32_t st_ctime_nsec;
	uint64_t st_ino;
};
_Static_assert(sizeof(struct linux_stat64) == 104, "ARM EABI struct stat64 is 104 bytes");
_Static_assert(offsetof(struct linux_stat64, st_size) == 48, "stat64.st_size at 48");
_Static_assert(offsetof(struct linux_stat64, st_ino) == 96, "stat64.st_ino at 96");

struct linux_statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

struct linux_statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t __spare0;
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct linux_statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor;
	uint32_t stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t __spare3[12];
};
_Static_assert(sizeof(struct linux_statx) == 256, "struct statx is 256 bytes");
_Static_assert(offsetof(struct linux_statx, stx_atime) == 0x40, "statx.stx_atime at 0x40");
_Static_assert(offsetof(struct linux_statx, stx_rdev_major) == 0x80, "statx.stx_rdev_major at 0x80");

#define LINUX_STATX_TYPE	0x001U
#define LINUX_STATX_MODE	0x002U
#define LINUX_STATX_NLINK	0x004U
#define LINUX_STATX_UID		0x008U
#define LINUX_STATX_GID		0x010U
#define LINUX_STATX_ATIME	0x020U
#define LINUX_STATX_MTIME	0x040U
#define LINUX_STATX_CTIME	0x080U
#define LINUX_STATX_INO		0x100U
#define LINUX_STATX_SIZE	0x200U
#define LINUX_STATX_BLOCKS	0x400U
#define LINUX_STATX_BASIC_STATS	0x7ffU
#define LINUX_STATX__RESERVED	0x80000000U

#endif
