"""The HTTP client of every knowledge-network service: one pooled aiohttp session each.

Every call forwards the caller's identity and trace headers, runs under that upstream's own
timeout capped by what is left of the request's deadline, is never retried (seed 003 rule
8.3.3), and fails as `UpstreamError` naming the service: a 4xx passes through with its status
and one-line message, a 5xx is the service name and status only (its body is never read),
anything else is a 502, and a call cut by the request deadline is a 504 `UPSTREAM_TIMEOUT`.
Answers are parsed with integers kept exact at any size (int64 ms timestamps, 19-digit ids),
never floats, and read to a bounded size (counted after decompression): error bodies to
64 KiB, answers to `RESOLVER_UPSTREAM_MAX_ANSWER_BYTES` (8 MiB), into one growing buffer.

Redirects are never followed (internal services do not redirect; following one would send the
caller's identity and body to wherever it points): a 3xx is a 502 naming where it pointed.

Upstream errors are translated here and nowhere else: transport failures, statuses, a 404
(turned into the caller's own not-found error by `not_found`), and answers that cannot be read
(`unreadable`, `parse`). Each service module only says what to ask for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Final, TypeVar

import aiohttp
import structlog
from pydantic import BaseModel, ValidationError
from yarl import URL

from resolver.core import tracing
from resolver.core.deadline import Deadline
from resolver.core.errors import NotConfigured, ResolverError, UpstreamError, UpstreamTimeout
from resolver.core.jsonio import dumps, loads
from resolver.core.settings import Settings
from resolver.upstreams.answers import (
    Redirected,
    TooLarge,
    error_summary,
    read_capped,
    unreadable_json,
    where,
)
from resolver.upstreams.caller import CallerHeaders, forwardable

log = structlog.get_logger("resolver.upstreams")

# What the service modules, the edges and the tests import from here; the caller's headers
# live in `caller.py`, reading an answer in `answers.py`.
__all__ = [
    "BKN_BACKEND",
    "ONTOLOGY_MANAGER",
    "ONTOLOGY_QUERY",
    "OPERATOR_INTEGRATION",
    "CallerHeaders",
    "NotFound",
    "Observer",
    "UpstreamClient",
    "Upstreams",
    "forwardable",
    "open_upstreams",
]

M = TypeVar("M", bound=BaseModel)

ONTOLOGY_MANAGER: Final = "ontology-manager"
BKN_BACKEND: Final = "bkn-backend"
OPERATOR_INTEGRATION: Final = "agent-operator-integration"
ONTOLOGY_QUERY: Final = "ontology-query"

# The environment variable that configures each service, named in NOT_CONFIGURED answers.
_SETTING = {
    ONTOLOGY_MANAGER: "RESOLVER_ONTOLOGY_MANAGER_URL",
    BKN_BACKEND: "RESOLVER_BKN_BACKEND_URL",
    OPERATOR_INTEGRATION: "RESOLVER_OPERATOR_INTEGRATION_URL",
    ONTOLOGY_QUERY: "RESOLVER_ONTOLOGY_QUERY_URL",
}
_MAX_ANSWER_BYTES = 8 << 20  # RESOLVER_UPSTREAM_MAX_ANSWER_BYTES
# An error answer is read only for its one-line message (4xx): a huge one is not worth reading.
_MAX_ERROR_BYTES = 64 << 10
_POOL_SIZE = 64

# Turns a service's 404 (the UpstreamError that describes it) into the caller's own error.
NotFound = Callable[[UpstreamError], ResolverError]
# (service, outcome, seconds) for each call: ok, http_4xx, http_5xx, timeout, connection,
# bad_answer or cancelled.
Observer = Callable[[str, str, float], None]


class UpstreamClient:
    """One upstream service: its base URL, its pooled session and its timeout; JSON both ways."""

    def __init__(
        self,
        service: str,
        base_url: str,
        session: aiohttp.ClientSession,
        observe: Observer | None = None,
        *,
        max_answer_bytes: int = _MAX_ANSWER_BYTES,
    ) -> None:
        self.service = service
        self.base_url = base_url.rstrip("/")
        self._session = session
        self._observe = observe
        self.max_answer_bytes = max_answer_bytes
        # Every call passes its own timeout (the deadline may shorten it); this is the default.
        self.timeout_s = session.timeout.total

    async def get_json(
        self,
        path: str,
        *,
        caller: CallerHeaders,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        not_found: NotFound | None = None,
    ) -> Any:
        """GET `path` (already escaped) and return the parsed JSON answer.

        `not_found` turns the service's 404 into the caller's error (no such object type,
        tool, …); without it a 404 passes through like any other 4xx.
        """
        return await self._call(
            "GET", path, caller=caller, params=params, headers=headers, not_found=not_found
        )

    async def post_json(
        self,
        path: str,
        body: Any,
        *,
        caller: CallerHeaders,
        headers: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
        not_found: NotFound | None = None,
    ) -> Any:
        """POST a JSON body to `path` (already escaped) and return the parsed JSON answer.

        `timeout_s` replaces the session's timeout for this call (a tool run, not a lookup);
        `not_found` as for `get_json`.
        """
        return await self._call(
            "POST",
            path,
            caller=caller,
            body=body,
            headers=headers,
            timeout_s=timeout_s,
            not_found=not_found,
        )

    async def post_raw(
        self,
        path: str,
        body: Any,
        *,
        caller: CallerHeaders,
        max_bytes: int,
        timeout_s: float | None = None,
        not_found: NotFound | None = None,
    ) -> bytes | bytearray:
        """POST a JSON body and return the 2xx answer's bytes unparsed, at most `max_bytes`
        of them (more is a 502): for answers that pass through to the caller."""
        raw: bytes | bytearray = await self._call(
            "POST",
            path,
            caller=caller,
            body=body,
            timeout_s=timeout_s,
            not_found=not_found,
            max_bytes=max_bytes,
            parse=False,
        )
        return raw

    def unreadable(self, what: str, reason: str) -> UpstreamError:
        """The 502 for an answer that arrived but cannot be used: `what` names it."""
        return UpstreamError(
            f"{self.service} answered with {what} resolver cannot read: {reason}",
            service=self.service,
            details={"service": self.service, "upstream_status": None},
        )

    def parse(self, model: type[M], answer: Any, what: str) -> M:
        """`answer` read as `model`; an answer that does not fit is `unreadable`, naming where."""
        if not isinstance(answer, dict):
            raise self.unreadable(what, "the answer is not a JSON object")
        try:
            parsed: M = model.model_validate(answer)
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "answer"
            raise self.unreadable(what, f"{where}: {first['msg']}") from exc
        return parsed

    @tracing.traced_call
    async def _call(
        self,
        method: str,
        path: str,
        *,
        caller: CallerHeaders,
        params: Mapping[str, str] | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout_s: float | None = None,
        not_found: NotFound | None = None,
        max_bytes: int | None = None,
        parse: bool = True,
    ) -> Any:
        max_bytes = max_bytes if max_bytes is not None else self.max_answer_bytes
        url = URL(self.base_url + path, encoded=True)
        if params:
            url = url.update_query(params)
        sent = {"Accept": "application/json", **caller.headers(), **(headers or {})}
        data = None
        if body is not None:
            data = dumps(body)
            sent["Content-Type"] = "application/json"
        timeout, by_deadline = self._timeout(timeout_s, caller.deadline)
        if timeout is not None and timeout <= 0:
            raise self.out_of_time(path, caller.deadline)
        started = time.perf_counter()
        outcome = "ok"
        try:
            try:
                status, raw = await self._exchange(
                    method, url, data=data, headers=sent, total_s=timeout, max_bytes=max_bytes
                )
            except (TimeoutError, TooLarge, Redirected, aiohttp.ClientError) as exc:
                outcome, error = self._transport_failure(exc, path, max_bytes)
                if outcome == "timeout" and by_deadline:
                    error = self.out_of_time(path, caller.deadline)
                raise error from exc
            log.debug(
                "upstream.call",
                service=self.service,
                method=method,
                path=path,
                status=status,
                latency_ms=round((time.perf_counter() - started) * 1000, 1),
            )
            if not 200 <= status < 300:
                outcome = f"http_{status // 100}xx"
                refused = self._refused(status, raw, path)
                if status == 404 and not_found is not None:
                    raise not_found(refused) from refused
                raise refused
            if not parse:
                return raw
            try:
                return loads(raw)
            except ValueError as exc:
                outcome = "bad_answer"
                raise self._failed(
                    f"{self.service} answered HTTP {status} with {unreadable_json(exc)}",
                    path=path,
                    status=status,
                ) from exc
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            if self._observe is not None:
                self._observe(self.service, outcome, time.perf_counter() - started)

    async def _exchange(
        self,
        method: str,
        url: URL,
        *,
        data: bytes | None,
        headers: dict[str, str],
        total_s: float | None,
        max_bytes: int,
    ) -> tuple[int, bytes | bytearray]:
        """One request: the status and the body, read no further than it is used."""
        async with self._session.request(
            method,
            url,
            data=data,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=total_s),
            allow_redirects=False,
        ) as response:
            status = response.status
            if 300 <= status < 400:
                raise Redirected(status, where(response.headers.get("Location")))
            if 200 <= status < 300:
                return status, await read_capped(response, max_bytes)
            if status < 500:
                # Only for its message; a bigger body is left unread (and its connection
                # closed rather than drained).
                return status, await read_capped(response, _MAX_ERROR_BYTES, strict=False)
            return status, bytearray()  # a 5xx is named by its status only: nothing to read

    def _transport_failure(
        self, exc: BaseException, path: str, max_bytes: int
    ) -> tuple[str, UpstreamError]:
        """The metrics outcome and the 502 of a call that got no usable answer."""
        if isinstance(exc, TimeoutError):
            return "timeout", self._failed(f"{self.service} did not answer in time", path=path)
        if isinstance(exc, TooLarge):
            message = f"{self.service} answered with more than {max_bytes} bytes"
            return "bad_answer", self._failed(message, path=path)
        if isinstance(exc, Redirected):
            message = (
                f"{self.service} answered HTTP {exc.status}, a redirect to {exc.target}; "
                "resolver does not follow upstream redirects"
            )
            return "redirect", self._failed(message, path=path, status=exc.status)
        if isinstance(exc, aiohttp.ClientPayloadError):
            message = f"{self.service} sent an answer that could not be read"
            return "bad_answer", self._failed(message, path=path)
        reason = type(exc).__name__
        return "connection", self._failed(f"{self.service} is unreachable ({reason})", path=path)

    def _timeout(
        self, timeout_s: float | None, deadline: Deadline | None
    ) -> tuple[float | None, bool]:
        """This call's timeout (its own, else the session's) capped by the request deadline;
        and whether the deadline is what sets it."""
        own = timeout_s if timeout_s is not None else self.timeout_s
        if deadline is None:
            return own, False
        return deadline.cap(own)

    def out_of_time(self, path: str, deadline: Deadline | None) -> UpstreamTimeout:
        """The 504 for a request whose deadline passed while it waited for this service."""
        budget = deadline.budget_s if deadline is not None else 0.0
        log.warning("upstream.deadline", service=self.service, path=path, budget_s=budget)
        return UpstreamTimeout(
            f"the request deadline of {budget:g}s passed while waiting for {self.service}",
            service=self.service,
            details={"service": self.service, "phase": "upstream", "budget_s": budget},
        )

    def _failed(self, message: str, *, path: str, status: int | None = None) -> UpstreamError:
        log.warning("upstream.failed", service=self.service, path=path, error=message)
        # A 2xx that cannot be read is still a bad gateway, whatever status it carried.
        return UpstreamError(
            message,
            service=self.service,
            details={"service": self.service, "upstream_status": status},
        )

    def _refused(self, status: int, raw: bytes | bytearray, path: str) -> UpstreamError:
        # A 4xx is about the request and its message helps the caller; a 5xx message is the
        # upstream's internals (stack traces, hosts), so only the status is told.
        said, code = error_summary(raw) if status < 500 else (None, None)
        message = f"{self.service} answered HTTP {status}" + (f": {said}" if said else "")
        log.warning("upstream.refused", service=self.service, path=path, status=status)
        return UpstreamError(
            message,
            service=self.service,
            upstream_status=status,
            details={"service": self.service, "upstream_status": status, "upstream_code": code},
        )


class Upstreams:
    """The configured upstream clients; asking for an unconfigured one is 503 NOT_CONFIGURED.

    agent-operator-integration has two: `get` for its look-ups (seconds) and `tool_calls` for
    MCP tool runs (up to a minute) on a pool of their own, so that hung tool calls can never
    take the connections a schema look-up needs.
    """

    def __init__(
        self, clients: Mapping[str, UpstreamClient], tool_calls: UpstreamClient | None = None
    ) -> None:
        self._clients = dict(clients)
        self._tool_calls = tool_calls

    def configured(self, service: str) -> bool:
        """Whether the service has a URL."""
        return service in self._clients

    def get(self, service: str) -> UpstreamClient:
        """The client of a service, or raise NotConfigured naming the variable to set."""
        client = self._clients.get(service)
        if client is None:
            raise NotConfigured(
                f"{service} is not configured; set {_SETTING.get(service, 'its URL')}",
                details={"service": service},
            )
        return client

    def tool_calls(self) -> UpstreamClient:
        """agent-operator-integration's client for MCP tool calls (its own connection pool)."""
        if self._tool_calls is None:
            return self.get(OPERATOR_INTEGRATION)  # raises NotConfigured
        return self._tool_calls


