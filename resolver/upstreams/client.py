"""The HTTP client of every knowledge-network service: one pooled aiohttp session each.

Every call forwards the caller's identity and trace headers, runs under that upstream's own
timeout, is never retried (seed 003 rule 8.3.3), and fails as `UpstreamError` naming the
service: a 4xx passes through with its status and message, anything else is a 502. Answers are
parsed with integers kept exact at any size (int64 ms timestamps, 19-digit ids), never floats.

Upstream errors are translated here and nowhere else: transport failures, statuses, a 404
(turned into the caller's own not-found error by `not_found`), and answers that cannot be read
(`unreadable`, `parse`). Each service module only says what to ask for.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import aiohttp
import structlog
from pydantic import BaseModel, ValidationError
from yarl import URL

from resolver.core import tracing
from resolver.core.errors import NotConfigured, ResolverError, UpstreamError
from resolver.core.jsonio import dumps, loads
from resolver.core.settings import Settings

log = structlog.get_logger("resolver.upstreams")

M = TypeVar("M", bound=BaseModel)

ONTOLOGY_MANAGER: Final = "ontology-manager"
OPERATOR_INTEGRATION: Final = "agent-operator-integration"
ONTOLOGY_QUERY: Final = "ontology-query"

# The environment variable that configures each service, named in NOT_CONFIGURED answers.
_SETTING = {
    ONTOLOGY_MANAGER: "RESOLVER_ONTOLOGY_MANAGER_URL",
    OPERATOR_INTEGRATION: "RESOLVER_OPERATOR_INTEGRATION_URL",
    ONTOLOGY_QUERY: "RESOLVER_ONTOLOGY_QUERY_URL",
}
_MAX_ANSWER_BYTES = 32 << 20
_MAX_MESSAGE = 300
_POOL_SIZE = 64
# Where services of this platform put the human-readable part of an error body.
_MESSAGE_KEYS = ("description", "message", "error_message", "_error", "detail", "error")
_CODE_KEYS = ("code", "error_code", "errcode")
_SPACES = re.compile(r"\s+")

# Turns a service's 404 (the UpstreamError that describes it) into the caller's own error.
NotFound = Callable[[UpstreamError], ResolverError]
# (service, outcome, seconds) for each call: ok, http_4xx, http_5xx, timeout, connection,
# bad_answer or cancelled.
Observer = Callable[[str, str, float], None]


@dataclass(frozen=True, slots=True)
class CallerHeaders:
    """What every upstream call carries on behalf of the caller: identity and trace."""

    trace_id: str
    account_id: str | None = None
    account_type: str | None = None
    traceparent: str | None = None

    def headers(self) -> dict[str, str]:
        """The headers to send upstream."""
        headers = {"x-trace-id": self.trace_id}
        if self.account_id:
            headers["x-account-id"] = self.account_id
        if self.account_type:
            headers["x-account-type"] = self.account_type
        if self.traceparent:
            headers["traceparent"] = self.traceparent
        return headers


class UpstreamClient:
    """One upstream service: its base URL, its pooled session and its timeout; JSON both ways."""

    def __init__(
        self,
        service: str,
        base_url: str,
        session: aiohttp.ClientSession,
        observe: Observer | None = None,
    ) -> None:
        self.service = service
        self.base_url = base_url.rstrip("/")
        self._session = session
        self._observe = observe

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
    ) -> Any:
        url = URL(self.base_url + path, encoded=True)
        if params:
            url = url.update_query(params)
        sent = {"Accept": "application/json", **caller.headers(), **(headers or {})}
        data = None
        if body is not None:
            data = dumps(body)
            sent["Content-Type"] = "application/json"
        # Only an explicit timeout is passed: `timeout=None` would turn the session's off.
        extra: dict[str, Any] = {}
        if timeout_s is not None:
            extra["timeout"] = aiohttp.ClientTimeout(total=timeout_s)
        started = time.perf_counter()
        outcome = "ok"
        try:
            try:
                async with self._session.request(
                    method, url, data=data, headers=sent, **extra
                ) as response:
                    status = response.status
                    raw = await _read_capped(response)
            except TimeoutError as exc:
                outcome = "timeout"
                raise self._failed(f"{self.service} did not answer in time", path=path) from exc
            except aiohttp.ClientPayloadError as exc:
                outcome = "bad_answer"
                message = f"{self.service} sent an answer that could not be read"
                raise self._failed(message, path=path) from exc
            except aiohttp.ClientError as exc:
                outcome = "connection"
                reason = type(exc).__name__
                raise self._failed(f"{self.service} is unreachable ({reason})", path=path) from exc
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
            try:
                return loads(raw)
            except ValueError as exc:
                outcome = "bad_answer"
                raise self._failed(
                    f"{self.service} answered HTTP {status} with a body that is not JSON",
                    path=path,
                    status=status,
                ) from exc
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            if self._observe is not None:
                self._observe(self.service, outcome, time.perf_counter() - started)

    def _failed(self, message: str, *, path: str, status: int | None = None) -> UpstreamError:
        log.warning("upstream.failed", service=self.service, path=path, error=message)
        # A 2xx that cannot be read is still a bad gateway, whatever status it carried.
        return UpstreamError(
            message,
            service=self.service,
            details={"service": self.service, "upstream_status": status},
        )

    def _refused(self, status: int, raw: bytes, path: str) -> UpstreamError:
        said, code = _error_summary(raw)
        message = f"{self.service} answered HTTP {status}" + (f": {said}" if said else "")
        log.warning("upstream.refused", service=self.service, path=path, status=status)
        return UpstreamError(
            message,
            service=self.service,
            upstream_status=status,
            details={"service": self.service, "upstream_status": status, "upstream_code": code},
        )


async def _read_capped(response: aiohttp.ClientResponse) -> bytes:
    if response.content_length is not None and response.content_length > _MAX_ANSWER_BYTES:
        raise aiohttp.ClientPayloadError(f"answer of {response.content_length} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_chunked(1 << 16):
        size += len(chunk)
        if size > _MAX_ANSWER_BYTES:
            raise aiohttp.ClientPayloadError("answer too large")
        chunks.append(chunk)
    return b"".join(chunks)


def _error_summary(raw: bytes) -> tuple[str | None, str | None]:
    """The upstream's own one-line message and code, never its body verbatim."""
    try:
        body = loads(raw)
    except ValueError:
        return None, None
    if not isinstance(body, dict):
        return None, None
    message = next((m for m in map(_text_of, (body.get(k) for k in _MESSAGE_KEYS)) if m), None)
    code = next((str(body[k]) for k in _CODE_KEYS if isinstance(body.get(k), str | int)), None)
    if message is not None:
        message = _SPACES.sub(" ", message).strip()[:_MAX_MESSAGE]
    return message or None, code[:_MAX_MESSAGE] if code else None


