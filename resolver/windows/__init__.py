"""Time windows as a service (SPEC §9): what a text means in time, at a clock, in a zone —
`POST /v1/time-window`, the MCP tool `resolve_time_window` and `resolver time` — answered by the
scanner's one entry point, `timeexpr.read_window`, with no LLM ever.

`models.py` holds the request (the body, the tool's arguments, the command's flags) and the
answer; `service.py` `TimeWindows`, which reads one request into one answer or one
`TIME_UNSETTLED` error; `asks.py` the sentence telling a caller what to send instead;
`command.py` the `resolver time` command (flags → request → a line, the body or JSON lines).

May import: `resolver.core`, `resolver.timeexpr`, `rules` (the 2000..2100 bounds).
"""
