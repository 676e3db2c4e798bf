/*
 * msdos_partition.h - the MBR ("DOS") partition table: its on-disk layout (v6.10's
 * include/linux/msdos_partition.h) and tinymm's pure parser of it (block/partitions/msdos.c).
 *
 * The parser reads blocks through a callback and knows nothing of disks or bios, so the host
 * tests run it over image files that sfdisk made (tests/host/msdos_test.c).  All positions it
 * takes and gives are in the table's own unit, the disk's logical block (512 bytes on every disk
 * tinymm has met); block/partitions/core.c turns them into 512-byte sectors.
 */
#ifndef TINYMM_MSDOS_PARTITION_H
#define TINYMM_MSDOS_PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSDOS_LABEL_MAGIC1	0x55
#define MSDOS_LABEL_MAGIC2	0xAA
#define MSDOS_TABLE_OFFSET	0x1be	/* the four entries, 16 bytes each */

enum msdos_sys_ind {
	DOS_EXTENDED_PARTITION = 0x05,
	WIN98_EXTENDED_PARTITION = 0x0f,
	LINUX_EXTENDED_PARTITION = 0x85,
	EFI_PMBR_OSTYPE_EFI_GPT = 0xee,
};

/* One 16-byte entry as it lies on the disk (little-endian, unaligned in the sector). */
struct msdos_partition {
	uint8_t boot_ind;		/* 0x80: active, 0: not; anything else: not an MBR */
	uint8_t head, sector, cyl;	/* CHS start: ignored, as Linux does */
	uint8_t sys_ind;		/* the type */
	uint8_t end_head, end_sector, end_cyl;
	uint8_t start_sect[4];		/* LBA of the first block (EBR entries: relative) */
	uint8_t nr_sects[4];
};

/*
 * Partition numbers 1..4 are the primary entries (a hole where an entry is empty), 5.. the
 * logical partitions in the order of the extended chain.  An extended chain of more than
 * MSDOS_MAX_LOGICAL links refuses the table.
 */
#define MSDOS_MAX_LOGICAL	32
#define MSDOS_MAX_PARTS		(4 + MSDOS_MAX_LOGICAL)

struct msdos_part {
	uint64_t start;			/* logical blocks from the start of the disk */
	uint64_t nr_sects;		/* logical blocks; an extended container: 2 (v6.10) */
	uint8_t partno;			/* 1.. */
	uint8_t sys_ind;
	bool extended;			/* the extended container itself (a primary entry) */
};

struct msdos_table {
	int nr_parts;			/* valid entries of parts[], by increasing partno */
	struct msdos_part parts[MSDOS_MAX_PARTS];
};

enum msdos_result {
	MSDOS_NO_TABLE = 0,	/* no 0x55AA, or a boot sector that is not an MBR: no partitions */
	MSDOS_TABLE = 1,	/* a table, trusted: @t holds its partitions (maybe none) */
	MSDOS_GPT = 2,		/* a GPT's protective MBR: tinymm reads no GPT, no partitions */
	MSDOS_BAD = -1,		/* a table that cannot be trusted: @why says why, no partitions */
	MSDOS_IO_ERROR = -2,	/* a block could not be read: @why says which */
};

/*
 * Read logical block @block (< the disk's size) into @buf (@block_size bytes); 0 or -errno.
 */
typedef int (*msdos_read_block_t)(void *ctx, uint64_t block, uint8_t *buf);

/*
 * Parse the MBR of a disk of @nr_blocks logical blocks of @block_size bytes (512..65536, a power
 * of two), reading through @read(@ctx, ...).  @buf is the caller's block buffer.  On MSDOS_BAD
 * and MSDOS_IO_ERROR, @why (@why_len bytes) holds one reason without a newline.  Pure: no
 * allocation, no printing, no global state.
 */
enum msdos_result msdos_partition(msdos_read_block_t read, void *ctx, uint64_t nr_blocks,
				  unsigned int block_size, uint8_t *buf, struct msdos_table *t,
				  char *why, size_t why_len);

static inline bool is_extended_partition(uint8_t sys_ind)
{
	return sys_ind == DOS_EXTENDED_PARTITION || sys_ind == WIN98_EXTENDED_PARTITION ||
	       sys_ind == LINUX_EXTENDED_PARTITION;
}

#endif
