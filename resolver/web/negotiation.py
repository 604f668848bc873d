"""What a caller asks of an answer besides its content: the format (`?response_format=json|toon`,
JSON by default) and the language (`Accept-Language`, zh-CN or en-US). Errors are always JSON.

TOON is written off the event loop (the app's `Offload`), for answers of at most
`RESOLVER_TOON_MAX_BYTES` of JSON, and sent only when smaller; otherwise the answer is JSON
with `X-Toon-Declined: too-large` or `not-smaller`."""

from __future__ import annotations

from aiohttp import web

from resolver.core.languages import Language, accept_language
from resolver.core.responses import ResponseBody
from resolver.core.toon import DECLINED_HEADER, MEDIA_TYPE, ResponseFormat, encode, parse_format
from resolver.web.served import SERVED


def response_format(request: web.Request) -> ResponseFormat:
    """`?response_format`: json (also when absent or empty) or toon; anything else is a 400."""
    if not request.query_string:
        return "json"  # no query to parse (issue 33: the parse costs 10 calls)
    return parse_format(request.query.get("response_format"))


def request_language(request: web.Request) -> Language | None:
    """The language `Accept-Language` asks for, if it names zh-CN or en-US."""
    return accept_language(request.headers.get("Accept-Language"))


async def render_as(request: web.Request, body: ResponseBody, fmt: ResponseFormat) -> web.Response:
    """A 200 rendered from its model, as JSON or TOON."""
    return await _response(request, body.to_json(), fmt)


async def render_json_bytes_as(
    request: web.Request, body: bytes | bytearray, fmt: ResponseFormat
) -> web.Response:
    """A 200 of JSON with no model of its own (an upstream's answer, passed through as its
    bytes), as JSON or TOON."""
    return await _response(request, bytes(body), fmt)


async def _response(request: web.Request, json_body: bytes, fmt: ResponseFormat) -> web.Response:
    if fmt != "toon":
        return web.Response(body=json_body, content_type="application/json")
    served = SERVED.get()
    limit = served.settings.toon_max_bytes
    if len(json_body) > limit:
        encoded = encode(json_body, limit)  # declined at once: nothing to offload
    else:
        encoded = await served.offload.run(encode, json_body, limit)
    if encoded.toon:
        return web.Response(text=encoded.text, content_type=MEDIA_TYPE, charset="utf-8")
    return web.Response(
        body=json_body,
        content_type="application/json",
        headers={DECLINED_HEADER: encoded.declined or "not-smaller"},
    )
