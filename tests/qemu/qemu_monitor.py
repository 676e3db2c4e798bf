#!/usr/bin/env python3
"""qemu_monitor.py - send commands to QEMU's human monitor on a Unix socket and print its answers.

    qemu_monitor.py SOCK COMMAND...

tools/run --monitor SOCK puts the monitor there.  Each COMMAND is sent after the "(qemu) " prompt
and what QEMU prints before the next prompt is printed, the echo and terminal escapes removed
(e.g. `info balloon` prints "balloon: actual=192"; `balloon 192` prints nothing).  Exit 1 with one line if the socket cannot
be reached or QEMU does not answer within 10 s.
"""
import re
import socket
import sys
import time

PROMPT = b"(qemu) "


def read_until_prompt(sock, deadline):
    buf = b""
    while not buf.endswith(PROMPT):
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = sock.recv(4096)
        except socket.timeout:
            chunk = None
        if not chunk or time.monotonic() > deadline:
            raise TimeoutError("no monitor prompt")
        buf += chunk
    return buf[: -len(PROMPT)]


def clean(raw):
    # The monitor echoes the command as it is "typed" (with cursor escapes) up to the first
    # CR LF; its answer follows.
    answer = raw.split(b"\r\n", 1)[1] if b"\r\n" in raw else b""
    text = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", answer).decode("latin-1").replace("\r", "")
    return "\n".join(l for l in text.split("\n") if l.strip())


def main():
    if len(sys.argv) < 3:
        print("usage: qemu_monitor.py SOCK COMMAND...", file=sys.stderr)
        return 2
    path, commands = sys.argv[1], sys.argv[2:]
    deadline = time.monotonic() + 10
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    while True:
        try:
            sock.connect(path)
            break
        except OSError as e:
            if time.monotonic() > deadline:
                print(f"qemu_monitor: cannot connect to {path}: {e}", file=sys.stderr)
                return 1
            time.sleep(0.1)
    try:
        read_until_prompt(sock, deadline)
        for command in commands:
            sock.sendall(command.encode() + b"\n")
            out = clean(read_until_prompt(sock, time.monotonic() + 10))
            if out:
                print(out)
    except TimeoutError:
        print(f"qemu_monitor: QEMU's monitor on {path} did not answer within 10 s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
