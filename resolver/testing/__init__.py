"""Test doubles shipped with the package: a scripted OpenAI-compatible LLM (`fake_llm`) and
fakes of the knowledge-network upstreams (`fake_upstreams`), real HTTP servers on loopback.

The tests and the benchmarks use them alike (`python -m benchmarks fake-llm` runs one
stand-alone). Nothing in the service imports this package.

May import: `resolver.core`.
"""
