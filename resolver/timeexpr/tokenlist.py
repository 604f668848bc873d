"""A text's tokens as parallel arrays (`Tokens`), and one token as a view (`Token`)."""

from __future__ import annotations

from typing import NamedTuple


class Token(NamedTuple):
    """One token (a view made on demand): class code, value, span in the normalised text."""

    code: str
    value: object
    start: int
    end: int


class Tokens:
    """The tokens of one text: `codes` (one character per token), and per token its value,
    start and end. `cut` is True when the text held more time words than `tokenize` reads."""

    __slots__ = ("codes", "cut", "ends", "starts", "values")

    def __init__(
        self,
        codes: str,
        values: list[object],
        starts: list[int],
        ends: list[int],
        *,
        cut: bool = False,
    ):
        self.codes = codes
        self.values = values
        self.starts = starts
        self.ends = ends
        self.cut = cut

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: int) -> Token:
        return Token(self.codes[index], self.values[index], self.starts[index], self.ends[index])
