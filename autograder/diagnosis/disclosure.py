"""When a student may read a test's message, and how a hidden test's text is kept free of its
inputs.

A public test's inputs are in the students' own copy of the tests; a hidden test's are not, and
never reach a student by any channel. So the tests are run in three groups, in this order, each
by a worker of its own that imports the module anew (serve.py): those whose messages are shown at
once, those shown later (after the due date), and those never shown (every hidden test: its
message names its inputs and expected values). No worker has seen an input of a group after its
own, so whatever a submission records and repeats in a message, a message holds only what its
reader may already know. The hint of a hidden test is phrased without values: the arguments of
every call it quotes and every number it measured are left out.
"""

from __future__ import annotations

import re

SHOWN_AT_ONCE, SHOWN_LATER, NEVER_SHOWN = 0, 1, 2
"""When a student may read a test's message, and so the order in which the groups run."""


def disclosure(*, hidden: bool, visibility: str) -> int:
    """A hidden test's message is never shown (it names its inputs), whatever its results'
    visibility; a public test's follows its visibility."""
    if hidden or visibility == "hidden":
        return NEVER_SHOWN
    return SHOWN_AT_ONCE if visibility == "visible" else SHOWN_LATER


_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.]*)\(([^()]*)\)")
_VALUE = re.compile(r"[0-9'\"\[\]{}…]")
"""What makes an argument a value (a test's input) rather than a name such as T or x."""
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
"""A number standing alone (not the 2 of `2i`, nor a digit inside a name): a title's value."""
_DIGITS = re.compile(r"[-+−]?(?:0[xX][0-9a-fA-F]+|\d[\d_]*(?:[.,]\d+)*\.?(?:[eE][-+]?\d+)?|\.\d+)")
"""Any run of digits, wherever it stands (`3.74i` too: a measured slope can carry an input)."""


def without_arguments(text: str) -> str:
    """`text` with the arguments of every quoted call that holds a value left out:
    `f(53, g(x))` becomes `f(…)`, `g(x)` stays. Innermost calls first, each marked with
    brackets no call contains until all are done."""

    def shown(call: re.Match[str]) -> str:
        arguments = "…" if _VALUE.search(call.group(2)) else call.group(2)
        return f"{call.group(1)}\x00{arguments}\x01"

    text = text.replace("\x00", "").replace("\x01", "")
    previous = None
    while previous != text:
        previous, text = text, _CALL.sub(shown, text)
    return text.replace("\x00", "(").replace("\x01", ")")


def without_values(text: str) -> str:
    """`text` with no value of a test's: quoted calls without their arguments, and every run
    of digits left out (`base=100 was passed` becomes `base=… was passed`, `base^(−3.74i/C)`
    becomes `base^(−…i/C)`): what a measurement prints may be derived from the inputs. The
    names of NumPy's number types (`float16`, `int64`) are words of the kit's, kept."""
    parts = _DTYPE_NAMES.split(without_arguments(text))
    return "".join(p if i % 2 else _DIGITS.sub("…", p) for i, p in enumerate(parts))


_DTYPE_NAMES = re.compile(r"\b((?:float|int|uint|complex)(?:8|16|32|64|128))\b")


CASE_SUFFIX = re.compile(r" \(case \d+(?:-\d+)*\)$")
"""What the kit appends to a parametrised hidden test's title in place of its inputs' ids."""


def holds_a_value(title: str) -> bool:
    """Whether a test's title holds a number (a hidden test's title must not: it is shown)."""
    return bool(_NUMBER.search(CASE_SUFFIX.sub("", title)))
