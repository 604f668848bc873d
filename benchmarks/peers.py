"""Other time parsers scored on the gold set (`python -m benchmarks accuracy --peers`).

Install them apart from the project's dev venv (`pip install .[peers]`); recognizers-text
1.0.2a2 also needs `emoji<2`. Peers have no notion of `instant` or `step` and cannot see the
context overrides, so they are scored on what they can express, with these metrics:

- window@day: on every gold case whose expected answer is a window, the peer's first parsed
  window has the expected start date and end date (local, request timezone). Fair to parsers
  that answer in dates only.
- window@second: the same, to the second: start and end as local wall times equal the
  expected ones with milliseconds dropped. A date-only answer reads as 00:00:00 on its first
  day to 23:59:59 on its last; an exclusive end (recognizers' `end` of a daterange) is first
  turned into an inclusive one, and one that falls on the reference day means "up to now".
- instant: on cases expecting `{"instant": true}` with no context overrides, the peer's window
  contains now (to the second), i.e. it read the instant word as now or today.
- quiet: on cases with no time cue, the peer returns nothing.

Each metric is reported per language; a peer that does not handle a language gets "n/a"
there. Speed is the median and p99 wall time of one call of the parser itself (its answer is
read into local datetimes outside the clock, for every parser alike) over the cases of
the languages it handles, over 3 rounds (each a warm pass per parser after one warm-up call,
the order of the parsers turning every round, so that load on a shared machine falls on all
alike), imports excluded. Our scanner is timed on Chinese and English cases, the Chinese-only
parsers on Chinese ones. `python -m benchmarks timespeed` times the scanner alone, overrides
included.
"""

from __future__ import annotations

import contextlib
import io
import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from benchmarks.gold import Case
from resolver.timeexpr import resolve_time
from resolver.timeexpr.calendar import wall_clock

# A parsed window as local wall times, inclusive at both ends.
LocalWindow = tuple[datetime, datetime]
_SECOND = timedelta(seconds=1)
_LAST_SECOND = timedelta(hours=23, minutes=59, seconds=59)


@dataclass(frozen=True)
class Peer:
    """A parser under test: its name, languages, its own call, and the reading of its answer.

    Only `call` is timed; `read` turns the raw answer into a local window outside the clock.
    """

    name: str
    langs: tuple[str, ...]
    call: Callable[[Case, datetime], Any]  # (case, local now) -> the parser's raw answer
    read: Callable[[Any, Case, datetime], LocalWindow | None]

    def parse(self, case: Case, now: datetime) -> LocalWindow | None:
        """Call the parser and read its answer."""
        return self.read(self.call(case, now), case, now)


def _day(text: str) -> datetime:
    return datetime.strptime(text[:10], "%Y-%m-%d")


def _moment(text: str) -> datetime:
    return datetime.strptime(text[:19], "%Y-%m-%d %H:%M:%S")


def _jionlp() -> Peer:
    with contextlib.redirect_stdout(io.StringIO()):  # it prints a banner on import
        import jionlp

    def call(case: Case, now: datetime) -> Any:
        base = {
            "year": now.year,
            "month": now.month,
            "day": now.day,
            "hour": now.hour,
            "minute": now.minute,
            "second": now.second,
        }
        try:
            return jionlp.ner.extract_time(case.query, time_base=base, with_parsing=True)
        except Exception:  # noqa: BLE001 - a peer's failure is a miss, not our crash
            return None

    def read(entities: Any, case: Case, now: datetime) -> LocalWindow | None:
        for entity in entities or ():
            span = entity.get("detail", {}).get("time")
            if isinstance(span, list) and len(span) == 2:
                try:
                    return _moment(span[0]), _moment(span[1])
                except ValueError:  # "inf" and other open ends
                    return None
        return None

    return Peer("jionlp 1.5.20", ("zh",), call, read)


def _time_parser_zh() -> Peer:
    import time_parser_zh

    def call(case: Case, now: datetime) -> Any:
        try:
            return time_parser_zh.parse_time_expression(case.query, now)
        except Exception:  # noqa: BLE001
            return None

    def read(found: Any, case: Case, now: datetime) -> LocalWindow | None:
        if not found:
            return None
        return _day(found[0]), _day(found[1]) + _LAST_SECOND

    return Peer("time-parser-zh", ("zh",), call, read)


