"""The request model's own checks (params/models.py: `ResolveRequest`): the options a request
did not send, and the consistency of `dynamic_params` and `operator_schemas` with the
requested properties."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from resolver.params.models import ResolveOptions, ResolveRequest


def _request(**fields: Any) -> ResolveRequest:
    body: dict[str, Any] = {
        "logic_properties": [
            {
                "name": "sales",
                "type": "metric",
                "parameters": [
                    {"name": "start", "value_from": "input"},
                    {"name": "region", "type": "STRING", "value_from": "input"},
                    {"name": "company_id", "value_from": "property"},
                ],
            },
            {
                "name": "rank",
                "type": "operator",
                "parameters": [{"name": "top_n", "type": "INTEGER", "value_from": "input"}],
            },
        ],
        "query": "上个月的销量",
    }
    body.update(fields)
    return ResolveRequest.model_validate_json(orjson.dumps(body))


def _message(**fields: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        _request(**fields)
    [error] = caught.value.errors(include_url=False)
    assert error["loc"] == ()
    return str(error["msg"])


def test_requests_without_options_share_one_that_cannot_change() -> None:
    first, second = _request(), _request()
    assert first.options is second.options
    assert first.options == ResolveOptions()
    with pytest.raises(ValidationError):
        first.options.return_debug = True  # type: ignore[misc]
    assert second.options.return_debug is False


def test_options_sent_are_the_requests_own() -> None:
    asked = _request(options={"return_debug": True, "max_concurrency": 2})
    assert asked.options.return_debug is True
    assert asked.options.max_concurrency == 2
    assert asked.options is not _request().options
    assert "options" in asked.model_fields_set
    assert "options" not in _request().model_fields_set


def test_caller_values_of_declared_inputs_pass() -> None:
    request = _request(dynamic_params={"sales": {"start": 1, "region": "east"}, "rank": {}})
    assert request.dynamic_params == {"sales": {"start": 1, "region": "east"}, "rank": {}}


def test_caller_values_for_other_keys_name_them_in_the_order_sent() -> None:
    keys = ["g", "company_id", "b", "f", "e", "d", "c"]
    message = _message(dynamic_params={"sales": {"region": "east", **dict.fromkeys(keys, 1)}})
    assert message == (
        "Value error, rule 3.1.1: dynamic_params.sales has 'g', 'company_id', 'b', 'f', 'e' "
        "(+2 more), not inputs of sales (inputs: region, start)"
    )


def test_an_operator_without_inputs_says_none() -> None:
    request_fields = {"dynamic_params": {"rank": {"top_n": 3}}}
    assert _request(**request_fields).dynamic_params == {"rank": {"top_n": 3}}
    message = _message(
        logic_properties=[{"name": "noop", "type": "operator"}],
        dynamic_params={"noop": {"x": 1}},
    )
    assert message.endswith("not inputs of noop (inputs: none)")


def test_caller_values_and_schemas_must_name_requested_properties() -> None:
    assert _message(dynamic_params={"profit": {}}) == (
        "Value error, dynamic_params names 'profit', which is not a requested property"
    )
    assert _message(operator_schemas={"sales": {"type": "object"}}) == (
        "Value error, operator_schemas names 'sales', which is not a requested operator"
    )
    assert _request(operator_schemas={"rank": {"type": "object"}}).operator_schemas


def test_duplicate_property_names_are_listed_once_each() -> None:
    definition = {"name": "a", "type": "metric"}
    other = {"name": "b", "type": "metric"}
    message = _message(logic_properties=[definition, other, definition, other, definition])
    assert message == "Value error, duplicate logic property names: a, b"
