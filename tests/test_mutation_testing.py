"""Mutation testing's judgement of a survey: a mutant is caught only by a test of its own part,
an unseen or uncaught one is a survivor, equivalents drop out, waivers need a reason and a
mutant that still exists."""

from __future__ import annotations

from typing import Any

import pytest

from autograder.authoring.mutation_testing import broken_sentence, judge
from autograder.course.assignment import WAIVERS_FILE
from autograder.course.course import Course
from autograder.errors import ConfigError

TESTS = {
    "tests/test_norm.py::test_unit_length": {"part": "norm", "function": "normalise",
                                              "status": "passed"},
    "tests/test_norm.py::test_direction": {"part": "norm", "function": "normalise",
                                           "status": "passed"},
    "tests/test_scale.py::test_scale": {"part": "scale", "function": "scale", "status": "passed"},
}  # fmt: skip

DOCSTRINGS = {
    "normalise": "Return v divided by its length. A zero vector has no direction: raise "
    "ValueError. The result keeps the dtype float64.",
    "scale": "Return v times the factor c.",
}


def row(key: str, status: str, failed: list[str], function: str = "normalise",
        line: int = 7) -> dict[str, Any]:  # fmt: skip
    """One mutant as the survey writes it."""
    return {
        "key": key, "function": function, "line": line, "operator": "function swapped",
        "change": f"change {key}", "before": "np.linalg.norm(v)", "after": "np.sum(v)",
        "status": status, "tests": list(TESTS), "group": "", "failed": failed,
    }  # fmt: skip


def survey(*rows: dict[str, Any]) -> dict[str, Any]:
    return {"tests": TESTS, "mutants": list(rows)}


def test_a_failure_in_the_mutants_own_part_catches_it() -> None:
    """A mutant of normalise is caught by a failing test of normalise's part."""
    report = judge(survey(row("a", "seen", ["tests/test_norm.py::test_direction"])), {}, DOCSTRINGS)
    assert (report.caught, report.survivors, report.score) == (1, (), 1.0)


def test_a_failure_in_another_part_leaves_a_survivor() -> None:
    """A mutant of normalise that only scale's tests notice loses no points where it should:
    it survives, with the docstring sentence its change most likely breaks."""
    report = judge(survey(row("b", "seen", ["tests/test_scale.py::test_scale"])), {}, DOCSTRINGS)
    assert report.caught == 0
    (survivor,) = report.survivors
    assert (survivor.key, survivor.function, survivor.line, survivor.unseen) == (
        "b", "normalise", 7, False
    )  # fmt: skip
    assert survivor.sentence == "Return v divided by its length."
    assert report.problems() == [f"survivor: {survivor.describe()}"]
    assert "no test of its part fails" in survivor.describe()
    assert report.score == 0.0


def test_a_seen_mutant_no_test_fails_on_survives() -> None:
    """A mutant the tests' inputs show, on which every test passes, is a missing test."""
    report = judge(survey(row("c", "seen", [])), {}, DOCSTRINGS)
    assert [s.key for s in report.survivors] == ["c"]


def test_an_unseen_mutant_survives_flagged_unseen() -> None:
    """A mutant only the random probes tell apart is a survivor whose test needs new inputs,
    even if a test of its part happened to fail."""
    report = judge(
        survey(row("d", "unseen", ["tests/test_norm.py::test_direction"])), {}, DOCSTRINGS
    )
    (survivor,) = report.survivors
    assert survivor.unseen
    assert "no test's inputs show it" in survivor.describe()
    assert report.caught == 0


def test_an_equivalent_mutant_is_dropped() -> None:
    """An equivalent mutant is no missing test: counted, never a survivor, out of the score."""
    report = judge(
        survey(row("e", "equivalent", []),
               row("a", "seen", ["tests/test_norm.py::test_unit_length"])),
        {}, DOCSTRINGS,
    )  # fmt: skip
    assert (report.mutants, report.equivalent, report.caught, report.survivors) == (2, 1, 1, ())
    assert report.score == 1.0


def test_a_waived_survivor_is_counted_waived() -> None:
    """A mutant the instructor waives (with a reason) is no survivor and no stale waiver."""
    report = judge(survey(row("w", "seen", [])), {"w": "equivalent on integers"}, DOCSTRINGS)
    assert (report.waived, report.survivors, report.stale_waivers) == (1, (), ())
    assert report.problems() == []


def test_a_waiver_of_a_mutant_that_no_longer_exists_is_a_problem() -> None:
    """The reference changed and the waived mutant is gone: the waiver is stale, said so."""
    report = judge(survey(row("a", "seen", ["tests/test_norm.py::test_direction"])),
                   {"gone: x -> y": "no longer true"}, DOCSTRINGS)  # fmt: skip
    assert report.stale_waivers == ("gone: x -> y",)
    assert report.problems() == [
        f"{WAIVERS_FILE} waives a mutant that no longer exists: gone: x -> y"
    ]


