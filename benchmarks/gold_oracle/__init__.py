"""An independent oracle for the v2, v3 and business gold sets, written from SPEC §3/§4/§4.1/§4.2/
§5/§9.1 alone.

It never imports `resolver`. Each case names its family, the period(s) it means, its clock
(now and IANA timezone) and any caller override; the expected parameters are computed here with
`datetime`/`zoneinfo`, and `borax` for the lunar festivals and 清明.
`python -m benchmarks.gold_oracle` rewrites `benchmarks/data/time_gold_v2.jsonl`,
`context_gold.jsonl`, `time_gold_v3.jsonl`, `context_gold_v3.jsonl`, `business_gold.jsonl` and
`business_metric_path.jsonl` deterministically (`--check` compares instead and exits 1 on a
difference).

- `periods`: the clock, calendar periods and the periods a phrase means relative to now.
- `holidays_cn`: the State Council's official holiday runs and the fixed rule (§4.1, revised).
- `answers`: what a phrase settles (a window, an instant, nothing) as a function of the clock.
- `time_cases`: the table behind time_gold_v2.jsonl, family by family.
- `context_cases`: the agent-retry cases behind context_gold.jsonl.
- `time_cases_v3`: the §4.2 cases behind time_gold_v3.jsonl.
- `context_cases_v3`: the clock/zone-sentence cases behind context_gold_v3.jsonl.
- `business`: fiscal periods and comparison baselines (§9.1).
- `business_cases`: the cases behind business_gold.jsonl and business_metric_path.jsonl.
"""
