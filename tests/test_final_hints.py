"""A submission's hints once it has run: a mutant's cause beside what the signatures measured,
one function said alike in each of its tests, a blame that repeats the culprit's own words,
and the nan a cause leaves unsaid."""

from __future__ import annotations

import types

import numpy as np

from autograder.diagnosis.diagnose import Signature
from autograder.diagnosis.disclosure import SHOWN_AT_ONCE
from autograder.diagnosis.judgement import SubmissionJudgement
from autograder.diagnosis.mutant_match import MutantModels
from autograder.protocol.calls import Call

REFERENCE = '''
import numpy as np


def double(x):
    """Twice x."""
    return 2.0 * x


def shifted(x):
    """double(x) + 1."""
    return double(x) + 1.0


def soft(x):
    """The softmax of x, stable for large entries."""
    e = np.exp(x - np.max(x))
    return e / e.sum()


def halve(x):
    """x / 2 of a number x >= 0; ValueError for a negative x."""
    if x < 0:
        raise ValueError("x must be >= 0")
    return x / 2.0
'''

TOLERANCE = {"rtol": 1e-7, "atol": 1e-9}


def graded(name: str, tests: dict[str, list[Call]], measure: bool = False) -> dict[str, str | None]:
    """The final hints of a submission whose tests made `tests`' calls, in order; `measure`:
    with a signature of double that speaks on arrays of two entries or more only."""
    module = types.ModuleType(f"instructor_final_hints_{name}")
    exec(compile(REFERENCE, "<reference>", "exec"), module.__dict__)

    def ratio(call: Call, expected: object) -> str | None:
        got, want = np.asarray(call.result), np.asarray(expected)
        if got.size < 2:
            return None
        return f"your results are {float(got[0] / want[0]):g} times the expected ones"

    judgement = SubmissionJudgement(
        reference=module, tolerance=TOLERANCE,
        signatures=[Signature("double", ratio)] if measure else [],
        mutant_models=MutantModels(module, REFERENCE),
    )  # fmt: skip
    for nodeid, calls in tests.items():
        judgement.failed(nodeid, calls, SHOWN_AT_ONCE)
        judgement.remember(calls, SHOWN_AT_ONCE)
    return judgement.final_hints()


PAIR, ONE = np.array([1.0, 2.0]), np.array([5.0])
TRIPLED = {
    "test_pair": [Call("double", (PAIR,), {}, 3.0 * PAIR)],
    "test_one": [Call("double", (ONE,), {}, 3.0 * ONE)],
    "test_shifted": [Call("shifted", (PAIR,), {}, 3.0 * PAIR + 1.0)],
}


def test_a_mutant_is_named_beside_what_the_signatures_measured() -> None:
    """The student's double triples: the mutant names the change, and the instructor's
    signature (which speaks on two entries) says what it measured, on both of double's tests
    alike: a student reads one account of one function."""
    hints = graded("beside", TRIPLED, measure=True)
    cause = "double: the result: 3 where 2 belongs"
    measured = "measured on your output: double: your results are 1.5 times the expected ones"
    assert hints["test_pair"] == f"{cause} — {measured}"
    assert hints["test_one"] == f"{cause} — {measured}"


def test_the_measure_beside_a_cause_is_of_the_function_the_cause_names() -> None:
    """A test that calls soft first (rightly) and then double (wrongly) names double's change,
    with what the signatures measured of double, not of the first function it called."""
    small = np.array([0.5, 0.25])
    right = Call("soft", (small,), {}, np.exp(small - 0.5) / np.exp(small - 0.5).sum())
    hints = graded("first_call", {**TRIPLED, "test_both": [right, *TRIPLED["test_one"]]},
                   measure=True)  # fmt: skip
    assert hints["test_both"] == (
        "double: the result: 3 where 2 belongs — measured on your output: double: your "
        "results are 1.5 times the expected ones"
    )


def test_a_blame_repeats_the_culprits_own_hint() -> None:
    """shifted fails because double is wrong: its hint sends the student to double, with the
    very words double's own tests say."""
    hints = graded("blame", TRIPLED, measure=True)
    own = "the result: 3 where 2 belongs — measured on your output: "
    assert (
        hints["test_pair"] == f"double: {own}double: your results are 1.5 times the expected ones"
    )
    assert hints["test_shifted"] == (
        "shifted calls double, which is wrong on its own tests: fix double first, this test "
        f"depends on it (double: {own}your results are 1.5 times the expected ones)"
    )


def test_a_cause_is_followed_by_the_nan_the_student_sees() -> None:
    """Without the maximum subtracted, large scores overflow: the mutants name the change, and
    the nan it leaves is measured beside them, without a cause of its own (the cause is the
    mutants' to say: the same nan comes from every exp of a row underflowing to 0)."""
    large = np.array([1000.0, 999.0])
    with np.errstate(all="ignore"):
        naive = np.exp(large) / np.exp(large).sum()
    small = np.array([0.5, 0.25])
    hints = graded("overflow", {
        "test_small": [Call("soft", (small,), {}, np.exp(small) / np.exp(small).sum())],
        "test_large": [Call("soft", (large,), {}, naive)],
    })  # fmt: skip
    hint = hints["test_large"]
    assert hint is not None and hint.startswith("soft: ")
    assert "the maximum is not subtracted" in hint
    assert hint.endswith(
        "— measured on your output: soft: your result holds nan where the expected values are "
        "finite, on inputs as large as 1e+03"
    )


def test_a_function_answering_the_same_call_twice_differently_keeps_state() -> None:
    """No model of one call reproduces two answers to one question: the failing test's hint
    says the function keeps something between calls (a cache of an earlier call's angles, a
    global counter)."""
    module = types.ModuleType("instructor_final_hints_state")
    exec(compile(REFERENCE, "<reference>", "exec"), module.__dict__)
    judgement = SubmissionJudgement(reference=module, tolerance=TOLERANCE,
                                    mutant_models=MutantModels(module, REFERENCE))  # fmt: skip
    judgement.remember([Call("double", (PAIR,), {}, 2.0 * PAIR)], SHOWN_AT_ONCE)  # passed
    again = [Call("double", (PAIR.copy(),), {}, 4.0 * PAIR)]  # reads what the first left
    judgement.failed("test_again", again, SHOWN_AT_ONCE)
    judgement.remember(again, SHOWN_AT_ONCE)
    assert judgement.final_hints() == {
        "test_again": "measured on your output: double: the same arguments gave two different "
        "results: it keeps something from one call to the next (a cache, a global, an "
        "argument it changes); compute each result from its own arguments alone"
    }


def test_a_test_failed_on_a_refusal_alone_is_not_told_a_numeric_cause() -> None:
    """The student's halve divides by 3 and accepts -1: the test of a value names the change;
    the test of the refusal hears nothing of a divisor, which its own calls never show."""
    hints = graded("refusal_alone", {
        "test_value": [Call("halve", (4.0,), {}, 4.0 / 3.0)],
        "test_refuses": [Call("halve", (-1.0,), {}, -1.0 / 3.0)],
    })  # fmt: skip
    assert hints["test_value"] == "halve: the result: 3 where 2 belongs"
    assert "where 2 belongs" not in (hints["test_refuses"] or "")
