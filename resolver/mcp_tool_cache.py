"""MCP tool details (name, description, inputSchema), cached briefly.

The MCP proxy needs a tool's `inputSchema` on every call, and an agent usually calls a tool
right after recalling it: a short TTL saves the second lookup without serving a schema
long after the tool changed. Keys include the caller's account, since
agent-operator-integration may answer per account. Only successes are cached (a failure is
the caller's answer, never remembered); concurrent lookups of one key share one fetch.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from resolver.actions import McpToolDetail
from resolver.operator_tools import fetch_mcp_tool_detail
from resolver.upstream import OPERATOR_INTEGRATION, CallerHeaders, Upstreams

_MAX_ENTRIES = 1024

_Key = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class _Entry:
    expires_at: float
    detail: McpToolDetail


class McpToolCache:
    """`get` returns a tool's detail, from the cache while fresh, else from upstream."""

    def __init__(
        self,
        upstreams: Upstreams,
        ttl_s: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = _MAX_ENTRIES,
    ) -> None:
        self._upstreams = upstreams
        self._ttl_s = ttl_s
        self._clock = clock
        self._max_entries = max_entries
        self._entries: OrderedDict[_Key, _Entry] = OrderedDict()
        self._inflight: dict[_Key, asyncio.Future[McpToolDetail]] = {}

    async def get(self, mcp_id: str, tool_name: str, caller: CallerHeaders) -> McpToolDetail:
        """The tool's detail; raises what the fetch raised (404 `TOOL_NOT_FOUND`, 502, 503)."""
        client = self._upstreams.get(OPERATOR_INTEGRATION)
        key = (mcp_id, tool_name, caller.account_id or "", caller.account_type or "")
        entry = self._entries.get(key)
        if entry is not None:
            if entry.expires_at > self._clock():
                return entry.detail
            del self._entries[key]
        task = self._inflight.get(key)
        if task is None:
            # A task of its own, so one caller's cancellation does not cancel the others' fetch.
            task = asyncio.ensure_future(fetch_mcp_tool_detail(client, mcp_id, tool_name, caller))
            self._inflight[key] = task
            task.add_done_callback(lambda done: self._settle(key, done))
        return await asyncio.shield(task)

    def _settle(self, key: _Key, task: asyncio.Future[McpToolDetail]) -> None:
        self._inflight.pop(key, None)
        # Retrieving the exception here keeps a failure whose waiters all left from being
        # reported as "never retrieved".
        if task.cancelled() or task.exception() is not None or self._ttl_s <= 0:
            return
        self._entries[key] = _Entry(self._clock() + self._ttl_s, task.result())
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)
