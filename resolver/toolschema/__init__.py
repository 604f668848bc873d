"""The pure schema converter: an OpenAPI operation or an MCP `inputSchema` in, one flat
JSON-Schema object out (`$ref`s inlined, cycles and deep chains pruned, `allOf` merged,
names valid for OpenAI), plus argument validation against a tool's own schema.

Action recall builds function-call tools with it (and their output schemas, `responses.py`);
the dynamic-params resolution reads an operator's per-input schemas with it (`inputs.py`).
No I/O, no logging, inputs never mutated.

May import: `resolver.core`.
"""

from resolver.toolschema.arguments import ArgumentViolation, validate_arguments
from resolver.toolschema.inputs import compact, input_schemas
from resolver.toolschema.mcp import mcp_parameters
from resolver.toolschema.naming import function_description, function_name
from resolver.toolschema.openapi import openapi_parameters
from resolver.toolschema.refs import RefLookup, document_lookup
from resolver.toolschema.responses import output_schema
from resolver.toolschema.schema import (
    MAX_CONVERTED_NODES,
    MAX_INLINED_NODES,
    MAX_REF_DEPTH,
    NodeBudget,
    resolve_schema,
)

__all__ = [
    "MAX_CONVERTED_NODES",
    "MAX_INLINED_NODES",
    "MAX_REF_DEPTH",
    "ArgumentViolation",
    "NodeBudget",
    "RefLookup",
    "compact",
    "document_lookup",
    "function_description",
    "function_name",
    "input_schemas",
    "mcp_parameters",
    "openapi_parameters",
    "output_schema",
    "resolve_schema",
    "validate_arguments",
]
