"""The process's link to Redis (`RESOLVER_REDIS_URL`): one connection pool, its health, and a
breaker that keeps an outage cheap.

Used by the shared LLM budget (`llm/shared_limiter.py`) and meant for any other state several
processes share (an LLM result cache, the operator-schema cache). Every command goes through
`RedisLink.run`:

- a command that fails (connection refused, timeout, a server that cannot serve: loading,
  read-only, out of memory, cluster down) marks the link *down*: one warning line,
  `resolver_redis_up` 0, and the caller gets `RedisUnavailable`;
- a command the server refused on its merits (`WRONGTYPE` on a key someone else wrote, a bad
  argument, a script error) is the command's failure, not an outage: it is counted in
  `resolver_redis_errors`, logged once per kind of error, the caller gets
  `RedisCommandError` (a `RedisUnavailable`, so it falls back the same way), and the link
  stays up;
- while the link is down, commands fail at once with `RedisUnavailable` instead of each waiting
  out a timeout, so callers fall back without delay;
- a background probe PINGs every `retry_s` and marks the link *up* again (one info line): a
  Redis that comes back is used again without a restart. A Redis that went down refusing
  writes (out of memory under `maxmemory`, a read-only replica) still answers PING: its probe
  writes instead (a key of its own that expires in a second), so the link stays down, in one
  state, until writes succeed again — not up at each PING and down at the next write, a flap
  every second (issue 30).

redis-py's own retries are off: the caller decides what a failure means (fall back, refuse).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

import structlog
from redis.asyncio import BlockingConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import (
    ClusterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.retry import Retry

from resolver.core.metrics import Metrics
from resolver.core.settings import Settings

log = structlog.get_logger("resolver.redis")

T = TypeVar("T")

# How often a link that is down tries Redis again.
_RETRY_S = 1.0
# Connections per process; commands beyond wait for one.
_MAX_CONNECTIONS = 32
# Error replies that say the server cannot serve at all (not that this command was wrong).
_SERVER_STATES = (ReadOnlyError, OutOfMemoryError, ClusterDownError, TryAgainError)
# Refusals that leave reads working: a link down for these is probed with a write.
_WRITES_REFUSED = (ReadOnlyError, OutOfMemoryError)
# How many kinds of command error a link remembers having logged.
_LOGGED_KINDS = 64


class RedisUnavailable(Exception):
    """Redis did not answer, or is known not to answer right now."""


class RedisCommandError(RedisUnavailable):
    """Redis answered, refusing this command (`WRONGTYPE`, …); the link is up."""


def redacted(url: str) -> str:
    """The URL without user or password, for logs and `/readyz`."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"unix://{parts.path}"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


