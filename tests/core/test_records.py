"""`@record`: frozen for mypy, a plain slotted dataclass at run time (its point is the cheaper
`__init__`; `mypy` refuses writes to it in the code base)."""

from __future__ import annotations

import dataclasses

import pytest

from resolver.core.records import record
from resolver.params.frame import Frame
from resolver.params.resolution import Resolved


@record
class _Pair:
    left: int
    right: str = "r"


def test_a_record_is_a_slotted_dataclass_compared_by_its_fields() -> None:
    pair = _Pair(1)
    assert dataclasses.is_dataclass(pair)
    assert pair == _Pair(1, "r")
    assert pair != _Pair(2)
    assert dataclasses.replace(pair, right="s") == _Pair(1, "s")
    with pytest.raises(AttributeError):
        pair.extra = 1  # type: ignore[attr-defined]  # slots: no new attributes


@pytest.mark.parametrize("cls", [_Pair, Frame, Resolved])
def test_records_are_built_without_the_frozen_init(cls: type) -> None:
    # A frozen dataclass writes each field through object.__setattr__ (Frame: 2.0 against
    # 0.7 µs a request); mypy, not the run time, keeps records unwritten.
    assert not cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert "__slots__" in vars(cls)
