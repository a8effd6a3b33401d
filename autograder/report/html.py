"""The class report: one self-contained HTML file, its plots embedded as PNG, no network needed."""

from __future__ import annotations

import base64
import html
import io
import os.path
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from autograder.after_grading.final_grade import FinalGrade, recorded_grade, written_text
from autograder.after_grading.student_feedback import feedback_path
from autograder.errors import AutograderError
from autograder.grading.gradebook import Entry
from autograder.safe_text import shorten
from autograder.status_words import (
    SUBMISSION_MEANINGS,
    SUBMISSION_WORDS,
    submission_status,
    submission_word,
    word_for_test,
)

if TYPE_CHECKING:
    from autograder.course.course import Course
    from autograder.course.rubric import Part

SECTIONS = (
    "summary", "students", "histogram", "pass-rates", "parts", "misconceptions", "failures",
    "ungradable", "slowest",
)  # fmt: skip


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


def rubric_parts(course: Course | None, assignment: str) -> tuple[Part, ...]:
    """The assignment's parts in the rubric's order (none outside its course)."""
    if course is None or assignment not in {a.name for a in course.assignments}:
        return ()
    return course.assignment(assignment).spec.parts


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
    parts: Sequence[Part] = (),
    grades: Mapping[str, FinalGrade] | None = None,
) -> str:
    """The report; `mistakes` to tally from the recorded hints, `feedback_links` (student →
    relative address of their feedback file) for each student's row, the rubric's `parts`
    (their order and maxima; without them, the order the results name them in), and each
    student's final grade (after_grading/final_grade.py; without them, the scores and late
    penalties the last `grade` run recorded)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AutograderError(
            "the class report needs matplotlib: pip install 'transformer-maths-autograder[report]'"
        ) from None
    final = {_key(e): (grades or {}).get(e.student) or recorded_grade(e) for e in entries}
    graded = [e for e in entries if e.result.status == "graded"]
    scores = [final[_key(e)].final for e in graded]
    most = final[_key(graded[0])].maximum if graded else 0.0
    columns = _part_columns(entries, parts)
    links = feedback_links or {}
    body = [_section("summary", "Summary", _summary(entries, final, scores, most))]
    body.append(_section("students", "Students", _students(entries, final, links, columns)))
    body.append(_section("histogram", "Score distribution", _histogram(plt, scores, most)))
    if any(g.written or g.overridden for g in final.values()):
        heading = "Final grades with written answers and overrides"
        body.append(_section("totals", heading, _totals(final)))
    body.append(
        _section("pass-rates", "Pass rate per part and per test", _pass_rates(plt, graded, columns))
    )
    body.append(_section("parts", "Average per part", _averages(plt, graded, columns)))
    body.append(
        _section(
            "misconceptions",
            "Known mistakes, by how many students made them",
            _mistakes(graded, mistakes, links),
        )
    )
    messages = Counter(
        t.hint or t.message or word_for_test(t.status)
        for e in graded
        for t in e.result.tests
        if t.status != "passed"
    )
    rows = [
        [str(count), html.escape(shorten(text, MESSAGE_WIDTH))]
        for text, count in messages.most_common(15)
    ]
    body.append(
        _section(
            "failures",
            "Most frequent failures and hints",
            _table(["tests lost", "message or hint"], rows, escaped=True),
        )
    )
    body.append(
        _section(
            "ungradable",
            "Submissions not fully graded: ungradable, grader errors, timed out",
            _not_fully_graded(entries),
        )
    )
    slowest = sorted(entries, key=lambda e: -e.result.duration_s)[:10]
    rows = [[e.student, f"{e.result.duration_s:.2f} s", submission_word(e.result)] for e in slowest]
    body.append(
        _section(
            "slowest", "Slowest submissions", _table(["submission", "grading time", "status"], rows)
        )
    )
    head = (
        "<meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src "
        "'none'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
    )
    contents = "".join(
        f"<li><a href='#{key}'>{html.escape(heading)}</a></li>" for key, heading in CONTENTS
    )
    header = (
        f"<header><h1>{html.escape(title)}</h1>"
        f"<nav aria-label='Sections'><ul class='contents'>{contents}</ul></nav></header>"
    )
    page = f"<head>{head}</head><body>{header}<main>{''.join(body)}</main></body>"
    return f"<!doctype html><html lang='en'>{page}</html>\n"


BINS = 10
"""Bars of the score histogram: each a tenth of the maximum."""
MESSAGE_WIDTH = 200
"""Characters of a message in the table of frequent failures (cut at a word, with …)."""
CONTENTS = (
    ("summary", "Summary"), ("students", "Students"), ("histogram", "Scores"),
    ("pass-rates", "Pass rates"), ("parts", "Parts"), ("misconceptions", "Known mistakes"),
    ("failures", "Frequent failures"), ("ungradable", "Not fully graded"),
    ("slowest", "Slowest"),
)  # fmt: skip
STYLE = (
    "body{font-family:sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#111}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #999;"
    "padding:.2em .6em;text-align:left;vertical-align:top}th{background:#eef}"
    "th[scope=row]{font-weight:normal;background:#f7f7fb}"
    "#students td{white-space:nowrap}.contents{display:flex;flex-wrap:wrap;gap:.4em 1.5em;"
    "list-style:none;padding:0}.figure{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}"
    ".figure img{max-width:100%}.group th[scope=rowgroup]{background:#f4f4f4}"
)


@dataclass(frozen=True)
class PartColumn:
    """A part as the report heads it: its name, and its maximum when the rubric gives one."""

    name: str
    points: float | None

    @property
    def label(self) -> str:
        return self.name if self.points is None else f"{self.name} ({self.points:g})"


def _part_columns(entries: Sequence[Entry], parts: Sequence[Part]) -> list[PartColumn]:
    """The rubric's parts in its order, then any part only the results name."""
    columns = [PartColumn(p.name, p.points) for p in parts]
    known = {p.name for p in parts}
    seen = dict.fromkeys(p for e in entries for p in e.result.part_scores() if p not in known)
    return columns + [PartColumn(name, None) for name in seen]


