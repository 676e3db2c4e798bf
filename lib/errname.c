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
	E(ENOENT), E(EIO), E(ENXIO), E(E2BIG), E(ENOMEM), E(EBUSY), E(EEXIST), E(ENODEV),
	E(EINVAL), E(ENOSPC), E(ERANGE), E(EOPNOTSUPP), E(ETIMEDOUT), E(EHWPOISON),
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
