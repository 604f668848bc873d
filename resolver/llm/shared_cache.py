"""The LLM result cache in Redis (`RESOLVER_REDIS_URL`): every process and replica reads the
answers any of them stored, so an agent's retry that lands on another replica is a hit too.

A `CacheBackend` over the process's `RedisLink`: values expire in Redis itself (`SET … PX`).
Redis being unreachable is never an error here: a lookup is a miss and a store is skipped,
and the LLM is asked as if there were no cache (the link's breaker keeps that cheap).

What Redis holds is not trusted: another version of the service, another program or an
operator may have written under our keys. Keys carry the format version of the values
(`CACHE_FORMAT`, so a rolling upgrade that changes it reads nothing of the old one), and one
script reads a value only when it is a string no larger than `max_value_bytes` — anything else
is deleted and read as a miss, before a byte of it crosses the network. Whether a value that
arrives decodes is the client's check (`completion.from_cache`).
"""

from __future__ import annotations

from resolver.core.redis import RedisLink, RedisUnavailable
from resolver.llm.completion import CACHE_FORMAT

# GET, but only a string of at most ARGV[1] bytes; another type or a larger value is deleted.
# Returns the value, or nil (absent, or deleted as unusable).
_READ = """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return false end
if kind ~= 'string' or redis.call('STRLEN', KEYS[1]) > tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  return false
end
return redis.call('GET', KEYS[1])
"""


class RedisCacheBackend:
    """Cached LLM results under `<prefix>:llm-cache:v<format>:<key>`."""

    def __init__(self, link: RedisLink, *, max_value_bytes: int = 1 << 20) -> None:
        self._link = link
        self._prefix = f"{link.prefix}:llm-cache:v{CACHE_FORMAT}:"
        self._max_value_bytes = max_value_bytes
        self._read = link.script(_READ)

    async def get(self, key: str) -> bytes | None:
        """The stored value while Redis keeps it, else None (also when Redis is down, or the
        value is not one this service could have written: it is deleted)."""
        try:
            value = await self._link.run(
                lambda redis: self._read(
                    keys=[self._prefix + key], args=[self._max_value_bytes], client=redis
                )
            )
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
