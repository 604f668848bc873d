"""The LLM result cache in Redis (`RESOLVER_REDIS_URL`): every process and replica reads the
answers any of them stored, so an agent's retry that lands on another replica is a hit too.

A `CacheBackend` over the process's `RedisLink`: values expire in Redis itself (`SET … PX`).
Redis being unreachable is never an error here: a lookup is a miss and a store is skipped,
and the LLM is asked as if there were no cache (the link's breaker keeps that cheap).
"""

from __future__ import annotations

from resolver.core.redis import RedisLink, RedisUnavailable


class RedisCacheBackend:
    """Cached LLM results under `<prefix>:llm-cache:<key>`."""

    def __init__(self, link: RedisLink) -> None:
        self._link = link
        self._prefix = f"{link.prefix}:llm-cache:"

    async def get(self, key: str) -> bytes | None:
        """The stored value while Redis keeps it, else None (also when Redis is down)."""
        try:
            value = await self._link.run(lambda redis: redis.get(self._prefix + key))
        except RedisUnavailable:
            return None
        return value if isinstance(value, bytes) else None

    async def set(self, key: str, value: bytes, ttl_s: float) -> None:
        """Store for `ttl_s` seconds (at least 1 ms); skipped when Redis is down."""
        milliseconds = max(1, round(ttl_s * 1000))
        try:
            await self._link.run(
                lambda redis: redis.set(self._prefix + key, value, px=milliseconds)
            )
        except RedisUnavailable:
            return

    async def delete(self, key: str) -> None:
        """Forget `key`; skipped when Redis is down (it expires on its own)."""
        try:
            await self._link.run(lambda redis: redis.delete(self._prefix + key))
        except RedisUnavailable:
            return
