"""Contract tests of the Commander Brackets block (DESIGN.md "Commander Brackets") on the API:
the block's exact shape in validate and batch results, the declared `bracket` field (JSON,
batch items, the text/plain query string) and its bad values, the bracket_* codes and
their cards, the lists null without data, the card endpoint's flags, /readyz and OpenAPI.

The lists come from the hand-written fixtures (tests/fixtures/brackets) loaded into the
fixture store the way `cards import` does with MASS_LAND_DENIAL_FILE / COMBOS_FILE, or from
the Spellbook-shaped export on the local server when a combo must be flagged fast.
"""

from __future__ import annotations

import pytest

from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables
from card_data.scryfall.client import ScryfallClient
from card_data.lists.spellbook import SpellbookClient
from tests.support.factories import deck_text, load_bracket_lists, plain_deck
from tests.support.responses import assert_envelope
from tests.support.scryfall_server import FIXTURES

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
LISTS = FIXTURES / "brackets"
GAME_CHANGERS = ["Demonic Tutor", "Rhystic Study", "Smothering Tithe"]  # in test_api's LEGAL deck
NOT_CHECKED = [
    {"bracket": None, "message": "Mass land denial was not checked: no mass land denial list is loaded.", "cards": []},
    {"bracket": None, "message": "Two-card combos were not checked: no combo list is loaded.", "cards": []},
]
OUT_OF_RANGE = "Must be greater than or equal to 1 and less than or equal to 5."  # marshmallow's Range
BLOCK_KEYS = ["minimum", "declared", "game_changers", "mass_land_denial", "extra_turns", "two_card_combos", "reasons"]
@pytest.fixture
def lists(fixture_db) -> None:
    """The fixture store with both lists loaded from files."""
    load_bracket_lists(fixture_db)


def validate(client, deck: str, **fields) -> dict:
    response = client.post(VALIDATE, json={"decklist": deck, **fields})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def bracket_codes(body: dict, prefix: str = "bracket_") -> dict[str, list[str]]:
    """code -> cards of the bracket_* violations."""
    return {v["code"]: v["cards"] for v in body["violations"] if v["code"].startswith(prefix)}


# --- the block ----------------------------------------------------------------------------------

def test_every_result_carries_the_block_in_the_design_shape_without_data(client):
    body = validate(client, deck_text())
    assert list(body)[-3:] == ["bracket", "house_rules", "card_data"]
    block = body["bracket"]
    assert list(block) == BLOCK_KEYS  # exactly DESIGN's keys: no internal extras such as fast_combos
    assert block["minimum"] == 3
    assert block["declared"] is None
    assert block["game_changers"] == GAME_CHANGERS
    assert block["extra_turns"] == []
    # no list loaded: null, never [], and a reason says so
    assert block["mass_land_denial"] is None and block["two_card_combos"] is None
    assert block["reasons"] == [
        {"bracket": 3, "message": "3 Game Changers (Demonic Tutor, Rhystic Study and Smothering Tithe): "
                                  "brackets 1 and 2 allow none.", "cards": GAME_CHANGERS},
        *NOT_CHECKED,
    ]
    assert body["valid"] is True  # advisory: nothing declared, no bracket_* error


def test_a_deck_with_nothing_is_bracket_1(client, lists):
    block = validate(client, plain_deck())["bracket"]
    assert block["minimum"] == 1
    assert (block["game_changers"], block["extra_turns"], block["mass_land_denial"], block["two_card_combos"]) == (
        [], [], [], [])
    assert [reason["bracket"] for reason in block["reasons"]] == [1]


