"""The similarity report: pairs of submissions above the threshold, their shared regions marked
side by side. One self-contained HTML file; every name and line of code is escaped."""

from __future__ import annotations

import html
from collections.abc import Mapping

from autograder.after_grading.similarity import MIN_SHARED, Comparison, Pair, Region, clusters

MAX_PAIRS_SHOWN = 100
"""Pairs drawn side by side (all are listed in the table)."""

STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#111}table{border-collapse:collapse}"
    "td,th{border:1px solid #999;padding:.2em .6em;vertical-align:top;text-align:left}"
    "th{background:#eef}.side{display:flex;gap:1em}.side figure{flex:1;margin:0;min-width:0}"
    ".side pre{overflow:auto;max-height:40em;background:#f8f8f8;padding:.5em;font-size:.85em;"
    "white-space:pre-wrap}mark{background:#ffd27f;color:#000}"
)


def render_similarity(comparison: Comparison, sources: Mapping[str, str], *, title: str) -> str:
    """The page: a summary, the groups, the pairs at or above the threshold and the closest
    under it, each listed pair's two sources side by side with the shared regions marked."""
    e = html.escape
    body = [
        f"<p id='summary'>{comparison.compared} submissions compared, every pair by winnowing "
        f"normalised tokens; {len(comparison.pairs)} pair(s) at or above "
        f"{comparison.threshold:.0%} shared{_nearest_clause(comparison)}. The released stub's "
        f"text and {comparison.common_passages} passage(s) common to much of the class were "
        "ignored.</p>"
    ]
    groups = [g for g in clusters(comparison.pairs) if len(g) > 2]
    if groups:
        items = "".join(f"<li>{e(', '.join(g))}</li>" for g in groups)
        body.append(f"<section><h2>Groups</h2><ul id='groups'>{items}</ul></section>")
    if not comparison.pairs:
        body.append("<p id='pairs'>No pair reaches the threshold.</p>")
    else:
        rows = "".join(
            f"<tr><th scope='row'>{e(p.first)}</th><td>{e(p.second)}</td>"
            f"<td>{p.similarity[0]:.0%}</td><td>{p.similarity[1]:.0%}</td>"
            f"<td>{_link(n, p)}</td></tr>"
            for n, p in enumerate(comparison.pairs)
        )
        body.append(
            "<section><h2>Pairs at or above the threshold</h2><table id='pairs'><tr>"
            "<th scope='col'>first</th><th scope='col'>second</th>"
            "<th scope='col'>share of first found in second</th>"
            "<th scope='col'>share of second found in first</th>"
            f"<th scope='col'>side by side</th></tr>{rows}</table></section>"
        )
    if comparison.nearest:
        rows = "".join(
            f"<tr><th scope='row'>{e(p.first)}</th><td>{e(p.second)}</td>"
            f"<td>{p.similarity[0]:.0%}</td><td>{p.similarity[1]:.0%}</td>"
            f"<td>{e(why_not_listed(p, comparison.threshold))}</td></tr>"
            for p in comparison.nearest
        )
        body.append(
            "<section><h2>Closest pairs under the threshold</h2><table id='nearest'>"
            "<caption>Not listed above: how close the nearest pairs came</caption><tr>"
            "<th scope='col'>first</th><th scope='col'>second</th>"
            "<th scope='col'>share of first found in second</th>"
            "<th scope='col'>share of second found in first</th>"
            f"<th scope='col'>why not listed</th></tr>{rows}</table></section>"
        )
    shown = comparison.pairs[:MAX_PAIRS_SHOWN]
    if shown:
        body.append("<section><h2>Each pair side by side</h2>")
        body += [_pair(n, pair, sources) for n, pair in enumerate(shown)]
        body.append("</section>")
    head = (
        "<meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
        "<meta http-equiv='Content-Security-Policy' "
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{e(title)}</title><style>{STYLE}</style>"
    )
    header = f"<header><h1>{e(title)}</h1></header>"
    page = f"<head>{head}</head><body>{header}<main>{''.join(body)}</main></body>"
    return f"<!doctype html><html lang='en'>{page}</html>\n"


def why_not_listed(pair: Pair, threshold: float) -> str:
    """Why a pair of Comparison.nearest is not listed: under the threshold, or too short."""
    if pair.score < threshold:
        return f"under {threshold:.0%}"
    return f"only {pair.shared} normalised characters shared, under the {MIN_SHARED} needed"


def nearest_line(comparison: Comparison) -> str:
    """How close the nearest pair not listed came, for a terminal ("" when none)."""
    if not comparison.nearest:
        return ""
    near = comparison.nearest[0]
    return (
        f"the closest pair under it: {near.first} and {near.second}, {near.score:.0%} shared "
        f"({why_not_listed(near, comparison.threshold)})"
    )


def _nearest_clause(comparison: Comparison) -> str:
    if not comparison.nearest:
        return ""
    near = comparison.nearest[0]
    return (
        f" (the closest pair under the threshold, {html.escape(near.first)} and "
        f"{html.escape(near.second)}, shares {near.score:.0%}: "
        f"{html.escape(why_not_listed(near, comparison.threshold))})"
    )


def _link(number: int, pair: Pair) -> str:
    e = html.escape
    return f"<a href='#pair-{number}'>{e(pair.first)} and {e(pair.second)} side by side</a>"


def _pair(number: int, pair: Pair, sources: Mapping[str, str]) -> str:
    e = html.escape
    sides = "".join(
        f"<figure><figcaption>{e(name)}</figcaption><pre tabindex='0' "
        f"aria-label='{e(name, quote=True)}: source, shared regions marked'>"
        f"{_marked(sources.get(name, ''), regions)}</pre></figure>"
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
