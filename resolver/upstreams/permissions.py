"""ontology-query: the caller's permission plan for one object type (SPEC §2.2 step 0).

`GET …/knowledge-networks/{kn_id}/object-types/{ot_id}/schema` answers
`{"schema_definition": […], "effective_permissions": {"<data property>": "none"|"schema"|
"masked"|"full"}}`, decided for the caller whose identity and `Authorization` the request
carries. The read fails closed — a failure never means "allow" — and is classified as
upstream classifies it (issues #1547/#1548): the service's 401, 403 and 404 keep their status
(`UNAUTHORIZED`, `PERMISSION_DENIED`, `NOT_FOUND`, the service's own code in `details`, its
message neither echoed nor logged); any other answer it refused with, a 5xx, a transport
failure or a plan that cannot be read is a 502 `UPSTREAM_ERROR`.
"""

from __future__ import annotations

from typing import Any

from resolver.core.errors import (
    NotFound,
    PermissionDenied,
    ResolverError,
    Unauthorized,
    UpstreamError,
    UpstreamTimeout,
)
from resolver.core.ids import segment
from resolver.upstreams.client import CallerHeaders, UpstreamClient

_BASE = "/api/ontology-query/in/v1/knowledge-networks"
_WHAT = "the caller's permissions"
_STEP = "permissions"
_CLOSED = "resolver fails closed"
# The refusals that are about the caller, each with the error it becomes and what it means.
_REFUSALS: dict[int, tuple[type[ResolverError], str]] = {
    401: (Unauthorized, "did not accept the caller's credentials"),
    403: (PermissionDenied, "denies the caller access to this object type"),
    404: (NotFound, "knows no such object type in this knowledge network"),
}


async def fetch_permissions(
    client: UpstreamClient, kn_id: str, ot_id: str, caller: CallerHeaders
) -> dict[str, str]:
    """Data property name → level, as ontology-query decided it for the caller.

    An entry whose level is not a string is left out (no decision: denied); an answer
    without `effective_permissions` is an empty plan (everything that reads a property is
    denied). Raises for every failure, as the module docstring says.
    """
    path = f"{_BASE}/{segment(kn_id)}/object-types/{segment(ot_id)}/schema"
    try:
        answer = await client.get_json(path, caller=caller, headers=caller.as_caller())
    except UpstreamTimeout as exc:
        # The request's own deadline ran out: nobody refused (504).
        raise UpstreamTimeout(
            f"{exc.message} (reading {_WHAT}; {_CLOSED})",
            service=exc.service,
            details={**(exc.details or {}), "step": _STEP},
        ) from exc
    except UpstreamError as exc:
        status = exc.upstream_status
        if status is None or status >= 500:
            # A 5xx is named by its status only, a transport failure by its kind: the
            # message says nothing of the service's own words, the cause chain may be logged.
            raise UpstreamError(
                f"{exc.message} (reading {_WHAT}; {_CLOSED})",
                service=exc.service,
                details={**(exc.details or {}), "step": _STEP},
            ) from exc
        # A refusal: its message is the service's own words, so `from None` keeps it out of
        # the answer and of the log line's cause chain; its status and code are told.
        raise _refusal(exc.service, status, exc.details) from None
    return _levels(client, answer)


def _refusal(service: str, status: int, upstream: Any) -> ResolverError:
    """The error for the service's 4xx answer to the permission read (never an "allow")."""
    code = upstream.get("upstream_code") if isinstance(upstream, dict) else None
    details = {"service": service, "upstream_status": status, "upstream_code": code, "step": _STEP}
    known = _REFUSALS.get(status)
    if known is None:
        return UpstreamError(
            f"{service} answered HTTP {status} when asked for {_WHAT}; {_CLOSED}",
            service=service,
            details=details,
        )
    kind, meaning = known
    return kind(f"{service} {meaning} (HTTP {status}, reading {_WHAT}); {_CLOSED}", details=details)


def _levels(client: UpstreamClient, answer: Any) -> dict[str, str]:
    if not isinstance(answer, dict):
        raise client.unreadable(_WHAT, "the answer is not a JSON object")
    levels = answer.get("effective_permissions")
    if levels is None:
        return {}
    if not isinstance(levels, dict):
        raise client.unreadable(_WHAT, "effective_permissions is not an object")
    return {str(name): level for name, level in levels.items() if isinstance(level, str)}
