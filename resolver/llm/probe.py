"""Readiness probe of the LLM endpoint, cached for a few seconds."""

from __future__ import annotations

import time

import aiohttp

_CACHE_S = 5.0
_TIMEOUT = aiohttp.ClientTimeout(total=2.0)


class LLMProbe:
    """Asks `GET {base}/models`: any answer but 401/403/5xx means the LLM is there for us."""

    def __init__(self, base_url: str, api_key: str) -> None:
        self._url = base_url.rstrip("/") + "/models"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._session: aiohttp.ClientSession | None = None
        self._checked_at = -_CACHE_S
        self._result: tuple[bool, str] = (False, "not checked yet")
        # The fallback endpoint's probe, when one is configured (closed with this one).
        self.fallback: LLMProbe | None = None

    async def start(self) -> None:
        """Open the probe's own small connection pool."""
        self._session = aiohttp.ClientSession(timeout=_TIMEOUT)

    async def close(self) -> None:
        """Close the pool (and the fallback's)."""
        if self._session is not None:
            await self._session.close()
        if self.fallback is not None:
            await self.fallback.close()

    async def reachable(self) -> tuple[bool, str]:
        """`(ok, detail)`; cached so a busy readiness check does not hammer the LLM."""
        if time.monotonic() - self._checked_at < _CACHE_S or self._session is None:
            return self._result
        try:
            async with self._session.get(self._url, headers=self._headers) as response:
                status = response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            self._result = (False, f"unreachable: {type(exc).__name__}")
        else:
            if status in (401, 403):
                self._result = (False, f"the LLM refused the API key (HTTP {status})")
            elif status >= 500:
                self._result = (False, f"the LLM answers HTTP {status}")
            else:
                self._result = (True, f"HTTP {status} from /models")
        self._checked_at = time.monotonic()
        return self._result
