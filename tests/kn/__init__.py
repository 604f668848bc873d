"""Tests of `resolver/kn/`: the Go-compatible pipeline, permissions, operator schemas, the
inputs endpoint.
"""
