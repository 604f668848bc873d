"""MCP tool details (name, description, inputSchema), cached briefly.

The MCP proxy needs a tool's `inputSchema` on every call, and an agent usually calls a tool
right after recalling it: a short TTL saves the second lookup without serving a schema
long after the tool changed. Keys include the caller's account, since
agent-operator-integration may answer per account. Only successes are cached (a failure is
the caller's answer, never remembered); concurrent lookups of one key share one fetch.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from resolver.core.cache import TtlCache
from resolver.upstreams.client import OPERATOR_INTEGRATION, CallerHeaders, Upstreams
from resolver.upstreams.models import McpToolDetail
from resolver.upstreams.operator_integration import fetch_mcp_tool_detail

_MAX_ENTRIES = 1024


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
        self._cache: TtlCache[tuple[str, str, str, str], McpToolDetail] = TtlCache(
            max_entries=max_entries, clock=clock
        )

    async def get(self, mcp_id: str, tool_name: str, caller: CallerHeaders) -> McpToolDetail:
        """The tool's detail; raises what the fetch raised (404 `TOOL_NOT_FOUND`, 502, 503)."""
        client = self._upstreams.get(OPERATOR_INTEGRATION)
        key = (mcp_id, tool_name, caller.account_id or "", caller.account_type or "")
        shared = replace(caller, deadline=None)  # one fetch for every waiter: its own timeout
        try:
            detail, _ = await self._cache.get_within(
                caller.deadline,
                key,
                lambda: fetch_mcp_tool_detail(client, mcp_id, tool_name, shared),
                lambda _: self._ttl_s,
            )
        except TimeoutError as exc:
            raise client.out_of_time(f"mcp/{mcp_id}/tools/{tool_name}", caller.deadline) from exc
        return detail
