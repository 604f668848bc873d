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
"""

from __future__ import annotations

import asyncio
import mmap
import struct
import time

_SLOT = struct.Struct("d")


class Heartbeats:
    """One slot per worker, shared by the supervisor and the workers it forks."""

    def __init__(self, workers: int) -> None:
        self._page = mmap.mmap(-1, _SLOT.size * max(1, workers))

    def beat(self, index: int, at: float | None = None) -> None:
        """Worker `index` is alive (now, or `at`)."""
        _SLOT.pack_into(self._page, _SLOT.size * index, time.monotonic() if at is None else at)

    def last(self, index: int) -> float:
        """When worker `index` last said so."""
        value: float = _SLOT.unpack_from(self._page, _SLOT.size * index)[0]
        return value

    async def keep_beating(self, index: int, every_s: float) -> None:
        """The worker's task: beat every `every_s` while its event loop runs."""
        while True:
            self.beat(index)
            await asyncio.sleep(every_s)
