"""A student's answer as HTML: Markdown rendered without raw HTML or links, then sanitised by nh3.

Two layers, so neither alone must be perfect: markdown-it escapes any HTML the student wrote and,
with its link, image, autolink and reference rules off, leaves `[text](url)`, `![alt](url)` and
`<url>` as the text the student typed; nh3 (the Rust `ammonia` sanitiser) then keeps only the
tags and attributes below, none of which is a link or loads anything. An answer therefore cannot
lead the grading tab anywhere (to another local server, say), yet the grader still reads every
address the student wrote."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

from autograder.safe_text import printable

TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li",
    "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ATTRIBUTES = {"ol": {"start"}, "th": {"align"}, "td": {"align"}}
_MARKDOWN = (
    MarkdownIt("commonmark", {"html": False, "linkify": False})
    .enable("table")
    .disable(["link", "image", "autolink", "reference"])
)


def answer_html(text: str) -> str:
    """`text` (Markdown, hostile) as safe, inert HTML. A student's headings keep their text but
    lose their level, which would break the page's outline."""
    rendered = _MARKDOWN.render(printable(text))  # terminal escapes shown as \x1b, inert
    return nh3.clean(rendered, tags=TAGS, attributes=ATTRIBUTES, url_schemes=set(), link_rel=None)
