"""`$ref` lookup: the one thing the OpenAPI and the MCP dialects do differently."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

RefLookup = Callable[[str], Any]
"""Returns the node a `$ref` names; raises `LookupError` when there is none."""


def document_lookup(document: Mapping[str, Any]) -> RefLookup:
    """A lookup that resolves local references (`#`, `#/a/b~1c`, RFC 6901) inside `document`.

    OpenAPI tools pass their `api_spec` (`#/components/schemas/X`), MCP tools their
    `inputSchema` (`#/$defs/X`, `#/definitions/X`). Remote references and `$anchor`
    names are not followed: this package does no I/O.
    """

    def lookup(ref: str) -> Any:
        if not ref.startswith("#"):
            raise LookupError("only local references ('#/...') are supported")
        fragment = unquote(ref[1:])
        if not fragment:
            return document
        if not fragment.startswith("/"):
            raise LookupError("anchor references are not supported")
        node: Any = document
        for raw in fragment[1:].split("/"):
            node = _step(node, raw.replace("~1", "/").replace("~0", "~"))
        return node

    return lookup


def escape_token(token: str) -> str:
    """One JSON-pointer reference token, escaped (`~` → `~0`, `/` → `~1`)."""
    return token.replace("~", "~0").replace("/", "~1")


def _step(node: Any, part: str) -> Any:
    if isinstance(node, Mapping) and part in node:
        return node[part]
    if isinstance(node, Sequence) and not isinstance(node, str | bytes) and _is_index(part, node):
        return node[int(part)]
    raise LookupError(f"no {part!r} there")


def _is_index(part: str, items: Sequence[Any]) -> bool:
    """RFC 6901 array index: digits without a leading zero, inside the array."""
    # ASCII digits only (str.isdigit() also takes "²", which int() refuses), and short
    # enough that int() never meets its 4300-digit limit.
    if not (part.isascii() and part.isdigit() and len(part) <= 18):
        return False
    return (part == "0" or not part.startswith("0")) and int(part) < len(items)
