"""An independent oracle for the v2–v4 gold sets, written from SPEC §3/§4/§4.1/§4.2/§4.3/§5 alone.

It never imports `resolver`. Each case names its family, the period(s) it means, its clock
(now and IANA timezone) and any caller override; the expected parameters are computed here with
`datetime`/`zoneinfo`, and `borax` for the lunar festivals and 清明.
`python -m benchmarks.gold_oracle` rewrites `benchmarks/data/time_gold_v2.jsonl`,
`context_gold.jsonl`, `time_gold_v3.jsonl`, `context_gold_v3.jsonl` and `time_gold_v4.jsonl`
deterministically
(`--check` compares instead and exits 1 on a difference).

- `periods`: the clock, calendar periods and the periods a phrase means relative to now.
- `answers`: what a phrase settles (a window, an instant, nothing) as a function of the clock.
- `time_cases`: the table behind time_gold_v2.jsonl, family by family.
- `context_cases`: the agent-retry cases behind context_gold.jsonl.
- `time_cases_v3`: the §4.2 cases behind time_gold_v3.jsonl.
- `context_cases_v3`: the clock/zone-sentence cases behind context_gold_v3.jsonl.
- `time_cases_v4`: the §4.3 cases behind time_gold_v4.jsonl.
"""
