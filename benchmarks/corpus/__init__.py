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
"""
