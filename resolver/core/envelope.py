"""The platform's envelope, `bkn_context` (SPEC §2.3): its model and its removal, in one place.

BKN deployments from 0.1.3 put `{"conversation_id", "interaction_id", "parent_operation_id"?,
"causation_event_ids"?, "business_refs"?: [{"ref_type", "ref_id", "version"?}]}` into the body
of every business POST and into the arguments of every MCP tool call. resolver accepts it
everywhere and checks its shape (400 `INVALID_BUSINESS_CONTEXT`), takes it off before anything
is resolved — so it never reaches a prompt, a cache key or an upstream body — and writes its two
ids into the log lines of the request (the access line included) and onto the request's span.
It issues no receipts: the envelope is never required and never answered with a lifecycle error.

The model is the platform's schema as published (bkn-foundry PR #1280): closed at every level,
every field described (this one model renders `/openapi.json` and every MCP `inputSchema`),
`business_refs` a list of closed references whose `ref_type` is one of `REF_TYPES`.

How each face takes it off:

- a business body model subclasses `Enveloped` (the optional, never-serialised `bkn_context`
  field); `web/bodies.py: parse_model` validates the body and `detach`es the envelope;
- a free-form arguments object (every MCP tool call in `mcp/server.py`, the MCP proxy's body)
  goes through `take`, which validates the same model and returns the arguments without it;
- `note` records the ids: bound to the request's log lines, set on the current span;
  `forget` unbinds them when the request ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

import structlog
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationError,
    field_validator,
)

from resolver.core import tracing
from resolver.core.errors import ENVELOPE_FIELD, invalid_request

FIELD = ENVELOPE_FIELD
# The ids a log line of the request carries, and the span attributes that carry them too.
LOG_KEYS = ("conversation_id", "interaction_id")
SPAN_ATTRIBUTES = {"conversation_id": "bkn.conversation_id", "interaction_id": "bkn.interaction_id"}
MAX_CHARS = 256
MAX_ITEMS = 64


def _printable(value: str) -> str:
    # The ids land in log lines: a line break inside one could forge a line.
    if not value.isprintable():
        raise ValueError("must be printable text (no line breaks or control characters)")
    return value


Identifier = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_CHARS), AfterValidator(_printable)
]


# The kinds of business object a reference may name: the platform's vocabulary, as published
# (bkn-foundry `driveradapters/mcp/bkn_context_docs_test.go`, PR #1280).
RefType = Literal[
    "knowledge_network",
    "object_type",
    "object_instance",
    "property",
    "relation_type",
    "data_resource",
    "metric",
    "logic",
    "function",
    "action_type",
    "action_instance",
]
REF_TYPES: tuple[str, ...] = get_args(RefType)
Text = Annotated[StrictStr, Field(min_length=1, max_length=MAX_CHARS)]


def _no_default(schema: dict[str, Any]) -> None:
    """An optional field's schema as the platform publishes it: its one type, no `null` branch
    and no `default: null` (leaving a field out is how it is not sent; null is still taken)."""
    schema.pop("default", None)
    branches = schema.pop("anyOf", None)
    if branches is None:
        return
    kept = [branch for branch in branches if branch != {"type": "null"}]
    if len(kept) == 1:
        schema.update({key: value for key, value in kept[0].items() if key not in schema})
    else:
        schema["anyOf"] = kept


class BusinessRef(BaseModel):
    """One business object this call is about, declared for the platform's evidence chain."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    ref_type: RefType = Field(
        description=(
            "The kind of business object referred to: knowledge_network, object_type, "
            "object_instance, property, relation_type, data_resource, metric, logic, function, "
            "action_type or action_instance."
        )
    )
    ref_id: Text = Field(
        description=(
            "The object's canonical id in the current knowledge network, as the platform's "
            "tools returned it."
        )
    )
    version: Text | None = Field(
        default=None,
        description="The version of the object referred to, when it has versions; optional.",
        json_schema_extra=_no_default,
    )


