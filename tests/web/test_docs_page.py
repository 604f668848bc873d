"""`GET /docs`, the API page for people, and `GET /` pointing to it: served from the package
(no CDN), and tried in a real headless Chromium — no console error, every route of
`/openapi.json` listed, the "try it" call of `POST /v1/time-window` answered. The screenshot
lands in `test-artifacts/docs-page.png`."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from resolver.core.jsonio import dumps
from resolver.core.settings import Settings
from resolver.web.apidocs import ASSET_NAMES
from resolver.web.app import create_app
from tests.helpers import ClientFactory
from tests.web.chromium import browser_page


async def test_root_points_a_caller_to_the_docs(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/")
    assert response.status == 200
    assert await response.json() == {
        "service": "resolver",
        "docs": "/docs",
        "openapi": "/openapi.json",
    }
    browser = await client.get(
        "/", headers={"Accept": "text/html,application/xhtml+xml"}, allow_redirects=False
    )
    assert browser.status == 302
    assert browser.headers["Location"] == "docs"


async def test_the_page_and_its_assets_come_from_this_service(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    page = await client.get("/docs")
    assert page.status == 200
    assert page.content_type == "text/html"
    html = await page.text()
    # Every file the page loads is this service's own (no CDN).
    loaded = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert loaded
    assert all(url.startswith("docs/assets/") for url in loaded), loaded
    for name in ASSET_NAMES:
        asset = await client.get(f"/docs/assets/{name}")
        assert asset.status == 200, name
        assert len(await asset.read()) > 0
    assert 'url: "openapi.json"' in await (await client.get("/docs/assets/docs.js")).text()


@pytest.mark.parametrize("name", ["index.html", "..%2Fcore.py", "swagger-ui.js.map", "x"])
async def test_nothing_else_of_the_assets_folder_is_served(
    make_client: ClientFactory, name: str
) -> None:
    client = await make_client(llm=False)
    response = await client.get(f"/docs/assets/{name}")
    assert response.status == 404
    assert (await response.json())["error"]["code"] == "NOT_FOUND"


async def test_the_document_lists_the_page_and_the_index(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    paths = (await (await client.get("/openapi.json")).json())["paths"]
    assert {"/", "/docs", "/docs/assets/{name}"} <= set(paths)
    assert "text/html" in paths["/docs"]["get"]["responses"]["200"]["content"]


# The body typed into the page's "try it" editor for POST /v1/time-window.
_TRY_BODY = {"text": "last week", "now_ms": 1762996342241, "timezone": "UTC", "unit": "s"}

# Every operation the page lists: "METHOD path".
_LISTED = """[...document.querySelectorAll('.opblock')].map(b =>
  b.querySelector('.opblock-summary-method').textContent.trim() + ' ' +
  b.querySelector('.opblock-summary-path').getAttribute('data-path'))"""

# Open the operation, press "Try it out", type the body (through React's value setter, as a
# keystroke would), press "Execute".
_TRY_IT = """(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const block = [...document.querySelectorAll('.opblock-post')].find(b =>
    b.querySelector('.opblock-summary-path').getAttribute('data-path') === '/v1/time-window');
  block.querySelector('.opblock-summary-control').click();
  const appears = async css => {
    for (let i = 0; i < 100 && !block.querySelector(css); i++) await sleep(100);
    return block.querySelector(css);
  };
  (await appears('.try-out__btn')).click();
  const area = await appears('textarea.body-param__text');
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
  setter.call(area, BODY);
  area.dispatchEvent(new Event('input', {bubbles: true}));
  await sleep(300);
  block.querySelector('.btn.execute').click();
  return true;
})()"""

_ANSWER = """(() => {
  const block = [...document.querySelectorAll('.opblock-post')].find(b =>
    b.querySelector('.opblock-summary-path').getAttribute('data-path') === '/v1/time-window');
  const status = block.querySelector('.live-responses-table .response .response-col_status');
  const body = block.querySelector('.live-responses-table .response-col_description pre');
  return status && body ? [status.textContent.trim(), body.textContent] : null;
})()"""


@pytest.mark.slow  # starts Chromium: not in `make test-fast`
async def test_the_page_in_a_real_browser(aiohttp_server: Any) -> None:
    server: TestServer = await aiohttp_server(create_app(Settings()))
    base = str(server.make_url("/")).rstrip("/")
    async with browser_page() as page:
        await page.open(f"{base}/docs")
        document = await page.evaluate("fetch('openapi.json').then(r => r.json())")
        expected = sorted(
            f"{method.upper()} {path}"
            for path, operations in document["paths"].items()
            for method in operations
        )
        await page.wait_for(f"document.querySelectorAll('.opblock').length >= {len(expected)}")
        assert sorted(await page.evaluate(_LISTED)) == expected
        await page.evaluate(_TRY_IT.replace("BODY", repr(dumps(_TRY_BODY).decode())))
        status, body = await page.wait_for(_ANSWER)
        shot = await page.screenshot("docs-page.png")
        assert status == "200", body
        assert '"start": 1762128000' in body
        assert '"end": 1762732799' in body
        assert page.errors == [], page.errors
    assert shot.stat().st_size > 10_000
