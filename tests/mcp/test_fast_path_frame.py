"""The fast path writes a tool call's JSON-RPC answer once, into the SDK's frame of the
revision (`fast_path.response_body`): the bytes must be the SDK's own (`sdk_response_body`: the
result model dumped, shaped for the revision, the response model's JSON) for any id, any text
and any structured JSON, a result or a tool error, under every handshake revision."""

from __future__ import annotations

from typing import Any

import pydantic_core
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from resolver.mcp import fast_path
from resolver.mcp.fast_path import FastCall, response_body, sdk_response_body
from resolver.mcp.results import Outcome
from resolver.mcp.tools import RESOLVE
from tests.helpers import json_values

request_ids = st.integers(min_value=-(2**63), max_value=2**70) | st.text(max_size=12)
objects = st.dictionaries(st.text(max_size=12), json_values(), max_size=4)


@settings(max_examples=300, deadline=None)
@given(
    request_id=request_ids,
    version=st.sampled_from(HANDSHAKE_PROTOCOL_VERSIONS),
    text=st.text(max_size=40),
    structured=objects,
    is_error=st.booleans(),
)
def test_the_answer_is_the_sdks_bytes(
    request_id: int | str, version: str, text: str, structured: Any, is_error: bool
) -> None:
    outcome = Outcome(text, pydantic_core.to_json(structured), is_error)
    call = FastCall(request_id, version, RESOLVE, {})
    assert response_body(call, outcome) == sdk_response_body(
        request_id, version, RESOLVE.name, outcome
    )


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
def test_every_handshake_revision_has_a_frame(version: str) -> None:
    # None would mean the SDK writes every answer again (correct, but the lever is gone).
    assert fast_path._frame(version, False) is not None
    assert fast_path._frame(version, True) is not None
