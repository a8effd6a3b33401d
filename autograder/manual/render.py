"""A student's answer as HTML: Markdown rendered without raw HTML, then sanitised by nh3.

Two layers, so neither alone must be perfect: markdown-it escapes any HTML the student wrote
and refuses `javascript:`-like link targets; nh3 (the Rust `ammonia` sanitiser) then keeps only
the tags and attributes below, links to http, https and mailto alone, and no images (an image
would load something from elsewhere)."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

from autograder.safe_text import printable

TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a",
    "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def answer_html(text: str) -> str:
    """`text` (Markdown, hostile) as safe HTML. A student's headings keep their text but lose
    their level, which would break the page's outline."""
    rendered = _MARKDOWN.render(printable(text))  # terminal escapes shown as \x1b, inert
    return nh3.clean(
        rendered,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        attribute_filter=_absolute_links_only,
    )


def _absolute_links_only(tag: str, attribute: str, value: str) -> str | None:
    """An href that names its scheme (http, https or mailto, which nh3 checks); a relative
    (`/api/state`) or protocol-relative (`//elsewhere.example`) one is dropped: it would lead
    the grading tab to this server's own pages or to another site."""
    if attribute == "href" and not value.lower().startswith(("http://", "https://", "mailto:")):
        return None
    return value
