"""Command line: `resolver serve`, `resolver resolve FILE|-`, `resolver mcp` (stdio) and
`resolver time TEXT` (the time window a text means).

Each command imports what it runs when it runs: `resolver time` loads the scanner and its
models, not the server, the MCP SDK and the service graph (0.8 s of start-up rather than 3.5).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from pydantic import ValidationError

from resolver.core.errors import ResolverError
from resolver.core.failures import ErrorResponse
from resolver.core.logs import configure_logging
from resolver.core.settings import Settings
from resolver.core.startup import warn_unknown_variables
from resolver.timeexpr.result import STEPS

if TYPE_CHECKING:
    from resolver.core.responses import ResponseBody
    from resolver.upstreams.client import CallerHeaders

# `resolver time` exits 1 for an error, a usage error included: its 2 means "unsettled".
_TIME_ERROR = 1


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit `usage_status` (argparse's 2 unless told)."""

    def __init__(self, *args: Any, usage_status: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.usage_status = usage_status

    def error(self, message: str) -> NoReturn:
        """Print the usage and exit with `usage_status`."""
        self.print_usage(sys.stderr)
        self.exit(self.usage_status, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="resolver", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", help="bind address (default RESOLVER_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=_port, help="port (default RESOLVER_PORT or 8080)")
    serve.add_argument(
        "--workers",
        type=_workers,
        help="processes sharing the port (default RESOLVER_WORKERS or 1)",
    )
    resolve = commands.add_parser("resolve", help="resolve one request JSON, no server")
    resolve.add_argument("file", help="request JSON file, or - for standard input")
    resolve.add_argument("--account-id", help="x-account-id sent upstream (pipeline requests)")
    resolve.add_argument("--account-type", help="x-account-type sent upstream (pipeline requests)")
    mcp = commands.add_parser("mcp", help="serve the MCP tools on stdin/stdout (desktop agents)")
    mcp.add_argument("--kn-id", help="knowledge network of calls that name none (as X-Kn-ID)")
    mcp.add_argument("--account-id", help="x-account-id sent upstream")
    mcp.add_argument("--account-type", help="x-account-type sent upstream")
    time = commands.add_parser(
        "time",
        help="the time window a text means, no server: exit 0, 2 unsettled, 1 error",
        usage_status=_TIME_ERROR,
    )
    time.add_argument("text", nargs="?", help="the text to read, e.g. 上个季度 or 'last week'")
    time.add_argument("--now", help="the clock: epoch ms or an ISO date/datetime (default: now)")
    time.add_argument("--tz", help="IANA zone, city or offset (default RESOLVER_DEFAULT_TIMEZONE)")
    time.add_argument("--context", help="more text: clock and zone sentences, a stated range")
    time.add_argument("--unit", choices=("ms", "s"), help="of start, end and now (default ms)")
    time.add_argument("--language", choices=("zh", "en"), help="of the explanation")
    time.add_argument("--step", choices=STEPS, help="the caller's step, beating the text's")
    time.add_argument("--instant", choices=("true", "false"), help="the caller's instant")
    time.add_argument("--fiscal-year-start", help="MM-DD: the fiscal year's first day")
    time.add_argument("--fiscal-year-named-by", choices=("end", "start"), help="FY naming")
    time.add_argument("--shape", choices=("query_metric",), help="add query_metric_time")
    time.add_argument("--json", action="store_true", help="print the /v1/time-window body")
    time.add_argument(
        "--jsonl",
        metavar="FILE",
        help="one /v1/time-window body per line (- for stdin), one answer per line; "
        "the flags give what a line leaves out",
    )
    return parser


def _workers(value: str) -> int:
    """`--workers`: 1..64, as RESOLVER_WORKERS."""
    try:
        count = int(value)
    except ValueError:
        count = 0
    if not 1 <= count <= 64:
        raise argparse.ArgumentTypeError("must be a whole number from 1 to 64")
    return count


def _port(value: str) -> int:
    """`--port`: 0..65535, as RESOLVER_PORT."""
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("must be a whole number from 0 to 65535")
    return port


def _reason(message: str) -> str:
    """A validation message without pydantic's "Value error, " prefix."""
    return message.removeprefix("Value error, ")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `resolver` command."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        parser.print_usage(sys.stderr)
        status = _TIME_ERROR if args.command == "time" else 2
        parser.exit(status, f"resolver: error: unrecognized arguments: {' '.join(unknown)}\n")
    try:
        settings = Settings()
    except ValidationError as exc:
        # Never echo the offending values: one of them may be a secret.
        lines = [
            f"  RESOLVER_{'_'.join(str(p) for p in e['loc']).upper()}: {_reason(e['msg'])}"
            if e["loc"]
            else f"  {_reason(e['msg'])}"
            for e in exc.errors(include_input=False, include_url=False)
        ]
        sys.stderr.write("resolver: invalid configuration:\n" + "\n".join(lines) + "\n")
        return _TIME_ERROR if args.command == "time" else 2
    if args.command == "serve" and args.host is not None and not args.host.strip():
        sys.stderr.write(
            "resolver: invalid configuration:\n  --host: must not be empty; "
            "use 0.0.0.0 (or ::) to listen on all interfaces\n"
        )
        return 2
    if args.command == "serve":
        return _serve(settings, args.host, args.port, args.workers)
    if args.command == "mcp":
        return _mcp(settings, args)
    if args.command == "time":
        return _time(settings, args)
    return _resolve_command(settings, args)


def _resolve_command(settings: Settings, args: argparse.Namespace) -> int:
    from resolver.upstreams.client import CallerHeaders, forwardable

    for flag, value in (("--account-id", args.account_id), ("--account-type", args.account_type)):
        try:
            forwardable(value or "")
        except ValueError as exc:
            # It would travel in an upstream header: a line break there is an injection.
            sys.stderr.write(f"resolver: {flag} {exc}\n")
            return 2
    caller = CallerHeaders(uuid.uuid4().hex, args.account_id, args.account_type)
    return _resolve(settings, args.file, caller)


def _serve(settings: Settings, host: str | None, port: int | None, workers: int | None) -> int:
    import structlog

    from resolver.server.guard import descriptor_budget
    from resolver.server.process import run_process
    from resolver.server.sockets import ListenError, bind_listeners
    from resolver.server.supervisor import Supervisor

    configure_logging(settings.log_level, settings.log_format)
    warn_unknown_variables(os.environ)
    if workers is not None:
        settings = settings.model_copy(update={"workers": workers})
    host = settings.host if host is None else host
    port = settings.port if port is None else port
    # Bound before anything starts: a port in use is one line and exit 2, with no start-up
    # log line that would suggest the service ever listened.
    try:
        sockets = bind_listeners(host, port)
    except ListenError as exc:
        sys.stderr.write(f"resolver: {exc}\n")
        return 2
    max_connections, descriptors = descriptor_budget(settings.max_connections)
    if max_connections < settings.max_connections:
        structlog.get_logger("resolver.server").warning(
            "resolver.connection_cap_lowered",
            wanted=settings.max_connections,
            max_connections=max_connections,
            descriptor_limit=descriptors,
        )
    if settings.workers == 1:
        return run_process(settings, sockets, max_connections=max_connections)
    return Supervisor(settings, sockets, max_connections, run_process).run()


def _mcp(settings: Settings, args: argparse.Namespace) -> int:
    from resolver.mcp.stdio import StdioDefaults, serve_stdio

    defaults = StdioDefaults(args.kn_id, args.account_id, args.account_type)
    # stdout carries the protocol: every log line goes to stderr.
    configure_logging(settings.log_level, settings.log_format, stream=sys.stderr)
    warn_unknown_variables(os.environ)
    asyncio.run(serve_stdio(settings, defaults))
    return 0


def _time(settings: Settings, args: argparse.Namespace) -> int:
    from resolver.windows.command import TimeFlags, run
    from resolver.windows.service import TimeWindows

    flags = TimeFlags(
        text=args.text,
        jsonl=args.jsonl,
        now=args.now,
        tz=args.tz,
        context=args.context,
        unit=args.unit,
        language=args.language,
        step=args.step,
        instant=None if args.instant is None else args.instant == "true",
        json=args.json,
        max_line_bytes=settings.max_body_bytes,
        fiscal_year_start=args.fiscal_year_start,
        fiscal_year_named_by=args.fiscal_year_named_by,
        shape=args.shape,
    )
    return run(TimeWindows.of(settings), flags)


def _resolve(settings: Settings, path: str, caller: CallerHeaders) -> int:
    # Logs go to stderr so that stdout holds only the response JSON.
    configure_logging(settings.log_level, settings.log_format, stream=sys.stderr)
    limit = settings.max_body_bytes
    try:
        if path == "-":
            body = sys.stdin.buffer.read(limit + 1)
        else:
            with Path(path).open("rb") as file:
                body = file.read(limit + 1)
    except OSError as exc:
        sys.stderr.write(f"resolver: cannot read {path}: {exc.strerror}\n")
        return 2
    if len(body) > limit:
        # Read no further than the limit, as the HTTP API (issue 30: the whole input was read).
        sys.stderr.write(
            f"resolver: {'stdin' if path == '-' else path} holds more than "
            f"RESOLVER_MAX_BODY_BYTES ({limit} bytes), the limit of a request body\n"
        )
        return 2
    status, response = asyncio.run(_resolve_body(settings, body, caller))
    sys.stdout.write(response.to_json().decode() + "\n")
    return 0 if status == 200 else 1


async def _resolve_body(
    settings: Settings, body: bytes, caller: CallerHeaders
) -> tuple[int, ResponseBody]:
    from resolver.core.deadline import Deadline
    from resolver.kn.models import KnResolveRequest, is_kn_request
    from resolver.params.models import ResolveRequest
    from resolver.services import open_services
    from resolver.web.bodies import parse_model

    trace_id = caller.trace_id
    # One deadline for the whole run, as for a request: upstream calls and the LLM share it.
    caller = replace(caller, deadline=Deadline.after(settings.request_timeout_s))
    try:
        if is_kn_request(body):
            # The pipeline shape (kn_id, ot_id, properties): the full four steps.
            kn_request = parse_model(KnResolveRequest, body)
            async with open_services(settings) as services:
                result = await services.pipeline.run(kn_request, caller)
            return 200, result.response(trace_id)
        request = parse_model(ResolveRequest, body)
        async with open_services(settings) as services:
            resolved = await services.params.resolve(request, caller.deadline)
        return 200, resolved.response(trace_id)
    except ResolverError as exc:
        return exc.http_status, ErrorResponse.of(exc, trace_id)
