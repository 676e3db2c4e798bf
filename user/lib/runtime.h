/* runtime.h - what the runtime's own files share (user/lib): not for programs. */
#ifndef TINYMM_USER_RUNTIME_H
#define TINYMM_USER_RUNTIME_H
#include <stdnoreturn.h>

void __tinymm_stdio_exit(void);
noreturn void __tinymm_start(long *sp);
#endif
