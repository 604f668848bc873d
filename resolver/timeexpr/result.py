"""The scanner's answer: which metric time parameters a query settles."""

from __future__ import annotations

from typing import Literal, NamedTuple

Step = Literal["day", "week", "month", "quarter", "year"]

# Finest first: the order ranges use to pick the finer of two units.
STEPS: tuple[Step, ...] = ("day", "week", "month", "quarter", "year")


class TimeResolution(NamedTuple):
    """Settled metric parameters (None = left open) and what in the query settled them.

    A tuple: built once per call on the hot path, cheaper than a frozen dataclass."""

    instant: bool | None
    start: int | None
    end: int | None
    step: Step | None
    expr: str | None
    matched: str | None

    def params(self) -> dict[str, bool | int | str]:
        """Return only the settled keys, in the order instant, start, end, step."""
        out: dict[str, bool | int | str] = {}
        if self.instant is not None:
            out["instant"] = self.instant
        if self.start is not None:
            out["start"] = self.start
        if self.end is not None:
            out["end"] = self.end
        if self.step is not None:
            out["step"] = self.step
        return out
