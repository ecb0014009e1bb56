"""House rules over HTTP (DESIGN.md "House rules"): inline and by profile, every rule case
across formats, names in other languages and flavor names, the profiles' folder (listing,
/readyz, a broken file, a file rewritten while requests run, 10,000 names), the 422s, the
batch and the bounds. Over tests/support/house_store.py's store."""

from __future__ import annotations

import threading

import pytest

from edh_service.api.schemas import ReportSchema
from edh_service.api.house_schemas import HouseRulesListSchema
from edh_service.house_rules import MAX_BATCH_NAMES, MAX_LIST_NAMES
from tests.support.apps import offline_app
from tests.support.house_store import (
    ATRAXA, PARTNERS, THURSDAY, TITAN_DECK, big_profile, format_deck, house_store, synthetic_names, write_profile,
)

VALIDATE = "/api/v1/validate"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return house_store(tmp_path_factory.mktemp("house-store"))


@pytest.fixture
def profiles(tmp_path):
    folder = tmp_path / "profiles"
    folder.mkdir()
    write_profile(folder, "thursday", THURSDAY, age=5)
    return folder


@pytest.fixture
def client(store, profiles):
    return offline_app(store, HOUSE_RULES_DIR=str(profiles)).test_client()


def post(client, text: str, house=None, **fields) -> dict:
    body = {"decklist": text, **fields}
    if house is not None:
        body["house_rules"] = house
    response = client.post(VALIDATE, json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert ReportSchema().validate(answer) == {}
    return answer


def found(body: dict, *codes: str) -> list[tuple]:
    """(code, severity, cards, lines) of the violations with these codes (all, without codes)."""
    return [(v["code"], v["severity"], v["cards"], v["lines"]) for v in body["violations"]
            if not codes or v["code"] in codes]


HOUSE_CODES = ("house_banned", "house_banned_as_commander", "house_unbanned", "banned", "banned_as_commander")


# --- the rule cases, inline and by profile ----------------------------------------------------------


def test_no_house_rules_says_null(client):
    body = post(client, PARTNERS)
    assert body["house_rules"] is None and body["valid"] is True


def test_a_profiles_ban_of_a_commanders_partner(client):
    body = post(client, PARTNERS, "thursday")
    assert body["valid"] is False
    assert found(body) == [("house_banned", "error", ["Tymna the Weaver"], [3])]
    assert body["violations"][0]["message"] == "Tymna the Weaver is banned under the house rules (Thursday at the store)."
    assert body["house_rules"] == {"name": "Thursday at the store", "profile": "thursday", "banned": 1,
                                   "banned_as_commander": 1, "unbanned": 1, "max_bracket": 2}
    assert body["commanders"] == ["Thrasios, Triton Hero", "Tymna the Weaver"]


def test_inline_rules_say_their_name_and_no_profile(client):
    body = post(client, PARTNERS, {"name": "Kitchen table", "banned": ["Sol Ring", "Counterspell"]})
    assert found(body) == [("house_banned", "error", ["Sol Ring"], [6]), ("house_banned", "error", ["Counterspell"], [7])]
    assert body["house_rules"] == {"name": "Kitchen table", "profile": None, "banned": 2, "banned_as_commander": 0,
                                   "unbanned": 0, "max_bracket": None}
    anonymous = post(client, PARTNERS, {"banned": ["Sol Ring"]})
    assert anonymous["violations"][0]["message"] == "Sol Ring is banned under the house rules."
    assert anonymous["house_rules"]["name"] is None


@pytest.mark.parametrize(("game_format", "expected", "valid_without"), [
    # Primeval Titan: banned in Commander, legal in Duel
    ("commander", [("house_unbanned", "warning", ["Primeval Titan"], [5])], False),
    ("duel", [], True),
])
def test_an_unban_of_a_card_banned_in_commander_but_not_in_duel(client, game_format, expected, valid_without):
    without = post(client, TITAN_DECK, format=game_format)
    assert without["valid"] is valid_without
    body = post(client, TITAN_DECK, {"unbanned": ["Primeval Titan"]}, format=game_format)
    assert found(body, *HOUSE_CODES) == expected
    assert body["valid"] is True and body["format"] == game_format
    if expected:
        assert body["violations"][0]["message"] == "Primeval Titan is banned in Commander, but the house rules allow it."


def test_an_unban_of_a_card_duel_bans(client):
    deck = format_deck([ATRAXA], "Sol Ring")
    assert found(post(client, deck, format="duel"), *HOUSE_CODES) == [("banned", "error", ["Sol Ring"], [5])]
    body = post(client, deck, {"unbanned": ["Sol Ring"]}, format="duel")
    assert found(body, *HOUSE_CODES) == [("house_unbanned", "warning", ["Sol Ring"], [5])] and body["valid"]


def test_an_unbanned_card_still_obeys_identity_and_singleton(client):
    deck = format_deck(["Thrasios, Triton Hero", "Tymna the Weaver"], (2, "Primeval Titan"), "Lightning Bolt")
    body = post(client, deck, {"unbanned": ["Primeval Titan"]})
    assert found(body, "house_unbanned", "singleton", "color_identity", "banned") == [
        ("color_identity", "error", ["Lightning Bolt"], [7]), ("singleton", "error", ["Primeval Titan"], [6]),
        ("house_unbanned", "warning", ["Primeval Titan"], [6])]


@pytest.mark.parametrize(("deck", "expected"), [
    (format_deck(["Tymna the Weaver"], basic="Plains"),
     [("house_banned_as_commander", "error", ["Tymna the Weaver"], [2])]),
    (format_deck([ATRAXA], "Tymna the Weaver", basic="Plains"), []),  # in the 99: legal
])
def test_banned_as_commander_for_a_card_in_the_99_and_as_commander(client, deck, expected):
    body = post(client, deck, {"banned_as_commander": ["Tymna the Weaver"]})
    assert found(body) == expected
    assert body["valid"] is (not expected)
    if expected:
        assert body["violations"][0]["message"] == (
            "Tymna the Weaver is banned as a commander under the house rules; it is legal in the deck.")


def test_duels_own_ban_as_commander_and_a_house_unban_of_it(client):
    deck = format_deck(["Edgar Markov"], basic="Plains")
    assert found(post(client, deck, format="duel"), *HOUSE_CODES) == [
        ("banned_as_commander", "error", ["Edgar Markov"], [2])]
    body = post(client, deck, {"unbanned": ["Edgar Markov"]}, format="duel")
    assert found(body, *HOUSE_CODES) == [("house_unbanned", "warning", ["Edgar Markov"], [2])] and body["valid"]


@pytest.mark.parametrize(("bracket", "declared", "codes"), [
    (None, 2, ["bracket_game_changers"]),  # the profile's max_bracket, declared
    (4, 4, []),  # the request's own bracket wins
    (1, 1, ["bracket_game_changers"]),
])
def test_a_house_max_bracket_with_a_declared_bracket_in_the_request(client, bracket, declared, codes):
    deck = format_deck([ATRAXA], "Smothering Tithe")
    body = post(client, deck, "thursday", **({} if bracket is None else {"bracket": bracket}))
    assert body["bracket"]["declared"] == declared
    assert [(v["code"], v["cards"]) for v in body["violations"]] == [(code, ["Smothering Tithe"]) for code in codes]
    if bracket is None:
        assert body["violations"][0]["message"].endswith(" The house rules (Thursday at the store) allow bracket 2 at most.")


def test_a_house_max_bracket_is_not_checked_outside_commander(client):
    body = post(client, format_deck([ATRAXA], "Smothering Tithe"), {"max_bracket": 1}, format="duel")
    assert body["bracket"] is None and body["valid"] is True and body["house_rules"]["max_bracket"] == 1


def test_foreign_flavor_and_face_names_in_a_profile(client, profiles):
    write_profile(profiles, "polyglot", 'banned = ["Contrahechizo", "Eleven, the Mage", "Sol-Ring"]\n'
                                        'banned_as_commander = ["Gideon, Battle-Forged"]\n', age=5)
    deck = format_deck(["Cecily, Haunted Mage"], "Counterspell", "Sol Ring")
    body = post(client, deck, "polyglot")
    assert found(body) == [("house_banned", "error", ["Cecily, Haunted Mage"], [2]),
                           ("house_banned", "error", ["Counterspell"], [5]), ("house_banned", "error", ["Sol Ring"], [6])]
    assert body["house_rules"] == {"name": "polyglot", "profile": "polyglot", "banned": 3, "banned_as_commander": 1,
                                   "unbanned": 0, "max_bracket": None}
    kytheon = "Kytheon, Hero of Akros // Gideon, Battle-Forged"  # banned by its back face's name
    assert found(post(client, format_deck([kytheon], basic="Plains"), "polyglot")) == [
        ("house_banned_as_commander", "error", [kytheon], [2])]


def test_every_formats_verdict_is_judged_under_the_house_rules(client):
    body = post(client, TITAN_DECK, {"unbanned": ["Primeval Titan"], "banned": ["Brainstorm"]}, include=["formats"])
    assert body["formats"]["commander"] == {"valid": False, "status": "not_legal", "codes": ["house_banned"]}
    assert body["formats"]["duel"] == {"valid": False, "status": "not_legal", "codes": ["house_banned"]}


# --- the 422s ------------------------------------------------------------------------------------


def error(client, house, **fields) -> dict:
    response = client.post(VALIDATE, json={"decklist": PARTNERS, "house_rules": house, **fields})
    assert response.status_code == 422, response.get_json()
    return response.get_json()


def test_a_name_that_is_no_card_is_a_422_naming_it_with_suggestions(client):
    body = error(client, {"banned": ["Sol Rnig", "Sol Ring"], "unbanned": ["Primevall Titan"]})
    assert body["message"] == ('The house rules name 2 names that are no card: "Sol Rnig" (did you mean Sol Ring?); '
                               '"Primevall Titan" (did you mean Primeval Titan?).')
    assert body["errors"] == {"house_rules": {
        "banned": [{"name": "Sol Rnig", "suggestions": ["Sol Ring"]}],
        "unbanned": [{"name": "Primevall Titan", "suggestions": ["Primeval Titan"]}]}}


def test_a_profile_naming_no_card_is_a_422_naming_the_profile(client, profiles):
    write_profile(profiles, "typo", 'banned = ["Counterspel"]\n', age=5)
    body = error(client, "typo")
    assert body["message"] == ("The house rules profile 'typo' names \"Counterspel\", which is no card "
                               "(did you mean Counterspell?).")
    assert error(client, "typo") == body  # kept for this version: not resolved again


def test_an_unknown_profile_is_a_422_listing_the_known_ones(client, profiles):
    write_profile(profiles, "cube-night", "max_bracket = 3\n", age=5)
    body = error(client, "friday")
    assert body["message"] == "No house rules profile is named 'friday'; the known ones: cube-night and thursday."
    assert body["errors"] == {"house_rules": [body["message"]]}


def test_a_profile_with_a_bad_toml_line_is_skipped_reported_and_the_others_serve(client, profiles, store, caplog):
    write_profile(profiles, "broken", 'banned = ["Sol Ring"]\nunbanned = [Primeval Titan]\n', age=5)
    caplog.set_level("WARNING")
    fresh = offline_app(store, HOUSE_RULES_DIR=str(profiles)).test_client()  # read at start: logged once
    assert "house rules profile broken.toml is not served: not valid TOML: Invalid value (at line 2, column 13)" \
        in caplog.text
    body = error(fresh, "broken")
    assert body["message"] == ("The house rules profile 'broken' could not be read (not valid TOML: Invalid value "
                               "(at line 2, column 13)); the known ones: thursday.")
    assert post(fresh, PARTNERS, "thursday")["house_rules"]["profile"] == "thursday"
    ready = fresh.get("/readyz").get_json()
    assert ready["house_rules"] == {"profiles": 1, "broken": [
        {"file": "broken.toml", "error": "not valid TOML: Invalid value (at line 2, column 13)"}]}
    assert [p["name"] for p in fresh.get("/api/v1/house-rules").get_json()["profiles"]] == ["thursday"]


@pytest.mark.parametrize(("text", "why"), [
    ('banned = "Sol Ring"\n', "banned is not a list of card names"),
    ("max_bracket = 5\n", "max_bracket is 5; it is a whole number from 1 to 4"),
    ('bannned = ["Sol Ring"]\n', "unknown key 'bannned'"),
    (f'banned = ["{"x" * 201}"]\n', "banned holds a name of 201 characters; a name has 1 to 200"),
    (big_profile(20_001).replace("Housebound Relic", "R"), "20,001 names; a profile holds at most 20,000"),
])
def test_a_profile_out_of_shape_or_bounds_is_broken(client, profiles, text, why):
    write_profile(profiles, "odd", text, age=5)
    assert why in error(client, "odd")["message"]


def test_a_card_both_banned_and_unbanned_is_a_422(client):
    body = error(client, {"banned": ["Sol Ring"], "unbanned": ["Sol-Ring"]})
    assert body["message"] == "The house rules both ban and unban Sol Ring; a card is one or the other."


@pytest.mark.parametrize(("house", "where"), [
    ({"banned": ["Sol Ring"] * (MAX_LIST_NAMES + 1)}, {"banned": [f"Longer than maximum length {MAX_LIST_NAMES}."]}),
    ({"unbanned": ["x" * 201]}, {"unbanned": {"0": ["Length must be between 1 and 200."]}}),
    ({"max_bracket": 5}, {"max_bracket": ["Must be greater than or equal to 1 and less than or equal to 4."]}),
    ({"max_bracket": "3"}, {"max_bracket": ["Not a valid integer."]}),
    ({"name": "x" * 201}, {"name": ["Longer than maximum length 200."]}),
    ({"bannd": []}, {"bannd": ["Unknown field."]}),
])
def test_inline_rules_are_bounded(client, house, where):
    assert error(client, house)["errors"] == {"house_rules": where}


@pytest.mark.parametrize("house", ["Thursday", "../etc/passwd", "", 3, ["thursday"]])
def test_a_profile_name_is_a_file_stem_or_nothing(client, house):
    assert set(error(client, house)["errors"]) == {"house_rules"}


# --- the folder ----------------------------------------------------------------------------------


def test_the_profiles_are_listed(client, profiles):
    write_profile(profiles, "cube-night", 'name = "Cube night"\nbanned = ["Sol Ring", "Counterspell"]\n', age=5)
    body = client.get("/api/v1/house-rules").get_json()
    assert HouseRulesListSchema().validate(body) == {}
    assert body == {"profiles": [
        {"name": "cube-night", "title": "Cube night", "description": None, "banned": 2, "banned_as_commander": 0,
         "unbanned": 0, "max_bracket": None},
        {"name": "thursday", "title": "Thursday at the store", "description": "Casual Commander, Thursdays from 7 pm.",
         "banned": 1, "banned_as_commander": 1, "unbanned": 1, "max_bracket": 2}]}


def test_without_a_folder_there_are_no_profiles(store):
    client = offline_app(store).test_client()
    assert client.get("/api/v1/house-rules").get_json() == {"profiles": []}
    assert "house_rules" not in client.get("/readyz").get_json()
    body = error(client, "thursday")
    assert body["message"] == "No house rules profile is named 'thursday'; none is configured (HOUSE_RULES_DIR)."


def test_a_profile_of_10000_names(client, profiles):
    write_profile(profiles, "huge", big_profile(title='"The long list"'), age=5)
    listed = {p["name"]: p for p in client.get("/api/v1/house-rules").get_json()["profiles"]}
    assert listed["huge"]["banned"] == 10_000
    last = synthetic_names()[-1]
    body = post(client, format_deck([ATRAXA], last, "Sol Ring"), "huge")
    assert found(body) == [("house_banned", "error", [last], [5])]
    assert body["house_rules"] == {"name": "The long list", "profile": "huge", "banned": 10_000,
                                   "banned_as_commander": 0, "unbanned": 0, "max_bracket": None}
    assert post(client, PARTNERS, "huge")["valid"] is True


def test_a_profile_rewritten_while_requests_run(client, profiles):
    """Every answer is one whole version of the file, old or new, and the new one once written."""
    write_profile(profiles, "live", 'banned = ["Sol Ring"]\n')  # just written: its bytes decide, not its mtime
    seen, failures, stop = [], [], threading.Event()

    def hammer():
        while not stop.is_set():
            response = client.post(VALIDATE, json={"decklist": PARTNERS, "house_rules": "live"})
            if response.status_code != 200:
                failures.append(response.get_json())
                continue
            seen.append(tuple(v["cards"][0] for v in response.get_json()["violations"]))

    workers = [threading.Thread(target=hammer) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        for round_ in range(6):
            banned = "Sol Ring" if round_ % 2 else "Counterspell"
            write_profile(profiles, "live", f'banned = ["{banned}"]\n')
            body = post(client, PARTNERS, "live")  # the very next request sees what was written
            assert [v["cards"] for v in body["violations"]] == [[banned]]
    finally:
        stop.set()
        for worker in workers:
            worker.join(10)
    assert not failures
    assert set(seen) <= {("Sol Ring",), ("Counterspell",)} and len(seen) > 6


def test_a_profile_removed_is_unknown_and_a_new_one_serves_at_once(client, profiles):
    (profiles / "thursday.toml").unlink()
    assert "No house rules profile is named 'thursday'" in error(client, "thursday")["message"]
    write_profile(profiles, "thursday", 'banned = ["Counterspell"]\n')
    assert found(post(client, PARTNERS, "thursday")) == [("house_banned", "error", ["Counterspell"], [7])]


# --- other ways in: text/plain, the batch -----------------------------------------------------------


def test_text_plain_names_a_profile_in_the_query(client):
    response = client.post(f"{VALIDATE}?house_rules=thursday", data=PARTNERS, content_type="text/plain")
    assert [v["code"] for v in response.get_json()["violations"]] == ["house_banned"]


def test_a_batch_judges_each_deck_under_its_own_rules(client):
    decks = [{"decklist": PARTNERS, "house_rules": "thursday"},
             {"decklist": PARTNERS, "house_rules": {"banned": ["Sol Ring"]}},
             {"decklist": PARTNERS}]
    results = client.post(f"{VALIDATE}/batch", json={"decks": decks}).get_json()["results"]
    assert [[v["cards"] for v in r["violations"]] for r in results] == [[["Tymna the Weaver"]], [["Sol Ring"]], []]
    assert [r["house_rules"] and r["house_rules"]["profile"] for r in results] == ["thursday", None, None]


def test_a_batch_says_which_deck_has_bad_house_rules(client):
    decks = [{"decklist": PARTNERS}, {"decklist": PARTNERS, "house_rules": {"banned": ["Sol Rnig"]}}]
    response = client.post(f"{VALIDATE}/batch", json={"decks": decks})
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"decks": {"1": {"house_rules": {
        "banned": [{"name": "Sol Rnig", "suggestions": ["Sol Ring"]}]}}}}


def test_a_batchs_house_rules_are_bounded_in_all(client):
    per_deck = MAX_LIST_NAMES
    decks = [{"decklist": "1 Sol Ring\n", "house_rules": {"banned": synthetic_names()[i * per_deck:(i + 1) * per_deck]}}
             for i in range(MAX_BATCH_NAMES // per_deck + 1)]
    response = client.post(f"{VALIDATE}/batch", json={"decks": decks})
    assert response.status_code == 422
    assert response.get_json()["message"].startswith("The batch's house rules name 2,500 cards in all; at most 2,000")
    same = [{"decklist": "1 Sol Ring\n", "house_rules": {"banned": synthetic_names()[:per_deck]}}] * 20
    assert client.post(f"{VALIDATE}/batch", json={"decks": same}).status_code == 200  # one list, resolved once


def test_openapi_documents_the_field_and_the_endpoint(client):
    spec = client.get("/openapi.json").get_json()
    field = spec["components"]["schemas"]["ValidateRequest"]["properties"]["house_rules"]
    assert [option.get("$ref", option.get("type")) for option in field["oneOf"]] == [
        "string", "#/components/schemas/HouseRulesRequest", "null"]
    # the profile names are this service's own: a client never meets "unknown profile"
    assert field["oneOf"][0]["enum"] == [p["name"] for p in client.get("/api/v1/house-rules").get_json()["profiles"]]
    assert set(spec["components"]["schemas"]["HouseRulesRequest"]["properties"]) == {
        "banned", "banned_as_commander", "unbanned", "max_bracket", "name"}
    assert "house_rules" in spec["components"]["schemas"]["Report"]["properties"]
    listing = spec["paths"]["/api/v1/house-rules"]["get"]
    assert listing["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HouseRulesList"}
    assert any(p["name"] == "house_rules" for p in spec["paths"]["/api/v1/validate"]["post"]["parameters"])
