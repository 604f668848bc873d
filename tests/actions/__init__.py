"""Tests of `resolver/actions/`: action recall and the MCP proxy over HTTP, the assembled
tools, fixed params, the MCP tool cache.
"""
