"""OpenAPI tool (`api_spec`) → one flat JSON-Schema object for OpenAI function calling."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.refs import RefLookup, document_lookup, escape_token
from resolver.toolschema.schema import NodeBudget, resolve_schema
from resolver.toolschema.shapes import flatten_variants, function_parameters, is_object

BODY_PROPERTY = "body"
"""The one property that carries a request body which is not an object with properties."""

# OpenAPI 3: header parameters with these names "SHALL be ignored" (they are set by
# `content`, `responses` and `security`), so the model is never asked to fill them.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})

# Keys of a Parameter Object that are not schema keywords (for a schema-less,
# Swagger-2-style parameter that carries `type`/`enum`/… directly).
_PARAMETER_FIELDS = frozenset(
    {
        "name",
        "in",
        "required",
        "description",
        "schema",
        "content",
        "style",
        "explode",
        "allowEmptyValue",
        "allowReserved",
        "example",
        "examples",
        "deprecated",
    }
)


def openapi_parameters(api_spec: Mapping[str, Any] | None) -> dict[str, Any]:
    """Path, query, header, cookie and body parameters side by side in one object schema.

    Parameters keep the spec's order, then the body's properties. A parameter's own
    `description` wins over its schema's; `required` is merged, path parameters are
    always required; a parameter without `in` counts as a query parameter. A JSON body
    (`request_body` or `requestBody`, the former first; `application/json`, else another
    `*json*` media type, else the first one) whose schema is an object with properties
    is flattened in; any other body (array, primitive, free-form object) becomes the
    single property `body`, required when the request body is. One name defined in two
    places (e.g. a query parameter and a body property) raises `SchemaConversionError`.
    An empty spec gives `{"type": "object", "properties": {}}`. Every schema of the spec
    shares one `NodeBudget` (see `schema.resolve_schema`).
    """
    spec: Mapping[str, Any] = api_spec or {}
    if not isinstance(spec, Mapping):
        raise SchemaConversionError("api_spec must be an object", "#")
    lookup = document_lookup(spec)
    budget = NodeBudget()
    properties: dict[str, Any] = {}
    origins: dict[str, str] = {}
    required: set[str] = set()

    def claim(name: str, location: str, pointer: str) -> None:
        first = origins.setdefault(name, location)
        if first != location:
            raise SchemaConversionError(
                f"parameter {name!r} is defined in both {first} and {location}", pointer
            )
        if name in properties:
            raise SchemaConversionError(
                f"parameter {name!r} is defined twice in {location}", pointer
            )

    for param, pointer in parameter_objects(spec, lookup):
        name, location = _name(param, pointer), _location(param, pointer)
        if location == "header" and name.lower() in _IGNORED_HEADERS:
            continue
        claim(name, location, pointer)
        properties[name] = _parameter_schema(param, lookup, pointer, budget)
        if location == "path" or param.get("required") is True:
            required.add(name)

    body = _body(spec, lookup, budget)
    if body is not None:
        for name, sub in body.properties.items():
            at = body.pointer if body.wrapped else f"{body.pointer}/properties/{escape_token(name)}"
            claim(name, "body", at)
            properties[name] = sub
        required.update(body.required)

    return function_parameters(
        {"properties": properties, "required": [name for name in properties if name in required]}
    )


def body_property_names(api_spec: Mapping[str, Any] | None) -> list[str]:
    """The names a flattened request body adds; none for a wrapped (`body`) or absent body."""
    spec: Mapping[str, Any] = api_spec or {}
    body = _body(spec, document_lookup(spec), NodeBudget())
    return [] if body is None or body.wrapped else list(body.properties)


class _Body(NamedTuple):
    """What the request body adds to the flat parameters."""

    properties: dict[str, Any]
    required: list[str]
    pointer: str
    wrapped: bool


def _body(spec: Mapping[str, Any], lookup: RefLookup, budget: NodeBudget) -> _Body | None:
    found = _request_body(spec, lookup, budget)
    if found is None:
        return None
    schema, body_required, pointer = found
    flat = flatten_variants(schema)
    if is_object(flat) and flat.get("properties"):
        properties = dict(flat["properties"])
        required = [name for name in flat.get("required", []) if name in properties]
        return _Body(properties, required, pointer, wrapped=False)
    required = [BODY_PROPERTY] if body_required else []
    return _Body({BODY_PROPERTY: schema}, required, pointer, wrapped=True)


def parameter_objects(
    spec: Mapping[str, Any], lookup: RefLookup
) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Each Parameter Object of `spec` (a `$ref` to one followed) with its JSON pointer."""
    params = spec.get("parameters")
    if params is None:
        return
    if not isinstance(params, list):
        raise SchemaConversionError("parameters must be an array", "#/parameters")
    for index, entry in enumerate(params):
        param, pointer = entry, f"#/parameters/{index}"
        if isinstance(entry, Mapping) and isinstance(entry.get("$ref"), str):
            param, pointer = _lookup(lookup, entry["$ref"], pointer), entry["$ref"]
        if not isinstance(param, Mapping):
            raise SchemaConversionError("a parameter must be an object", pointer)
        yield param, pointer


