"""Tests of `resolver/mcp/`: the tools, Streamable HTTP and the KWeaver client."""
