"""Tests of `resolver/llm/`: the client's retries, cache, fallback, schema and the reading of
answers.
"""
