"""Function names OpenAI accepts (`^[a-zA-Z0-9_-]{1,64}$`); descriptions carry the human name."""

from __future__ import annotations

import hashlib
import re

MAX_NAME_LENGTH = 64

_VALID_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_INVALID_RUN = re.compile(r"[^a-zA-Z0-9_-]+")
_ALNUM = re.compile(r"[a-zA-Z0-9]")


def function_name(name: str, tool_id: str = "") -> str:
    """The tool's own name if valid, else a slug of it, else of `tool_id`, else `tool_<hash>`.

    No transliteration is available offline, so a slug keeps ASCII letters, digits, `_`
    and `-`, turns every other run of characters into `_`, trims `_`/`-` at both ends
    and is cut at 64 characters; a slug without a letter or digit does not count. The
    hash (8 hex digits of SHA-256 over the id and the name) is stable across processes.
    """
    if _VALID_NAME.fullmatch(name):
        return name
    for candidate in (name, tool_id):
        slug = slugify(candidate)
        if slug:
            return slug
    digest = hashlib.sha256(f"{tool_id}\x00{name}".encode()).hexdigest()[:8]
    return f"tool_{digest}"


def slugify(text: str) -> str:
    """`text` reduced to a valid function name, or `""` when nothing readable is left."""
    slug = _INVALID_RUN.sub("_", text).strip("_-")[:MAX_NAME_LENGTH].rstrip("_-")
    return slug if _ALNUM.search(slug) else ""


def function_description(name: str, description: str | None, used_name: str) -> str:
    """The tool's description, led by its human name when the function name is not that name."""
    text = (description or "").strip()
    human = name.strip()
    if used_name == name or not human:
        return text
    return f"{human}: {text}" if text else human
