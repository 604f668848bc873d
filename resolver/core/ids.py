"""The one rule for an id that becomes a URL path segment (kn_id, ot_id, at_id, mcp_id, …).

Every id that reaches an upstream URL passes `check_id` where it enters the service (request
models, path parameters, ids read from upstream answers) and `segment` where the URL is built.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from pydantic import AfterValidator, Field, StrictStr

MAX_ID_CHARS = 256


def check_id(value: str) -> str:
    """`value` if it can be a path segment (printable, not blank, not `.`/`..`), else ValueError."""
    stripped = value.strip()
    if not stripped:
        raise ValueError("must not be blank")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"must be at most {MAX_ID_CHARS} characters")
    if not value.isprintable() or stripped in (".", ".."):
        raise ValueError("must be a printable id, not a path segment")
    return value


def is_usable_id(value: object) -> bool:
    """Whether a value read from elsewhere (an upstream answer) is an id `check_id` accepts."""
    if not isinstance(value, str):
        return False
    try:
        check_id(value)
    except ValueError:
        return False
    return True


def segment(value: str) -> str:
    """One URL path segment: the id checked, every reserved character escaped."""
    return quote(check_id(value), safe="")


# An id field of a request model: the same rule, with pydantic's error for a caller.
Id = Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID_CHARS), AfterValidator(check_id)]
