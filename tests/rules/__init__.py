"""Tests of `rules/`: every rule of SPEC §5."""
