#!/usr/bin/env python3
# ext2_check.py - the ext2 tests' host side (stdlib only; the judges are Debian's e2fsck and
# debugfs, run here):
#   ext2_check.py read-cmds SHA256FILE            shell commands that print every file's hash
#   ext2_check.py read-verify SHA256FILE LOG      LOG (the console) has exactly those lines
#   ext2_check.py write-cmds BLOCKSIZE MANIFEST   the scripted write session's commands; MANIFEST
#                                                 gets what the image must hold afterwards
#   ext2_check.py write-verify IMAGE MANIFEST     e2fsck -fn says clean, and debugfs dumps every
#                                                 file of MANIFEST with exactly its bytes
# A file's bytes are `fwrite` runs: the `blk write` stream (xorshift64*, writeback_expect.py)
# of a seed written at an offset, byte i of a run being byte i of its stream; holes are zeros.
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from writeback_expect import stream  # noqa: E402


def read_cmds(shafile):
    for line in open(shafile):
        print("sha256sum " + line.split("  ", 1)[1].rstrip("\n"))


def read_verify(shafile, log):
    got = set(l.rstrip("\r\n") for l in open(log, errors="replace"))
    missing = [l.rstrip("\n") for l in open(shafile) if l.rstrip("\n") not in got]
    if missing:
        print(f"ext2_check: FAIL: {len(missing)} hashes not printed, first: {missing[0]}")
        return 1
    print(f"ext2_check: all {sum(1 for _ in open(shafile))} files hash as on the host")
    return 0


class Model:
    """What the session does to each file, so the host can rebuild its bytes."""

    def __init__(self):
        self.files = {}     # path -> bytearray
        self.links = {}     # path -> symlink target
        self.cmds = []

    def fwrite(self, path, off, length, seed):
        data = self.files.setdefault(path, bytearray())
        if len(data) < off + length:
            data.extend(bytes(off + length - len(data)))
        data[off:off + length] = stream(seed, length)
        self.cmds.append(f"fwrite {path} {off} {length} {seed}")

    def truncate(self, path, size):
        data = self.files[path]
        if size < len(data):
            del data[size:]
        else:
            data.extend(bytes(size - len(data)))
        self.cmds.append(f"truncate {path} {size}")

    def mv(self, a, b):
        for table in (self.files, self.links):
            for p in sorted(list(table)):
                if p == a or p.startswith(a + "/"):
                    table[b + p[len(a):]] = table.pop(p)
        self.cmds.append(f"mv {a} {b}")

    def rm(self, path):
        self.files.pop(path, None)
        self.links.pop(path, None)
        self.cmds.append(f"rm {path}")


def write_session(bs):
    m = Model()
    c = m.cmds.append
    c("mkdir /w")
    c("mkdir /w/a")
    c("mkdir /w/a/b")
    c("mkdir /w/a/b/c")
    c("mkdir /w/a/b/c/d")
    m.fwrite("/w/a/b/c/d/deep", 0, 3000, 11)            # deep path
    m.fwrite("/w/f1", 0, 100000, 12)                    # indirect block
    m.fwrite("/w/f1", 100000, 5000, 13)                 # append
    m.fwrite("/w/f2", 0, 300000, 14)
    m.truncate("/w/f2", 12345)                          # truncate down, mid-block
    m.truncate("/w/f2", 50000)                          # and up: a hole of zeros
    m.fwrite("/w/f2", 40000, 100, 15)                   # written into that hole
    # Past the double-indirect limit on 1 KiB blocks (12 + 256 + 65536 blocks): triple.
    far = (12 + 256 + 65536 + 10) * 1024
    m.fwrite("/w/far", far, 8192, 16)
    m.fwrite("/w/gone", 0, 70000, 17)
    m.rm("/w/gone")                                     # unlink frees its blocks
    m.fwrite("/w/old", 0, 777, 18)
    m.mv("/w/old", "/w/new")                            # rename
    c("mkdir /w/sub")
    m.fwrite("/w/sub/x", 0, 10, 19)
    m.mv("/w/sub", "/w/a/moved")                        # a directory moved elsewhere
    c("mkdir /w/empty")
    c("rmdir /w/empty")
    c("ln /w/f1 /w/f1-link")                            # hard link
    m.files["/w/f1-link"] = m.files["/w/f1"]
    c("ln -s f1 /w/sym")                                # fast symlink
    m.links["/w/sym"] = "f1"
    target = "/w/a/b/c/d/" + "x" * 80                   # slow symlink (> 60 bytes)
    c(f"ln -s {target} /w/slowsym")
    m.links["/w/slowsym"] = target
    # A directory grown past one block: 300 entries of 20-byte names.
    c("mkdir /w/many")
    for i in range(300):
        m.fwrite(f"/w/many/entry-number-{i:04d}", 0, 16, 1000 + i)
    for i in range(0, 300, 7):
        m.rm(f"/w/many/entry-number-{i:04d}")           # holes in the directory blocks
    c("fsync /w/f1")
    c("df")
    return m


def write_cmds(bs, manifest):
    m = write_session(int(bs))
    for cmd in m.cmds:
        print(cmd)
    out = {"files": {p: hashlib.sha256(bytes(d)).hexdigest() + ":" + str(len(d))
                     for p, d in m.files.items()},
           "links": m.links}
    json.dump(out, open(manifest, "w"), indent=1, sort_keys=True)


def debugfs(image, req):
    return subprocess.run(["debugfs", "-R", req, image], capture_output=True, text=True)


def write_verify(image, manifest):
    man = json.load(open(manifest))
    fsck = subprocess.run(["e2fsck", "-fn", image], capture_output=True, text=True)
    if fsck.returncode != 0:
        print(fsck.stdout + fsck.stderr)
        print(f"ext2_check: FAIL: e2fsck -fn exit status {fsck.returncode}")
        return 1
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "f")
        for path, want in sorted(man["files"].items()):
            if os.path.exists(out):
                os.unlink(out)
            debugfs(image, f"dump {path} {out}")
            data = open(out, "rb").read() if os.path.exists(out) else None
            got = None if data is None else hashlib.sha256(data).hexdigest() + ":" + str(len(data))
            if got != want:
                print(f"ext2_check: FAIL: {path}: debugfs dump gives {got}, the session wrote {want}")
                bad += 1
    for path, target in sorted(man["links"].items()):
        r = debugfs(image, f"stat {path}")
        if f'Fast link dest: "{target}"' not in r.stdout:
            # A slow symlink's target is in its block: dump it.
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "l")
                debugfs(image, f"dump {path} {out}")
                got = open(out, "rb").read().decode(errors="replace") if os.path.exists(out) else None
            if got != target:
                print(f"ext2_check: FAIL: symlink {path}: target {got!r}, want {target!r}")
                bad += 1
    if bad:
        return 1
    print(f"ext2_check: e2fsck -fn clean; {len(man['files'])} files and "
          f"{len(man['links'])} symlinks exactly as written")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "read-cmds":
        return read_cmds(argv[2]) or 0
    if len(argv) == 4 and argv[1] == "read-verify":
        return read_verify(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "write-cmds":
        return write_cmds(argv[2], argv[3]) or 0
    if len(argv) == 4 and argv[1] == "write-verify":
        return write_verify(argv[2], argv[3])
    print(__doc__ or "usage: see the header", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
