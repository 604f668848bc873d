"""Read the example blocks out of a Duckling time corpus (`Duckling/Time/XX/Corpus.hs`).

Only the data is taken: for every `examples (<value>) [ "phrase", … ]` block, the value
constructor (`datetime`, `datetimeInterval`, `datetimeHoliday`, `datetimeIntervalHoliday`,
`datetimeOpenInterval`), its date-time tuples, grain and holiday name, and the phrases; and the
plain phrase list of a `negativeCorpus`. Each block is tagged with the corpus it belongs to
(`allExamples`, `defaultCorpus`, `latentCorpus`, `diffCorpus`, `negativeCorpus`) and that
corpus's reference time (`testContext`, or `diffContext` for the diff corpus).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A Duckling `Datetime`: (year, month, day, hour, minute, second), as written in the corpus.
Tuple6 = tuple[int, int, int, int, int, int]

SECTIONS = ("allExamples", "defaultCorpus", "latentCorpus", "diffCorpus", "negativeCorpus")
_SECTION_START = re.compile(r"^(" + "|".join(SECTIONS) + r")\s*::", re.MULTILINE)
_TUPLE = r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*\)"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_BLOCK = re.compile(
    r"examples\s*\(\s*(?P<kind>datetimeIntervalHoliday|datetimeInterval|datetimeHoliday"
    r"|datetimeOpenInterval|datetime)\b(?P<args>.*?)\)\s*\[(?P<body>.*?)\]",
    re.DOTALL,
)
_REF_TIME = re.compile(
    r"^(testContext|diffContext)\s*=.*?refTime\s*" + _TUPLE + r"\s*\(\s*(-?\d+)\s*\)",
    re.DOTALL | re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class Block:
    """One `examples (...) [...]` block (or the negative corpus, kind `negative`)."""

    section: str
    kind: str
    start: Tuple6 | None
    end: Tuple6 | None
    grain: str | None
    holiday: str | None
    direction: str | None
    phrases: tuple[str, ...]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _tuples(text: str) -> list[Tuple6]:
    found = re.findall(_TUPLE, text)
    return [(int(a), int(b), int(c), int(d), int(e), int(f)) for a, b, c, d, e, f in found]


def _strip_comments(source: str) -> str:
    """Drop `--` line comments outside string literals."""
    out = []
    for line in source.splitlines():
        cut = len(line)
        in_string = False
        i = 0
        while i < len(line):
            ch = line[i]
            if ch == "\\" and in_string:
                i += 2
                continue
            if ch == '"':
                in_string = not in_string
            elif not in_string and line.startswith("--", i):
                cut = i
                break
            i += 1
        out.append(line[:cut])
    return "\n".join(out)


def _sections(source: str) -> dict[str, str]:
    marks = [(m.start(), m.group(1)) for m in _SECTION_START.finditer(source)]
    parts: dict[str, str] = {}
    for i, (pos, name) in enumerate(marks):
        stop = marks[i + 1][0] if i + 1 < len(marks) else len(source)
        parts[name] = source[pos:stop]
    return parts


def reference_times(source: str) -> dict[str, tuple[Tuple6, int]]:
    """`testContext`/`diffContext` → (wall-clock tuple, UTC offset in hours) when defined."""
    found: dict[str, tuple[Tuple6, int]] = {}
    for m in _REF_TIME.finditer(_strip_comments(source)):
        values = tuple(int(v) for v in m.groups()[1:7])
        found[m.group(1)] = (values, int(m.group(8)))  # type: ignore[assignment]
    return found


def parse(source: str) -> list[Block]:
    """Every block of the corpus, in file order within each section."""
    text = _strip_comments(source)
    blocks: list[Block] = []
    for section, part in _sections(text).items():
        if section == "negativeCorpus":
            body = part.split("[", 1)[1].split("]", 1)[0]
            phrases = tuple(_unescape(s) for s in _STRING.findall(body))
            blocks.append(Block(section, "negative", None, None, None, None, None, phrases))
            continue
        for m in _BLOCK.finditer(part):
            kind, args = m.group("kind"), m.group("args")
            tuples = _tuples(args)
            names = _STRING.findall(args)
            words = re.findall(r"\b(Second|Minute|Hour|Day|Week|Month|Quarter|Year)\b", args)
            direction = re.search(r"\b(Before|After)\b", args)
            phrases = tuple(_unescape(s) for s in _STRING.findall(m.group("body")))
            blocks.append(
                Block(
                    section=section,
                    kind=kind,
                    start=tuples[0],
                    end=tuples[1] if len(tuples) > 1 else None,
                    grain=words[-1] if words else None,
                    holiday=_unescape(names[0]) if names else None,
                    direction=direction.group(1) if direction else None,
                    phrases=phrases,
                )
            )
    return blocks
