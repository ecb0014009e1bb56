"""TappedOut's `board` HTML: `<h3>` section headings over `Nx <a class="card-link">Name</a>`
items in `tappedout-member` list items, read in one linear pass over the tags."""

from __future__ import annotations

import html
import re

from validator.decklist import Section
from validator.parse.common import heading_section

# TappedOut's board HTML read in one linear pass over its tags (and comments, skipped); the
# text between two tags is sliced out only where an item or heading is being read. A "<"
# that closes no tag before the next "<" is text, as in HTMLParser. (The standard library's
# HTMLParser is quadratic on unclosed tags in this Python, 3 s for 12 KB of "<a ", far
# under a real board's 57 KB, and raised AssertionError on "<![": a 500.)
_HTML_TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)(h3|li|a)(?![^\s/>\x00])([^<>]*+)>|<[/!?A-Za-z][^<>]*+>", re.S | re.I)
# An attribute as HTMLParser reads one: a name, then optionally `=` and a quoted or bare value.
_HTML_ATTRIBUTE = re.compile(r"""([^\s/=]++)(?:\s*+=+\s*+(?:"([^"]*)"|'([^']*)'|(\S*+)))?""")


def board_cards(board: str) -> list[tuple[str, str, Section]]:
    """The cards of a board: headings switch section; in a `tappedout-member` item, the
    text before the `card-link` anchor is the quantity (`1x`) and the anchor's text the name.
    Only h3, li and a tags do anything; every other tag and comment just ends a text."""
    cards: list[tuple[str, str, Section]] = []
    text: list[str] = []
    capture: str | None = None
    section, quantity, end = Section.MAIN, "", 0
    for match in _HTML_TAG.finditer(board):
        if capture and match.start() > end:
            text.append(html.unescape(board[end:match.start()]))
        end = match.end()
        closing, name, attributes = match.groups()
        if name is None:  # another element, a comment, <!DOCTYPE>, <?pi>
            continue
        name = name.lower()
        if closing:
            if name == "h3" and capture == "heading":
                section, capture = heading_section("".join(text)) or Section.MAIN, None
            elif name == "a" and capture == "name":
                cards.append(("".join(text), quantity, section))
                capture = None
        elif name == "h3":
            capture, text = "heading", []
        elif name == "li" and "tappedout-member" in _html_class(attributes).split():
            capture, text = "item", []
        elif name == "a" and capture == "item" and "card-link" in _html_class(attributes).split():
            quantity = "".join(text).strip().rstrip("xX")
            capture, text = "name", []
    return cards


def _html_class(attributes: str) -> str:
    """The value of a tag's (last) class attribute, entities decoded; "" when it has none."""
    value = ""
    for match in _HTML_ATTRIBUTE.finditer(attributes):
        if match[1].lower() == "class":
            value = next((v for v in match.groups()[1:] if v is not None), "")
    return html.unescape(value)
