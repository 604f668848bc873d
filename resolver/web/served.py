"""What the web edge of one application reads on every request, in one object: the settings,
the metrics, the lifecycle, `/openapi.json`, and the service graph with its worker threads and
the MCP endpoint (set when `create_app`'s cleanup context opens them).

The request edge (`middleware.py`) closes over it and hands it to the handlers of the
request through `SERVED`, a context variable set in the request's own task (aiohttp runs each
request in a task of its own, on a copy of its connection's context: the value ends with the
request, and concurrent requests of two applications never see each other's). A handler reads
it with one C call, where `request.app[KEY]` costs three Python calls (`Request.app`,
`UrlMappingMatchInfo.current_app`, `Application.__getitem__`) — seven of them per rules-only
request before (issue 33). The application keys (`appkeys.py`, `servicekeys.py`) keep naming
the same objects for tests and tools that hold the application.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings

if TYPE_CHECKING:
    from resolver.core.offload import Offload
    from resolver.mcp.exchange import McpEndpoint
    from resolver.services import Services


class Board(Protocol):
    """Where a worker of `--workers N` lists the requests it is serving
    (`server/heartbeat.py: InflightBoard`), for its supervisor to name them if it dies."""

    def started(self, trace_id: str, method: str, path: str) -> int | None:
        """List a request: its slot, or None when the board is full."""
        ...

    def ended(self, slot: int | None) -> None:
        """The request in `slot` is answered."""
        ...


class Served:
    """One application's state, as its handlers read it (the module docstring)."""

    __slots__ = (
        *("board", "lifecycle", "mcp_server", "metrics", "offload", "openapi"),
        *("services", "settings"),
    )

    # Set by create_app's cleanup context before the first request is served.
    services: Services
    offload: Offload
    mcp_server: McpEndpoint

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        lifecycle: Lifecycle,
        openapi: dict[str, Any],
        *,
        board: Board | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.lifecycle = lifecycle
        self.openapi = openapi
        self.board = board


SERVED: ContextVar[Served] = ContextVar("resolver.web.served")
"""The application serving the current request (set by the request edge)."""
