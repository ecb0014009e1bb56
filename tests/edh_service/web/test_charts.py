"""edh_service.web.charts: the overview's bar geometry (the numbers app.js must reproduce)."""

from __future__ import annotations

from edh_service.web import charts
from tests.support.factories import FOREST, deck
from validator.overview import overview


def test_rounding_is_half_up_like_javascript():
    assert [charts._round(v) for v in (0.5, 1.5, 2.5, 2.49)] == [1, 2, 3, 2]  # round() would give 0, 2, 2


def test_curve_scales_to_the_tallest_column():
    chart = charts.curve_chart({"0": 0, "1": 4, "2": 2, "3": 1, "4": 0, "5": 0, "6": 0, "7+": 8})
    assert [bar.height for bar in chart.bars] == [0, 55, 28, 14, 0, 0, 0, 110]
    assert all(bar.y + bar.height == charts.CURVE_BASE for bar in chart.bars)
    assert [label.text for label in chart.labels if label.kind == "axis"] == list("0123456") + ["7+"]


def test_a_deck_of_lands_only_draws_empty_charts_that_say_so():
    shown = charts.overview_charts(overview(deck(main={FOREST: 10})))
    curve, colors, types = shown
    assert all(bar.height == 0 for bar in curve.bars)
    assert colors.description.endswith("Green: 0 symbols (0%), 10 of 10 lands.")
    assert [bar.width for bar in colors.bars] == [0, 168]
    assert types.rows == (("Land", "10"),)
    empty = charts.color_chart(overview(deck()))
    assert (empty.bars, empty.description) == ((), "Colored mana symbols in costs against lands producing each color: none.")


def test_preview_images_keep_the_cdn_only():
    class Fake:
        images = {"A": "https://cards.scryfall.io/normal/a.jpg", "B": "https://cards.scryfall.io.evil/b.jpg",
                  "C": "http://cards.scryfall.io/normal/c.jpg"}

    assert charts.preview_images(Fake()) == {"A": "https://cards.scryfall.io/normal/a.jpg"}
    assert charts.preview_images(None) == {}