def _key(entry: Entry) -> tuple[str, str]:
    """An entry's place among the report's (entries of several assignments may be given)."""
    return entry.assignment, entry.student


def _students(
    entries: Sequence[Entry],
    final: Mapping[tuple[str, str], FinalGrade],
    links: Mapping[str, str],
    parts: list[PartColumn],
) -> str:
    if not entries:
        return "<p>None.</p>"
    most = max(final[_key(e)].maximum for e in entries)
    head = ["student", "status", f"final score (of {most:g})", "late penalty"]
    head += [p.label for p in parts] + ["feedback"]
    rows = []
    for entry in entries:
        by_part = entry.result.part_scores()
        link = links.get(entry.student)
        name = html.escape(entry.student)
        cells = [
            name,
            html.escape(submission_word(entry.result)),
            f"{final[_key(entry)].final:g}",
            f"{final[_key(entry)].late_penalty:g}" if final[_key(entry)].late_penalty else "",
            *[f"{by_part[p.name][0]:g}" if p.name in by_part else "" for p in parts],
            f"<a href='{html.escape(link, quote=True)}'>feedback for {name}</a>" if link else "",
        ]
        rows.append(cells)
    return _table([html.escape(h) for h in head], rows, escaped=True, row_headers=True)


def _histogram(plt: Any, scores: list[float], most: float) -> str:
    if not scores:
        return "<p>No submission was graded.</p>"
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(7, 3))
    counts, edges, _ = axes.hist(scores, bins=BINS, range=(0, most or 1), color="#3b6ea5",
                                 edgecolor="white")  # fmt: skip
    axes.set_xlabel("final score", fontsize=11)
    axes.set_ylabel("submissions", fontsize=11)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.tick_params(labelsize=10)
    last = len(counts) - 1
    ranges = [
        (f"{low:.3g} to {'' if n == last else 'under '}{high:.3g}", int(count))
        for n, (low, high, count) in enumerate(zip(edges[:-1], edges[1:], counts, strict=True))
    ]
    filled = [(span, count) for span, count in ranges if count]
    alt = (
        f"Histogram of the final scores of {len(scores)} graded submissions, out of {most:g}: "
        f"from {min(scores):g} to {max(scores):g}, mean {statistics.mean(scores):.1f}. "
        + "; ".join(f"{count} scored {span}" for span, count in filled)
        + "."
    )
    table = _table(
        ["score range", "submissions"], [[span, str(count)] for span, count in filled],
        caption="Ranges holding at least one submission (the others hold none)",
    )  # fmt: skip
    return _figure(_image(figure, plt, alt), table)


