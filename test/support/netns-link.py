"""An emulated link for test/support/netns.ts where the kernel has no netem qdisc.

Usage: netns-link.py NODE_NS_PATH NODE_IF HUB_NS_PATH HUB_IF

Makes a TAP device NODE_IF in the namespace at NODE_NS_PATH and HUB_IF in HUB_NS_PATH (the
caller configures addresses and bridges them) and carries Ethernet frames between them, each
direction delayed by `delayMs` and dropped with probability `lossPercent` / 100 (order kept).
Settings arrive as JSON lines on stdin, e.g. {"delayMs": 200, "lossPercent": 5}; the link
disappears when stdin closes (the caller exited) or on SIGTERM.
"""
import ctypes
import fcntl
import heapq
import json
import os
import random
import select
import struct
import sys
import time

CLONE_NEWNET = 0x40000000
TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000

libc = ctypes.CDLL(None, use_errno=True)


def enter(ns_path):
    fd = os.open(ns_path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns {ns_path}: {os.strerror(err)}")
    finally:
        os.close(fd)


def tap(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


def main():
    node_ns, node_if, hub_ns, hub_if = sys.argv[1:5]
    enter(node_ns)
    a = tap(node_if)
    enter(hub_ns)
    b = tap(hub_if)
    peer = {a: b, b: a}
    delay = 0.0
    loss = 0.0
    rng = random.Random(int(os.environ.get("NETNS_LINK_SEED", "20261126")))
    queue = []  # (due, seq, fd, frame)
    seq = 0
    stdin = sys.stdin.fileno()
    buf = b""
    while True:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, fd, frame = heapq.heappop(queue)
            try:
                os.write(fd, frame)
            except OSError:
                pass  # the other end is down (a cut link): the frame is lost
        timeout = max(0.0, queue[0][0] - now) if queue else 1.0
        readable, _, _ = select.select([a, b, stdin], [], [], timeout)
        for fd in readable:
            if fd == stdin:
                chunk = os.read(stdin, 4096)
                if not chunk:
                    return
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.strip():
                        s = json.loads(line)
                        delay = float(s.get("delayMs", 0)) / 1000.0
                        loss = float(s.get("lossPercent", 0)) / 100.0
                continue
            while True:
                try:
                    frame = os.read(fd, 65536)
                except BlockingIOError:
                    break
                except OSError:
                    break
                if loss > 0 and rng.random() < loss:
                    continue
                if delay <= 0:
                    try:
                        os.write(peer[fd], frame)
                    except OSError:
                        pass
                else:
                    seq += 1
                    heapq.heappush(queue, (time.monotonic() + delay, seq, peer[fd], frame))


if __name__ == "__main__":
    main()
