"""The formats' rules on the real, dated data in ../shared/carddata/formats (see its
README): real Scryfall objects with every legality key, the PDH commander list, the ban
lists. Skipped when ../shared is absent."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED
from tests.support.factories import deck, everywhere, filler, to_card
from validator.engine import validate
from validator.formats import BRAWL, COMMANDER, DUEL, FORMATS, OATHBREAKER, PAUPER_COMMANDER, FormatData, format_named
from validator.rules import commander_ineligible, legality

DATA = SHARED / "carddata" / "formats"
pytestmark = pytest.mark.skipif(not (DATA / "scryfall-legalities-sample.jsonl").is_file(),
                                reason="../shared/carddata/formats is absent")
CODE_OF_VALUE = {"banned": "banned", "not_legal": "not_legal"}


@pytest.fixture(scope="module")
def sample() -> dict:
    """The sampled Scryfall objects by name, and their Cards."""
    objects = {}
    with open(DATA / "scryfall-legalities-sample.jsonl", encoding="utf-8") as lines:
        for line in lines:
            obj = json.loads(line)
            objects[obj["name"]] = obj
    return {name: (obj, to_card(obj)) for name, obj in objects.items()}


@pytest.fixture(scope="module")
def pdh_list() -> FormatData:
    """The PDH commander list (isPauperCommander) of pauper_commander.json."""
    rows = json.loads((DATA / "pauper_commander.json").read_text(encoding="utf-8"))
    return FormatData(pauper_commanders=frozenset(row["name"] for row in rows if row["isPauperCommander"]))


def ban_list(name: str) -> set[str]:
    """A ban list file's names, lower-cased (# comments and blank lines skipped)."""
    text = (DATA / name).read_text(encoding="utf-8")
    return {line.strip().casefold() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def legality_codes(card, fmt, data=None) -> list[str]:
    """The legality rule's codes for the card in the 99 of a deck judged in the format."""
    d = deck(main={card: 1}, game_format=fmt, format_data=data)
    return [v.code for v in validate(d, (legality,)) if card.name in v.cards]


def expected(value, fmt) -> list[str]:
    """What the engine must say of a deck card with this sampled value."""
    if value is None:
        return ["legality_unknown"]
    if value in CODE_OF_VALUE:
        return [CODE_OF_VALUE[value]]
    return [] if value in fmt.deck_values else ["not_legal"]


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.key)
def test_every_sampled_card_is_judged_by_its_real_value_for_the_formats_key(sample, pdh_list, fmt):
    checked = 0
    for name, (obj, card) in sample.items():
        if card.layout == "reversible_card":
            continue  # no front-face types in the object: judged as a non-deck object elsewhere
        value = obj["legalities"].get(fmt.legality_key)
        assert legality_codes(card, fmt, pdh_list) == expected(value, fmt), (name, value)
        checked += 1
    assert checked >= 100


def test_a_sampled_banned_card_fails_its_format_and_only_there(sample):
    # Cavern of Souls: duel banned, legal in the other formats' keys that list it as legal
    _, cavern = sample["Cavern of Souls"]
    assert legality_codes(cavern, DUEL) == ["banned"]
    assert legality_codes(cavern, COMMANDER) == [] and legality_codes(cavern, BRAWL) == []
    _, remora = sample["Mystic Remora"]
    assert legality_codes(remora, PAUPER_COMMANDER) == ["banned"]
    _, tutor = sample["Demonic Tutor"]
    assert legality_codes(tutor, BRAWL) == ["banned"] and legality_codes(tutor, DUEL) == []


@pytest.mark.parametrize("name", ["Tamiyo, Inquisitive Student // Tamiyo, Seasoned Scholar",
                                  "Ajani, Nacatl Pariah // Ajani, Nacatl Avenger"])
