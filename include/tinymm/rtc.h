/* rtc.h - the wall clock (drivers/rtc.c): nanoseconds since 1970 from the board's real-time
 * clock; 0, or -ENOENT when the device tree names none tinymm drives. */
#ifndef TINYMM_RTC_H
#define TINYMM_RTC_H

#include <stdint.h>

int rtc_read_ns(uint64_t *ns);
int pl031_rtc_read_ns(uint64_t *ns);	/* drivers/rtc-pl031.c */

#endif
