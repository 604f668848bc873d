"""Gold windows converted from a corpus nobody on this project wrote: Duckling's time corpora.

`python -m benchmarks.corpus --duckling DIR` reads `Duckling/Time/EN/Corpus.hs`,
`Duckling/Time/ZH/Corpus.hs` and `Duckling/Testing/Types.hs` from a facebook/duckling git
directory (or checkout), reads every phrase the way resolver's SPEC does (the hand-written
tables `en_table.py` and `zh_table.py`), and writes `benchmarks/data/duckling_en.jsonl` and
`duckling_zh.jsonl`. See `benchmarks/data/README_duckling.md`.

- `haskell`: the corpus files' example blocks, as data (no Duckling code is used).
- `readings`: a reading (`day 2013-02-11`, `roll -2 day`, …) → the expected window at a clock.
- `en_table`, `zh_table`: every phrase's family, reading, basis and note.
- `duckling`: the rows.

`python -m benchmarks.corpus recognizers --repo DIR` does the same for Microsoft
Recognizers-Text's DateTime specs (`benchmarks/data/README_recognizers.md`):

- `rt_source`: the spec JSON as cases (input, reference time, the peer's results).
- `rt_classify` (entry), `rt_rules` (dates), `rt_periods` (periods), `rt_calendar` (the bare
  rules): the SPEC's reading of each case; `rt_overrides`: hand-read exceptions, one per case.
- `recognizers`: the rows, the peer's window beside the SPEC's, and the command.
"""
