"""The process's place in its life: serving, or draining after SIGTERM.

While draining, work already under way finishes, but nothing is started that could outlive the
shutdown grace period: no transport retry and no repair round begins. One object per
application, shared by the LLM client and whatever answers `/readyz`.
"""

from __future__ import annotations

import time


class Lifecycle:
    """Serving until `begin_draining`; then draining, for good."""

    def __init__(self) -> None:
        self._draining_since: float | None = None

    @property
    def draining(self) -> bool:
        """Whether shutdown has begun."""
        return self._draining_since is not None

    @property
    def draining_since(self) -> float | None:
        """When shutdown began (`time.monotonic()`), or None."""
        return self._draining_since

    def begin_draining(self) -> None:
        """Shutdown has begun: stop starting new retries and repair rounds."""
        if self._draining_since is None:
            self._draining_since = time.monotonic()
