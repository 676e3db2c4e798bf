/*
 * file.c - ext2 regular files: the generic page-cache read, write and fsync (fs/read_write.c)
 * over ext2_aops (inode.c).  Linux v6.10 fs/ext2/file.c, reduced: no DAX, no direct I/O.
 * Size changes (truncate up or down) are ext2_setsize (inode.c).
 */
#include "ext2.h"

const struct file_operations ext2_file_operations = {
	.read = generic_file_read,
	.write = generic_file_write,
	.fsync = generic_file_fsync,
};

const struct inode_operations ext2_file_inode_operations = {
	.setsize = ext2_setsize,
};
