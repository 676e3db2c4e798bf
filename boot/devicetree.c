/*
 * devicetree.c - the boot device tree: validated once by lib/fdt.c, then read by everyone
 * through boot_dt().  The `dtb` command prints it in .dts syntax.
 * Locking: none; the tree is read-only after devicetree_init().
 */
#include <string.h>
#include "tinymm/devicetree.h"
#include "tinymm/memory.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static struct dt the_dt;
static bool dt_valid;
static phys_addr_t dt_phys;

int devicetree_init(uintptr_t pa, char *err)
{
	const void *blob = __va(pa);
	uint32_t size;

	if (!pa) {
		ksnprintf(err, DT_ERR_MAX, "no device tree was passed to the kernel");
		return -1;
	}
	size = dt_peek_totalsize(blob);
	if (size > DT_MAX_SIZE) {
		ksnprintf(err, DT_ERR_MAX, "totalsize %u is larger than the %u bytes tinymm accepts",
			  (unsigned)size, (unsigned)DT_MAX_SIZE);
		return -1;
	}
	/* Only the header is read before dt_open() has checked it against @size. */
	if (dt_open(&the_dt, blob, size ? size : 64, err))
		return -1;
	dt_valid = true;
	dt_phys = pa;
	return 0;
}

const struct dt *boot_dt(void)
{
	return dt_valid ? &the_dt : NULL;
}

phys_addr_t boot_dt_phys(void)
{
	return dt_phys;
}

static bool printable_strings(const char *v, int len)
{
	if (len == 0 || v[len - 1] != '\0' || v[0] == '\0')
		return false;
	for (int i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c == '\0') {
			if (i + 1 < len && v[i + 1] == '\0')
				return false;	/* empty string inside the list: binary data */
		} else if (c < 0x20 || c > 0x7e) {
			return false;
		}
	}
	return true;
}

static void print_value(const uint8_t *v, int len)
{
	if (printable_strings((const char *)v, len)) {
		for (int off = 0; off < len; off++) {
			char c = (char)v[off];
			if (c == '\0')	/* end of one string of the list */
				kprintf("\"%s", off + 1 < len ? ", " : "");
			else
				kprintf("%s%s%c", off == 0 || v[off - 1] == '\0' ? "\"" : "",
					c == '"' || c == '\\' ? "\\" : "", c);
		}
	} else if (len % 4 == 0) {
		kprintf("<");
		for (int i = 0; i < len; i += 4)
			kprintf("%s0x%x", i ? " " : "", (unsigned)dt_be32(v + i));
		kprintf(">");
	} else {
		kprintf("[");
		for (int i = 0; i < len; i++)
			kprintf("%s%02x", i ? " " : "", v[i]);
		kprintf("]");
	}
}

static void indent(int depth)
{
	for (int i = 0; i < depth; i++)
		kprintf("\t");
}

static int cmd_dtb(int argc, char **argv)
{
	const struct dt *dt = boot_dt();
	int depth = 0, node = dt_root(dt), prev_depth = 0;

	if (shell_no_args(argc, argv))
		return 2;
	kprintf("/dts-v1/;\n");
	for (int i = 0;; i++) {
		uint64_t base, size;
		if (dt_memreserve(dt, i, &base, &size))
			break;
		kprintf("/memreserve/ 0x%llx 0x%llx;\n", (unsigned long long)base, (unsigned long long)size);
	}
	while (node >= 0) {
		for (; prev_depth > depth; prev_depth--) {
			indent(prev_depth - 1);
			kprintf("};\n");
		}
		indent(depth);
		kprintf("%s {\n", depth ? dt_node_name(dt, node) : "/");
		for (int p = dt_first_prop(dt, node); p >= 0; p = dt_next_prop(dt, p)) {
			const char *name;
			int len;
			const uint8_t *v = dt_prop_at(dt, p, &name, &len);
			indent(depth + 1);
			kprintf("%s", name);
			if (len) {
				kprintf(" = ");
				print_value(v, len);
			}
			kprintf(";\n");
		}
		prev_depth = depth + 1;
		node = dt_next_node(dt, node, &depth);
		if (node < 0)
			depth = 0;
	}
	for (; prev_depth > 0; prev_depth--) {
		indent(prev_depth - 1);
		kprintf("};\n");
	}
	return 0;
}
SHELL_COMMAND(dtb, "", "print the boot device tree in .dts syntax", cmd_dtb);