def test_the_lists_name_mass_land_denial_and_combos_with_both_cards(client, lists):
    # Counterspell + Fire // Ice is a combo in combos.txt; Rhystic Study's partner is not in the deck.
    block = validate(client, plain_deck("Vindicate", "Counterspell", "Fire // Ice", "Rhystic Study"))["bracket"]
    assert block["mass_land_denial"] == ["Vindicate"]
    assert block["two_card_combos"] == [["Counterspell", "Fire // Ice"]]
    assert block["minimum"] == 4
    by_bracket = {reason["bracket"]: reason for reason in block["reasons"]}
    assert by_bracket[4]["cards"] == ["Vindicate"]
    assert "mass land denial" in by_bracket[4]["message"]
    assert all(reason["bracket"] is not None for reason in block["reasons"])  # both lists checked
    half = validate(client, plain_deck("Counterspell"))["bracket"]
    assert half["two_card_combos"] == [] and half["minimum"] == 1


def test_a_commander_that_grants_an_extra_turn_counts(client, lists):
    # All in Good Time is no commander, so the check still names it from the command zone's deck
    block = validate(client, plain_deck("All in Good Time"))["bracket"]
    assert block["extra_turns"] == ["All in Good Time"]
    assert block["minimum"] == 2
    assert block["reasons"][0]["bracket"] == 2 and block["reasons"][0]["cards"] == ["All in Good Time"]


# --- the declared bracket -----------------------------------------------------------------------

@pytest.mark.parametrize(("declared", "expected"), (
    (1, {"bracket_game_changers": GAME_CHANGERS, "bracket_mass_land_denial": ["Vindicate"],
         "bracket_extra_turns": ["All in Good Time"], "bracket_two_card_combo": ["Counterspell", "Fire // Ice"]}),
    (2, {"bracket_game_changers": GAME_CHANGERS, "bracket_mass_land_denial": ["Vindicate"],
         "bracket_two_card_combo": ["Counterspell", "Fire // Ice"]}),
    (3, {"bracket_mass_land_denial": ["Vindicate"]}),  # three Game Changers are allowed in 3
    (4, {}),
    (5, {}),
))
def test_a_declared_bracket_reports_what_the_list_breaks(client, lists, declared, expected):
    deck = plain_deck("Vindicate", "Counterspell", "Fire // Ice", "All in Good Time",
                      "Demonic Tutor", "Rhystic Study", "Smothering Tithe")
    body = validate(client, deck, bracket=declared)
    assert body["bracket"]["declared"] == declared
    assert body["bracket"]["minimum"] == 4
    assert bracket_codes(body) == expected
    if expected:
        assert body["valid"] is False
    for violation in body["violations"]:
        if violation["code"].startswith("bracket_"):
            assert violation["severity"] == "error"


@pytest.fixture
def spellbook_lists(fixture_db, scryfall_server) -> None:
    """The combo list from the Spellbook-shaped export on the local server (bracket tags kept)."""
    scryfall_server.spellbook_export = (LISTS / "variants.json").read_bytes()
    url = f"{scryfall_server.base_url}/spellbook"
    results = bracket_lists.refresh(fixture_db, BracketSources(api_url=scryfall_server.base_url, spellbook_url=url,
                                                                   mass_land_denial_file=str(LISTS / "mass-land-denial.txt")),
                               client=ScryfallClient(scryfall_server.base_url, backoff=0), spellbook=SpellbookClient(url))
    assert results[bracket_tables.TWO_CARD_COMBOS].status == "updated"


def test_a_fast_combo_sets_4_in_its_reason_and_breaks_a_declared_3(client, spellbook_lists):
    """Decision of issue 12: bracket_two_card_combo in a declared 3 for a combo the data flags fast."""
    body = validate(client, plain_deck("Dark Ritual", "Lim-Dûl's Vault"), bracket=3)
    block = body["bracket"]
    assert list(block) == BLOCK_KEYS  # the fast flag is said in the reason, not in a new key
    assert block["two_card_combos"] == [["Dark Ritual", "Lim-Dûl's Vault"]]
    assert block["minimum"] == 4
    [reason] = [r for r in block["reasons"] if r["bracket"] == 4]
    assert "fast" in reason["message"] and reason["cards"] == ["Dark Ritual", "Lim-Dûl's Vault"]
    assert bracket_codes(body) == {"bracket_two_card_combo": ["Dark Ritual", "Lim-Dûl's Vault"]}
    assert bracket_codes(validate(client, plain_deck("Dark Ritual", "Lim-Dûl's Vault"), bracket=4)) == {}


