"""`TimeWindows`: one time-window request read into one answer by the scanner's one entry
point, `read_window` — the settling of the metric path (`settle.settle_both`: the context
first, the caller's `instant`/`step` beating both), never a second reading (SPEC §9)."""

from __future__ import annotations

from dataclasses import dataclass

from resolver.core.clip import clip_repr
from resolver.core.errors import BadRequest, TimeUnsettled
from resolver.core.languages import Language
from resolver.core.settings import Settings
from resolver.timeexpr.business import BusinessWindow, read_business_window
from resolver.timeexpr.fiscal_config import ContextFiscalInvalid
from resolver.timeexpr.timewindow import TimeWindow, UnknownZone, unread_clause
from resolver.windows.asks import fiscal_ask, window_ask
from resolver.windows.models import TimeWindowRequest, TimeWindowResponse
from rules.spec import MAX_MS, MIN_MS


@dataclass(frozen=True, slots=True)
class TimeWindows:
    """Answers time-window requests; `default_timezone` places a text whose request and
    context name no zone (RESOLVER_DEFAULT_TIMEZONE)."""

    default_timezone: str
    # RESOLVER_FISCAL_YEAR_START / _NAMED_BY: the fiscal calendar when neither the request nor
    # its context states one (SPEC §9.1).
    fiscal_year_start: str | None = None
    fiscal_year_named_by: str | None = None

    @classmethod
    def of(cls, settings: Settings) -> TimeWindows:
        """The service as these settings configure it."""
        return cls(
            default_timezone=settings.default_timezone,
            fiscal_year_start=settings.fiscal_year_start,
            fiscal_year_named_by=settings.fiscal_year_named_by,
        )

    def answer(
        self, request: TimeWindowRequest, trace_id: str, *, language: Language | None = None
    ) -> TimeWindowResponse:
        """The window (or instant) the request's text means, in its unit.

        422 `TimeUnsettled` when it means none; 400 for a zone nobody knows or a context
        clock outside 2000..2100. `language` (Accept-Language) yields to the request's own.
        """
        business = self.business(request, language=language)
        return TimeWindowResponse.of(
            business.window,
            request.unit,
            trace_id,
            baseline=business.baseline,
            shape=request.shape,
        )

    def business(
        self, request: TimeWindowRequest, *, language: Language | None = None
    ) -> BusinessWindow:
        """The scanner's settled answer to the request with its business time: the fiscal
        calendar (request > context sentence > environment) and the baseline (raising as
        `answer` does; 400 naming `context.fiscal_year_start` for a stated start that is no
        day)."""
        try:
            business = read_business_window(
                request.text,
                fiscal_year_start=request.fiscal_year_start,
                fiscal_year_named_by=request.fiscal_year_named_by,
                default_fiscal_year_start=self.fiscal_year_start,
                default_fiscal_year_named_by=self.fiscal_year_named_by,
                now_ms=request.now_ms,
                timezone=request.timezone,
                context=request.context,
                language=request.language or language,
                instant=request.instant,
                step=request.step,
                default_timezone=self.default_timezone,
            )
        except ContextFiscalInvalid as exc:
            raise BadRequest(
                str(exc),
                details=[{"loc": f"context.{exc.field}", "msg": str(exc), "type": "value_error"}],
            ) from exc
        except UnknownZone as exc:
            raise BadRequest(
                f"unknown timezone {clip_repr(request.timezone or '', 64)}; use an IANA name "
                "(Asia/Shanghai), a city (New York, 纽约) or an offset (UTC+8)",
                details=[{"loc": "timezone", "msg": "unknown timezone", "type": "value_error"}],
            ) from exc
        window = business.window
        if not MIN_MS <= window.now_ms <= MAX_MS:
            raise BadRequest(
                f"the context's clock sentence is outside 2000..2100 ({window.now_ms} ms)"
            )
        if business.fiscal_unconfigured:
            raise TimeUnsettled(
                "the text names a fiscal period and no fiscal year start is configured "
                "(fiscal_year_start, a context sentence or RESOLVER_FISCAL_YEAR_START)",
                unread=window.unread,
                ask=fiscal_ask(window.language, window.unread),
            )
        if window.settled and business.unread_comparison:
            words = business.unread_comparison
            raise _unsettled(
                window,
                words,
                "the text compares, but no baseline can be settled (a comparison with no kind "
                "or period, two kinds at once, or named periods joined into one window); "
                + unread_clause("en", words)[:1].lower()
                + unread_clause("en", words)[1:],
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
        return business


def _unsettled(window: TimeWindow, unread: tuple[str, ...], message: str) -> TimeUnsettled:
    return TimeUnsettled(message, unread=unread, ask=window_ask(window.language, unread))


def _within_rules(window: TimeWindow) -> bool:
    """Whether the window's instants lie in the years the rules accept (SPEC §5)."""
    edges = (window.start, window.end)
    return all(MIN_MS <= edge <= MAX_MS for edge in edges if edge is not None)
