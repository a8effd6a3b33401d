"""Each student's feedback, to hand back: one self-contained HTML file and its Markdown twin.

Both show what the student may see at the time they are written (`visibility.student_view`):
the score (the final grade, final_grade.py, or the tests shown so far and how many more are
graded), the late penalty of the rubric and extensions as they are now, the points per part
(written answers included), and each shown test with its message and hint. Before results
are released nothing on them depends on a hidden test, the attempt that counts and a pending
grader error included (grading/before_release.py). Everything a student controls (their name,
messages quoting their values, printed text) is escaped for where it goes; the HTML loads
nothing from anywhere.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from autograder.after_grading.final_grade import (
    FinalGrade,
    final_grade,
    late_reason,
    written_text,
)
from autograder.after_grading.visibility import (
    ShownTest,
    StudentView,
    results_released_at,
    student_view,
)
from autograder.course.rubric import AssignmentSpec
from autograder.grading.attempts import counted_attempt
from autograder.grading.before_release import as_seen
from autograder.grading.gradebook import Entry
from autograder.grading.grouping import FAILING, SAME_CAUSE, fix_first_line, grouped, shown_causes
from autograder.manual.totals import Totals
from autograder.safe_text import file_stem
from autograder.status_words import TEST_WORDS, submission_word

STATUS_WORDS = TEST_WORDS
"""A test's status → its word (status_words: the report and the terminal say the same)."""


@dataclass(frozen=True)
class Sheet:
    """One student's feedback on one assignment, in plain text pieces both renderers share."""

    title: str
    student: str
    headline: str
    lines: tuple[str, ...]
    parts: tuple[tuple[str, str, str], ...]
    """(part and its maximum, its title, "points / of"), in the rubric's order."""
    tests: tuple[SheetTest, ...]
    notes: tuple[str, ...]
    groups: tuple[SheetGroup, ...] = ()
    """The functions the tests are about, in the order their first test comes."""
    attempts: tuple[SheetAttempt, ...] = ()
    """The student's attempts, in time order, when there is more than one."""


@dataclass(frozen=True)
class SheetAttempt:
    """One attempt in the history: when, its score as the student may see it now, and
    whether it is the one that counts (said in words)."""

    number: int
    submitted_at: str
    score: str
    counts: str


@dataclass(frozen=True)
class SheetTest:
    """One shown test: its message and hint only where the student may read them; a hint
    already given above is not repeated (`same_cause`)."""

    group: str
    part: str
    status: str
    name: str
    points: str
    message: str | None
    hint: str | None
    same_cause: bool = False


@dataclass(frozen=True)
class SheetGroup:
    """The tests about one function: a summary ("2 failed, 3 passed", or "not implemented yet"
    when none of it is written, its tests then not listed) and what to fix first."""

    name: str
    summary: str
    fix_first: str | None
    collapsed: bool = False


@dataclass(frozen=True)
class _Seen:
    """A shown test as grouping reads it: its message and advice only where they are shown."""

    shown: ShownTest
    function: str | None
    part: str | None
    status: str
    message: str | None
    hint: str | None
    advice: str | None


def feedback_path(folder: Path, assignment: str, student: str, suffix: str = ".html") -> Path:
    """Where a student's feedback file on an assignment is written under `folder` (each name
    spelled by `file_stem`, as the result files are: bounded, and no two students share one)."""
    return folder / file_stem(assignment) / f"{file_stem(student)}{suffix}"


def write_feedback(
    entries: Sequence[Entry],
    spec: AssignmentSpec,
    folder: Path,
    *,
    after_due: bool | None = None,
    now: datetime,
    attempts: Mapping[str, Sequence[Entry]] | None = None,
    totals: Mapping[str, Totals] | None = None,
) -> list[Path]:
    """Write every entry's feedback (HTML and Markdown) under `folder/ASSIGNMENT/`. With
    `after_due` None, the due date of the rubric's late policy decides (no due date: the tests
    shown after it stay held back). `attempts`: every attempt of each student
    (Gradebook.attempts), listed when a student made more than one. `totals` (by student)
    add written answers and overrides; the late penalty is the rubric's as it is now."""
    released = results_released_at(spec.late)
    if after_due is None:
        after_due = released is not None and now >= released
    (folder / file_stem(spec.name)).mkdir(parents=True, exist_ok=True)
    written = []
    for counted in entries:
        history = seen_attempts((attempts or {}).get(counted.student, ()), spec, after_due)
        entry = next((e for e in history if e.counted), None) or seen_entry(counted, after_due)
        grade = final_grade(entry, spec, (totals or {}).get(entry.student))
        sheet = make_sheet(entry, spec, after_due=after_due, released=released, grade=grade)
        if len(history) > 1:
            sheet = replace(sheet, attempts=attempt_lines(history, spec, after_due=after_due))
        page = feedback_path(folder, spec.name, entry.student)
        page.write_text(render_html(sheet), encoding="utf-8")
        markdown = feedback_path(folder, spec.name, entry.student, ".md")
        markdown.write_text(render_markdown(sheet), encoding="utf-8")
        written.append(page)
    return written


