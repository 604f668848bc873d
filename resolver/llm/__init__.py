"""Everything that talks to, or reads from, the OpenAI-compatible LLM: the client (transport
retries, deadlines, the SDK's errors translated), the process-wide limiter, the readiness
probe, the prompts and the reading of the model's answers. `runtime.open_llm` opens them.

May import: `resolver.core`.
"""
