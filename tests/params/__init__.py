"""Tests of `resolver/params/`: the dynamic-params resolution, its context reading, defaults,
the agent retry loop.
"""