def seen_entry(entry: Entry, after_due: bool) -> Entry:
    """`entry` as its student's channels build on it (before_release.as_seen)."""
    return replace(entry, result=as_seen(entry.result, released=after_due))


def seen_attempts(history: Sequence[Entry], spec: AssignmentSpec, after_due: bool) -> list[Entry]:
    """A student's attempts as they may see them, the one that counts marked: before results
    are released, chosen by the tests shown at once alone (attempts.counted_attempt); after,
    the gradebook's choice."""
    seen = [seen_entry(entry, after_due) for entry in history]
    if after_due or not seen:
        return seen
    chosen = counted_attempt(
        seen, spec.attempts, spec.late, seen[0].student, released=False,
        written_max=sum(part.points for part in spec.manual),
    )  # fmt: skip
    return [replace(entry, counted=entry.attempt == chosen.attempt) for entry in seen]


def make_sheet(
    entry: Entry,
    spec: AssignmentSpec,
    *,
    after_due: bool,
    released: datetime | None,
    grade: FinalGrade | None = None,
) -> Sheet:
    """`entry`'s sheet; `grade` its final grade (by default: final_grade without overrides,
    every written answer not graded yet)."""
    grade = grade or final_grade(entry, spec)
    result = entry.result
    view = student_view(result, after_due=after_due)
    title = f"{spec.title} ({spec.name})"
    lines: list[str] = []
    if result.status != "graded":
        if result.status == "ungradable":  # about the student's own upload
            why = f"could not be graded: {result.message or 'no reason was recorded'}"
        else:  # its detail (a trace, a test's name) is the instructor's
            why = "hit a grader error"
        headline = f"Your submission {why}"
        lines.append(f"Status: {submission_word(result)}.")
        if result.status == "grader_error":
            lines.append("This is the grader's failure, not yours: it will be graded again.")
            return Sheet(title, entry.student, headline, tuple(lines), (), (), result.notes, ())
        if grade.written:  # people grade the written answers all the same
            lines.append(f"{_headline(view, grade)}.")
            lines += [_late_line(grade)] if grade.late_penalty else []
            lines += _people_lines(grade, complete=True)
        parts = _written_rows(grade)
        return Sheet(title, entry.student, headline, tuple(lines), parts, (), result.notes, ())
    headline = _headline(view, grade)
    lines.append(_status_line(view))
    if entry.submitted_at:
        lines.append(f"Submitted at {entry.submitted_at}.")
    if spec.late is not None:
        own = spec.late.due_for(entry.student)
        yours = " (your extension)" if own != spec.late.due else ""
        lines.append(f"Due {own.isoformat()}{yours}.")
    if (view.complete or after_due) and grade.late_penalty:
        lines.append(
            _late_line(grade)
            if view.complete
            else f"A late penalty of {_fmt(grade.late_penalty)} points applies."
        )
    elif not (view.complete or after_due) and grade.days_late > 0:
        # how many points would say how the tests not shown yet went (it is capped by them)
        lines.append("Submitted late: a late penalty applies, counted with every test's result.")
    if not view.complete:
        extended = spec.late is not None and spec.late.last_due > spec.late.due
        if released and extended:
            when = f"held back until {released.isoformat()}, when the last extension ends"
        else:
            when = "shown after the due date" + (f" ({released.isoformat()})" if released else "")
        lines.append(
            f"{view.withheld} more tests ({_fmt(view.withheld_points)} points) are graded too; "
            f"their results are {when}."
        )
    lines += _people_lines(grade, complete=view.complete)
    parts = (*_part_rows(spec, view), *_written_rows(grade))
    tests, groups = _grouped_tests(view.shown)
    if any(s.test.private and s.test.status != "passed" for s in view.shown):
        lines.append(
            "Hidden tests show whether they passed and what the grader recognised, never "
            "their inputs."
        )
    return Sheet(title, entry.student, headline, tuple(lines), parts, tests, result.notes, groups)