def _pass_rates(plt: Any, graded: Sequence[Entry], parts: list[PartColumn]) -> str:
    """One bar per part (the share of its tests' runs that passed), and a table of every test
    grouped by part, worst first within each."""
    tests = _test_rates(graded)
    if not tests:
        return "<p>No test ran.</p>"
    order = {p.name: n for n, p in enumerate(parts)}
    labels = {p.name: p.label for p in parts}
    by_part: dict[str, list[TestRate]] = {}
    for rate in sorted(tests, key=lambda r: (order.get(r.part, len(order)), r.rate, r.name)):
        by_part.setdefault(rate.part, []).append(rate)
    shares = {
        part: 100 * sum(r.passed for r in rates) / sum(r.runs for r in rates)
        for part, rates in by_part.items()
    }
    names = [labels.get(part, part) for part in by_part]
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(names) + 1.2))
    bars = axes.barh(range(len(names)), list(shares.values()), color="#3b6ea5")
    axes.set_yticks(range(len(names)), names, fontsize=11)
    axes.bar_label(bars, [f"{v:.0f}%" for v in shares.values()], padding=3, fontsize=10)
    axes.set_xlim(0, 110)
    axes.set_xlabel("% of the part's tests passed, over every graded submission", fontsize=11)
    axes.tick_params(axis="x", labelsize=10)
    axes.invert_yaxis()
    alt = (
        f"Bar chart of the pass rate per part, over {len(graded)} graded submissions: "
        + "; ".join(
            f"{name} {share:.0f}%" for name, share in zip(names, shares.values(), strict=True)
        )
        + ". The table below it gives each test."
    )
    rows = []
    for part, rates in by_part.items():
        label = html.escape(labels.get(part, part))
        rows.append(
            f"<tr class='group'><th scope='rowgroup' colspan='3'>{label}: {shares[part]:.0f}% "
            f"of its tests passed</th></tr>"
        )
        rows += [
            f"<tr><th scope='row'>{html.escape(r.name)}</th><td>{r.rate:.0f}%</td>"
            f"<td>{r.passed} of {r.runs}</td></tr>"
            for r in rates
        ]
    table = (
        "<table id='test-rates'><caption>Each test, by part, worst first</caption><tr>"
        "<th scope='col'>test</th><th scope='col'>passing</th>"
        f"<th scope='col'>submissions passing</th></tr>{''.join(rows)}</table>"
    )
    return _figure(_image(figure, plt, alt), "") + table


def _averages(plt: Any, graded: Sequence[Entry], parts: list[PartColumn]) -> str:
    averages = _part_averages(graded)
    shown = [p for p in parts if p.name in averages]
    if not shown:
        return "<p>No submission was graded.</p>"
    figure, axes = plt.subplots(figsize=(7, 3))
    names = [p.label for p in shown]
    values = [averages[p.name][0] for p in shown]
    bars = axes.bar(names, values, color="#3b6ea5")
    axes.bar_label(bars, [f"{v:.1f}" for v in values], padding=2, fontsize=10)
    axes.set_ylabel("average points", fontsize=11)
    axes.set_ylim(0, 1.15 * max(averages[p.name][1] for p in shown))
    axes.tick_params(labelsize=10)
    alt = "Bar chart of the average points per part: " + "; ".join(
        f"{p.name} {averages[p.name][0]:.1f} of {averages[p.name][1]:g}" for p in shown
    ) + "."  # fmt: skip
    table = _table(
        ["part", "average", "of"],
        [[p.name, f"{averages[p.name][0]:.1f}", f"{averages[p.name][1]:g}"] for p in shown],
        row_headers=True,
    )
    return _figure(_image(figure, plt, alt), table)


def _not_fully_graded(entries: Sequence[Entry]) -> str:
    rows = []
    for entry in entries:
        status = submission_status(entry.result)
        if status == "graded":
            continue
        if status == "timed_out":
            late = sum(t.status == "timeout" for t in entry.result.tests)
            why = f"{late} of {len(entry.result.tests)} tests timed out"
        else:
            why = shorten(entry.result.message or "no reason was recorded", MESSAGE_WIDTH)
        rows.append([html.escape(entry.student), SUBMISSION_WORDS[status], html.escape(why)])
    return _table(["submission", "status", "why"], rows, escaped=True, row_headers=True)


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


