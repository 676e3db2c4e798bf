/* shim.h - what host tests see of the fake arch/console layer in shim.c. */
#ifndef TINYMM_TEST_SHIM_H
#define TINYMM_TEST_SHIM_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* Everything written to the console since the last shim_console_reset(). */
extern char shim_console[1 << 16];
extern size_t shim_console_len;
void shim_console_reset(void);
/* Bytes console_getc() returns next (then -1). */
void shim_console_input(const char *s);

/* The fake architected counter: arch_counter_read() returns this. */
extern uint64_t shim_counter;
extern uint64_t shim_counter_freq;

/* machine_poweroff() ends in arch_poweroff(): with shim_poweroff_armed set it longjmps here. */
extern jmp_buf shim_poweroff_jmp;
extern int shim_poweroff_armed;
extern int shim_poweroff_status;

/* Run one shell command line (copied, so a literal is fine) with the console captured afresh;
 * returns the command's status. */
int shim_run(const char *cmd);

/* Read a whole file (a DTB) into malloc'd memory; aborts the test if it cannot. */
void *shim_read_file(const char *path, size_t *len);
/* A whole text file, NUL-terminated, malloc'd; exits 2 with one line naming it if it cannot. */
char *shim_read_text(const char *path);
#endif