def attempt_lines(
    history: Sequence[Entry], spec: AssignmentSpec, *, after_due: bool
) -> tuple[SheetAttempt, ...]:
    """Each attempt's line in the history: once every test is shown, its automatic points
    less their late penalty (final_grade.py; people grade the written answers of the attempt
    that counts alone), before that the points of the tests shown now (an earlier attempt
    tells no more than the last)."""
    lines = []
    kind = "automatic points" if spec.manual else "points"
    for entry in history:
        view = student_view(entry.result, after_due=after_due)
        if entry.result.status != "graded":
            score = "not graded"
        elif view.complete:
            final = final_grade(entry, spec).final
            score = f"{_fmt(final)} of {_fmt(entry.result.max_score)} {kind}"
        else:
            shown, of = view.shown_score
            score = f"{_fmt(shown)} of {_fmt(of)} points on the tests shown now"
        counts = "this attempt counts" if entry.counted else "does not count"
        when = entry.submitted_at or "time not recorded"
        lines.append(SheetAttempt(entry.attempt_number, when, score, counts))
    return tuple(lines)


def _grouped_tests(
    shown: Sequence[ShownTest],
) -> tuple[tuple[SheetTest, ...], tuple[SheetGroup, ...]]:
    """The shown tests by function, each failing function led by what to fix first, no hint
    given twice; a function whose tests all say it is not written yet in one line."""
    seen = [
        _Seen(
            s,
            s.test.function,
            s.test.part,
            s.test.status,
            s.message if s.test.status != "passed" else None,
            s.hint,
            None if s.message is None else s.test.advice,
        )
        for s in shown
    ]
    tests: list[SheetTest] = []
    groups: list[SheetGroup] = []
    printed: dict[str, str] = {}
    for group in grouped(seen):
        count = len(group.tests)
        if group.not_implemented:
            points = sum(t.shown.test.max_score for t in group.tests)
            tests_word = f"{count} test{'s' if count > 1 else ''}"
            summary = f"not implemented yet ({tests_word}, 0 / {_fmt(points)} points)"
            groups.append(SheetGroup(group.name, summary, None, collapsed=True))
            continue
        counts = [
            f"{len(of)} {STATUS_WORDS[status]}"
            for status in STATUS_WORDS
            if (of := group.with_status(status))
        ]
        fix = fix_first_line(group, printed)
        causes = iter(shown_causes(group.with_status(*FAILING), printed, group.name))
        for test in group.tests:
            cause = next(causes) if test.status in FAILING else None
            message = test.message if cause is None else cause.message
            tests.append(
                SheetTest(
                    group.name,
                    test.shown.test.part,
                    STATUS_WORDS.get(test.status, test.status),
                    f"{test.shown.test.name} (hidden test)"
                    if test.shown.test.private
                    else test.shown.test.name,
                    f"{_fmt(test.shown.test.score)} / {_fmt(test.shown.test.max_score)}",
                    message,
                    test.hint if cause is None else cause.cause,
                    cause is not None and cause.same_cause,
                )
            )
        groups.append(SheetGroup(group.name, ", ".join(counts), fix))
    return tuple(tests), tuple(groups)


def _part_rows(spec: AssignmentSpec, view: StudentView) -> tuple[tuple[str, str, str], ...]:
    """The points of each part shown, in the rubric's order, each named with its maximum; a
    part whose tests are not all shown yet says its points are of the tests shown now."""
    scores = view.part_scores()
    rubric = {part.name: part for part in spec.parts}
    order = [name for name in rubric if name in scores] + [p for p in scores if p not in rubric]
    rows = []
    for name in order:
        score, of = scores[name]
        part = rubric.get(name)
        points = f"{_fmt(score)} / {_fmt(of)}"
        if part is not None and of < part.points and not view.complete:
            points += " (tests shown now)"
        label = f"{name} ({_fmt(part.points)})" if part is not None else name
        rows.append((label, part.title if part is not None else "", points))
    return tuple(rows)


def _status_line(view: StudentView) -> str:
    """The submission's status word (status_words) over the tests shown: a test not shown yet
    that timed out is not told (it would say how a hidden test went)."""
    shown = replace(view.result, tests=tuple(s.test for s in view.shown))
    late = sum(t.status == "timeout" for t in shown.tests)
    if not late:
        return f"Status: {submission_word(shown)}."
    tests = f"{late} test{'s' if late > 1 else ''}"
    return f"Status: {submission_word(shown)}: {tests} ran out of time (their points are lost)."


def _late_line(grade: FinalGrade) -> str:
    return (
        f"Late penalty: {_fmt(grade.late_penalty)} points off {_fmt(grade.earned)} "
        f"({late_reason(grade)}); final score {_fmt(grade.final)}."
    )


