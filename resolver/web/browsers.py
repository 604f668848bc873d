"""Keeping browsers out (SPEC §8, and the MCP specification's rule against DNS rebinding): one
guard, attached by the routes table (`Route.browser_guard`) to every route but the probes
(`/healthz`, `/readyz`, `/metrics`, `/openapi.json`): the MCP face and its HTTP twins alike,
since the pipeline reads the same data and `/v1/dynamic-params` spends the same LLM budget.

A web page a developer opens can send requests to a service on their machine: with no
`Origin` check it calls tools (the browser sends the caller's network position along), with no
`Host` check a rebound DNS name makes the page same-origin with it, and a POST without
`Content-Type` needs no CORS preflight. So, before the handler reads anything:

- a request whose `Origin` is present and not one of `RESOLVER_ALLOWED_ORIGINS` (exact
  `scheme://host[:port]`, case-insensitive; empty by default) is 403 `FORBIDDEN` — unless it
  is this service's own origin (the page is `GET /docs`, served here: the `Origin` is the
  request's own scheme and `Host`) and that `Host` is a name of this service by the rule
  below (a loopback name, the host of `RESOLVER_PUBLIC_URL`, one of `RESOLVER_ALLOWED_HOSTS`):
  a rebound name is never its own origin's alibi;
- while the service listens on a loopback address, a `Host` that is not a loopback name
  (`localhost`, `127.0.0.0/8`, `::1`), the host of `RESOLVER_PUBLIC_URL` or one of
  `RESOLVER_ALLOWED_HOSTS` (with its port when the entry names one) is 403 `FORBIDDEN`;
- a POST whose `Content-Type` is not `application/json` (absent included) is 415. This is the
  one place the declared type is read, case-insensitively (`declares_json`); the MCP endpoint
  hands the SDK the canonical `application/json` once it passed, so the fast path and the
  SDK's path answer alike.

Agents and servers send no `Origin` and the right `Host`, so they never notice.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web

from resolver.core.clip import clip, clip_repr
from resolver.core.errors import Forbidden, UnsupportedMediaType
from resolver.core.settings import Settings

# How many distinct `Host` values a guard remembers its verdict on (a bounded table: a client
# sending ever new names only finds the rest checked in full).
HOSTS_REMEMBERED = 64


class BrowserGuard:
    """The browser checks of one application's settings.

    What a request of an agent shows (no `Origin`, a `Host` already judged a name of this
    service, a POST declaring exactly `application/json`) passes without a call; anything
    else goes through `check_request`, which raises (403, 415) or passes. A `Host`'s verdict
    is remembered for `HOSTS_REMEMBERED` distinct values (issue 33: 6 calls a request less).
    """

    __slots__ = ("_hosts", "_loopback", "settings")

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._loopback = is_loopback(settings.host)
        self._hosts: dict[str, bool] = {}

    def screen(self, request: web.Request) -> None:
        """Raise 403 or 415 for a request these checks refuse (`check_request`); a request
        as agents send it passes without a further call. One plain call from the request
        edge (`middleware.py`), not a coroutine layer around the handler."""
        headers = request.headers
        if (
            "Origin" in headers
            or (self._loopback and not self._hosts.get(request.host))
            or (request.method == "POST" and headers.get("Content-Type") != JSON_MEDIA_TYPE)
        ):
            self.check_request(request)

    def check_request(self, request: web.Request) -> None:
        """Raise 403 for a foreign `Origin` or a rebound `Host`, 415 for a POST that is not
        JSON."""
        check_request(request, self.settings, self._host_allowed if self._loopback else None)

    def _host_allowed(self, host: str) -> bool:
        known = self._hosts.get(host)
        if known is None:
            known = host_allowed(host, self.settings)
            if len(self._hosts) < HOSTS_REMEMBERED:
                self._hosts[host] = known
        return known


def check_request(
    request: web.Request,
    settings: Settings,
    allowed: Callable[[str], bool] | None = None,
) -> None:
    """Raise 403 for a foreign `Origin` or a rebound `Host` (`allowed`: whether a Host names
    this service, None when the service does not listen on loopback: any Host is), 415 for a
    POST that is not JSON."""
    origin = request.headers.get("Origin")
    if (
        origin is not None
        and origin.strip().lower() not in settings.allowed_origin_set()
        and not _own_origin(origin, request, settings)
    ):
        raise Forbidden(
            f"requests from the web page at {clip_repr(origin, 80)} are not served here; "
            "an operator may allow an origin with RESOLVER_ALLOWED_ORIGINS",
            details={"origin": clip(origin), "settings": ["RESOLVER_ALLOWED_ORIGINS"]},
        )
    if allowed is not None and not allowed(request.host):
        raise Forbidden(
            f"Host {clip_repr(request.host, 80)} is not a name of this service; it listens on "
            "a loopback address, where only loopback names, the host of RESOLVER_PUBLIC_URL "
            "and RESOLVER_ALLOWED_HOSTS are served",
            details={
                "host": clip(request.host),
                "settings": ["RESOLVER_PUBLIC_URL", "RESOLVER_ALLOWED_HOSTS"],
            },
        )
    if request.method == "POST":
        declared = request.headers.get("Content-Type", "")
        if not declares_json(declared):
            media = media_type(declared)
            raise UnsupportedMediaType(
                "send the body with Content-Type: application/json"
                + (f", not {media[:80]!r}" if media else "")
            )


JSON_MEDIA_TYPE = "application/json"


def _own_origin(origin: str, request: web.Request, settings: Settings) -> bool:
    """Whether `origin` is this service's page calling it (`GET /docs`'s "try it"): the
    request's own scheme and `Host`, with that `Host` a name of this service."""
    own = f"{request.scheme}://{request.host}".lower()
    return origin.strip().lower() == own and host_allowed(request.host, settings)


def media_type(declared: str) -> str:
    """The media type of a `Content-Type` value, in lower case, without its parameters.
    Read here, not by the email package behind aiohttp's `request.content_type`, which raised
    IndexError on values like `;0*` (a 500)."""
    return declared.split(";", 1)[0].strip().lower()


def declares_json(declared: str | None) -> bool:
    """Whether a `Content-Type` value declares JSON: `application/json` in any case, with any
    parameters."""
    return declared is not None and media_type(declared) == JSON_MEDIA_TYPE


@functools.lru_cache(maxsize=256)
def is_loopback(host: str) -> bool:
    """Whether a listening host (or a Host's name) is a loopback name or address (remembered:
    the listening host is asked on every request to the guarded routes)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_allowed(host: str, settings: Settings) -> bool:
    """Whether a request's `Host` names this service (see the module docstring)."""
    value = host.strip().lower()
    name = _name_of(value)
    if is_loopback(name):
        return True
    if settings.public_url is not None and urlsplit(settings.public_url).hostname == name:
        return True
    allowed = settings.allowed_host_set()
    return value in allowed or name in allowed


def _name_of(host: str) -> str:
    """The name of `host[:port]` (`[v6]:port` too), without the port."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
