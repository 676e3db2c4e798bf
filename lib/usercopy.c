/*
 * usercopy.c - the user-memory calls built on the architecture's raw copies
 * (include/tinymm/uaccess.h): strncpy_from_user() and clear_user().
 */
#include "tinymm/uaccess.h"

/*
 * Copies in pieces that never cross a page boundary (a string may end just before an unmapped
 * page: only the bytes up to its NUL may be required to exist, as Linux's word-at-a-time version
 * guarantees by aligning its reads).
 */
long strncpy_from_user(char *dst, const char __user *src, long count)
{
	unsigned long addr = (unsigned long)src;
	long done = 0;

	if (count <= 0)
		return 0;
	while (done < count) {
		unsigned long chunk = PAGE_SIZE - ((addr + done) & (PAGE_SIZE - 1));

		if (chunk > 256)	/* paths and argv strings are short: don't copy a page each */
			chunk = 256;
		if (chunk > (unsigned long)(count - done))
			chunk = count - done;
		if (!access_ok((const void __user *)(addr + done), chunk) ||
		    raw_copy_from_user(dst + done, (const void __user *)(addr + done), chunk))
			return -EFAULT;
		const char *nul = memchr(dst + done, '\0', chunk);
		if (nul)
			return nul - dst;
		done += chunk;
	}
	return count;
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	static const char zeros[256];
	unsigned long addr = (unsigned long)to, done = 0;

	if (!access_ok(to, n))
		return n;
	while (done < n) {
		unsigned long chunk = n - done < sizeof(zeros) ? n - done : sizeof(zeros);
		unsigned long left = raw_copy_to_user((void __user *)(addr + done), zeros, chunk);

		if (left)
			return n - done - (chunk - left);
		done += chunk;
	}
	return 0;
}