def test_the_score_and_its_summary() -> None:
    """Caught among the mutants that must be caught: 2 caught, 1 survivor, 1 equivalent and 1
    waived out of 5 make 2/3."""
    report = judge(
        survey(
            row("a", "seen", ["tests/test_norm.py::test_direction"]),
            row("s", "seen", ["tests/test_scale.py::test_scale"], function="scale"),
            row("b", "seen", ["tests/test_scale.py::test_scale"]),
            row("e", "equivalent", []),
            row("w", "unseen", []),
        ),
        {"w": "only huge inputs show it"},
        DOCSTRINGS,
    )
    assert report.score == pytest.approx(2 / 3)
    assert report.summary() == (
        "mutation score 66.7 %: 2 of 3 caught, 1 surviving; 5 mutants, 1 equivalent, 1 waived"
    )


def test_broken_sentence_picks_the_sentence_sharing_names() -> None:
    """The survivor points at the docstring sentence about the changed code; none sharing a
    name gives the first sentence, and no docstring gives nothing."""
    docstring = DOCSTRINGS["normalise"]
    about_error = {"before": "ValueError('zero')", "after": "pass"}
    assert broken_sentence(docstring, about_error) == "A zero vector has no direction:"
    about_result = {"before": "result.astype(float)", "after": "result"}
    assert broken_sentence(docstring, about_result) == "The result keeps the dtype float64."
    # dtype and float64 are the code's words, not the quantity's: v decides
    about_dtype = {"before": "np.asarray(v, dtype=np.float64)", "after": "np.asarray(v)"}
    assert broken_sentence(docstring, about_dtype) == "Return v divided by its length."
    unrelated = {"before": "q", "after": "k"}
    assert broken_sentence(docstring, unrelated) == "Return v divided by its length."
    assert broken_sentence("", about_error) == ""


@pytest.mark.parametrize(
    "entry",
    ['mutant = "normalise: x -> y"\n', 'mutant = "normalise: x -> y"\nreason = "  "\n',
     'reason = "no mutant named"\n'],
)  # fmt: skip
def test_a_waiver_needs_a_mutant_and_a_reason(course_copy: Course, entry: str) -> None:
    """A waiver without its reason (or its mutant) is refused: no test is excused silently."""
    vectors = course_copy.assignment("vectors")
    (vectors.folder / WAIVERS_FILE).write_text(f"[[waiver]]\n{entry}", encoding="utf-8")
    with pytest.raises(ConfigError, match="needs a mutant and a reason"):
        vectors.load_waivers()


def test_waivers_are_read_by_mutant_key(course_copy: Course) -> None:
    """A well-formed waiver file reads as {key: reason}; no file means no waiver."""
    vectors = course_copy.assignment("vectors")
    (vectors.folder / WAIVERS_FILE).unlink()
    assert vectors.load_waivers() == {}
    (vectors.folder / WAIVERS_FILE).write_text(
        '[[waiver]]\nmutant = "normalise: x -> y"\nreason = "equal on the unit sphere"\n',
        encoding="utf-8",
    )
    assert vectors.load_waivers() == {"normalise: x -> y": "equal on the unit sphere"}


def test_a_left_out_refusal_is_equivalent_only_where_a_call_was_refused_by_it() -> None:
    """Probes redraw arrays, never the inputs a function refuses: a `raise` left out counts as
    reached only when a recorded call was refused with that raise's own message (an unknown
    layout nobody tried is a missing test, not an equivalence)."""
    from autograder.authoring.mutant_survey import _refused_by_it
    from autograder.diagnosis.mutants import mutants
    from autograder.protocol.calls import Call

    source = (
        "def rope(x, layout='a'):\n"
        "    if layout not in ('a', 'b'):\n"
        "        raise ValueError(f'layout must be a or b, got {layout!r}')\n"
        "    if x < 0:\n"
        "        raise ValueError(f'x must not be negative, got {x}')\n"
        "    return x\n"
    )
    namespace: dict[str, Any] = {}
    exec(compile(source, "<reference>", "exec"), namespace)
    left_out = [m for m in mutants(source, namespace) if m.operator == "raise removed"]
    layout = next(m for m in left_out if "layout must" in m.before)
    sign = next(m for m in left_out if "negative" in m.before)
    refused = [("test_sign", Call("rope", (-1,), {}, None, raised="ValueError",
                                  error="x must not be negative, got -1"))]  # fmt: skip
    assert _refused_by_it(sign, refused)
    assert not _refused_by_it(layout, refused)
