"""The messages between processes: each round-trips through JSON, and whatever else arrives is
a MessageError (never another exception in the trusted process), with its texts bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autograder.protocol import messages, runner, zygote
from autograder.protocol.results import TestOutcome

WORKER = zygote.WorkerStart("/s/m.py", "m", {"a": 1})
OUTCOME = {"status": "great"}


def _through_json(message: Any) -> Any:
    return json.loads(json.dumps(message.to_json()))


@pytest.mark.parametrize(
    ("message", "decode"),
    [
        (messages.CallRequest("f", [1], {}), messages.request_from_json),
        (messages.AttributeRequest("CONSTANT"), messages.request_from_json),
        (messages.Ready("could not import", ("RLIMIT_AS",)), messages.hello_from_json),
        (messages.Unconfined("no landlock"), messages.hello_from_json),
        (messages.CallableReply(), messages.reply_from_json),
        (messages.ValueReply({"t": "int"}, ((0, {"t": "a"}), ("x", {}))), messages.reply_from_json),
        (messages.ImportErrorReply("no"), messages.reply_from_json),
        (messages.MissingReply("no f"), messages.reply_from_json),
        (messages.RefusedReply("an object"), messages.reply_from_json),
        (messages.RaisedReply("ValueError", True, "bad", "f", 3), messages.reply_from_json),
        (runner.RunnerStart("/c", "a", ("/h",), True), runner.RunnerStart.from_json),
        (runner.RunnerReady(9, runner.Rehearsal(9, 9)), runner.RunnerReady.from_json),
        (runner.RunnerReady(9, runner.Rehearsal(failed="boom")), runner.RunnerReady.from_json),
        (runner.GradeRequest(1, "/s", "/r.json", "m.py"), runner.GradeRequest.from_json),
        (runner.GradeReply(1, None, 0.5), runner.GradeReply.from_json),
        (zygote.ZygoteStart(True, "/in", "/s", ("numpy",), "x"), zygote.ZygoteStart.from_json),
        (zygote.SpawnRequest("1-0", WORKER), zygote.request_from_json),
        (zygote.EndRequest("1-1", None, True), zygote.request_from_json),
        (zygote.Spawned("1-0", 42), zygote.reply_from_json),
        (zygote.Ended("1-1", -9, 2), zygote.reply_from_json),
        (zygote.Refused("1-2", "unknown request"), zygote.reply_from_json),
    ],
)  # fmt: skip
def test_each_message_round_trips(message: Any, decode: Any) -> None:
    assert decode(_through_json(message)) == message


def test_child_results_round_trip() -> None:
    outcome = TestOutcome("t::a", "a", "A", "p", "failed", "wrong", duration_s=0.25)
    results = runner.ChildResults((outcome,), ("process",), "out", "", ("fresh",))
    assert runner.ChildResults.from_json(_through_json(results)) == results


@pytest.mark.parametrize(
    ("data", "decode"),
    [
        ([], messages.reply_from_json),
        ({"kind": "surprise"}, messages.reply_from_json),
        ({"kind": "missing", "message": 3}, messages.reply_from_json),
        ({"kind": "value", "value": 1, "mutated": [[0]]}, messages.reply_from_json),
        ({"ready": True, "rlimits": ["x"] * 1000}, messages.hello_from_json),
        ({"ready": "yes"}, messages.hello_from_json),
        ({"op": "delete", "name": "f"}, messages.request_from_json),
        ({"ready": True, "tests": "9"}, runner.RunnerReady.from_json),
        ({"id": 1, "problem": None, "duration_s": "1"}, runner.GradeReply.from_json),
        ({"tests": [OUTCOME], "isolation": [], "output": ""}, runner.ChildResults.from_json),
        ({"tests": [], "isolation": [1], "output": ""}, runner.ChildResults.from_json),
        ({"id": "1", "pid": "12"}, zygote.reply_from_json),
        ({"id": "1", "pid": -1}, zygote.reply_from_json),
        ({"id": "1"}, zygote.reply_from_json),
        ({"op": "spawn", "id": "1", "config": {"limits": []}}, zygote.request_from_json),
        (None, zygote.ZygoteReady.from_json),
    ],
)  # fmt: skip
def test_anything_else_is_a_message_error(data: Any, decode: Any) -> None:
    with pytest.raises(messages.MessageError):
        decode(data)


def test_texts_from_the_worker_are_bounded() -> None:
    raised = messages.reply_from_json(
        {"kind": "raised", "type": "E" * 10_000, "message": "m" * 10_000, "line": "3"}
    )
    assert isinstance(raised, messages.RaisedReply)
    assert len(raised.type) == messages.NAME_LIMIT and len(raised.message) == messages.MESSAGE_LIMIT
    assert raised.line is None  # not an integer: no location rather than a crash
    missing = messages.reply_from_json({"kind": "missing", "message": "x" * 10_000})
    assert isinstance(missing, messages.MissingReply)
    assert len(missing.message) == messages.TEXT_LIMIT
