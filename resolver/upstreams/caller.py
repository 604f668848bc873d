"""What every upstream call carries for the caller: identity, trace and the request's deadline
(`CallerHeaders`), and the check that an identity can travel in a header whole (`forwardable`)."""

from __future__ import annotations

from dataclasses import field

from resolver.core.deadline import Deadline
from resolver.core.records import record


def forwardable(value: str) -> str:
    """`value` if it can travel upstream in a header exactly as received, else ValueError.

    aiohttp hands a header's undecodable bytes to the handler as lone surrogates, which the
    client would silently drop when forwarding (`admin\\xff` arrived upstream as `admin`):
    an identity must arrive whole or not at all. Control characters (CR, LF, …) cannot be
    sent in a header at all.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("is not valid UTF-8") from None
    if any((ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F for c in value):
        raise ValueError("holds a control character (line break, NUL, …)")
    return value


@record
class CallerHeaders:
    """What every upstream call carries on behalf of the caller: identity, trace and the
    request's deadline (which caps each call's timeout).

    `authorization` is the caller's own `Authorization` header: `headers()` never sends it;
    only the services that act for the caller add it (`as_caller()`), and it is kept out of
    the dataclass's repr so that no log line can show it.
    """

    trace_id: str
    account_id: str | None = None
    account_type: str | None = None
    traceparent: str | None = None
    authorization: str | None = field(default=None, repr=False)
    deadline: Deadline | None = None
    tracestate: str | None = None

    def headers(self) -> dict[str, str]:
        """The headers to send upstream (`tracestate` only with the `traceparent` it goes with)."""
        headers = {"x-trace-id": self.trace_id}
        if self.account_id:
            headers["x-account-id"] = self.account_id
        if self.account_type:
            headers["x-account-type"] = self.account_type
        if self.traceparent:
            headers["traceparent"] = self.traceparent
            if self.tracestate:
                headers["tracestate"] = self.tracestate
        return headers

    def as_caller(self) -> dict[str, str]:
        """The extra headers for a service that acts for the caller: its `Authorization`."""
        return {"Authorization": self.authorization} if self.authorization else {}
