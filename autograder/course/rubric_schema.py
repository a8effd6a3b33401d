"""What `grading.toml` may hold: every table and key, its type, its default and what it means.

The rubric's reader (rubric.py) takes the keys it allows in each table from here, and the
documentation's `grading.toml` reference is written from here, so the two cannot drift: a key
the reader accepts is a key the reference explains (tests/test_rubric_schema.py checks it)."""

from __future__ import annotations

from dataclasses import dataclass

PLACEHOLDERS = ("NAME", "PART")
"""Path segments that stand for a name the instructor chooses (an assignment, a part)."""


@dataclass(frozen=True)
class Key:
    """One key of a table: its TOML type, its default and its meaning."""

    name: str
    kind: str
    """The TOML value it takes, in words: "string", "number", "integer", "true or false", …"""
    meaning: str
    default: str | None = None
    """The default as a TOML literal (`50`, `"full"`, `false`); None when there is none."""
    required: bool = False
    when_absent: str = ""
    """What leaving out a key without a default means ("no cut-off")."""
    choices: tuple[str, ...] = ()
    """The only values a string key accepts."""


@dataclass(frozen=True)
class Table:
    """One table of the rubric, by its dotted path (`assignments.NAME.limits`)."""

    path: str
    meaning: str
    keys: tuple[Key, ...] = ()
    required: bool = False

    @property
    def segments(self) -> tuple[str, ...]:
        return tuple(self.path.split(".")) if self.path else ()

    @property
    def parent(self) -> tuple[str, str]:
        """The path of the table that holds this one, and the key this one has there."""
        segments = list(self.segments)
        if segments[-1] in PLACEHOLDERS:
            segments.pop()
        return ".".join(segments[:-1]), segments[-1]


def _late_words(what: str) -> str:
    return f"{what} (from the student's own due date when they have an extension)."


