"""`RedisLimiter`: the `CallLimiter` whose budget every process and replica shares through Redis.

- **QPS.** Call *starts* are paced across the cluster by GCRA with no burst: one Lua script
  reads Redis's own clock, and admits a start only when the theoretical arrival time has come,
  moving it on by `PACING_MARGIN / RESOLVER_LLM_QPS`. The check and the update are one atomic
  script, so two processes can never claim the same turn.
- **In flight.** `RESOLVER_LLM_MAX_INFLIGHT` is a cluster-wide cap held as *leases*: a sorted
  set of lease ids scored by their expiry. Each process renews the leases of its calls every
  third of `RESOLVER_LLM_LEASE_S`; a process that dies (SIGKILL, OOM, a lost node) stops
  renewing, and its slots come back when its leases expire, at most one lease time later.
- **Cool-down.** A gateway 429 with `Retry-After` sets a shared "no call starts before" time
  that every replica honours.
- **Redis unreachable.** `RESOLVER_REDIS_FAILURE=open` (default) falls back to per-process
  limits of the budget divided by `RESOLVER_EXPECTED_REPLICAS` × `RESOLVER_WORKERS` (warned
  once per outage, counted in `resolver_llm_budget_fallback`); `closed` refuses LLM calls with
  503 `OVERLOADED`. The link probes Redis in the background and the shared budget resumes
  as soon as it answers.

Within a process, calls that must wait (cap full, pacing, cool-down) queue on a lock and only
the first of them talks to Redis, so a burst of waiting calls costs one script call per turn,
not one per waiter; while nobody waits, each call asks Redis at once (one round trip).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, Literal

import structlog
from redis.asyncio import Redis

from resolver.core.errors import Overloaded
from resolver.core.metrics import Metrics
from resolver.core.redis import RedisLink, RedisUnavailable
from resolver.llm.limiter import PACING_MARGIN, LLMLimiter

log = structlog.get_logger("resolver.llm")

# While the cluster cap is full, the first waiter of a process asks again this often (a slot
# freed elsewhere is not announced).
_POLL_S = 0.025

# Redis time in microseconds; integers go back to Redis as "%.0f" (Lua's tostring would write
# 1.7e+15 and lose the digits).
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
"""

# KEYS: leases, tat, cool-down. ARGV: lease id, lease µs, cluster cap, interval µs (0 = no QPS).
# Returns {granted 0/1, µs to wait before asking again, leases held in the cluster}.
_ACQUIRE = (
    _NOW
    + """
local cool = tonumber(redis.call('GET', KEYS[3]) or '0')
if cool > now then
  return {0, cool - now, -1}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(first[2]) - now, held}
end
local interval = tonumber(ARGV[4])
if interval > 0 then
  local tat = tonumber(redis.call('GET', KEYS[2]) or '0')
  if tat > now then
    return {0, tat - now, held}
  end
  redis.call('SET', KEYS[2], string.format('%.0f', now + interval),
             'PX', math.ceil(interval / 1000) + 1000)
end
local lease = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], string.format('%.0f', now + lease), ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(lease / 1000) + 1000)
return {1, 0, held + 1}
"""
)

# KEYS: leases. ARGV: lease µs, then the ids to renew. XX: a lease already released or
# expired is not brought back.
_RENEW = (
    _NOW
    + """
local expiry = string.format('%.0f', now + tonumber(ARGV[1]))
local renewed = 0
for i = 2, #ARGV do
  renewed = renewed + redis.call('ZADD', KEYS[1], 'XX', 'CH', expiry, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1]) / 1000) + 1000)
return renewed
"""
)

# KEYS: cool-down. ARGV: µs from now. Only ever moves the cool-down later.
_COOL_DOWN = (
    _NOW
    + """
local wanted = now + tonumber(ARGV[1])
if wanted > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.0f', wanted),
             'PX', math.ceil(tonumber(ARGV[1]) / 1000) + 1000)
end
return 1
"""
)

# KEYS: leases. The leases alive now (scored by their expiry), for `/readyz`.
_COUNT_LIVE = (
    _NOW
    + """
return redis.call('ZCOUNT', KEYS[1], '(' .. string.format('%.0f', now), '+inf')
"""
)


