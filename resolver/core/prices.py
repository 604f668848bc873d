"""What an LLM call costs: `RESOLVER_LLM_PRICES` (JSON, model → `{"input", "cached_input",
"output"}` per million tokens, in whatever currency the operator bills in) applied to the usage
a provider reported, its cached prompt tokens at the cached price (SPEC §6)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

PER = 1_000_000
_FIELDS = ("input", "cached_input", "output")


@dataclass(frozen=True, slots=True)
class Price:
    """One model's prices per million tokens."""

    input: float
    cached_input: float
    output: float

    def cost(self, usage: Mapping[str, int]) -> float:
        """The cost of one call's usage: uncached prompt, cached prompt and completion tokens."""
        prompt = usage.get("prompt_tokens", 0)
        cached = min(usage.get("cached_tokens", 0), prompt)
        completion = usage.get("completion_tokens", 0)
        total = (
            (prompt - cached) * self.input + cached * self.cached_input + completion * self.output
        )
        return total / PER


def parse_prices(raw: str) -> dict[str, Price]:
    """The price table of `RESOLVER_LLM_PRICES`; `ValueError` naming what is wrong.

    Each model needs `input` and `output`; `cached_input` defaults to `input` (a provider
    without a prompt cache bills every prompt token alike). Prices are finite and ≥ 0.
    """
    if not raw.strip():
        return {}
    try:
        loaded: Any = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"must be a JSON object: {exc}") from None
    if not isinstance(loaded, dict):
        raise ValueError(  # noqa: TRY004 - a settings validator reports ValueError
            'must be a JSON object: {"<model>": {"input", "cached_input", "output"}}'
        )
    prices: dict[str, Price] = {}
    for model, entry in loaded.items():
        if not model or not isinstance(entry, dict):
            raise ValueError(f"{model!r}: must map a model name to an object of prices")
        unknown = sorted(set(entry) - set(_FIELDS))
        if unknown:
            raise ValueError(f"{model!r}: unknown keys {unknown} (known: {', '.join(_FIELDS)})")
        values: dict[str, float] = {}
        for name in _FIELDS:
            value = entry.get(name, entry.get("input") if name == "cached_input" else None)
            if value is None:
                raise ValueError(f"{model!r}: {name} is required (per million tokens)")
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{model!r}: {name} must be a number")  # noqa: TRY004
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{model!r}: {name} must be a finite number ≥ 0")
            values[name] = float(value)
        prices[model] = Price(**values)
    return prices


def call_cost(
    prices: Mapping[str, Price], usage: Mapping[str, int] | None, *models: str | None
) -> float | None:
    """The cost of one call, by the first of `models` that has a price (the model asked for,
    then the one the provider named); None when none has, or the provider reported no usage."""
    if usage is None:
        return None
    for model in models:
        if model is not None and model in prices:
            return prices[model].cost(usage)
    return None
