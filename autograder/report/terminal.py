"""The terminal's text: grade tables, the class table, `check`'s report, the validation table,
the sample scores beside expected.toml's.

Every renderer returns `printable` text: student names and messages may hold escape sequences
that would rewrite the instructor's terminal (a fake score, a window title)."""

from __future__ import annotations

import functools
import re
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from autograder.authoring.expected_update import number
from autograder.grading.grouping import (
    SAME_CAUSE,
    Group,
    fix_first,
    fix_first_line,
    grouped,
    shown_causes,
)
from autograder.safe_text import printable
from autograder.status_words import (
    SUBMISSION_WORDS,
    TEST_WORDS,
    submission_word,
    terminal_label,
)

if TYPE_CHECKING:  # validate imports the grading machinery: only its command needs it
    from autograder.authoring.sample_scores import SampleScore
    from autograder.authoring.validate import CaseVerdict
    from autograder.course.rubric import AssignmentSpec
    from autograder.grading.results import SubmissionResult, TestOutcome
    from autograder.student.local_check import CheckReport

STATUS_LABELS = {status: terminal_label(status) for status in TEST_WORDS}
"""A test's status word as the terminal prints it (status_words: the same words everywhere)."""


def render_grade(result: SubmissionResult) -> str:
    """The grade table: one line per test with its points, the message below a lost one."""
    head = f"{result.submission}: {result.score:g} / {result.max_score:g}"
    if result.status != "graded":
        return printable(f"{head} ({submission_word(result)}): {result.message}\n")
    lines = [f"{head}   [{result.duration_s:.2f} s; isolation: {', '.join(result.isolation)}]"]
    for test in result.tests:
        label = STATUS_LABELS[test.status]
        lines.append(
            f"  {test.score:>5g}/{test.max_score:<4g} {label:<19} {test.part:<11} {test.name}"
        )
        if test.message and test.status != "passed":
            lines.extend(wrap_message(test.message, " " * 14))
        if test.hint:
            lines.extend(wrap_message(f"hint: {test.hint}", " " * 14))
    lines.extend(f"  note: {note}" for note in result.notes)
    return printable("\n".join(lines) + "\n")


def wrap_message(message: str, indent: str, width: int = 100) -> list[str]:
    """A message wrapped under a table row, each of its lines keeping its own indentation (a
    proof's step list stays readable); wrapped continuations sit two spaces further in."""
    lines: list[str] = []
    for line in message.splitlines():
        pad = indent + " " * (len(line) - len(line.lstrip(" ")))
        wrap = functools.partial(
            textwrap.wrap, width=width, initial_indent=pad, subsequent_indent=pad + "  "
        )
        wrapped = _keeping_indices(line.strip(), wrap)
        lines.extend(wrapped or [pad.rstrip()])
    return lines


_INDEX = re.compile(r"\[[^\[\]\n]{1,40}\]")
"""A short bracketed group (an index `[7, 8]`, a short list): never split across lines."""
_KEPT_SPACE = "\x00"


def _keeping_indices(text: str, wrap: Callable[[str], list[str]]) -> list[str]:
    """`wrap(text)` with no line break inside a short bracketed group."""
    if _KEPT_SPACE in text:
        return wrap(text)
    joined = _INDEX.sub(lambda match: match.group().replace(" ", _KEPT_SPACE), text)
    return [line.replace(_KEPT_SPACE, " ") for line in wrap(joined)]


def render_grade_line(result: SubmissionResult) -> str:
    """One line per submission while a class is graded."""
    lost = sum(t.status != "passed" for t in result.tests)
    detail = f"{lost} of {len(result.tests)} tests lost"
    if result.status != "graded":
        detail = f"{submission_word(result)}: {result.message}"
    score = f"{result.score:>6g} / {result.max_score:g}"
    return printable(f"{result.submission:<28} {score}  {result.duration_s:5.2f} s  {detail}")


