"""The pipeline endpoint's request and response, wire-compatible with the Go service (SPEC §2.2)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from resolver.core.ids import Id
from resolver.core.jsonio import check_finite, loads
from resolver.core.responses import ResponseBody
from resolver.params.models import MAX_PROPERTIES, Name, ResolveOptions
from rules.spec import MAX_MS, MIN_MS

Identity = Annotated[dict[str, Any], Field(min_length=1)]

_KN_FIELDS = frozenset({"kn_id", "ot_id", "properties"})


class KnResolveRequest(BaseModel):
    """`POST /api/agent-retrieval/in/v1/kn/logic-property-resolver` body.

    The Go service's fields; `now_ms` and `timezone` are accepted as in `/v1/dynamic-params`;
    `llm_model` is accepted and ignored (the deployment chooses the model, see the README).
    """

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    kn_id: Id
    ot_id: Id
    query: StrictStr = Field(max_length=8192)
    unique_identities: Annotated[list[Identity], Field(min_length=1)] = Field(
        validation_alias=AliasChoices("_instance_identities", "unique_identities")
    )
    properties: Annotated[list[Name], Field(min_length=1, max_length=MAX_PROPERTIES)]
    additional_context: StrictStr | dict[str, Any] | None = None
    dynamic_params: dict[str, dict[str, Any]] | None = None
    options: ResolveOptions = Field(default_factory=ResolveOptions)
    llm_model: StrictStr | None = None
    now_ms: Annotated[StrictInt, Field(ge=MIN_MS, le=MAX_MS)] | None = None
    timezone: StrictStr | None = None

    @field_validator("unique_identities", "additional_context", "dynamic_params")
    @classmethod
    def _finite(cls, value: Any) -> Any:
        check_finite(value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> KnResolveRequest:
        duplicates = sorted({n for n in self.properties if self.properties.count(n) > 1})
        if duplicates:
            raise ValueError(f"duplicate properties: {', '.join(duplicates)}")
        unknown = [n for n in self.dynamic_params or {} if n not in self.properties]
        if unknown:
            raise ValueError(
                f"dynamic_params names {', '.join(map(repr, unknown))}, not in properties"
            )
        return self


class KnResolveResponse(ResponseBody):
    """The 200 body of the pipeline endpoint: ontology-query's values and the params used."""

    datas: list[Any]
    dynamic_params: dict[str, dict[str, Any]]
    trace_id: str
    debug: dict[str, Any] | None = None


def is_kn_request(body: bytes) -> bool:
    """Whether a request body has the pipeline's shape (for the CLI, which takes both)."""
    try:
        loaded = loads(body)
    except ValueError:
        return False
    return (
        isinstance(loaded, dict)
        and "logic_properties" not in loaded
        and bool(_KN_FIELDS & loaded.keys())
    )
