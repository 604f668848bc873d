"""The files behind `/metrics` under `resolver serve --workers N`: prometheus_client's
multiprocess mode switched on by the supervisor before it forks (`use_multiprocess`), a dead
worker's counts folded into the directory's archive (`worker_gone`), the restart counter the
supervisor keeps, and the directory's lock that a scrape takes shared (`locked`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, multiprocess, values
from prometheus_client.mmap_dict import MmapedDict

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def use_multiprocess(directory: Path) -> None:
    """Put prometheus_client in its multiprocess mode, its files in `directory` (empty, one per
    run): every metric made from now on, in this process or a child, writes there.

    The library chooses its value class when it is imported, from `PROMETHEUS_MULTIPROC_DIR`;
    the command line imported it long before the supervisor knew the directory, so the class
    is chosen again here (`values.ValueClass` is where each metric looks it up).
    """
    os.environ[MULTIPROC_ENV] = str(directory)
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]


_WORKER_RESTARTS: list[Counter] = []


def count_worker_restart(reason: str) -> None:
    """The supervisor forks a worker anew (`died`, or `unresponsive`: it killed a silent one).

    Counted in the supervisor's own file of the multiprocess directory, so that every
    worker's `/metrics` shows it; made at the first restart, long after the forks.
    """
    if not _WORKER_RESTARTS:
        _WORKER_RESTARTS.append(
            Counter(
                "resolver_worker_restarts",
                "Workers of --workers N forked anew, by reason: died, or unresponsive (silent "
                "past RESOLVER_WORKER_HEARTBEAT_TIMEOUT_S, killed by the supervisor).",
                ["reason"],
                registry=CollectorRegistry(),
            )
        )
    _WORKER_RESTARTS[0].labels(reason).inc()


def worker_gone(directory: Path, pid: int) -> None:
    """A worker exited: its live gauges leave the sums, and its counts are folded into the
    directory's archive (`<type>_archive.db`), its own files removed: a restarted worker left
    two more files behind forever, each read at every scrape (issue 30). Under the directory's
    lock, which a scrape holds shared, so that no scrape sees a count twice or not at all."""
    multiprocess.mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]
    with locked(directory, fcntl.LOCK_EX):
        for kind in _SUMMED_KINDS:
            dead = directory / f"{kind}_{pid}.db"
            if not dead.exists():
                continue
            archive = MmapedDict(str(directory / f"{kind}_{ARCHIVE}.db"))  # type: ignore[no-untyped-call]
            try:
                counts = MmapedDict.read_all_values_from_file(str(dead))  # type: ignore[no-untyped-call]
                for key, value, timestamp, _ in counts:
                    kept, kept_at = archive.read_value(key)  # type: ignore[no-untyped-call]
                    archive.write_value(key, kept + value, max(kept_at, timestamp))  # type: ignore[no-untyped-call]
            finally:
                archive.close()  # type: ignore[no-untyped-call]
            dead.unlink()


# The metric files whose samples add up across processes whatever the mode: the ones a dead
# worker's counts can be folded from.
_SUMMED_KINDS = ("counter", "histogram", "summary")
# The pid part of the files that hold the counts of workers that are gone.
ARCHIVE = "archive"
_LOCK_FILE = ".lock"


@contextlib.contextmanager
def locked(directory: Path, how: int) -> Iterator[None]:
    """The multiprocess directory's lock (`flock`): exclusive to fold, shared to scrape."""
    with (directory / _LOCK_FILE).open("a") as handle:
        fcntl.flock(handle, how)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
