#!/usr/bin/env python3
"""extfrag_check.py [--skew] < console: every `extfrag` block against the `buddyinfo` printed
just before it, recomputed here with Linux v6.10's formulas (mm/vmstat.c: fill_contig_page_info,
unusable_free_index, __fragmentation_index) and its formats ("%d.%03d " and "%2d.%03d ").
--skew adds one order-0 block to what buddyinfo said, so a correct kernel must fail the check
(the twin that proves the checker can fail).  Prints what it compared; exit 0 when all match."""
import re
import sys

skew = "--skew" in sys.argv[1:]
lines = [l.rstrip("\r\n") for l in sys.stdin]
zone_re = re.compile(r"^Node 0, zone +(\w+) ((?:\s*-?\d+(?:\.\d{3})? )+)$")


def info(counts, suitable):
    free = sum(n << o for o, n in enumerate(counts))
    total = sum(counts)
    suit = sum(n << (o - suitable) for o, n in enumerate(counts) if o >= suitable)
    return free, total, suit


def unusable(counts, order):
    free, _, suit = info(counts, order)
    return 1000 if not free else (free - (suit << order)) * 1000 // free


def extfrag(counts, order):
    free, total, suit = info(counts, order)
    if not total:
        return 0
    if suit:
        return -1000
    return 1000 - (1000 + free * 1000 // (1 << order)) // total


def fmt(i, width):
    # C's / and % truncate toward zero; the only negative index is -1000.
    q, r = int(i / 1000), abs(i) % 1000
    return ("%*d.%03d " % (width, q, r)) if width else ("%d.%03d " % (q, r))


buddy, checked, bad = {}, 0, 0
section = None
for l in lines:
    if l in ("unusable_index:", "extfrag_index:"):
        section = l[:-1]
        continue
    m = zone_re.match(l)
    if not m:
        if not l.startswith("Node 0, zone"):
            section = None if l.startswith("tinymm>") else section
        continue
    zone = m.group(1)
    if section is None:		# a buddyinfo line
        counts = [int(x) for x in m.group(2).split()]
        if skew:
            counts[0] += 1
        buddy[zone] = counts
        continue
    if zone not in buddy:
        print("no buddyinfo line for zone %s before %s" % (zone, section))
        bad += 1
        continue
    counts = buddy[zone]
    f = unusable if section == "unusable_index" else extfrag
    want = "Node 0, zone %8s " % zone + "".join(
        fmt(f(counts, o), 0 if section == "unusable_index" else 2) for o in range(len(counts)))
    checked += 1
    if l != want:
        bad += 1
        print("MISMATCH %s\n  got:  %r\n  want: %r" % (section, l, want))
    else:
        print("ok %s %s" % (section, l))
if not checked:
    print("nothing to check")
    sys.exit(1)
print("%d lines checked, %d wrong" % (checked, bad))
sys.exit(1 if bad else 0)
