"""Pure validators for metric and operator dynamic_params: no I/O, no logging, nothing of
resolver. Each returns `Violation`s naming their rule (`rule 7.2.3: step must be …`);
`registry.py` runs them in a fixed order per property kind.

Every rule number resolver cites — here, in the LLM's answer reader (`llm/answers.py`) or in
the stages of `params/` — is one of these (tests/test_layout.py checks both ways):

    3.1.1  only declared inputs: no key the property does not take
    3.1.2  the LLM generates every open input it is asked for, or names it in `_error`
    4.1.2  a metric's time inputs: `instant`, and with `instant=false` `start`, `end`, `step`
    4.3.1  an operator's inputs are all required
    5.1.2  output is flat per property, never grouped by header/query/path/body
    5.3.2  values satisfy the operator's schema (type, enum, bounds, pattern, format, keys, …)
    6.1.1  the LLM's answer holds one JSON object
    6.1.2  the property's value in it is a JSON object
    6.1.3  its top level holds only the property
    6.1.4  a missing-input answer holds only the `_error` string, bounded
    6.2.1  `_error` reads `missing <property>: <p1>,<p2> | ask: <sentence>`
    7.2.1  `instant` is a boolean
    7.2.2  `start` and `end` are integer ms within 2000..2100, `start <= end`
    7.2.3  `step` is one of day/week/month/quarter/year
    7.2.4  `instant=true` carries no `step`
    7.3.1  a metric's business inputs are present
    7.3.2  STRING, INTEGER, NUMBER and BOOLEAN values have exactly their type
    7.3.3  OBJECT and ARRAY values are a JSON object and a JSON array

May import: the standard library and third-party libraries; nothing of resolver.
"""
