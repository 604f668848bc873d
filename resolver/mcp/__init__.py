"""The MCP surface: resolver's three operations as Model Context Protocol tools, built on the
official `mcp` SDK's low-level server — `resolve_dynamic_params`, `get_logic_properties_values`
and `get_action_info` — with schemas generated from the HTTP API's own models (`schemas.py`,
`tools.py`), results and tool errors in the HTTP API's JSON shapes (`results.py`, `hints.py`),
one call's run (`server.py`), Streamable HTTP without server-side sessions (`http.py`, mounted
into the aiohttp app by `web/`) and stdio for desktop agents (`stdio.py`, `resolver mcp`).

May import: `resolver.core`, `resolver.upstreams`, `resolver.params`, `resolver.kn`,
`resolver.actions`.
"""
