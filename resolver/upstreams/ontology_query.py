"""ontology-query: property values (SPEC §2.2 step 4) and an object's actions (SPEC §8 step 1).

ontology-query acts for the caller: every call carries the caller's `Authorization` too.
"""

from __future__ import annotations

from typing import Any

from resolver.core.errors import ActionTypeNotFound, ResolverError, UpstreamError
from resolver.core.ids import segment
from resolver.upstreams.client import CallerHeaders, UpstreamClient
from resolver.upstreams.models import ActionQuery

_BASE = "/api/ontology-query/in/v1/knowledge-networks"


async def query_values(
    client: UpstreamClient,
    kn_id: str,
    ot_id: str,
    *,
    identities: list[dict[str, Any]],
    properties: list[str],
    dynamic_params: dict[str, dict[str, Any]],
    caller: CallerHeaders,
) -> list[Any]:
    """The property values of each instance, in the order of the identities."""
    path = f"{_BASE}/{segment(kn_id)}/object-types/{segment(ot_id)}/properties"
    body = {
        "_instance_identities": identities,
        "properties": properties,
        "dynamic_params": dynamic_params,
    }
    answer = await client.post_json(
        path, body, caller=caller, headers={"x-http-method-override": "GET", **caller.as_caller()}
    )
    datas = answer.get("datas") if isinstance(answer, dict) else None
    if not isinstance(datas, list):
        raise client.unreadable("property values", "there is no datas list")
    return datas


async def query_actions(
    client: UpstreamClient,
    kn_id: str,
    at_id: str,
    identity: dict[str, Any],
    caller: CallerHeaders,
) -> ActionQuery:
    """The action type's actions for one object; 404 when there is no such action type."""
    path = f"{_BASE}/{segment(kn_id)}/action-types/{segment(at_id)}"

    def not_found(_: UpstreamError) -> ResolverError:
        return ActionTypeNotFound(
            f"action type {at_id!r} not found in knowledge network {kn_id!r}",
            details={"kn_id": kn_id, "at_id": at_id, "service": client.service},
        )

    answer = await client.post_json(
        path,
        {"unique_identities": [identity]},
        caller=caller,
        headers=caller.as_caller(),
        not_found=not_found,
    )
    return client.parse(ActionQuery, answer, "actions")
