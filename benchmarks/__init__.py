"""Benchmarks and load tools for resolver: `python -m benchmarks COMMAND`."""
