/* test.h - what every host test includes: cmocka and the shim. */
#ifndef TINYMM_HOST_TEST_H
#define TINYMM_HOST_TEST_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "shim.h"

/* cmdline_parse()'s warning callback for a test that expects none: any warning fails it. */
static inline void no_warning(const char *line)
{
	fprintf(stderr, "cmdline: %s\n", line);
	fail();
}

/* Assert the captured console output contains @needle. */
#define assert_console_has(needle)							\
	do {										\
		if (!strstr(shim_console, (needle))) {					\
			fprintf(stderr, "console output:\n%s\n--- lacks: %s\n", shim_console, (needle)); \
			fail();								\
		}									\
	} while (0)
#endif
