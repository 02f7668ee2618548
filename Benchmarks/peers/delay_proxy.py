#!/usr/bin/env python3
"""A TCP proxy that delays every chunk by DELAY milliseconds each way (order kept): the
network distance between `photos serve` and PostgreSQL, where `tc netem` isn't available.

    python3 Benchmarks/peers/delay_proxy.py LISTEN_PORT UPSTREAM_PORT DELAY_MS

Each direction of each connection has a receiving thread, which stamps every chunk with the
time it is due, and a sending thread, which sleeps until then (`time.sleep`: the kernel's
nanosleep, ~0.1 ms late at most). An asyncio version slept in whole milliseconds (epoll's
timeout is rounded up to 1 ms), so 0.5 ms each way came out at about 1 ms each way.
"""
import collections
import socket
import sys
import threading
import time


def pipe(source, destination, delay):
    chunks = collections.deque()
    ready = threading.Condition()

    def receive():
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            with ready:
                chunks.append((time.monotonic() + delay, data))
                ready.notify()
            if not data:
                return

    def send():
        while True:
            with ready:
                while not chunks:
                    ready.wait()
                due, data = chunks.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                if not data:
                    destination.shutdown(socket.SHUT_WR)
                    return
                destination.sendall(data)
            except OSError:
                return

    for body in (receive, send):
        threading.Thread(target=body, daemon=True).start()


def main():
    listen, upstream, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000
    server = socket.create_server(("127.0.0.1", listen), backlog=128)
    while True:
        client, _ = server.accept()
        try:
            upstream_socket = socket.create_connection(("127.0.0.1", upstream))
        except OSError:
            client.close()
            continue
        for end in (client, upstream_socket):
            end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        pipe(client, upstream_socket, delay)
        pipe(upstream_socket, client, delay)


if __name__ == "__main__":
    main()
