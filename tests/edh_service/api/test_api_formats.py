"""The Commander-family formats through the API (issue 21, DESIGN.md "Commander-family
formats"): each format's legal deck, wrong size, its own commanders, its own legality key
and its special rule; aliases, the unknown-format 422, brackets outside Commander, signature
spells, include=formats, a list naming its format, batch items, GET /api/v1/formats, /readyz.

The store is tests/fixtures/formats/cards.jsonl (hand-made records with every legality key)
with the PDH list of tests/fixtures/formats/pauper-commanders.txt (tests/support/format_store.py).
"""

from __future__ import annotations

import json

import pytest

from tests.support.apps import offline_app
from tests.support.format_store import MYTHICS, TEFERI, UPDATED_AT, format_deck as deck, format_store
from tests.support.responses import assert_envelope
from validator.formats import KEYS, format_table

VALIDATE = "/api/v1/validate"
ATRAXA = "Atraxa, Praetors' Voice"
KARN = "Karn, Legacy Reforged"
WITNESS = "Eternal Witness"


@pytest.fixture
def client(formats_db):
    """A test client over the formats' store (the PDH list loaded)."""
    return offline_app(formats_db).test_client()


def validate(client, decklist: str, **fields) -> dict:
    """POST one list; the 200 body."""
    response = client.post(VALIDATE, json={"decklist": decklist, **fields})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def errors(body) -> list[tuple[str, list[str]]]:
    """(code, cards) of every error."""
    return [(v["code"], v["cards"]) for v in body["violations"] if v["severity"] == "error"]


def codes(body) -> list[str]:
    """Every violation code, errors and warnings."""
    return [v["code"] for v in body["violations"]]


# --- each format: a legal deck, the wrong size ---------------------------------------------

LEGAL = {
    "commander": deck([ATRAXA], (30, "Plains"), (30, "Swamp"), (8, "Forest")),
    "duel": deck([ATRAXA], "Derevi, Empyrial Tactician", (30, "Plains"), (30, "Swamp")),
    "brawl": deck([TEFERI], "Brainstorm", "Counterspell"),
    "standardbrawl": deck([TEFERI], "Brainstorm", size=60),
    "oathbreaker": deck([TEFERI], size=59) + "\nSignature Spell\n1 Brainstorm\n",  # the spell counts in the 60
    "paupercommander": deck([WITNESS], "Llanowar Elves", basic="Forest"),
    "predh": deck(["Doran, the Siege Tower"], (30, "Plains"), (30, "Swamp"), basic="Forest"),
}


@pytest.mark.parametrize("key", KEYS)
def test_a_legal_deck_in_each_format(client, key):
    body = validate(client, LEGAL[key], format=key)
    assert (body["valid"], body["format"], errors(body)) == (True, key, [])
    assert body["card_count"] == (60 if key in ("standardbrawl", "oathbreaker") else 100)
    assert body["signature_spells"] == (["Brainstorm"] if key == "oathbreaker" else [])
    assert (body["bracket"] is None) is (key != "commander")


@pytest.mark.parametrize(("key", "size"), [("commander", 60), ("duel", 99), ("brawl", 60), ("standardbrawl", 100),
                                           ("paupercommander", 101), ("predh", 98)])
def test_the_wrong_size_in_each_format(client, key, size):
    commander = {"paupercommander": WITNESS, "predh": "Doran, the Siege Tower"}.get(key, TEFERI if "brawl" in key
                                                                                     else ATRAXA)
    basic = "Forest" if key in ("paupercommander", "predh") else "Island"
    body = validate(client, deck([commander], size=size, basic=basic), format=key)
    assert errors(body) == [("deck_size", [])]
    expected = 60 if key == "standardbrawl" else 100
    assert f"exactly {expected}" in next(v["message"] for v in body["violations"] if v["code"] == "deck_size")


def test_oathbreaker_wrong_size(client):
    body = validate(client, deck([TEFERI], size=100) + "\nSignature Spell\n1 Brainstorm\n", format="oathbreaker")
    assert errors(body) == [("deck_size", [])]


