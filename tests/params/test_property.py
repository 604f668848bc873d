"""`PropertyState` changes only through its own methods, and its LLM trace is typed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mypy import api as mypy_api

from resolver.llm.completion import Completion
from resolver.params.models import LogicPropertyDef
from resolver.params.property import PropertyState
from resolver.params.trace import LLMTrace, usage_total
from tests.helpers import metric, operator


def _state(definition: dict[str, Any]) -> PropertyState:
    return PropertyState.of(LogicPropertyDef.model_validate(definition), None)


@pytest.mark.parametrize("name", ["time_expr", "missing", "ask", "llm", "failure"])
def test_no_field_can_be_written_from_outside(name: str) -> None:
    state = _state(metric())
    with pytest.raises(AttributeError):
        setattr(state, name, None)


def test_mypy_refuses_a_write_to_what_never_changes(tmp_path: Path) -> None:
    # Plain attributes, read without a call (issue 33): `Final`, so the type checker — as for
    # `@record`s — not the run time, keeps them unwritten.
    names = ["definition", "spec", "name", "values", "sources"]
    writer = tmp_path / "writer.py"
    lines = [f"    state.{n} = state.{n}\n" for n in names]
    writer.write_text(
        "from resolver.params.property import PropertyState\n\n\n"
        "def write(state: PropertyState) -> None:\n" + "".join(lines)
    )
    out, _, code = mypy_api.run(["--no-error-summary", str(writer)])
    assert code == 1, out
    refused = re.findall(r'Cannot assign to final attribute "(\w+)"', out)
    assert refused == names, out


def test_the_reported_list_is_a_copy() -> None:
    state = _state(operator("o", ("a", "STRING"), ("b", "STRING")))
    state.report_missing("en")
    state.missing.clear()
    assert state.missing == ["a", "b"]


def test_params_the_model_named_narrow_the_missing_list_not_the_ask() -> None:
    state = _state(operator("o", ("a", "STRING"), ("b", "STRING")))
    state.report_missing("en", None, named=["b"])
    assert state.missing == ["b"]
    assert state.ask is not None
    assert "a, b" in state.ask  # the ask covers what is open, as before


def test_an_ask_in_another_language_is_written_again() -> None:
    state = _state(operator("o", ("a", "STRING")))
    state.report_missing("zh", "please add a")
    state.ask_in("zh")
    assert state.ask is not None
    assert "additional_context 中补充 a" in state.ask


def test_the_llm_trace_is_a_dataclass_and_sums_its_calls() -> None:
    state = _state(operator("o", ("a", "STRING")))
    state.begin_llm()
    first = Completion("{}", 2, 10.0, {"prompt_tokens": 5, "completion_tokens": 1}, "stop", "m")
    cached = Completion("{}", 0, 0.0, None, "stop", "m", cached=True)
    state.count_llm_call(first, [{"role": "user", "content": "x"}])
    state.count_repair_round(1)
    state.count_llm_call(cached, [{"role": "user", "content": "y"}])
    trace = state.llm
    assert isinstance(trace, LLMTrace)
    assert (trace.calls, trace.cached_calls, trace.retries, trace.attempts) == (2, 1, 1, 2)
    assert trace.debug()["usage"] == {
        "prompt_tokens": 5,
        "completion_tokens": 1,
        "total_tokens": 0,
        "cached_tokens": 0,
    }
    assert trace.debug()["request"] == [{"role": "user", "content": "y"}]
    assert usage_total([trace, LLMTrace()])["calls"] == 2
    assert state.debug()["llm"] == trace.debug()


def test_equal_definitions_share_one_spec_and_schemas_get_their_own() -> None:
    one, two = _state(metric()), _state(metric())
    assert one.spec is two.spec  # built once per distinct definition
    assert one.values is not two.values
    typed = operator("o", ("a", "STRING"), ("b", "INTEGER"))
    retyped = operator("o", ("a", "STRING"), ("b", "NUMBER"))
    assert _state(typed).spec != _state(retyped).spec
    schema = {"type": "string", "maxLength": 3}
    with_schema = PropertyState.of(LogicPropertyDef.model_validate(typed), {"a": schema})
    spec_a = with_schema.spec.get("a")
    assert spec_a is not None
    assert spec_a.schema == schema
    plain_a = _state(typed).spec.get("a")
    assert plain_a is not None
    assert plain_a.schema is None
