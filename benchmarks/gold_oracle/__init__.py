"""An independent oracle for the v2 gold sets, written from SPEC §3/§4/§4.1/§5 alone.

It never imports `resolver`. Each case names its family, the period(s) it means, its clock
(now and IANA timezone) and any caller override; the expected parameters are computed here with
`datetime`/`zoneinfo`, and `borax` for the lunar festivals. `python -m benchmarks.gold_oracle`
rewrites `benchmarks/data/time_gold_v2.jsonl` and `benchmarks/data/context_gold.jsonl`
deterministically (`--check` compares instead and exits 1 on a difference).

- `periods`: the clock, calendar periods and the periods a phrase means relative to now.
- `answers`: what a phrase settles (a window, an instant, nothing) as a function of the clock.
- `time_cases`: the table behind time_gold_v2.jsonl, family by family.
- `context_cases`: the agent-retry cases behind context_gold.jsonl.
"""
