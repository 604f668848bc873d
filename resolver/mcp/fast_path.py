"""The fast path of the MCP endpoint (issue 24): a well-formed `tools/call` of one of the tools,
answered in the aiohttp handler's own task rather than through the SDK's per-request
transport (a task group, cancel scopes, memory streams and a dispatcher task per POST).

Only what the SDK would answer by running the tool takes it; everything else is the SDK's
(`http.py`). Each condition is the SDK's own rule for the same POST (mcp 2.3: the stateless
session manager, the Streamable HTTP transport in JSON response mode, the server runner):

- a JSON object with exactly `jsonrpc`, `id`, `method` `tools/call` and `params`, the params
  exactly `name` (one of our tools) and `arguments` — no `_meta`, no `task`, nothing unusual;
- `MCP-Protocol-Version` absent or one of the handshake revisions (2024-11-05 … 2025-11-25;
  the 2026-07-28 revision has another entry in the SDK);
- `Accept` that the SDK reads as allowing JSON (absent counts as `*/*`, as in `http.py`), and
  `Content-Type` as the SDK checks it;
- the message what the SDK's models take (`JSONRPCRequest` from the message union, the
  revision's `tools/call` surface, `CallToolRequestParams`), checked by hand (`fast_call`).

The tool runs through `server.run_outcome` (`http.py` calls it), the call of the SDK path
(counted, logged, traced, envelope taken, deadline, failures by `core/failures.py`) in the
request's own task; the answer is byte for byte what the SDK writes — its `CallToolResult`
shaped for the revision by its own serializer and written as its `JSONRPCResponse` — written
once into the SDK's frame of that answer (`response_body`). `tests/mcp/test_fast_path.py`
compares both paths on generated requests; `test_fast_path_parse.py` and
`test_fast_path_frame.py` hold each shortcut to the SDK's own verdict and bytes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import mcp_types as types
import pydantic_core
import structlog
from mcp.server.lowlevel import Server
from mcp_types.methods import serialize_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from resolver.core.records import record
from resolver.mcp.results import Outcome
from resolver.mcp.tools import BY_NAME, ToolSpec

log = structlog.get_logger("resolver.mcp")

METHOD = "tools/call"
# The headers of the SDK's JSON answer, as the aiohttp handler passes them on (`http.py`).
JSON_HEADERS = (("content-type", "application/json"),)
_MESSAGE_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PARAMS_KEYS = frozenset({"name", "arguments"})
# The JSON types of a request id the SDK takes (`RequestId`: a strict integer or a string).
_ID_TYPES = (int, str)
_JSON = "application/json"

Header = Callable[[bytes], str | None]


@record
class FastCall:
    """A `tools/call` the fast path answers, as the SDK read it."""

    request_id: int | str
    version: str
    tool: ToolSpec
    arguments: dict[str, Any]


def fast_call(message: Any, header: Header) -> FastCall | None:
    """The call, when the SDK would answer this POST by running one of our tools; None for
    anything else (the SDK answers it). `message` is the parsed body, `header` reads a request
    header by its lower-case name.

    The message is checked by hand for what the SDK's models demand of such a call (issue 33:
    validating it with them cost 28 µs a call): `jsonrpc` "2.0"; an id that is a string or an
    integer (strict: no boolean); params of exactly `name` — a string, one of our tools — and
    `arguments`, absent, null or an object (a JSON object's keys are strings). Nothing else of
    a plain call can fail their validation (`tests/mcp/test_fast_path.py` holds the two paths
    to the same answers; `test_fast_path_parse.py` to the models' verdicts)."""
    if not (
        isinstance(message, dict)
        and message.get("method") == METHOD
        and message.keys() == _MESSAGE_KEYS
        and message["jsonrpc"] == "2.0"
        and type(request_id := message["id"]) in _ID_TYPES
        and type(params := message["params"]) is dict
        and params.keys() <= _PARAMS_KEYS
        and type(name := params.get("name")) is str
        and (tool := BY_NAME.get(name)) is not None
    ):
        return None
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    elif type(arguments) is not dict:
        return None
    version = header(b"mcp-protocol-version")
    if version is None:
        version = types.DEFAULT_NEGOTIATED_VERSION
    elif version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return None
    if not (accepts_json(header(b"accept")) and declares_json(header(b"content-type"))):
        return None
    return FastCall(request_id, version, tool, arguments)


@functools.lru_cache(maxsize=256)  # clients send the same few values on every call
def accepts_json(accept: str | None) -> bool:
    """Whether the SDK's JSON response mode serves this `Accept` (None: `*/*`)."""
    if accept is None:
        return True
    media = {part.strip().split(";")[0].strip().lower() for part in accept.split(",")}
    return bool(media & {"*/*", _JSON, "application/*"})


@functools.lru_cache(maxsize=256)
def declares_json(content_type: str | None) -> bool:
    """Whether the SDK takes the body as JSON: its transport-security prefix check and its
    exact media-type check (case-sensitive, unlike the browser guard)."""
    if content_type is None or not content_type.lower().startswith(_JSON):
        return False
    return any(part.strip() == _JSON for part in content_type.split(";")[0].split(","))


def fast_path_applies(server: Server[Any]) -> bool:
    """Whether the server's `tools/call` pipeline is the one the fast path reproduces: no
    cache hint for it and no middleware but what every SDK server has (its OpenTelemetry span,
    recorded only under a global tracer provider, which resolver never installs: it keeps its
    own, `core/tracing.py`)."""
    defaults = {type(middleware) for middleware in Server("defaults").middleware}
    return METHOD not in server.cache_hints and all(
        type(middleware) in defaults for middleware in server.middleware
    )


def response_body(call: FastCall, outcome: Outcome) -> bytes:
    """The JSON-RPC answer to a call, byte for byte as the SDK writes it (`sdk_response_body`),
    written once: the SDK's frame of this revision's answer (`_frame`) with the request id, the
    text and the structured JSON put in its slots — not the result model dumped, shaped for the
    revision, then dumped again as the response model's JSON (39 µs a call, issue 33)."""
    frame = _frame(call.version, outcome.is_error)
    if frame is None:
        return sdk_response_body(call.request_id, call.version, call.tool.name, outcome)
    slots = {_ID: _json(call.request_id), _TEXT: _json(outcome.text), _DATA: outcome.structured}
    return b"".join([slots.get(part, part) for part in frame])


def sdk_response_body(request_id: int | str, version: str, tool: str, outcome: Outcome) -> bytes:
    """The JSON-RPC answer to a call as the SDK writes it: the result model dumped, shaped for
    the revision (the fields its schema does not have dropped), then the response model's
    JSON."""
    dumped = outcome.result().model_dump(by_alias=True, mode="json", exclude_none=True)
    try:
        shaped = serialize_server_result(METHOD, version, dumped)
    except ValidationError:
        # What the SDK answers for a result that does not fit the revision (a bug here).
        log.exception("mcp.invalid_result", tool=tool)
        error = types.ErrorData(
            code=types.INTERNAL_ERROR, message="Handler returned an invalid result"
        )
        message: types.JSONRPCResponse | types.JSONRPCError = types.JSONRPCError(
            jsonrpc="2.0", id=request_id, error=error
        )
    else:
        message = types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=shaped)
    return message.model_dump_json(by_alias=True, exclude_unset=True).encode()


# The slots of a frame: marks that stand for the id, the text and the structured JSON.
_ID, _TEXT, _DATA = b"\x00id", b"\x00text", b"\x00data"
# Sentinel values the SDK writes where those go; no answer of ours holds a NUL character.
_SENTINELS: dict[bytes, Any] = {
    _ID: "\x00id-sentinel",
    _TEXT: "\x00text-sentinel",
    _DATA: {"\x00data-sentinel": 0},
}
# A second answer the frame must reproduce exactly before it is used: escapes, non-ASCII,
# nesting, an integer id.
_PROBE = (
    2**53 + 1,
    'a "quoted"\\ line\nand 上个季度 \u2028\x1f',
    {"a": [1, 2.5, None, True, {"b": "c\td", "n": None}], "上周": -0.0, "big": 2**70},
)


def _json(value: Any) -> bytes:
    return pydantic_core.to_json(value)


@functools.lru_cache(maxsize=64)  # one per revision and kind of result
def _frame(version: str, is_error: bool) -> tuple[bytes, ...] | None:
    """The SDK's answer of this revision cut at the slots: literal pieces and slot marks, in
    order; None when the SDK's answer cannot be cut so (each sentinel once, at most) or the cut
    does not reproduce the probe — then the SDK writes every answer."""
    sample = Outcome(_SENTINELS[_TEXT], _json(_SENTINELS[_DATA]), is_error)
    written = sdk_response_body(_SENTINELS[_ID], version, "", sample)
    cuts: list[tuple[int, bytes, int]] = []
    for mark, value in _SENTINELS.items():
        found = _json(value)
        at = written.find(found)
        if written.count(found) > 1 or (at < 0 and mark != _DATA):
            return None
        if at >= 0:
            cuts.append((at, mark, len(found)))
    frame: list[bytes] = []
    position = 0
    for at, mark, length in sorted(cuts):
        frame += [written[position:at], mark]
        position = at + length
    frame.append(written[position:])
    request_id, text, data = _PROBE
    probe = Outcome(text, _json(data), is_error)
    slots = {_ID: _json(request_id), _TEXT: _json(text), _DATA: probe.structured}
    cut = b"".join(slots.get(part, part) for part in frame)
    if cut != sdk_response_body(request_id, version, "", probe):
        return None
    return tuple(frame)
