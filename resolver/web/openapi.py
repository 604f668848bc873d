"""The OpenAPI 3.1 document of this API, generated from the routes table and the models."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from resolver.core.failures import ErrorResponse
from resolver.core.toon import MEDIA_TYPE as TOON_MEDIA_TYPE
from resolver.web.routing import TRACE_RECORDED_DOC, Route, Schema

_REF = "#/components/schemas/{model}"
# What the browser guard answers (`web/browsers.py`), on every route it covers.
_FOREIGN = "a web page's Origin, or a Host that is not this service's (DNS rebinding)"
_NOT_JSON = "body not declared as application/json"


def openapi_document(routes: Iterable[Route]) -> dict[str, Any]:
    """OpenAPI 3.1 for the service whose routes table this is (`create_app` builds it once)."""
    components: dict[str, Any] = {}
    paths: dict[str, Any] = {}
    for route in routes:
        operation = _operation(route, components)
        for path in route.paths:
            paths.setdefault(path, {})[route.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "resolver", "version": "0.1.0"},
        "paths": paths,
        "components": {"schemas": components},
    }


def _operation(route: Route, components: dict[str, Any]) -> dict[str, Any]:
    content = {route.ok_media_type: {"schema": _schema(route.ok or {}, components)}}
    if route.toon:
        content[TOON_MEDIA_TYPE] = {
            "schema": {"type": "string", "description": "the same body in TOON"}
        }
    responses: dict[str, Any] = {"200": {"description": route.ok_description, "content": content}}
    for status, description in route.also.items():
        responses[str(status)] = {"description": description}
    error = _schema(ErrorResponse, components)
    errors = dict(route.errors)
    if route.browser_guard:
        errors.setdefault(403, _FOREIGN)
        if route.method == "POST":
            errors.setdefault(415, _NOT_JSON)
    for status, description in sorted(errors.items()):
        responses[str(status)] = {
            "description": description,
            "content": {"application/json": {"schema": error}},
        }
    if route.business:
        for response in responses.values():
            response["headers"] = dict(TRACE_RECORDED_DOC)
    operation: dict[str, Any] = {"summary": route.summary, "responses": responses}
    if route.parameters:
        operation["parameters"] = [dict(p) for p in route.parameters]
    if route.body is not None:
        operation["requestBody"] = {
            "required": route.body_required,
            "content": {"application/json": {"schema": _schema(route.body, components)}},
        }
    return operation


def _schema(schema: Schema, components: dict[str, Any]) -> dict[str, Any]:
    """A reference to a model's schema (added to components once), or an inline schema."""
    if isinstance(schema, dict):
        return dict(schema)
    name = schema.__name__
    if name not in components:
        generated = _model_schema(schema)
        components.update(generated.pop("$defs", {}))
        components[name] = generated
    return {"$ref": _REF.format(model=name)}


def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema(by_alias=True, ref_template=_REF)
