#!/usr/bin/python3
"""pagemap.py - summarise a kpageflags file as Linux's page-types does, and draw physical memory.

    tools/pagemap.py FILE [-r] [-a ADDR]... [-l] [-N] [--png OUT.png] [--columns N] [--cell PX]

FILE holds one native-endian u64 KPF word per pfn from pfn 0 (/proc/kpageflags, or what
tools/kpageflags-extract makes from a tinymm console log).  The output is page-types' (Linux
v6.10 tools/mm/page-types.c, run as `page-types -F FILE`), byte for byte:

                 flags	page-count       MB  symbolic-flags			long-symbolic-flags
    0x0000000000100000	    524288     2048  ____________________n________________________	nopage
                 total	    524288     2048

one row per distinct (processed) KPF word, in page-types' hash-table order, then the total.
symbolic-flags has one letter per named bit (e.g. L locked, r reserved, B buddy, n nopage) or
'_'; long-symbolic-flags names the bits set.  As in page-types, without -r the kernel-hacker
bits 32-47 (reserved, mlocked, private, arch...) are hidden and compound bits dropped unless
KPF_HUGE; with -r (raw) they are shown, with the overloaded bits expanded (anon + mappedtodisk
= anon_exclusive, reclaim without writeback = readahead, slab + active = slub_frozen).
-a takes page-types' addr-spec (N, N+M, N,M, N, or ,M: pfns, decimal or 0x hex); -l lists
runs of pages with the same flags (offset, len, flags, in hex) before the summary; -N drops
the summary.  A set bit page-types has no name for is an error, as there.

--png draws one cell per frame of the selected range (default: first to last frame that is not
NOPAGE, widened to whole rows), --columns frames per row (default 256: 1 MiB of 4K frames), each
cell --cell pixels square (default: as large as fits 1024 pixels, 1 to 8), coloured by class;
the first class that matches wins (CLASSES below), raw flags are used.  Layout: a 100-pixel
column of row addresses, the grid, 20 pixels, a 240-pixel legend; a 30-pixel title above and
10 pixels below; the height is the larger of grid and legend.  The PNG needs PIL (Pillow),
which Debian's python3-pil (tools/install-deps) provides for /usr/bin/python3 only: hence the
#!/usr/bin/python3 line, so `tools/pagemap.py` finds it whatever python3 comes first on PATH.
Run under an interpreter without PIL (`python3 tools/pagemap.py --png ...` with a pyenv or venv
python3 first on PATH), --png stops before printing anything, with exit status 1 and one line:
"pagemap.py: --png needs PIL, which <interpreter> cannot import: install python3-pil
(tools/install-deps) and run tools/pagemap.py itself (#!/usr/bin/python3)".  The table needs
only the standard library.
"""
import argparse
import array
import collections
import sys

PAGE_SIZE = 4096
KPF_NOPAGE = 20
HACKERS_BITS = 0xffff << 32
BITS_COMPOUND = (1 << 15) | (1 << 16)

# page-types' page_flag_names (v6.10): bit -> "letter:name".
FLAG_NAMES = {
    0: "L:locked", 1: "E:error", 2: "R:referenced", 3: "U:uptodate", 4: "D:dirty",
    5: "l:lru", 6: "A:active", 7: "S:slab", 8: "W:writeback", 9: "I:reclaim", 10: "B:buddy",
    11: "M:mmap", 12: "a:anonymous", 13: "s:swapcache", 14: "b:swapbacked",
    15: "H:compound_head", 16: "T:compound_tail", 17: "G:huge", 18: "u:unevictable",
    19: "X:hwpoison", 20: "n:nopage", 21: "x:ksm", 22: "t:thp", 23: "o:offline",
    24: "z:zero_page", 25: "i:idle_page", 26: "g:pgtable",
    32: "r:reserved", 33: "m:mlocked", 34: "d:mappedtodisk", 35: "P:private",
    36: "p:private_2", 37: "O:owner_private", 38: "h:arch", 39: "c:uncached",
    40: "f:softdirty", 41: "H:arch_2", 42: "H:arch_3",
    47: "d:anon_exclusive", 48: "I:readahead", 50: "A:slub_frozen", 51: "E:slub_debug",
    61: "F:file", 62: "w:swap", 63: "1:mmap_exclusive",
}
NAMED_BITS = sorted(FLAG_NAMES)
BIT = {v[2:]: 1 << k for k, v in FLAG_NAMES.items()}

