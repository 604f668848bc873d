"""A long `additional_context` holds no loop (issue 30's cost bomb): reading a context for
time is linear, ~1 µs a character, so a context near the body limit (~900 KB) kept the event
loop for a third of a second per request (0.7 s on a loaded machine), `/healthz` waiting
behind it. It is framed on a worker thread; over real sockets, the answer unchanged.

What is asserted is where the frame is read (the loop's thread or not), not how long a probe
waited meanwhile: off the loop, a probe still waits for the interpreter while the thread
reads (20-75 ms here, more on a loaded machine), which a wall-clock bound could not tell from
the old stall without flaking."""

from __future__ import annotations

import io
import threading
from typing import Any

import orjson
import pytest

from resolver.params import frame as params_frame
from resolver.params import service as params_service
from tests.helpers import ClientFactory, metric, request_body

# Prose in which the lexicon finds a word every few characters (长 of 很长), none of them time:
# the costliest text to read that still says nothing.
PROSE = "很长的背景"
CONTEXT_CHARS = 300_000  # ~900 KB of UTF-8, under the 1 MiB body limit


async def _resolve(client: Any, body: dict[str, Any]) -> tuple[int, Any]:
    # A stream: the client sends a body this large without holding the loop itself.
    response = await client.post(
        "/v1/dynamic-params",
        data=io.BytesIO(orjson.dumps(body)),
        headers={"Content-Type": "application/json"},
    )
    return response.status, orjson.loads(await response.read())


@pytest.mark.parametrize(
    ("context", "on_the_loop"),
    [
        pytest.param("说明：" + PROSE * (CONTEXT_CHARS // len(PROSE)), False, id="900KB"),
        pytest.param("说明：" + PROSE * 10, True, id="short"),
    ],
)
async def test_a_long_context_is_framed_off_the_loop(
    make_client: ClientFactory, monkeypatch: pytest.MonkeyPatch, context: str, on_the_loop: bool
) -> None:
    threads: list[threading.Thread] = []

    def framed(*args: Any, **kwargs: Any) -> params_frame.Frame:
        threads.append(threading.current_thread())
        return params_frame.frame_of(*args, **kwargs)

    monkeypatch.setattr(params_service, "frame_of", framed)
    client = await make_client(llm=False)
    status, answer = await _resolve(client, request_body(metric(), additional_context=context))
    assert status == 200, answer
    # The query's window, untouched by the prose.
    window = answer["dynamic_params"]["approved_drug_count"]
    assert (window["instant"], window["step"]) == (False, "month")
    ((thread,),) = (threads,)
    assert (thread is threading.main_thread()) == on_the_loop, thread.name


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
