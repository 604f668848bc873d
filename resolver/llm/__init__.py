"""Everything that talks to, or reads from, the OpenAI-compatible LLM: the client
(`client.py`: cache and single-flight; `fallback.py`: which endpoint; `retrying.py`: transport
retries within the deadline; `endpoint.py`: one attempt, shaped by the SDK, its failures
translated; `completion.py`: the answer), the process-wide limiter, the readiness probe, the
prompts and the reading of the model's answers. `runtime.open_llm` opens them.

May import: `resolver.core`, `rules` (the answer reader cites the validators).
"""
