"""What the service says about its configuration as it starts: the settings a feature needs
and does not have, and the `RESOLVER_*` variables nothing reads (a misspelling is otherwise
silently ignored, and the default it leaves in place looks like a bug elsewhere)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

import structlog

from resolver.core.settings import ENV_PREFIX, Settings

# Read by the test tiers rather than the service (`make test-llm`, `make test-slow`).
TEST_VARIABLES = frozenset(
    {"RESOLVER_REAL_LLM_PYTHON", "RESOLVER_REAL_LLM_MODEL", "RESOLVER_DIFFERENTIAL"}
)


def known_variables() -> frozenset[str]:
    """Every `RESOLVER_*` variable something of resolver reads."""
    fields = {f"{ENV_PREFIX}{name.upper()}" for name in Settings.model_fields}
    return frozenset(fields) | TEST_VARIABLES


def unknown_variables(environ: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """The `RESOLVER_*` variables nothing reads, each with the closest known name (or None)."""
    known = known_variables()
    found = []
    for name in sorted(environ):
        if not name.startswith(ENV_PREFIX) or name in known:
            continue
        # Settings read names case-insensitively: `resolver_port` sets the port.
        if name.upper() in known:
            continue
        closest = difflib.get_close_matches(name.upper(), sorted(known), n=1, cutoff=0.6)
        found.append((name, closest[0] if closest else None))
    return found


def warn_unknown_variables(environ: Mapping[str, str]) -> None:
    """At start-up: one warning per `RESOLVER_*` variable that nothing reads."""
    # Looked up when called: start-up runs once, after `configure_logging` chose the stream.
    log = structlog.get_logger("resolver.settings")
    for name, closest in unknown_variables(environ):
        log.warning("resolver.unknown_variable", variable=name, closest=closest)


def warn_if_no_public_url(settings: Settings) -> None:
    """At start-up: MCP recall cannot form api_urls when neither URL setting is given."""
    if (
        settings.public_url is None
        and not settings.allowed_host_set()
        and settings.operator_integration_url is not None
    ):
        structlog.get_logger("resolver.settings").warning(
            "resolver.public_url_unset",
            consequence="MCP action recall answers 503 NOT_CONFIGURED",
            fix="set RESOLVER_PUBLIC_URL (or RESOLVER_ALLOWED_HOSTS)",
        )