def _recognizers() -> Peer:
    from recognizers_date_time import recognize_datetime
    from recognizers_text import Culture

    cultures = {"zh": Culture.Chinese, "en": Culture.English}

    def call(case: Case, now: datetime) -> Any:
        try:
            return recognize_datetime(case.query, cultures[case.lang], reference=now)
        except Exception:  # noqa: BLE001
            return None

    def read(results: Any, case: Case, now: datetime) -> LocalWindow | None:
        for result in results or ():
            values = (result.resolution or {}).get("values") or []
            if values:
                return _recognizers_window(values[0], now)
        return None

    return Peer("recognizers-text-suite", ("zh", "en"), call, read)


def _recognizers_window(value: dict[str, Any], now: datetime) -> LocalWindow | None:
    """Read one resolution value as an inclusive local window (None: not a window)."""
    kind = value.get("type")
    try:
        if kind == "date":
            day = _day(value["value"])
            return day, day + _LAST_SECOND
        if kind == "datetime":
            moment = _moment(value["value"])
            return moment, moment
        if kind == "daterange" and "end" in value:
            end = _day(value["end"])
            # An exclusive end on the reference day ("last 3 months") means up to now.
            return _day(value["start"]), now if end == _day(now.isoformat()) else end - _SECOND
        if kind == "daterange" and value.get("Mod") == "since":  # open end: up to now
            return _day(value["start"]), now
        if kind == "datetimerange":
            return _moment(value["start"]), _moment(value.get("end", now.isoformat(" ")))
    except (KeyError, ValueError, OverflowError):  # unparseable or absurd dates: no window
        pass
    return None


def _expected_window(case: Case) -> LocalWindow | None:
    expected = case.expected
    if not expected or "start" not in expected:
        return None
    start = wall_clock(expected["start"], case.tz).replace(microsecond=0)
    return start, wall_clock(expected["end"], case.tz).replace(microsecond=0)


class _Tally:
    """One parser's answers so far: metric counts per language and call timings."""

    def __init__(self, peer: Peer, import_s: float) -> None:
        self.peer = peer
        self.import_s = import_s
        self.counts: dict[str, dict[str, list[int]]] = {}
        self.categories: dict[str, list[int]] = {}  # one verdict per case, by gold category
        self.timings: list[float] = []

    def run(self, case: Case, now: datetime, *, score: bool) -> None:
        """Time one adapter call on the case and, if `score`, score its answer."""
        began = time.perf_counter()
        raw = self.peer.call(case, now)
        self.timings.append(time.perf_counter() - began)
        if not score:
            return
        got = self.peer.read(raw, case, now)
        lang = self.counts.setdefault(case.lang, {})
        expected = _expected_window(case)
        if expected is not None:
            day_ok = got is not None and all(
                g.date() == e.date() for g, e in zip(got, expected, strict=True)
            )
            _tally(lang, "window@day", day_ok)
            _tally(lang, "window@second", got == expected)
            _tally(self.categories, case.category, day_ok)
        elif case.expected == {"instant": True} and case.instant is None and case.step is None:
            instant_ok = got is not None and got[0] <= now <= got[1]
            _tally(lang, "instant", instant_ok)
            _tally(self.categories, case.category, instant_ok)
        elif case.expected is None:
            _tally(lang, "quiet", got is None)
            _tally(self.categories, case.category, got is None)

    def report(self) -> dict[str, Any]:
        """Return the figures of this parser."""
        timings = sorted(self.timings)
        return {
            "langs": list(self.peer.langs),
            "metrics": {
                lang: {name: {"correct": ok, "total": n} for name, (ok, n) in metrics.items()}
                for lang, metrics in self.counts.items()
            },
            "median_us": statistics.median(timings) * 1e6,
            "p99_us": timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1e6,
            "calls": len(timings),
            "import_s": self.import_s,
            "per_category": {
                category: {"correct": ok, "total": n}
                for category, (ok, n) in sorted(self.categories.items())
            },
        }


