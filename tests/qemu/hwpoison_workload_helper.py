#!/usr/bin/env python3
# hwpoison_workload_helper.py - the host side of tests/qemu/hwpoison_workload_test.sh (stdlib
# only): makes the disk image, replays `blk-stress <dev> <ops> <seed> <poisons>`
# (block/blk-stress.c) and judges the kernel's log and the final image.
#   hwpoison_workload_helper.py image IMG SIZE SEED
#       the initial image: "op 0" of the workload's byte generator for SEED (what blk-stress's
#       model expects on a disk it has not written yet)
#   hwpoison_workload_helper.py check IMG LOG OPS SEED POISONS [DEV]
#       IMG is the image after QEMU exited, LOG the console (\r stripped or not).  Exit 0 if
#       everything below holds, 1 with one line per failure otherwise:
#       - the log has the summary line with the replay's counts, no BUG/panic/bad page/trap/
#         warning/allocation failure/write error line, and no read or write error;
#       - every byte outside the lost ranges (`Memory failure: 0x<pfn>: dirty data lost: <dev>
#         offset <o> length <n>`) equals the replay's image; every byte inside one equals the
#         replay's or a version the byte had earlier (the initial image or any write's);
#       - every `read mismatch` lies inside lost ranges printed before it, or printed by the
#         memory_failure() call in progress when it was printed (no other frame's `recovery
#         action` line between the two: calls are serialised);
#       - every `sync: error` follows a lost range printed since the previous one (or in its
#         call's window), and every lost range is followed by a sync error (the final sync
#         reports the last one).
#       Prints a summary: ops, poisons, where they landed, lost ranges and bytes, mismatches.
#   hwpoison_workload_helper.py clean-offset LOG SIZE SEED
#       an offset outside every lost range in LOG (chosen from SEED): where the negative test
#       flips a byte.
import bisect
import collections
import re
import sys

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DATA_SALT = 0xA0761D6478BD642F
MAX_LEN = 64 * 1024
SYNC_EVERY = 128
WRITE_EIGHTHS = 5
PAGE = 4096


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def data_key(seed, op):
    return mix64(((seed ^ DATA_SALT) + op * GOLDEN) & M64)


def gen_bytes(key, off, n):
    """Op `key`'s bytes at disk offsets [off, off + n) (block/blk-stress.c's gen_bytes)."""
    if n <= 0:
        return b""
    w0, w1 = off >> 3, (off + n + 7) >> 3
    out = bytearray(8 * (w1 - w0))
    z0 = (key + w0 * GOLDEN) & M64
    i = 0
    for _ in range(w1 - w0):
        z = z0
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        out[i:i + 8] = (z ^ (z >> 31)).to_bytes(8, "little")
        z0 = (z0 + GOLDEN) & M64
        i += 8
    s = off & 7
    return bytes(out[s:s + n])


def ops_of(seed, ops, size):
    """[(op, is_write, off, len)] for op = 1..ops: blk-stress's next_op() stream."""
    x = seed
    out = []

    def nxt():
        nonlocal x
        x = (x + GOLDEN) & M64
        return mix64(x)
    for k in range(1, ops + 1):
        write = nxt() % 8 < WRITE_EIGHTHS
        n = 1 + nxt() % min(size, MAX_LEN)
        off = nxt() % (size - n + 1)
        out.append((k, write, off, n))
    return out


def final_extents(op_list, size):
    """The model after every write: ([starts], [ops]), as blk-stress's model_assign()."""
    starts, owner = [0], [0]
    for k, write, a, n in op_list:
        if not write:
            continue
        b = a + n
        i = bisect.bisect_right(starts, a) - 1
        j = bisect.bisect_right(starts, b - 1) - 1
        tail = owner[j]
        new_s, new_o = [], []
        if starts[i] < a:
            new_s.append(starts[i])
            new_o.append(owner[i])
        new_s.append(a)
        new_o.append(k)
        if (starts[j + 1] > b) if j + 1 < len(starts) else (b < size):
            new_s.append(b)
            new_o.append(tail)
        starts[i:j + 1] = new_s
        owner[i:j + 1] = new_o
    return starts, owner


