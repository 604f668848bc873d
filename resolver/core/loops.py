"""Which event loop runs: uvloop where it is installed and wanted, else asyncio's own."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def uvloop_factory() -> LoopFactory | None:
    """uvloop's loop factory when uvloop is installed (it is optional), else None."""
    try:
        module = importlib.import_module("uvloop")
    except ImportError:
        return None
    factory: LoopFactory = module.new_event_loop
    return factory
