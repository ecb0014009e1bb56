"""Designation: who commands as the request says it, one frozen value for every signature."""

from dataclasses import FrozenInstanceError

import pytest

from validator.decklist import NOBODY, Designation


@pytest.mark.parametrize(
    ("given", "commanders", "companion", "choices"),
    (
        ({}, (), None, {}),
        ({"commanders": None, "companion": "", "color_choices": None}, (), None, {}),
        ({"commanders": ["Thrasios", "Tymna"]}, ("Thrasios", "Tymna"), None, {}),
        ({"companion": "Lurrus", "color_choices": {"Piper": "R"}}, (), "Lurrus", {"Piper": "R"}),
    ),
)
def test_of_reads_the_requests_optional_fields(given, commanders, companion, choices):
    designation = Designation.of(**given)
    assert (designation.commanders, designation.companion, dict(designation.color_choices)) == (
        commanders, companion, choices)


def test_names_lists_every_name_to_resolve_once_in_order():
    designation = Designation.of(["Thrasios", "Piper"], "Lurrus", {"Piper": "R", "Kenrith": "G"})
    assert designation.names() == ("Thrasios", "Piper", "Lurrus", "Kenrith")
    assert NOBODY.names() == ()


def test_it_is_frozen_and_does_not_share_the_callers_mapping():
    choices = {"Piper": "R"}
    designation = Designation.of(color_choices=choices)
    choices["Piper"] = "G"  # the caller's dict changes afterwards: the designation does not
    assert designation.color_choices["Piper"] == "R"
    with pytest.raises(FrozenInstanceError):
        designation.companion = "Lurrus"  # type: ignore[misc]
    with pytest.raises(TypeError):
        designation.color_choices["Piper"] = "W"  # type: ignore[index]