def render_class(spec: AssignmentSpec, results: list[SubmissionResult]) -> str:
    """The class table: one row per submission, its total and each part's points (the parts in
    the rubric's order, each headed with its maximum), and its status word."""
    parts = [(part.name, f"{part.name} ({part.points:g})") for part in spec.parts]
    width = max(len(r.submission) for r in results) + 2
    columns = [max(13, len(label) + 2) for _, label in parts]
    head = f"{'submission':<{width}}{f'total ({spec.max_score:g})':>12}" + "".join(
        f"{label:>{column}}" for (_, label), column in zip(parts, columns, strict=True)
    )
    head += "  status"
    rows = [head, "-" * len(head)]
    for result in results:
        scores = result.part_scores()
        cells = "".join(
            f"{_points(*scores.get(p, (0.0, spec.part(p).points))):>{column}}"
            for (p, _), column in zip(parts, columns, strict=True)
        )
        rows.append(
            f"{result.submission:<{width}}{result.score:>12g}{cells}  {submission_word(result)}"
        )
    scored = [r.score for r in results if r.status == "graded"]
    if scored:
        mean = f"mean {sum(scored) / len(scored):.1f} / {spec.max_score:g}"
        counts = Counter(submission_word(r) for r in results)
        words = ", ".join(f"{counts[w]} {w}" for w in SUBMISSION_WORDS.values() if counts[w])
        rows.append(f"{len(results)} submissions: {words}; {mean} over the {len(scored)} scored")
    return printable("\n".join(rows))


def _points(score: float, most: float) -> str:
    return f"{score:g}/{most:g}"


def render_check(report: CheckReport, *, verbose: bool = False, function: str | None = None) -> str:
    """The check's report: the tests grouped by the function they are about, each failing
    function led by what to fix first, each cause printed once; a function not written yet in
    one line; passed tests counted (listed with `verbose`)."""
    target = report.target
    about = f" (only {function})" if function else ""
    lines = [
        f"Checking {target.submission} with the public tests in {target.tests_dir}{about}",
        "(your code runs here as you, without the grader's sandbox: the grader isolates it)",
        "",
    ]
    return printable("\n".join(lines + check_lines(report, verbose=verbose, function=function)))


def check_lines(
    report: CheckReport, *, verbose: bool = False, function: str | None = None
) -> list[str]:
    """The check's report below its heading (plain `pytest` in a released folder prints the
    same lines, pytest_terminal.py); not yet made printable."""
    lines: list[str] = []
    messages = {outcome.message for outcome in report.outcomes}
    if (
        function is None  # one function's tests: its own heading says they all erred alike
        and len(report.outcomes) > 1
        and len(messages) == 1
        and report.count("error") == len(report.outcomes)
    ):
        lines += [f"  No public test could run: {messages.pop()}", ""]
        lines.append(f"{len(report.outcomes)} public tests: {len(report.outcomes)} ERROR")
        return lines
    present = {outcome.status for outcome in report.outcomes} - {"not_implemented"}
    width = max([7, *(len(STATUS_LABELS[s]) for s in present)])  # a column as wide as it needs
    indent = " " * (width + 6)
    printed: dict[str, str] = {}
    for group in grouped(report.outcomes, report.order):
        lines.extend(_check_group(group, printed, width, indent, verbose=verbose))
    if report.problem:
        lines += (
            ["", f"Problem: {report.problem}"]
            if report.outcomes
            else [f"Problem: {report.problem}"]
        )
    counts = [
        f"{report.count(status)} {STATUS_LABELS[status] if status != 'failed' else 'failed'}"
        for status in STATUS_LABELS
        if report.count(status)
    ]
    which = f" of {function}" if function else ""
    lines += ["", f"{len(report.outcomes)} public tests{which}: {', '.join(counts) or 'none ran'}"]
    if report.all_passed:
        lines.append(
            f"Every public test{which} passes. The grader runs more tests on other inputs."
        )
    return lines


def _check_group(
    group: Group[TestOutcome], printed: dict[str, str], width: int, indent: str, *, verbose: bool
) -> list[str]:
    """One function's lines in the check's report."""
    count = len(group.tests)
    if group.not_implemented:
        return [f"  {group.name}: not implemented yet ({count} test{'s' if count > 1 else ''})"]
    counts = [
        f"{len(tests)} {STATUS_LABELS[status] if status != 'failed' else 'failed'}"
        for status in STATUS_LABELS
        if (tests := group.with_status(status))
    ]
    lines = [f"  {group.name}: {', '.join(counts)}"]
    fix = fix_first(group)
    line = fix_first_line(group, printed)
    failing = group.with_status("failed", "error", "timeout")
    if line is not None:
        lines.extend(wrap_message(f"what to fix first: {line}", "    "))
    for test, shown in zip(failing, shown_causes(failing, printed, group.name), strict=True):
        lines.extend(_titled(STATUS_LABELS[test.status], width, test.title, indent))
        message = shown.message if shown.message != fix else None
        if shown.message == fix and test is not failing[0]:
            message = SAME_CAUSE  # the message itself is what to fix first
        elif shown.same_cause:
            message = f"{message} {SAME_CAUSE}" if message else SAME_CAUSE
        if message:
            lines.extend(wrap_message(message, indent))
        if shown.cause:
            lines.extend(wrap_message(f"hint: {shown.cause}", indent))
    missing = group.with_status("not_implemented")
    if missing:
        lines.append(
            f"    not implemented yet: {len(missing)} test{'s' if len(missing) > 1 else ''}"
        )
    if verbose:
        label = STATUS_LABELS["passed"]
        for test in group.with_status("passed"):
            lines.extend(_titled(label, width, test.title, indent))
    return lines


