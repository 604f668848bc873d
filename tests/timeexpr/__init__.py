"""Tests of `resolver/timeexpr/`: the time scanner, its families, guard and gold sets."""
