"""The base of every JSON response body, rendered from its model (SPEC §2: `trace_id` always)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pydantic_core
from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer


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
        """The body as UTF-8 JSON (aliases used; integers exact at any size)."""
        return pydantic_core.to_json(self, by_alias=True, fallback=str)


@cache
def _omittable(model: type[BaseModel]) -> frozenset[str]:
    """The serialized names of the fields that default to None."""
    return frozenset(
        field.serialization_alias or field.alias or name
        for name, field in model.model_fields.items()
        if not field.is_required() and field.default is None
    )
