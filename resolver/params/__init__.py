"""The dynamic-params resolution (SPEC §1–§5): the request and response models, the request's
frame, one `PropertyState` per property (changed only through its own methods; its LLM
calls traced in `trace.py`) taken through its stages — in code (`code_stage`:
caller values, `additional_context`, time expressions), then by the LLM (`llm_stage`) — the
fan-out, the asks of a 422, and `ParamsService`, which runs it all for one request.

May import: `resolver.llm`, `resolver.timeexpr`, `resolver.toolschema`, `resolver.core`, `rules`.
"""
