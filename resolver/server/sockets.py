"""Binding the listening sockets before anything else starts, with one clear line on failure."""

from __future__ import annotations

import errno
import socket

# Connections the kernel queues while every worker is busy.
BACKLOG = 1024

_REASONS = {
    errno.EADDRINUSE: "the address is already in use (another process listens on it)",
    errno.EADDRNOTAVAIL: "the address is not one of this machine's",
    errno.EACCES: "permission denied (ports below 1024 need privileges)",
}


class ListenError(Exception):
    """The address cannot be listened on; the message is the one line an operator needs."""


def bind_listeners(host: str, port: int) -> list[socket.socket]:
    """A listening socket for every address `host` resolves to. Port 0 picks one free port
    for all.

    Under `--workers N` every worker serves on these same sockets (inherited at the fork):
    one accept queue per address, taken from by whichever worker's loop is free. Not one
    socket per worker with SO_REUSEPORT: the kernel hashes each new connection to one of
    those sockets whether or not its worker runs, so a stopped worker (SIGSTOP) or one whose
    loop is stuck kept its share of new connections waiting until the watchdog replaced it
    (a `/healthz` probe: 0.5-1.5 s, or no answer within 2 s); a shared queue is served by the
    live workers only.
    """
    addresses = _resolve(host, port)
    sockets: list[socket.socket] = []
    try:
        for family, wanted in addresses:
            address = wanted
            if sockets and not port:
                # The first bind of port 0 chose the port; the other addresses share it.
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sockets.append(_bind_one(family, address, host))
    except ListenError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _resolve(host: str, port: int) -> list[tuple[int, tuple[object, ...]]]:
    try:
        infos = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {host}:{port}: unknown host ({exc.strerror})") from exc
    except UnicodeError as exc:
        raise ListenError(f"cannot listen on {host!r}: not a valid host name") from exc
    unique: dict[tuple[int, tuple[object, ...]], None] = {}
    for family, _, _, _, address in infos:
        unique[(family, tuple(address))] = None
    return list(unique)


def _bind_one(family: int, address: tuple[object, ...], host: str) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            # As asyncio does: an IPv6 socket beside an IPv4 one must not claim both.
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        reason = _REASONS.get(exc.errno or 0, exc.strerror or type(exc).__name__)
        raise ListenError(f"cannot listen on {host}:{address[1]}: {reason}") from exc
    return sock
