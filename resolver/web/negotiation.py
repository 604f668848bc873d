"""What a caller asks of an answer besides its content: the format (`?response_format=json|toon`,
JSON by default) and the language (`Accept-Language`, zh-CN or en-US). Errors are always JSON."""

from __future__ import annotations

from aiohttp import web

from resolver.core.languages import Language, accept_language
from resolver.core.responses import ResponseBody
from resolver.core.toon import MEDIA_TYPE, ResponseFormat, parse_format, to_toon


def response_format(request: web.Request) -> ResponseFormat:
    """`?response_format`: json (also when absent or empty) or toon; anything else is a 400."""
    return parse_format(request.query.get("response_format"))


def request_language(request: web.Request) -> Language | None:
    """The language `Accept-Language` asks for, if it names zh-CN or en-US."""
    return accept_language(request.headers.get("Accept-Language"))


def render_as(body: ResponseBody, fmt: ResponseFormat) -> web.Response:
    """A 200 rendered from its model, as JSON or TOON."""
    return _response(body.to_json(), fmt)


def render_json_bytes_as(body: bytes | bytearray, fmt: ResponseFormat) -> web.Response:
    """A 200 of JSON with no model of its own (an upstream's answer, passed through as its
    bytes), as JSON or TOON."""
    return _response(bytes(body), fmt)


def _response(json_body: bytes, fmt: ResponseFormat) -> web.Response:
    if fmt == "toon":
        return web.Response(text=to_toon(json_body), content_type=MEDIA_TYPE, charset="utf-8")
    return web.Response(body=json_body, content_type="application/json")
