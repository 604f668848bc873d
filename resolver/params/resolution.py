"""What a `/v1/dynamic-params` resolution answers (`Resolved`), and what resolves one
(`ResolvesParams`: the protocol the Go-compatible pipeline holds).

The pipeline (`kn/pipeline.py`) calls a resolution the way `web/` and `mcp/` do, but it sits
beneath the composition root: it names this protocol, not `ParamsService` and the stages,
frame and time reader beneath it; `services.py` hands it the one `ParamsService`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from resolver.core.deadline import Deadline
from resolver.core.records import record
from resolver.params.asks import Language
from resolver.params.models import ResolveRequest, ResolveResponse
from resolver.params.sources import PropertySource


@record
class Resolved:
    """Every property resolved: the merged `dynamic_params`, and `debug` when asked for.

    `sources` says where each property's values came from, in one word (`sources.py`).
    """

    dynamic_params: dict[str, dict[str, Any]]
    debug: dict[str, Any] | None
    usage: dict[str, Any] | None = None  # with `options.return_usage` (SPEC §6)
    # Works `sources` out when it is read (only the pipeline reads it).
    sourced: Callable[[], dict[str, PropertySource]] = dict

    @property
    def sources(self) -> dict[str, PropertySource]:
        """Where each property's values came from, in one word, by property name."""
        return self.sourced()

    def response(self, trace_id: str) -> ResolveResponse:
        """The 200 body (HTTP, MCP and the CLI alike)."""
        return ResolveResponse(
            dynamic_params=self.dynamic_params,
            usage=self.usage,
            debug=self.debug,
            trace_id=trace_id,
        )

    def to_json(self, trace_id: str) -> bytes:
        """The bytes of `response(trace_id).to_json()`, without building the model when there
        is neither `usage` nor `debug` (2.3 µs of a rules-only request: the model validates
        `dynamic_params` again only to hand the same values to orjson)."""
        if self.usage is None and self.debug is None:
            body = {"dynamic_params": self.dynamic_params, "trace_id": trace_id}
            written = ResolveResponse.plain_json(body)
            if written is not None:
                return written
        return self.response(trace_id).to_json()


class ResolvesParams(Protocol):
    """Resolves one request's `dynamic_params` (`service.py: ParamsService`)."""

    async def resolve(
        self,
        request: ResolveRequest,
        deadline: Deadline | None = None,
        *,
        language: Language | None = None,
    ) -> Resolved:
        """Every property resolved, or raise the error that describes the failure."""
        ...
