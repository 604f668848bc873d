"""The OpenAPI document of this API, generated from the pydantic models."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from resolver import action_openapi
from resolver.kn_models import KnResolveRequest
from resolver.models import ResolveRequest


class ErrorInfo(BaseModel):
    """The machine-readable part of an error."""

    code: str
    message: str
    details: Any = None


class MissingEntry(BaseModel):
    """One property that lacks inputs."""

    property: str
    params: list[str]
    ask: str


class ErrorResponse(BaseModel):
    """Every non-200 body; a 422 adds `missing`."""

    model_config = ConfigDict(populate_by_name=True)

    error_line: str = Field(alias="_error")
    error: ErrorInfo
    missing: list[MissingEntry] | None = None
    trace_id: str


class ResolveResponse(BaseModel):
    """The 200 body of `/v1/dynamic-params`."""

    dynamic_params: dict[str, dict[str, Any]]
    trace_id: str
    debug: dict[str, Any] | None = None


class KnResolveResponse(BaseModel):
    """The 200 body of the pipeline endpoint: ontology-query's values and the params used."""

    datas: list[Any]
    dynamic_params: dict[str, dict[str, Any]]
    trace_id: str
    debug: dict[str, Any] | None = None


def _kn_operation() -> dict[str, Any]:
    return {
        "summary": "Logic property values end to end: definitions, params, values (Go-compatible)",
        "parameters": [
            {
                "name": "response_format",
                "in": "query",
                "required": False,
                "schema": {"type": "string", "enum": ["json"], "default": "json"},
            }
        ],
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/KnResolveRequest"}}
            },
        },
        "responses": {
            "200": {
                "description": "every property resolved and valued",
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/KnResolveResponse"}
                    }
                },
            },
            "400": _error("bad request, unknown property, or a caller value breaking a rule"),
            "404": _error("object type not found"),
            "422": _error("inputs missing; `missing` lists them all"),
            "502": _error("LLM or an upstream failed; an upstream's 4xx passes through"),
            "503": _error("overloaded, or an upstream URL is not configured"),
            "504": _error("LLM timeout"),
        },
    }


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
    }


@cache
def openapi_document() -> dict[str, Any]:
    """OpenAPI 3.1 for the service, built once."""
    components: dict[str, Any] = {}
    models: tuple[type[BaseModel], ...] = (
        ResolveRequest,
        ResolveResponse,
        ErrorResponse,
        KnResolveRequest,
        KnResolveResponse,
        *action_openapi.MODELS,
    )
    for model in models:
        schema = model.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}")
        components.update(schema.pop("$defs", {}))
        components[model.__name__] = schema
    ok = {"$ref": "#/components/schemas/ResolveResponse"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "resolver", "version": "0.1.0"},
        "paths": {
            "/v1/dynamic-params": {
                "post": {
                    "summary": "Resolve the dynamic_params of logic properties",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/ResolveRequest"}
                            }
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "every property resolved",
                            "content": {"application/json": {"schema": ok}},
                        },
                        "400": _error("bad request or a caller value breaking a rule"),
                        "413": _error("body too large"),
                        "415": _error("body not JSON"),
                        "422": _error("inputs missing; `missing` lists them all"),
                        "502": _error("LLM unavailable or its output invalid"),
                        "503": _error("overloaded"),
                        "504": _error("LLM timeout"),
                    },
                }
            },
            "/api/agent-retrieval/in/v1/kn/logic-property-resolver": {"post": _kn_operation()},
            "/api/agent-retrieval/v1/kn/logic-property-resolver": {"post": _kn_operation()},
            **action_openapi.action_paths(_error),
            "/healthz": {
                "get": {"summary": "liveness", "responses": {"200": {"description": "up"}}}
            },
            "/readyz": {
                "get": {
                    "summary": "readiness",
                    "responses": {"200": {"description": "ready"}, "503": {"description": "not"}},
                }
            },
        },
        "components": {"schemas": components},
    }
