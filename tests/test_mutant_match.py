"""Naming an uncatalogued mistake: a mutant is named only when it reproduces every recorded call
of its function, and a catalogue entry only when it explains every wrong call of its own."""

from __future__ import annotations

import types

import numpy as np

from autograder.course.catalogue import Misconception
from autograder.diagnosis.diagnose import describe, diagnose
from autograder.diagnosis.mutant_match import MAX_NAMED, MutantModels
from autograder.diagnosis.mutants import MUTANT_PREFIX
from autograder.protocol.calls import Call

RTOL, ATOL = 1e-7, 1e-9

TOTAL = '''
import numpy as np


def total(x: np.ndarray) -> float:
    """The sum of the sines of x."""
    return float(np.sum(np.sin(x)))
'''

ROOT = '''
import math


def root(x: float) -> float:
    """The square root of x, which must not be negative."""
    if x < 0:
        raise ValueError("x must not be negative")
    return math.sqrt(x)
'''

AFFINE = """
def affine(x: float, y: float) -> float:
    return (x + 1.0) * 2.0
"""

SCALED = """
def scaled(x: float, y: float) -> float:
    return (x + 1.0) * 2.0 * y
"""

MIXED = """
def mixed(x: float, y: float, z: float, w: float) -> float:
    return (x + 1.0) * y * z * w
"""

MODULUS = """
import numpy as np


def modulus(x):
    return np.abs(np.cumsum(np.exp(1j * x)))
"""

PRODUCT = """
def product(x: float, y: float) -> float:
    a = x * 2.0
    b = y * 2.0
    return a * b
"""


def models(source: str, name: str) -> MutantModels:
    """The mutants of a reference module built from `source` (a module of its own name: the
    diagnosis caches what each reference's functions reach)."""
    module = types.ModuleType(f"instructor_mutant_match_{name}")
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return MutantModels(module, source)


def causes(source: str, name: str, calls: list[Call]) -> list[Misconception]:
    return models(source, name).causes(name, calls, rtol=RTOL, atol=ATOL)


SHORT, LONG = np.array([0.1, 0.2]), np.array([1.0, 2.0, 3.0])


def cosine_sum(x: np.ndarray) -> float:
    return float(np.cos(x).sum())


def test_a_mutant_reproducing_every_call_is_named() -> None:
    """The student summed cosines on both calls: the one mutant that does so is named, in
    words that say the change and nothing of the code."""
    calls = [Call("total", (SHORT,), {}, cosine_sum(SHORT)),
             Call("total", (LONG,), {}, cosine_sum(LONG))]  # fmt: skip
    (named,) = causes(TOTAL, "total", calls)
    assert named.name == MUTANT_PREFIX + "total: np.sin(x) -> np.cos(x)"
    assert named.target == "total"
    assert named.summary == "the result: the cosine where the sine belongs"


def test_two_changes_at_once_name_nothing() -> None:
    """The negated mean of the cosines is two mistakes (three changes): no first-order mutant
    reproduces it, and a near one is not offered instead."""
    calls = [Call("total", (v,), {}, -float(np.mean(np.cos(v)))) for v in (SHORT, LONG)]
    assert causes(TOTAL, "total", calls) == []


def test_a_right_call_where_the_mutant_differs_rules_it_out() -> None:
    """The honesty rule: cosines on one call and the right sines on another is no model's
    output; the cosine mutant, which fits the first call, is not named."""
    calls = [Call("total", (SHORT,), {}, cosine_sum(SHORT)),
             Call("total", (LONG,), {}, float(np.sin(LONG).sum()))]  # fmt: skip
    assert causes(TOTAL, "total", calls) == []


def test_a_call_that_modified_its_input_is_reproduced_by_no_mutant() -> None:
    """A mutant runs on copies and never modifies an argument: a student's call that did is
    no mutant's, even where its numbers are."""
    calls = [Call("total", (SHORT,), {}, cosine_sum(SHORT), modified=(0,)),
             Call("total", (LONG,), {}, cosine_sum(LONG))]  # fmt: skip
    assert causes(TOTAL, "total", calls) == []


def test_an_exception_alone_names_no_mutant() -> None:
    """The student refuses 0 with the reference's own ValueError and answers 0.5 and 4 right.
    The comparison made loose (`x <= 0`) gives exactly these calls, yet names nothing: an
    exception says what happened, not why (a student who refuses an odd width by design is
    no loose comparison), so the symptom is left to the generic measures."""
    calls = [Call("root", (0.0,), {}, None, raised="ValueError"),
             Call("root", (0.5,), {}, 0.5**0.5), Call("root", (4.0,), {}, 2.0)]  # fmt: skip
    assert causes(ROOT, "root", calls) == []


def test_a_different_exception_is_not_reproduced() -> None:
    """A TypeError where the loose comparison raises a ValueError is not its mistake."""
    calls = [Call("root", (0.0,), {}, None, raised="TypeError"),
             Call("root", (0.5,), {}, 0.5**0.5), Call("root", (4.0,), {}, 2.0)]  # fmt: skip
    assert causes(ROOT, "root", calls) == []


