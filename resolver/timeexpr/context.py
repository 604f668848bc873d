"""A context's free text read for time (SPEC §3): its clock and zone sentences (`clocks.py`),
and the reading of the rest (`reading.py`) — what `read_window` and the metric path's frame
(`params/frame.py`) both read `additional_context` with.

    >>> reading, said = read_context("时区：纽约；最近3个月", zone_given=False)
    >>> said.zone, reading.read
    ('America/New_York', ('最近3个月',))
"""

from __future__ import annotations

from resolver.timeexpr.clocks import Told, blank, told
from resolver.timeexpr.reading import Reading, read


def read_context(text: str, *, zone_given: bool) -> tuple[Reading, Told]:
    """A context's free text read for time (SPEC §3): its clock and zone sentences, and the
    reading of the rest. A zone cue that maps to no zone leaves the text unread unless the
    caller gave the zone (`zone_given`): a window placed in a zone nobody knows is a guess."""
    said = told(text)
    if said.unmapped is not None and not zone_given:
        return Reading(text, unread=(said.unmapped,)), said
    return read(blank(text, said.spans)), said
