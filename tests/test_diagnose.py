"""Diagnosis names a catalogued mistake; validate proves every mistake is caught and named."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.validate import validate
from autograder.course.assignment import Assignment
from autograder.course.course import Course
from autograder.diagnosis.diagnose import Call, Misconception, describe, diagnose


@pytest.fixture(scope="module")
def catalogue(assignment: Assignment) -> tuple[Misconception, ...]:
    return assignment.load_catalogue()


def names(found: list[Misconception]) -> set[str]:
    return {m.name for m in found}


def test_a_matching_variant_is_named(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, -4.0])
    found = diagnose([Call("normalise", (v,), {}, v / v.sum())], catalogue, reference)
    assert names(found) == {"normalise_by_sum"}
    assert describe(found) == f"{found[0].target}: {found[0].summary}: {found[0].hint}"


def test_a_correct_answer_is_never_diagnosed(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([1.0, 2.0, 2.0])
    calls = [
        Call("normalise", (v,), {}, reference.normalise(v)),
        Call("scale", (v, 2.0), {}, reference.scale(v, 2.0)),
    ]
    assert diagnose(calls, catalogue, reference) == []


def test_variants_with_the_same_numbers_share_a_hint(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, 4.0])  # positive entries: the sum and the L1 norm agree
    found = diagnose([Call("normalise", (v,), {}, v / 7.0)], catalogue, reference)
    assert names(found) == {"normalise_by_sum", "normalise_by_l1_norm"}
    hint = describe(found) or ""
    assert hint.startswith(f"{found[0].target}: your results match 2 known mistakes")


def test_a_mistake_shows_through_the_functions_that_use_it(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    u, v = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    wrong = float((u / u.sum()) @ (v / v.sum()))  # cosine through a normalise by the sum
    found = diagnose([Call("cosine", (u, v), {}, wrong)], catalogue, reference)
    assert names(found) == {"normalise_by_sum"}
    assert diagnose([Call("scale", (u, 2.0), {}, u * 3.0)], catalogue, reference) == []


def test_mutation_constants_and_symbols(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    v = np.array([3.0, 4.0])
    mutated = Call("normalise", (v,), {}, reference.normalise(v), modified=(0,))
    assert names(diagnose([mutated], catalogue, reference)) == {"normalise_in_place"}
    one_step = [("(sin(a)**2 + cos(a)**2)*b", "statement"), ("b", "Pythagoras")]
    constant = Call("PYTHAGORAS_PROOF", (), {}, one_step)
    assert names(diagnose([constant], catalogue, reference)) == {"pythagoras_in_one_step"}
    a, b = sp.symbols("a b", real=True)
    squares = Call("square_sum", (a, b), {}, a**2 + b**2)
    assert names(diagnose([squares], catalogue, reference)) == {"square_without_cross_term"}


def test_validate_names_a_variant_no_test_catches_any_more(course_copy: Course) -> None:
    """Neuter the only test that catches a modified argument (keeping its points)."""
    vectors = course_copy.assignment("vectors")
    path = vectors.public_tests / "test_numeric.py"
    test = "test_normalise_leaves_its_argument_alone"
    neutered = f"def {test}(student):\n    student.scale(np.zeros(1), 1.0)\n"
    source = path.read_text().replace('@pytest.mark.keeps_inputs("normalise")\n', "")
    path.write_text(source.replace(f"def {test}(", f"{neutered}\n\ndef _old_{test}("))
    rubric = course_copy.rubric.path  # let normalise (and cosine, which calls it) modify inputs
    text = rubric.read_text().replace(
        "seed = 424242\n", 'seed = 424242\nmay_modify_inputs = ["normalise", "cosine"]\n', 1
    )
    rubric.write_text(text)
    vectors = Course.load(course_copy.root).assignment("vectors")
    (verdict,) = validate(vectors, only=["normalise_in_place"])
    assert verdict.name == "variant: normalise_in_place"
    assert not verdict.ok and verdict.problem == "lost nothing in numeric: no test catches it"
    assert verdict.score == 10


def test_a_function_no_test_guards_still_keeps_its_inputs(course_copy: Course) -> None:
    """Without the marked test, every test whose own call modifies normalise's argument loses
    its points, naming the argument: every public function keeps its inputs by default."""
    vectors = course_copy.assignment("vectors")
    path = vectors.public_tests / "test_numeric.py"
    path.write_text(path.read_text().replace('@pytest.mark.keeps_inputs("normalise")\n', ""))
    (verdict,) = validate(vectors, only=["normalise_in_place"])
    assert verdict.score < 10


def test_the_fixture_course_validates(course: Course) -> None:
    """Every case of both fixture assignments is as expected: the reference full, the stubs
    zero, each catalogued mistake caught in its own part with its own hint, each style full."""
    for assignment in course.assignments:
        verdicts = validate(assignment)
        assert [v.name for v in verdicts if not v.ok] == [], assignment.name
        names = {v.name for v in verdicts}
        assert {"reference", "stubs"} <= names
        assert {f"variant: {m.name}" for m in assignment.load_catalogue()} <= names


def test_a_call_the_reference_refuses_names_no_numeric_mistake(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    """A test of the argument contract (the reference raises) gets no replay hint, although
    every variant that forgets the check returns the same numbers as the student."""
    zero = np.zeros(3)
    assert diagnose([Call("normalise", (zero,), {}, zero)], catalogue, reference) == []


def test_a_replay_must_explain_every_call_where_it_shows(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    """Positive entries make the sum and the L1 norm agree; a right answer on an input where
    the mistake would show rules it out, and so does another call it does not explain."""
    positive, mixed = np.array([3.0, 4.0]), np.array([3.0, -4.0])
    by_sum = Call("normalise", (positive,), {}, positive / 7.0)
    assert names(diagnose([by_sum], catalogue, reference)) == {
        "normalise_by_sum",
        "normalise_by_l1_norm",
    }
    l1 = Call("normalise", (mixed,), {}, mixed / 7.0)
    assert names(diagnose([by_sum, l1], catalogue, reference)) == {"normalise_by_l1_norm"}
    right = Call("normalise", (mixed,), {}, reference.normalise(mixed))
    assert diagnose([by_sum, right], catalogue, reference) == []


def test_another_tests_call_rules_a_degenerate_match_out(
    catalogue: tuple[Misconception, ...], reference: ModuleType
) -> None:
    from autograder.diagnosis.diagnose import contradicted, variant_namespace

    (by_sum,) = [m for m in catalogue if m.name == "normalise_by_sum"]
    namespace = variant_namespace(by_sum, reference)
    mixed = np.array([3.0, -4.0])
    elsewhere = Call("normalise", (mixed,), {}, mixed / 7.0)  # the L1 norm, not the sum
    assert contradicted(by_sum, [elsewhere], reference, namespace)
    agreeing = Call("normalise", (mixed,), {}, mixed / -1.0)
    assert not contradicted(by_sum, [agreeing], reference, namespace)


def test_signatures_measure_what_no_catalogue_lists(
    assignment: Assignment, reference: ModuleType
) -> None:
    from autograder.diagnosis.diagnose import observe

    signatures = assignment.load_signatures()
    v = np.array([3.0, 4.0])
    wrong = Call("normalise", (v,), {}, v / 25.0)  # divided by the squared norm
    observed = observe([wrong], signatures, reference)
    assert observed == ["normalise: your result points along v but has length 0.2, not 1"]
    right = Call("normalise", (v,), {}, reference.normalise(v))
    assert observe([right], signatures, reference) == []
    hint = describe([], observed)
    assert hint == (
        "measured on your output: normalise: your result points along v but has length 0.2, not 1"
    )


def test_a_signature_that_raises_says_nothing(reference: ModuleType) -> None:
    from autograder.diagnosis.diagnose import Signature, observe

    def broken(call: Call, expected: object) -> str:
        raise ZeroDivisionError

    v = np.array([3.0, 4.0])
    calls = [Call("normalise", (v,), {}, v)]
    assert observe(calls, [Signature("normalise", broken)], reference) == []


def test_the_submissions_evidence_is_bounded(
    reference: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submission returning large arrays call after call cannot make the grader keep them
    all: beyond HISTORY_BYTES, later calls are not kept as evidence."""
    from autograder.diagnosis import judgement
    from autograder.grading.pytest_plugin import GradingContext

    monkeypatch.setattr(judgement, "HISTORY_BYTES", 3 * (8_000_000 + 8 + 256))
    context = GradingContext(student=None, reference=reference, tolerance={}, seed=0)
    big = np.zeros(1_000_000)
    for _ in range(10):
        context.calls.append(Call("scale", (np.zeros(1), 1.0), {}, big))
        context._remember()
    assert len(context.history) == 3 and context.calls == []
    context.reset()
    assert context.history == [] and context.diagnosed == {}


