"""The similarity report: pairs of submissions above the threshold, their shared regions marked
side by side. One self-contained HTML file; every name and line of code is escaped."""

from __future__ import annotations

import html
from collections.abc import Mapping

from autograder.after_grading.similarity import Comparison, Pair, Region, clusters

MAX_PAIRS_SHOWN = 100
"""Pairs drawn side by side (all are listed in the table)."""

STYLE = (
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:.2em .6em;vertical-align:top}"
    ".side{display:flex;gap:1em}.side pre{flex:1;overflow:auto;max-height:40em;"
    "background:#f8f8f8;padding:.5em;font-size:.85em;white-space:pre-wrap}"
    "mark{background:#ffd27f}"
)


def render_similarity(comparison: Comparison, sources: Mapping[str, str], *, title: str) -> str:
    e = html.escape
    body = [f"<h1>{e(title)}</h1>"]
    body.append(
        f"<p id='summary'>{comparison.compared} submissions compared, every pair by winnowing "
        f"normalised tokens; {len(comparison.pairs)} pair(s) at or above "
        f"{comparison.threshold:.0%} shared. The released stub's text and "
        f"{comparison.common_passages} passage(s) common to much of the class were ignored.</p>"
    )
    groups = [g for g in clusters(comparison.pairs) if len(g) > 2]
    if groups:
        items = "".join(f"<li>{e(', '.join(g))}</li>" for g in groups)
        body.append(f"<h2>Groups</h2><ul id='groups'>{items}</ul>")
    if not comparison.pairs:
        body.append("<p id='pairs'>No pair reaches the threshold.</p>")
    else:
        rows = "".join(
            f"<tr><td><a href='#pair-{n}'>{e(p.first)}</a></td><td>{e(p.second)}</td>"
            f"<td>{p.similarity[0]:.0%}</td><td>{p.similarity[1]:.0%}</td></tr>"
            for n, p in enumerate(comparison.pairs)
        )
        body.append(
            "<h2>Pairs</h2><table id='pairs'><tr><th>first</th><th>second</th>"
            f"<th>of first shared</th><th>of second shared</th></tr>{rows}</table>"
        )
    for n, pair in enumerate(comparison.pairs[:MAX_PAIRS_SHOWN]):
        body.append(_pair(n, pair, sources))
    head = (
        "<meta charset='utf-8'><meta http-equiv='Content-Security-Policy' "
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{e(title)}</title><style>{STYLE}</style>"
    )
    page = f"<head>{head}</head><body>{''.join(body)}</body>"
    return f"<!doctype html><html lang='en'>{page}</html>\n"


def _pair(number: int, pair: Pair, sources: Mapping[str, str]) -> str:
    e = html.escape
    sides = "".join(
        f"<pre>{_marked(sources.get(name, ''), regions)}</pre>"
        for name, regions in zip((pair.first, pair.second), pair.regions, strict=True)
    )
    heading = (
        f"{e(pair.first)} ({pair.similarity[0]:.0%}) and {e(pair.second)} "
        f"({pair.similarity[1]:.0%})"
    )
    sides = f"<div class='side'>{sides}</div>"
    return f"<section id='pair-{number}'><h3>{heading}</h3>{sides}</section>"


def _marked(text: str, regions: tuple[Region, ...]) -> str:
    """`text` escaped, each region wrapped in <mark>."""
    out = []
    at = 0
    for region in sorted(regions, key=lambda r: r.start):
        start, end = max(region.start, at), min(region.end, len(text))
        if start >= end:
            continue
        out += [html.escape(text[at:start]), "<mark>", html.escape(text[start:end]), "</mark>"]
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)
