"""The fast path checks a `tools/call` message by hand (`fast_path.fast_call`); the SDK's models
are the judge: on generated bodies (those of `test_fast_path.py`: plain calls, mutated ones, odd
ids, extra members, other methods, batches) it takes exactly the messages that the SDK's own
validation takes as a call of one of our tools — `JSONRPCRequest` from the message union, the
revision's `tools/call` surface, `CallToolRequestParams` — and reads the same id and arguments.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_types.methods import validate_client_request
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from resolver.mcp.fast_path import fast_call
from resolver.mcp.tools import BY_NAME
from tests.mcp_checks import bodies

_KEYS = {"jsonrpc", "id", "method", "params"}


def sdk_reading(message: Any, version: str) -> tuple[int | str, dict[str, Any]] | None:
    """The id and arguments of a call of one of our tools as the SDK's models read the
    message; None when they do not read it as one (or it carries more than a plain call)."""
    if not isinstance(message, dict) or message.keys() != _KEYS:
        return None
    if not isinstance(message["params"], dict) or not message["params"].keys() <= {
        "name",
        "arguments",
    }:
        return None
    try:
        request = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        if not isinstance(request, types.JSONRPCRequest) or request.method != "tools/call":
            return None
        validate_client_request("tools/call", version, request.params)
        call = types.CallToolRequestParams.model_validate(request.params, by_name=False)
    except (ValidationError, KeyError, ValueError):
        return None
    if call.name not in BY_NAME:
        return None
    return request.id, call.arguments or {}


def headers_of(version: str) -> Any:
    sent = {b"mcp-protocol-version": version, b"content-type": "application/json"}
    return sent.get


@settings(max_examples=600, deadline=None)
@given(message=bodies(), version=st.sampled_from(sorted(HANDSHAKE_PROTOCOL_VERSIONS)))
def test_the_hand_check_takes_what_the_sdks_models_take(message: Any, version: str) -> None:
    expected = sdk_reading(message, version)
    call = fast_call(message, headers_of(version))
    assert (call is None) == (expected is None)
    if call is not None and expected is not None:
        assert (call.request_id, call.arguments) == expected
        assert type(call.request_id) is type(expected[0])
        assert call.version == version


def test_the_edges_of_a_call() -> None:
    def taken(**changes: Any) -> bool:
        message: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "resolve_time_window", "arguments": {"text": "上周"}},
        }
        for key, value in changes.items():
            if key in {"name", "arguments"}:
                message["params"][key] = value
            else:
                message[key] = value
        call = fast_call(message, headers_of("2025-06-18"))
        assert (call is not None) == (sdk_reading(message, "2025-06-18") is not None)
        return call is not None

    assert taken()
    assert taken(arguments=None)
    assert taken(arguments={})
    assert taken(id="a")
    assert taken(id=2**70)
    assert taken(id=-1)
    assert not taken(id=True)
    assert not taken(id=1.0)
    assert not taken(arguments=[])
    assert not taken(arguments="x")
    assert not taken(name=None)
    assert not taken(name="nope")
    assert not taken(jsonrpc="1.0")
