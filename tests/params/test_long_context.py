"""A long `additional_context` holds no loop (issue 30's cost bomb): reading a context for
time is linear, ~1 µs a character, so a context near the body limit (~900 KB) kept the event
loop for a third of a second per request, `/healthz` waiting behind it. It is framed on a
worker thread; over real sockets, the answer unchanged."""

from __future__ import annotations

import io

import orjson
import pytest

from resolver.params import service as params_service
from tests.helpers import ClientFactory, metric, request_body, worst_healthz

# Prose in which the lexicon finds a word every few characters (长 of 很长), none of them time:
# the costliest text to read that still says nothing.
PROSE = "很长的背景"
CONTEXT_CHARS = 300_000  # ~900 KB of UTF-8, under the 1 MiB body limit
# The old code: 0.35 s of loop on a quiet machine, 0.7 s on a loaded one. Now the loop waits
# only for its turn at the interpreter (the thread yields it every 5 ms): 20–75 ms here,
# where test client and service share one loop and each probe takes several turns.
MAX_STALL_S = 0.25


async def test_a_context_near_the_body_limit_is_framed_off_the_loop(
    make_client: ClientFactory,
) -> None:
    client = await make_client(llm=False)
    context = "说明：" + PROSE * (CONTEXT_CHARS // len(PROSE))
    body = request_body(metric(), additional_context=context)
    answers = []

    async def resolve() -> None:
        # A stream: the client sends a body this large without holding the loop itself.
        response = await client.post(
            "/v1/dynamic-params",
            data=io.BytesIO(orjson.dumps(body)),
            headers={"Content-Type": "application/json"},
        )
        answers.append((response.status, orjson.loads(await response.read())))

    stall = await worst_healthz(client, resolve())
    ((status, answer),) = answers
    assert status == 200, answer
    # The query's window, untouched by the prose.
    window = answer["dynamic_params"]["approved_drug_count"]
    assert (window["instant"], window["step"]) == (False, "month")
    assert stall < MAX_STALL_S, f"the loop stalled {stall * 1000:.0f} ms"


@pytest.mark.parametrize(
    ("context", "chars"),
    [
        (None, 0),
        ("", 0),
        ("最近3个月", 5),
        ({"note": "很长", "n": 3, "deep": {"x": "not read for time"}}, 2),
    ],
)
def test_the_characters_read_for_time(context: object, chars: int) -> None:
    assert params_service.context_chars(context) == chars  # type: ignore[arg-type]