class RedisLink:
    """A Redis client with a notion of whether Redis answers (see the module docstring)."""

    def __init__(
        self,
        client: Redis,
        where: str,
        *,
        prefix: str,
        retry_s: float = _RETRY_S,
        metrics: Metrics | None = None,
    ) -> None:
        self._client = client
        self.where = where
        self.prefix = prefix
        self._retry_s = retry_s
        self._metrics = metrics
        self._up = True
        self._outages = 0
        self._down_since: float | None = None
        self._last_error: str | None = None
        self._probe: asyncio.Task[None] | None = None
        self._closed = False
        self._logged_errors: set[str] = set()
        self._writes_refused = False

    @property
    def up(self) -> bool:
        """Whether the last command (or probe) reached Redis."""
        return self._up

    @property
    def outages(self) -> int:
        """How many times the link went down (so that a caller can warn once per outage)."""
        return self._outages

    def script(self, source: str) -> AsyncScript:
        """A Lua script run with EVALSHA (loaded on first use and after a Redis restart)."""
        return self._client.register_script(source)

    async def run(self, command: Callable[[Redis], Awaitable[T]]) -> T:
        """Run one command; `RedisUnavailable` when it fails or the link is down."""
        if not self._up:
            raise RedisUnavailable(f"Redis at {self.where} is unreachable: {self._last_error}")
        try:
            return await command(self._client)
        except ResponseError as exc:
            if isinstance(exc, _SERVER_STATES):
                self._failed(exc)
                raise RedisUnavailable(f"Redis at {self.where} failed: {self._last_error}") from exc
            self._refused(exc)
            raise RedisCommandError(f"Redis at {self.where} refused a command: {exc}") from exc
        except (RedisError, OSError) as exc:
            self._failed(exc)
            raise RedisUnavailable(f"Redis at {self.where} failed: {self._last_error}") from exc

    def state(self) -> dict[str, Any]:
        """What `/readyz` shows of the link."""
        down_for = None if self._down_since is None else time.monotonic() - self._down_since
        return {
            "url": self.where,
            "up": self._up,
            "down_for_s": None if down_for is None else round(down_for, 1),
            "error": None if self._up else self._last_error,
        }

    async def check(self) -> bool:
        """PING once (write, when the link is down because writes were refused), marking the
        link up or down."""
        try:
            if self._writes_refused and not self._up:
                await self._client.set(f"{self.prefix}:link-probe", b"1", px=1000)
            else:
                await self._client.ping()
        except (RedisError, OSError) as exc:
            self._failed(exc)
            return False
        self._restored()
        return True

    async def aclose(self) -> None:
        """Stop probing and close the pool."""
        self._closed = True
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
        await self._client.aclose()

    def _failed(self, exc: BaseException) -> None:
        if self._metrics is not None:
            self._metrics.count_redis_error()
        self._last_error = f"{type(exc).__name__}: {exc}"[:300]
        if not self._up:
            return
        self._writes_refused = isinstance(exc, _WRITES_REFUSED)
        self._up = False
        self._outages += 1
        self._down_since = time.monotonic()
        log.warning("redis.unavailable", url=self.where, error=self._last_error)
        if not self._closed and (self._probe is None or self._probe.done()):
            # An empty context: the probe outlives the request whose command failed, and its
            # log lines must not carry that request's trace id.
            self._probe = asyncio.get_running_loop().create_task(
                self._probe_until_up(), context=contextvars.Context()
            )

    def _refused(self, exc: ResponseError) -> None:
        """A command error on a live server: counted always, logged once per kind."""
        if self._metrics is not None:
            self._metrics.count_redis_error()
        kind = str(exc).split(" ", 1)[0][:40]  # WRONGTYPE, ERR, NOSCRIPT, …
        if kind in self._logged_errors or len(self._logged_errors) >= _LOGGED_KINDS:
            return
        self._logged_errors.add(kind)
        log.warning("redis.command_refused", url=self.where, kind=kind, error=str(exc)[:300])

    def _restored(self) -> None:
        if self._up:
            return
        down_for = time.monotonic() - (self._down_since or time.monotonic())
        self._up = True
        self._down_since = None
        log.info("redis.restored", url=self.where, down_for_s=round(down_for, 2))

    async def _probe_until_up(self) -> None:
        while not self._up and not self._closed:
            await asyncio.sleep(self._retry_s)
            # The pooled connections predate the outage: a restarted Redis has closed them, and
            # the first command on each would fail and read as a new outage.
            with contextlib.suppress(RedisError, OSError):
                await self._client.connection_pool.disconnect()
            await self.check()


@asynccontextmanager
async def open_redis(
    settings: Settings, metrics: Metrics | None = None
) -> AsyncIterator[RedisLink | None]:
    """The link to `RESOLVER_REDIS_URL`, or None when it is unset; closed on exit.

    Start-up does not wait for Redis: an unreachable Redis is reported once and probed in the
    background, and the callers fall back meanwhile.
    """
    if settings.redis_url is None:
        yield None
        return
    url = settings.redis_url.get_secret_value()
    # A blocking pool: a burst waits (up to the timeout) for one of its connections instead
    # of failing, which would read as an outage.
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=_MAX_CONNECTIONS,
        timeout=settings.redis_timeout_s,
        socket_timeout=settings.redis_timeout_s,
        socket_connect_timeout=settings.redis_timeout_s,
        retry=Retry(NoBackoff(), 0),
        client_name="resolver",
    )
    client = Redis(connection_pool=pool)
    link = RedisLink(client, redacted(url), prefix=settings.redis_key_prefix, metrics=metrics)
    if metrics is not None:
        metrics.watch_redis(lambda: link.up)
    if await link.check():
        log.info("redis.connected", url=link.where)
    try:
        yield link
    finally:
        await link.aclose()