# --- who can command ---------------------------------------------------------------------------

def test_a_legendary_planeswalker_commands_in_brawl_only(client):
    text = deck([TEFERI], "Brainstorm")
    assert errors(validate(client, text, format="brawl")) == []
    assert ("commander_ineligible", [TEFERI]) in errors(validate(client, text, format="commander"))


def test_an_oathbreaker_is_a_planeswalker_by_its_front_face(client):
    kytheon = "Kytheon, Hero of Akros // Gideon, Battle-Forged"
    body = validate(client, deck([kytheon], size=60, basic="Plains") + "\nSignature Spell\n1 Brainstorm\n",
                    format="oathbreaker")
    assert ("commander_ineligible", [kytheon]) in errors(body)
    body = validate(client, deck([ATRAXA], size=60) + "\nSignature Spell\n1 Brainstorm\n", format="oathbreaker")
    assert ("commander_ineligible", [ATRAXA]) in errors(body)


def test_pauper_commanders_come_from_the_list(client):
    # Scryfall says not_legal for Eternal Witness in paupercommander: the list alone judges it
    assert errors(validate(client, deck([WITNESS], basic="Forest"), format="pdh")) == []
    body = validate(client, deck([ATRAXA]), format="paupercommander")
    assert ("commander_ineligible", [ATRAXA]) in errors(body)
    assert "not on Scryfall's Pauper Commander commander list" in body["violations"][0]["message"]


def test_a_pdh_background_pair_needs_both_on_the_list(client):
    pair = ["Gut, True-Soul Zealot", "Criminal Past"]
    body = validate(client, deck(pair, basic="Swamp"), format="paupercommander")
    assert (body["valid"], body["commanders"]) == (True, pair)
    body = validate(client, deck(["Gut, True-Soul Zealot", "Cultist of the Absolute"], basic="Swamp"),
                    format="paupercommander")
    assert ("commander_ineligible", ["Cultist of the Absolute"]) in errors(body)


def test_without_the_pdh_list_a_commander_is_legality_unknown(tmp_path):
    client = offline_app(format_store(tmp_path / "bare.sqlite3", pauper_commanders=False)).test_client()
    body = validate(client, deck([WITNESS], basic="Forest"), format="paupercommander")
    assert errors(body) == [] and body["valid"] is True  # a warning: never taken as legal silently
    unknown = [v for v in body["violations"] if v["code"] == "legality_unknown"]
    assert unknown[0]["cards"] == [WITNESS] and "not loaded" in unknown[0]["message"]


# --- each format's own legality key --------------------------------------------------------------

@pytest.mark.parametrize(("key", "code"), [("commander", None), ("duel", "banned"), ("brawl", "not_legal"),
                                           ("oathbreaker", "banned"), ("paupercommander", "not_legal"),
                                           ("predh", None)])
def test_sol_ring_by_each_formats_key(client, key, code):
    commander = {"paupercommander": WITNESS, "predh": "Doran, the Siege Tower", "brawl": TEFERI,
                 "oathbreaker": TEFERI}.get(key, ATRAXA)
    size = 59 if key == "oathbreaker" else 100  # the designated signature spell is added
    basic = "Forest" if key in ("paupercommander", "predh") else "Island"
    spell = ["Brainstorm"] if key == "oathbreaker" else []
    body = validate(client, deck([commander], "Sol Ring", size=size, basic=basic), format=key,
                    **({"signature_spells": spell} if spell else {}))
    assert errors(body) == ([(code, ["Sol Ring"])] if code else [])


def test_pdh_bans_a_common(client):
    body = validate(client, deck([WITNESS], "Rhystic Study", basic="Forest"), format="pdh")
    assert ("banned", ["Rhystic Study"]) in errors(body)


def test_predh_reads_its_own_key_for_commanders_and_the_deck(client):
    body = validate(client, deck([ATRAXA], "Arcane Signet"), format="predh")
    assert ("not_legal", ["Arcane Signet"]) in errors(body) and ("not_legal", [ATRAXA]) in errors(body)


