"""Settings: one frozen model, built once from the environment by the CLI."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ResponseFormat = Literal["json_object", "json_schema", "none"]


class Settings(BaseSettings):
    """Every knob of the service; environment variables are RESOLVER_<FIELD>."""

    model_config = SettingsConfigDict(env_prefix="RESOLVER_", frozen=True, extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)

    llm_base_url: str | None = None
    llm_api_key: SecretStr = SecretStr("")
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=10.0, gt=0)
    llm_max_attempts: int = Field(default=3, ge=1, le=10)
    llm_retry_after_cap_s: float = Field(default=2.0, ge=0)
    llm_max_inflight: int = Field(default=16, ge=1, le=1024)
    llm_qps: float | None = Field(default=None, gt=0)
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

    request_timeout_s: float = Field(default=30.0, gt=0)
    max_concurrency: int = Field(default=4, ge=1, le=16)
    max_pending: int = Field(default=256, ge=0)
    default_timezone: str = "Asia/Shanghai"
    max_body_bytes: int = Field(default=1 << 20, ge=1024)
    shutdown_grace_s: float = Field(default=10.0, ge=0)
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"

    log_format: Literal["json", "console"] = "json"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    ontology_manager_url: str | None = None
    operator_integration_url: str | None = None
    ontology_query_url: str | None = None
    upstream_timeout_s: float = Field(default=10.0, gt=0)
    operator_schema_ttl_s: float = Field(default=300.0, ge=0)
    public_url: str | None = None
    mcp_tool_ttl_s: float = Field(default=60.0, ge=0)
    mcp_call_timeout_s: float = Field(default=60.0, gt=0)

    @field_validator("default_timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
            raise ValueError(f"unknown IANA timezone {value!r}") from exc
        return value

    @field_validator("llm_fallback_model", mode="before")
    @classmethod
    def _blank_model_is_unset(cls, value: object) -> object:
        return (value.strip() or None) if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator(
        "llm_base_url",
        "llm_fallback_base_url",
        "ontology_manager_url",
        "operator_integration_url",
        "ontology_query_url",
        "public_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().rstrip("/")
            return value or None
        return value

    @field_validator(
        "llm_base_url",
        "llm_fallback_base_url",
        "ontology_manager_url",
        "operator_integration_url",
        "ontology_query_url",
        "public_url",
    )
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
