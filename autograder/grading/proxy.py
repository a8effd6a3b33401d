"""`student` in grading: attribute access and calls forwarded to the worker, values back as data."""

from __future__ import annotations

from typing import Any

from autograder.sandbox.client import CALLABLE, StudentSession


class StudentFunction:
    """A function of the student's module, called in the worker."""

    def __init__(self, session: StudentSession, name: str) -> None:
        self._session = session
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._session.call(self.__name__, args, kwargs)

    def __repr__(self) -> str:
        return f"<student function {self.__name__}>"


class StudentProxy:
    """Looks like the student's module to a test; holds nothing of it in this process."""

    watched_by_worker = True
    """The worker reports every array a call modifies (input_watch.py reads the calls)."""

    def __init__(self, session: StudentSession) -> None:
        self._session = session

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = self._session.attribute(name)
        return StudentFunction(self._session, name) if value is CALLABLE else value

    def __repr__(self) -> str:
        return f"<student module {self._session.module_name} (in a worker)>"
