"""The API page for people: `GET /docs` is Swagger UI over this service's own `/openapi.json`
(the one document, so the page cannot drift from the wire); its assets come from the
`swagger-ui-py` package and are served here (no CDN: many deployments have no internet).
`GET /` points to it: a browser is sent to `/docs`, any other caller gets the links as JSON."""

from __future__ import annotations

from pathlib import Path

import swagger_ui
from aiohttp import web

from resolver.core.clip import clip_repr
from resolver.core.errors import NotFound
from resolver.core.jsonio import dumps

# The few files the page loads, by the name it asks for; nothing else of the folder is served.
_ASSETS_DIR = Path(swagger_ui.__file__).resolve().parent / "static"
_ASSET_TYPES = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "favicon-32x32.png": "image/png",
}
ASSET_NAMES = tuple(sorted([*_ASSET_TYPES, "docs.js"]))

# Relative URLs: the page works behind a gateway that serves this service under a prefix.
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>resolver API</title>
<link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/docs.js"></script>
</body>
</html>
"""

# `validatorUrl: null`: Swagger UI would otherwise ask validator.swagger.io for a badge.
INIT_SCRIPT = """window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""

# The index a non-browser caller gets at `GET /`.
INDEX = dumps({"service": "resolver", "docs": "/docs", "openapi": "/openapi.json"})


async def docs_page(request: web.Request) -> web.Response:
    """GET /docs: the page; it loads its assets and `/openapi.json` from this service."""
    return web.Response(text=PAGE, content_type="text/html", charset="utf-8")


async def docs_asset(request: web.Request) -> web.StreamResponse:
    """GET /docs/assets/{name}: one of the page's files (404 for any other name)."""
    name = request.match_info["name"]
    if name == "docs.js":
        return web.Response(text=INIT_SCRIPT, content_type="text/javascript", charset="utf-8")
    if name not in _ASSET_TYPES:
        raise NotFound(f"no such asset of the API page: {clip_repr(name)}")
    return web.FileResponse(
        _ASSETS_DIR / name,
        headers={"Content-Type": _ASSET_TYPES[name], "Cache-Control": "public, max-age=86400"},
    )


async def index(request: web.Request) -> web.Response:
    """GET /: a browser (its Accept names text/html) is sent to `/docs`; others get links."""
    if "text/html" in request.headers.get("Accept", ""):
        return web.Response(status=302, headers={"Location": "docs"})
    return web.Response(body=INDEX, content_type="application/json")
