"""Tests of `resolver/toolschema/`: the schema converter, argument validation, function names."""
