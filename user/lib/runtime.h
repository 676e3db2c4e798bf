/* runtime.h - what the runtime's own files share (user/lib): not for programs. */
#ifndef TINYMM_USER_RUNTIME_H
#define TINYMM_USER_RUNTIME_H
#include <stdnoreturn.h>

/* What libc returns: the result, or -1 with errno set from a -errno result (lib/errno.c). */
long __syscall_ret(long r);
void __tinymm_stdio_exit(void);
noreturn void __tinymm_start(long *sp);
#endif
