"""Action recall: an object's action (OpenAPI tool or MCP tool) as an OpenAI function-call tool."""
