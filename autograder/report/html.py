"""The class report: one self-contained HTML file, its plots embedded as PNG, no network needed."""

from __future__ import annotations

import base64
import html
import io
import os.path
import statistics
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from autograder.after_grading.student_feedback import feedback_path
from autograder.errors import AutograderError
from autograder.grading.gradebook import Entry
from autograder.manual.shown import report_section
from autograder.manual.totals import Totals

if TYPE_CHECKING:
    from autograder.course.course import Course

SECTIONS = (
    "summary", "students", "histogram", "pass-rates", "parts", "misconceptions", "failures",
    "ungradable", "slowest",
)  # fmt: skip
LABEL_WIDTH = 48
"""Characters per line of a test's label on the pass-rate plot (two lines at most)."""


@dataclass(frozen=True)
class KnownMistake:
    """A catalogued misconception, as the report tallies it: a hint that holds its summary and
    its hint text was given for it."""

    name: str
    summary: str
    hint: str

    def named_in(self, hint: str) -> bool:
        return self.summary in hint and self.hint in hint


def known_mistakes(course: Course | None, assignment: str) -> list[KnownMistake]:
    """The assignment's catalogued misconceptions to tally (none outside its course)."""
    if course is None or assignment not in {a.name for a in course.assignments}:
        return []
    catalogue = course.assignment(assignment).load_catalogue()
    return [KnownMistake(m.name, m.summary, m.hint) for m in catalogue]


def feedback_links(
    entries: Sequence[Entry], feedback: Path, assignment: str, report: Path
) -> dict[str, str]:
    """Student → the address of their file in the `feedback` folder, relative to the `report`
    file, for each student who has one there."""
    links = {}
    for entry in entries:
        page = feedback_path(feedback, assignment, entry.student)
        if page.is_file():
            relative = os.path.relpath(page, report.resolve().parent)
            links[entry.student] = quote(Path(relative).as_posix())
    return links


def render_class_report(
    entries: Sequence[Entry],
    *,
    title: str,
    mistakes: Sequence[KnownMistake] = (),
    feedback_links: Mapping[str, str] | None = None,
    totals: Mapping[str, Totals] | None = None,
) -> str:
    """The report; `mistakes` to tally from the recorded hints, and `feedback_links` (student →
    relative address of their feedback file) for each student's row."""
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
    body.append(_section("students", "Students", _students(entries, feedback_links or {})))
    if totals and any(t.manual or t.overridden for t in totals.values()):
        heading = "Totals with written answers and overrides"
        body.append(_section("totals", heading, report_section(totals)))

    figure, axes = plt.subplots(figsize=(7, 3))
    axes.hist(scores, bins=min(20, max(5, len(scores))), range=(0, most or 1), color="#3b6ea5")
    axes.set_xlabel("final score")
    axes.set_ylabel("submissions")
    body.append(_section("histogram", "Score distribution", _image(figure, plt)))

    rates = _pass_rates(graded)
    figure, axes = plt.subplots(figsize=(9, max(2.5, 0.4 * len(rates))))
    axes.barh(range(len(rates)), [rate for _, rate in rates], color="#c0504d")
    axes.set_yticks(range(len(rates)), [plot_label(name) for name, _ in rates], fontsize=7)
    axes.set_xlim(0, 100)
    axes.margins(y=0.01)
    axes.set_xlabel("% of graded submissions passing")
    axes.invert_yaxis()
    table = _table(["test", "passing"], [[name, f"{rate:.0f}%"] for name, rate in rates])
    body.append(
        _section("pass-rates", "Pass rate per test, worst first", _image(figure, plt) + table)
    )

    averages = _part_averages(graded)
    figure, axes = plt.subplots(figsize=(7, 3))
    axes.bar(list(averages), [a for a, _ in averages.values()], color="#9bbb59")
    axes.set_ylabel("average points")
    table = _table(
        ["part", "average", "of"], [[p, f"{a:.1f}", f"{m:g}"] for p, (a, m) in averages.items()]
    )
    body.append(_section("parts", "Average per part", _image(figure, plt) + table))

    body.append(
        _section(
            "misconceptions",
            "Known mistakes, by how many students made them",
            _mistakes(graded, mistakes, feedback_links or {}),
        )
    )

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
    head = (
        "<meta charset='utf-8'><meta http-equiv='Content-Security-Policy' content=\"default-src "
        "'none'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
    )
    return f"<!doctype html><html><head>{head}</head><body>{''.join(body)}</body></html>\n"


STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
    "#students td{white-space:nowrap}"
)


def plot_label(name: str) -> str:
    """A test's title for a plot axis: wrapped at word boundaries onto two lines at most, and
    shortened at a word boundary (with …) only when longer than that."""
    lines = textwrap.wrap(name, LABEL_WIDTH, break_long_words=False) or [""]
    if len(lines) > 2:
        rest = " ".join(lines[1:])
        lines = [lines[0], textwrap.shorten(rest, LABEL_WIDTH, placeholder=" …")]
    return "\n".join(lines)


def _students(entries: Sequence[Entry], links: Mapping[str, str]) -> str:
    if not entries:
        return "<p>None.</p>"
    parts = list(dict.fromkeys(p for e in entries for p in e.result.part_scores()))
    head = ["student", "status", "final score", "late penalty", *parts, "feedback"]
    rows = []
    for entry in entries:
        by_part = entry.result.part_scores()
        link = links.get(entry.student)
        cells = [
            html.escape(entry.student),
            html.escape(entry.result.status),
            f"{entry.final_score:g} / {entry.result.max_score:g}",
            f"{entry.late_penalty:g}" if entry.late_penalty else "",
            *[f"{by_part[p][0]:g}" if p in by_part else "" for p in parts],
            f"<a href='{html.escape(link, quote=True)}'>feedback</a>" if link else "",
        ]
        rows.append(cells)
    return _table([html.escape(h) for h in head], rows, escaped=True)


def _mistakes(
    graded: Sequence[Entry], mistakes: Sequence[KnownMistake], links: Mapping[str, str]
) -> str:
    if not mistakes:
        return "<p>This assignment has no catalogue of mistakes.</p>"
    who: dict[str, list[str]] = {m.name: [] for m in mistakes}
    for entry in graded:
        hints = [t.hint for t in entry.result.tests if t.hint]
        for mistake in mistakes:
            if any(mistake.named_in(hint) for hint in hints):
                who[mistake.name].append(entry.student)
    unexplained = [
        e.student
        for e in graded
        if any(t.status != "passed" for t in e.result.tests)
        and not any(t.hint for t in e.result.tests)
    ]
    ranked = sorted(mistakes, key=lambda m: (-len(who[m.name]), m.name))
    rows = [
        [
            str(len(who[m.name])),
            html.escape(m.name),
            html.escape(m.summary),
            ", ".join(_student_link(s, links) for s in who[m.name]),
        ]
        for m in ranked
        if who[m.name]
    ]
    table = _table(["students", "mistake", "what it is", "who"], rows, escaped=True)
    never = [m.name for m in ranked if not who[m.name]]
    notes = f"<p>Not seen in this class: {html.escape(', '.join(never))}.</p>" if never else ""
    if unexplained:
        names = ", ".join(_student_link(s, links) for s in unexplained)
        notes += f"<p>Lost points with no mistake recognised: {names}.</p>"
    return table + notes


def _student_link(student: str, links: Mapping[str, str]) -> str:
    link = links.get(student)
    name = html.escape(student)
    return f"<a href='{html.escape(link, quote=True)}'>{name}</a>" if link else name


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
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")  # type: ignore[attr-defined]
    plt.close(figure)  # type: ignore[attr-defined]
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img class='plot' alt='plot' src='data:image/png;base64,{data}'>"


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