def test_a_card_without_the_formats_key_is_legality_unknown(client):
    body = validate(client, deck([ATRAXA], "Elder Deep-Fiend"), format="duel")
    assert errors(body) == [] and body["valid"] is True
    assert [(v["code"], v["severity"], v["cards"]) for v in body["violations"]] == [
        ("legality_unknown", "warning", ["Elder Deep-Fiend"])]
    assert codes(validate(client, deck([ATRAXA], "Elder Deep-Fiend"))) == []  # Commander knows it


# --- the special rules -----------------------------------------------------------------------------

def test_duel_bans_a_restricted_card_as_commander_only(client):
    derevi = "Derevi, Empyrial Tactician"
    body = validate(client, deck([derevi], (50, "Plains"), basic="Forest"), format="duel")
    assert errors(body) == [("banned_as_commander", [derevi])]
    assert errors(validate(client, deck([derevi], (50, "Plains"), basic="Forest"))) == []  # Commander: legal
    assert errors(validate(client, LEGAL["duel"], format="duel")) == []  # in the 99: legal


def test_903_12e_one_basic_land_type_by_type_for_a_colorless_brawl_commander(client):
    text = deck([KARN], (40, "Snow-Covered Island"), (5, "Wastes"), basic="Island")
    assert errors(validate(client, text, format="brawl")) == []  # Island and Snow-Covered Island: one type
    body = validate(client, deck([KARN], (40, "Snow-Covered Island"), (3, "Plains")), format="brawl")
    assert errors(body) == [("color_identity", ["Plains"])]  # a second type; Islands have the most copies
    assert next(v["rule"] for v in body["violations"] if v["code"] == "color_identity") == "903.12e"
    # not in Commander's family outside the Brawls
    body = validate(client, deck([KARN], (40, "Snow-Covered Island"), size=60), format="oathbreaker",
                    signature_spells=[])
    assert {("color_identity", ("Island",)), ("color_identity", ("Snow-Covered Island",))} <= {
        (code, tuple(cards)) for code, cards in errors(body)}


def test_signature_spells_from_the_request(client):
    text = deck([TEFERI], "Brainstorm", size=60)
    body = validate(client, text, format="oathbreaker", signature_spells=["Brainstorm"])
    assert (body["valid"], body["signature_spells"], body["card_count"]) == (True, ["Brainstorm"], 60)
    body = validate(client, text, format="oathbreaker")  # nothing marks it: missing
    assert [code for code, _ in errors(body)] == ["signature_spell"]


def test_a_second_signature_spell_and_an_off_identity_one(client):
    text = deck([TEFERI], size=58) + "\nSignature Spell\n1 Brainstorm\n1 Counterspell\n"
    assert [code for code, _ in errors(validate(client, text, format="oathbreaker"))] == ["signature_spell"]
    text = deck([TEFERI], size=59) + "\nSignature Spell\n1 Lightning Bolt\n"
    body = validate(client, text, format="oathbreaker")
    assert errors(body) == [("color_identity", ["Lightning Bolt"])]  # off-identity: that code alone


def test_a_declared_bracket_outside_commander_is_a_422_naming_it(client):
    body = assert_envelope(client.post(VALIDATE, json={"decklist": LEGAL["brawl"], "format": "brawl",
                                                       "bracket": 3}), 422)
    assert list(body["errors"]) == ["bracket"] and "only in Commander" in body["message"]
    assert validate(client, LEGAL["commander"], bracket=3)["bracket"]["declared"] == 3


def test_signature_spells_outside_oathbreaker_are_a_422_naming_them(client):
    body = assert_envelope(client.post(VALIDATE, json={"decklist": LEGAL["commander"],
                                                       "signature_spells": ["Brainstorm"]}), 422)
    assert list(body["errors"]) == ["signature_spells"]


# --- names of formats ---------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "key"), [("EDH", "commander"), ("dc", "duel"), ("DuelCommander", "duel"),
                                            ("historicbrawl", "brawl"), ("PDH", "paupercommander"),
                                            ("pauperedh", "paupercommander"), (" predh ", "predh")])
