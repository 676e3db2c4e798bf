#!/usr/bin/env python3
# reclaim_helper.py - the host side of tests/qemu/reclaim_test.sh (stdlib only).
#   reclaim_helper.py image IMG SIZE SEED          seeded random bytes (16 MiB at a time)
#   reclaim_helper.py sha IMG OFF:LEN...           SHA-256 of each range of IMG, one a line
#   reclaim_helper.py apply IMG OFF:LEN:SEED...    `blk write`'s bytes written over IMG in place,
#                                                  in order (the xorshift64* stream of
#                                                  tests/qemu/writeback_expect.py, made faster)
#   reclaim_helper.py plan ORDER SEED COLD HOT HOT_OFF ROUNDS CHUNK STRIDE
#       the scan-resistance script: warm the hot set (HOT bytes at HOT_OFF) twice, then ROUNDS
#       rounds of [1/ROUNDS of the cold data (COLD bytes, in CHUNK-byte reads, one every STRIDE
#       bytes from offset 0); sleep 20; blk stats; hot read; blk stats], the chunks in disk order
#       (seq) or a seeded random order (random).
#       Prints the shell commands, one a line.
#   reclaim_helper.py lru ORDER SEED COLD HOT HOT_OFF ROUNDS CHUNK STRIDE CAPACITY_PAGES
#       the hot reads' hit rate the same plan would get from a plain LRU cache of CAPACITY_PAGES
#       pages (readahead ignored): what the kernel's two lists must beat.
import array
import collections
import hashlib
import random
import sys

M64 = (1 << 64) - 1
PAGE = 4096


def stream(seed, length):
    """writeback_expect.stream(), an array at a time (about 1.5x faster)."""
    x = seed or 0x9E3779B97F4A7C15
    n = (length + 7) // 8
    out = array.array("Q", bytes(8 * n))
    for i in range(n):
        x ^= x >> 12
        x ^= (x << 25) & M64
        x ^= x >> 27
        out[i] = (x * 0x2545F4914F6CDD1D) & M64
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()[:length]


def check_stream():
    """The same bytes as the documented generator (writeback_expect.py) on a short prefix."""
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    import writeback_expect
    for seed in (0, 1, 105):
        if stream(seed, 4099) != writeback_expect.stream(seed, 4099):
            raise SystemExit(f"reclaim_helper: stream({seed}) differs from writeback_expect.py")


def plan(order, seed, cold, hot, hot_off, rounds, chunk, stride):
    """[(kind, off, len)]: kind 'warm', 'hot' (measured) or 'cold', in the order read."""
    chunks = [(i * stride, min(chunk, cold - o)) for i, o in enumerate(range(0, cold, chunk))]
    if order == "random":
        random.Random(seed).shuffle(chunks)
    elif order != "seq":
        raise SystemExit(f"reclaim_helper: unknown order '{order}'")
    steps = [("warm", hot_off, hot), ("warm", hot_off, hot)]
    per = -(-len(chunks) // rounds)
    for r in range(rounds):
        steps += [("cold", o, n) for o, n in chunks[r * per:(r + 1) * per]]
        steps.append(("hot", hot_off, hot))
    return steps


def lru_hit_rate(steps, capacity):
    cache = collections.OrderedDict()
    hits = total = 0
    for kind, off, n in steps:
        for p in range(off // PAGE, (off + n + PAGE - 1) // PAGE):
            hit = p in cache
            if hit:
                cache.move_to_end(p)
            else:
                cache[p] = True
                if len(cache) > capacity:
                    cache.popitem(last=False)
            if kind == "hot":
                total += 1
                hits += hit
    return 100.0 * hits / total


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if cmd == "image" and len(args) == 3:
        size, rng = int(args[1], 0), random.Random(int(args[2], 0))
        with open(args[0], "wb") as f:
            for off in range(0, size, 16 << 20):
                f.write(rng.randbytes(min(16 << 20, size - off)))
        return 0
    if cmd == "sha" and args:
        with open(args[0], "rb") as f:
            for r in args[1:]:
                off, n = (int(v, 0) for v in r.split(":"))
                f.seek(off)
                print(hashlib.sha256(f.read(n)).hexdigest())
        return 0
    if cmd == "apply" and args:
        check_stream()
        with open(args[0], "r+b") as f:
            for w in args[1:]:
                off, n, seed = (int(v, 0) for v in w.split(":"))
                f.seek(off)
                f.write(stream(seed, n))
        return 0
    if cmd in ("plan", "lru") and len(args) == (8 if cmd == "plan" else 9):
        nums = [int(v, 0) for v in args[1:]]
        steps = plan(args[0], *nums[:7])
        if cmd == "lru":
            print(f"{lru_hit_rate(steps, nums[7]):.1f}")
            return 0
        for kind, off, n in steps:
            if kind == "hot":	# in-flight readahead lands before the first count (sleep)
                print("sleep 20")
                print("blk stats")
            print(f"blk sha256 vda {off} {n}")
            if kind == "hot":
                print("blk stats")
        return 0
    print("usage: reclaim_helper.py image|sha|apply|plan|lru ... (see the comment at the top)",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