@asynccontextmanager
async def open_upstreams(
    settings: Settings, observe: Observer | None = None
) -> AsyncIterator[Upstreams]:
    """One pooled session per configured upstream, each with its own timeout; closed on exit."""
    urls = {
        ONTOLOGY_MANAGER: settings.ontology_manager_url,
        BKN_BACKEND: settings.bkn_backend_url,
        OPERATOR_INTEGRATION: settings.operator_integration_url,
        ONTOLOGY_QUERY: settings.ontology_query_url,
    }
    timeout = aiohttp.ClientTimeout(total=settings.upstream_timeout_s)
    async with AsyncExitStack() as stack:

        def session(pool: int, timeout: aiohttp.ClientTimeout) -> aiohttp.ClientSession:
            opened = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=pool),
                timeout=timeout,
                headers={"User-Agent": "resolver"},
            )
            stack.push_async_callback(opened.close)
            return opened

        clients: dict[str, UpstreamClient] = {}
        for service, url in urls.items():
            if url is None:
                continue
            clients[service] = UpstreamClient(
                service,
                url,
                session(_POOL_SIZE, timeout),
                observe,
                max_answer_bytes=settings.upstream_max_answer_bytes,
            )
        tool_calls = None
        if settings.operator_integration_url is not None:
            # Exactly as many connections as tool calls may run at once (McpProxy's cap).
            tool_calls = UpstreamClient(
                OPERATOR_INTEGRATION,
                settings.operator_integration_url,
                session(
                    settings.mcp_max_inflight,
                    aiohttp.ClientTimeout(total=settings.mcp_call_timeout_s),
                ),
                observe,
            )
        log.info("upstreams.opened", services=sorted(clients), timeout_s=timeout.total)
        yield Upstreams(clients, tool_calls)
