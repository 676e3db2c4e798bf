/*
 * uapi/utsname.h - Linux v6.10's struct new_utsname (include/uapi/linux/utsname.h): what
 * uname(2) fills on every ABI tinymm has.
 */
#ifndef TINYMM_UAPI_UTSNAME_H
#define TINYMM_UAPI_UTSNAME_H

#define LINUX_NEW_UTS_LEN	64

/* uname -m: what Linux reports for the ABI (ARMv7 little-endian: "armv7l"); the host's tests
 * use RV64's ABI. */
#if defined(__arm__)
#define UTS_MACHINE	"armv7l"
#elif defined(__riscv) && __riscv_xlen == 32
#define UTS_MACHINE	"riscv32"
#else
#define UTS_MACHINE	"riscv64"
#endif

struct linux_new_utsname {
	char sysname[LINUX_NEW_UTS_LEN + 1];
	char nodename[LINUX_NEW_UTS_LEN + 1];
	char release[LINUX_NEW_UTS_LEN + 1];
	char version[LINUX_NEW_UTS_LEN + 1];
	char machine[LINUX_NEW_UTS_LEN + 1];
	char domainname[LINUX_NEW_UTS_LEN + 1];
};

#endif
