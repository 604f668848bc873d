"""Settings: one frozen model, built once from the environment by the CLI."""

from __future__ import annotations

import re
from typing import Literal, Self
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from resolver.core.prices import Price, parse_prices

ResponseFormat = Literal["json_object", "json_schema", "none"]

# A plain host[:port] (or [v6]:port): the only Host values that may become part of a URL.
HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")
# Upper bounds of durations: a timer of 1e300 s overflows the event loop's clock arithmetic.
_HOUR = 3600.0
_DAY = 86400.0
# Query keys of RESOLVER_REDIS_URL that redis-py reads besides its typed ones
# (`URL_QUERY_ARGUMENT_PARSERS`): strings its connections take as they are.
_REDIS_URL_KEYS = frozenset(
    {
        "client_name",
        "username",
        "password",
        "ssl_cert_reqs",
        "ssl_ca_certs",
        "ssl_ca_path",
        "ssl_certfile",
        "ssl_keyfile",
        "ssl_password",
        "ssl_ciphers",
    }
)


ENV_PREFIX = "RESOLVER_"
# The URL settings: blank is unset; otherwise a plain http(s) URL without credentials.
_URL_FIELDS = (
    "llm_base_url",
    "llm_fallback_base_url",
    "ontology_manager_url",
    "bkn_backend_url",
    "operator_integration_url",
    "ontology_query_url",
    "public_url",
)


