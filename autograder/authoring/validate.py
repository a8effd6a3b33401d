"""`autograder validate`: the assessment checks itself, through the real grading path.

It grades the reference (full marks), the released stubs (zero), every catalogued misconception
as a submission (the reference with that one function or constant replaced: it must lose points
in its own part and nowhere else, and receive its own hint), and the correct alternative styles
of the sample class (its `correct_*` samples: full marks, whatever the style), and
the constant impostor (impostor.py: every function returns a fixed value of the right shape),
which must score 0 in every part: a test that credits it gives points for garbage; and the
trivial impostors (trivial_impostors.py: a function that returns its input, the identity, or
the assignment's own computation without its new ingredient), one function at a time and all at
once, which must earn nothing in the tests of the functions they fake. An
independent corpus (corpus.py), when the assignment has one, is graded too and summed up in one
row: its correct styles full marks, its mistakes named at the promised rate, no hint misleading.
Last, mutation testing (mutation_testing.py): every mutant of the reference the tests can tell
from it loses points in its own part, or the assignment's folder waives it with a reason.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from autograder.authoring import corpus
from autograder.authoring.impostor import IMPOSTOR_NAME, impostor_source
from autograder.authoring.mutation_testing import MutationReport, mutation_testing
from autograder.authoring.sample_class import sample_class, write_samples
from autograder.authoring.solutions import solution_source
from autograder.authoring.trivial_impostors import load_declaration, trivial_impostors
from autograder.authoring.variants import replaced_function
from autograder.course.assignment import Assignment
from autograder.diagnosis.diagnose import Misconception
from autograder.diagnosis.disclosure import holds_a_value
from autograder.grading.results import SubmissionResult
from autograder.grading.runners import RunnerPool

ZERO_EVERYWHERE = "zero in every part"
CORPUS = "independent corpus"
MUTATION = "mutation testing"


@dataclass(frozen=True)
class CaseVerdict:
    """One row of the validation table."""

    name: str
    expected: str
    score: float
    max_score: float
    hint: str
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class _Case:
    name: str
    path: Path
    expected: str
    misconception: Misconception | None = None
    variant: corpus.Variant | None = None
    faked: tuple[str, ...] = ()
    """A trivial impostor's functions: its tests must give it nothing."""


def validate(
    assignment: Assignment, *, only: Sequence[str] = (), jobs: int = 2, catalogue: bool = True
) -> list[CaseVerdict]:
    """Grade every case of `assignment` and judge it against what it must score.
    `catalogue` False: grade without the assignment's catalogue and signatures, to measure
    what the kit's own judgement (mutants, generic measures) names of the corpus alone."""
    entries = assignment.load_catalogue()
    with tempfile.TemporaryDirectory(prefix="autograder-validate-") as scratch:
        cases = _cases(assignment, entries, Path(scratch))
        if only:
            cases = [
                case
                for case in cases
                if case.name in only
                or any(segment in only for segment in case.name.split(": "))
                or (case.variant is not None and "corpus" in only)
            ]
        size = max(1, min(jobs, len(cases)))
        results: list[SubmissionResult] = []
        if cases:
            pool_of = RunnerPool(assignment, size=size, catalogue=catalogue)
            with pool_of as runners, ThreadPoolExecutor(size) as pool:
                results = list(pool.map(lambda case: runners.grade(case.path), cases))
    pairs = list(zip(cases, results, strict=True))
    verdicts = [_judge(case, result) for case, result in pairs if case.variant is None]
    judged = [corpus.judge(case.variant, r) for case, r in pairs if case.variant is not None]
    if judged:
        at_least = corpus.NAMED_AT_LEAST if catalogue else corpus.NAMED_WITHOUT_CATALOGUE
        problems = corpus.problems(judged, at_least)
        expected = f"named ≥ {100 * at_least:.0f} %" + ("" if catalogue else " alone")
        verdicts.append(
            CaseVerdict(CORPUS, expected, 0.0, 0.0, corpus.summary(judged),
                        "; ".join(problems) if problems else None)
        )  # fmt: skip
    reference = next(
        (r for c, r in zip(cases, results, strict=True) if c.name == "reference"), None
    )
    if reference is not None:
        verdicts.append(_judge_hidden_titles(reference))
    if not only or MUTATION in only or "mutation" in only:
        verdicts.append(_judge_mutants(mutation_testing(assignment)))
    return verdicts


def _judge_mutants(report: MutationReport) -> CaseVerdict:
    """The mutation row: its score, and every survivor (a missing test) as the problem."""
    problems = report.problems()
    return CaseVerdict(
        MUTATION, "no unwaived survivor", float(report.caught),
        float(report.caught + len(report.survivors)), report.summary(),
        "\n".join(problems) if problems else None,
    )  # fmt: skip


