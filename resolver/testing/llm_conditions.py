"""What a real LLM endpoint does to its callers, as the fake LLM models it for load tests:
latency, fixed or lognormal through a p50 and a p99 (`Latency`); faults at a rate each
(`Faults`); a gateway admitting at most N calls in any sliding second (`Gateway`); an answer
that inflates a thousandfold (`gzip_bomb`)."""

from __future__ import annotations

import math
import random
import zlib
from collections import deque
from dataclasses import dataclass

# z-score of the 99th percentile of a standard normal distribution.
_Z99 = 2.326347874040841


@dataclass(frozen=True)
class Latency:
    """How long a default answer takes: fixed at `p50_s`, or lognormal through p50 and p99."""

    p50_s: float = 0.0
    p99_s: float | None = None

    def __post_init__(self) -> None:
        if self.p50_s < 0 or (self.p99_s is not None and self.p99_s < self.p50_s):
            raise ValueError("latency needs 0 <= p50 <= p99")
        if self.p99_s is not None and self.p99_s > self.p50_s and self.p50_s == 0:
            raise ValueError("a lognormal latency needs p50 > 0")

    def sample(self, rng: random.Random) -> float:
        """One latency in seconds."""
        if self.p99_s is None or self.p99_s == self.p50_s:
            return self.p50_s
        sigma = math.log(self.p99_s / self.p50_s) / _Z99
        return rng.lognormvariate(math.log(self.p50_s), sigma)


@dataclass(frozen=True)
class Faults:
    """Rates (0..1) of injected faults, drawn independently per call in this order."""

    rate_429: float = 0.0
    retry_after_s: float = 1.0
    rate_5xx: float = 0.0
    status_5xx: int = 503
    rate_hang: float = 0.0
    hang_s: float = 3600.0
    rate_malformed: float = 0.0

    def __post_init__(self) -> None:
        rates = (self.rate_429, self.rate_5xx, self.rate_hang, self.rate_malformed)
        if any(not 0 <= r <= 1 for r in rates) or sum(rates) > 1:
            raise ValueError("fault rates are within 0..1 and add up to at most 1")

    def draw(self, rng: random.Random) -> str | None:
        """The fault for one call: `429`, `5xx`, `hang`, `malformed`, or None."""
        roll = rng.random()
        for name, rate in (
            ("429", self.rate_429),
            ("5xx", self.rate_5xx),
            ("hang", self.rate_hang),
            ("malformed", self.rate_malformed),
        ):
            if roll < rate:
                return name
            roll -= rate
        return None


class Gateway:
    """Admits at most `qps` calls in any sliding 1-second window (rejected calls don't count)."""

    def __init__(self, qps: float) -> None:
        self.qps = qps
        self._admitted: deque[float] = deque()

    def admit(self, now: float) -> float | None:
        """None when the call may pass, else the seconds until a slot frees up."""
        window = self._admitted
        while window and now - window[0] >= 1.0:
            window.popleft()
        if len(window) >= self.qps:
            return max(0.001, 1.0 - (now - window[0]))
        window.append(now)
        return None

    def reset(self) -> None:
        """Forget the window."""
        self._admitted.clear()


def gzip_bomb(inflated_bytes: int) -> bytes:
    """A gzip body of zeros that inflates to `inflated_bytes` (about 1,000:1)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    parts = [packer.compress(block) for _ in range(inflated_bytes >> 20)]
    parts.append(packer.compress(bytes(inflated_bytes & ((1 << 20) - 1))))
    parts.append(packer.flush())
    return b"".join(parts)


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]
