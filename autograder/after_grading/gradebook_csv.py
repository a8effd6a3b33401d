"""`gradebook OUT --csv FILE`: the gradebook as a table, every grade in it as read now.

Per assignment: `status`, `score` (the automatic points as graded), `late_penalty`,
`final_score` (the final grade, final_grade.py: the same number the LMS file and the feedback
show), `max_score` (what `final_score` is out of: the automatic and the written parts' points),
`submitted_at`, each part's and each test's points, then `automatic` (the automatic points with
instructors' overrides), with a late policy `due` (the student's own due date) and `days_late`,
and with written parts one column each ("not graded yet" until people grade it: it counts 0 in
`final_score` until then) and `manual_points`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from autograder.after_grading.final_grade import FinalGrade, class_grades
from autograder.after_grading.graded import current_books
from autograder.course.rubric import AssignmentSpec
from autograder.grading.gradebook import ExtraColumns, Gradebook
from autograder.manual.totals import NOT_GRADED

if TYPE_CHECKING:
    from autograder.course.course import Course


def write_gradebook_csv(folder: Path, target: Path, course: Course) -> tuple[int, list[str]]:
    """Write the table of the gradebook of `folder` to `target`; returns the number of
    students and the assignments in it."""
    books = current_books(folder, course)
    specs = {name: course.rubric.assignment(name) for name in books}
    parts = {name: [part.name for part in spec.parts] for name, spec in specs.items()}
    extra = {
        name: grade_columns(class_grades(folder, specs[name], entries), specs[name])
        for name, entries in books.items()
    }
    with Gradebook(folder) as book:
        rows = book.export_csv(target, parts=parts, extra=extra)
    return rows, list(books)


def grade_columns(grades: dict[str, FinalGrade], spec: AssignmentSpec) -> ExtraColumns:
    """The cells the final grades replace, and the columns they add (see the module)."""
    header = ["automatic"]
    if spec.late is not None:
        header += ["due", "days_late"]
    header += [part.name for part in spec.manual]
    if spec.manual:
        header.append("manual_points")
    replaced: dict[str, dict[str, object]] = {}
    cells: dict[str, tuple[object, ...]] = {}
    for student, grade in grades.items():
        replaced[student] = {
            "late_penalty": grade.late_penalty,
            "final_score": grade.final if grade.graded else "",
            "max_score": grade.maximum,
        }
        row: list[object] = [grade.automatic]
        if spec.late is not None:
            row += [grade.due.isoformat() if grade.due else "", grade.days_late]
        row += [NOT_GRADED if mark.points is None else mark.points for mark in grade.written]
        if spec.manual:
            row.append(NOT_GRADED if grade.ungraded else grade.written_points)
        cells[student] = tuple(row)
    return ExtraColumns(header=tuple(header), cells=cells, replaced=replaced)
