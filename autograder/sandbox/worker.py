"""The worker: imports the student's module and answers calls, one at a time, with data only.

Forked by the zygote (zygote.py) for each submission, from a process that has numpy and sympy
imported already. Before any student code runs it takes the lowest priority, sets its rlimits
and, when asked, drops to an unprivileged user. Everything it sends passes the codec; a value
that may not cross becomes an error message, never a pickle, and every text it sends
(exception names and messages, import errors) is cut to a fixed length here, at the source.

Modules in the submission's folder are compiled from their source on every import: no `.pyc`
is written there, and none found there is read (a planted, unchecked one would otherwise run
instead of the source beside it).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from autograder.protocol import messages
from autograder.protocol.zygote import WorkerStart

PRELOADED = ("numpy", "numpy.linalg", "numpy.fft", "numpy.random", "sympy", "math", "cmath",
             "itertools", "functools", "fractions", "decimal", "statistics", "random", "typing",
             "dataclasses", "collections", "collections.abc", "re", "json", "copy",
             "autograder.sandbox.channel", "autograder.sandbox.codec",
             "autograder.grading.feedback",
             "autograder.sandbox.limits", "autograder.sandbox.confine",
             "autograder.sandbox.cpu_share")  # fmt: skip
"""Imported before the student's module, so it finds them even after the user is dropped."""

EXCEPTION_TEXT_LIMIT = 2000
NAME_LIMIT = 200


