"""How `validate` judges an independent corpus's hints: a checked fact never misleads, a
diagnosis that misses the mistake's keywords does."""

from __future__ import annotations

from autograder.authoring.corpus import Variant, judge
from autograder.grading.results import SubmissionResult, TestResult

MISTAKE = Variant("angle_sign", "a forum thread", "def f(x):\n    return -x\n", ("sign",),
                  kind="mistake")  # fmt: skip


def _judged(hint: str) -> tuple[bool, tuple[str, ...]]:
    test = TestResult("attention", "public_tests/test_a.py::test_a", "attention", 0, 1,
                      "failed", "visible", message="wrong", hint=hint)  # fmt: skip
    result = SubmissionResult("a", "angle_sign", "graded", 0, 1, ("process",), 0.1, (test,))
    judged = judge(MISTAKE, result)
    return judged.named, judged.misleading


def test_the_blame_alone_is_a_checked_fact() -> None:
    blame = "attend calls rope, which is wrong on its own tests: fix rope first, this test " \
        "depends on it"  # fmt: skip
    assert _judged(blame) == (False, ())  # names nothing, misleads no one


def test_a_blame_with_a_diagnosis_is_held_to_the_keywords() -> None:
    blame = "attend calls rope, which is wrong on its own tests: fix rope first, this test " \
        "depends on it"  # fmt: skip
    assert _judged(blame + " (rope: the sign of the angle is flipped)") == (True, ())
    wrong = blame + " (rope: the frequencies are off by a factor of two)"
    assert _judged(wrong) == (False, (wrong,))


def test_a_blame_naming_another_culprit_than_it_fixes_is_not_the_engines() -> None:
    odd = "attend calls rope, which is wrong on its own tests: fix attend first, this test " \
        "depends on it"  # fmt: skip
    assert _judged(odd) == (False, (odd,))


def test_a_keyword_may_be_said_either_way() -> None:
    """ "grow|multiplied by": the symptom or the change that gives it names the mistake; a hint
    with neither still misleads."""
    either = Variant("inverted", "a tutorial", "def f(x):\n    return x\n",
                     ("grow|multiplied by",), kind="mistake")  # fmt: skip
    test = TestResult("encoding", "public_tests/test_e.py::test_e", "encoding", 0, 1, "failed",
                      "visible", message="wrong", hint="")  # fmt: skip

    def judged(hint: str) -> tuple[bool, tuple[str, ...]]:
        result = SubmissionResult("a", "inverted", "graded", 0, 1, ("process",), 0.1,
                                  (TestResult(**{**vars(test), "hint": hint}),))  # fmt: skip
        j = judge(either, result)
        return j.named, j.misleading

    assert judged("your frequencies grow with i") == (True, ())
    assert judged("the angles: multiplied by the power where divided by it belongs") == (True, ())
    assert judged("the angles: a sum where a product belongs") == (
        False, ("the angles: a sum where a product belongs",)
    )  # fmt: skip
