"""A headless Chromium (Debian's `chromium`, installed by `make chromium`) driven over the
DevTools protocol with aiohttp's WebSocket client: one page, its console errors collected,
scripts evaluated, screenshots taken. Only loopback URLs are opened."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import os
import shutil
import signal
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from resolver.core.jsonio import dumps, loads

# Where the test run leaves what it saw (untracked: .gitignore).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def chromium_path() -> str:
    """The browser binary; `make chromium` installs it (the test fails loudly without it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "no chromium on PATH: run `make chromium` (Debian's package)"
    return found


@dataclass
class Page:
    """One browser tab: commands in, events recorded."""

    ws: aiohttp.ClientWebSocketResponse
    session: str
    errors: list[str] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _loaded: asyncio.Event = field(default_factory=asyncio.Event)
    pump: asyncio.Task[None] | None = None  # reads the socket for the page's lifetime

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command on this page; its result (an error is an AssertionError)."""
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        message = {"id": number, "method": method, "params": params, "sessionId": self.session}
        await self.ws.send_str(dumps(message).decode())
        return await asyncio.wait_for(future, 30)

    def receive(self, message: dict[str, Any]) -> None:
        """A message from the browser: a command's answer, or an event to note."""
        if "id" in message and message["id"] in self._pending:
            future = self._pending.pop(message["id"])
            if "error" in message:
                future.set_exception(AssertionError(f"devtools: {message['error']}"))
            else:
                future.set_result(message.get("result", {}))
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Page.loadEventFired":
            self._loaded.set()
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(" ".join(str(a.get("value", a)) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            self.errors.append(str(params.get("exceptionDetails", {}).get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}")

    async def open(self, url: str) -> None:
        """Navigate and wait for the load event."""
        assert url.startswith(("http://127.0.0.1", "http://localhost")), url
        self._loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(self._loaded.wait(), 60)

    async def evaluate(self, expression: str) -> Any:
        """A script's value (awaited when it is a promise)."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout_s: float = 60.0) -> Any:
        """Poll a script until its value is truthy; that value."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            assert asyncio.get_running_loop().time() < deadline, f"never true: {expression}"
            await asyncio.sleep(0.2)

    async def screenshot(self, name: str) -> Path:
        """The whole page as a PNG in the artifacts folder."""
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        path.write_bytes(base64.b64decode(shot["data"]))
        return path


@contextlib.asynccontextmanager
async def browser_page() -> AsyncIterator[Page]:
    """A fresh headless Chromium (its own profile) with one page, closed afterwards."""
    # The browser's helpers may still write to the profile as it goes: cleanup is best-effort.
    with tempfile.TemporaryDirectory(
        prefix="resolver-chromium-", ignore_cleanup_errors=True
    ) as profile:
        process = await asyncio.create_subprocess_exec(
            chromium_path(),
            "--headless=new",
            "--no-sandbox",  # CI runs as root
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--window-size=1280,1600",
            f"--user-data-dir={profile}",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,  # its renderer and helpers go with it (killpg)
        )
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            for _ in range(300):
                if port_file.exists() and len(port_file.read_text().split()) == 2:
                    break
                assert process.returncode is None, "chromium exited at start"
                await asyncio.sleep(0.1)
            port, path = port_file.read_text().split()
            async with aiohttp.ClientSession() as http:
                ws = await _connect(http, f"ws://127.0.0.1:{port}{path}")
                async with ws:
                    page = await _attach(ws)
                    try:
                        yield page
                    finally:
                        assert page.pump is not None
                        page.pump.cancel()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


async def _connect(http: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    """The DevTools socket; its port file may be written a moment before it accepts."""
    for _ in range(50):
        try:
            return await http.ws_connect(url, max_msg_size=0)
        except aiohttp.ClientConnectorError:
            await asyncio.sleep(0.1)
    return await http.ws_connect(url, max_msg_size=0)


async def _attach(ws: aiohttp.ClientWebSocketResponse) -> Page:
    """A new tab, attached in flat mode, with the runtime, the log and page events on."""
    answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
    page: Page | None = None

    async def pump() -> None:
        async for frame in ws:
            message = loads(frame.data)
            if page is not None and message.get("sessionId") == page.session:
                page.receive(message)
            elif message.get("id") in answers:
                answers.pop(message["id"]).set_result(message.get("result", {}))

    async def browser_call(number: int, method: str, **params: Any) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        answers[number] = future
        await ws.send_str(dumps({"id": number, "method": method, "params": params}).decode())
        return await asyncio.wait_for(future, 30)

    task = asyncio.create_task(pump())
    target = await browser_call(-1, "Target.createTarget", url="about:blank")
    attached = await browser_call(
        -2, "Target.attachToTarget", targetId=target["targetId"], flatten=True
    )
    page = Page(ws, attached["sessionId"], pump=task)
    for domain in ("Runtime", "Log", "Page"):
        await page.send(f"{domain}.enable")
    await page.send(
        "Emulation.setDeviceMetricsOverride",
        width=1280,
        height=1600,
        deviceScaleFactor=1,
        mobile=False,
    )
    return page
