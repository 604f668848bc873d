"""Each worker's proof of life for the supervisor of `--workers N`.

A worker whose event loop is stuck (a request that never yields, a deadlock) or that is
stopped (SIGSTOP, a debugger) keeps its listening socket: the kernel goes on handing it its
share of new connections, which nobody accepts, and since the process does not die nobody
replaces it. So every worker's loop writes the time into its slot of a small shared memory
page every `every_s`, and the supervisor reads the slots (`server/supervisor.py`): a worker
silent for `RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S` is killed and forked anew, its socket (and the
connections queued on it) served by the new one.

The page is anonymous shared memory mapped before the forks: no file, no descriptor, no
system call per beat. `time.monotonic()` is the same clock in every process of the host.

Beside the beats, each worker lists the requests it is serving on a board of its own
(`InflightBoard`: a slot per request, its trace id, method and path, and when it started), so
that when the supervisor kills a silent worker it can name what the kill interrupts: every
request in flight, and the one that has run longest (the likely holder of the loop).
"""

from __future__ import annotations

import asyncio
import mmap
import struct
import time
from dataclasses import dataclass
from typing import Any

_SLOT = struct.Struct("d")
# One request on the board: when it started (0: a free slot), its trace id, method and path.
_REQUEST = struct.Struct("d64s120s")
# Requests listed per worker; beyond them a request is counted, not named.
BOARD_SLOTS = 128


class Heartbeats:
    """One slot per worker, shared by the supervisor and the workers it forks; and one more,
    set when the whole service stops (the workers share the listening sockets: only then may
    a stopping worker close them for good)."""

    def __init__(self, workers: int) -> None:
        self._workers = max(1, workers)
        self._page = mmap.mmap(-1, _SLOT.size * (self._workers + 1))

    def beat(self, index: int, at: float | None = None) -> None:
        """Worker `index` is alive (now, or `at`)."""
        _SLOT.pack_into(self._page, _SLOT.size * index, time.monotonic() if at is None else at)

    def last(self, index: int) -> float:
        """When worker `index` last said so."""
        value: float = _SLOT.unpack_from(self._page, _SLOT.size * index)[0]
        return value

    def mark_service_stopping(self) -> None:
        """In the supervisor, before it signals the workers: the service stops."""
        _SLOT.pack_into(self._page, _SLOT.size * self._workers, 1.0)

    @property
    def service_stopping(self) -> bool:
        """Whether the supervisor said the whole service stops."""
        flag: float = _SLOT.unpack_from(self._page, _SLOT.size * self._workers)[0]
        return flag != 0.0

    async def keep_beating(self, index: int, every_s: float) -> None:
        """The worker's task: beat every `every_s` while its event loop runs."""
        while True:
            self.beat(index)
            await asyncio.sleep(every_s)


@dataclass(frozen=True, slots=True)
class Interrupted:
    """A request a worker was serving when it was killed."""

    trace_id: str
    request: str
    running_s: float

    def fields(self) -> dict[str, Any]:
        """For a log line."""
        return {"trace_id": self.trace_id, "request": self.request, "running_s": self.running_s}


class InflightBoard:
    """Each worker's requests in flight, in shared memory mapped before the forks."""

    def __init__(self, workers: int) -> None:
        self._page = mmap.mmap(-1, _REQUEST.size * BOARD_SLOTS * max(1, workers))
        self._free: list[int] = []
        self._base = 0

    def serve_as(self, index: int) -> None:
        """In a worker: its part of the board, cleared (a predecessor may have left entries)."""
        self._base = index * BOARD_SLOTS
        self.clear(index)
        self._free = list(range(BOARD_SLOTS - 1, -1, -1))

    def clear(self, index: int) -> None:
        """Worker `index`'s part of the board emptied."""
        start = index * BOARD_SLOTS * _REQUEST.size
        self._page[start : start + BOARD_SLOTS * _REQUEST.size] = bytes(BOARD_SLOTS * _REQUEST.size)

    def started(self, trace_id: str, method: str, path: str) -> int | None:
        """A request began: its slot, or None when the board is full."""
        if not self._free:
            return None
        slot = self._free.pop()
        _REQUEST.pack_into(
            self._page,
            (self._base + slot) * _REQUEST.size,
            time.monotonic(),
            trace_id.encode("ascii", "replace")[:64],
            f"{method} {path}".encode("utf-8", "replace")[:120],
        )
        return slot

    def ended(self, slot: int | None) -> None:
        """The request in `slot` is answered."""
        if slot is None:
            return
        _REQUEST.pack_into(self._page, (self._base + slot) * _REQUEST.size, 0.0, b"", b"")
        self._free.append(slot)

    def of(self, index: int) -> list[Interrupted]:
        """In the supervisor: worker `index`'s requests in flight, longest-running first."""
        now = time.monotonic()
        found = []
        for slot in range(BOARD_SLOTS):
            started, trace_id, request = _REQUEST.unpack_from(
                self._page, (index * BOARD_SLOTS + slot) * _REQUEST.size
            )
            if started:
                found.append(
                    Interrupted(
                        trace_id.rstrip(b"\0").decode("ascii", "replace"),
                        request.rstrip(b"\0").decode("utf-8", "replace"),
                        round(now - started, 3),
                    )
                )
        return sorted(found, key=lambda entry: -entry.running_s)
