"""Run the differential: every text through the scanner and the peer, violations collected."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from benchmarks.differential.allowlist import ALLOWED, reason_for
from benchmarks.differential.check import Coverage, coverage, locate
from benchmarks.differential.generate import ROUNDS, mixed, plain
from benchmarks.differential.peer import Peer, version
from benchmarks.differential.texts import Text, corpus
from resolver.timeexpr import Reading, TimeResolution, read, resolve_time

SETS = ("corpus", "mixed", "plain")


@dataclass(frozen=True)
class Violation:
    """A text the scanner settles while time-like words of it lie outside what it understood."""

    source: str
    text: str
    mention: str  # the peer's mention (or, for the insert check, the inserted material)
    uncovered: tuple[str, ...]  # its words outside the scanner's spans, no filter excusing them
    read: tuple[str, ...]  # the scanner's understood words
    spans: tuple[tuple[int, int], ...]
    window: str
    allowed: str | None = None  # the allowlist's reason: a reviewed peer false positive

    @property
    def scanner_miss(self) -> bool:
        """Not a reviewed peer false positive: a bug for the scanner's author."""
        return self.allowed is None


@dataclass
class Result:
    """What one run found, counted per set (corpus, mixed, plain)."""

    texts: Counter[str] = field(default_factory=Counter)
    mentions: Counter[str] = field(default_factory=Counter)
    peer_texts: Counter[str] = field(default_factory=Counter)  # texts with >= 1 peer mention
    settled: Counter[str] = field(default_factory=Counter)  # scanner 200s
    excused: Counter[str] = field(default_factory=Counter)  # words excused, per filter
    violations: list[Violation] = field(default_factory=list)
    # Generated texts the scanner settles without reading the material inserted into them:
    # there the generator is the oracle, whether or not the peer saw the insert.
    insert_misses: list[Violation] = field(default_factory=list)
    insert_runs: Counter[str] = field(default_factory=Counter)  # per insert: texts holding it
    insert_seen: Counter[str] = field(default_factory=Counter)  # ... where the peer reported it
    plain_mentions: list[tuple[str, str]] = field(default_factory=list)
    stale_allowlist: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    peer_version: str = ""

    @property
    def misses(self) -> list[Violation]:
        """The peer's violations no reviewed entry explains: scanner misses."""
        return [v for v in self.violations if v.scanner_miss]

    @property
    def false_positives(self) -> list[Violation]:
        """The peer's violations the allowlist explains."""
        return [v for v in self.violations if not v.scanner_miss]


def texts(rounds: int = ROUNDS) -> dict[str, list[Text]]:
    """Every text of the run, per set."""
    return {
        "corpus": corpus(),
        "mixed": [
            Text(f"generated:mixed:{i}", m.text, insert=m.insert, insert_at=m.at)
            for i, m in enumerate(mixed(rounds=rounds))
        ],
        "plain": [Text(f"generated:plain:{i}", t) for i, t in enumerate(plain())],
    }


def settles(resolution: TimeResolution | None) -> bool:
    """Whether the service answers 200 on this: a window or an instant."""
    return resolution is not None and (resolution.start is not None or resolution.instant is True)


def run(sets: dict[str, list[Text]] | None = None, peer: Peer | None = None) -> Result:
    """Run every text through the peer and the scanner; count, and collect the violations."""
    began = time.perf_counter()
    peer = peer or Peer()
    result = Result(peer_version=version())
    for name, items in (texts() if sets is None else sets).items():
        for item in items:
            _one(result, peer, name, item)
    reviewed = {(v.text, v.mention) for v in result.false_positives}
    result.stale_allowlist = [
        (entry.text, entry.mention)
        for entry in ALLOWED
        if (entry.text, entry.mention) not in reviewed
    ]
    result.seconds = time.perf_counter() - began
    return result


def _one(result: Result, peer: Peer, name: str, item: Text) -> None:
    mentions = peer.mentions(item.text, item.now_ms, item.timezone)
    places = locate(item.text, mentions)
    result.texts[name] += 1
    result.mentions[name] += len(mentions)
    result.peer_texts[name] += bool(mentions)
    if name == "plain":
        result.plain_mentions.extend((item.text, mention) for mention in mentions)
    if item.insert:
        result.insert_runs[item.insert] += 1
        end = item.insert_at + len(item.insert)
        seen = any(
            at < end and item.insert_at < at + len(m)
            for m, at in zip(mentions, places, strict=True)
        )
        result.insert_seen[item.insert] += seen
    zone = ZoneInfo(item.timezone)
    resolution = resolve_time(item.text, now_ms=item.now_ms, tz=zone)
    if resolution is None or not settles(resolution):
        return
    result.settled[name] += 1
    reading = read(item.text)
    for mention, at in zip(mentions, places, strict=True):
        found = coverage(item.text, mention, at, reading.spans)
        result.excused.update(reason for _, reason in found.excused)
        if not found.covered:
            allowed = reason_for(item.text, mention)
            result.violations.append(_violation(item, found, reading, resolution, allowed))
    if item.insert:
        known = coverage(item.text, item.insert, item.insert_at, reading.spans)
        if not known.covered:
            result.insert_misses.append(_violation(item, known, reading, resolution))


def _violation(
    item: Text,
    found: Coverage,
    reading: Reading,
    resolution: TimeResolution,
    allowed: str | None = None,
) -> Violation:
    zone = ZoneInfo(item.timezone)
    return Violation(
        item.source, item.text, found.mention, found.uncovered, reading.read, reading.spans,
        window(resolution, zone), allowed,
    )  # fmt: skip


def window(resolution: TimeResolution, zone: ZoneInfo) -> str:
    """The settled window as local wall times, with its expression and step."""
    if resolution.start is None or resolution.end is None:
        return f"instant ({resolution.expr or 'now'})"
    start = datetime.fromtimestamp(resolution.start / 1000, zone)
    end = datetime.fromtimestamp(resolution.end / 1000, zone)
    return (
        f"{resolution.expr}: {start:%Y-%m-%d %H:%M} .. {end:%Y-%m-%d %H:%M:%S}"
        f" {zone.key}, step={resolution.step}"
    )