def image_bytes(seed, size):
    return gen_bytes(data_key(seed, 0), 0, size)


def expected_image(seed, op_list, size):
    starts, owner = final_extents(op_list, size)
    img = bytearray(size)
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else size
        img[s:e] = gen_bytes(data_key(seed, owner[i]), s, e - s)
    return img


class Ranges:
    """A union of [start, end) byte ranges."""

    def __init__(self):
        self.r = []

    def add(self, a, b):
        self.r.append((a, b))
        self.r.sort()
        merged = []
        for s, e in self.r:
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], e))
            else:
                merged.append((s, e))
        self.r = merged

    def covers(self, a, b):
        return any(s <= a and b <= e for s, e in self.r)

    def contains(self, x):
        return self.covers(x, x + 1)

    def total(self):
        return sum(e - s for s, e in self.r)


TS = re.compile(r"^\[ *[0-9]+\.[0-9]+\] ")
MF = r"^Memory failure: 0x([0-9a-f]+): "
PATTERNS = (
    ("lost", re.compile(MF + r"dirty data lost: (\S+) offset ([0-9]+) length ([0-9]+)$")),
    ("action", re.compile(MF + r"recovery action for (.+): ([A-Za-z]+)$")),
    ("already", re.compile(MF + r"already hardware poisoned$")),
    ("mismatch", re.compile(r"^blk-stress: read mismatch at ([0-9]+) length ([0-9]+)$")),
    ("sync", re.compile(r"^blk-stress: sync: error (-?[0-9]+)$")),
    ("ioerr", re.compile(r"^blk-stress: (read|write) error at ([0-9]+) length ([0-9]+): "
                         r"error (-?[0-9]+)$")),
    ("summary", re.compile(r"^blk-stress: ([0-9]+) ops, ([0-9]+) writes, ([0-9]+) reads, "
                           r"([0-9]+) mismatches, ([0-9]+) poisoned$")),
)
RE_BAD = re.compile(r"BUG|panic|Bad page|Unhandled|WARNING:|page allocation failure|"
                    r"Buffer I/O error|out of memory")


def parse(log_text):
    """The log's events in order: (kind, line number, line, regex groups)."""
    ev = []
    for no, raw in enumerate(log_text.splitlines(), 1):
        line = TS.sub("", raw.rstrip("\r"))
        for kind, rx in PATTERNS:
            m = rx.match(line)
            if m:
                ev.append((kind, no, line, m.groups()))
                break
        else:
            if RE_BAD.search(line):
                ev.append(("bad", no, line, ()))
    return ev


def lost_range(e):
    return int(e[3][2]), int(e[3][2]) + int(e[3][3])


def window_lost(ev, idx):
    """Indices of the lost lines printed after event idx by the memory_failure() call in
    progress when it was printed: calls are serialised and each that poisons a frame ends with
    its `recovery action` line, so that call is the one whose action line comes first after idx
    (its lost line may come just before or just after that line)."""
    r = next((i for i in range(idx + 1, len(ev)) if ev[i][0] == "action"), None)
    if r is None:
        return [i for i in range(idx + 1, len(ev)) if ev[i][0] == "lost"]
    pfn = int(ev[r][3][0], 16)
    out = [i for i in range(idx + 1, r) if ev[i][0] == "lost" and int(ev[i][3][0], 16) == pfn]
    for i in range(r + 1, len(ev)):
        if ev[i][0] == "lost" and int(ev[i][3][0], 16) == pfn:
            out.append(i)
        elif ev[i][0] in ("lost", "action"):
            break
    return out