class BknContext(BaseModel):
    """The platform's business context: which conversation and interaction this call belongs
    to. Optional; resolver records its two ids in its logs and traces and sends it nowhere.
    Any other key, or a value of another type, is refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    conversation_id: Identifier = Field(
        description="The business conversation this call belongs to, as the host created it."
    )
    interaction_id: Identifier = Field(
        description="The interaction (one user turn) of that conversation this call serves."
    )
    parent_operation_id: Identifier | None = Field(
        default=None,
        description="The operation that caused this call, when it was made on behalf of one.",
        json_schema_extra=_no_default,
    )
    causation_event_ids: Annotated[list[Identifier], Field(max_length=MAX_ITEMS)] | None = Field(
        default=None,
        description=f"Ids of the events that led to this call (at most {MAX_ITEMS}).",
        json_schema_extra=_no_default,
    )
    business_refs: Annotated[list[BusinessRef], Field(max_length=MAX_ITEMS)] | None = Field(
        default=None,
        description=(
            f"The business objects this call is about, each {{ref_type, ref_id, version?}} "
            f"(at most {MAX_ITEMS})."
        ),
        json_schema_extra=_no_default,
    )

    @field_validator("business_refs", mode="before")
    @classmethod
    def _a_list(cls, value: object) -> object:
        # The object form an older SPEC showed: refused with what to send instead.
        if isinstance(value, dict):
            raise ValueError(  # noqa: TRY004 - pydantic reports ValueError, not TypeError
                "must be a list of {ref_type, ref_id, version?} objects (the platform's "
                "published form); an object is not accepted"
            )
        return value

    def log_context(self) -> dict[str, str]:
        """The ids every log line of the request carries."""
        return {"conversation_id": self.conversation_id, "interaction_id": self.interaction_id}


class Enveloped(BaseModel):
    """The base of every business body: it may carry the platform's envelope.

    The field is never serialised (`exclude=True`), and the faces `detach` it right after
    validation, so what is resolved never holds it.
    """

    # Shown as the closed object alone (`_no_default`), as the platform publishes it; null
    # is still taken, as no envelope.
    bkn_context: BknContext | None = Field(
        default=None,
        exclude=True,
        description=(
            "The platform's business context (conversation_id, interaction_id, …) as BKN "
            "hosts send it. Optional; resolver records its ids in logs and traces and "
            "otherwise ignores it."
        ),
        json_schema_extra=_no_default,
    )


class _Carried(Enveloped):
    """An arguments object read only for its envelope (every other key is left alone)."""

    model_config = ConfigDict(extra="ignore", strict=True)


def detach(body: Enveloped) -> BknContext | None:
    """Take the envelope off a validated body: the body goes on without it."""
    envelope = body.bkn_context
    body.bkn_context = None
    return envelope


def take(arguments: dict[str, Any]) -> tuple[dict[str, Any], BknContext | None]:
    """The arguments without their envelope, and the envelope (checked: 400
    `INVALID_BUSINESS_CONTEXT` when its shape is wrong)."""
    if FIELD not in arguments:
        return arguments, None
    rest = {key: value for key, value in arguments.items() if key != FIELD}
    try:
        carried = _Carried.model_validate({FIELD: arguments[FIELD]})
    except ValidationError as exc:
        raise invalid_request(exc) from exc
    return rest, carried.bkn_context


def note(envelope: BknContext | None) -> None:
    """Record the envelope's ids: on every later log line of this request and on the
    current span (the request's)."""
    if envelope is None:
        return
    ids = envelope.log_context()
    structlog.contextvars.bind_contextvars(**ids)
    tracing.annotate({SPAN_ATTRIBUTES[key]: value for key, value in ids.items()})


def forget() -> None:
    """Unbind the ids from the log context (the request is over)."""
    structlog.contextvars.unbind_contextvars(*LOG_KEYS)


@dataclass(slots=True)
class Seen:
    """Where a call that runs in another task (an MCP tool call) leaves the envelope it
    carried, for the HTTP request that brought it."""

    envelope: BknContext | None = None
