"""Binding the listening sockets before anything else starts, with one clear line on failure."""

from __future__ import annotations

import errno
import socket

# Connections the kernel queues while every worker is busy accepting.
BACKLOG = 1024

_REASONS = {
    errno.EADDRINUSE: "the address is already in use (another process listens on it)",
    errno.EADDRNOTAVAIL: "the address is not one of this machine's",
    errno.EACCES: "permission denied (ports below 1024 need privileges)",
}


class ListenError(Exception):
    """The address cannot be listened on; the message is the one line an operator needs."""


def bind_listeners(host: str, port: int, *, copies: int = 1) -> list[list[socket.socket]]:
    """Listening sockets for every address `host` resolves to, `copies` times over.

    With several copies (one per worker) each socket has SO_REUSEPORT, so that the kernel
    spreads new connections over the workers' sockets. Port 0 picks one free port for all.
    """
    addresses = _resolve(host, port)
    sets: list[list[socket.socket]] = [[] for _ in range(copies)]
    try:
        for family, wanted in addresses:
            address = wanted
            for sockets in sets:
                sock = _bind_one(family, address, host, reuse_port=copies > 1)
                sockets.append(sock)
                # The first bind of port 0 chose the port; the other copies share it.
                address = (address[0], sock.getsockname()[1], *address[2:])
    except ListenError:
        for sock in (s for sockets in sets for s in sockets):
            sock.close()
        raise
    return sets


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


def _bind_one(
    family: int, address: tuple[object, ...], host: str, *, reuse_port: bool
) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
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