def test_changes_the_calls_cannot_tell_apart_are_all_named() -> None:
    """affine(0, 1) = 0 where 2 belongs: 1 made 0, 2 made 0, or the 1 not added give it
    alike. The first and the last are one function ((x + 0)·2 and x·2), which the probes
    show: it is named once, as the step left out (the likelier account); 2 made 0 differs on
    every probe, so the two different mistakes are both named."""
    found = causes(AFFINE, "affine", [Call("affine", (0.0, 1.0), {}, 0.0)])
    assert MAX_NAMED >= 2
    assert {m.summary for m in found} == {
        "the result: 1.0 is not added",
        "the result: 0 where 2 belongs",
    }


def test_more_fitting_mistakes_than_named_ones_name_none() -> None:
    """scaled(0, 1) = 0 where 2 belongs: the changes above and x in y's place fit, three
    different mistakes; with one more candidate the calls would be a guess, and nothing
    would be named (MAX_NAMED). One more call leaves one mistake, said two ways (1 made 0,
    or 1 not added): it is named once."""
    fitting = causes(SCALED, "scaled", [Call("scaled", (0.0, 1.0), {}, 0.0)])
    assert len(fitting) == 3 == MAX_NAMED
    assert "the result: x where y belongs" in {m.summary for m in fitting}
    assert causes(MIXED, "mixed", [Call("mixed", (0.0, 1.0, 1.0, 1.0), {}, 0.0)]) == []  # 1
    # made 0, or x for y, z or w: four different mistakes, more than MAX_NAMED
    calls = [Call("scaled", (0.0, 1.0), {}, 0.0), Call("scaled", (1.0, 1.0), {}, 2.0)]
    assert [m.summary for m in causes(SCALED, "scaled", calls)] == ["the result: 1.0 is not added"]


def mutant(summary: str, target: str = "affine") -> Misconception:
    return Misconception(name=f"{MUTANT_PREFIX}{target}: {summary}", target=target, part="",
                         summary=summary, hint="")  # fmt: skip


def test_describe_phrases_several_mutants_as_changes() -> None:
    """Several mutants of one function read as alternatives, each a whole change in words;
    one reads as itself (no empty hint after it); a catalogue entry keeps its own phrasing."""
    first, second = mutant("0 where 1 belongs"), mutant("1.0 is not added")
    assert describe([first, second]) == (
        "affine: each of these changes gives exactly your numbers: 0 where 1 belongs; "
        "or 1.0 is not added"
    )
    assert describe([first]) == "affine: 0 where 1 belongs"
    known = Misconception(name="doubled", target="affine", part="p", summary="doubled",
                          hint="halve it")  # fmt: skip
    assert describe([first, known]) == (
        "affine: your results match 2 known mistakes, which give the same numbers here: "
        "0 where 1 belongs; or doubled (halve it)"
    )


DOUBLE = """
def double(x: float) -> float:
    return 2.0 * x
"""


def tripled_when_positive(x: float) -> float:
    return 3.0 * x if x > 0 else 2.0 * x


def tripled(x: float) -> float:
    return 3.0 * x


def test_a_catalogue_entry_must_explain_every_wrong_call_of_its_function() -> None:
    """The student tripled every input; an entry that triples only positive inputs agrees
    wherever it shows, yet leaves the wrong double(-1) = -3 unexplained: a partial model,
    not named. The entry that triples everything is."""
    module = types.ModuleType("instructor_mutant_match_double")
    exec(compile(DOUBLE, "<double>", "exec"), module.__dict__)
    partial = Misconception(name="partial", target="double", part="p", summary="tripled above 0",
                            hint="", implementation=tripled_when_positive)  # fmt: skip
    whole = Misconception(name="whole", target="double", part="p", summary="tripled", hint="",
                          implementation=tripled)  # fmt: skip
    positive = Call("double", (1.0,), {}, 3.0)
    negative = Call("double", (-1.0,), {}, -3.0)
    assert [m.name for m in diagnose([positive], [partial, whole], module)] == ["partial", "whole"]
    found = diagnose([positive, negative], [partial, whole], module)
    assert [m.name for m in found] == ["whole"]


def test_one_number_everywhere_names_no_mutant() -> None:
    """Leaving out the running sum gives |exp(ix)| = 1 in every entry, as do many other
    mistakes (a modulus of anything on the unit circle): a student's ones are no evidence for
    that mutant more than another, and nothing is named."""
    x, y = np.array([0.1, 0.7, 2.0]), np.array([1.0, 3.0])
    ones = [Call("modulus", (x,), {}, np.ones(3)), Call("modulus", (y,), {}, np.ones(2))]
    assert causes(MODULUS, "modulus", ones) == []
    complex_sums = [Call("modulus", (v,), {}, np.cumsum(np.exp(1j * v))) for v in (x, y)]
    (named,) = causes(MODULUS, "modulus", complex_sums)  # a varying answer is still read
    assert named.summary == "the result: without the absolute value"


def test_one_function_changed_at_two_places_is_said_at_both() -> None:
    """3 for 2 in a or in b gives 6xy alike on every call and probe: the numbers cannot say
    which quantity the student changed, so both places are named."""
    calls = [Call("product", (1.0, 2.0), {}, 12.0), Call("product", (0.5, 3.0), {}, 9.0)]
    said = {m.summary.split(":")[0] for m in causes(PRODUCT, "product", calls)}
    assert said == {"a", "b"}
