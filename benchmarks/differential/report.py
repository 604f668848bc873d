"""The differential's report: counts, every violation, the allowlist, the peer's blind spots."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.differential.allowlist import ALLOWED
from benchmarks.differential.run import SETS, Result, Violation


def summary(result: Result) -> dict[str, Any]:
    """The counts, as JSON-ready data."""
    plain = result.texts["plain"]
    return {
        "peer": f"dateparser {result.peer_version}",
        "seconds": round(result.seconds, 1),
        "texts": {name: result.texts[name] for name in SETS} | {"total": result.texts.total()},
        "peer_mentions": {name: result.mentions[name] for name in SETS},
        "texts_with_peer_mentions": {name: result.peer_texts[name] for name in SETS},
        "scanner_200": {name: result.settled[name] for name in SETS},
        "excused_words": dict(sorted(result.excused.items())),
        "violations": len(result.violations),
        "scanner_misses": len(result.misses),
        "peer_false_positives": len(result.false_positives),
        "insert_misses": len(result.insert_misses),
        "stale_allowlist_entries": len(result.stale_allowlist),
        "peer_false_positive_rate_on_plain": round(result.peer_texts["plain"] / plain, 3)
        if plain
        else None,
    }


def as_json(result: Result) -> str:
    """The whole report as JSON."""
    body = summary(result) | {
        "misses": [_row(v) for v in result.misses],
        "peer_false_positives": [_row(v) for v in result.false_positives],
        "insert_misses": [_row(v) for v in result.insert_misses],
        "stale_allowlist": result.stale_allowlist,
        "plain_mentions": result.plain_mentions,
        "peer_blind_inserts": _blind(result),
    }
    return json.dumps(body, ensure_ascii=False, indent=1)


def as_markdown(result: Result) -> str:
    """The report a reader reads: counts, then every list."""
    counts = summary(result)
    lines = [
        f"# Time scanner vs {counts['peer']} ({counts['seconds']} s)",
        "",
        "| set | texts | peer mentions | texts with a mention | scanner 200 |",
        "|---|---|---|---|---|",
    ]
    lines.extend(
        f"| {name} | {result.texts[name]} | {result.mentions[name]} | "
        f"{result.peer_texts[name]} | {result.settled[name]} |"
        for name in SETS
    )
    lines += [
        "",
        (
            f"Violations: {len(result.violations)} = scanner misses {len(result.misses)} + "
            f"reviewed peer false positives {len(result.false_positives)}. Words excused by "
            f"the filters: {counts['excused_words']}. Generated texts settled without their "
            f"inserted material (insert check): {len(result.insert_misses)}. Peer "
            f"false-positive rate on texts with no time: "
            f"{counts['peer_false_positive_rate_on_plain']}."
        ),
        "",
        "## Scanner misses (peer mention outside the scanner's spans)",
        "",
        *_table(result.misses),
        "",
        "## Scanner misses (inserted material outside the scanner's spans)",
        "",
        *_table(result.insert_misses),
        "",
        "## Reviewed peer false positives (allowlist)",
        "",
        *[f"- `{e.text}` / `{e.mention}`: {e.reason}" for e in ALLOWED],
        "",
    ]
    if result.stale_allowlist:
        lines += ["## Stale allowlist entries (no longer met)", ""]
        lines += [f"- `{text}` / `{mention}`" for text, mention in result.stale_allowlist]
        lines.append("")
    lines += ["## Peer mentions on texts with no time", ""]
    lines += [f"- `{text}`: `{mention}`" for text, mention in result.plain_mentions]
    lines += ["", "## Inserts the peer never reported (only the insert check sees them)", ""]
    lines.append(", ".join(f"`{insert}`" for insert in _blind(result)) or "(none)")
    return "\n".join(lines) + "\n"


def _blind(result: Result) -> list[str]:
    return [insert for insert in result.insert_runs if not result.insert_seen[insert]]


def _table(violations: list[Violation]) -> list[str]:
    if not violations:
        return ["(none)"]
    rows = ["| source | text | mention | not understood | scanner read | window |"]
    rows.append("|---|---|---|---|---|---|")
    rows.extend(
        f"| {v.source} | `{v.text}` | `{v.mention}` | {' '.join(v.uncovered)} | "
        f"{' · '.join(v.read)} | {v.window} |"
        for v in violations
    )
    return rows


def _row(v: Violation) -> dict[str, Any]:
    return {
        "source": v.source,
        "text": v.text,
        "mention": v.mention,
        "uncovered": list(v.uncovered),
        "read": list(v.read),
        "spans": [list(span) for span in v.spans],
        "window": v.window,
        "allowed": v.allowed,
    }
