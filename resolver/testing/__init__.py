"""Test doubles shipped with the package: a scripted OpenAI-compatible LLM (`fake_llm`) and
fakes of the knowledge-network upstreams (`fake_upstreams`), real HTTP servers on loopback.

The tests and the benchmarks use them alike; each runs stand-alone from a plain install
(`python -m resolver.testing.fake_llm --port 8090`, `python -m resolver.testing.fake_upstreams
--port 8091`: docs/testing.md). Nothing in the service imports this package.

May import: `resolver.core`.
"""