def check_log(ev, ops, writes, poisons, dev, fails):
    """Everything the log alone must satisfy; returns (poisoned, late mismatches)."""
    for kind, no, line, _ in ev:
        if kind == "bad":
            fails.append(f"log line {no}: {line}")
        elif kind == "ioerr":
            fails.append(f"log line {no}: an I/O error the workload should never see: {line}")
    count = {k: sum(1 for e in ev if e[0] == k) for k, _ in PATTERNS}
    summ = [e for e in ev if e[0] == "summary"]
    poisoned = None
    if len(summ) != 1:
        fails.append(f"{len(summ)} summary lines (`blk-stress: N ops, ...`), expected 1")
    else:
        g = [int(v) for v in summ[0][3]]
        if g[:3] != [ops, writes, ops - writes]:
            fails.append(f"summary says {g[0]} ops, {g[1]} writes, {g[2]} reads; the replay says "
                         f"{ops}, {writes}, {ops - writes}")
        if g[3] != count["mismatch"]:
            fails.append(f"summary says {g[3]} mismatches, the log has {count['mismatch']}")
        poisoned = g[4]
        # One `recovery action` line per call that poisoned a frame, one `already hardware
        # poisoned` line per call that found it poisoned: together, every injection.
        if count["action"] != poisoned:
            fails.append(f"summary says {poisoned} poisoned, the log has {count['action']} "
                         f"`recovery action` lines")
        if count["action"] + count["already"] != poisons:
            fails.append(f"{count['action']} `recovery action` and {count['already']} `already "
                         f"hardware poisoned` lines, for {poisons} injections")
    # Read mismatches: inside ranges reported lost before, or by the call then in progress.
    late = 0
    before = [i for i, e in enumerate(ev) if e[0] == "lost" and e[3][1] == dev]
    for idx, e in enumerate(ev):
        if e[0] != "mismatch":
            continue
        a, b = int(e[3][0]), int(e[3][0]) + int(e[3][1])
        seen = Ranges()
        for i in [i for i in before if i < idx]:
            seen.add(*lost_range(ev[i]))
        if seen.covers(a, b):
            continue
        for i in window_lost(ev, idx):
            if ev[i][3][1] == dev:
                seen.add(*lost_range(ev[i]))
        if seen.covers(a, b):
            late += 1
        else:
            fails.append(f"log line {e[1]}: read mismatch [{a}, {b}) is not inside data reported "
                         f"lost before it")
    # Sync errors: each reports at least one loss not reported before (errseq: one report per
    # sync, however many losses), always -EIO; and every loss is reported.
    losts = [i for i, e in enumerate(ev) if e[0] == "lost"]
    explained, prev = set(), -1
    for s in (i for i, e in enumerate(ev) if e[0] == "sync"):
        new = [i for i in losts if prev < i < s and i not in explained]
        # A loss printed just after the sync line (its memory_failure() recorded -EIO before
        # printing) explains the sync only when no earlier one does: errseq reports once per
        # sync, so a loss the next sync reports must be left to it.
        if not new:
            new = [i for i in window_lost(ev, s) if i not in explained]
        if not new:
            fails.append(f"log line {ev[s][1]}: `{ev[s][2]}` with no data reported lost since "
                         f"the last sync error")
        if ev[s][3][0] != "-5":
            fails.append(f"log line {ev[s][1]}: sync error {ev[s][3][0]}, expected -5 (-EIO)")
        explained.update(new)
        prev = s
    for i in losts:
        if i not in explained:
            fails.append(f"log line {ev[i][1]}: `{ev[i][2]}`: no sync reported it (-EIO)")
    return poisoned, late


def versions_of_page(seed, op_list, c, n):
    """Every value each byte of [c, c + n) ever held: the initial image's and each write's."""
    versions = [{v} for v in gen_bytes(data_key(seed, 0), c, n)]
    for k, write, a, length in op_list:
        lo, hi = max(a, c), min(a + length, c + n)
        if write and lo < hi:
            for y, v in zip(range(lo, hi), gen_bytes(data_key(seed, k), lo, hi - lo)):
                versions[y - c].add(v)
    return versions


