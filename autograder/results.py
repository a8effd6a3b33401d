"""What a test run produced, as frozen values that round-trip through JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, cast

Status = Literal["passed", "failed", "error", "not_implemented"]
STATUSES: tuple[Status, ...] = ("passed", "failed", "error", "not_implemented")


@dataclass(frozen=True)
class TestOutcome:
    """The outcome of one test: which test, its rubric part, and a message for the student."""

    __test__ = False  # not a pytest test class, despite the name

    nodeid: str
    name: str
    title: str
    part: str | None
    status: Status
    message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestOutcome:
        status = data["status"]
        if status not in STATUSES:
            raise ValueError(f"unknown test status {status!r}")
        return cls(
            nodeid=str(data["nodeid"]),
            name=str(data["name"]),
            title=str(data["title"]),
            part=None if data.get("part") is None else str(data["part"]),
            status=cast(Status, status),
            message=None if data.get("message") is None else str(data["message"]),
        )
