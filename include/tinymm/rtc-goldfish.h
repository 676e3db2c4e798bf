/*
 * rtc-goldfish.h - a real level-triggered interrupt on demand, for tests (drivers/rtc-goldfish.c).
 *
 * QEMU's Goldfish RTC ("google,goldfish-rtc"; on RISC-V virt at 0x101000, PLIC source 11)
 * raises its interrupt line when an alarm at or before the current time is set, and holds it
 * high (level) until CLEAR_INTERRUPT is written.  No handler is registered for it by tinymm, so
 * a test can fire a line nobody asked for and watch "nobody cared" mask it.
 *   goldfish_rtc_fire_alarm(): enable its interrupt and set an alarm in the past; 0, or -ENOENT
 *     if the boot device tree has no such device.
 *   goldfish_rtc_clear(): disable its interrupt, cancel any alarm and lower the line; 0 or -ENOENT.
 *   goldfish_rtc_irq(): its interrupt as a virq (irq_of_parse_and_map), 0 if none.
 */
#ifndef TINYMM_RTC_GOLDFISH_H
#define TINYMM_RTC_GOLDFISH_H

#include <stdint.h>

/* The wall clock in nanoseconds since 1970 into *@ns: 0, or -ENOENT without the device
 * (fs/inode.c's current_time reads it once). */
int goldfish_rtc_read_ns(uint64_t *ns);
int goldfish_rtc_fire_alarm(void);
int goldfish_rtc_clear(void);
unsigned int goldfish_rtc_irq(void);

#endif