def test_a_mistake_about_refused_inputs_is_replayed_on_them(reference: ModuleType) -> None:
    """A mistake that returns where the reference raises (here: the zero vector comes back as
    it is) names itself on exactly those calls; no numeric mistake does."""

    def zero_returned(v):  # type: ignore[no-untyped-def]
        v = np.asarray(v, dtype=np.float64)
        norm = np.linalg.norm(v)
        return v if norm == 0 else v / norm

    def zero_as_nan(v):  # type: ignore[no-untyped-def]
        v = np.asarray(v, dtype=np.float64)
        return v / np.linalg.norm(v)

    returned = Misconception(
        "zero_returned", "normalise", "numeric", "the zero vector comes back", "raise",
        zero_returned, refused_inputs=True,
    )  # fmt: skip
    as_nan = Misconception(
        "zero_as_nan", "normalise", "numeric", "nan for the zero vector", "raise",
        zero_as_nan, refused_inputs=True,
    )  # fmt: skip
    numeric = Misconception("numeric", "normalise", "numeric", "s", "h", zero_returned)
    zero = np.zeros(3)
    call = Call("normalise", (zero,), {}, zero)
    assert names(diagnose([call], [returned, as_nan, numeric], reference)) == {"zero_returned"}


def test_validate_judges_the_independent_corpus(course_copy: Course) -> None:
    """The corpus's row: named at the promised rate, and a mistake that keeps full marks (here a
    right function filed as a mistake) breaks it, by name."""
    vectors = course_copy.assignment("vectors")
    (row,) = validate(vectors, only=["corpus"])
    assert row.name == "independent corpus" and row.ok, row.problem
    assert "4 mistakes, 0 full marks, 4 named (100 %), 0 misleading" in row.hint
    path = vectors.folder / "independent_corpus.py"
    kept = (
        'VARIANTS = VARIANTS + (Variant("scale_twice", "a right scale filed as a mistake", '
        '"def scale(x, c):\\n    return np.asarray(x, dtype=np.float64) * float(c)\\n", '
        '("factor",), kind="mistake"),)\n'
    )
    path.write_text(path.read_text() + kept)
    (row,) = validate(vectors, only=["corpus"])
    assert not row.ok and "mistake scale_twice kept full marks" in (row.problem or "")


