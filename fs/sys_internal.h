/* sys_internal.h - what fs/sys_fd.c and fs/sys_path.c share: a file's attributes as the
 * status calls report them, and the device number of a filesystem's disk. */
#ifndef TINYMM_FS_SYS_INTERNAL_H
#define TINYMM_FS_SYS_INTERNAL_H

struct file;
struct kstat;

int file_getattr(struct file *file, struct kstat *st, unsigned int *rdev_major,
		 unsigned int *rdev_minor);
void kstat_dev(const struct kstat *st, unsigned int *major, unsigned int *minor);

#endif
