"""The deck overview drawn: bar charts as plain geometry for server-rendered inline SVG.

`overview_charts(overview)` turns `validator.overview.Overview` numbers into three
`Chart`s (mana curve, color balance, card types): rectangles and text positions in a
fixed viewBox, plus the sentence a screen reader hears, in the request's language. `templates/_overview.html` draws
them with SVG presentation attributes and classes only (the page's CSP forbids inline
style); `static/app.js` (`overviewCharts`) computes the same geometry from the API's
`overview` block, and the browser tests compare the two drawings.

Every coordinate is a whole number rounded half up (`_round`), as JavaScript's
Math.floor(x + 0.5) does, so both sides agree to the pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from flask_babel import gettext, ngettext

from edh_service.api.responses import preview_images
from edh_service.web.texts import color_name, type_name
from validator.overview import COLOR_NAMES, CURVE_BUCKETS, Overview

# Preview images come from Scryfall's image CDN only; the page's CSP allows this host.
PREVIEW_WIDTH, PREVIEW_HEIGHT = 244, 340  # half of the "normal" image (488x680): sharp on 2x screens

WIDTH = 320  # every chart's viewBox width

# Mana curve: a column per bucket.
CURVE_COLUMN, CURVE_BAR, CURVE_BASE, CURVE_TALL = 40, 26, 140, 110
# Horizontal charts: a label column, then bars up to BAR_SPAN wide.
COLOR_ROW, COLOR_LEFT, TYPE_ROW, TYPE_LEFT, BAR_SPAN = 40, 72, 24, 104, 168


@dataclass(frozen=True, slots=True)
class Bar:
    x: int
    y: int
    width: int
    height: int
    kind: str  # CSS classes: "bar", "bar bar-cost color-U"...


@dataclass(frozen=True, slots=True)
class Label:
    x: int
    y: int
    text: str
    kind: str  # "value", "axis", "name"
    anchor: str = "start"  # SVG text-anchor


@dataclass(frozen=True, slots=True)
class Chart:
    key: str  # "curve", "colors", "types": element ids and CSS hooks
    title: str
    description: str  # what the chart shows, in words (the SVG's <desc>)
    height: int
    bars: tuple[Bar, ...]
    labels: tuple[Label, ...]
    head: tuple[str, ...] = ()  # the table fallback: column headings
    rows: tuple[tuple[str, ...], ...] = ()  # and one row per bar (or pair of bars)


def _round(value: float) -> int:
    """Half up, as JavaScript's Math.floor(x + 0.5) (Python's round() is half to even)."""
    return math.floor(value + 0.5)


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def curve_chart(curve: Mapping[str, int]) -> Chart:
    """Nonland cards by mana value: a column per bucket, its count above it."""
    tallest = max(curve.values(), default=0) or 1
    bars, labels = [], []
    for index, bucket in enumerate(CURVE_BUCKETS):
        count = curve.get(bucket, 0)
        height = _round(count / tallest * CURVE_TALL)
        x = index * CURVE_COLUMN + (CURVE_COLUMN - CURVE_BAR) // 2
        middle = index * CURVE_COLUMN + CURVE_COLUMN // 2
        bars.append(Bar(x, CURVE_BASE - height, CURVE_BAR, height, "bar bar-curve"))
        labels.append(Label(middle, CURVE_BASE - height - 5, str(count), "value", "middle"))
        labels.append(Label(middle, CURVE_BASE + 18, bucket, "axis", "middle"))
    description = gettext("Nonland cards by mana value: %(values)s.", values=", ".join(
        f"{bucket}: {curve.get(bucket, 0)}" for bucket in CURVE_BUCKETS))
    rows = tuple((bucket, str(curve.get(bucket, 0))) for bucket in CURVE_BUCKETS)
    return Chart("curve", gettext("Mana curve"), description, CURVE_BASE + 26, tuple(bars), tuple(labels),
                 (gettext("Mana value"), gettext("Nonland cards")), rows)


def color_rows(overview: Overview) -> list[str]:
    """The colors worth a row: those in any cost or made by any land (WUBRG, then C)."""
    return [c for c in COLOR_NAMES if overview.cost_symbols.get(c, 0) or overview.land_sources.get(c, 0)]


def color_chart(overview: Overview) -> Chart:
    """Per color: its share of the colored symbols in costs (upper bar) against the share
    of lands that make it (lower bar)."""
    symbols = sum(overview.cost_symbols.values())
    colors = color_rows(overview)
    # Both bars share one scale: the largest share of either kind spans BAR_SPAN.
    widest = max((share for c in colors for share in (_share(overview.cost_symbols.get(c, 0), symbols),
                                                       _share(overview.land_sources.get(c, 0), overview.lands))),
                 default=0.0) or 1.0
    bars, labels, said, rows = [], [], [], []
    for row, color in enumerate(colors):
        top = row * COLOR_ROW + 4
        cost, lands = overview.cost_symbols.get(color, 0), overview.land_sources.get(color, 0)
        percent = _round(_share(cost, symbols) * 100)
        cost_width = _round(_share(cost, symbols) / widest * BAR_SPAN)
        land_width = _round(_share(lands, overview.lands) / widest * BAR_SPAN)
        bars.append(Bar(COLOR_LEFT, top + 2, cost_width, 13, f"bar bar-cost color-{color}"))
        bars.append(Bar(COLOR_LEFT, top + 17, land_width, 13, f"bar bar-land color-{color}"))
        name = color_name(color)
        share = gettext("%(count)s (%(percent)s%%)", count=cost, percent=percent)
        of_lands = gettext("%(count)s of %(size)s", count=lands, size=overview.lands)
        labels.append(Label(0, top + 21, name, "name"))
        labels.append(Label(COLOR_LEFT + cost_width + 5, top + 13, share, "value"))
        labels.append(Label(COLOR_LEFT + land_width + 5, top + 28, of_lands, "value"))
        said.append(gettext("%(color)s: %(symbols)s (%(percent)s%%), %(lands)s of %(total)s lands", color=name,
                            symbols=ngettext("%(num)s symbol", "%(num)s symbols", cost), percent=percent,
                            lands=lands, total=overview.lands))
        rows.append((name, share, of_lands))
    description = gettext("Colored mana symbols in costs against lands producing each color: %(colors)s.",
                          colors="; ".join(said) if said else gettext("none"))
    return Chart("colors", gettext("Color balance"), description, max(len(said), 1) * COLOR_ROW + 8,
                 tuple(bars), tuple(labels), (gettext("Color"), gettext("Symbols in costs"),
                                              gettext("Lands producing it")), tuple(rows))


def type_chart(types: Mapping[str, int]) -> Chart:
    """Cards by card type, a bar each (a card counts under each of its types)."""
    largest = max(types.values(), default=0) or 1
    bars, labels = [], []
    for row, (kind, count) in enumerate(types.items()):
        top = row * TYPE_ROW
        width = _round(count / largest * BAR_SPAN)
        bars.append(Bar(TYPE_LEFT, top + 4, width, 16, "bar bar-type"))
        labels.append(Label(0, top + 16, type_name(kind), "name"))
        labels.append(Label(TYPE_LEFT + width + 5, top + 16, str(count), "value"))
    description = gettext("Cards by type: %(types)s.", types=", ".join(
        f"{type_name(kind)} {count}" for kind, count in types.items()) or gettext("none"))
    rows = tuple((type_name(kind), str(count)) for kind, count in types.items())
    return Chart("types", gettext("Card types"), description, max(len(types), 1) * TYPE_ROW + 4, tuple(bars),
                 tuple(labels), (gettext("Card type"), gettext("Cards")), rows)


def overview_charts(overview: Overview) -> tuple[Chart, ...]:
    """The three charts of the overview, in page order."""
    return curve_chart(overview.curve), color_chart(overview), type_chart(overview.types)


def page_context(report) -> dict:
    """What templates/_overview.html and the card links' previews need, for render_template."""
    overview = getattr(report, "overview", None)
    return {
        "overview": overview,
        "charts": overview_charts(overview) if overview else (),
        "chart_width": WIDTH,
        "images": preview_images(overview),
        "preview_size": (PREVIEW_WIDTH, PREVIEW_HEIGHT),
    }
