"""Action recall and the MCP proxy (SPEC §8): an object's action as a ready OpenAI
function-call tool (`recall.py`, assembled by `tools.py`, `fixed_params.py`, `urls.py`), and
the proxy that checks an LLM's arguments before calling an MCP tool (`proxy.py`), both served
by one short-lived MCP tool cache (`mcp_tools.py`).

May import: `resolver.toolschema`, `resolver.upstreams`, `resolver.core`.
"""
