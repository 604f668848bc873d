"""resolver's validators are the top-level package `rules`; so is PyPI's unrelated `rules`
(django-rules). Both installed in one environment share one `rules/` folder: resolver works
whichever came last, django-rules only when it came last (its `rules/__init__.py` is the one on
disk). Installed here into one target folder, as pip lays them out, and run as the README
says (`make pytest` fetches the wheel into .venv/wheels/: this test stays offline)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, clean_env

WHEELS = ROOT / ".venv" / "wheels"
OURS = ROOT / "rules"

# django-rules' own API.
DJANGO_RULES_WORKS = (
    "import rules; rules.add_rule('can_edit', rules.always_allow); "
    "assert rules.test_rule('can_edit')"
)
# The README's first request, answered by `resolver resolve` (the rules check its values).
REQUEST = {
    "logic_properties": [
        {
            "name": "approved_drug_count",
            "type": "metric",
            "parameters": [
                {"name": n, "value_from": "input", "if_system_generate": True}
                for n in ("instant", "start", "end", "step")
            ],
        }
    ],
    "query": "最近3个月的药品数量趋势",
    "additional_context": "now_ms=1762996342241；timezone=Asia/Shanghai",
}


def _install(target: Path, staging: Path, *, ours_last: bool) -> None:
    """Both packages into `target` as pip lays a pure wheel into site-packages: each one's
    files written over whatever is there, nothing else removed."""
    wheels = sorted(WHEELS.glob("rules-3.5-*.whl"))
    assert wheels, "PyPI's rules wheel is missing: run `make .venv/wheels/.rules`"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps"),
            *("--target", str(staging), str(wheels[0])),
        ],
        check=True,
        env=clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1"),
    )

    def theirs() -> None:
        shutil.copytree(staging / "rules", target / "rules", dirs_exist_ok=True)

    def ours() -> None:
        (target / "rules").mkdir(parents=True, exist_ok=True)
        for module in OURS.glob("*.py"):
            shutil.copy(module, target / "rules" / module.name)

    for step in (theirs, ours) if ours_last else (ours, theirs):
        step()


def _runs(target: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        env=clean_env(PYTHONPATH=str(target)),
        cwd=target,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize("ours_last", [False, True], ids=["django-rules-last", "resolver-last"])
def test_both_rules_in_one_environment(tmp_path: Path, ours_last: bool) -> None:
    target = tmp_path / "site-packages"
    _install(target, tmp_path / "staging", ours_last=ours_last)
    (tmp_path / "request.json").write_text(json.dumps(REQUEST, ensure_ascii=False))
    where = _runs(target, "-c", "import rules.spec; print(rules.spec.__file__)")
    assert where.stdout.startswith(str(target)), where  # the shared folder's, not the checkout's
    answer = _runs(target, "-m", "resolver", "resolve", str(tmp_path / "request.json"))
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["dynamic_params"]["approved_drug_count"]["step"] == "month"
    theirs = _runs(target, "-c", DJANGO_RULES_WORKS)
    # django-rules' names live in its __init__.py: they are there only when it came last.
    assert (theirs.returncode == 0) is (not ours_last), theirs.stderr