class Settings(BaseSettings):
    """Every knob of the service; environment variables are RESOLVER_<FIELD>."""

    # `allow_inf_nan=False`: `inf` or `nan` for a timeout passes `gt=0` and then breaks at the
    # first request (or at SIGTERM); every float setting is finite and bounded above.
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, extra="ignore", allow_inf_nan=False
    )

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)

    llm_base_url: str | None = None
    llm_api_key: SecretStr = SecretStr("")
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=10.0, gt=0, le=_HOUR)
    llm_max_attempts: int = Field(default=3, ge=1, le=10)
    llm_retry_after_cap_s: float = Field(default=2.0, ge=0, le=_HOUR)
    llm_max_inflight: int = Field(default=16, ge=1, le=1024)
    llm_qps: float | None = Field(default=None, gt=0, le=1e6)
    llm_response_format: ResponseFormat = "json_object"
    # How `json_schema` travels: OpenAI's `{"type": "json_schema", "json_schema": {...}}`, or
    # `{"type": "json_object", "schema": {...}}` (llama-cpp-python's server, some gateways).
    llm_json_schema_style: Literal["openai", "json_object"] = "openai"
    # Where the instructions go: a system message, or the start of the first user message
    # (for models without a system role: Gemma's template drops system messages).
    llm_system_prompt: Literal["system", "user"] = "system"
    llm_max_tokens: int = Field(default=1024, ge=16)
    llm_max_response_bytes: int = Field(default=1 << 20, ge=1024)
    llm_fallback_base_url: str | None = None
    llm_fallback_model: str | None = None
    llm_fallback_api_key: SecretStr = SecretStr("")
    llm_circuit_failures: int = Field(default=5, ge=1, le=1000)
    llm_circuit_cool_down_s: float = Field(default=30.0, gt=0, le=86400, allow_inf_nan=False)
    llm_cache_ttl_s: float = Field(default=300.0, ge=0, le=86400, allow_inf_nan=False)
    llm_cache_max_entries: int = Field(default=10_000, ge=1, le=10_000_000)
    # One request's LLM budget: calls (repair rounds included) and prompt bytes sent.
    llm_max_calls_per_request: int = Field(default=64, ge=1, le=100_000)
    llm_max_prompt_bytes_per_request: int = Field(default=4 << 20, ge=64 << 10, le=1 << 30)
    # Model choice and the bill (SPEC §6, issue 29): the models a request's `llm_model` may pick
    # (comma separated; empty: `llm_model` is ignored), and the price table, JSON
    # {"<model>": {"input", "cached_input", "output"}} per million tokens (empty: costs null).
    llm_allowed_models: str = ""
    llm_prices: str = ""

    def allowed_models(self) -> tuple[str, ...]:
        """The RESOLVER_LLM_ALLOWED_MODELS entries, in the order given."""
        return tuple(m for m in self.llm_allowed_models.split(",") if m)

    def prices(self) -> dict[str, Price]:
        """The RESOLVER_LLM_PRICES table (checked when the settings were built)."""
        return parse_prices(self.llm_prices)

    @field_validator("llm_allowed_models")
    @classmethod
    def _model_list(cls, value: str) -> str:
        models = [m.strip() for m in value.split(",") if m.strip()]
        if any(len(m) > 256 or not m.isprintable() for m in models):
            raise ValueError("must be a comma-separated list of model names (≤ 256 characters)")
        return ",".join(dict.fromkeys(models))

    @field_validator("llm_prices")
    @classmethod
    def _price_table(cls, value: str) -> str:
        parse_prices(value)
        return value

    request_timeout_s: float = Field(default=30.0, gt=0, le=_HOUR)
    max_concurrency: int = Field(default=4, ge=1, le=16)
    max_pending: int = Field(default=256, ge=0)
    default_timezone: str = "Asia/Shanghai"
    # Business time (SPEC §9.1): the fiscal calendar when a request and its context state none.
    fiscal_year_start: str | None = Field(default=None, pattern=r"^\d{2}-\d{2}$")
    fiscal_year_named_by: Literal["end", "start"] = "end"
    max_body_bytes: int = Field(default=1 << 20, ge=1024)
    # The largest answer (as JSON) written as TOON on request; larger ones go out as JSON.
    toon_max_bytes: int = Field(default=256 << 10, ge=0, le=64 << 20)
    shutdown_grace_s: float = Field(default=10.0, ge=0, le=_HOUR)
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"

    log_format: Literal["json", "console"] = "json"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    ontology_manager_url: str | None = None
    # bkn-backend replaced ontology-manager; either URL serves the object types (bkn-backend's
    # wins when both are set; docs/upstream-contracts.md).
    bkn_backend_url: str | None = None
    operator_integration_url: str | None = None
    ontology_query_url: str | None = None
    upstream_timeout_s: float = Field(default=10.0, gt=0, le=_HOUR)
    operator_schema_ttl_s: float = Field(default=300.0, ge=0, le=_DAY)
    public_url: str | None = None
    mcp_tool_ttl_s: float = Field(default=60.0, ge=0, le=_DAY)
    mcp_call_timeout_s: float = Field(default=60.0, gt=0, le=_HOUR)
    # Hosts (exact host[:port], comma separated) a request's Host may name for MCP api_urls
    # when public_url is unset; empty: never build a URL from Host.
    allowed_hosts: str = ""
    # Origins (exact scheme://host[:port], comma separated) whose web pages may call the MCP
    # face; empty: none (SPEC §8).
    allowed_origins: str = ""
    # Well-formed MCP tool calls skip the SDK's per-request transport (resolver/mcp/fast_path.py);
    # false sends every MCP request through the SDK (the same answers, more CPU).
    mcp_fast_path: bool = True
    mcp_max_inflight: int = Field(default=32, ge=1, le=4096)
    mcp_max_answer_bytes: int = Field(default=4 << 20, ge=1024, le=32 << 20)
    upstream_max_answer_bytes: int = Field(default=8 << 20, ge=64 << 10, le=64 << 20)

    # Serving (resolver/server/): processes, draining, slow clients.
    workers: int = Field(default=1, ge=1, le=64)
    # A worker whose event loop is silent this long is replaced (0: never); --workers N only.
    worker_heartbeat_timeout_s: float = Field(default=5.0, ge=0, le=_HOUR)
    drain_s: float = Field(default=0.0, ge=0, le=_HOUR)
    header_timeout_s: float = Field(default=10.0, gt=0, le=_HOUR)
    max_connections: int = Field(default=1024, ge=8, le=1_000_000)

    # The LLM budget shared through Redis (resolver/llm/shared_limiter.py).
    redis_url: SecretStr | None = None
    redis_failure: Literal["open", "closed"] = "open"
    redis_timeout_s: float = Field(default=0.5, gt=0, le=60)
    redis_key_prefix: str = Field(default="resolver", pattern=r"^[A-Za-z0-9_.:-]{1,64}$")
    expected_replicas: int = Field(default=1, ge=1, le=10_000)
    llm_lease_s: float = Field(default=10.0, ge=0.5, le=_HOUR)

    def allowed_host_set(self) -> frozenset[str]:
        """The RESOLVER_ALLOWED_HOSTS entries, lower-cased."""
        return frozenset(h for h in self.allowed_hosts.split(",") if h)

    def allowed_origin_set(self) -> frozenset[str]:
        """The RESOLVER_ALLOWED_ORIGINS entries, lower-cased."""
        return frozenset(o for o in self.allowed_origins.split(",") if o)

    @field_validator("allowed_origins")
    @classmethod
    def _origin_list(cls, value: str) -> str:
        origins = [o.strip().lower().rstrip("/") for o in value.split(",") if o.strip()]
        for origin in origins:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
                raise ValueError("must be a comma-separated list of scheme://host[:port] origins")
        return ",".join(origins)

    @field_validator("allowed_hosts")
    @classmethod
    def _host_list(cls, value: str) -> str:
        hosts = [h.strip().lower() for h in value.split(",") if h.strip()]
        for host in hosts:
            if not HOST_PORT.fullmatch(host):
                raise ValueError("must be a comma-separated list of host[:port] entries")
        return ",".join(hosts)

    @field_validator("default_timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
            raise ValueError(f"unknown IANA timezone {value!r}") from exc
        return value

    @field_validator("fiscal_year_start", mode="before")
    @classmethod
    def _fiscal_start_is_a_day(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip() or None
        if isinstance(value, str):
            month, _, day = value.partition("-")
            days = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
            if not (month.isdigit() and day.isdigit() and 1 <= int(month) <= 12):
                raise ValueError("must be MM-DD, a day of every year (e.g. 04-01)")
            if not 1 <= int(day) <= days[int(month) - 1]:
                raise ValueError("must be MM-DD, a day of every year (e.g. 04-01)")
        return value

    @field_validator("llm_fallback_model", mode="before")
    @classmethod
    def _blank_model_is_unset(cls, value: object) -> object:
        return (value.strip() or None) if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator(*_URL_FIELDS, mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().rstrip("/")
            return value or None
        return value

    @field_validator(*_URL_FIELDS)
    @classmethod
    def _plain_http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http(s) URL")
        if parts.username is not None or parts.password is not None:
            # Credentials in a URL end up in logs; the key has a variable of its own.
            raise ValueError("must not carry credentials; use RESOLVER_LLM_API_KEY")
        return value

    @field_validator("host")
    @classmethod
    def _explicit_host(cls, value: str) -> str:
        # An empty host makes the server listen on every interface: say so explicitly instead.
        value = value.strip()
        if not value:
            raise ValueError("must not be empty; use 0.0.0.0 (or ::) to listen on all interfaces")
        return value

    @field_validator("redis_url", mode="before")
    @classmethod
    def _blank_redis_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        parts = urlsplit(value.get_secret_value())
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError("must be a redis://, rediss:// or unix:// URL")
        if parts.scheme != "unix" and not parts.hostname:
            raise ValueError("must name a host")
        try:
            parts.port  # noqa: B018 - reading it is the check: urllib raises on a bad port
        except ValueError:
            raise ValueError("must have a port from 0 to 65535") from None
        from redis.connection import URL_QUERY_ARGUMENT_PARSERS, parse_url

        try:
            parse_url(value.get_secret_value())  # type: ignore[no-untyped-call]
        except ValueError as exc:
            # redis-py's message names the query parameter, never its value.
            reason = str(exc) if "connection URL" in str(exc) else "a part redis cannot read"
            raise ValueError(f"is not a URL redis can use: {reason}") from None
        # redis-py hands any other query key to its connection, which fails at the first
        # command (a traceback, exit 1): name it here, never its value (issue 30).
        known = _REDIS_URL_KEYS | set(URL_QUERY_ARGUMENT_PARSERS)
        unknown = sorted(key for key in parse_qs(parts.query) if key not in known)
        if unknown:
            shown = ", ".join(repr(key[:40]) for key in unknown[:5])
            raise ValueError(
                f"has a query parameter redis does not know: {shown}; known: "
                + ", ".join(sorted(known))
            )
        return value

    @model_validator(mode="after")
    def _drain_within_grace(self) -> Self:
        if self.drain_s > self.shutdown_grace_s:
            raise ValueError(
                "RESOLVER_DRAIN_S must not exceed RESOLVER_SHUTDOWN_GRACE_S: requests accepted "
                "while draining need the grace period to finish"
            )
        return self