class RedisLimiter:
    """The cluster-wide LLM budget (see the module docstring). Start it with `start()`."""

    def __init__(
        self,
        link: RedisLink,
        *,
        max_inflight: int,
        qps: float | None,
        max_pending: int,
        lease_s: float,
        failure: Literal["open", "closed"],
        fallback: LLMLimiter,
        metrics: Metrics | None = None,
    ) -> None:
        self._link = link
        self._max_inflight = max_inflight
        self._qps = qps
        self._interval_us = round(PACING_MARGIN / qps * 1e6) if qps else 0
        self._lease_us = round(lease_s * 1e6)
        self._lease_s = lease_s
        self._max_pending = max_pending
        self._failure = failure
        self._fallback = fallback
        self._metrics = metrics
        # One hash tag: every key of the budget lives in one Redis Cluster slot, as a
        # multi-key script requires.
        tag = "{" + link.prefix + ":llm}"
        self._leases_key = f"{tag}:leases"
        self._tat_key = f"{tag}:tat"
        self._cool_key = f"{tag}:cooldown"
        self._acquire = link.script(_ACQUIRE)
        self._renew = link.script(_RENEW)
        self._cool = link.script(_COOL_DOWN)
        self._count_live = link.script(_COUNT_LIVE)
        self._turn = asyncio.Lock()
        self._held: set[str] = set()
        self._pending = 0
        self._inflight = 0
        self._cluster_inflight: int | None = None
        self._warned_outage = 0
        self._releasing: list[str] = []
        self._releaser: asyncio.Task[Any] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def inflight(self) -> int:
        """Calls of this process holding a slot now (shared or fallback)."""
        return self._inflight + self._fallback.inflight

    @property
    def pending(self) -> int:
        """Calls of this process waiting for a slot now (shared or fallback)."""
        return self._pending + self._fallback.pending

    def start(self) -> None:
        """Begin renewing the leases of this process's calls."""
        self._heartbeat = asyncio.get_running_loop().create_task(self._renew_leases())

    async def aclose(self) -> None:
        """Stop renewing; let the releases under way finish (briefly)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        if self._background:
            await asyncio.wait(self._background, timeout=1.0)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one slot of the shared budget for one attempt (see the module docstring)."""
        lease = None
        if self._link.up:
            if self._turn.locked() and self._pending >= self._max_pending:
                raise Overloaded(
                    f"{self._pending} LLM calls are already waiting for a slot; retry shortly",
                    retry_after_s=1,
                )
            waited_from = time.monotonic()
            self._pending += 1
            try:
                lease = await self._claim()
            finally:
                self._pending -= 1
            if lease is not None and self._metrics is not None:
                self._metrics.observe_slot_wait("shared", time.monotonic() - waited_from)
        if lease is None:
            async with self._without_redis():
                yield
            return
        self._held.add(lease)
        self._inflight += 1
        try:
            yield
        finally:
            self._inflight -= 1
            self._held.discard(lease)
            self._release(lease)

    async def cool_down(self, seconds: float) -> None:
        """Hold back every replica's next call start for `seconds` (a gateway's Retry-After)."""
        with contextlib.suppress(RedisUnavailable):
            await self._link.run(
                lambda r: self._cool(keys=[self._cool_key], args=[round(seconds * 1e6)], client=r)
            )

    async def refresh(self) -> None:
        """Read the leases alive in the whole cluster now, for `state()`; it was the count
        the last acquire saw, however long ago (issue 30). Unchanged when Redis fails."""
        with contextlib.suppress(RedisUnavailable):
            live = await self._link.run(
                lambda r: self._count_live(keys=[self._leases_key], client=r)
            )
            self._cluster_inflight = int(live)

    def state(self) -> dict[str, Any]:
        """The shared budget, its Redis, and what this process holds."""
        fallback = self._fallback.state()
        if self._link.up:
            budget = "shared"
        else:
            budget = "fallback" if self._failure == "open" else "refusing"
        return {
            "kind": "redis",
            "budget": budget,
            "failure_mode": self._failure,
            "redis": self._link.state(),
            "inflight": self.inflight,
            "pending": self.pending,
            "cluster_inflight": self._cluster_inflight,
            "max_inflight": self._max_inflight,
            "qps": self._qps,
            "lease_s": self._lease_s,
            "fallback": {"qps": fallback["qps"], "max_inflight": fallback["max_inflight"]},
        }

    async def _claim(self) -> str | None:
        """A granted lease id, or None when Redis failed on the way."""
        # Nobody of this process is waiting: ask at once, beside whoever else does (Redis runs
        # the scripts one after another, the round trips overlap).
        if not self._turn.locked():
            outcome = await self._ask()
            if not isinstance(outcome, float):
                return outcome
        # A wait is needed: queue, and only the first of the queue asks Redis again.
        async with self._turn:
            while True:
                outcome = await self._ask()
                if not isinstance(outcome, float):
                    return outcome
                await asyncio.sleep(outcome)

    async def _ask(self) -> str | float | None:
        """One try: the lease id, the seconds to wait before trying again, or None when Redis
        failed."""
        lease = uuid.uuid4().hex
        try:
            granted, wait_us, held = await self._link.run(partial(self._try_acquire, lease=lease))
        except RedisUnavailable:
            return None
        except asyncio.CancelledError:
            # The script may have run: give back what it may have granted.
            self._release(lease)
            raise
        if held >= 0:
            self._cluster_inflight = held
        if granted:
            return lease
        wait_s = max(wait_us, 0) / 1e6
        # A slot freed elsewhere is not announced: while the cap is full, look again soon.
        return min(wait_s, _POLL_S) if held >= self._max_inflight else wait_s

    async def _try_acquire(self, client: Redis, *, lease: str) -> list[int]:
        result = await self._acquire(
            keys=[self._leases_key, self._tat_key, self._cool_key],
            args=[lease, self._lease_us, self._max_inflight, self._interval_us],
            client=client,
        )
        return [int(v) for v in result]

    @asynccontextmanager
    async def _without_redis(self) -> AsyncIterator[None]:
        if self._failure == "closed":
            if self._metrics is not None:
                self._metrics.count_budget_fallback("refused")
            raise Overloaded(
                "the shared LLM budget is unavailable (Redis unreachable, "
                "RESOLVER_REDIS_FAILURE=closed); retry shortly",
                retry_after_s=1,
            )
        if self._warned_outage != self._link.outages:
            self._warned_outage = self._link.outages
            fallback = self._fallback.state()
            log.warning(
                "llm.budget_fallback",
                reason="redis unreachable",
                qps=fallback["qps"],
                max_inflight=self._fallback.max_inflight,
            )
        if self._metrics is not None:
            self._metrics.count_budget_fallback("admitted")
        waited_from = time.monotonic()
        async with self._fallback.slot():
            if self._metrics is not None:
                self._metrics.observe_slot_wait("fallback", time.monotonic() - waited_from)
            yield

    def _release(self, lease: str) -> None:
        # Releases run beside the request (its answer need not wait for Redis), gathered
        # into one ZREM per round trip however many calls end meanwhile.
        self._releasing.append(lease)
        if self._releaser is None or self._releaser.done():
            self._releaser = self._in_background(self._release_gathered())

    async def _release_gathered(self) -> None:
        await asyncio.sleep(0)  # let the calls ending in this loop iteration join
        while self._releasing:
            leases, self._releasing = self._releasing, []
            with contextlib.suppress(RedisUnavailable):
                await self._link.run(partial(self._remove, leases=leases))

    async def _remove(self, client: Redis, *, leases: list[str]) -> None:
        await client.zrem(self._leases_key, *leases)

    def _in_background(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _renew_leases(self) -> None:
        while True:
            await asyncio.sleep(self._lease_s / 3)
            if not self._held or not self._link.up:
                continue
            with contextlib.suppress(RedisUnavailable):
                await self._link.run(partial(self._renew_held, held=list(self._held)))

    async def _renew_held(self, client: Redis, *, held: list[str]) -> None:
        await self._renew(keys=[self._leases_key], args=[self._lease_us, *held], client=client)
