"""The class report: one self-contained HTML file, its plots embedded as PNG, no network needed."""

from __future__ import annotations

import base64
import html
import io
import statistics
from collections import Counter
from collections.abc import Sequence

from autograder.errors import AutograderError
from autograder.grading.gradebook import Entry

SECTIONS = ("summary", "histogram", "pass-rates", "parts", "failures", "ungradable", "slowest")


def render_class_report(entries: Sequence[Entry], *, title: str) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AutograderError(
            "the class report needs matplotlib: pip install 'transformer-maths-autograder[report]'"
        ) from None
    graded = [e for e in entries if e.result.status == "graded"]
    scores = [e.final_score for e in graded]
    most = graded[0].result.max_score if graded else 0.0
    body = [f"<h1>{html.escape(title)}</h1>"]
    body.append(_section("summary", "Summary", _summary(entries, scores, most)))

    figure, axes = plt.subplots(figsize=(7, 3))
    axes.hist(scores, bins=min(20, max(5, len(scores))), range=(0, most or 1), color="#3b6ea5")
    axes.set_xlabel("final score")
    axes.set_ylabel("submissions")
    body.append(_section("histogram", "Score distribution", _image(figure, plt)))

    rates = _pass_rates(graded)
    figure, axes = plt.subplots(figsize=(8, max(2.5, 0.22 * len(rates))))
    axes.barh([name[:60] for name, _ in rates], [rate for _, rate in rates], color="#c0504d")
    axes.set_xlim(0, 100)
    axes.set_xlabel("% of graded submissions passing")
    axes.invert_yaxis()
    body.append(_section("pass-rates", "Pass rate per test, worst first", _image(figure, plt)))

    averages = _part_averages(graded)
    figure, axes = plt.subplots(figsize=(7, 3))
    axes.bar(list(averages), [a for a, _ in averages.values()], color="#9bbb59")
    axes.set_ylabel("average points")
    table = _table(
        ["part", "average", "of"], [[p, f"{a:.1f}", f"{m:g}"] for p, (a, m) in averages.items()]
    )
    body.append(_section("parts", "Average per part", _image(figure, plt) + table))

    messages = Counter(
        t.hint or t.message or t.status
        for e in graded
        for t in e.result.tests
        if t.status != "passed"
    )
    rows = [[str(count), html.escape(text[:200])] for text, count in messages.most_common(15)]
    body.append(
        _section(
            "failures",
            "Most frequent failures and hints",
            _table(["count", "message or hint"], rows, escaped=True),
        )
    )

    rows = [
        [html.escape(e.student), e.result.status, html.escape(e.result.message or "")]
        for e in entries
        if e.result.status != "graded"
    ]
    rows += [
        [
            html.escape(e.student),
            "timeout",
            f"{sum(t.status == 'timeout' for t in e.result.tests)} test(s)",
        ]
        for e in graded
        if any(t.status == "timeout" for t in e.result.tests)
    ]
    body.append(
        _section(
            "ungradable",
            "Ungradable and timed-out submissions",
            _table(["submission", "status", "why"], rows, escaped=True),
        )
    )

    slowest = sorted(entries, key=lambda e: -e.result.duration_s)[:10]
    rows = [[e.student, f"{e.result.duration_s:.2f} s", e.result.status] for e in slowest]
    body.append(
        _section(
            "slowest", "Slowest submissions", _table(["submission", "grading time", "status"], rows)
        )
    )
    head = f"<meta charset='utf-8'><title>{html.escape(title)}</title><style>{STYLE}</style>"
    return f"<!doctype html><html><head>{head}</head><body>{''.join(body)}</body></html>\n"


STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
)


def _summary(entries: Sequence[Entry], scores: list[float], most: float) -> str:
    counts = Counter(e.result.status for e in entries)
    rows = [
        ["submissions", str(len(entries))],
        *[[status, str(n)] for status, n in sorted(counts.items())],
    ]
    if scores:
        rows += [
            ["mean", f"{statistics.mean(scores):.1f} / {most:g}"],
            ["median", f"{statistics.median(scores):.1f}"],
        ]
        rows += [["late penalties", str(sum(1 for e in entries if e.late_penalty))]]
    return _table(["", ""], rows)


def _pass_rates(graded: Sequence[Entry]) -> list[tuple[str, float]]:
    passed: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for entry in graded:
        for test in entry.result.tests:
            seen[test.name] += 1
            passed[test.name] += test.status == "passed"
    return sorted(
        ((name, 100 * passed[name] / seen[name]) for name in seen), key=lambda item: item[1]
    )


def _part_averages(graded: Sequence[Entry]) -> dict[str, tuple[float, float]]:
    totals: dict[str, list[float]] = {}
    most: dict[str, float] = {}
    for entry in graded:
        for part, (score, of) in entry.result.part_scores().items():
            totals.setdefault(part, []).append(score)
            most[part] = of
    return {part: (statistics.mean(values), most[part]) for part, values in totals.items()}


def _image(figure: object, plt: object) -> str:
    buffer = io.BytesIO()
    figure.tight_layout()  # type: ignore[attr-defined]
    figure.savefig(buffer, format="png", dpi=90)  # type: ignore[attr-defined]
    plt.close(figure)  # type: ignore[attr-defined]
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img alt='plot' src='data:image/png;base64,{data}'>"


def _table(head: list[str], rows: list[list[str]], *, escaped: bool = False) -> str:
    def cell(text: str) -> str:
        return text if escaped else html.escape(text)

    if not rows:
        return "<p>None.</p>"
    header = "".join(f"<th>{cell(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{header}</tr>{body}</table>"


def _section(key: str, heading: str, content: str) -> str:
    return f"<section id='{key}'><h2>{html.escape(heading)}</h2>{content}</section>"