def _name(param: Mapping[str, Any], pointer: str) -> str:
    name = param.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaConversionError("a parameter needs a non-empty 'name'", pointer)
    return name


def _location(param: Mapping[str, Any], pointer: str) -> str:
    location = param.get("in")
    if location is not None and not isinstance(location, str):
        # A list or an object is no location: guessing one would misplace a fixed value.
        raise SchemaConversionError("a parameter's 'in' must be a string", f"{pointer}/in")
    return location or "query"


def _parameter_schema(
    param: Mapping[str, Any], lookup: RefLookup, pointer: str, budget: NodeBudget
) -> dict[str, Any]:
    if "schema" in param:
        raw, at = param["schema"], f"{pointer}/schema"
    elif isinstance(param.get("content"), Mapping) and param["content"]:
        media_type, media = next(iter(param["content"].items()))
        at = f"{pointer}/content/{escape_token(str(media_type))}/schema"
        raw = media.get("schema", {}) if isinstance(media, Mapping) else {}
    else:
        raw = {key: value for key, value in param.items() if key not in _PARAMETER_FIELDS}
        at = pointer
    schema = resolve_schema(raw or {"type": "string"}, lookup, pointer=at, budget=budget)
    description = param.get("description")
    if isinstance(description, str) and description:
        schema["description"] = description
    return schema


def _request_body(
    spec: Mapping[str, Any], lookup: RefLookup, budget: NodeBudget
) -> tuple[dict[str, Any], bool, str] | None:
    """The resolved body schema, whether the body is required, and the schema's pointer."""
    key = "request_body" if spec.get("request_body") is not None else "requestBody"
    body, pointer = spec.get(key), f"#/{key}"
    if body is None:
        return None
    if isinstance(body, Mapping) and isinstance(body.get("$ref"), str):
        body, pointer = _lookup(lookup, body["$ref"], pointer), body["$ref"]
    if not isinstance(body, Mapping):
        raise SchemaConversionError("a request body must be an object", pointer)
    content = body.get("content")
    if not content:
        return None
    if not isinstance(content, Mapping):
        raise SchemaConversionError("content must be an object", f"{pointer}/content")
    media_type = _pick_media_type(content)
    media = content[media_type]
    if not isinstance(media, Mapping) or "schema" not in media:
        return None
    at = f"{pointer}/content/{escape_token(media_type)}/schema"
    schema = resolve_schema(media["schema"], lookup, pointer=at, budget=budget)
    description = body.get("description")
    if isinstance(description, str) and description and "description" not in schema:
        schema["description"] = description
    return schema, body.get("required") is True, at


def _pick_media_type(content: Mapping[str, Any]) -> str:
    names = [str(name) for name in content]
    for name in names:
        if name.split(";")[0].strip().lower() == "application/json":
            return name
    for name in names:
        if "json" in name.lower():
            return name
    return names[0]


def _lookup(lookup: RefLookup, ref: str, pointer: str) -> Any:
    try:
        return lookup(ref)
    except LookupError as exc:
        raise SchemaConversionError(f"unresolvable $ref {ref!r}: {exc}", pointer) from exc
