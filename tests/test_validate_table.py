"""`validate`'s table: a long hint wraps under its column, whole, instead of being cut."""

from __future__ import annotations

from autograder.authoring.validate import CaseVerdict
from autograder.report.terminal import HINT_COLUMN_WIDTH, render_validation

LONG_HINT = (
    "the mask is built the wrong way: np.triu keeps the future and hides the past, so every "
    "token attends to the tokens after it; build it with np.tril (ones on and below the "
    "diagonal) and compare with the lesson's definition"
)


def _rows(hint: str, problem: str | None = None) -> list[str]:
    verdicts = [
        CaseVerdict("reference", "full marks", 10, 10, "", None),
        CaseVerdict("variant: mask_upper", "loses mask only; hint", 6, 10, hint, problem),
    ]
    return render_validation(verdicts).splitlines()


def test_a_long_hint_wraps_whole_under_its_column() -> None:
    rows = _rows(LONG_HINT)
    column = rows[0].index("hint received")
    row = next(i for i, line in enumerate(rows) if line.startswith("variant: mask_upper"))
    hint_lines = [rows[row][column:]]
    for line in rows[row + 1 :]:
        if line[:column].strip():  # the next row, or the tally
            break
        hint_lines.append(line[column:])
    assert len(hint_lines) > 1
    assert " ".join(hint_lines) == LONG_HINT  # every word, in order, nothing cut
    assert "…" not in "\n".join(rows)
    assert all(len(line) <= HINT_COLUMN_WIDTH for line in hint_lines)
    assert rows[row].split()[-len(hint_lines[0].split()) - 1] == "ok"


def test_a_problem_follows_the_wrapped_hint_and_the_tally_ends_the_table() -> None:
    rows = _rows(LONG_HINT, problem="no failing test received its hint")
    assert rows[-2].endswith("-> no failing test received its hint")
    assert rows[-1] == "2 cases: 1 as expected, 1 not"
    assert "FAIL" in next(line for line in rows if line.startswith("variant: mask_upper"))


def test_a_short_hint_stays_on_its_row() -> None:
    rows = _rows("the wrong way")
    assert rows[-2].startswith("variant: mask_upper") and rows[-2].endswith("ok      the wrong way")
    assert rows[-1] == "2 cases: 2 as expected, 0 not"
