"""The demo knowledge network the fake upstreams serve (`make demo`, the docs' examples): the
object type `ot_company` of `kn_pharma` with its metric, operator and tool-box properties,
the operator and the tools behind them, and the actions of `company_000001` — as data, each
record in the shape the real service answers (docs/upstream-contracts.md)."""

from __future__ import annotations

from typing import Any

DEMO_KN = "kn_pharma"
DEMO_OT = "ot_company"
DEMO_OPERATOR_ID = "op-health-score"
DEMO_TOOL_AT = "at_assess_risk"
DEMO_MCP_AT = "at_notify_owner"
DEMO_BOX_ID = "box-risk"
DEMO_TOOL_ID = "tool-assess-risk"
DEMO_MCP_ID = "mcp-notify"
DEMO_MCP_TOOL = "send_notice"
DEMO_SCORE_BOX_ID = "box-credit"
DEMO_SCORE_TOOL_ID = "tool-credit-score"


def demo_object_type() -> dict[str, Any]:
    """A company object type with one metric and one operator (tool) logic property."""
    time_params = [
        {"name": n, "type": t, "value_from": "input", "if_system_generate": True}
        for n, t in (("instant", "BOOLEAN"), ("start", "INTEGER"), ("end", "INTEGER"))
    ]
    time_params.append(
        {"name": "step", "type": "STRING", "value_from": "input", "if_system_generate": True}
    )
    return {
        "id": DEMO_OT,
        "name": "公司",
        "primary_keys": ["company_id"],
        "data_properties": [
            {"name": "company_id", "type": "string"},
            {"name": "registered_capital", "type": "integer"},
        ],
        "logic_properties": [
            {
                "name": "approved_drug_count",
                "display_name": "获批药品数量",
                "type": "metric",
                "comment": "公司获批上市的药品数量",
                "data_source": {"type": "metric", "id": "metric_approved_drugs"},
                "parameters": [
                    *time_params,
                    {"name": "company_id", "type": "STRING", "value_from": "property"},
                ],
            },
            {
                "name": "business_health_score",
                "display_name": "经营健康度",
                "type": "tool",
                "comment": None,
                "data_source": {"type": "operator", "id": DEMO_OPERATOR_ID},
                "parameters": [
                    {"name": "company_id", "type": "STRING", "value_from": "property"},
                    {"name": "lang", "type": "STRING", "value_from": "input"},
                    {"name": "include_details", "type": "BOOLEAN", "value_from": "input"},
                    {"name": "items", "type": "ARRAY", "value_from": "input"},
                    {"name": "model", "type": "STRING", "value_from": "const", "value": "v2"},
                ],
            },
        ],
    }


def full_access(object_type: dict[str, Any]) -> dict[str, str]:
    """A permission plan granting `full` on every data property of the object type and on
    every data property its logic properties read."""
    names = [p["name"] for p in object_type.get("data_properties") or [] if "name" in p]
    for logic in object_type.get("logic_properties") or []:
        for param in logic.get("parameters") or []:
            if param.get("value_from") == "property":
                read = param.get("value") if param.get("value") is not None else param["name"]
                names.append(str(read))
    return dict.fromkeys(names, "full")


def demo_tool_property() -> dict[str, Any]:
    """A tool-box logic property (the current upstream form): `type: tool`, its schema at the
    tool-box tool `data_source.box_id`/`tool_id`, its company read from a data property."""
    return {
        "name": "credit_score",
        "display_name": "信用评分",
        "type": "tool",
        "comment": "企业信用评分",
        "data_source": {"type": "tool", "box_id": DEMO_SCORE_BOX_ID, "tool_id": DEMO_SCORE_TOOL_ID},
        "parameters": [
            {"name": "company", "type": "STRING", "value_from": "property", "value": "company_id"},
            {"name": "model", "type": "STRING", "value_from": "input"},
            {"name": "horizon_days", "type": "INTEGER", "value_from": "input"},
        ],
    }


def demo_score_tool() -> dict[str, Any]:
    """The tool-box tool behind `credit_score`, as operator-integration records it: the
    OpenAPI operation under `metadata.api_spec`, with a default and an enum."""
    return {
        "tool_id": DEMO_SCORE_TOOL_ID,
        "name": "credit_score",
        "description": "企业信用评分",
        "status": "enabled",
        "metadata_type": "openapi",
        "metadata": {
            "summary": "企业信用评分",
            "path": "/credit/score",
            "method": "POST",
            "api_spec": {
                "parameters": [
                    {
                        "name": "model",
                        "in": "query",
                        "required": True,
                        "description": "评分模型",
                        "schema": {"type": "string", "enum": ["basic", "advanced"]},
                    }
                ],
                "request_body": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "horizon_days": {
                                        "type": "integer",
                                        "default": 90,
                                        "description": "预测窗口（天）",
                                    }
                                },
                            }
                        }
                    }
                },
                "responses": [
                    {
                        "status_code": "200",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"score": {"type": "number"}},
                                }
                            }
                        },
                    }
                ],
            },
        },
    }


