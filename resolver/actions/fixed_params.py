"""Place an action's fixed `parameters` where they go in the HTTP request."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import Any

import orjson

from resolver.actions.models import FixedParams
from resolver.core.errors import SchemaConversionError
from resolver.toolschema.openapi import body_property_names, parameter_objects
from resolver.toolschema.refs import document_lookup

_HEADER_NAMES = frozenset({"authorization", "content-type"})
_LOCATIONS = frozenset({"path", "query", "header", "cookie"})


def tool_fixed_params(
    parameters: Mapping[str, Any] | None, api_spec: Mapping[str, Any] | None
) -> FixedParams:
    """Each value under the location (`in`) the api_spec gives its name.

    A property of a flattened request body goes to `body`; header names match
    case-insensitively. A cookie parameter has no bucket of its own:
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
    """Name → location of each declared parameter and body property; lower-cased headers."""
    locations: dict[str, str] = {}
    headers: dict[str, str] = {}
    # A spec too broken to read is reported by the schema conversion; placement falls
    # back to the naming rule for whatever could not be read.
    with contextlib.suppress(SchemaConversionError):
        for param, _ in parameter_objects(api_spec, document_lookup(api_spec)):
            name, location = param.get("name"), param.get("in")
            # Unreadable entries are the converter's to report (502), not placed here.
            if not isinstance(name, str) or not isinstance(location, str):
                continue
            if location not in _LOCATIONS:
                continue
            locations.setdefault(name, location)
            if location == "header":
                headers.setdefault(name.lower(), location)
    with contextlib.suppress(SchemaConversionError):
        for name in body_property_names(api_spec):
            locations.setdefault(name, "body")
    return locations, headers


def _by_name(name: str) -> str:
    lowered = name.lower()
    return "header" if lowered.startswith("x-") or lowered in _HEADER_NAMES else "body"


def _cookie_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()
