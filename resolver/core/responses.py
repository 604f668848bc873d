"""The base of every JSON response body, rendered from its model (SPEC §2: `trace_id` always)."""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any

import orjson
import pydantic_core
from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

# Field types whose values orjson writes exactly as pydantic does (JSON's own types).
_PLAIN = frozenset({str, int, float, bool, type(None), dict, list, Any})
# orjson writes dates, dataclasses and subclasses of str/int in ways of its own; hand them to
# `_refuse` instead, so such a body goes pydantic's way.
_ONLY_JSON = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


class ResponseBody(BaseModel):
    """A response body. A top-level field whose default is None is left out while it is None
    (`debug` without `return_debug`, `missing` outside a 422); every other field is always
    written, null included."""

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        omittable = _omittable(type(self))
        if not omittable or not isinstance(data, dict):
            return data
        return {k: v for k, v in data.items() if v is not None or k not in omittable}

    def to_json(self) -> bytes:
        """The body as UTF-8 JSON (aliases used; integers exact at any size).

        A body whose fields hold only JSON's own types (the 200 of `/v1/dynamic-params`, of
        `/v1/time-window`) is written by orjson from its fields: pydantic's wrap serializer
        above calls back into Python for every body, 12 µs of a rules-only request. The bytes
        are the same (tests/core/test_responses.py); anything orjson cannot write exactly
        (an integer beyond 64 bits, an object inside an `Any`) goes the model's way.
        """
        fields = _plain_fields(type(self))
        if fields is not None:
            values = self.__dict__
            data = {
                alias: values[name]
                for name, alias, omittable in fields
                if not omittable or values[name] is not None
            }
            written = self.plain_json(data)
            if written is not None:
                return written
        return pydantic_core.to_json(self, by_alias=True, fallback=str)

    @staticmethod
    def plain_json(data: dict[str, Any]) -> bytes | None:
        """`data` (a body's fields by serialized name) written by orjson when it holds only
        JSON's own types, the bytes `to_json` writes; None when anything in it is not (an
        integer beyond 64 bits, a date, a subclass of str): then the caller goes the model's
        way."""
        try:
            return orjson.dumps(data, default=_refuse, option=_ONLY_JSON)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return None


def _refuse(value: object) -> None:
    raise TypeError(type(value).__name__)


@cache
def _omittable(model: type[BaseModel]) -> frozenset[str]:
    """The serialized names of the fields that default to None."""
    return frozenset(
        field.serialization_alias or field.alias or name
        for name, field in model.model_fields.items()
        if not field.is_required() and field.default is None
    )


@cache
def _plain_fields(model: type[BaseModel]) -> tuple[tuple[str, str, bool], ...] | None:
    """(attribute, serialized name, left out while None) per field of a model whose fields
    hold only JSON's own types and that serializes them in no way of its own; else None."""
    decorators = model.__pydantic_decorators__
    extra = model.model_config.get("extra") == "allow"
    if decorators.field_serializers or decorators.model_serializers.keys() - {"_omit_absent"}:
        return None
    if model.model_computed_fields or extra:
        return None
    omittable = _omittable(model)
    fields = []
    for name, field in model.model_fields.items():
        if not _plain(field.annotation) or field.metadata:
            return None
        alias = field.serialization_alias or field.alias or name
        fields.append((name, alias, alias in omittable))
    return tuple(fields)


def _plain(annotation: Any) -> bool:
    """Whether a field type is made of JSON's own types only (str, int, dict[str, Any] …)."""
    if annotation in _PLAIN:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return all(isinstance(value, str | int) for value in typing.get_args(annotation))
    if origin in (dict, list, typing.Union, types.UnionType):
        return all(_plain(arg) for arg in typing.get_args(annotation))
    return False