def test_aliases_answer_the_canonical_key(client, given, key):
    assert validate(client, deck([WITNESS], basic="Forest"), format=given)["format"] == key


@pytest.mark.parametrize("given", ["modern", "", "commander2", 7])
def test_an_unknown_format_is_a_422_listing_the_seven_keys(client, given):
    body = assert_envelope(client.post(VALIDATE, json={"decklist": "1 Island\n", "format": given}), 422)
    assert "format" in body["errors"]
    if isinstance(given, str):
        assert all(key in body["message"] for key in KEYS)


def test_format_in_the_query_for_a_text_body(client):
    response = client.post(VALIDATE + "?format=pdh&include=formats", data=deck([WITNESS], basic="Forest"),
                           content_type="text/plain")
    assert response.get_json()["format"] == "paupercommander" and set(response.get_json()["formats"]) == set(KEYS)
    body = assert_envelope(client.post(VALIDATE + "?format=vintage", data="1 Island\n", content_type="text/plain"), 422)
    assert "expected one of commander, duel, brawl, standardbrawl, oathbreaker, paupercommander, predh" in \
        body["message"]


def test_a_format_line_names_the_format(client):
    text = "Format: Brawl\n" + deck([TEFERI], "Brainstorm")
    body = validate(client, text)
    assert body["format"] == "brawl" and body["valid"] is True and body["bracket"] is None
    inferred = [v for v in body["violations"] if v["code"] == "format_inferred"]
    assert inferred[0]["severity"] == "warning" and inferred[0]["lines"] == [1]
    body = validate(client, text, format="commander")  # the request wins
    assert body["format"] == "commander" and "format_inferred" not in codes(body)
    assert ("commander_ineligible", [TEFERI]) in errors(body)


def test_a_site_export_names_its_format(client):
    export = {"format": "duelCommander", "boards": {
        "commanders": {"cards": {"a": {"quantity": 1, "card": {"name": "Derevi, Empyrial Tactician"}}}},
        "mainboard": {"cards": {"b": {"quantity": 99, "card": {"name": "Island"}}}}}}
    body = validate(client, json.dumps(export))
    assert body["format"] == "duel" and body["decklist_format"] == "moxfield_json"
    assert errors(body) == [("banned_as_commander", ["Derevi, Empyrial Tactician"])]
    assert "format_inferred" in codes(body)


def test_a_list_naming_its_format_with_a_bracket_is_a_422(client):
    body = assert_envelope(client.post(VALIDATE, json={"decklist": "Format: PDH\n" + LEGAL["paupercommander"],
                                                       "bracket": 2}), 422)
    assert "bracket" in body["errors"]


# --- every format at once ------------------------------------------------------------------------

def test_include_formats_gives_every_formats_verdict(client):
    body = validate(client, LEGAL["commander"], include=["formats"])
    assert list(body["formats"]) == list(KEYS)
    verdicts = body["formats"]
    legal = {"valid": True, "status": "legal", "codes": []}
    assert verdicts["commander"] == legal and verdicts["duel"] == legal
    assert verdicts["brawl"] == {"valid": False, "status": "not_legal", "codes": ["not_legal"]}  # Atraxa: not on Arena
    assert verdicts["standardbrawl"] == {"valid": False, "status": "not_legal", "codes": ["deck_size", "not_legal"]}
    assert verdicts["oathbreaker"]["status"] == "not_legal" and "commander_ineligible" in verdicts["oathbreaker"]["codes"]
    assert verdicts["paupercommander"] == {"valid": False, "status": "not_legal", "codes": ["commander_ineligible"]}
    assert verdicts["predh"] == {"valid": False, "status": "not_legal", "codes": ["not_legal"]}
    assert body["format"] == "commander" and body["valid"] is True  # the verdict is the requested format's
    assert "formats" not in validate(client, LEGAL["commander"])  # opt-in


