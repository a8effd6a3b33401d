"""Written answers and overrides as the feedback and the class report show them."""

from __future__ import annotations

import html
from collections.abc import Mapping

from autograder.manual.totals import NOT_GRADED, Totals


def _fmt(points: float) -> str:
    return f"{points:g}"


def feedback_parts(totals: Totals) -> tuple[tuple[str, str, str], ...]:
    """(part, title, "points / of" or "not graded yet") of each written answer."""
    return tuple(
        (
            f"{m.part} ({_fmt(m.max_points)}, graded by people)",
            m.title,
            NOT_GRADED if m.points is None else f"{_fmt(m.points)} / {_fmt(m.max_points)}",
        )
        for m in totals.manual
    )


def feedback_lines(totals: Totals, *, complete: bool = True) -> tuple[str, ...]:
    """The grader's comments, the overrides, and the total with the written answers.

    `complete` False (tests held back until the due date): no automatic total at all, which
    would tell how the tests not shown yet went; the written answers' points alone."""
    lines = [f"Comment on {m.title}: {m.comment}" for m in totals.manual if m.comment.strip()]
    if totals.overridden and complete:
        lines.append(
            f"Your instructor changed the automatic points of {len(totals.overridden)} "
            f"test(s) or part(s); automatic points now {_fmt(totals.automatic)} / "
            f"{_fmt(totals.automatic_max)}."
        )
    elif totals.overridden:
        lines.append(
            f"Your instructor changed the automatic points of {len(totals.overridden)} "
            "test(s) or part(s); the points are shown with every test's result."
        )
    if totals.manual:
        lines.append(total_line(totals) if complete else written_line(totals))
    return tuple(lines)


def written_line(totals: Totals) -> str:
    """The written answers' points so far, and how many wait for people."""
    graded = [m for m in totals.manual if m.points is not None]
    got = sum(m.points or 0.0 for m in graded)
    line = (
        f"Written answers: {_fmt(got)} of {_fmt(sum(m.max_points for m in graded))} points "
        f"graded so far"
    )
    if totals.ungraded:
        points = sum(m.max_points for m in totals.manual if m.points is None)
        line += f"; not graded yet: {len(totals.ungraded)} ({_fmt(points)} points to come)"
    return line + "."


def total_line(totals: Totals) -> str:
    waiting = totals.ungraded
    line = f"Total with the written answers: {_fmt(totals.total)} / {_fmt(totals.max_total)}"
    if waiting:
        points = sum(m.max_points for m in totals.manual if m.points is None)
        line += f" (written answers not graded yet: {len(waiting)}, {_fmt(points)} points to come)"
    return line + "."


def report_section(totals: Mapping[str, Totals]) -> str:
    """The class report's table of totals (HTML, every student text escaped)."""
    rows = []
    for t in totals.values():
        written = ", ".join(
            f"{m.part}: {NOT_GRADED if m.points is None else _fmt(m.points)}" for m in t.manual
        )
        total = f"{_fmt(t.total)} / {_fmt(t.max_total)}" + (" (incomplete)" if t.ungraded else "")
        cells = [t.student, f"{_fmt(t.final_automatic)} / {_fmt(t.automatic_max)}",
                 str(len(t.overridden)) if t.overridden else "", written, total]  # fmt: skip
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    waiting = sum(1 for t in totals.values() if t.ungraded)
    head = ("<tr><th scope='col'>student</th><th scope='col'>automatic, with overrides and late "
            "penalty</th><th scope='col'>overrides</th><th scope='col'>written answers</th>"
            "<th scope='col'>total</th></tr>")  # fmt: skip
    note = f"<p>{waiting} student(s) have written answers not graded yet.</p>" if waiting else ""
    return f"{note}<table id='totals'>{head}{''.join(rows)}</table>"