def test_a_primed_runner_diagnoses_without_replaying(
    reference: ModuleType, catalogue: tuple[Misconception, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner primes the answers to its rehearsal's calls (the tests' own inputs): a
    child's diagnosis of a wrong result on those inputs names the same mistake, replaying no
    trusted code; on other inputs it replays as before."""
    from autograder.diagnosis import replays
    from autograder.grading.pytest_plugin import GradingContext

    def hint_for(context: GradingContext, calls: list[Call]) -> str | None:
        context.reset()
        context.calls.extend(calls)
        return context.hint("test_normalise")

    v, w = np.array([3.0, -4.0]), np.array([1.0, 3.0])
    wrong = [Call("normalise", (v,), {}, v / v.sum())]
    unprimed = hint_for(GradingContext(student=None, reference=reference, tolerance={},
                                       seed=0, catalogue=catalogue), wrong)  # fmt: skip
    replays.forget_primed()
    context = GradingContext(student=None, reference=reference, tolerance={}, seed=0,
                             catalogue=catalogue)  # fmt: skip
    context.calls.append(Call("normalise", (v.copy(),), {}, reference.normalise(v)))
    try:
        assert context.prime_answers() == 1
        replayed: list[str] = []
        original = replays.answer

        def counted(function: object, args: object, kwargs: dict[str, object]) -> object:
            replayed.append(getattr(function, "__name__", "?"))
            return original(function, args, kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(replays, "answer", counted)
        assert hint_for(context, wrong) == unprimed
        (by_sum,) = [m for m in catalogue if m.name == "normalise_by_sum"]
        assert unprimed is not None and by_sum.summary in unprimed
        assert replayed == []
        assert hint_for(context, [Call("normalise", (w,), {}, w / w.sum())]) is not None
        assert replayed  # inputs no rehearsal made: replayed as before
    finally:
        replays.forget_primed()
