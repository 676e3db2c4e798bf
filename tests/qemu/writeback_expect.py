#!/usr/bin/env python3
# writeback_expect.py - what `blk write` puts on the disk, for the host to compare (stdlib only).
#   writeback_expect.py stream SEED LENGTH            -> the LENGTH bytes of the stream, to stdout
#   writeback_expect.py check IMAGE BASE W [W...]     W = OFFSET:LENGTH:SEED, applied in order over
#       BASE (the image as it was before the boot); exit 0 iff IMAGE equals the result byte for
#       byte, else one line naming the first differing offset.  SEED "-" means "don't care":
#       those bytes may be old or new (a write that failed).
# The stream (docs/pagecache.md, "blk write"): xorshift64*, state = SEED (or 0x9E3779B97F4A7C15
# if SEED is 0); each step x ^= x >> 12; x ^= x << 25; x ^= x >> 27 (64-bit); output
# x * 0x2545F4914F6CDD1D mod 2^64, its 8 bytes little-endian; byte i of a write is byte i of
# the stream, whatever the offset.
import sys

M64 = (1 << 64) - 1


def stream(seed, length):
    x = seed or 0x9E3779B97F4A7C15
    out = bytearray()
    while len(out) < length:
        x ^= x >> 12
        x ^= (x << 25) & M64
        x ^= x >> 27
        out += ((x * 0x2545F4914F6CDD1D) & M64).to_bytes(8, "little")
    return bytes(out[:length])


def main(argv):
    if len(argv) == 4 and argv[1] == "stream":
        sys.stdout.buffer.write(stream(int(argv[2], 0), int(argv[3], 0)))
        return 0
    if len(argv) >= 4 and argv[1] == "check":
        got = open(argv[2], "rb").read()
        want = bytearray(open(argv[3], "rb").read())
        for w in argv[4:]:
            off, length, seed = w.split(":")
            off, length = int(off, 0), int(length, 0)
            if seed == "-":
                want[off:off + length] = got[off:off + length]
            else:
                want[off:off + length] = stream(int(seed, 0), length)
        if len(got) != len(want):
            print(f"image is {len(got)} bytes, expected {len(want)}")
            return 1
        if got != want:
            first = next(i for i in range(len(got)) if got[i] != want[i])
            print(f"image differs from the expected content at offset {first} (0x{first:x}):"
                  f" 0x{got[first]:02x}, expected 0x{want[first]:02x}")
            return 1
        return 0
    print("usage: writeback_expect.py stream SEED LENGTH | check IMAGE BASE OFF:LEN:SEED...",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