def _titled(label: str, width: int, title: str, indent: str, columns: int = 100) -> list[str]:
    """A test's status and title, wrapped: the title's continuation two spaces further in than
    the message below it, as a wrapped message's is."""
    head = f"    {label:<{width}}  "
    wrap = functools.partial(
        textwrap.wrap, width=columns, initial_indent=head, subsequent_indent=indent + "  "
    )
    return _keeping_indices(title, wrap) or [head.rstrip()]


HINT_COLUMN_WIDTH = 60
"""The validation table's last column: a longer hint wraps under it, never cut."""


def render_validation(verdicts: list[CaseVerdict]) -> str:
    """The validation table: case, what it must score, its score, the verdict, the hint it got
    (whole, wrapped in its column), and each problem below its row."""
    width = max(len(v.name) for v in verdicts) + 2
    wide = max(len(v.expected) for v in verdicts) + 2
    rows = [f"{'case':<{width}}{'expected':<{wide}}{'score':>12}  {'verdict':<8}hint received"]
    rows.append("-" * len(rows[0]))
    under_hint = " " * (width + wide + 12 + 2 + 8)
    for v in verdicts:
        verdict = "ok" if v.ok else "FAIL"
        hint = textwrap.wrap(" ".join(v.hint.split()), HINT_COLUMN_WIDTH, break_long_words=False)
        score = f"{v.score:>6g} / {v.max_score:<3g}"
        first = f"{v.name:<{width}}{v.expected:<{wide}}{score}  {verdict:<8}{''.join(hint[:1])}"
        rows.append(first.rstrip())
        rows.extend(under_hint + line for line in hint[1:])
        for problem in (v.problem or "").splitlines():
            rows.append(f"{'':<{width}}  -> {problem}")
    failed = sum(not v.ok for v in verdicts)
    rows.append(f"{len(verdicts)} cases: {len(verdicts) - failed} as expected, {failed} not")
    return printable("\n".join(rows))


def render_sample_scores_head(width: int) -> str:
    """The head of `samples --scores`' table; `width` fits the longest sample's name."""
    head = f"{'sample':<{width}}{'expected':>10}{'got':>10}{'difference':>12}  verdict"
    return f"{head}\n{'-' * len(head)}"


def render_sample_score(score: SampleScore, width: int) -> str:
    """A sample's row: expected.toml's score, the one measured, the difference and the
    verdict; below it, whatever else differs (a status, the parts lost, a missing `says`)."""
    expected = number(score.sample.score)
    if score.graded:
        got, difference = number(score.result.score), number(score.difference)
        difference = f"+{difference}" if score.difference > 0 else difference
    else:
        got, difference = "-", "-"
    verdict = "ok" if score.agrees else "DIFFERS"
    rows = [f"{score.sample.name:<{width}}{expected:>10}{got:>10}{difference:>12}  {verdict}"]
    if not score.graded:
        said = f": {score.result.message}" if score.result.message else ""
        rows.append(f"  -> {submission_word(score.result)}{said}")
    else:
        if not score.lost_agrees:
            rows.append(f"  -> {score.lost_difference()}")
        if score.unsaid:
            rows.append(f"  -> its feedback does not say {', '.join(map(repr, score.unsaid))}")
    return printable("\n".join(rows))


def render_sample_scores_tally(scores: list[SampleScore]) -> str:
    """The table's last line: how many samples score what expected.toml says."""
    agreeing = sum(score.agrees for score in scores)
    return f"{len(scores)} samples: {agreeing} as expected.toml says, {len(scores) - agreeing} not"
