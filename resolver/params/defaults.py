"""Stage 4 of a property (SPEC §1): an input nothing else settled takes its operator schema's
`default`, when the schema has one and it passes the rules."""

from __future__ import annotations

import copy

from resolver.params.asks import Language
from resolver.params.property import PropertyState
from rules import registry


def settle_defaults(state: PropertyState) -> list[str]:
    """Settle each open input that has a valid schema default; the names settled."""
    settled: list[str] = []
    for name in state.open_params():
        spec = state.spec.get(name)
        if spec is None or spec.schema is None or "default" not in spec.schema:
            continue
        value = copy.deepcopy(spec.schema["default"])
        if registry.validate(state.spec, {**state.values, name: value}):
            continue  # a default that breaks the schema or a rule is not used
        state.settle(name, value, "default")
        settled.append(name)
    return settled


def settle_defaults_after_llm(state: PropertyState, language: Language) -> None:
    """After the LLM stage: defaults for what it left missing, and the missing list redone."""
    if state.failure is not None or not state.missing:
        return
    if not settle_defaults(state):
        return
    if state.open_params():
        state.report_missing(language)
    else:
        state.missing = []
        state.ask = None
