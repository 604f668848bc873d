"""Suites that start processes (`resolver serve`, `resolver mcp`, Redis, hadolint, pip) or
attack the service as a whole: faults, fuzz, cluster, workers, shutdown, packaging.
"""
