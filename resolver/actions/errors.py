"""Errors raised while turning an action's tool into a function-call tool.

    SchemaConversionError   502 SCHEMA_CONVERSION_ERROR: the upstream tool's schema is unusable

Each error carries its HTTP status and code so that the service's error middleware can
render it without knowing this package.
"""

from __future__ import annotations


class SchemaConversionError(ValueError):
    """A tool schema cannot be converted; `pointer` is the JSON pointer of the offending node."""

    status = 502
    code = "SCHEMA_CONVERSION_ERROR"

    def __init__(self, reason: str, pointer: str = "#") -> None:
        super().__init__(f"{reason} (at {pointer})")
        self.reason = reason
        self.pointer = pointer
