"""One MCP call as the faces hand it over, as data: what the call knows besides its arguments
(`CallContext`), one HTTP request carrying an MCP message (`Exchange`) and its answer
(`Answer`), and what the web edge needs of the MCP endpoint (`McpEndpoint`).

Imports no tool, no server and no service: the aiohttp handler (`web/handlers.py`) builds an
exchange and the app keys (`web/servicekeys.py`) name the endpoint without importing the
service graph beneath `http.py`; `create_app` puts the concrete endpoint (`StreamableHttp`) in
the key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Protocol

from resolver.core.envelope import Seen
from resolver.core.languages import Language
from resolver.core.records import record
from resolver.upstreams.client import CallerHeaders

if TYPE_CHECKING:
    from opentelemetry.context import Context


@record
class CallContext:
    """What one tool call knows besides its arguments: the trace, the caller's identity, the
    knowledge network of the connection and how callers reach this service.

    `trace_context` is the HTTP request's OpenTelemetry context (the call runs in the SDK's
    task, under it); `seen` is where the call leaves the envelope its arguments carried, for
    the HTTP request's access line and span.
    """

    trace_id: str
    caller: CallerHeaders
    kn_id: str | None
    public_url: Callable[[], str]
    language: Language | None = None  # the HTTP request's Accept-Language, if any
    trace_context: Context | None = None
    seen: Seen = field(default_factory=Seen)
    # Built by the aiohttp handler for a call it answers in the request's own task, whose
    # trace context is current and whose log lines carry `trace_id` (the request middleware
    # bound it): nothing to bind again there.
    in_request_task: bool = False


@record
class Exchange:
    """One HTTP request carrying an MCP message, as the aiohttp handler read it."""

    method: str
    path: str
    query_string: bytes
    raw_headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    context: CallContext
    # Each header's first value by its lower-case name: the caller's, when it read the headers
    # already (the aiohttp handler), else built at the first look-up (the endpoint asks four).
    first: dict[bytes, bytes] | None = field(default=None, repr=False, compare=False)

    def header(self, name: bytes) -> str | None:
        """The first value of a header (`name` in lower case), decoded as latin-1."""
        first = self.first
        if first is None:
            first = {}
            for key, value in self.raw_headers:
                first.setdefault(key.lower(), value)
            object.__setattr__(self, "first", first)
        found = first.get(name)
        return None if found is None else found.decode("latin-1")


@record
class Answer:
    """The HTTP answer to one exchange."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


class McpEndpoint(Protocol):
    """The MCP endpoint as the web edge calls it (`http.py: StreamableHttp`)."""

    async def answer(self, exchange: Exchange) -> Answer:
        """The answer to one POST."""
        ...
