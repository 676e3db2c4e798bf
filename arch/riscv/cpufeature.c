/*
 * cpufeature.c - which multi-letter ISA extensions the boot CPU has, from the device tree
 * (Linux's arch/riscv/kernel/cpufeature.c reads the same two properties).
 */
#include <string.h>
#include "tinymm/fdt.h"
#include "riscv.h"

/*
 * "_<ext>" as a whole multi-letter extension of riscv,isa ("rv64imafdc_svpbmt_sstc"), or
 * "<ext>" in the newer riscv,isa-extensions string list.  @ext is lower case, as both are.
 */
bool riscv_isa_extension(const struct dt *dt, int cpu, const char *ext)
{
	const char *isa = dt_getprop_str(dt, cpu, "riscv,isa");
	size_t n = strlen(ext);
	int len;

	for (const char *p = isa; p && (p = strstr(p, "_")); p++)
		if (!strncmp(p + 1, ext, n) && (p[n + 1] == '\0' || p[n + 1] == '_'))
			return true;
	const char *list = dt_getprop(dt, cpu, "riscv,isa-extensions", &len);
	for (int off = 0; list && off < len;) {
		size_t m = strnlen(list + off, (size_t)(len - off));
		if (m == n && !memcmp(list + off, ext, n))
			return true;
		off += (int)m + 1;
	}
	return false;
}