def test_batch_items_declare_their_own_bracket(client):
    deck = deck_text()  # legal, with three Game Changers
    response = client.post(BATCH, json={"decks": [{"decklist": deck, "bracket": 2}, {"decklist": deck}]})
    assert response.status_code == 200
    first, second = response.get_json()["results"]
    assert first["bracket"]["declared"] == 2 and bracket_codes(first) == {"bracket_game_changers": GAME_CHANGERS}
    assert second["bracket"]["declared"] is None and bracket_codes(second) == {}
    assert (first["valid"], second["valid"]) == (False, True)
    assert first["bracket"]["game_changers"] == second["bracket"]["game_changers"] == GAME_CHANGERS


def test_text_plain_declares_the_bracket_in_the_query_string(client):
    response = client.post(VALIDATE + "?bracket=2", data=deck_text().encode(), content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert body["bracket"]["declared"] == 2
    assert bracket_codes(body) == {"bracket_game_changers": GAME_CHANGERS}
    # a JSON field wins over the query string
    body = client.post(VALIDATE + "?bracket=2", json={"decklist": deck_text(), "bracket": 4}).get_json()
    assert body["bracket"]["declared"] == 4 and bracket_codes(body) == {}


@pytest.mark.parametrize("bad", (0, 6, -1, "x", "3", True, 2.5, 6.0, [3], {"n": 3}))
def test_a_bad_declared_bracket_is_a_422_envelope(client, bad):
    body = assert_envelope(client.post(VALIDATE, json={"decklist": deck_text(), "bracket": bad}), 422)
    assert "bracket" in body["errors"]


def test_a_bad_bracket_in_a_batch_item_is_a_422_naming_it(client):
    body = assert_envelope(client.post(BATCH, json={"decks": [{"decklist": "1 Sol Ring"},
                                                              {"decklist": "1 Sol Ring", "bracket": 0}]}), 422)
    assert "bracket" in body["errors"]["decks"]["1"]


@pytest.mark.parametrize("bad", ("0", "6", "x", "true", "2.5", ""))
def test_a_bad_bracket_in_the_query_string_is_a_422_envelope(client, bad):
    response = client.post(f"{VALIDATE}?bracket={bad}", data=b"1 Sol Ring\n", content_type="text/plain")
    body = assert_envelope(response, 422)
    assert "bracket" in body["errors"]


def test_a_bracket_given_twice_in_the_query_string_is_a_422_naming_it(client):
    """?bracket=3&bracket=4 silently used 3: a single-valued option given twice is ambiguous."""
    response = client.post(f"{VALIDATE}?bracket=3&bracket=4", data=deck_text().encode(), content_type="text/plain")
    body = assert_envelope(response, 422)
    assert list(body["errors"]) == ["bracket"]
    assert "more than once" in body["errors"]["bracket"][0]
    assert "bracket" in body["message"] and "more than once" in body["message"]
    # the same value twice is no less ambiguous a request
    assert_envelope(client.post(f"{VALIDATE}?bracket=3&bracket=3", data=b"1 Sol Ring\n", content_type="text/plain"), 422)


HUGE = "9" * 5_000  # over Python's 4,300-digit limit for int(): json.loads refused the body (a 400)


@pytest.mark.parametrize("number", (HUGE, "-" + HUGE))
def test_a_bracket_of_5000_digits_is_out_of_range_not_broken_json(client, number):
    body = assert_envelope(client.post(VALIDATE, data=f'{{"decklist": "1 Sol Ring", "bracket": {number}}}',
                                       content_type="application/json"), 422)
    assert body["errors"] == {"bracket": [OUT_OF_RANGE]}  # what bracket 6 says
    assert assert_envelope(client.post(VALIDATE, json={"decklist": "1 Sol Ring", "bracket": 6}), 422)["errors"] == \
        {"bracket": [OUT_OF_RANGE]}
    batch = f'{{"decks": [{{"decklist": "1 Sol Ring"}}, {{"decklist": "1 Sol Ring", "bracket": {number}}}]}}'
    body = assert_envelope(client.post(BATCH, data=batch, content_type="application/json"), 422)
    assert body["errors"] == {"decks": {"1": {"bracket": [OUT_OF_RANGE]}}}


def test_null_declares_nothing(client):
    body = validate(client, deck_text(), bracket=None)
    assert body["bracket"]["declared"] is None and bracket_codes(body) == {}


# --- the card endpoint, /readyz, OpenAPI -------------------------------------------------------

@pytest.mark.parametrize(("name", "flags"), (
    ("Rhystic Study", {"game_changer": True, "extra_turn": False, "mass_land_denial": False}),
    ("All in Good Time", {"game_changer": False, "extra_turn": True, "mass_land_denial": False}),
    ("Vindicate", {"game_changer": False, "extra_turn": False, "mass_land_denial": True}),
))
def test_the_card_endpoint_says_what_brackets_count(client, lists, name, flags):
    body = client.get(f"/api/v1/cards/{name}").get_json()
    assert {key: body[key] for key in flags} == flags


def test_the_card_endpoint_says_null_without_a_mass_land_denial_list(client):
    body = client.get("/api/v1/cards/Vindicate").get_json()
    assert body["mass_land_denial"] is None
    assert body["game_changer"] is False and body["extra_turn"] is False


def test_readyz_shows_the_lists(client, fixture_db):
    assert client.get("/readyz").get_json()["bracket_lists"] == {"mass_land_denial": None, "two_card_combos": None}
    load_bracket_lists(fixture_db)
    lists = client.get("/readyz").get_json()["bracket_lists"]
    assert lists["mass_land_denial"]["entries"] == 4 and lists["two_card_combos"]["entries"] == 3
    assert all(value["updated_at"] for value in lists.values())


def test_openapi_documents_the_block_and_the_field(client):
    spec = client.get("/openapi.json").get_json()
    components = spec["components"]["schemas"]
    assert "bracket" in components["Report"]["required"]
    assert set(components["Bracket"]["properties"]) == set(BLOCK_KEYS)
    assert components["Bracket"]["properties"]["mass_land_denial"]["type"] == ["array", "null"]
    assert set(components["BracketReason"]["properties"]) == {"bracket", "message", "cards"}
    field = components["ValidateRequest"]["properties"]["bracket"]
    assert (field["type"], field["minimum"], field["maximum"]) == (["integer", "null"], 1, 5)
    query = {p["name"]: p for p in spec["paths"]["/api/v1/validate"]["post"]["parameters"]}
    assert query["bracket"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 5}
    assert {"extra_turn", "mass_land_denial", "game_changer"} <= set(components["Card"]["required"])


def test_the_hand_built_block_is_what_the_schema_dumps(client, spellbook_lists):
    """responses.dump_bracket skips marshmallow for speed: it must equal BracketSchema's dump."""
    from edh_service import pipeline as service
    from edh_service.api import responses, schemas
    from edh_service.card_extension import repository_of

    repository = repository_of(client.application)
    for deck, declared in ((plain_deck("Dark Ritual", "Lim-Dûl's Vault", "Vindicate"), 3), (deck_text(), None)):
        bracket = service.validate_text(deck, repository, bracket=declared).report.bracket
        assert responses.dump_bracket(bracket) == schemas.BracketSchema().dump(bracket)
        assert validate(client, deck, bracket=declared)["bracket"] == responses.dump_bracket(bracket)