def check_image(img, expected, lost, seed, op_list, fails):
    """Bytes outside the lost ranges must be the replay's, inside them a version they once
    held.  Returns how many bytes inside hold an earlier version."""
    stale = 0
    for c in range(0, len(img), PAGE):
        got, want = img[c:c + PAGE], expected[c:c + PAGE]
        if got == want:
            continue
        versions = None
        for x in (c + i for i in range(len(got)) if got[i] != want[i]):
            g, w = got[x - c], want[x - c]
            if not lost.contains(x):
                fails.append(f"image byte at offset {x} is 0x{g:02x}, expected 0x{w:02x} "
                             f"(not in any lost range)")
            else:
                versions = versions or versions_of_page(seed, op_list, c, len(got))
                if g in versions[x - c]:
                    stale += 1
                else:
                    fails.append(f"image byte at offset {x} (in a lost range) is 0x{g:02x}, "
                                 f"which it never held")
            if len(fails) > 20:
                fails.append("(more differences not listed)")
                return stale
    return stale


def check(img_path, log_path, ops, seed, poisons, dev="vda"):
    with open(img_path, "rb") as f:
        img = f.read()
    with open(log_path, encoding="utf-8", errors="replace") as f:
        ev = parse(f.read())
    size = len(img)
    op_list = ops_of(seed, ops, size)
    writes = sum(1 for o in op_list if o[1])
    fails = []
    poisoned, late = check_log(ev, ops, writes, poisons, dev, fails)
    lost = Ranges()
    for e in ev:
        if e[0] == "lost" and e[3][1] == dev:
            lost.add(*lost_range(e))
    stale = check_image(img, expected_image(seed, op_list, size), lost, seed, op_list, fails)

    states = collections.Counter(f"{e[3][1]}: {e[3][2]}" for e in ev if e[0] == "action")
    on_cache = sum(n for s, n in states.items() if re.search(r"LRU|page cache", s))
    nmis = sum(1 for e in ev if e[0] == "mismatch")
    nlost = sum(1 for e in ev if e[0] == "lost")
    nsync = sum(1 for e in ev if e[0] == "sync")
    print(f"hwpoison_workload: {ops} ops ({writes} writes, {ops - writes} reads), {poisons} "
          f"injections, {poisoned} newly poisoned, {on_cache} on page-cache folios")
    print("hwpoison_workload: recovery actions: " +
          (", ".join(f"{s} x{n}" for s, n in sorted(states.items())) or "none"))
    print(f"hwpoison_workload: {nlost} lost ranges ({lost.total()} bytes), {stale} bytes in them "
          f"hold an earlier version; {nmis} read mismatches ({late} printed before their loss "
          f"line, by the same call); {nsync} sync errors")
    for f_ in fails:
        print(f"hwpoison_workload: FAIL: {f_}")
    if not fails:
        print("hwpoison_workload: the image matches the replay outside the lost ranges")
    return 1 if fails else 0


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if cmd == "image" and len(args) == 3:
        size, seed = int(args[1], 0), int(args[2], 0)
        with open(args[0], "wb") as f:
            for off in range(0, size, 1 << 20):
                f.write(gen_bytes(data_key(seed, 0), off, min(1 << 20, size - off)))
        return 0
    if cmd == "check" and len(args) in (5, 6):
        return check(args[0], args[1], int(args[2], 0), int(args[3], 0), int(args[4], 0),
                     *(args[5:]))
    if cmd == "clean-offset" and len(args) == 3:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            ev = parse(f.read())
        size, x = int(args[1], 0), int(args[2], 0)
        lost = Ranges()
        for e in ev:
            if e[0] == "lost":
                lost.add(*lost_range(e))
        while True:
            x = (x + GOLDEN) & M64
            off = mix64(x) % size
            if not lost.contains(off):
                print(off)
                return 0
    print("usage: hwpoison_workload_helper.py image|check|clean-offset ... (see the comment at "
          "the top)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
