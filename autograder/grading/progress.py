"""How a batch shows its progress: a bar on a terminal, plain periodic lines in a log.

On a terminal (tqdm): one bar with the mean score so far; a submission that could not be graded
normally (ungradable, grader error) is printed above it. Elsewhere (CI logs, files): a line per
submission for a small class, and for a large one a summary line every PERIOD_S seconds plus the
problems, so a log of a thousand submissions stays readable.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from autograder.grading.gradebook import Entry

LINE_PER_SUBMISSION_UP_TO = 100
PERIOD_S = 10.0


class Progress:
    def __init__(
        self,
        total: int,
        *,
        describe: Callable[[Entry], str],
        stream: TextIO | None = None,
        verbose: bool = False,
    ) -> None:
        self.total = total
        self.describe = describe
        self.stream = stream or sys.stdout
        self.verbose = verbose
        self.scores: list[float] = []
        self._bar = None
        self._last = time.monotonic()
        self._started = self._last
        if self.stream.isatty() and total > 1 and not verbose:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="submission", file=self.stream, dynamic_ncols=True)

    def update(self, entry: Entry, done: int, todo: int) -> None:
        """Called as each submission is recorded (`done` of `todo` this run)."""
        result = entry.result
        self.scores.append(result.final_score)
        problem = result.status != "graded"
        if self._bar is not None:
            if todo != self._bar.total:
                self._bar.total = todo
            if problem:
                self._bar.write(self.describe(entry), file=self.stream)
            self._bar.set_postfix_str(f"mean {sum(self.scores) / len(self.scores):.1f}")
            self._bar.update(1)
            return
        if self.total == 1 or self.verbose or todo <= LINE_PER_SUBMISSION_UP_TO or problem:
            prefix = f"[{done}/{todo}] " if self.total > 1 else ""
            print(prefix + self.describe(entry), file=self.stream, flush=True)
            return
        now = time.monotonic()
        if now - self._last >= PERIOD_S or done == todo:
            self._last = now
            rate = done / max(now - self._started, 1e-9)
            mean = sum(self.scores) / len(self.scores)
            print(
                f"[{done}/{todo}] graded; mean score {mean:.1f}; {rate:.1f} submissions/s",
                file=self.stream,
                flush=True,
            )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
