"""Place an action's fixed `parameters` where they go in the HTTP request."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import orjson

from resolver.actions.errors import SchemaConversionError
from resolver.actions.models import FixedParams
from resolver.actions.openapi import parameter_objects
from resolver.actions.refs import document_lookup

_HEADER_NAMES = frozenset({"authorization", "content-type"})


def tool_fixed_params(
    parameters: Mapping[str, Any] | None, api_spec: Mapping[str, Any] | None
) -> FixedParams:
    """Each value under the location (`in`) the api_spec gives its name.

    Header names match case-insensitively. A cookie parameter has no bucket of its own:
    it joins the `Cookie` header (`a=1; b=2`, appended to a fixed `Cookie` value if
    there is one), which is how the caller has to send it anyway. A name the spec does
    not declare goes to `header` when it is `x-*`, `authorization` or `content-type`
    (case-insensitive), else to `body`. Values are copied, never shared with the input.
    """
    locations, header_names = _declared_locations(api_spec or {})
    fixed = FixedParams()
    cookies: list[str] = []
    for name, value in (parameters or {}).items():
        location = locations.get(name) or header_names.get(name.lower()) or _by_name(name)
        if location == "cookie":
            cookies.append(f"{name}={_cookie_value(value)}")
        else:
            getattr(fixed, location)[name] = copy.deepcopy(value)
    if cookies:
        key = next((k for k in fixed.header if k.lower() == "cookie"), "Cookie")
        existing = fixed.header.get(key)
        fixed.header[key] = "; ".join([str(existing), *cookies] if existing else cookies)
    return fixed


def mcp_fixed_params(parameters: Mapping[str, Any] | None) -> FixedParams:
    """All values flat in `body`: an MCP tool takes one arguments object."""
    return FixedParams(body=copy.deepcopy(dict(parameters or {})))


def _declared_locations(api_spec: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """Name → location for every declared parameter, and lower-cased header name → `header`."""
    locations: dict[str, str] = {}
    headers: dict[str, str] = {}
    try:
        for param, _ in parameter_objects(api_spec, document_lookup(api_spec)):
            name, location = param.get("name"), param.get("in")
            if not isinstance(name, str) or location not in ("path", "query", "header", "cookie"):
                continue
            locations.setdefault(name, location)
            if location == "header":
                headers.setdefault(name.lower(), location)
    except SchemaConversionError:
        # A broken parameter list is reported by the schema conversion; placement falls
        # back to the naming rule for what it could not read.
        pass
    return locations, headers


def _by_name(name: str) -> str:
    lowered = name.lower()
    return "header" if lowered.startswith("x-") or lowered in _HEADER_NAMES else "body"


def _cookie_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()