def demo_operator() -> dict[str, Any]:
    """The operator-market record of the demo operator: its OpenAPI operation under metadata."""
    return {
        "name": "business_health_score",
        "operator_id": DEMO_OPERATOR_ID,
        "version": "1",
        "status": "published",
        "metadata_type": "openapi",
        "metadata": {
            "summary": "企业经营健康度评分",
            "path": "/health/score",
            "method": "POST",
            "api_spec": {
                "parameters": [
                    {
                        "name": "lang",
                        "in": "query",
                        "required": True,
                        "description": "返回结果语言",
                        "schema": {"type": "string", "enum": ["zh-CN", "en-US"]},
                    }
                ],
                "request_body": {
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/HealthScoreRequest"}
                        }
                    }
                },
                "components": {
                    "schemas": {
                        "HealthScoreRequest": {
                            "type": "object",
                            "required": ["include_details", "items"],
                            "properties": {
                                "include_details": {"type": "boolean"},
                                "items": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                    "description": "评分维度, e.g. revenue, profit, growth",
                                },
                            },
                        }
                    }
                },
            },
        },
        "operator_info": {"operator_type": "basic", "execution_mode": "sync"},
    }


def demo_tool_actions() -> dict[str, Any]:
    """ontology-query's answer for the demo tool-box action type: fixed and LLM-filled values."""
    return {
        "actions": [
            {
                "parameters": {
                    "company_id": "company_000001",
                    "x-account-type": "user",
                    "lang": "zh-CN",
                },
                "dynamic_params": {"dimensions": None, "window_days": None},
            }
        ],
        "action_source": {"type": "tool", "box_id": DEMO_BOX_ID, "tool_id": DEMO_TOOL_ID},
    }


def demo_tool() -> dict[str, Any]:
    """The tool-box tool behind the demo action: path, query, header and body parameters."""
    return {
        "tool_id": DEMO_TOOL_ID,
        "name": "assess_company_risk",
        "description": "评估企业经营风险",
        "api_spec": {
            "parameters": [
                {
                    "name": "company_id",
                    "in": "path",
                    "required": True,
                    "description": "企业ID",
                    "schema": {"type": "string"},
                },
                {
                    "name": "lang",
                    "in": "query",
                    "description": "返回结果语言",
                    "schema": {"type": "string", "enum": ["zh-CN", "en-US"]},
                },
                {
                    "name": "x-account-type",
                    "in": "header",
                    "required": True,
                    "schema": {"type": "string"},
                },
            ],
            "request_body": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/RiskQuery"}}
                },
            },
            "responses": [
                {"status_code": "400", "content": {"application/json": {"schema": {}}}},
                {
                    "status_code": "200",
                    "description": "the assessment",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Risk"}}
                    },
                },
            ],
            "components": {
                "schemas": {
                    "Risk": {
                        "type": "object",
                        "required": ["level"],
                        "properties": {
                            "level": {
                                "type": "string",
                                "enum": ["low", "medium", "high"],
                                "description": "风险等级",
                            },
                            "dimensions": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/Dimension"},
                            },
                        },
                    },
                    "RiskQuery": {
                        "type": "object",
                        "required": ["dimensions"],
                        "properties": {
                            "dimensions": {
                                "type": "array",
                                "description": "风险维度",
                                "items": {"$ref": "#/components/schemas/Dimension"},
                            },
                            "window_days": {"type": "integer", "minimum": 1, "maximum": 3650},
                        },
                    },
                    "Dimension": {"type": "string", "enum": ["legal", "finance", "operation"]},
                }
            },
        },
    }


def demo_mcp_actions() -> dict[str, Any]:
    """ontology-query's answer for the demo MCP action type."""
    return {
        "actions": [
            {
                "parameters": {"company_id": "company_000001", "channel": "email"},
                "dynamic_params": {"message": None},
            }
        ],
        "action_source": {"type": "mcp", "mcp_id": DEMO_MCP_ID, "tool_name": DEMO_MCP_TOOL},
    }


def demo_mcp_tool() -> dict[str, Any]:
    """The MCP tool behind the demo MCP action: an inputSchema with `$defs`."""
    return {
        "name": DEMO_MCP_TOOL,
        "description": "通知企业负责人",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "Channel": {"type": "string", "enum": ["email", "sms"]},
                "Message": {
                    "type": "object",
                    "required": ["title"],
                    "properties": {
                        "title": {"type": "string", "maxLength": 80},
                        "body": {"type": "string"},
                    },
                },
            },
            "properties": {
                "company_id": {"type": "string"},
                "channel": {"$ref": "#/$defs/Channel"},
                "message": {"$ref": "#/$defs/Message"},
            },
            "required": ["company_id", "channel", "message"],
            "additionalProperties": False,
        },
        "annotations": {"destructiveHint": False},
    }
