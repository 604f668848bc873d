"""One property on its way through the stages: its rules' view, what is settled and from
where, and what is missing or failed. The state changes only through its own methods: the
stages read it through read-only properties and `Final` attributes (mypy refuses a write
from outside)."""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from resolver.core.errors import LLMError
from resolver.llm.completion import Completion, Message
from resolver.params import asks
from resolver.params.models import LogicPropertyDef, kept_spec
from resolver.params.sources import Source
from resolver.params.trace import LLMTrace
from rules import registry
from rules.spec import METRIC_TIME_PARAMS, InputSpec, ParamType, PropertySpec

# Definitions up to this many parameters share their spec: 4,096 of them hold a few MB at most.
_CACHED_PARAMETERS = 16


@functools.lru_cache(maxsize=4096)
def _spec_of(
    name: str, kind: Literal["metric", "operator"], declared: tuple[tuple[str, str | None], ...]
) -> PropertySpec:
    """The rules' view of a property without schemas, built once per distinct definition: a
    load tester's or an agent's requests repeat the same few (8 µs a property otherwise).
    PropertySpec is frozen, so one serves every request."""
    inputs = tuple(InputSpec(n, None if t is None else ParamType(t), None) for n, t in declared)
    return PropertySpec(name, kind, inputs)


def _spec_with(definition: LogicPropertyDef, schemas: dict[str, dict[str, Any]]) -> PropertySpec:
    inputs = tuple(
        InputSpec(p.name, p.param_type, schemas.get(p.name)) for p in definition.inputs()
    )
    return PropertySpec(definition.name, definition.type, inputs)


def _spec_without_schemas(definition: LogicPropertyDef) -> PropertySpec:
    if len(definition.parameters) > _CACHED_PARAMETERS:
        return _spec_with(definition, {})
    # `inputs()` inline: one comprehension, not two (0.4 µs a property).
    declared = tuple([(p.name, p.type) for p in definition.parameters if p.value_from == "input"])
    return _spec_of(definition.name, definition.type, declared)


