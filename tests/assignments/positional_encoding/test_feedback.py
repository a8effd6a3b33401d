"""What `autograder check` says about this assignment's typical mistakes, word for word."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.course.assignment import Assignment
from autograder.student.local_check import CheckReport, CheckTarget, run_check


@pytest.fixture
def reference_source(assignment: Assignment) -> str:
    return assignment.reference.read_text(encoding="utf-8")


def check(tmp_path: Path, assignment: Assignment, source: str) -> CheckReport:
    path = tmp_path / assignment.spec.module
    path.write_text(source, encoding="utf-8")
    target = CheckTarget(submission=path, tests_dir=assignment.public_tests)
    return run_check(target, timeout_s=120)


def by_title(report: CheckReport, words: str) -> list[str]:
    return [f"{o.status}: {o.message}" for o in report.outcomes if words in o.title]


def test_swapped_sin_and_cos_is_named(
    tmp_path: Path, assignment: Assignment, reference_source: str
) -> None:
    swapped = reference_source.replace(
        "encoding[:, 0::2] = np.sin(angles[:, 0::2])", "encoding[:, 0::2] = np.cos(angles[:, 0::2])"
    ).replace(
        "encoding[:, 1::2] = np.cos(angles[:, 1::2])", "encoding[:, 1::2] = np.sin(angles[:, 1::2])"
    )
    assert swapped != reference_source
    report = check(tmp_path, assignment, swapped)
    row_zero = by_title(report, "row 0 is")
    assert row_zero == [
        "failed: row 0 of sinusoidal_encoding(1, 8) should be [0, 1, 0, 1, …]; yours starts "
        "[1, 0, 1, 0, …]: your even columns start at 1 and your odd columns at 0: are sin and cos "
        "swapped?"
    ]
    table = by_title(report, "lesson 3's printed table")[0]
    assert "[0, 0] should be 0; yours is 1" in table and "are sin and cos swapped?" in table
    # the other parts do not depend on the encoding and still pass
    assert all(o.status == "passed" for o in report.outcomes if o.part in {"attention", "rotation"})


def test_one_wrong_function_fails_only_its_tests(
    tmp_path: Path, assignment: Assignment, reference_source: str
) -> None:
    no_scaling = reference_source.replace(
        "scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])",
        "scores = Q @ np.swapaxes(K, -1, -2)",
    )
    report = check(tmp_path, assignment, no_scaling)
    failed = {o.part for o in report.outcomes if o.status != "passed"}
    # the equivariance test credits Attention(PX) = P·Attention(X) only with right values
    assert failed == {"attention", "permutation"}
    equivariance = by_title(report, "Attention(P X) = P · Attention(X)")
    assert len(equivariance) == 1 and "self_attention(X)" in equivariance[0]
    ravi = by_title(report, "as computed by hand")[0]
    assert "should be 1.888; yours is 1.964" in ravi and "not divided by √d" in ravi
