"""The rule chain a property runs (`registry.validate`) leaves out only rules with nothing of
the property to check: it finds exactly what the kind's whole chain finds, in the same order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.spec import METRIC_TIME_PARAMS, STEPS, InputSpec, ParamType, PropertySpec

_NAMES = [*METRIC_TIME_PARAMS, "region", "top_n", "weights", "items", "ratio", "headers"]
_SCHEMAS: list[dict[str, Any] | None] = [
    None,
    {"type": "string", "enum": ["a", "b"]},
    {"type": "integer", "minimum": 1},
    {"type": "object", "required": ["x"]},
    {"type": "array", "maxItems": 1},
]
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.sampled_from([946_684_800_000, 1_755_047_542_241, 4_102_444_800_001]),
    st.floats(allow_nan=True),
    st.sampled_from([*STEPS, "7d", "a", "b", ""]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(["x", "y"]), st.integers(), max_size=2),
)


@st.composite
def _cases(draw: st.DrawFn) -> tuple[PropertySpec, dict[str, Any]]:
    names = draw(st.lists(st.sampled_from(_NAMES), unique=True, max_size=6))
    inputs = tuple(
        InputSpec(
            name,
            draw(st.one_of(st.none(), st.sampled_from(list(ParamType)))),
            draw(st.sampled_from(_SCHEMAS)),
        )
        for name in names
    )
    spec = PropertySpec("p", draw(st.sampled_from(["metric", "operator"])), inputs)
    keys = st.sampled_from([*names, "undeclared", "query"]) if names else st.just("undeclared")
    params = draw(st.dictionaries(keys, _VALUES, max_size=7))
    return spec, params


@settings(max_examples=400, deadline=None)
@given(_cases())
def test_the_chain_run_finds_what_the_whole_chain_finds(
    case: tuple[PropertySpec, dict[str, Any]],
) -> None:
    spec, params = case
    whole = [v for rule in registry.CHAINS[spec.kind] for v in rule(spec, params)]
    assert registry.validate(spec, params) == (whole if params else [])


def test_a_rule_left_out_is_one_with_nothing_to_check() -> None:
    untyped = PropertySpec("m", "metric", tuple(InputSpec(n) for n in METRIC_TIME_PARAMS))
    assert untyped.shape == ("metric", False, False)
    # A metric's typed time parameters are the metric rules' to check, not check_types'.
    typed_time = PropertySpec("m", "metric", (InputSpec("step", ParamType.STRING),))
    assert typed_time.shape == ("metric", False, False)
    typed = PropertySpec("o", "operator", (InputSpec("n", ParamType.INTEGER),))
    assert typed.shape == ("operator", True, False)
    # Left out, the type rule would have let this through.
    assert [v.rule for v in registry.validate(typed, {"n": "5"})] == ["7.3.2"]
    schemed = PropertySpec("o", "operator", (InputSpec("n", None, {"minimum": 1}),))
    assert schemed.shape == ("operator", False, True)
    assert [v.rule for v in registry.validate(schemed, {"n": 0})] == ["5.3.2"]
