"""JUnit XML, as CI systems read it: one testsuite per submission, one testcase per test.

Every text comes from `xml_text`: a student's message may hold characters (NUL, escape codes,
lone surrogates) that XML 1.0 forbids, and a file holding one would not parse."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from autograder.protocol.results import SubmissionResult
from autograder.safe_text import xml_text


def render_junit(result: SubmissionResult) -> str:
    failures = sum(t.status == "failed" for t in result.tests)
    errors = sum(t.status in ("error", "timeout", "not_implemented") for t in result.tests)
    suite = ET.Element(
        "testsuite",
        name=xml_text(f"{result.assignment}.{result.submission}"),
        tests=str(len(result.tests) or 1),
        failures=str(failures),
        errors=str(errors if result.status == "graded" else 1),
        time=f"{result.duration_s:.3f}",
    )
    properties = ET.SubElement(suite, "properties")
    facts = {"score": result.score, "max_score": result.max_score, "status": result.status,
             "isolation": ",".join(result.isolation)}  # fmt: skip
    for name, value in facts.items():
        ET.SubElement(properties, "property", name=name, value=str(value))
    if result.status != "graded":
        case = ET.SubElement(
            suite, "testcase", classname=result.assignment, name="grade submission"
        )
        message = xml_text(result.message or result.status)
        ET.SubElement(case, "error", message=message, type=result.status)
    for test in result.tests:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=xml_text(f"{result.assignment}.{test.part}"),
            name=xml_text(test.name),
        )
        if test.status == "passed":
            continue
        tag = "failure" if test.status == "failed" else "error"
        ET.SubElement(
            case, tag, message=xml_text(test.message or test.status), type=test.status
        ).text = f"{test.score:g} / {test.max_score:g} points"
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
