"""First-order mutants of a reference: the operators a student's mistakes need, each mutant
computing what its change says, its words free of the reference's code, its key stable."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from autograder.diagnosis.mutants import MUTANT_PREFIX, Mutant, mutants

SOURCE = '''
import numpy as np

SCALE = 2.5
_HIDDEN = 3.0


def f(x, n):
    """Sum of sines at the frequencies: 1.0 and 0 here are words, never code."""
    theta = 10000.0 ** (-np.arange(0, n, 2) / n)
    return np.sum(np.sin(x) * theta)


def g(a: np.ndarray, m: int, n: int) -> np.ndarray:
    if m < 0:
        raise ValueError(f"m must refuse negatives, got {m}")
    b = np.sum(a, axis=-1, keepdims=True)
    return a.T[:m, :n] * b.T


def h(a):
    return np.asarray(a, dtype=np.float64)


def rotated(a):
    return np.cos(a), np.sin(a)


def mixed(a):
    return np.sin(a) + 2 * np.cos(a)


def _private(x):
    return np.cos(x) + 1
'''

WORDS = {"theta": "the frequencies θ_i"}


def made(source: str = SOURCE, words: Mapping[str, str] | None = None) -> list[Mutant]:
    """The mutants of `source`, compiled in its own namespace (as the reference's would be)."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<reference>", "exec"), namespace)
    return mutants(source, namespace, words)


def one(found: list[Mutant], function: str, operator: str, before: str, after: str) -> Mutant:
    """The single mutant of `function` that `operator` makes of `before` into `after`."""
    matching = [
        m
        for m in found
        if (m.function, m.operator, m.before, m.after) == (function, operator, before, after)
    ]
    assert len(matching) == 1, [(m.operator, m.before, m.after) for m in found]
    return matching[0]


@pytest.fixture(scope="module")
def found() -> list[Mutant]:
    return made(words=WORDS)


@pytest.mark.parametrize(
    ("function", "operator", "before", "after"),
    [
        ("f", "function swapped", "np.sin(x)", "np.cos(x)"),
        ("f", "function swapped", "np.sum(np.sin(x) * theta)", "np.mean(np.sin(x) * theta)"),
        ("f", "constant", "0", "1"),
        ("f", "sign", "-np.arange(0, n, 2)", "np.arange(0, n, 2)"),
        ("f", "off by one", "n", "n + 1"),
        ("f", "off by one", "n", "n - 1"),
        ("g", "axis", "np.sum(a, axis=-1, keepdims=True)", "np.sum(a, axis=0, keepdims=True)"),
        ("g", "keyword removed", "np.sum(a, axis=-1, keepdims=True)", "np.sum(a, axis=-1)"),
        ("g", "keyword removed", "np.sum(a, axis=-1, keepdims=True)", "np.sum(a, keepdims=True)"),
        ("g", "variable", "n", "m"),
        ("g", "transpose", "a.T", "a"),
        ("g", "transpose", "b.T", "b"),
        ("h", "dtype", "np.asarray(a, dtype=np.float64)", "np.asarray(a, dtype=np.float32)"),
        ("h", "keyword removed", "np.asarray(a, dtype=np.float64)", "np.asarray(a)"),
        ("rotated", "pair swapped", "(np.cos(a), np.sin(a))", "(np.sin(a), np.cos(a))"),
    ],
)
def test_the_expected_operators_appear(
    found: list[Mutant], function: str, operator: str, before: str, after: str
) -> None:
    """Each mistake a student of numerical code makes has its mutant (a missing operator is a
    mistake the hints can never name and mutation testing never asks a test for)."""
    one(found, function, operator, before, after)


def test_variables_are_swapped_only_with_their_own_kind(found: list[Mutant]) -> None:
    """m and n (both `int`) are swapped for each other; the array a never for a count."""
    swaps = {(m.before, m.after) for m in found if m.function == "g" and m.operator == "variable"}
    assert {("m", "n"), ("n", "m")} <= swaps
    assert not swaps & {("a", "m"), ("a", "n"), ("m", "a"), ("n", "a"), ("m", "b"), ("b", "n")}


def test_a_removed_refusal_says_what_it_no_longer_refuses(found: list[Mutant]) -> None:
    """A left-out raise is named by its message's words, marked as the argument contract, and
    its mutant returns on the input the reference refuses."""
    removed = [m for m in found if m.function == "g" and m.operator == "raise removed"]
    assert removed
    for mutant in removed:
        assert "must refuse" in mutant.change
        assert "ValueError" in mutant.change
        assert mutant.as_misconception().refused_inputs
        assert mutant.implementation(np.ones((2, 2)), -1, 2).shape == (1, 2)
    namespace: dict[str, Any] = {}
    exec(compile(SOURCE, "<reference>", "exec"), namespace)
    with pytest.raises(ValueError, match="must refuse"):
        namespace["g"](np.ones((2, 2)), -1, 2)


def test_each_implementation_computes_its_change(found: list[Mutant]) -> None:
    """A mutant's function computes what its mutated code says (values worked out by hand for
    x = 0.3, n = 4, where the frequencies are 1 and 10000^(-1/2) = 0.01)."""
    x, n = 0.3, 4
    cases = {
        ("function swapped", "np.sin(x)", "np.cos(x)"): np.cos(0.3) * 1.01,
        ("function swapped", "np.sum(np.sin(x) * theta)", "np.mean(np.sin(x) * theta)"): (
            np.sin(0.3) * 1.01 / 2
        ),
        ("constant", "0", "1"): np.sin(0.3) * (0.1 + 0.001),  # arange(1, 4, 2) = [1, 3]
        ("sign", "-np.arange(0, n, 2)", "np.arange(0, n, 2)"): np.sin(0.3) * 101.0,
        ("off by one", "n", "n + 1"): np.sin(0.3) * 1.0101,  # arange(0, 5, 2) = [0, 2, 4]
        ("sign", "np.sin(x)", "-np.sin(x)"): -np.sin(0.3) * 1.01,
    }
    for (operator, before, after), expected in cases.items():
        mutant = one(found, "f", operator, before, after)
        assert mutant.implementation(x, n) == pytest.approx(expected, rel=1e-12), mutant.said


def test_array_mutants_compute_their_change(found: list[Mutant]) -> None:
    """The axis, keepdims, transpose and dtype mutants give the arrays their code gives."""
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    by_column = one(
        found, "g", "axis", "np.sum(a, axis=-1, keepdims=True)", "np.sum(a, axis=0, keepdims=True)"
    )
    # b = [[4, 6]] (column sums); a.T * b.T = [[1, 3], [2, 4]] * [[4], [6]]
    np.testing.assert_array_equal(
        by_column.implementation(a, 2, 2), np.array([[4.0, 12.0], [12.0, 24.0]])
    )
    untransposed = one(found, "g", "transpose", "a.T", "a")
    # b.T = [[3, 7]] (row sums as a row); a * b.T = [[3, 14], [9, 28]]
    np.testing.assert_array_equal(
        untransposed.implementation(a, 2, 2), np.array([[3.0, 14.0], [9.0, 28.0]])
    )
    square = one(found, "g", "variable", "n", "m")  # a.T[:m, :m]: m = 1 keeps [[1]]
    np.testing.assert_array_equal(square.implementation(a, 1, 2), np.array([[3.0, 7.0]]))
    single = one(found, "h", "dtype", "np.asarray(a, dtype=np.float64)",
                 "np.asarray(a, dtype=np.float32)")  # fmt: skip
    assert single.implementation([1, 2]).dtype == np.float32
    kept = one(found, "h", "keyword removed", "np.asarray(a, dtype=np.float64)", "np.asarray(a)")
    assert kept.implementation(np.array([1, 2])).dtype.kind == "i"
    swapped = one(found, "rotated", "pair swapped", "(np.cos(a), np.sin(a))",
                  "(np.sin(a), np.cos(a))")  # fmt: skip
    assert swapped.implementation(0.0) == (0.0, 1.0)


def test_a_twin_swapped_everywhere_is_one_more_mutant(found: list[Mutant]) -> None:
    """Every sin a cos and every cos a sin at once: the mistake of a student who mixes the
    two up throughout, which no single swap reproduces; where a single swap writes the same
    code (a pair given the other way round), that swap's words are kept, once."""
    (throughout,) = [m for m in found if m.function == "mixed"
                     and m.operator == "swapped throughout"]  # fmt: skip
    assert throughout.implementation(0.0) == 1.0  # cos(0) + 2 sin(0)
    assert "the cosine and the sine are swapped everywhere" in throughout.change
    same_code = [
        m for m in found if m.function == "rotated" and m.implementation(0.0) == (0.0, 1.0)
    ]
    assert [m.operator for m in same_code] == ["pair swapped"]


def test_words_never_show_the_reference_code(found: list[Mutant]) -> None:
    """A hint says the change in words: the reference's code never reaches a student."""
    worded = {"function swapped", "sign", "operator", "operands swapped", "keyword removed",
              "axis", "dtype", "transpose", "raise removed", "real part",
              "operand removed"}  # fmt: skip
    checked = [m for m in found if m.operator in worded]
    assert len(checked) > 20
    for mutant in checked:
        for code in (mutant.before, mutant.after):
            if not code.isidentifier() and code != "pass":
                assert code not in mutant.said, mutant
        assert "np." not in mutant.said and "**" not in mutant.said, mutant
        assert ".T" not in mutant.said and "axis=" not in mutant.said, mutant
    to_mean = one(found, "f", "function swapped", "np.sum(np.sin(x) * theta)",
                  "np.mean(np.sin(x) * theta)")  # fmt: skip
    assert to_mean.said == "the result: the mean where a sum belongs"
    to_cos = one(found, "f", "function swapped", "np.sin(x)", "np.cos(x)")
    assert to_cos.said == "the result: the cosine where the sine belongs"
    sum_to_mean = made("import numpy as np\n\ndef k(v):\n    return np.mean(v)\n")
    assert one(sum_to_mean, "k", "function swapped", "np.mean(v)", "np.sum(v)").said == (
        "the result: a sum where the mean belongs"
    )


def test_the_assignment_words_replace_names(found: list[Mutant]) -> None:
    """words.toml's words stand for the reference's names wherever a mutant speaks."""
    scaled = one(found, "f", "scaled", "theta", "theta * 2")
    assert scaled.change == "twice the frequencies θ_i where the frequencies θ_i belongs"
    start = one(found, "f", "constant", "0", "1")
    assert start.said == "the frequencies θ_i: the range's start is 1 where 0 belongs"
    assert not [m.said for m in found if re.search(r"\btheta\b", m.said)]
    plain = one(made(), "f", "scaled", "theta", "theta * 2")
    assert plain.change == "twice theta where theta belongs"  # without words: the name


def test_keys_stay_when_lines_move() -> None:
    """A waiver names a mutant by its key: lines added above the function keep every key."""
    before = made()
    after = made("\n\n\n" + SOURCE)
    assert [m.key for m in after] == [m.key for m in before]
    assert [m.line for m in after] == [m.line + 3 for m in before]


def test_docstrings_and_messages_are_never_mutated(found: list[Mutant]) -> None:
    """A docstring's numbers and an exception message's fields are no mistake a test sees."""
    docstring = "Sum of sines at the frequencies: 1.0 and 0 here are words, never code."
    message = "raise ValueError(f'm must refuse negatives, got {m}')"
    for mutant in found:
        assert "frequencies:" not in mutant.before and "must refuse" not in mutant.after
        if mutant.function == "f":
            assert docstring in mutant.source, mutant
        if mutant.function == "g" and mutant.operator != "raise removed":
            assert message in mutant.source, mutant


def test_private_functions_and_constants_are_left_alone(found: list[Mutant]) -> None:
    """A leading underscore marks a helper the student never writes: it has no mutants."""
    assert {m.function for m in found} == {"SCALE", "f", "g", "h", "rotated", "mixed"}


def test_numeric_constants_get_value_mutants(found: list[Mutant]) -> None:
    """A module constant's mutants carry the wrong value (no function), as the diagnosis
    and a submission written from them need it."""
    values = {m.value for m in found if m.function == "SCALE"}
    assert values == {3.5, 1.5, 5.0, 0, 1, 1.25}
    for mutant in found:
        if mutant.function == "SCALE":
            assert mutant.implementation is None
            assert mutant.source == f"SCALE = {mutant.after}\n"
            misconception = mutant.as_misconception()
            assert misconception.value == mutant.value and misconception.target == "SCALE"
            assert misconception.name == MUTANT_PREFIX + mutant.key


def test_the_simplest_changes_come_first(found: list[Mutant]) -> None:
    """Of mutants that fit, the first is named: the list runs from the simplest change."""
    ranks = [m.rank for m in found]
    assert ranks == sorted(ranks)
    assert found[0].operator == "constant" and found[-1].operator in (
        "operand removed", "statement removed"
    )  # fmt: skip


PHRASED = """
import numpy as np


def attend(Q, K, layout: str = "a"):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    if layout == "a":
        return scores
    return -scores


def keys(t: int):
    return [s for s in range(t + 1)]


def scale(x, c: float):
    return x * float(c)


def width(X):
    return X / np.sqrt(X.shape[-1])
"""

PHRASED_WORDS = {
    "Q": "the queries Q", "K": "the keys K", "scores": "the scores", "layout": "the layout",
    "Q.shape[-1]": "the key width d_k", "range(t + 1)": "the keys s ≤ t",
}  # fmt: skip


def test_a_change_is_said_with_the_quantities_it_touches() -> None:
    """A change is said of the innermost quantity words.toml names around it (an expression
    as the reference writes it), a square root with the lessons' symbol, a quotient or a
    comparison with what it divides by or compares: what the student wrote, in the
    lessons' words, and never the reference's code."""
    found = made(PHRASED, PHRASED_WORDS)
    unwrapped = one(found, "attend", "call removed", "np.sqrt(Q.shape[-1])", "Q.shape[-1]")
    assert unwrapped.said == "the scores: the key width d_k where the square root √d_k belongs"
    divided = "Q @ K.T / np.sqrt(Q.shape[-1])"
    multiplied = one(found, "attend", "operator", divided, "Q @ K.T * np.sqrt(Q.shape[-1])")
    assert multiplied.said == (
        "the scores: multiplied by the square root √d_k where divided by it belongs"
    )
    first_q, width_q = [
        m for m in found if (m.operator, m.before, m.after) == ("variable", "Q", "K")
    ]
    assert first_q.said == "the scores: the keys K where the queries Q belongs"
    assert width_q.said == "the key width d_k: the keys K where the queries Q belongs"
    compared = one(found, "attend", "comparison", "layout == 'a'", "layout != 'a'")
    assert compared.said == "the layout ≠ 'a' where = belongs"
    one_short = one(found, "keys", "constant", "1", "0")
    assert one_short.said == "the keys s ≤ t: 0 where 1 belongs"
    bound = one(found, "keys", "off by one", "t + 1", "t + 1 - 1")
    assert bound.said == "the keys s ≤ t: a bound off by one: the range's stop is one less"
    divided_by_c = one(found, "scale", "operator", "x * float(c)", "x / float(c)")
    assert divided_by_c.said == "the result: divided by c where multiplied by it belongs"
    twice = one(found, "scale", "repeated", "x * float(c)", "x * float(c) * float(c)")
    assert twice.said == "the result: multiplied by c twice"
    assert twice.implementation(np.ones(2), 3.0).tolist() == [9.0, 9.0]
    unnamed = made(PHRASED)  # no words: a width's root is still √d, names stay names
    assert one(unnamed, "width", "call removed", "np.sqrt(X.shape[-1])", "X.shape[-1]").said == (
        "the result: the width d where the square root √d belongs"
    )
    assert "Q.shape" not in " ".join(m.said for m in found)


BRANCHED = """
import numpy as np


def f(x):
    return 2.0 * x


def attend(X, W_q, W_v, layout: str = "a"):
    Q = f(X @ W_q)
    V = X @ W_v
    if layout == "a":
        S = Q @ V.T
    else:
        S = 2.0 * Q @ V.T
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
"""


def test_whole_function_changes_a_student_makes_at_once() -> None:
    """Three mistakes that change more than one node: a branch's test that never holds (every
    layout read as the other), every reduction over another axis (a softmax over the queries),
    and a step applied to one quantity more, as to its twin (the values rotated like Q)."""
    words = {"Q": "the queries Q", "V": "the values V", "layout": "the layout"}
    found = made(BRANCHED, words)
    X, W = np.eye(3)[:2], np.arange(9.0).reshape(3, 3) / 10
    never = one(found, "attend", "condition", "layout == 'a'", "False")
    assert never.said == "the layout = 'a' never holds: the other branch is always taken"
    assert np.allclose(never.implementation(X, W, W, "a"), never.implementation(X, W, W, "b"))
    over = one(found, "attend", "axis throughout", "axis=-1 everywhere", "axis=-2 everywhere")
    assert over.said == "every reduction over axis -2 where axis -1 belongs"
    assert np.allclose(over.implementation(X, W, W).sum(axis=-2), 1.0)
    wrapped = one(found, "attend", "call added", "V = X @ W_v", "V = f(X @ W_v)")
    assert wrapped.said == "the values V: passed through f too, as for the queries Q"
    reference = {"np": np}
    exec(compile(BRANCHED, "<reference>", "exec"), reference)
    assert np.allclose(wrapped.implementation(X, W, W), reference["attend"](X, W, 2.0 * W))


NESTED = """
import numpy as np


def spread(z: np.ndarray) -> np.ndarray:
    return np.abs(np.cumsum(z, axis=-1)).mean(axis=-1)


def turned(x: float, angle: float, base: float = 10.0) -> float:
    return x * np.cos(angle) + np.sin(angle) / base
"""


def test_a_reduction_and_a_function_of_each_entry_are_composed_the_other_way() -> None:
    """|mean(S)| where mean(|S|) belongs: each call keeps its own arguments."""
    found = made(NESTED)
    outside = one(found, "spread", "nesting", "np.abs(np.cumsum(z, axis=-1)).mean(axis=-1)",
                  "np.abs(np.cumsum(z, axis=-1).mean(axis=-1))")  # fmt: skip
    assert outside.said == (
        "the result: the absolute value of the mean where the mean of the absolute value belongs"
    )
    z = np.array([[1.0, -3.0, 1.0]])
    assert outside.implementation(z).tolist() == [abs(np.cumsum(z).mean())]


def test_a_quantity_turned_the_other_way_everywhere() -> None:
    """angle read as −angle wherever it is read (a turn the other way); a parameter with a
    default (a setting such as a base) is never negated."""
    found = made(NESTED)
    negated = one(found, "turned", "negated throughout", "angle", "-angle everywhere")
    assert negated.said == "angle with its sign flipped everywhere"
    assert negated.implementation(2.0, 0.5) == 2.0 * np.cos(-0.5) + np.sin(-0.5) / 10.0
    assert not [m for m in found if m.operator == "negated throughout" and m.before == "base"]