# PNG classes, first match wins: (name, RGB, test on the raw KPF word).
CLASSES = [
    ("hole (nopage)", (64, 64, 64), lambda f: f & BIT["nopage"]),
    ("hwpoison", (220, 20, 60), lambda f: f & BIT["hwpoison"]),
    ("reserved", (230, 140, 30), lambda f: f & BIT["reserved"]),
    ("free (buddy)", (110, 200, 110), lambda f: f & BIT["buddy"]),
    ("slab", (150, 90, 200), lambda f: f & BIT["slab"]),
    ("page table", (200, 190, 40), lambda f: f & BIT["pgtable"]),
    ("huge / thp", (40, 190, 200), lambda f: f & (BIT["huge"] | BIT["thp"])),
    ("anonymous", (240, 120, 180), lambda f: f & BIT["anonymous"]),
    ("lru / page cache", (70, 120, 220),
     lambda f: f & (BIT["lru"] | BIT["uptodate"] | BIT["dirty"] | BIT["writeback"])),
    ("other flags", (160, 160, 160), lambda f: f),
    ("no flags (usable)", (245, 245, 245), lambda f: True),
]


def fatal(msg):
    print(f"pagemap.py: {msg}", file=sys.stderr)
    sys.exit(1)


def flag_name(flags):
    for i in range(64):
        if flags >> i & 1 and i not in FLAG_NAMES:
            fatal(f"unknown flag bit {i}")
    return "".join(FLAG_NAMES[i][0] if flags >> i & 1 else "_" for i in NAMED_BITS)


def flag_longname(flags):
    return ",".join(FLAG_NAMES[i][2:] for i in NAMED_BITS if flags >> i & 1)


def expand_overloaded_flags(flags):
    if flags & BIT["anonymous"] and flags & BIT["mappedtodisk"]:
        flags ^= BIT["mappedtodisk"] | BIT["anon_exclusive"]
    if flags & BIT["slab"]:
        if flags & BIT["active"]:
            flags ^= BIT["active"] | BIT["slub_frozen"]
        if flags & BIT["error"]:
            flags ^= BIT["error"] | BIT["slub_debug"]
    if flags & (BIT["reclaim"] | BIT["writeback"]) == BIT["reclaim"]:
        flags ^= BIT["reclaim"] | BIT["readahead"]
    return flags          # no pagemap entry here, so no softdirty/file/swap/mmap_exclusive


def well_known_flags(flags):
    flags &= ~HACKERS_BITS
    if flags & BITS_COMPOUND and not flags & BIT["huge"]:
        flags &= ~BITS_COMPOUND
    return flags


def parse_number(s):
    try:
        return int(s, 0)
    except ValueError:
        fatal(f"invalid name or number: {s}")


def parse_addr_range(spec):
    """page-types' addr-spec -> (offset, size) in pages."""
    sep = "," if "," in spec else "+" if "+" in spec else None
    if sep is None:
        return parse_number(spec), 1
    head, tail = spec.split(sep, 1)
    if not head:
        return 0, parse_number(tail)
    offset = parse_number(head)
    if not tail:
        return offset, 1 << 64
    size = parse_number(tail)
    if sep == ",":
        if size < offset:
            fatal(f"invalid range: {offset},{size}")
        size -= offset
    return offset, size


def hash_order(counts):
    """page-types' open-addressed table (HASH_SHIFT 13): rows come out in slot order."""
    size = 1 << 13
    slots = [0] * size
    where = {}
    for flags in counts:              # in order of first appearance, as add_page() meets them
        if flags == 0:
            where[0] = 0
            continue
        k = flags & (size - 1)
        for _ in range(1, size):
            if not k or k >= size:
                k = 1
            if slots[k] == 0:
                slots[k] = flags
                where[flags] = k
                break
            k += 1
        else:
            fatal("hash table full: bump up HASH_SHIFT?")
    return sorted(counts, key=lambda f: where[f])


def summary(counts):
    mb = lambda n: n * PAGE_SIZE >> 20
    out = ["             flags\tpage-count       MB  symbolic-flags\t\t\tlong-symbolic-flags"]
    for flags in hash_order(counts):
        out.append(f"0x{flags:016x}\t{counts[flags]:10d} {mb(counts[flags]):8d}  "
                   f"{flag_name(flags)}\t{flag_longname(flags)}")
    total = sum(counts.values())
    out.append(f"             total\t{total:10d} {mb(total):8d}")
    return "\n".join(out) + "\n"


