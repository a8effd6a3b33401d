"""Exceptions: the library raises them; the CLI turns them into messages and exit codes."""


class AutograderError(Exception):
    """Something the kit could not do; the CLI exits with code 1."""


class ConfigError(AutograderError):
    """Bad usage or a bad configuration file; the CLI exits with code 2.

    The message names the file, the key or argument, and the fix.
    """


class TemplateDriftError(AutograderError):
    """The committed student template differs from what `autograder release` would write."""

    def __init__(self, template_dir: str, drifted: list[str]) -> None:
        self.drifted = drifted
        listing = "\n".join(f"  {line}" for line in drifted)
        super().__init__(
            f"{template_dir} is out of date with reference/ and assignments/:\n{listing}\n"
            "Run `autograder release` to regenerate it (never edit it by hand)."
        )
