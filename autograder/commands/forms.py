"""Subcommands of a verb that keeps a default form: `gradebook OUT ...` and `gradebook merge ...`.

The verb's first argument picks a subcommand when it names one; any other is the first argument
of the default form, which then parses them all. Options given before it stay set either way."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # not subscriptable at run time
    SubParsers = argparse._SubParsersAction


class Forms(SubParsers):
    """argparse's subcommands, with the `default_form` parsing what names none of them."""

    default_form: argparse.ArgumentParser

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = None  # type: ignore[assignment]  # any first argument is valid: not a subcommand, a default operand

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        arguments = list(values or ())
        chosen = self._name_parser_map.get(arguments[0])
        if chosen is None:
            chosen = self.default_form
        else:
            arguments = arguments[1:]
        # into the same namespace, so options before the subcommand are kept; the rest up to the
        # verb's caller, which rejects them as argparse's own subcommands do
        _, rest = chosen.parse_known_args(arguments, namespace)
        if chosen.get_default("run") is not None:
            namespace.run = chosen.get_default("run")
        if rest:
            vars(namespace).setdefault(argparse._UNRECOGNIZED_ARGS_ATTR, []).extend(rest)


def add_forms(
    parser: argparse.ArgumentParser, default: argparse.ArgumentParser, metavar: str
) -> Forms:
    """Subcommands for `parser` (add each with `add_parser`), listed under `metavar`, the name
    of the default form's first argument; `default` parses any first argument that names none
    of them and gives `parser` its usage line. A subcommand's `run` default replaces the verb's."""
    parser.usage = default.format_usage().removeprefix("usage: ").rstrip("\n")
    forms = parser.add_subparsers(action=Forms, prog=parser.prog, metavar=metavar, required=True)
    assert isinstance(forms, Forms)
    forms.default_form = default
    return forms