SCHEMA: tuple[Table, ...] = (
    Table(
        path="",
        meaning="The rubric: every assignment the kit grades, and how students install the kit.",
    ),
    Table(
        path="release",
        meaning="What `autograder release` writes into every student's folder.",
        keys=(
            Key(
                "install",
                "string",
                "Where students install the kit from: one pip requirement (a URL, a wheel's "
                "address, `git+https://…`, a package on the course's own index), printed in "
                "the students' README and their workflow; no quote, `$`, backslash or line "
                "break.",
                when_absent="from the wheelhouse `release --wheelhouse` puts in each released "
                "folder",
            ),
        ),
    ),
    Table(
        path="assignments.NAME",
        required=True,
        meaning="One assignment. NAME names its folders (`assignments/NAME/`, "
        "`student_template/NAME/`, `NAME.zip`) and its gradebook rows: letters, digits and "
        "underscores, starting with a letter, at most 64 characters.",
        keys=(
            Key(
                "title",
                "string",
                "The assignment's title, in reports and LMS columns.",
                required=True,
            ),
            Key(
                "module",
                "string",
                "The file a student submits, a Python file name such as `homework.py`.",
                required=True,
            ),
            Key(
                "points",
                "number",
                "The automatic points in all; must equal the sum of the "
                "parts' points (a check on the arithmetic).",
                when_absent="the sum of the parts' points",
            ),
            Key(
                "seed",
                "integer",
                "Seeds the hidden tests' random inputs; students never see "
                "it, so this file is for instructors only.",
                default="0",
            ),
            Key(
                "preload",
                "list of module names",
                "Modules the tests or students' code "
                "import, imported once by the grader and its sandbox before any submission "
                '(beyond the kit\'s own list), such as `"scipy.linalg"`.',
                default="[]",
            ),
            Key(
                "may_modify_inputs",
                "list of function names",
                "Functions allowed to modify "
                "their array arguments; every other public function of the student's module "
                "must leave them unchanged (a call that modifies one fails its test).",
                default="[]",
            ),
            Key(
                "attempts",
                "string",
                "Which of a student's attempts counts: the last, the "
                "best (by final score), or the last before their own due date (when every "
                "attempt is late, the earliest late one, with its penalty).",
                default='"last"',
                choices=("last", "best", "last_before_due"),
            ),
            Key(
                "never_lower",
                "true or false",
                "A regrade that scores an attempt lower keeps the earlier result.",
                default="false",
            ),
        ),
    ),
    Table(
        path="assignments.NAME.parts.PART",
        required=True,
        meaning='A graded part: the tests marked `pytest.mark.part("PART")`, worth `points` '
        "in all. The grader refuses to grade when a part's tests do not add up to its points.",
        keys=(
            Key("title", "string", "The part's title, in results and reports.", required=True),
            Key("points", "number", "The part's points (positive).", required=True),
        ),
    ),
    Table(
        path="assignments.NAME.tolerance",
        meaning="How close a numeric answer must be (`assert_close`, the `tolerance` fixture).",
        keys=(
            Key(
                "rtol",
                "number",
                "Relative tolerance: `1e-5` lets float32 answers pass; float64 is never required.",
                default="1e-05",
            ),
            Key("atol", "number", "Absolute tolerance.", default="1e-06"),
        ),
    ),
    Table(
        path="assignments.NAME.symbolic",
        meaning="How the equivalence of SymPy answers is decided (`assert_equivalent`).",
        keys=(
            Key(
                "screen_points",
                "integer",
                "Random points (30 digits) at which both sides are "
                "compared before any proof is attempted.",
                default="50",
            ),
            Key(
                "proof_timeout_s",
                "number",
                "SymPy's exact proof runs in a child process killed at this limit, in seconds.",
                default="2.0",
            ),
            Key(
                "undecided",
                "string",
                "Credit when SymPy cannot decide in time but the screen passed: full, or none.",
                default='"full"',
                choices=("full", "none"),
            ),
            Key(
                "exact",
                "true or false",
                "Refuse floating-point numbers in symbolic answers "
                "(a float such as 0.5 where 1/2 is meant).",
                default="false",
            ),
        ),
    ),
    Table(
        path="assignments.NAME.visibility",
        meaning="When students see each test's result (the feedback files, Gradescope). A "
        "test's own `pytest.mark.visibility` overrides its folder's default.",
        keys=(
            Key(
                "public",
                "string",
                "The public tests' results: shown at once by default.",
                default='"visible"',
                choices=("visible", "hidden", "after_due_date", "after_published"),
            ),
            Key(
                "hidden",
                "string",
                "The hidden tests' results: shown after the due date by default (`hidden`: never).",
                default='"after_due_date"',
                choices=("visible", "hidden", "after_due_date", "after_published"),
            ),
            Key(
                "score_before_due",
                "string",
                "What Gradescope shows as the score before the "
                "due date: the points of the tests shown at once (a regrade after the due "
                "date records the full score), or nothing (`hidden`: the whole result waits "
                "for the due date).",
                default='"shown_tests"',
                choices=("shown_tests", "hidden"),
            ),
        ),
    ),
    Table(
        path="assignments.NAME.limits",
        meaning="What one submission may use in the sandbox, and which isolation grading needs.",
        keys=(
            Key(
                "call_timeout_s",
                "number",
                "One call of a student's function, in seconds of "
                "processor time (up to four times as long on the clock of a busy machine).",
                default="10.0",
            ),
            Key(
                "submission_timeout_s",
                "number",
                "All calls of one submission together, in seconds.",
                default="120.0",
            ),
            Key("cpu_s", "integer", "Processor seconds of the worker (RLIMIT_CPU).", default="120"),
            Key(
                "memory_mb",
                "integer",
                "The worker's address space, in MiB (RLIMIT_AS).",
                default="1024",
            ),
            Key(
                "processes",
                "integer",
                "Processes for a worker user of its own; under the "
                "grader's own user, this many more than it runs already.",
                default="64",
            ),
            Key(
                "file_size_mb",
                "integer",
                "The largest file the worker may write, in MiB.",
                default="16",
            ),
            Key("open_files", "integer", "Files the worker may hold open at once.", default="64"),
            Key(
                "output_kb",
                "integer",
                "The student's printed output kept in the result (and "
                "each test's message), in KiB.",
                default="64",
            ),
            Key(
                "disk_mb",
                "integer",
                "The sandbox's `/tmp`, which holds the submission's "
                "folder, in MiB: a tmpfs of this size under bubblewrap; without it, the folder "
                "is watched from the grader's side.",
                default="64",
            ),
            Key(
                "bubblewrap",
                "string",
                "`auto` uses bubblewrap where it works; `required` "
                "refuses to grade where it does not; `off` uses Landlock and seccomp instead.",
                default='"auto"',
                choices=("auto", "required", "off"),
            ),
            Key(
                "isolation",
                "string",
                "`confined` refuses to grade where neither bubblewrap "
                "nor Landlock can confine the worker's file access; `unsafe` grades anyway, "
                "with the weaker layers each result lists, and warns.",
                default='"confined"',
                choices=("confined", "unsafe"),
            ),
        ),
    ),
    Table(
        path="assignments.NAME.late",
        meaning="Lateness, applied to the submission times of a manifest or of Gradescope's "
        "metadata: after `due` plus the grace period, `penalty_per_day` percent of the "
        "assignment's full points (automatic and written) comes off the final grade per started "
        "day; after `cutoff_days` days late the score is zero.",
        keys=(
            Key(
                "due",
                "date and time",
                "The due date, such as `2026-12-01T23:59:00Z` (no zone means UTC).",
                required=True,
            ),
            Key(
                "grace_minutes",
                "number",
                _late_words("Minutes after the due date that still count as on time"),
                default="0.0",
            ),
            Key(
                "penalty_per_day",
                "number",
                _late_words("Percent of the maximum taken off per started day late"),
                default="0.0",
            ),
            Key(
                "cutoff_days",
                "integer",
                _late_words("Days late after which the score is zero"),
                when_absent="no cut-off",
            ),
            Key(
                "extensions",
                "string",
                "A CSV file beside grading.toml giving students their "
                "own due date: columns `student`, `due` or `extra_days`, and `reason` (for the "
                "instructor only).",
                when_absent="no extensions",
            ),
        ),
    ),
    Table(
        path="assignments.NAME.manual.PART",
        meaning="A written answer people grade (the notebook's manually graded cell, or a "
        "file beside the module), outside the automatic points. PART must differ from the "
        "automatic parts' names.",
        keys=(
            Key("title", "string", "The question's title.", required=True),
            Key(
                "points",
                "number",
                "Its points (positive), counted apart from the automatic `points`.",
                required=True,
            ),
            Key(
                "rubric",
                "string",
                "What earns the points: shown to graders, never used by the autograder.",
                required=True,
            ),
            Key(
                "answer_file",
                "string",
                "For .py, folder and zip submissions: the file beside "
                "the module holding the answer, a plain name such as `why_unit.md`; a "
                "notebook's answer is its cell whose nbgrader `grade_id` is PART.",
                when_absent="notebooks only",
            ),
        ),
    ),
)


def table(path: str) -> Table:
    """The table at `path` (`assignments.NAME.limits`)."""
    for found in SCHEMA:
        if found.path == path:
            return found
    raise KeyError(path)


def children(path: str) -> tuple[Table, ...]:
    """The tables held directly in the table at `path`."""
    return tuple(found for found in SCHEMA if found.segments and found.parent[0] == path)


def allowed(path: str) -> set[str]:
    """Every key the table at `path` may hold: its own keys and its tables' names."""
    return {key.name for key in table(path).keys} | {child.parent[1] for child in children(path)}
