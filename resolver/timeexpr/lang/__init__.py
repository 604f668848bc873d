"""The reader's knowledge as checked data (STYLE 24, issue 28): words and phrases per language.

Two kinds of table, both refusing what would make a reading ambiguous:

- `Words` — word → (class, value). `add(cls, words, value)` registers words; a word given a
  second, different class is an error at import (`分` cannot be both the clock minute and the
  step prefix). The tokenizer's word lists are these tables (`lexicon.ZH`, `lexicon.EN`,
  `lexicon.EN_PHRASES`).
- `Phrases` — each phrase is declared once: `add(name, pattern, builder, *examples)`. The
  pattern is written over token classes (`"(?P<y>Y4) SPACE (?P<m>DD) SPACE (?P<d>DD)"`, see
  `grammar.compile_phrase`: class names, `_` an optional space, macros such as `CNT`, lower-case
  group names that the builder reads through `Found`); the builder turns a match into an `Atom`
  (or None to refuse it; raising `Impossible` makes the whole text settle nothing); each
  example is `(text, expression)` — the text read alone at the tests' clock
  (2025-11-13 09:12:22.241 Asia/Shanghai) settles to that canonical expression, and this phrase
  is the one that reads its first token (tests/timeexpr/test_tables.py checks every one).

Declaring a phrase family (what issue 31's fiscal and comparison phrases do)::

    # resolver/timeexpr/lang/en.py
    EN.add(
        "en_fiscal_year",                       # a unique name
        "FISCAL _ (?P<y>Y4)",                   # over token classes
        fiscal_year,                            # Found -> Atom | None
        ("fy 2024", "2024-04..2025-03"),        # its own examples: text, expression
    )

Order matters only between phrases that can start on the same class: the first declared wins
(longer forms first). The scanner takes `zh.ZH`, then `common.COMMON`, then `en.EN`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

Entry = tuple[str, object]  # (class name, value)


class Words(dict[str, Entry]):
    """A word table: word → (class name, value). A word is given one class only."""

    def add(self, cls: str, words: str | Iterable[str], value: object = None) -> None:
        """Register words (a space-separated string: `_` stands for a space inside a word)."""
        items = words.split() if isinstance(words, str) else words
        for word in items:
            self[word.replace("_", " ") if isinstance(words, str) else word] = (cls, value)

    def named(self, cls: str, words: str) -> None:
        """Register words whose value is the word itself (the builder reads which it was)."""
        for word in words.split():
            self[word] = (cls, word)

    def __setitem__(self, word: str, entry: Entry) -> None:
        known = self.get(word)
        if known is not None and known[0] != entry[0]:
            raise ValueError(f"{word!r} is {known[0]} already, not {entry[0]}")
        super().__setitem__(word, entry)

    def __ior__(self, other: Any) -> Words:  # type: ignore[override,misc]
        for word, entry in dict(other).items():
            self[word] = entry
        return self


class Phrase(NamedTuple):
    """One phrase: its unique name, its pattern over token classes, its builder, and its own
    examples `(text, expression)`."""

    name: str
    pattern: str
    builder: Callable[[Any], Any]
    examples: tuple[tuple[str, str], ...] = ()


class Phrases:
    """An ordered table of phrases; a name is declared once."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._items: list[Phrase] = []
        self._names: set[str] = set()

    def add(
        self, name: str, pattern: str, builder: Callable[[Any], Any], *examples: tuple[str, str]
    ) -> None:
        """Declare a phrase (see the module docstring)."""
        if name in self._names:
            raise ValueError(f"phrase {name!r} is declared twice")
        self._names.add(name)
        self._items.append(Phrase(name, pattern, builder, tuple(examples)))

    def __iter__(self) -> Iterator[Phrase]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