def _people_lines(grade: FinalGrade, *, complete: bool) -> list[str]:
    """The graders' comments and the instructor's overrides (their points only once every
    test is shown: before, they would tell how the tests held back went), and the written
    answers' points so far while the automatic ones are not all shown."""
    lines = [f"Comment on {m.title}: {m.comment}" for m in grade.written if m.comment.strip()]
    changed = f"Your instructor changed the automatic points of {len(grade.overridden)} test(s) "
    if grade.overridden and complete:
        lines.append(
            f"{changed}or part(s); automatic points now {_fmt(grade.automatic)} / "
            f"{_fmt(grade.automatic_max)}."
        )
    elif grade.overridden:
        lines.append(f"{changed}or part(s); the points are shown with every test's result.")
    if grade.written and not complete:
        marked = [m for m in grade.written if m.points is not None]
        line = (
            f"Written answers: {_fmt(grade.written_points)} of "
            f"{_fmt(sum(m.max_points for m in marked))} points graded so far"
        )
        if grade.ungraded:
            line += f"; {_waiting(grade)}"
        lines.append(line + ".")
    return lines


def _written_rows(grade: FinalGrade) -> tuple[tuple[str, str, str], ...]:
    """(part, title, "points / of" or "not graded yet") of each written answer."""
    return tuple(
        (
            f"{m.part} ({_fmt(m.max_points)}, graded by people)",
            m.title,
            written_text(m, out_of=True),
        )
        for m in grade.written
    )


def _waiting(grade: FinalGrade) -> str:
    """How many written answers wait for people, and their points."""
    points = sum(m.max_points for m in grade.ungraded)
    return f"not graded yet: {len(grade.ungraded)} written answer(s), {_fmt(points)} points to come"


def _headline(view: StudentView, grade: FinalGrade) -> str:
    if view.complete:
        line = f"Score: {_fmt(grade.final)} of {_fmt(grade.maximum)} points"
        return line + (f" ({_waiting(grade)})" if grade.ungraded else "")
    shown, of = view.shown_score
    return (
        f"Score so far (tests shown now): {_fmt(shown)} of {_fmt(of)} points; "
        f"{_fmt(view.withheld_points)} more points are graded by tests not shown yet"
    )


def _fmt(points: float) -> str:
    return f"{points:g}"


STYLE = (
    "body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.4}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;"
    "text-align:left;vertical-align:top}pre{white-space:pre-wrap;background:#f6f6f6;"
    "padding:.4em;margin:.2em 0}.passed{color:#276b27}.lost{color:#a33}.hint{color:#6a4a00}"
    ".contents{display:flex;gap:1.5em;list-style:none;padding:0}"
)