def _tally(metrics: dict[str, list[int]], name: str, ok: bool) -> None:
    entry = metrics.setdefault(name, [0, 0])
    entry[0] += ok
    entry[1] += 1


def _scanner() -> Peer:
    """Our scanner, no overrides (peers cannot see them), through the same metrics."""

    def call(case: Case, now: datetime) -> Any:
        return resolve_time(case.query, now_ms=case.now_ms, tz=case.tz)

    def read(result: Any, case: Case, now: datetime) -> LocalWindow | None:
        if result is None or result.instant is None:
            return None
        if result.instant:
            return now, now
        if result.start is None or result.end is None:
            return None
        start = wall_clock(result.start, case.tz).replace(microsecond=0)
        return start, wall_clock(result.end, case.tz).replace(microsecond=0)

    return Peer("resolver.timeexpr", ("zh", "en"), call, read)


PEERS: tuple[Callable[[], Peer], ...] = (_scanner, _jionlp, _time_parser_zh, _recognizers)


def score_peers(cases: list[Case], rounds: int = 3) -> dict[str, Any]:
    """Score every importable peer and time it in rounds; print a table, return the figures."""
    tallies: list[_Tally] = []
    for factory in PEERS:
        try:
            began = time.perf_counter()
            peer = factory()
        except ImportError as exc:
            print(f"peer {factory.__name__.strip('_')}: not importable ({exc}); skipped")
            continue
        tallies.append(_Tally(peer, time.perf_counter() - began))
    nows = [wall_clock(case.now_ms, case.tz).replace(microsecond=0) for case in cases]
    logging.disable(logging.CRITICAL)  # jionlp logs a traceback for every miss
    try:
        # Each parser runs a whole pass while warm; the order turns every round, so load on a
        # shared machine falls on all of them alike. Answers are scored in the first round.
        for round_no in range(rounds):
            for tally in tallies[round_no % len(tallies) :] + tallies[: round_no % len(tallies)]:
                print(f"round {round_no + 1}: {tally.peer.name} ...", flush=True)
                own = [
                    (c, n) for c, n in zip(cases, nows, strict=True) if c.lang in tally.peer.langs
                ]
                tally.peer.parse(*own[0])  # warm-up
                for case, now in own:
                    tally.run(case, now, score=round_no == 0)
    finally:
        logging.disable(logging.NOTSET)
    report = {tally.peer.name: tally.report() | {"rounds": rounds} for tally in tallies}
    _print(report)
    return report


_COLUMNS = (
    ("window@day", "zh"),
    ("window@day", "en"),
    ("window@second", "zh"),
    ("window@second", "en"),
    ("instant", "zh"),
    ("instant", "en"),
    ("quiet", "zh"),
    ("quiet", "en"),
)


def _cell(metrics: dict[str, Any], metric: str, lang: str) -> str:
    entry = metrics.get(lang, {}).get(metric)
    if entry is None:
        return "n/a"
    return f"{entry['correct']}/{entry['total']} ({entry['correct'] / entry['total']:.0%})"


def _print(report: dict[str, Any]) -> None:
    print(f"{'parser':<24}" + "".join(f" {m + ' ' + lang:>17}" for m, lang in _COLUMNS), end="")
    print(f" {'median µs':>10} {'p99 µs':>9}")
    for name, figures in report.items():
        cells = "".join(f" {_cell(figures['metrics'], m, lang):>17}" for m, lang in _COLUMNS)
        print(f"{name:<24}{cells} {figures['median_us']:>10.0f} {figures['p99_us']:>9.0f}")
    # Per gold category: a window case is right at day precision, a guard case when the
    # parser is quiet, an instant case when its window holds now (cases of its languages).
    names = list(report)
    categories = sorted({c for figures in report.values() for c in figures["per_category"]})
    print()
    print(f"{'category':<22}" + "".join(f" {name[:16]:>16}" for name in names))
    for category in categories:
        row: list[str] = []
        for name in names:
            entry = report[name]["per_category"].get(category)
            cell = "n/a" if entry is None else f"{entry['correct']}/{entry['total']}"
            row.append(f" {cell:>16}")
        print(f"{category:<22}" + "".join(row))