def _totals(final: Mapping[tuple[str, str], FinalGrade]) -> str:
    """Each student's final grade with its pieces (final_grade.py), every student text
    escaped: automatic points with overrides, written answers, late penalty."""
    rows = []
    for g in final.values():
        written = ", ".join(f"{m.part}: {written_text(m, out_of=False)}" for m in g.written)
        total = f"{g.final:g} / {g.maximum:g}" + (" (incomplete)" if g.ungraded else "")
        cells = [g.student, f"{g.automatic:g} / {g.automatic_max:g}",
                 str(len(g.overridden)) if g.overridden else "", written,
                 f"{g.late_penalty:g}" if g.late_penalty else "", total]  # fmt: skip
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    waiting = sum(1 for g in final.values() if g.ungraded)
    head = "".join(
        f"<th scope='col'>{h}</th>"
        for h in ("student", "automatic, with overrides", "overrides", "written answers",
                  "late penalty", "final grade")
    )  # fmt: skip
    note = f"<p>{waiting} student(s) have written answers not graded yet.</p>" if waiting else ""
    return f"{note}<table id='totals'><tr>{head}</tr>{''.join(rows)}</table>"


def _summary(
    entries: Sequence[Entry],
    final: Mapping[tuple[str, str], FinalGrade],
    scores: list[float],
    most: float,
) -> str:
    counts = Counter(submission_status(e.result) for e in entries)
    rows = [["submissions", str(len(entries))]]
    rows += [
        [f"{word} ({SUBMISSION_MEANINGS[key]})", str(counts[key])]
        for key, word in SUBMISSION_WORDS.items()
        if counts[key]
    ]
    if scores:
        rows += [
            [f"mean final score (of the {len(scores)} scored)", f"{statistics.mean(scores):.1f} "
             f"of {most:g}"],
            ["median final score", f"{statistics.median(scores):.1f} of {most:g}"],
            ["late penalties" + ("" if all(g.current for g in final.values()) else
                                 " (as the last grade run recorded them)"),
             str(sum(1 for g in final.values() if g.late_penalty))],
        ]  # fmt: skip
    return _table(["what", "how many"], rows, row_headers=True)


@dataclass(frozen=True)
class TestRate:
    """How often one test passed over the graded submissions."""

    __test__ = False  # not a pytest test class, despite the name

    name: str
    part: str
    passed: int
    runs: int

    @property
    def rate(self) -> float:
        return 100 * self.passed / self.runs


def _test_rates(graded: Sequence[Entry]) -> list[TestRate]:
    passed: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    parts: dict[str, str] = {}
    for entry in graded:
        for test in entry.result.tests:
            seen[test.name] += 1
            passed[test.name] += test.status == "passed"
            parts.setdefault(test.name, test.part)
    return [TestRate(name, parts[name], passed[name], seen[name]) for name in seen]


def _part_averages(graded: Sequence[Entry]) -> dict[str, tuple[float, float]]:
    totals: dict[str, list[float]] = {}
    most: dict[str, float] = {}
    for entry in graded:
        for part, (score, of) in entry.result.part_scores().items():
            totals.setdefault(part, []).append(score)
            most[part] = of
    return {part: (statistics.mean(values), most[part]) for part, values in totals.items()}


def _image(figure: Any, plt: Any, alt: str) -> str:
    """The figure as an embedded PNG, described by `alt` (what a screen reader says)."""
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    described = html.escape(alt, quote=True)
    return f"<img class='plot' alt='{described}' src='data:image/png;base64,{data}'>"


def _figure(image: str, table: str) -> str:
    return f"<div class='figure'>{image}{table}</div>"


def _table(
    head: list[str],
    rows: list[list[str]],
    *,
    escaped: bool = False,
    row_headers: bool = False,
    caption: str | None = None,
) -> str:
    """A table whose header cells are scoped to their columns; with `row_headers`, each row's
    first cell heads its row."""

    def cell(text: str) -> str:
        return text if escaped else html.escape(text)

    if not rows:
        return "<p>None.</p>"
    header = "".join(f"<th scope='col'>{cell(h)}</th>" for h in head)

    def row(cells: list[str]) -> str:
        first, rest = (f"<th scope='row'>{cell(cells[0])}</th>", cells[1:]) if row_headers else (
            "", cells)  # fmt: skip
        return "<tr>" + first + "".join(f"<td>{cell(c)}</td>" for c in rest) + "</tr>"

    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<tr>{header}</tr>{''.join(row(r) for r in rows)}</table>"


def _section(key: str, heading: str, content: str) -> str:
    return (
        f"<section id='{key}' aria-labelledby='{key}-heading'>"
        f"<h2 id='{key}-heading'>{html.escape(heading)}</h2>{content}</section>"
    )
