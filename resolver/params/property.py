"""One property on its way through the stages: its rules' view, what is settled and from
where, and what is missing or failed. The state changes only through its own methods."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal

from resolver.core.errors import LLMError
from resolver.params import asks
from resolver.params.models import LogicPropertyDef
from rules import registry
from rules.spec import InputSpec, PropertySpec

Source = Literal["caller", "context", "rule", "llm", "default"]


@dataclass(slots=True)
class PropertyState:
    """One property of a request, from its definition to its settled values."""

    definition: LogicPropertyDef
    spec: PropertySpec
    values: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    time_expr: str | None = None
    missing: list[str] = field(default_factory=list)
    ask: str | None = None
    llm: dict[str, Any] | None = None
    failure: LLMError | None = None

    @classmethod
    def of(
        cls, definition: LogicPropertyDef, schemas: dict[str, dict[str, Any]] | None
    ) -> PropertyState:
        """A fresh state; `schemas` are the operator's per-input JSON Schemas, if known."""
        inputs = tuple(
            InputSpec(p.name, p.param_type, (schemas or {}).get(p.name))
            for p in definition.inputs()
        )
        return cls(definition, PropertySpec(definition.name, definition.type, inputs))

    @property
    def name(self) -> str:
        """The property name."""
        return self.spec.name

    def settle(self, name: str, value: Any, source: Source) -> None:
        """Record a value and where it came from."""
        self.values[name] = value
        self.sources[name] = source

    def open_params(self) -> list[str]:
        """Inputs still needed, in declared order."""
        return registry.missing(self.spec, self.values)

    def default_of(self, name: str) -> tuple[bool, Any]:
        """`(found, value)` of an input's operator-schema `default` (an `example` is a hint
        for the LLM, never a value)."""
        spec = self.spec.get(name)
        schema = None if spec is None else spec.schema
        if schema is None or "default" not in schema:
            return False, None
        return True, copy.deepcopy(schema["default"])

    def needed_params(self) -> list[str]:
        """Open params that no schema default can fill: what the LLM must produce."""
        return [name for name in self.open_params() if not self.default_of(name)[0]]

    def apply_defaults(self, language: asks.Language) -> None:
        """Stage 4 (SPEC §1): fill what is still open from schema defaults that pass the rules
        (source `default`); a missing list already reported is worked out again."""
        filled = False
        for name in self.open_params():
            found, value = self.default_of(name)
            if not found:
                continue
            broken = registry.validate(self.spec, {**self.values, name: value})
            if any(violation.param == name for violation in broken):
                continue  # a default its own schema refuses is no value
            self.settle(name, value, "default")
            filled = True
        if filled and self.missing:
            still = [name for name in self.missing if name not in self.values]
            if still:
                self.report_missing(language)
            else:
                self.missing, self.ask = [], None

    def report_missing(self, language: asks.Language, ask: str | None = None) -> None:
        """Mark the open params missing; `instant` is implied when the window is missing too."""
        missing = self.open_params()
        if "instant" in missing and any(n in missing for n in ("start", "end", "step")):
            missing.remove("instant")
        self.missing = missing
        self.ask = ask or asks.ask_for(missing, language)

    def fail(self, error: LLMError) -> None:
        """The LLM stage could not settle this property."""
        self.failure = error

    def ordered_values(self) -> dict[str, Any]:
        """The settled values in the property's declared order."""
        return {n: self.values[n] for n in self.spec.input_names() if n in self.values}

    def debug(self) -> dict[str, Any]:
        """The per-property debug block."""
        return {
            "type": self.spec.kind,
            "source": {n: self.sources[n] for n in self.spec.input_names() if n in self.sources},
            "time_expr": self.time_expr,
            "llm": self.llm,
        }
