"""Tests of `resolver/core/`: tracing."""