def import_pil():
    """PIL's modules, or the one-line error saying what to install (see the docstring)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        fatal(f"--png needs PIL, which {sys.executable or 'this python3'} cannot import: install "
              f"python3-pil (tools/install-deps) and run tools/pagemap.py itself "
              f"(#!/usr/bin/python3)")
    return Image, ImageDraw, ImageFont


def draw_png(path, words, first, end, columns, cell):
    Image, ImageDraw, ImageFont = import_pil()

    rows = (end - first) // columns
    if cell is None:
        cell = max(1, min(8, 1024 // max(rows, columns)))
    counts = [0] * len(CLASSES)
    grid = Image.new("RGB", (columns, rows))
    pixels = []
    for pfn in range(first, end):
        flags = words[pfn] if pfn < len(words) else 1 << KPF_NOPAGE
        for i, (_, rgb, test) in enumerate(CLASSES):
            if test(flags):
                counts[i] += 1
                pixels.append(rgb)
                break
    grid.putdata(pixels)
    grid = grid.resize((columns * cell, rows * cell), Image.NEAREST)

    left, top, gap, legend_w = 100, 30, 20, 240
    legend_h = top + 20 * len(CLASSES) + 10
    width = left + columns * cell + gap + legend_w
    height = max(top + rows * cell + 10, legend_h)
    img = Image.new("RGB", (width, height), (255, 255, 255))
    img.paste(grid, (left, top))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    d.text((4, 8), f"pfn {first:#x}-{end - 1:#x}: one cell per 4K frame, {columns} per row",
           fill=(0, 0, 0), font=font)
    d.rectangle((left - 1, top - 1, left + columns * cell, top + rows * cell), outline=(0, 0, 0))
    step = 1
    while step * cell < 12:                   # a label every power-of-two rows, 12+ pixels apart
        step *= 2
    for r in range(0, rows, step):
        d.text((4, top + r * cell), f"{(first + r * columns) * PAGE_SIZE:#010x}",
               fill=(0, 0, 0), font=font)
    x = left + columns * cell + gap
    for i, (name, rgb, _) in enumerate(CLASSES):
        y = top + 20 * i
        d.rectangle((x, y, x + 14, y + 14), fill=rgb, outline=(0, 0, 0))
        d.text((x + 20, y + 2), f"{name}: {counts[i]}", fill=(0, 0, 0), font=font)
    img.save(path, "PNG")
    return width, height, cell


def main():
    ap = argparse.ArgumentParser(description="page-types -F for a kpageflags file, plus a PNG map")
    ap.add_argument("file")
    ap.add_argument("-r", "--raw", action="store_true", help="raw mode, for kernel developers")
    ap.add_argument("-a", "--addr", action="append", default=[], help="walk a range of pages")
    ap.add_argument("-l", "--list", action="store_true", help="show page details in ranges")
    ap.add_argument("-N", "--no-summary", action="store_true", help="don't show summary info")
    ap.add_argument("--png", help="draw the physical memory map into this PNG file")
    ap.add_argument("--columns", type=int, default=256, help="frames per PNG row (default 256)")
    ap.add_argument("--cell", type=int, help="PNG cell size in pixels (default: fit 1024)")
    args = ap.parse_args()
    if args.png:
        import_pil()                      # fail before the table, not after it

    words = array.array("Q")
    try:
        with open(args.file, "rb") as f:
            data = f.read()
    except OSError as e:
        fatal(e)
    if len(data) % 8:
        fatal(f"partial read: {len(data) % 8} bytes")
    words.frombytes(data)
    ranges = [parse_addr_range(a) for a in args.addr] or [(0, 1 << 64)]

    counts = collections.Counter()
    listing, run = [], None               # run: [offset, len, flags]
    for offset, size in ranges:
        for pfn in range(offset, min(offset + size, len(words))):
            flags = words[pfn]
            flags = expand_overloaded_flags(flags) if args.raw else well_known_flags(flags)
            counts[flags] += 1
            if args.list:
                if run and run[2] == flags and run[0] + run[1] == pfn:
                    run[1] += 1
                else:
                    if run:
                        listing.append(run)
                    run = [pfn, 1, flags]
    if args.list:
        if run:
            listing.append(run)
        lines = ["offset\tlen\tflags"] + [f"{o:x}\t{n:x}\t{flag_name(fl)}" for o, n, fl in listing]
        print("\n".join(lines))
    if not args.no_summary:
        if args.list:
            print("\n")
        sys.stdout.write(summary(counts))

    if args.png:
        if args.columns < 1 or (args.cell is not None and args.cell < 1):
            fatal("--columns and --cell must be 1 or more")
        if args.addr:
            first = min(o for o, _ in ranges)
            end = max(min(o + s, len(words)) for o, s in ranges)
        else:
            present = [p for p in range(len(words)) if not words[p] >> KPF_NOPAGE & 1]
            if not present:
                fatal("every frame is NOPAGE: nothing to draw")
            first, end = present[0], present[-1] + 1
        first -= first % args.columns
        end += -end % args.columns
        w, h, cell = draw_png(args.png, words, first, end, args.columns, args.cell)
        print(f"pagemap.py: wrote {args.png}: {w}x{h} pixels, {end - first} frames "
              f"(pfn {first:#x}-{end - 1:#x}), {args.columns} per row, {cell}-pixel cells",
              file=sys.stderr)


if __name__ == "__main__":
    main()
