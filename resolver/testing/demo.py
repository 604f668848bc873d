"""`make demo` (`python -m resolver.testing.demo`): the service as a newcomer first tries it —
the fake LLM and the fake upstreams serving the demo knowledge network (`kn_pharma`) on
loopback, and `resolver serve` wired to them, so that every example of the README and
`docs/` answers as written (tests/test_docs.py runs them against this same wiring).

The fakes run on a loop of their own in a background thread of this process; the service is
`python -m resolver serve`, a child process with the variables set; Ctrl-C (or SIGTERM) stops
the service, then the fakes."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import threading

from aiohttp import web

from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import (
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
)
from resolver.testing.fake_upstreams_cli import serve_demo


def demo_settings(llm_url: str, upstreams_url: str, public_url: str) -> dict[str, str]:
    """The settings (by field name) that wire the service to the fakes."""
    return {
        "llm_base_url": llm_url,
        "llm_api_key": "sk-demo",
        "bkn_backend_url": upstreams_url,
        "operator_integration_url": upstreams_url,
        "ontology_query_url": upstreams_url,
        "public_url": public_url,
    }


def demo_upstreams_app() -> web.Application:
    """bkn-backend, agent-operator-integration and ontology-query on one application, serving
    the demo knowledge network (every caller may see everything)."""
    manager, operators, values = FakeBknBackend(), FakeOperatorIntegration(), FakeOntologyQuery()
    serve_demo(manager, operators, values)
    app = web.Application(client_max_size=16 << 20)
    for fake in (manager, operators, values):
        fake.routes(app)
    return app


def _serve_fakes(host: str, llm_port: int, upstreams_port: int, ready: threading.Event) -> None:
    """The fakes' own loop (a daemon thread: it ends with the process)."""

    async def run() -> None:
        for app, port in (
            (FakeLLM(keep_calls=False).app(), llm_port),
            (demo_upstreams_app(), upstreams_port),
        ):
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            await web.TCPSite(runner, host, port).start()
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(run())


def main(argv: list[str]) -> int:
    """Start the fakes, then serve (blocks until SIGINT or SIGTERM)."""
    parser = argparse.ArgumentParser(prog="python -m resolver.testing.demo", description=__doc__)
    parser.add_argument("--port", type=int, default=8080, help="the service's port")
    parser.add_argument("--llm-port", type=int, default=8090, help="the fake LLM's port")
    parser.add_argument("--upstreams-port", type=int, default=8091, help="the fake upstreams'")
    args = parser.parse_args(argv)
    host = "127.0.0.1"
    ready = threading.Event()
    threading.Thread(
        target=_serve_fakes,
        args=(host, args.llm_port, args.upstreams_port, ready),
        name="demo-fakes",
        daemon=True,
    ).start()
    if not ready.wait(30):
        sys.stderr.write("resolver demo: the fakes did not start (ports in use?)\n")
        return 2
    settings = demo_settings(
        f"http://{host}:{args.llm_port}/v1",
        f"http://{host}:{args.upstreams_port}",
        f"http://localhost:{args.port}",
    )
    environ = {**os.environ}
    environ.update({f"RESOLVER_{name.upper()}": value for name, value in settings.items()})
    service = subprocess.Popen(  # noqa: S603 - our own command, no shell
        [sys.executable, "-m", "resolver", "serve", "--host", host, "--port", str(args.port)],
        env=environ,
    )
    # SIGTERM to the demo is passed on, as Ctrl-C reaches the child through the terminal.
    signal.signal(signal.SIGTERM, lambda signum, frame: service.send_signal(signal.SIGTERM))
    try:
        return service.wait()
    except KeyboardInterrupt:
        service.send_signal(signal.SIGINT)
        return service.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
