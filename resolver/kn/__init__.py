"""The Go-compatible pipeline (SPEC §2.2): its request and response models, the four steps
(`pipeline.py`), choosing the requested definitions (`definitions.py`) and the operator-schema
cache (`operator_schemas.py`). The parameters themselves are the `params` package's business.

May import: `resolver.params`, `resolver.llm`, `resolver.upstreams`, `resolver.toolschema`,
`resolver.core`, `rules`.
"""
