"""One schema converter for both dialects: inline `$ref`, prune cycles and depth, merge `allOf`.

The dialects differ only in how a `$ref` is looked up (`refs.document_lookup` over an
OpenAPI `api_spec` or over an MCP `inputSchema`); everything else is shared.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.keywords import (
    SUBSCHEMA_KEYWORDS,
    SUBSCHEMA_LIST_KEYWORDS,
    SUBSCHEMA_MAP_KEYWORDS,
    VALUE_KEYWORDS,
    clean_type,
    is_regex,
    type_names,
)
from resolver.toolschema.refs import RefLookup, escape_token
from resolver.toolschema.shapes import READ_ONLY, Schema, merge

MAX_REF_DEPTH = 3
"""How many `$ref` hops one path from the root may take before the next one is pruned."""

MAX_INLINED_NODES = 5_000
"""How many nodes a conversion may produce before it stops inlining `$ref`s (each further one
is pruned like a cycle). Hops alone do not bound the output: a 6 KB schema whose definitions
each refer to a dozen siblings once inlined to 60 MB within 3 hops."""

MAX_CONVERTED_NODES = 20_000
"""More nodes than this even with `$ref`s pruned (a huge schema written out in full) is a 502
`SCHEMA_CONVERSION_ERROR`: no model reads a tool that large, and converting it costs seconds."""


@dataclass(slots=True)
class NodeBudget:
    """What one conversion may still produce; shared by every schema of one document (an
    OpenAPI operation's parameters, body and components), so that many references to one
    large definition add up.

    A node is a schema, or one JSON value a keyword copies (a string counts once more per
    256 characters), roughly what it costs to write out.
    """

    inline_up_to: int = MAX_INLINED_NODES
    at_most: int = MAX_CONVERTED_NODES
    used: int = 0
    pruned: int = 0

    def spend(self, nodes: int, pointer: str) -> None:
        """Count `nodes` more; `SchemaConversionError` past `at_most`."""
        self.used += nodes
        if self.used > self.at_most:
            raise SchemaConversionError(
                f"the schema is too large to convert: more than {self.at_most} nodes even with "
                "its $refs pruned",
                pointer,
            )

    @property
    def inlining(self) -> bool:
        """Whether `$ref`s are still inlined (else they are pruned to `{type, description}`)."""
        return self.used < self.inline_up_to


def resolve_schema(
    node: Any,
    lookup: RefLookup,
    *,
    pointer: str = "#",
    max_depth: int = MAX_REF_DEPTH,
    visiting: frozenset[str] = frozenset(),
    keep_read_only: bool = False,
    budget: NodeBudget | None = None,
) -> dict[str, Any]:
    """A self-contained copy of `node`: refs inlined, `allOf` merged, non-standard keywords gone.

    Depth counts `$ref` hops, not nesting: every `$ref` followed on the way from `node`
    down to a subschema adds one, `properties`/`items`/… add nothing (inline nesting is
    finite by construction; only references can recurse). A `$ref` is inlined while it is
    at most the `max_depth`-th hop on its path; the next hop, or a `$ref` already being
    expanded on the same path (a cycle; siblings reusing one definition are not cycles),
    becomes `{type, description}` of its target (`items` kept shallow for arrays, the
    type guessed from the target's shape, else `object`). `visiting` names refs that
    count as already open, e.g. `"#"` when `node` is the whole document.

    `allOf` members are merged into one schema: `properties` and `required` united,
    types intersected, any other keyword taken from the node itself first, then the
    members in order. Properties marked `readOnly` are dropped (with their `required`
    entry), `nullable: true` widens `type` with `"null"`, boolean exclusive bounds
    become numeric ones, draft-07 tuple `items` become `prefixItems`, an array without
    `items` gets `items: {}`. With `keep_read_only` (a response schema, where read-only
    values are exactly what comes back) `readOnly` properties stay. `node` is never mutated
    and the result shares no mutable value with it.

    The output is bounded by `budget` (one per conversion unless the caller shares one): once
    it holds `budget.inline_up_to` nodes, every further `$ref` is pruned as a cycle is, and
    more than `budget.at_most` nodes raise `SchemaConversionError`. Raises it too naming the
    JSON pointer of a malformed node or an unresolvable `$ref`.
    """
    resolver = _Resolver(
        lookup, max_depth, keep_read_only=keep_read_only, budget=budget or NodeBudget()
    )
    resolved = resolver.resolve(node, _Site(pointer, 0, visiting))
    return _as_mapping(_without_marker(resolved))


@dataclass(frozen=True, slots=True)
class _Site:
    """Where the walk is: the node's JSON pointer, `$ref` hops taken, refs open on the path."""

    pointer: str
    depth: int
    visiting: frozenset[str]

    def child(self, *tokens: str | int) -> _Site:
        """The site of a subschema below this node."""
        path = "".join(f"/{escape_token(str(token))}" for token in tokens)
        return replace(self, pointer=self.pointer + path)

    def hop(self, ref: str) -> _Site:
        """The site of the target of `ref`, one hop deeper."""
        return _Site(ref, self.depth + 1, self.visiting | {ref})


class _Resolver:
    """The recursive walk; one instance per conversion."""

    def __init__(
        self, lookup: RefLookup, max_depth: int, *, keep_read_only: bool, budget: NodeBudget
    ) -> None:
        self._lookup = lookup
        self._max_depth = max_depth
        self._keep_read_only = keep_read_only
        self._budget = budget

    def resolve(self, node: Any, site: _Site) -> Schema:
        """`node` resolved; the result may still carry the read-only marker."""
        self._budget.spend(1, site.pointer)
        if isinstance(node, bool):
            return node
        if not isinstance(node, Mapping):
            raise SchemaConversionError(
                f"a schema must be an object or a boolean, not {_kind(node)}", site.pointer
            )
        if "$ref" in node:
            return self._follow(node, site)
        out: Schema = self._keywords(node, site)
        if "allOf" in node:
            for index, member in enumerate(_list(node["allOf"], site.child("allOf"))):
                out = merge(out, self.resolve(member, site.child("allOf", index)))
        return out

    def _follow(self, node: Mapping[str, Any], site: _Site) -> Schema:
        ref = node["$ref"]
        if not isinstance(ref, str):
            raise SchemaConversionError("$ref must be a string", site.pointer)
        try:
            target = self._lookup(ref)
        except LookupError as exc:
            raise SchemaConversionError(f"unresolvable $ref {ref!r}: {exc}", site.pointer) from exc
        if ref in site.visiting or site.depth >= self._max_depth or not self._budget.inlining:
            if ref not in site.visiting and site.depth < self._max_depth:
                self._budget.pruned += 1
            resolved = _prune(target, ref)
        else:
            resolved = self.resolve(target, site.hop(ref))
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        if not siblings:
            return resolved
        # JSON Schema 2019+ reads keywords beside a $ref as an allOf; the sibling's own
        # description is the more specific one, so it goes first.
        return merge(self.resolve(siblings, site), resolved)

    def _keywords(self, node: Mapping[str, Any], site: _Site) -> dict[str, Any]:
        out: dict[str, Any] = {}
        kind = clean_type(node.get("type"), nullable=node.get("nullable") is True)
        if kind is not None:
            out["type"] = kind
        read_only: set[str] = set()
        for key, value in node.items():
            if key == "properties":
                out[key], read_only = self._properties(value, site.child(key))
            elif key in VALUE_KEYWORDS:
                if key == "required" and isinstance(value, list):
                    out[key] = list(dict.fromkeys(n for n in value if isinstance(n, str)))
                elif VALUE_KEYWORDS[key](value):
                    self._budget.spend(json_nodes(value), site.pointer)
                    out[key] = copy.deepcopy(value)
            else:
                out.update(self._subschemas(node, key, site))
        for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
            # OpenAPI 3.0 / draft-04: a boolean flag that makes the bound exclusive.
            if node.get(exclusive) is True and bound in out:
                out[exclusive] = out.pop(bound)
        if read_only and "required" in out:
            out["required"] = [name for name in out["required"] if name not in read_only]
        if "array" in type_names(out.get("type")) and not {"items", "prefixItems"} & out.keys():
            out["items"] = {}  # means the same; OpenAI rejects an array schema without items
        return out

    def _subschemas(self, node: Mapping[str, Any], key: str, site: _Site) -> dict[str, Any]:
        """What keyword `key` contributes when it holds schemas (or is the read-only marker)."""
        value, at = node[key], site.child(key)
        if key == "items" and isinstance(value, list):
            # Draft-07 tuple form; 2020-12 spells it prefixItems (+ items for the rest).
            return self._tuple(node, site)
        if key in SUBSCHEMA_KEYWORDS:
            return {key: self._sub(value, at)}
        if key in SUBSCHEMA_MAP_KEYWORDS:
            return {
                key: {
                    name: self._sub(sub, at.child(name))
                    for name, sub in _mapping(value, at).items()
                    if key != "patternProperties" or is_regex(name)
                }
            }
        if key in SUBSCHEMA_LIST_KEYWORDS:
            subs = [self._sub(sub, at.child(i)) for i, sub in enumerate(_list(value, at))]
            return {key: subs} if subs else {}
        if key == READ_ONLY and value is True and not self._keep_read_only:
            return {key: True}
        return {}

    def _properties(self, value: Any, site: _Site) -> tuple[dict[str, Schema], set[str]]:
        properties: dict[str, Schema] = {}
        read_only: set[str] = set()
        for name, sub in _mapping(value, site).items():
            resolved = self.resolve(sub, site.child(name))
            if isinstance(resolved, dict) and resolved.pop(READ_ONLY, False):
                read_only.add(name)
            else:
                properties[name] = resolved
        return properties, read_only

    def _tuple(self, node: Mapping[str, Any], site: _Site) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if node["items"]:
            out["prefixItems"] = [
                self._sub(sub, site.child("items", i)) for i, sub in enumerate(node["items"])
            ]
        if "additionalItems" in node:
            out["items"] = self._sub(node["additionalItems"], site.child("additionalItems"))
        return out

    def _sub(self, node: Any, site: _Site) -> Schema:
        return _without_marker(self.resolve(node, site))


def json_nodes(value: Any) -> int:
    """How many nodes a JSON value counts for in a `NodeBudget`."""
    if isinstance(value, str):
        return 1 + len(value) // 256
    if isinstance(value, Mapping):
        return 1 + sum(json_nodes(k) + json_nodes(v) for k, v in value.items())
    if isinstance(value, list):
        return 1 + sum(json_nodes(item) for item in value)
    return 1


def _mapping(value: Any, site: _Site) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SchemaConversionError(f"expected an object, not {_kind(value)}", site.pointer)
    return value


def _list(value: Any, site: _Site) -> list[Any]:
    if not isinstance(value, list):
        raise SchemaConversionError(f"expected an array, not {_kind(value)}", site.pointer)
    return value


def _prune(target: Any, ref: str) -> Schema:
    """`{type, description}` of a ref target that is not expanded (cycle or depth)."""
    if isinstance(target, bool):
        return target
    if not isinstance(target, Mapping):
        raise SchemaConversionError(
            f"a schema must be an object or a boolean, not {_kind(target)}", ref
        )
    kind = clean_type(target.get("type"), nullable=target.get("nullable") is True)
    out: dict[str, Any] = {"type": kind if kind is not None else _guess_type(target)}
    if isinstance(target.get("description"), str):
        out["description"] = target["description"]
    if "array" in type_names(out["type"]):
        # OpenAI rejects an array schema without `items`.
        items = target.get("items")
        item_kind = (
            clean_type(items.get("type"), nullable=False) if isinstance(items, Mapping) else None
        )
        out["items"] = {} if item_kind is None else {"type": item_kind}
        if item_kind is not None and "array" in type_names(item_kind):
            out["items"]["items"] = {}  # an array of arrays: the inner one needs items too
    if target.get(READ_ONLY) is True:
        out[READ_ONLY] = True
    return out


def _guess_type(target: Mapping[str, Any]) -> str:
    if any(key in target for key in ("properties", "additionalProperties", "patternProperties")):
        return "object"
    if "items" in target or "prefixItems" in target:
        return "array"
    values = target["enum"] if isinstance(target.get("enum"), list) else []
    if "const" in target:
        values = [target["const"]]
    kinds = {_json_type(value) for value in values}
    if len(kinds) == 1:
        return kinds.pop()
    return "object"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    for python_type, name in _JSON_TYPES_OF:
        if isinstance(value, python_type):
            return name
    return "object"


# bool before int: True is an int to Python, a boolean to JSON.
_JSON_TYPES_OF: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
)


def _without_marker(schema: Schema) -> Schema:
    if isinstance(schema, dict):
        schema.pop(READ_ONLY, None)
    return schema


def _as_mapping(schema: Schema) -> dict[str, Any]:
    if schema is True:
        return {}
    if schema is False:
        return {"not": {}}
    return schema


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__
