/*
 * tinymm_user.h - what tinymm's small C runtime (user/lib) adds to picolibc's headers for the
 * programs under user/: calls picolibc does not declare.
 */
#ifndef TINYMM_USER_H
#define TINYMM_USER_H

/* Set the program break to @addr: 0, or -1 with errno ENOMEM (Linux's brk, as glibc wraps it). */
int brk(void *addr);
#endif