def _judge_hidden_titles(result: SubmissionResult) -> CaseVerdict:
    """A hidden test's title is shown with its result: it must name no value of its inputs."""
    valued = [t for t in result.tests if t.hidden and holds_a_value(t.name)]
    problem = (
        f"{len(valued)} hidden test title(s) hold a number, which a student would read: "
        + "; ".join(f"{t.nodeid}: {t.name!r}" for t in valued[:5])
        + " — describe the case in words (its docstring's first line)"
        if valued
        else None
    )
    return CaseVerdict("hidden test titles", "no values", 0.0, 0.0, "", problem)


def _cases(assignment: Assignment, catalogue: Sequence[Misconception], folder: Path) -> list[_Case]:
    reference = assignment.reference
    solution = solution_source(reference.read_text(encoding="utf-8"), origin=str(reference))
    cases = [
        _Case("reference", reference, "full marks"),
        _Case("stubs", assignment.release_dir / assignment.spec.module, "zero"),
    ]
    for misconception in catalogue:
        path = folder / f"{misconception.name}.py"
        path.write_text(solution + replaced_function(misconception), encoding="utf-8")
        parts = "/".join((misconception.part, *misconception.also_affects))
        expected = f"loses {parts} only; hint"
        cases.append(_Case(f"variant: {misconception.name}", path, expected, misconception))
    impostor = folder / f"{IMPOSTOR_NAME}.py"
    impostor.write_text(impostor_source(solution, assignment.load_reference()), encoding="utf-8")
    cases.append(_Case(f"impostor: {IMPOSTOR_NAME}", impostor, ZERO_EVERYWHERE))
    declaration = load_declaration(assignment)
    for trivial in trivial_impostors(solution, assignment.load_reference(), declaration):
        path = folder / "trivial" / f"{trivial.file_stem}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(trivial.source, encoding="utf-8")
        expected = "no credit for " + ("any" if len(trivial.faked) > 1 else trivial.faked[0])
        cases.append(_Case(trivial.name, path, expected, faked=trivial.faked))
    styles = [s for s in sample_class(assignment) if s.name.startswith("correct_")]
    for path in write_samples(styles, folder / "styles"):
        cases.append(_Case(f"style: {path.stem}", path, "full marks"))
    variants = corpus.load_corpus(assignment)
    paths = corpus.corpus_files(variants, solution, folder)
    cases += [_Case(f"corpus: {v.name}", paths[v.name], "", variant=v) for v in variants]
    return cases


def _judge(case: _Case, result: SubmissionResult) -> CaseVerdict:
    hints = sorted({t.hint for t in result.tests if t.hint})
    problem = None
    if result.status != "graded":
        problem = f"{result.status}: {result.message}"
    elif case.expected == "full marks" and result.score < result.max_score:
        lost = [t.name for t in result.tests if t.score < t.max_score]
        problem = f"lost points in {len(lost)} test(s), e.g. {lost[0]!r}"
    elif case.expected == "zero" and result.score > 0:
        problem = f"scored {result.score:g}; the stubs must score 0"
    elif case.expected == ZERO_EVERYWHERE and result.score > 0:
        credited = [t.nodeid for t in result.tests if t.score > 0]
        problem = f"{len(credited)} test(s) credit a constant: {', '.join(credited)}"
    elif case.faked:
        return _judge_trivial(case, result)
    elif case.misconception is not None:
        problem = _judge_variant(case.misconception, result, hints)
    own = case.misconception
    shown = next((h for h in hints if own and own.summary in h), hints[0] if hints else "")
    return CaseVerdict(case.name, case.expected, result.score, result.max_score, shown, problem)


def _judge_trivial(case: _Case, result: SubmissionResult) -> CaseVerdict:
    """A trivial impostor earns nothing in the tests of the functions it fakes (a test is of
    the function the grader says it is about); its score shown is what those tests gave it."""
    faked = [t for t in result.tests if t.function in case.faked]
    credited = [t for t in faked if t.score > 0]
    problem = (
        f"{len(credited)} test(s) credit {case.name.removeprefix('impostor: ')}: "
        + ", ".join(t.nodeid for t in credited)
        if credited
        else None
    )
    score = sum(t.score for t in credited)
    return CaseVerdict(
        case.name, case.expected, score, sum(t.max_score for t in faked), "", problem
    )


def _judge_variant(
    misconception: Misconception, result: SubmissionResult, hints: list[str]
) -> str | None:
    parts = result.part_scores()
    own_score, own_most = parts.get(misconception.part, (0.0, 0.0))
    if own_score >= own_most:
        return f"lost nothing in {misconception.part}: no test catches it"
    allowed = {misconception.part, *misconception.also_affects}
    elsewhere = [
        part for part, (score, most) in parts.items() if part not in allowed and score < most
    ]
    if elsewhere:
        return f"also lost points in {', '.join(elsewhere)}"
    if not any(misconception.summary in hint for hint in hints):
        return "no failing test received its hint"
    return None
