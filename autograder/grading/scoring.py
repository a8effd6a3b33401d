"""Points for test outcomes, by the rubric: markers say each test's part and points."""

from __future__ import annotations

from collections import defaultdict

from autograder.course.rubric import AssignmentSpec, Rubric
from autograder.errors import ConfigError
from autograder.protocol.results import TestOutcome, TestResult


def score_tests(
    rubric: Rubric, spec: AssignmentSpec, outcomes: tuple[TestOutcome, ...]
) -> tuple[TestResult, ...]:
    """Each outcome with its points; ConfigError when the tests do not match the rubric."""
    check_points(rubric, spec, outcomes)
    results = []
    for outcome in outcomes:
        assert outcome.part is not None and outcome.points is not None  # check_points made sure
        default = spec.hidden_visibility if outcome.hidden else spec.public_visibility
        results.append(
            TestResult(
                name=outcome.title,
                nodeid=outcome.nodeid,
                part=outcome.part,
                score=earned(outcome),
                max_score=outcome.points,
                status=outcome.status,
                visibility=outcome.visibility or default,
                message=outcome.message,
                duration_s=outcome.duration_s,
                hint=outcome.hint,
                hidden=outcome.hidden,
                function=outcome.function,
                advice=outcome.advice,
            )
        )
    return tuple(results)


def earned(outcome: TestOutcome) -> float:
    """The points an outcome earns: all when passed, its share when it earned partial credit."""
    points = outcome.points or 0.0
    if outcome.status == "passed":
        return points
    return (
        round(points * outcome.credit, 6) if outcome.status == "failed" and outcome.credit else 0.0
    )


def check_points(rubric: Rubric, spec: AssignmentSpec, outcomes: tuple[TestOutcome, ...]) -> None:
    """Every test names a known part and its points, and each part's tests add up to the part."""
    where = f"{rubric.path}: [assignments.{spec.name}.parts"
    unloadable = [o for o in outcomes if o.title.startswith("load ") and o.status == "error"]
    if unloadable:
        raise ConfigError(f"{unloadable[0].nodeid} could not be loaded: {unloadable[0].message}")
    unmarked = [o.nodeid for o in outcomes if o.part is None or o.points is None]
    if unmarked:
        raise ConfigError(
            f"{len(unmarked)} test(s) lack a part or points marker, e.g. {unmarked[0]}: add "
            '@pytest.mark.part("…") and @pytest.mark.points(n) (or a module-level pytestmark)'
        )
    known = {part.name for part in spec.parts}
    totals: dict[str, float] = defaultdict(float)
    for outcome in outcomes:
        if outcome.part not in known:
            raise ConfigError(
                f"{outcome.nodeid} is marked part {outcome.part!r}, which {where}] does not define"
            )
        totals[outcome.part] += outcome.points or 0.0
    for part in spec.parts:
        if abs(totals[part.name] - part.points) > 1e-9:
            raise ConfigError(
                f"{where}.{part.name}] points = {part.points:g}, but its tests add up to "
                f"{totals[part.name]:g}: change the rubric or the tests' points markers"
            )
