"""Where a course's files live: the folder holding `grading.toml`, and each assignment's paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder.course.assignment import Assignment
from autograder.course.rubric import Rubric, load_rubric
from autograder.errors import ConfigError

RUBRIC_FILE = "grading.toml"
TEMPLATE_INI = "pytest.ini"
"""A released assignment folder describes itself in this file (see release.py)."""
SUBMISSION_INI = "autograder_submission"
"""The key, in TEMPLATE_INI's [pytest] section, naming the student's module."""
MAY_MODIFY_INI = "autograder_may_modify_inputs"
"""The key, in TEMPLATE_INI's [pytest] section, naming the functions that may modify their
array arguments (the rubric's `may_modify_inputs`), separated by spaces."""


@dataclass(frozen=True)
class Course:
    """A course folder: `grading.toml`, `assignments/`, `reference/` and `student_template/`."""

    root: Path
    rubric: Rubric

    @classmethod
    def find(cls, start: Path) -> Course:
        """The course whose `grading.toml` is in `start` or the nearest folder above it."""
        found = find_course_root(start)
        if found is None:
            raise ConfigError(
                f"no {RUBRIC_FILE} in {start.resolve()} or any folder above it: "
                "run this command inside the course folder, or pass --course DIR"
            )
        return cls.load(found)

    @classmethod
    def load(cls, root: Path) -> Course:
        root = root.resolve()
        return cls(root=root, rubric=load_rubric(root / RUBRIC_FILE))

    @property
    def assignments(self) -> tuple[Assignment, ...]:
        """Every assignment of the rubric, in its order."""
        return tuple(Assignment(self, spec) for spec in self.rubric.assignments)

    def assignment(self, name: str | None = None) -> Assignment:
        """The assignment called `name`; with no name, the only one (an error if there are more)."""
        return Assignment(self, self.rubric.assignment(name))

    def selected(self, name: str | None) -> tuple[Assignment, ...]:
        """The one named, or every assignment when `name` is None (a course-wide verb)."""
        return self.assignments if name is None else (self.assignment(name),)


def find_course_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds `grading.toml`, or None."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / RUBRIC_FILE).is_file():
            return folder
    return None