def test_duel_restricted_commanders_are_banned_as_commander(sample, name):
    _, card = sample[name]
    assert name.split(" // ")[0].casefold() in ban_list("duel-banned-as-commander.txt")
    as_commander = deck(card, game_format=DUEL)
    assert [v.code for v in validate(as_commander, (legality,))] == ["banned_as_commander"]
    assert legality_codes(card, DUEL) == []  # legal in the 99
    assert [v.code for v in validate(deck(card), (legality, commander_ineligible))] == []  # Commander


@pytest.mark.parametrize(("name", "eligible_in"), [
    ("Jace, the Mind Sculptor", {"brawl", "standardbrawl", "oathbreaker"}),
    ("Ral, Crackling Wit", {"brawl", "standardbrawl", "oathbreaker"}),
    # a creature front face with a planeswalker back: no oathbreaker
    ("Ajani, Nacatl Pariah // Ajani, Nacatl Avenger", {"commander", "duel", "brawl", "standardbrawl", "predh"}),
    ("Atraxa, Grand Unifier", {"commander", "duel", "brawl", "standardbrawl", "predh"}),
    # uncommon creatures: PDH commanders by the list alone (Scryfall says not_legal)
    ("Eternal Witness", {"paupercommander"}),
    ("Dragon's Rage Channeler", {"paupercommander"}),
    ("Bronze Horse", {"paupercommander"}),  # MTGO-only uncommon: on the list
    ("Delver of Secrets // Insectile Aberration", {"paupercommander"}),
    ("Brainstorm", set()),
])
def test_who_can_command_real_cards(sample, pdh_list, name, eligible_in):
    _, card = sample[name]
    found = set()
    for fmt in FORMATS:
        d = deck(card, game_format=fmt, format_data=pdh_list)
        if not [v for v in validate(d, (commander_ineligible,))]:
            found.add(fmt.key)
    assert found == eligible_in


def test_a_pdh_commander_reads_not_legal_on_scryfall_and_is_judged_by_the_list(sample, pdh_list):
    obj, witness = sample["Eternal Witness"]
    assert obj["legalities"]["paupercommander"] == "not_legal"
    d = deck(witness, main={everywhere(c): 1 for c in filler(99)}, game_format=PAUPER_COMMANDER, format_data=pdh_list)
    assert validate(d) == []
    assert legality_codes(witness, PAUPER_COMMANDER, pdh_list) == ["not_legal"]  # in the 99


@pytest.mark.parametrize(("file", "key"), [
    ("duel-banned.txt", "duel"), ("brawl-banned.txt", "brawl"), ("paupercommander-banned.txt", "paupercommander"),
])
def test_current_ban_lists_agree_with_the_engine_on_sampled_cards(sample, file, key):
    banned = ban_list(file)
    fmt = format_named(key)
    listed = [(name, card) for name, (_, card) in sample.items()
              if name.casefold() in banned or name.split(" // ")[0].casefold() in banned]
    assert listed, "the sample holds no card of this list"
    for name, card in listed:
        assert legality_codes(card, fmt) in (["banned"], ["not_legal"]), name


def test_grimoire_printings_of_black_lotus_and_rhystic_study():
    path = DATA / "grimoire-printings-2026-08.jsonl"
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.setdefault(row["name"], row)
    cards = {name: to_card({"name": name, "type_line": row["typeLine"], "oracle_text": row.get("oracleText") or "",
                            "color_identity": list(row.get("colorIdentity") or ""),
                            "legalities": json.loads(row["legalities"])})
             for name, row in rows.items() if name in ("Black Lotus", "Rhystic Study", "Sol Ring")}
    assert legality_codes(cards["Black Lotus"], DUEL) == ["banned"]
    assert legality_codes(cards["Black Lotus"], OATHBREAKER) == ["banned"]
    assert legality_codes(cards["Rhystic Study"], PAUPER_COMMANDER) == ["banned"]
    assert legality_codes(cards["Sol Ring"], PAUPER_COMMANDER) == ["not_legal"]  # absent from PDH: an uncommon
    assert legality_codes(cards["Rhystic Study"], COMMANDER) == []