class PropertyState:
    """One property of a request, from its definition to its settled values."""

    __slots__ = (
        "_ask",
        "_failure",
        "_llm",
        "_missing",
        "_refused",
        "_sources",
        "_time_expr",
        "_unread",
        "_values",
        "definition",
        "name",
        "sources",
        "spec",
        "values",
    )

    def __init__(self, definition: LogicPropertyDef, spec: PropertySpec) -> None:
        # Plain attributes that never change (Final: mypy refuses a write), read several times
        # a property by every stage: a @property is a Python call on each read (issue 33).
        self.definition: Final = definition  # as the request sent it
        self.spec: Final = spec  # the property as the rules see it
        self.name: Final = spec.name
        self._values: dict[str, Any] = {}
        self._sources: dict[str, Source] = {}
        # The settled values, in the order they were settled, and where each came from: read
        # through these views, changed only through `settle`.
        self.values: Final[Mapping[str, Any]] = self._values
        self.sources: Final[Mapping[str, Source]] = self._sources
        self._time_expr: str | None = None
        self._unread: tuple[str, ...] = ()
        self._missing: list[str] = []
        self._ask: str | None = None
        self._llm: LLMTrace | None = None
        self._failure: LLMError | None = None
        self._refused: str | None = None

    @classmethod
    def of(
        cls, definition: LogicPropertyDef, schemas: dict[str, dict[str, Any]] | None
    ) -> PropertyState:
        """A fresh state; `schemas` are the operator's per-input JSON Schemas, if known."""
        if schemas:
            return cls(definition, _spec_with(definition, schemas))
        # A kept definition (`params/models.py`) keeps its spec: built once, not per request.
        return cls(definition, kept_spec(definition, _spec_without_schemas))

    @property
    def time_expr(self) -> str | None:
        """The normal form of the time expression the scanner settled the window from."""
        return self._time_expr

    @property
    def missing(self) -> list[str]:
        """The inputs reported missing (a copy), in declared order."""
        return list(self._missing)

    @property
    def is_missing(self) -> bool:
        """Whether inputs were reported missing (`missing` without its copy)."""
        return bool(self._missing)

    @property
    def ask(self) -> str | None:
        """The sentence telling an agent what to add for the missing inputs."""
        return self._ask

    @property
    def llm(self) -> LLMTrace | None:
        """What the LLM stage did, once it ran."""
        return self._llm

    @property
    def failure(self) -> LLMError | None:
        """Why the LLM stage could not settle this property, if it could not."""
        return self._failure

    def settle(self, name: str, value: Any, source: Source) -> None:
        """Record a value and where it came from."""
        self._values[name] = value
        self._sources[name] = source

    def settle_all(self, values: Mapping[str, Any], source: Source) -> None:
        """Record several values from one source (`settle` for each, in their order)."""
        self._values.update(values)
        self._sources.update(dict.fromkeys(values, source))

    def read_time(self, expr: str | None) -> None:
        """Record the time expression the window was settled from (the debug's `time_expr`)."""
        self._time_expr = expr

    def could_not_read(self, words: tuple[str, ...]) -> None:
        """Record the time-like words the scanner could not read: the ask names them."""
        self._unread = words

    def open_params(self) -> list[str]:
        """Inputs still needed, in declared order."""
        return registry.missing(self.spec, self._values)

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
            broken = registry.validate(self.spec, {**self._values, name: value})
            if any(violation.param == name for violation in broken):
                continue  # a default its own schema refuses is no value
            self.settle(name, value, "default")
            filled = True
        if filled and self._missing:
            still = [name for name in self._missing if name not in self._values]
            if still:
                self.report_missing(language)
            else:
                self._missing, self._ask = [], None

    def report_missing(
        self,
        language: asks.Language,
        ask: str | None = None,
        *,
        named: Sequence[str] = (),
    ) -> None:
        """Mark the open params missing; `instant` is implied when the window is missing too.

        `ask` is the model's own sentence, if it wrote one (else one is written for every open
        param); `named` the params the model said it lacks — when some of them are open, only
        those are reported.
        """
        missing = self.open_params()
        if "instant" in missing and any(n in missing for n in ("start", "end", "step")):
            missing.remove("instant")
        self._missing = [p for p in missing if p in named] or missing
        if ask is None:
            self._ask = asks.ask_for(missing, language, self._unread)
        elif self._unread and any(p in METRIC_TIME_PARAMS for p in self._missing):
            # The model's own sentence, after the words the scanner could not read.
            clause = asks.unread_clause(language, self._unread)
            self._ask = f"{clause}{'；' if language == 'zh' else '; '}{ask}"
        else:
            self._ask = ask

    def refuse_window(
        self, params: list[str], language: asks.Language, *, fiscal: bool = False
    ) -> None:
        """No window can be settled, and no LLM may guess one (SPEC §9.1): a metric with no
        time dimension asked for a period (the ask says it can only be read as a current
        value), or a fiscal period with no fiscal calendar (`fiscal`: the ask names
        fiscal_year_start). These params are missing."""
        self._missing = params
        self._refused = "fiscal" if fiscal else "dimensionless"
        self._ask = self._refusal_ask(language)

    def _refusal_ask(self, language: asks.Language) -> str:
        if self._refused == "fiscal":
            return asks.fiscal_ask(language, self._unread)
        return asks.no_time_dimension_ask(language, self._unread)

    def ask_in(self, language: asks.Language) -> None:
        """An ask written in another language than the caller's is written again in theirs."""
        if self._missing and self._ask and asks.language_of(self._ask) != language:
            if self._refused is not None:
                self._ask = self._refusal_ask(language)
            else:
                self._ask = asks.ask_for(self._missing, language, self._unread)

    def begin_llm(self) -> None:
        """The LLM stage starts: a fresh trace of its calls."""
        self._llm = LLMTrace()

    def count_llm_call(self, completion: Completion, messages: Sequence[Message]) -> None:
        """One LLM call came back (its messages, its answer and what it cost)."""
        if self._llm is None:
            self._llm = LLMTrace()
        self._llm.account(completion, messages)

    def count_repair_round(self, rounds: int) -> None:
        """The LLM is asked again, the `rounds`-th time, with the violations."""
        if self._llm is not None:
            self._llm.repair_rounds = rounds

    def fail(self, error: LLMError) -> None:
        """The LLM stage could not settle this property."""
        self._failure = error

    def ordered_values(self) -> dict[str, Any]:
        """The settled values in the property's declared order."""
        return {n: self._values[n] for n in self.spec.input_names() if n in self._values}

    def debug(self) -> dict[str, Any]:
        """The per-property debug block."""
        return {
            "type": self.spec.kind,
            "source": {n: self._sources[n] for n in self.spec.input_names() if n in self._sources},
            "time_expr": self._time_expr,
            "llm": None if self._llm is None else self._llm.debug(),
        }
