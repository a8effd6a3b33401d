"""The release's hint table: what `check` reads to name a mistake as the grader does, without the
reference or a model's code. Its fingerprints must tell outputs apart exactly where the
rubric's tolerance does, its judgement must follow the grader's honesty rule, and a release
must carry a table built from its own course files."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from autograder.authoring.release import check_release, write_release
from autograder.course.course import Course
from autograder.diagnosis import hint_table
from autograder.diagnosis.fingerprints import arguments_key, projection, same_projection
from autograder.diagnosis.hint_table import HintTable, KnownCall, Model, StudentCall
from autograder.errors import TemplateDriftError
from autograder.student.local_check import CheckTarget, run_check

RTOL, ATOL = 1e-5, 1e-6


def test_an_arguments_key_is_the_exact_values_and_the_function() -> None:
    """The same values give the same key wherever they are built; another function, dtype,
    shape or value another key; a value the key cannot write down none."""
    x = np.arange(6.0).reshape(2, 3)
    assert arguments_key("f", (x, 2), {"base": 10.0}) == arguments_key(
        "f", (x.copy(), 2), {"base": 10.0}
    )
    others = [
        arguments_key("g", (x, 2), {"base": 10.0}),
        arguments_key("f", (x.astype(np.float32), 2), {"base": 10.0}),
        arguments_key("f", (x.reshape(3, 2), 2), {"base": 10.0}),
        arguments_key("f", (x, 3), {"base": 10.0}),
        arguments_key("f", (x, 2), {"base": 11.0}),
    ]
    assert len({arguments_key("f", (x, 2), {"base": 10.0}), *others}) == 6
    assert arguments_key("f", (object(),), {}) is None


def test_projections_agree_exactly_where_the_tolerance_does() -> None:
    """Within the tolerance entry by entry: the same output; beyond it on one entry, or by a
    change spread thinly over every entry, or in another shape or kind: another output."""
    rng = np.random.default_rng(1)
    a = rng.normal(size=(8, 8))
    model = projection(a)
    assert same_projection(projection(a * (1 + 0.5 * RTOL)), model, RTOL, ATOL)
    one_entry = a.copy()
    one_entry[3, 4] += 1e-3
    assert not same_projection(projection(one_entry), model, RTOL, ATOL)
    spread = a * (1 + 1e-4)  # every entry off by ten times the relative tolerance
    assert not same_projection(projection(spread), model, RTOL, ATOL)
    assert not same_projection(projection(a.T.copy().reshape(4, 16)), model, RTOL, ATOL)
    assert not same_projection(projection(a.astype(complex)), model, RTOL, ATOL)
    assert not same_projection(projection(a.tolist()), model, RTOL, ATOL)


def test_exceptions_and_expressions_are_compared_by_what_they_are() -> None:
    """An exception by its class; an expression by its values, whatever its form."""
    assert same_projection(projection(ValueError("a")), projection(ValueError("b")), RTOL, ATOL)
    assert not same_projection(projection(ValueError()), projection(TypeError()), RTOL, ATOL)
    x = sp.Symbol("x")
    one = projection(sp.sin(x) ** 2 + sp.cos(x) ** 2 + x)
    assert same_projection(one, projection(1 + x), RTOL, ATOL)
    assert not same_projection(projection(sp.sin(x) + x), projection(1 + x), RTOL, ATOL)


def _table(models: list[Model], calls: dict[str, KnownCall]) -> HintTable:
    return HintTable("digest", RTOL, ATOL, tuple(models), calls, {"f": ["f"], "g": ["f", "g"]})


def _known(name: str, arg: float, reference: object, **models: object) -> tuple[str, KnownCall]:
    key = arguments_key(name, (arg,), {})
    assert key is not None
    projected = {int(i): projection(v) for i, v in models.items()}
    return key, KnownCall(name, projection(reference), projected)  # type: ignore[arg-type]


def test_a_mutant_is_named_only_when_it_reproduces_every_call() -> None:
    """f doubles its argument; its mutant triples it. A student who triples on every call is
    named; one who triples on one call and is right on another, where the mutant would
    differ, is not (a partial model names nothing)."""
    mutant = Model("f", "mutant", "the factor 3 where 2 belongs")
    calls = dict([_known("f", 1.0, 2.0, **{"0": 3.0}), _known("f", 2.0, 4.0, **{"0": 6.0})])
    table = _table([mutant], calls)

    def student(one: float, two: float) -> list[StudentCall]:
        return [StudentCall("f", (1.0,), {}, one), StudentCall("f", (2.0,), {}, two)]

    tripled = student(3.0, 6.0)
    judged = hint_table.TableJudgement(table, tripled)
    assert judged.hints({"t": tripled[:1]}, {"t": ["f"]}) == {
        "t": "f: the factor 3 where 2 belongs"
    }
    partial = student(3.0, 4.0)
    judged = hint_table.TableJudgement(table, partial)
    assert judged.hints({"t": partial[:1]}, {"t": ["f"]}) == {}


def test_mutants_alike_everywhere_are_named_once_as_the_grader_names_them() -> None:
    """Three mutants triple f's argument on every public call; the release found the first
    two alike on the probes too (table.alike: one mistake, the second's words named for
    both), the third not: check names two changes, as the grader does."""
    models = [
        Model("f", "mutant", "3 where 2 belongs"),
        Model("f", "mutant", "the factor applied one more time"),
        Model("f", "mutant", "x where y belongs"),
    ]
    calls = dict([_known("f", 1.0, 2.0, **{"0": 3.0, "1": 3.0, "2": 3.0})])
    student = [StudentCall("f", (1.0,), {}, 3.0)]
    table = dataclasses.replace(_table(models, calls), alike={"f": {0: 1}})
    names = [
        m.summary for m in hint_table.TableJudgement(table, student).mutant_causes("f", student)
    ]
    assert names == ["the factor applied one more time", "x where y belongs"]
    assert HintTable.from_json(table.to_json()).alike == {"f": {0: 1}}


def test_a_refused_call_is_read_only_by_a_mutant_that_stops_refusing() -> None:
    """The reference refuses f(-1.0). A student who triples and also accepts -1.0 still has
    the numeric mutant named (the contract is a mistake of its own); the refusal's mutant
    is named for a student who only accepts it."""
    numeric = Model("f", "mutant", "the factor 3 where 2 belongs")
    refusal = Model("f", "mutant", "accepts an input it must refuse", refused_inputs=True)
    calls = dict(
        [
            _known("f", 1.0, 2.0, **{"0": 3.0}),
            _known("f", -1.0, ValueError(), **{"0": ValueError(), "1": -2.0}),
        ]
    )
    table = _table([numeric, refusal], calls)
    both = [StudentCall("f", (1.0,), {}, 3.0), StudentCall("f", (-1.0,), {}, -3.0)]
    judged = hint_table.TableJudgement(table, both)
    assert judged.hints({"t": both}, {"t": ["f"]})["t"] == "f: the factor 3 where 2 belongs"
    accepts = [StudentCall("f", (1.0,), {}, 2.0), StudentCall("f", (-1.0,), {}, -2.0)]
    judged = hint_table.TableJudgement(table, accepts)
    assert judged.hints({"t": accepts}, {"t": ["f"]})["t"] == "f: accepts an input it must refuse"


def test_a_test_failed_on_a_refusal_alone_is_not_told_a_numeric_cause() -> None:
    """f triples and accepts -1.0: the test of f(1.0) names the change, the test of the
    refusal does not (its own calls never show a divisor), as the grader decides."""
    numeric = Model("f", "mutant", "the factor 3 where 2 belongs")
    calls = dict(
        [
            _known("f", 1.0, 2.0, **{"0": 3.0}),
            _known("f", -1.0, ValueError(), **{"0": ValueError()}),
        ]
    )
    student = [StudentCall("f", (1.0,), {}, 3.0), StudentCall("f", (-1.0,), {}, -3.0)]
    judged = hint_table.TableJudgement(_table([numeric], calls), student)
    hints = judged.hints({"value": student[:1], "refusal": student[1:]}, {"value": ["f"],
                         "refusal": ["f"]})  # fmt: skip
    assert hints == {"value": "f: the factor 3 where 2 belongs"}


def test_a_test_that_fails_through_a_wrong_callee_blames_it() -> None:
    """g calls f; the student's f is wrong on its own calls: g's failing test names f first,
    with f's own cause, in the grader's words."""
    mutant = Model("f", "mutant", "the factor 3 where 2 belongs")
    calls = dict([_known("f", 1.0, 2.0, **{"0": 3.0}), _known("g", 1.0, 5.0)])
    table = _table([mutant], calls)
    made = [StudentCall("f", (1.0,), {}, 3.0), StudentCall("g", (1.0,), {}, 6.0)]
    judged = hint_table.TableJudgement(table, made)
    failed = {"f test": made[:1], "g test": made[1:]}
    hints = judged.hints(failed, {"f test": ["f"], "g test": ["g"]})
    assert hints["g test"] == (
        "g calls f, which is wrong on its own tests: fix f first, this test depends on it "
        "(f: the factor 3 where 2 belongs)"
    )


@pytest.fixture
def released_vectors(course_copy: Course) -> Course:
    write_release(course_copy.assignment("vectors"))
    return course_copy


def test_a_release_carries_a_table_built_from_its_own_files(released_vectors: Course) -> None:
    """release writes tests/hints.json and release --check accepts it; a changed catalogue
    makes the committed table stale, and release --check says so."""
    vectors = released_vectors.assignment("vectors")
    table = hint_table.read(vectors.release_dir / "tests" / hint_table.FILE_NAME)
    assert table is not None and table.calls and table.models
    check_release(vectors)
    catalogue = vectors.folder / "misconceptions.py"
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + "\n# edited\n", "utf-8")
    with pytest.raises(TemplateDriftError) as raised:
        check_release(vectors)
    assert any("stale" in line and hint_table.FILE_NAME in line for line in raised.value.drifted)


def test_check_names_a_mistake_nobody_catalogued(released_vectors: Course, tmp_path: Path) -> None:
    """A module whose scale divides by c (no catalogue entry says so): check's hint names the
    change from the table, with no reference in the released folder."""
    vectors = released_vectors.assignment("vectors")
    folder = tmp_path / "student"
    shutil.copytree(vectors.release_dir, folder)
    reference = vectors.reference.read_text(encoding="utf-8")
    wrong = reference.replace(
        "return np.asarray(x, dtype=np.float64) * float(c)",
        "return np.asarray(x, dtype=np.float64) / float(c)",
    )
    assert wrong != reference
    (folder / vectors.spec.module).write_text(wrong, encoding="utf-8")
    assert not any(p.name == "vectors.py" for p in (folder / "tests").iterdir())
    report = run_check(CheckTarget(folder / vectors.spec.module, folder / "tests"))
    hints = [o.hint for o in report.outcomes if o.status == "failed"]
    said = "scale: the result: divided by c where multiplied by it belongs"
    assert hints and all(h and h.startswith(said) for h in hints), hints
