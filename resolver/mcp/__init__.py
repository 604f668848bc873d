"""The MCP surface: resolver's five operations as Model Context Protocol tools, built on the
official `mcp` SDK's low-level server — `get_logic_properties_values`,
`get_logic_property_inputs`, `get_action_info`, `resolve_dynamic_params` and
`resolve_time_window` — with schemas
generated from the HTTP API's own models (`schemas.py`, `tools.py`), results and tool errors
in the HTTP API's JSON shapes (`results.py`, `hints.py`), one call's run (`server.py`),
Streamable HTTP without server-side sessions (`http.py`, mounted into the aiohttp app by
`web/`; a plain tool call answered without the SDK's per-request transport, through its types,
by `fast_path.py`) and stdio for desktop agents (`stdio.py`, `resolver mcp`). The tools run on
the one service graph of `resolver/services.py`.

May import: `resolver.core`, `resolver.upstreams`, `resolver.params`, `resolver.kn`,
`resolver.actions`, `resolver.windows`, `resolver.services`, `rules`.
"""
