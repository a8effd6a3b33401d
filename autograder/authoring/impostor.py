"""The constant impostor: a submission that returns garbage of exactly the right shape.

`autograder validate` grades it to prove that no test credits an answer for its shape or for a
property a constant also has (equivariance, consistency across lengths, an empty result). Every
public function of the reference is wrapped: the reference still runs (so the impostor knows the
shape and dtype of the right answer), then its result is replaced by a fixed value of the same
form: the identity for a square matrix (a stack of them for a batch), 0.5 in every entry of any
other array, a scalar 0.5, SymPy's 1/2, an empty string; lists and tuples keep their length with
their items replaced. A call the reference refuses (an exception) returns a 0-d array instead of
raising, and every public constant (a proof, a table) is replaced the same way.

The reference that tells the shape runs in a pristine copy of the module's namespace (ORACLE),
so that a function calling another public function learns its shape from the reference of that
one too, not from its impostor (which would fail, and hide the function's own impostor).
"""

from __future__ import annotations

import types

IMPOSTOR_NAME = "constant_impostor"

ORACLE = """

# autograder validate: the reference, kept whole in a namespace of its own, tells each impostor
# the right answer's shape; the module's own names are then replaced
import types as _impostor_types

_impostor_module = globals()
_impostor_pristine = dict(_impostor_module)
for _impostor_key, _impostor_function in list(_impostor_pristine.items()):
    if (
        isinstance(_impostor_function, _impostor_types.FunctionType)
        and _impostor_function.__globals__ is _impostor_module
    ):
        _impostor_copy = _impostor_types.FunctionType(
            _impostor_function.__code__,
            _impostor_pristine,
            _impostor_function.__name__,
            _impostor_function.__defaults__,
            _impostor_function.__closure__,
        )
        _impostor_copy.__kwdefaults__ = _impostor_function.__kwdefaults__
        _impostor_pristine[_impostor_key] = _impostor_copy
"""
"""Source appended to the reference: `_impostor_pristine[name]` is the reference's function,
calling the reference's other functions whatever the module's names become."""

_WRAPPER = """

# autograder validate: the constant impostor replaces every public name below
import numpy as _impostor_np
import sympy as _impostor_sp


def _impostor_value(value):
    if isinstance(value, (bool, _impostor_np.bool_)):
        return value
    if isinstance(value, _impostor_np.ndarray):
        if value.ndim >= 2 and value.shape[-1] == value.shape[-2] and value.shape[-1] > 0:
            eye = _impostor_np.eye(value.shape[-1], dtype=value.dtype)
            return _impostor_np.broadcast_to(eye, value.shape).copy()
        return _impostor_np.full(value.shape, 0.5).astype(value.dtype)
    if isinstance(value, _impostor_sp.MatrixBase):
        rows, cols = value.shape
        if rows == cols:
            return _impostor_sp.eye(rows)
        return _impostor_sp.Matrix(rows, cols, [_impostor_sp.Rational(1, 2)] * (rows * cols))
    if isinstance(value, _impostor_sp.Basic):
        return _impostor_sp.Rational(1, 2)
    if isinstance(value, (int, float, complex, _impostor_np.number)):
        return type(value)(0.5) if isinstance(value, (float, complex, _impostor_np.inexact)) \\
            else type(value)(1)
    if isinstance(value, str):
        return ""
    if isinstance(value, (list, tuple)):
        return type(value)(_impostor_value(item) for item in value)
    return value


def _impostor(name):
    function = _impostor_pristine[name]

    def impostor(*args, **kwargs):
        try:
            value = function(*args, **kwargs)
        except Exception:
            return _impostor_np.zeros(())
        return _impostor_value(value)

    impostor.__name__ = function.__name__
    return impostor


for _impostor_name in {names!r}:
    _impostor_original = globals()[_impostor_name]
    globals()[_impostor_name] = (
        _impostor(_impostor_name)
        if callable(_impostor_original)
        else _impostor_value(_impostor_original)
    )
"""


def graded_names(reference: types.ModuleType) -> list[str]:
    """The reference's public functions and constants: what a submission is graded on."""
    names = []
    for name, value in vars(reference).items():
        if name.startswith("_") or isinstance(value, (types.ModuleType, type)):
            continue
        if type(value).__module__ == "__future__":  # `from __future__ import annotations`
            continue
        if isinstance(value, types.FunctionType):
            if value.__module__ == reference.__name__:
                names.append(name)
        elif not callable(value):
            names.append(name)
    return sorted(names)


def graded_functions(reference: types.ModuleType) -> list[str]:
    """The reference's public functions alone (its graded names that can be called)."""
    return [name for name in graded_names(reference) if callable(getattr(reference, name))]


def impostor_source(solution: str, reference: types.ModuleType) -> str:
    """The reference's `solution` source with every graded name turned into the impostor."""
    return solution + ORACLE + _WRAPPER.format(names=graded_names(reference))
