"""Small pieces of the LLM client on their own: the circuit's states, the usage reader, the
bounded inflater."""

from __future__ import annotations

import time
import zlib

import pytest

from resolver.llm.circuit import Circuit
from resolver.llm.completion import read_usage
from resolver.llm.transport import UndecodableResponse, _inflate, _inflater
from resolver.testing.fake_llm import gzip_bomb


def test_circuit_opens_after_n_failures_probes_once_and_closes() -> None:
    now = [0.0]
    moves: list[str] = []
    circuit = Circuit(
        "primary",
        failures=3,
        cool_down_s=10,
        clock=lambda: now[0],
        on_change=lambda _, s: moves.append(s),
    )
    for _ in range(2):
        circuit.attempt_failed()
    assert circuit.admit()
    circuit.call_succeeded()  # a success restarts the count
    for _ in range(2):
        circuit.attempt_failed()
    assert circuit.snapshot()["state"] == "closed"
    circuit.attempt_failed()
    assert circuit.snapshot()["state"] == "open"
    assert not circuit.admit()
    now[0] = 10.0
    assert circuit.snapshot()["state"] == "half_open"
    assert circuit.admit()  # the probe
    assert not circuit.admit()  # only one at a time
    circuit.call_succeeded()
    assert circuit.snapshot()["state"] == "closed"
    assert moves == ["open", "half_open", "closed"]


def test_a_failed_probe_reopens_and_an_unjudged_one_frees_the_slot() -> None:
    now = [0.0]
    circuit = Circuit("primary", failures=5, cool_down_s=1, clock=lambda: now[0])
    circuit.call_failed("retries exhausted")
    now[0] = 1.0
    assert circuit.admit()
    circuit.release_probe()  # a 4xx or a cancellation says nothing
    assert circuit.admit()
    circuit.call_failed("probe failed")
    assert circuit.snapshot()["state"] == "open"
    assert circuit.opened == 2
    assert circuit.snapshot()["retry_primary_in_s"] == 1.0


PC = {"prompt_tokens": 5, "completion_tokens": 2}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (PC, {**PC, "total_tokens": 7}),
        ({**PC, "total_tokens": 9}, {**PC, "total_tokens": 9}),
        ({"prompt_tokens": -1, "completion_tokens": True, "total_tokens": "3"}, None),
        ({"prompt_tokens": 4}, {"prompt_tokens": 4}),
        ("lots", None),
        (None, None),
    ],
)
def test_usage_keeps_only_counts(raw: object, expected: dict[str, int] | None) -> None:
    assert read_usage(raw) == expected


def test_inflating_a_bomb_stops_at_the_room_given() -> None:
    bomb = gzip_bomb(256 << 20)
    inflater = _inflater("gzip", 200)
    assert inflater is not None
    began = time.process_time()
    pieces = _inflate(inflater, bomb, 1 << 20, 200)
    assert (1 << 20) <= sum(len(p) for p in pieces) <= (1 << 20) + 1
    assert time.process_time() - began < 0.5


def test_unknown_encodings_and_garbage_are_undecodable() -> None:
    with pytest.raises(UndecodableResponse):
        _inflater("br", 200)
    inflater = _inflater("deflate", 500)
    assert inflater is not None
    with pytest.raises(UndecodableResponse):
        _inflate(inflater, b"definitely not deflate", 1024, 500)
    assert _inflater("identity", 200) is None
    whole = zlib.compress(b"x" * 100)
    assert b"".join(_inflate(_inflater("deflate", 200), whole, 1024, 200)) == b"x" * 100  # type: ignore[arg-type]
