"""A catalogue entry as source: the text that replaces its target in a copy of the reference.

`validate` grades the reference with each entry's function in place of its target, and the
sample class's generated `bug_*` submissions are the same files.
"""

from __future__ import annotations

import inspect
import re
import textwrap

from autograder.course.catalogue import Misconception


def replaced_function(misconception: Misconception) -> str:
    """Source that, appended to the reference, replaces the misconception's target."""
    header = f"\n\n# {misconception.name} replaces {misconception.target}\n"
    if misconception.implementation is None:
        return f"{header}{misconception.target} = {misconception.value!r}\n"
    source = textwrap.dedent(inspect.getsource(misconception.implementation))
    renamed = re.sub(r"^def \w+\(", f"def {misconception.target}(", source, count=1, flags=re.M)
    return header + renamed
