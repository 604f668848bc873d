"""ontology-query: the caller's permission plan for one object type (SPEC §2.2 step 0).

`GET …/knowledge-networks/{kn_id}/object-types/{ot_id}/schema` answers
`{"schema_definition": […], "effective_permissions": {"<data property>": "none"|"schema"|
"masked"|"full"}}`, decided for the caller whose identity and `Authorization` the request
carries. The read fails closed: any failure — an upstream 4xx included — is a 502, so that a
caller never sees a property because its permissions could not be read.
"""

from __future__ import annotations

from typing import Any

from resolver.core.errors import UpstreamError, UpstreamTimeout
from resolver.core.ids import segment
from resolver.upstreams.client import CallerHeaders, UpstreamClient

_BASE = "/api/ontology-query/in/v1/knowledge-networks"
_WHAT = "the caller's permissions"


async def fetch_permissions(
    client: UpstreamClient, kn_id: str, ot_id: str, caller: CallerHeaders
) -> dict[str, str]:
    """Data property name → level, as ontology-query decided it for the caller.

    An entry whose level is not a string is left out (no decision: denied); an answer
    without `effective_permissions` is an empty plan (everything that reads a property is
    denied). Raises a 502 `UpstreamError` for every failure.
    """
    path = f"{_BASE}/{segment(kn_id)}/object-types/{segment(ot_id)}/schema"
    try:
        answer = await client.get_json(path, caller=caller, headers=caller.as_caller())
    except UpstreamError as exc:
        # Fail closed, and say so: even an upstream 4xx (no such schema, no access) means
        # resolver cannot tell what the caller may see, which is a bad gateway here. The
        # request's own deadline running out stays what it is (504): nobody refused.
        kind = UpstreamTimeout if isinstance(exc, UpstreamTimeout) else UpstreamError
        raise kind(
            f"{exc.message} (reading {_WHAT}; resolver fails closed)",
            service=exc.service,
            details={**(exc.details or {}), "step": "permissions"},
        ) from exc
    return _levels(client, answer)


def _levels(client: UpstreamClient, answer: Any) -> dict[str, str]:
    if not isinstance(answer, dict):
        raise client.unreadable(_WHAT, "the answer is not a JSON object")
    levels = answer.get("effective_permissions")
    if levels is None:
        return {}
    if not isinstance(levels, dict):
        raise client.unreadable(_WHAT, "effective_permissions is not an object")
    return {str(name): level for name, level in levels.items() if isinstance(level, str)}