def _cut(text: str, limit: int = EXCEPTION_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Loads a submission's module from its source alone: never reads nor writes bytecode."""

    def get_code(self, fullname: str) -> Any:
        source = self.get_data(self.path)
        return compile(source, self.path, "exec", dont_inherit=True)


def _source_only_imports(folder: Path) -> None:
    """Imports from `folder` (the submission's) compile the source; other folders are as usual."""
    finder_for_folder = importlib.machinery.FileFinder.path_hook(
        (SourceOnlyLoader, importlib.machinery.SOURCE_SUFFIXES)
    )
    root = str(folder)

    def hook(path: str) -> Any:
        if path == root or path.startswith(root + os.sep):
            return finder_for_folder(path)
        raise ImportError("not the submission's folder")

    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


def preload(extra: tuple[str, ...] = ()) -> None:
    for name in (*PRELOADED, *extra):
        importlib.import_module(name)


def warm_up(source: str | None) -> None:
    """Run the assignment's warm-up (its `warm_up.py`, trusted instructor code) once in the
    zygote rather than in every worker: it builds the libraries' lazily made tables (SymPy's
    rewriting rules, NumPy's linear algebra) that the assignment's checks need. SymPy's cache
    is cleared after it, so no worker starts with anything but empty caches and ready code."""
    if source is None:
        return
    import sympy as sp

    code = compile(source, "warm_up.py", "exec", dont_inherit=True)
    exec(code, {"__name__": "warm_up"})  # trusted: the instructor's warm_up.py, no submission yet
    sp.core.cache.clear_cache()


def serve(request_fd: int, response_fd: int, config: WorkerStart) -> int:
    """Limit this process, drop the user, import the submission, then answer calls until EOF."""
    from autograder.sandbox import channel, codec
    from autograder.sandbox.cpu_share import lower_priority
    from autograder.sandbox.limits import Limits, apply_limits

    drop_uid = config.drop_uid
    lowered = lower_priority()  # as root too, before the user is dropped: none can undo it
    limits = Limits.from_dict(config.limits)
    applied = lowered + apply_limits(limits, own_user=drop_uid is not None)
    if drop_uid is not None:
        os.setgroups([])
        os.setgid(drop_uid)
        os.setuid(drop_uid)
    os.umask(0o077)
    if config.confine:
        from autograder.sandbox.confine import ConfinementFailed, confine

        try:
            applied += confine(**config.confine)
        except ConfinementFailed as failed:  # no student code runs unconfined
            channel.send(response_fd, messages.Unconfined(str(failed)[:500]).to_json())
            return 1
    sys.dont_write_bytecode = True  # `python -I` ignored PYTHONDONTWRITEBYTECODE
    submission = Path(config.submission)
    module, import_error = _import(submission, config.module_name)
    channel.send(response_fd, messages.Ready(import_error, tuple(applied)).to_json())
    while True:
        try:
            request = channel.receive(request_fd)
        except channel.ChannelClosed:
            return 0
        buffers: list[bytes] = []
        received = codec.Buffers(request.buffers)
        answer = _answer(request.value, received, buffers, module, import_error, submission, codec)
        del request, received
        channel.send(response_fd, answer.to_json(), buffers=buffers)


def _import(submission: Path, module_name: str) -> tuple[ModuleType | None, str | None]:
    from autograder.sandbox.tracebacks import describe_import_failure

    sys.path.insert(0, str(submission.parent))
    _source_only_imports(submission.parent)
    loader = SourceOnlyLoader(module_name, str(submission))
    spec = importlib.util.spec_from_file_location(module_name, submission, loader=loader)
    if spec is None or spec.loader is None:
        return None, f"{submission.name} is not a Python module"
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # anything the student's import does is reported, not raised
        try:
            return None, _cut(describe_import_failure(error, submission))
        except BaseException:  # its text could not even be made (a hostile __str__)
            return None, f"could not import {submission.name}: {_cut(type(error).__name__)}"
    return module, None


def _answer(
    data: Any,
    received: Any,
    buffers: list[bytes],
    module: ModuleType | None,
    import_error: str | None,
    submission: Path,
    codec: Any,
) -> messages.Reply:
    if module is None:
        return messages.ImportErrorReply(str(import_error))
    try:
        request = messages.request_from_json(data)
    except messages.MessageError as error:
        return messages.MissingReply(f"{submission.name} was asked for nothing it has ({error})")
    name = request.name
    if not hasattr(module, name):
        return messages.MissingReply(f"{submission.name} does not define `{name}`")
    try:
        if isinstance(request, messages.AttributeRequest):
            value = getattr(module, name)
            if callable(value):
                return messages.CallableReply()
        else:
            args = codec.decode(request.args, received)
            kwargs = codec.decode(request.kwargs, received)
            before = _array_copies(args, kwargs)
            value = getattr(module, name)(*args, **kwargs)
    except BaseException as error:  # the student's exception becomes data for the grader
        return _raised(error, submission)
    try:
        changed = (
            _changed_arrays(before, args, kwargs)
            if isinstance(request, messages.CallRequest)
            else []
        )
        mutated = tuple((key, codec.encode(array, buffers)) for key, array in changed)
        return messages.ValueReply(codec.encode(value, buffers), mutated)
    except codec.CodecError as refused:
        buffers.clear()
        return messages.RefusedReply(f"{refused}")
    except (RecursionError, ValueError, OverflowError, MemoryError) as error:
        buffers.clear()
        return messages.RefusedReply(f"a value that could not be sent ({type(error).__name__})")


def _array_copies(args: list[Any], kwargs: dict[str, Any]) -> dict[str | int, Any]:
    import numpy as np

    named: dict[str | int, Any] = {**dict(enumerate(args)), **dict(kwargs.items())}
    return {key: v.copy() for key, v in named.items() if type(v) is np.ndarray}


def _changed_arrays(
    before: dict[str | int, Any], args: list[Any], kwargs: dict[str, Any]
) -> list[tuple[str | int, Any]]:
    """The array arguments the student's function modified in place, as they are now."""
    import numpy as np

    named: dict[str | int, Any] = {**dict(enumerate(args)), **dict(kwargs.items())}
    return [
        (key, named[key])
        for key, copy in before.items()
        if not np.array_equal(copy, named[key], equal_nan=True)
    ]


def _raised(error: BaseException, submission: Path) -> messages.RaisedReply:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == str(submission)]
    where = frames[-1] if frames else None
    try:
        message = _cut(str(error))
    except BaseException:  # a hostile __str__ does not get to stop the answer
        message = "(its message could not be read)"
    return messages.RaisedReply(
        type=_cut(type(error).__name__, NAME_LIMIT),
        builtin=type(error).__module__ == "builtins",
        message=message,
        function=where.name if where else None,
        line=where.lineno if where else None,
    )
