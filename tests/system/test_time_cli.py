"""`resolver time` as a subprocess: a human line by default, the `/v1/time-window` body with
--json, --jsonl for many texts in one process, and its exits — 0 settled, 2 unsettled, 1 an
error (a bad flag included: argparse's own 2 would read as "unsettled")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import NOW_MS, ROOT, clean_env

pytestmark = pytest.mark.slow

LAST_QUARTER = (1_751_299_200_000, 1_759_247_999_999)  # 2025-07-01 .. 2025-09-30, +08:00


def run(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "resolver", "time", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(**env),
        timeout=60,
        check=False,
    )


def test_a_human_line_by_default() -> None:
    done = run("上个季度", "--now", str(NOW_MS))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "上个季度：2025-07-01 00:00 至 2025-09-30 23:59:59.999（Asia/Shanghai），按季度"
        f"  start={LAST_QUARTER[0]} end={LAST_QUARTER[1]} unit=ms\n"
    )


def test_the_body_with_json_in_seconds_at_an_iso_clock_and_zone() -> None:
    done = run("last week", "--now", "2025-11-13T09:00", "--tz", "纽约", "--unit", "s", "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["timezone"] == "America/New_York"
    assert body["now"] == 1_763_042_400  # 2025-11-13T09:00-05:00, the naive clock in --tz
    assert (body["start_iso"], body["unit"]) == ("2025-11-03T00:00:00.000-05:00", "s")
    assert body["start"] == 1_762_146_000
    assert body["trace_id"]


def test_the_context_and_the_callers_step() -> None:
    done = run(
        "最近", "--context", "今天是2025年11月13日；2024年1月至3月", "--step", "day", "--json"
    )
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert (body["expression"], body["step"]) == ("2024-01..2024-03", "day")


def test_an_unsettled_text_exits_2_with_its_ask() -> None:
    done = run("2024年3月前后", "--now", "2025-11-13")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("无法确定时间：“前后”；请改写 text")
    done = run("2024年3月前后", "--now", "2025-11-13", "--json")
    assert done.returncode == 2
    body = json.loads(done.stdout)
    assert (body["error"]["code"], body["unread"]) == ("TIME_UNSETTLED", ["前后"])


@pytest.mark.parametrize(
    "args",
    [
        ("上个月", "--tz", "Atlantis"),
        ("上个月", "--now", "yesterday-ish"),
        ("上个月", "--now", "1000"),  # 1970: outside 2000..2100
        ("上个月", "--unit", "h"),
        ("上个月", "--surprise"),
        (),
    ],
    ids=["zone", "now", "now-range", "unit", "flag", "no-text"],
)
def test_an_error_exits_1(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr


def test_an_invalid_configuration_exits_1() -> None:
    done = run("上个月", RESOLVER_DEFAULT_TIMEZONE="Mars/Base")
    assert done.returncode == 1
    assert "RESOLVER_DEFAULT_TIMEZONE" in done.stderr


def test_many_texts_in_one_process() -> None:
    lines = "\n".join(
        [
            json.dumps({"text": "上个季度"}),
            "",
            json.dumps({"text": "last month", "timezone": "UTC", "unit": "s"}),
            json.dumps({"text": "前后的销量"}),
            "[1]",
            json.dumps({"text": "上个月", "surprise": 1}),
        ]
    )
    done = run("--jsonl", "-", "--now", str(NOW_MS), stdin=lines)
    assert done.returncode == 1  # the worst of 0, 2 and 1
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("start") for a in answers[:2]] == [LAST_QUARTER[0], 1_759_276_800]
    assert [a.get("error", {}).get("code") for a in answers[2:]] == [
        "TIME_UNSETTLED",
        "BAD_REQUEST",
        "BAD_REQUEST",
    ]
    assert answers[0]["now"] == NOW_MS  # the flags give what a line leaves out


def test_a_jsonl_line_past_the_body_limit_is_refused_unread_and_the_rest_answered() -> None:
    # Once the whole input was read into memory at once, whatever its size (issue 30).
    long_line = json.dumps({"text": "上个季度", "pad": "x" * 3000})
    lines = "\n".join(
        [json.dumps({"text": "上个季度"}), long_line, json.dumps({"text": "上个季度"})]
    )
    done = run("--jsonl", "-", "--now", str(NOW_MS), stdin=lines, RESOLVER_MAX_BODY_BYTES="2048")
    assert done.returncode == 1, done.stderr  # an error among the answers
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("start") for a in answers] == [LAST_QUARTER[0], None, LAST_QUARTER[0]]
    assert answers[1]["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert "RESOLVER_MAX_BODY_BYTES" in answers[1]["_error"]
