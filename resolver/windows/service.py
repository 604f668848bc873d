"""`TimeWindows`: one time-window request read into one answer by the scanner's one entry
point, `read_window` — the settling of the metric path (`settle.settle_both`: the context
first, the caller's `instant`/`step` beating both), never a second reading (SPEC §9)."""

from __future__ import annotations

from dataclasses import dataclass

from resolver.core.clip import clip_repr
from resolver.core.errors import BadRequest, TimeUnsettled
from resolver.core.languages import Language
from resolver.core.settings import Settings
from resolver.timeexpr import TimeWindow, UnknownZone, read_window, unread_clause
from resolver.windows.asks import window_ask
from resolver.windows.models import TimeWindowRequest, TimeWindowResponse
from rules.spec import MAX_MS, MIN_MS


@dataclass(frozen=True, slots=True)
class TimeWindows:
    """Answers time-window requests; `default_timezone` places a text whose request and
    context name no zone (RESOLVER_DEFAULT_TIMEZONE)."""

    default_timezone: str

    @classmethod
    def of(cls, settings: Settings) -> TimeWindows:
        """The service as these settings configure it."""
        return cls(default_timezone=settings.default_timezone)

    def answer(
        self, request: TimeWindowRequest, trace_id: str, *, language: Language | None = None
    ) -> TimeWindowResponse:
        """The window (or instant) the request's text means, in its unit.

        422 `TimeUnsettled` when it means none; 400 for a zone nobody knows or a context
        clock outside 2000..2100. `language` (Accept-Language) yields to the request's own.
        """
        return TimeWindowResponse.of(
            self.window(request, language=language), request.unit, trace_id
        )

    def window(self, request: TimeWindowRequest, *, language: Language | None = None) -> TimeWindow:
        """The scanner's settled answer to the request (raising as `answer` does)."""
        try:
            window = read_window(
                request.text,
                now_ms=request.now_ms,
                timezone=request.timezone,
                context=request.context,
                language=request.language or language,
                instant=request.instant,
                step=request.step,
                default_timezone=self.default_timezone,
            )
        except UnknownZone as exc:
            raise BadRequest(
                f"unknown timezone {clip_repr(request.timezone or '', 64)}; use an IANA name "
                "(Asia/Shanghai), a city (New York, 纽约) or an offset (UTC+8)",
                details=[{"loc": "timezone", "msg": "unknown timezone", "type": "value_error"}],
            ) from exc
        if not MIN_MS <= window.now_ms <= MAX_MS:
            raise BadRequest(
                f"the context's clock sentence is outside 2000..2100 ({window.now_ms} ms)"
            )
        if not window.settled:
            clause = unread_clause("en", window.unread) if window.unread else ""
            reason = f"; {clause[:1].lower()}{clause[1:]}" if clause else ""
            raise _unsettled(window, window.unread, f"the text settles no time window{reason}")
        if not _within_rules(window):
            # As on the metric path: a window the rules refuse (SPEC §5 allows 2000..2100) is
            # not one the caller can have meant (编号 #1930 is no year).
            words = (window.matched,) if window.matched else ()
            raise _unsettled(
                window,
                words,
                f"the window of {clip_repr(window.matched or window.text)} "
                "lies outside 2000..2100, the years the rules accept",
            )
        return window


def _unsettled(window: TimeWindow, unread: tuple[str, ...], message: str) -> TimeUnsettled:
    return TimeUnsettled(message, unread=unread, ask=window_ask(window.language, unread))


def _within_rules(window: TimeWindow) -> bool:
    """Whether the window's instants lie in the years the rules accept (SPEC §5)."""
    edges = (window.start, window.end)
    return all(MIN_MS <= edge <= MAX_MS for edge in edges if edge is not None)
