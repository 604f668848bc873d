"""The differential tier of the time scanner (docs/time-differential.md).

Every gold text and ~11,000 generated ones go through the scanner (`resolver.timeexpr`) and
an independent recognizer from PyPI (dateparser's `search_dates`, the `peers` extra). Where
the scanner settles a window (the service answers 200), every date the peer reports must lie
inside what the scanner understood (SPEC §4.2: a 200 never ignores a time-like token).

- `texts`: the gold files' queries and free-text contexts, with their clocks;
- `generate`: BI questions with inserted time material, and questions with no time at all;
- `peer`: dateparser, loaded lazily;
- `check`: coverage of a peer mention by the scanner's spans, and the filters for the peer's
  known over-reach;
- `allowlist`: reviewed peer false positives, one reason each;
- `run`, `report`: the run and its report (`python -m benchmarks.differential`).

May import: `resolver.timeexpr` (read-only use), `benchmarks.results_dir`.
"""
