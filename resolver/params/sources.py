"""Where a property's `dynamic_params` came from, in one word (the pipeline's
`dynamic_params_source`, SPEC §2.2).

Each settled input has its own source (`caller`, `context`, `rule`, `llm`, `default`; see
`Source`). Only `caller` — the request's `dynamic_params` — counts as the caller's;
everything resolver worked out (from `additional_context`, time rules, the LLM or a schema
default) counts as generated:

- `caller`: the request's `dynamic_params` has an entry for the property and every value
  came from it (an empty entry for a property without inputs included);
- `generated`: no value came from `dynamic_params`;
- `merged`: some values came from `dynamic_params`, the others were generated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

# Where one settled input came from.
Source = Literal["caller", "context", "rule", "llm", "default"]
PropertySource = Literal["caller", "generated", "merged"]


def summarize(sources: Mapping[str, Source], *, has_entry: bool) -> PropertySource:
    """The one-word source of a property whose inputs came from `sources`."""
    from_caller = list(sources.values()).count("caller")
    if not from_caller:
        return "caller" if has_entry and not sources else "generated"
    return "caller" if from_caller == len(sources) else "merged"