def test_the_formats_block_agrees_with_each_formats_own_answer(client):
    text = deck([TEFERI], "Brainstorm", "Sol Ring")
    block = validate(client, text, include=["formats"])["formats"]
    for key in KEYS:
        alone = validate(client, text, format=key)
        status = "not_legal" if not alone["valid"] else "unknown" if "legality_unknown" in codes(alone) else "legal"
        assert block[key] == {"valid": alone["valid"], "status": status,
                              "codes": sorted({code for code, _ in errors(alone)})}, key


def test_a_format_the_card_data_cannot_judge_is_unknown_not_legal(tmp_path):
    # card data older than Pauper Commander: no paupercommander key, no PDH list
    old = format_store(tmp_path / "old.sqlite3", pauper_commanders=False, without=("paupercommander",))
    client = offline_app(old).test_client()
    block = validate(client, MYTHICS, include=["formats"])["formats"]
    assert block["paupercommander"] == {"valid": True, "status": "unknown", "codes": []}
    assert block["commander"] == {"valid": True, "status": "legal", "codes": []}
    assert block["predh"] == {"valid": False, "status": "not_legal", "codes": ["not_legal"]}
    alone = validate(client, MYTHICS, format="pdh")
    assert [(v["code"], v["severity"], v["cards"], v["lines"]) for v in alone["violations"]] == [
        ("legality_unknown", "warning", sorted([ATRAXA, KARN, TEFERI, "Kytheon, Hero of Akros // Gideon, Battle-Forged",
                                                "Plains", "Swamp", "Island"]), [2, 5, 6, 7, 8, 9, 10])]
    # with the data, the same deck is not legal there (mythics; Atraxa is not on the list)
    current = offline_app(format_store(tmp_path / "new.sqlite3")).test_client()
    assert validate(current, MYTHICS, include=["formats"])["formats"]["paupercommander"] == {
        "valid": False, "status": "not_legal", "codes": ["commander_ineligible", "not_legal"]}


# --- batch ------------------------------------------------------------------------------------------

def test_batch_items_have_their_own_formats(client):
    decks = [{"decklist": LEGAL[key], "format": key} for key in KEYS]
    results = client.post("/api/v1/validate/batch", json={"decks": decks}).get_json()["results"]
    assert [(r["format"], r["valid"]) for r in results] == [(key, True) for key in KEYS]
    assert [r["bracket"] is None for r in results] == [key != "commander" for key in KEYS]


def test_a_batch_item_with_a_field_its_format_has_no_use_for_is_a_422_naming_it(client):
    decks = [{"decklist": LEGAL["commander"]}, {"decklist": LEGAL["brawl"], "format": "brawl", "bracket": 2}]
    body = assert_envelope(client.post("/api/v1/validate/batch", json={"decks": decks}), 422)
    assert list(body["errors"]["decks"]["1"]) == ["bracket"]
    decks = [{"decklist": LEGAL["commander"], "format": "standard"}]
    body = assert_envelope(client.post("/api/v1/validate/batch", json={"decks": decks}), 422)
    assert "format" in body["errors"]["decks"]["0"] and "paupercommander" in body["message"]


# --- the table and its sources ---------------------------------------------------------------------

def test_get_formats_serves_the_table_and_its_sources(client):
    body = client.get("/api/v1/formats").get_json()
    assert body["formats"] == format_table()
    assert [row["key"] for row in body["formats"]] == list(KEYS)
    assert body["sources"]["legalities"] == {"updated_at": UPDATED_AT}
    pdh = body["sources"]["pauper_commanders"]
    assert pdh["entries"] == 3 and pdh["updated_at"]


def test_readyz_shows_the_pdh_list(client):
    lists = client.get("/readyz").get_json()["format_lists"]
    assert lists["pauper_commanders"]["entries"] == 3


def test_a_card_endpoint_shows_every_legality_key(client):
    body = client.get("/api/v1/cards/Derevi, Empyrial Tactician").get_json()
    assert body["legalities"]["duel"] == "restricted" and len(body["legalities"]) == 23
