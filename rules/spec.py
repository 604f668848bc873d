"""What the rules check against: a property's kind and its declared inputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

PropertyKind = Literal["metric", "operator"]

# The time parameters of a metric; everything else a metric declares is a business input.
METRIC_TIME_PARAMS: tuple[str, ...] = ("instant", "start", "end", "step")
STEPS: tuple[str, ...] = ("day", "week", "month", "quarter", "year")
# Timestamps outside 2000-01-01 .. 2100-01-01 (UTC) are mistakes, not queries.
MIN_MS = 946_684_800_000
MAX_MS = 4_102_444_800_000
# Location groups an LLM sometimes nests operator inputs under (rule 5.1.2 forbids it).
LOCATION_GROUPS: frozenset[str] = frozenset(
    {"header", "headers", "query", "path", "body", "cookie"}
)


class ParamType(StrEnum):
    """The declared types of logic-property parameters."""

    STRING = "STRING"
    INTEGER = "INTEGER"
    NUMBER = "NUMBER"
    BOOLEAN = "BOOLEAN"
    OBJECT = "OBJECT"
    ARRAY = "ARRAY"

    @classmethod
    def parse(cls, raw: str) -> ParamType:
        """Read a declared type case-insensitively; ValueError for anything unknown."""
        return cls(raw.strip().upper())

    @property
    def json_type(self) -> str:
        """The JSON Schema type name of this declared type (`STRING` → `string`)."""
        return self.value.lower()


@dataclass(frozen=True, slots=True)
class InputSpec:
    """One `value_from="input"` parameter: its name, declared type and schema if known."""

    name: str
    type: ParamType | None = None
    schema: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class PropertySpec:
    """A logic property as the rules see it."""

    name: str
    kind: PropertyKind
    inputs: tuple[InputSpec, ...] = field(default=())
    # Derived once: the rules ask for names and lookups many times per request (13 calls for
    # one metric; ~7 µs a request: `python -m benchmarks hotpath`).
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, InputSpec] = field(init=False, repr=False, compare=False)
    _time_params: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _typed: tuple[InputSpec, ...] = field(init=False, repr=False, compare=False)
    _schemed: tuple[InputSpec, ...] = field(init=False, repr=False, compare=False)
    # What the rule chain of this property needs (`rules/registry.py`): its kind, whether any
    # input is type-checked, whether any has a schema.
    shape: tuple[PropertyKind, bool, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", tuple(i.name for i in self.inputs))
        object.__setattr__(self, "_by_name", {i.name: i for i in self.inputs})
        declared = tuple(n for n in METRIC_TIME_PARAMS if n in self._by_name)
        object.__setattr__(self, "_time_params", declared if self.kind == "metric" else ())
        typed = tuple(
            i
            for i in self.inputs
            if i.type is not None and not (self.kind == "metric" and i.name in METRIC_TIME_PARAMS)
        )
        schemed = tuple(i for i in self.inputs if i.schema is not None)
        object.__setattr__(self, "_typed", typed)
        object.__setattr__(self, "_schemed", schemed)
        object.__setattr__(self, "shape", (self.kind, bool(typed), bool(schemed)))

    def input_names(self) -> tuple[str, ...]:
        """Input names in declaration order."""
        return self._names

    def get(self, name: str) -> InputSpec | None:
        """The input called `name`, if declared."""
        return self._by_name.get(name)

    def declares(self, name: str) -> bool:
        """Whether `name` is one of the inputs."""
        return name in self._by_name

    def time_params(self) -> tuple[str, ...]:
        """A metric's declared time parameters, in `METRIC_TIME_PARAMS` order (none for an
        operator)."""
        return self._time_params

    def typed_inputs(self) -> tuple[InputSpec, ...]:
        """The inputs whose declared type rule 7.3.2/7.3.3 checks: every typed input, but a
        metric's time parameters (the metric rules check those)."""
        return self._typed

    def schema_inputs(self) -> tuple[InputSpec, ...]:
        """The inputs with an operator schema (rule 5.3.2)."""
        return self._schemed

    def implicit_type(self, name: str) -> ParamType | None:
        """The declared type, or for a metric's time parameters the type SPEC §5 gives them."""
        spec = self.get(name)
        if spec is not None and spec.type is not None:
            return spec.type
        if self.kind == "metric":
            return {
                "instant": ParamType.BOOLEAN,
                "start": ParamType.INTEGER,
                "end": ParamType.INTEGER,
                "step": ParamType.STRING,
            }.get(name)
        return None
