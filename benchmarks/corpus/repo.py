"""Reading a peer's repository for a corpus conversion: a checkout, or a bare git directory (a
`fetch` mirror) at a commit; and writing the converted rows."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any


def open_repo(
    root: Path, commit: str, *, marker: str, encoding: str = "utf-8"
) -> tuple[str, Callable[[str], str]]:
    """(the resolved commit, or `checkout` when `root` holds `marker`; read(path) -> text)."""
    if (root / marker).exists():
        return "checkout", lambda path: (root / path).read_text(encoding=encoding)

    def show(path: str) -> str:
        out = subprocess.run(
            ["git", f"--git-dir={root}", "show", f"{commit}:{path}"],
            check=True,
            capture_output=True,
        )
        return out.stdout.decode(encoding)

    resolved = subprocess.run(
        ["git", f"--git-dir={root}", "rev-parse", commit],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return resolved, show


def render(rows: list[dict[str, Any]]) -> str:
    """One JSON object per line, UTF-8 text as is."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_or_check(target: Path, rows: list[dict[str, Any]], *, check: bool, said: str) -> int:
    """Write the rows to `target` (printing `said`), or with `check` compare them with it:
    1 when they differ, else 0."""
    text = render(rows)
    if check:
        same = target.is_file() and target.read_text(encoding="utf-8") == text
        print(f"{target.name}: {'same' if same else 'DIFFERS'}")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"{target.name}: {said}")
    return 0
