/*
 * errname.c - error number to name (errname.h), as v6.10's lib/errname.c: one string per
 * errno.h entry, kept with its minus sign so a negative error is returned as is.
 * Locking: none (a constant table).
 */
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/kernel.h"

#define E(err) [err] = "-" #err
static const char *const names[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR),
	E(EINVAL), E(ENFILE), E(EMFILE), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(ERANGE), E(ENAMETOOLONG), E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(EOVERFLOW), E(EOPNOTSUPP), E(ETIMEDOUT),
	E(EUCLEAN), E(EHWPOISON),
};
#undef E

const char *errname(int err)
{
	unsigned int e = err < 0 ? -(unsigned int)err : (unsigned int)err;
	const char *name = e < ARRAY_SIZE(names) ? names[e] : NULL;

	if (!name)
		return NULL;
	return err > 0 ? name + 1 : name;
}