def render_html(sheet: Sheet) -> str:
    """The feedback page: a header, a table of contents, the score and each part's and test's
    result in words (colour only repeats them), every table's headers scoped."""
    e = html.escape
    header = (
        f"<header><h1>{e(sheet.title)}</h1><p>Feedback for <b>{e(sheet.student)}</b></p></header>"
    )
    body = [f"<p id='score'><b>{e(sheet.headline)}</b></p>"]
    body += [f"<p>{e(line)}</p>" for line in sheet.lines]
    contents = []
    if sheet.parts:
        rows = "".join(
            f"<tr><th scope='row'>{e(part)}</th><td>{e(title)}</td><td>{e(points)}</td></tr>"
            for part, title, points in sheet.parts
        )
        body.append(
            "<section aria-labelledby='parts-heading'><h2 id='parts-heading'>Points per part"
            "</h2><table id='parts'><tr><th scope='col'>part (its points)</th>"
            f"<th scope='col'>what it covers</th><th scope='col'>points</th></tr>{rows}</table>"
            "</section>"
        )
        contents.append(("parts-heading", "Points per part"))
    if sheet.attempts:
        rows = "".join(
            f"<tr><th scope='row'>{a.number}</th><td>{e(a.submitted_at)}</td><td>{e(a.score)}"
            f"</td><td>{e(a.counts)}</td></tr>"
            for a in sheet.attempts
        )
        body.append(
            "<section aria-labelledby='attempts-heading'><h2 id='attempts-heading'>Your "
            "attempts</h2><table id='attempts'><tr><th scope='col'>attempt</th><th scope='col'>"
            "submitted at</th><th scope='col'>score</th><th scope='col'>counts?</th></tr>"
            f"{rows}</table></section>"
        )
        contents.append(("attempts-heading", "Your attempts"))
    if sheet.groups:
        body.append("<section aria-labelledby='tests-heading'><h2 id='tests-heading'>Tests</h2>")
        contents.append(("tests-heading", "Tests"))
    for number, group in enumerate(sheet.groups):
        body.append(f"<h3 id='group-{number}'>{e(group.name)}: {e(group.summary)}</h3>")
        if group.fix_first:
            body.append(f"<p class='fix'><b>What to fix first:</b> {e(group.fix_first)}</p>")
        listed = [test for test in sheet.tests if test.group == group.name]
        if group.collapsed or not listed:
            continue
        body.append(
            f"<table class='tests' aria-labelledby='group-{number}'><tr><th scope='col'>part"
            "</th><th scope='col'>test</th><th scope='col'>points</th>"
            "<th scope='col'>result</th></tr>"
        )
        for test in listed:
            css = "passed" if test.status == "passed" else "lost"
            detail = f"<span class='{css}'>{e(test.status)}</span>"
            if test.message:
                detail += f"<pre>{e(test.message)}</pre>"
            if test.same_cause:
                detail += f"<p class='hint'>{e(SAME_CAUSE)}</p>"
            elif test.hint:
                detail += f"<p class='hint'>Hint: {e(test.hint)}</p>"
            body.append(
                f"<tr><td>{e(test.part)}</td><td>{e(test.name)}</td><td>{e(test.points)}</td>"
                f"<td>{detail}</td></tr>"
            )
        body.append("</table>")
    if sheet.groups:
        body.append("</section>")
    if sheet.notes:
        notes = "".join(f"<li>{e(note)}</li>" for note in sheet.notes)
        body.append(
            f"<section aria-labelledby='notes-heading'><h2 id='notes-heading'>Notes</h2>"
            f"<ul>{notes}</ul></section>"
        )
        contents.append(("notes-heading", "Notes"))
    nav = ""
    if len(contents) > 1:
        links = "".join(f"<li><a href='#{key}'>{e(text)}</a></li>" for key, text in contents)
        nav = f"<nav aria-label='Contents'><ul class='contents'>{links}</ul></nav>"
    head = (
        "<meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{e(sheet.title)}: {e(sheet.student)}</title><style>{STYLE}</style>"
    )
    page = f"<head>{head}</head><body>{header}{nav}<main>{''.join(body)}</main></body>"
    return f"<!doctype html><html lang='en'>{page}</html>\n"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>&|~!])")
_LINE_START = re.compile(r"^([#+=-]|\d+(?=[.)]))")


def markdown_text(text: str) -> str:
    """`text` as literal Markdown: every character Markdown or HTML would read is escaped (and
    what would start a heading or a list at the start of a line), line breaks become spaces (a
    name or title stays on its line)."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    match = _LINE_START.match(text)
    if match is None:
        return text
    if match.group(1)[0].isdigit():  # "1." would start a numbered list
        end = match.end()
        return f"{text[:end]}\\{text[end:]}"
    return "\\" + text


def markdown_block(text: str) -> str:
    """`text` as a fenced block, its fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def render_markdown(sheet: Sheet) -> str:
    m = markdown_text
    lines = [f"# {m(sheet.title)}", "", f"Feedback for **{m(sheet.student)}**", ""]
    lines += [f"**{m(sheet.headline)}**", ""]
    lines += [m(line) + "  " for line in sheet.lines]
    if sheet.parts:
        lines += ["", "## Points per part", "", "| part (its points) | what it covers | points |"]
        lines.append("|---|---|---|")
        lines += [f"| {m(p)} | {m(t)} | {m(pts)} |" for p, t, pts in sheet.parts]
    if sheet.attempts:
        lines += ["", "## Your attempts", "", "| attempt | submitted at | score | counts? |"]
        lines.append("|---|---|---|---|")
        lines += [
            f"| {a.number} | {m(a.submitted_at)} | {m(a.score)} | {m(a.counts)} |"
            for a in sheet.attempts
        ]
    if sheet.groups:
        lines += ["", "## Tests"]
    for group in sheet.groups:
        lines += ["", f"### {m(group.name)}: {m(group.summary)}", ""]
        if group.fix_first:
            lines += [f"**What to fix first:** {m(group.fix_first)}", ""]
        if group.collapsed:
            continue
        for test in (test for test in sheet.tests if test.group == group.name):
            lines.append(
                f"- **{m(test.status)}** ({m(test.points)}, {m(test.part)}): {m(test.name)}"
            )
            if test.message:
                lines += ["", _indent(markdown_block(test.message)), ""]
            if test.same_cause:
                lines.append(f"  - {m(SAME_CAUSE)}")
            elif test.hint:
                lines.append(f"  - Hint: {m(test.hint)}")
    if sheet.notes:
        lines += ["", "## Notes", ""] + [f"- {m(note)}" for note in sheet.notes]
    return "\n".join(lines).rstrip() + "\n"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
