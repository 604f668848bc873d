"""Prompt templates (files under `prompts/`, shipped in the wheel) and the messages from them."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from resolver.core.jsonio import dumps
from rules.violation import Violation

PROMPT_FILES = ("common.md", "metric.md", "operator.md", "repair.md")


@functools.cache
def default_prompts_dir() -> Path:
    """`resolver/_prompts` inside an installed wheel, else `prompts/` of the source tree.

    Found once per process (where the package is installed does not change while it runs):
    `/healthz` asks on every probe, and the look-up (importlib.resources, a realpath, a stat)
    was ~70 µs of a ~170 µs probe."""
    packaged = Path(str(resources.files("resolver"))) / "_prompts"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "prompts"


@dataclass(frozen=True, slots=True)
class Prompts:
    """The loaded templates and where they came from."""

    metric: str
    operator: str
    repair: Template
    directory: Path

    def system(self, kind: str) -> str:
        """The system prompt for a property kind: `common.md` first — the same bytes for every
        property, so that a provider's prompt cache serves them across properties and
        requests — then the kind's own rules."""
        return self.metric if kind == "metric" else self.operator


def load_prompts(directory: Path | None = None) -> Prompts:
    """Read every template; a missing file is an error at start-up, not at the first request."""
    base = directory or default_prompts_dir()
    texts = {name: (base / name).read_text(encoding="utf-8") for name in PROMPT_FILES}
    common = texts["common.md"]
    return Prompts(
        metric=common + texts["metric.md"],
        operator=common + texts["operator.md"],
        repair=Template(texts["repair.md"]),
        directory=base,
    )


def user_message(payload: dict[str, Any]) -> str:
    """The user message: the task as compact JSON (non-ASCII kept readable)."""
    return dumps(payload).decode()


def repair_message(
    prompts: Prompts, name: str, generate: list[str], violations: list[Violation]
) -> str:
    """The re-ask that carries the violations of the previous answer."""
    return prompts.repair.substitute(
        violations="\n".join(f"- {v}" for v in violations),
        name=name,
        generate=", ".join(generate),
    )
