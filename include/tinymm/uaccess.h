/*
 * uaccess.h - the only way the kernel touches a task's memory (Linux's names and contracts).
 *
 *   copy_from_user(to, from, n) / copy_to_user(to, from, n)
 *                          the number of bytes NOT copied (0: all of them); a short copy from
 *                          user space zero-fills the rest of @to, as Linux's
 *   get_user(x, p) / put_user(x, p)   one object: 0 or -EFAULT (get_user sets x = 0 on failure)
 *   strncpy_from_user(dst, src, n)    the string's length (NUL not counted), @n if no NUL in the
 *                          first @n bytes (dst then unterminated, as Linux's), or -EFAULT
 *   clear_user(to, n)      zero user memory: bytes not cleared
 *   access_ok(p, n)        [p, p + n) lies in user space (below TASK_SIZE), without wrapping
 *
 * Under them the architecture's raw_copy_from_user / raw_copy_to_user (arch/<arch>/uaccess.S,
 * the host's tests/host/host_uaccess.c): copy with user access enabled only inside them (RISC-V
 * sstatus.SUM, ARM: see docs/user.md), every load or store of a user address covered by an
 * exception-table entry (include/tinymm/extable.h).  A fault there is resolved as a user fault
 * (the page is demand-paged, do_user_addr_fault) and, if it cannot be, resumes at the fixup,
 * which returns the bytes left.  They may sleep (a fault may read a page): never call them with
 * interrupts masked or a spinlock held.
 */
#ifndef TINYMM_UACCESS_H
#define TINYMM_UACCESS_H

#include <string.h>
#include "errno.h"
#include "kernel.h"
#include "pgtable.h"

#define __user

unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long raw_copy_to_user(void __user *to, const void *from, unsigned long n);

static inline bool access_ok(const void __user *p, unsigned long n)
{
	unsigned long a = (unsigned long)p;

	return n <= TASK_SIZE && a <= TASK_SIZE - n;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left = n;

	if (likely(access_ok(from, n)))
		left = raw_copy_from_user(to, from, n);
	if (unlikely(left))
		memset((char *)to + (n - left), 0, left);
	return left;
}

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (unlikely(!access_ok(to, n)))
		return n;
	return raw_copy_to_user(to, from, n);
}

/* One object of *p's type through a byte buffer (the type may be const-qualified). */
#define get_user(x, p) ({							\
	union { unsigned long long __ll; unsigned char __b[sizeof(*(p))]; } __gu;	\
	int __gu_err = copy_from_user(__gu.__b, (p), sizeof(*(p))) ? -EFAULT : 0;	\
	(x) = *(const __typeof__(*(p)) *)(const void *)__gu.__b;		\
	__gu_err;								\
})

#define put_user(x, p) ({							\
	__typeof__(*(p)) __pu_val = (x);					\
	copy_to_user((p), &__pu_val, sizeof(__pu_val)) ? -EFAULT : 0;		\
})

long strncpy_from_user(char *dst, const char __user *src, long count);
unsigned long clear_user(void __user *to, unsigned long n);

#endif
