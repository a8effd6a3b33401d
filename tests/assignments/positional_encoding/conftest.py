"""The positional-encoding assignment's own tests run on the repository's course
(repository_course.py says why every fixture derived from the assignment is overridden here)."""

from repository_course import assignment_fixture, course, reference, spec

assignment = assignment_fixture("positional_encoding")

__all__ = ["assignment", "course", "reference", "spec"]