def _text_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        inner = value.get("message") or value.get("description")
        return inner if isinstance(inner, str) else None
    return None


class Upstreams:
    """The configured upstream clients; asking for an unconfigured one is 503 NOT_CONFIGURED."""

    def __init__(self, clients: Mapping[str, UpstreamClient]) -> None:
        self._clients = dict(clients)

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


@asynccontextmanager
async def open_upstreams(
    settings: Settings, observe: Observer | None = None
) -> AsyncIterator[Upstreams]:
    """One pooled session per configured upstream, each with its own timeout; closed on exit."""
    urls = {
        ONTOLOGY_MANAGER: settings.ontology_manager_url,
        OPERATOR_INTEGRATION: settings.operator_integration_url,
        ONTOLOGY_QUERY: settings.ontology_query_url,
    }
    timeout = aiohttp.ClientTimeout(total=settings.upstream_timeout_s)
    async with AsyncExitStack() as stack:
        clients: dict[str, UpstreamClient] = {}
        for service, url in urls.items():
            if url is None:
                continue
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=_POOL_SIZE),
                timeout=timeout,
                headers={"User-Agent": "resolver"},
            )
            stack.push_async_callback(session.close)
            clients[service] = UpstreamClient(service, url, session, observe)
        log.info("upstreams.opened", services=sorted(clients), timeout_s=timeout.total)
        yield Upstreams(clients)
