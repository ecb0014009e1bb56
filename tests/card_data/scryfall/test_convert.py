"""convert.py: Scryfall JSON -> Card, type lines, name keys (pure; fixture records)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from card_data.convert import name_keys, normalize_name, parse_type_line, to_card, trim

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "cards.jsonl"
RECORDS = {record["name"]: record for record in map(json.loads, FIXTURE.read_text(encoding="utf-8").splitlines())}


def card(name: str):
    """The Card converted from the fixture record of that name."""
    return to_card(RECORDS[name])


@pytest.mark.parametrize(("type_line", "supertypes", "types", "subtypes"), [
    ("Legendary Creature — Time Lord Doctor", {"Legendary"}, {"Creature"}, {"Time Lord", "Doctor"}),
    ("Basic Snow Land — Forest", {"Basic", "Snow"}, {"Land"}, {"Forest"}),
    ("Artifact Creature — Human Soldier", set(), {"Artifact", "Creature"}, {"Human", "Soldier"}),
    ("Legendary Enchantment — Background", {"Legendary"}, {"Enchantment"}, {"Background"}),
    ("Plane — Serra's Realm", set(), {"Plane"}, {"Serra's Realm"}),
    ("Instant", set(), {"Instant"}, set()),
    ("", set(), set(), set()),
])
def test_parse_type_line(type_line, supertypes, types, subtypes):
    assert parse_type_line(type_line) == (frozenset(supertypes), frozenset(types), frozenset(subtypes))


@pytest.mark.parametrize(("name", "field", "expected"), [
    ("The Tenth Doctor", "subtypes", frozenset({"Time Lord", "Doctor"})),
    ("Atraxa, Praetors' Voice", "color_identity", frozenset("WUBG")),
    ("Atraxa, Praetors' Voice", "has_power_toughness", True),
    ("Grist, the Hunger Tide", "types", frozenset({"Planeswalker"})),
    ("Grist, the Hunger Tide", "has_power_toughness", False),
    # DFCs: front face types, every face's text and cost
    ("Westvale Abbey // Ormendahl, Profane Prince", "types", frozenset({"Land"})),
    ("Westvale Abbey // Ormendahl, Profane Prince", "supertypes", frozenset()),
    ("Westvale Abbey // Ormendahl, Profane Prince", "has_power_toughness", False),
    ("Westvale Abbey // Ormendahl, Profane Prince", "type_line", "Land"),
    ("Westvale Abbey // Ormendahl, Profane Prince", "color_identity", frozenset("B")),
    ("Esika, God of the Tree // The Prismatic Bridge", "mana_cost", "{1}{G}{G} // {W}{U}{B}{R}{G}"),
    ("Esika, God of the Tree // The Prismatic Bridge", "supertypes", frozenset({"Legendary"})),
    ("Esika, God of the Tree // The Prismatic Bridge", "color_identity", frozenset("WUBRG")),
    ("Bonecrusher Giant // Stomp", "types", frozenset({"Creature"})),
    ("Bonecrusher Giant // Stomp", "mana_cost", "{2}{R} // {1}{R}"),
    ("Akki Lavarunner // Tok-Tok, Volcano Born", "supertypes", frozenset()),
    ("Akki Lavarunner // Tok-Tok, Volcano Born", "mana_cost", "{3}{R}"),
    # split cards carry both halves' characteristics (CR 709.4)
    ("Fire // Ice", "types", frozenset({"Instant"})),
    ("Fire // Ice", "mana_cost", "{1}{R} // {1}{U}"),
    ("Fire // Ice", "mana_value", 4.0),
    # legality, game changers, keywords, meld results
    ("Trade Secrets", "legality", "banned"),
    ("Blacker Lotus", "legality", "not_legal"),
    ("A-Blood Artist", "legality", "not_legal"),
    ("Rhystic Study", "game_changer", True),
    ("Sol Ring", "game_changer", False),
    ("Wilson, Refined Grizzly", "keywords", frozenset({"Vigilance", "Reach", "Trample", "Ward", "Choose a background"})),
    ("Brisela, Voice of Nightmares", "is_meld_result", True),
    ("Bruna, the Fading Light", "is_meld_result", False),
    ("Academy at Tolaria West", "layout", "planar"),
    ("Chaotic Aether", "types", frozenset({"Phenomenon"})),
    ("Snow-Covered Wastes", "supertypes", frozenset({"Basic", "Snow"})),
])
def test_to_card_fields(name, field, expected):
    assert getattr(card(name), field) == expected


def test_face_texts_cover_every_face_front_first():
    texts = card("Westvale Abbey // Ormendahl, Profane Prince").face_texts
    assert len(texts) == 2
    assert texts[0].startswith("{T}: Add {C}.")
    assert texts[1] == "Flying, lifelink, indestructible, haste"


def test_missing_commander_legality_is_not_legal():
    record = {"name": "Some Card", "type_line": "Instant", "legalities": {"vintage": "legal"}}
    assert to_card(record).legality == "not_legal"


@pytest.mark.parametrize(("typed", "canonical"), [
    ("Lim-Dul's Vault", "Lim-Dûl's Vault"),
    ("LIM-DÛL’S VAULT", "Lim-Dûl's Vault"),
    ("Nazgul", "Nazgûl"),
    ("Fire/Ice", "Fire // Ice"),
    ("Fire///Ice", "Fire // Ice"),
    ("fire  //  ice", "Fire // Ice"),
    ("“Lifetime” Pass Holder", '"Lifetime" Pass Holder'),
    ("Æther Vial", "Aether Vial"),
])
def test_normalize_name_equates_spellings(typed, canonical):
    assert normalize_name(typed) == normalize_name(canonical)


def test_normalize_keeps_alchemy_prefix_distinct():
    assert normalize_name("A-Blood Artist") != normalize_name("Blood Artist")


def test_name_keys_cover_name_faces_and_aliases():
    record = {
        "name": "Cecily, Haunted Mage", "flavor_name": "Eleven, the Mage", "printed_name": "Cecily, Maga Infestada",
    }
    assert name_keys(record) == {
        "cecily, haunted mage": 0, "eleven, the mage": 2, "cecily, maga infestada": 2,
    }
    assert name_keys(RECORDS["Fire // Ice"]) == {"fire // ice": 0, "fire": 1, "ice": 1}


def test_trim_keeps_what_card_and_describe_need():
    record = dict(RECORDS["Bruna, the Fading Light"], prices={"usd": "1.00"},
                  image_uris={"normal": "x", "png": "y", "art_crop": "z"})
    trimmed = trim(record)
    assert "prices" not in trimmed
    assert trimmed["image_uris"] == {"normal": "x"}  # the preview sizes only
    assert to_card(trimmed) == to_card(record)


IMG = "https://cards.scryfall.io/{}/front/a/b/ab.jpg"


@pytest.mark.parametrize(("record", "produced", "images", "face_images"), [
    # A land: produced_mana is kept and read into Card; images trimmed to small/normal.
    ({"name": "Breeding Pool", "type_line": "Land — Forest Island", "produced_mana": ["G", "U"],
      "image_uris": {"small": IMG.format("small"), "normal": IMG.format("normal"), "large": IMG.format("large")}},
     {"G", "U"}, {"small": IMG.format("small"), "normal": IMG.format("normal")}, None),
    # A transform card: images per face (Scryfall gives none at the top), both faces kept.
    ({"name": "Delver of Secrets // Insectile Aberration", "layout": "transform",
      "type_line": "Creature — Human Wizard // Creature — Human Insect",
      "card_faces": [{"name": "Delver of Secrets", "image_uris": {"normal": IMG.format("front")}},
                     {"name": "Insectile Aberration", "image_uris": {"normal": IMG.format("back"), "png": "p"}}]},
     set(), None, [{"normal": IMG.format("front")}, {"normal": IMG.format("back")}]),
    # The sample data and stores built before: no produced_mana, no images.
    ({"name": "Sol Ring", "type_line": "Artifact"}, set(), None, None),
])
def test_produced_mana_and_images_are_kept(record, produced, images, face_images):
    trimmed = trim(record)
    assert to_card(trimmed).produced_mana == frozenset(produced)
    assert trimmed.get("image_uris") == images
    assert [face.get("image_uris") for face in trimmed.get("card_faces", [])] == (face_images or [])


@pytest.mark.parametrize(("record", "image"), [
    ({"name": "Breeding Pool", "image_uris": {"small": IMG.format("small"), "normal": IMG.format("normal")}},
     IMG.format("normal")),
    ({"name": "Only Small", "image_uris": {"small": IMG.format("small")}}, IMG.format("small")),
    # A transform card: the front face's own image, never the back's.
    ({"name": "Delver of Secrets // Insectile Aberration", "layout": "transform",
      "card_faces": [{"name": "Delver of Secrets", "image_uris": {"normal": IMG.format("front")}},
                     {"name": "Insectile Aberration", "image_uris": {"normal": IMG.format("back")}}]},
     IMG.format("front")),
    # An adventure or split card: one image for the whole card, at the top.
    ({"name": "Fire // Ice", "layout": "split", "image_uris": {"normal": IMG.format("normal")},
      "card_faces": [{"name": "Fire"}, {"name": "Ice"}]}, IMG.format("normal")),
    ({"name": "Sol Ring", "type_line": "Artifact"}, ""),  # the sample data: no image, no preview
])
def test_card_image_is_the_front_preview(record, image):
    assert to_card(trim(record)).image == image


def _folded_one_character_at_a_time(name: str) -> str:
    """normalize_name as it was written before its one-pass regex: the reference."""
    from card_data.convert import clean_name
    text = clean_name(name)
    if text.isascii():
        return text.casefold()
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


def test_normalize_name_drops_every_combining_mark_as_the_character_loop_did():
    """Every combining mark of the BMP follows a letter in one name; a name with a
    character beyond U+FFFF (the loop's own path) folds the same way too."""
    marks = [chr(point) for point in range(0x300, 0x10000) if unicodedata.combining(chr(point))]
    assert len(marks) > 500
    names = ["".join(f"a{mark}" for mark in marks[i:i + 40]) + " Dûl" for i in range(0, len(marks), 40)]
    names += ["Lim-Dûl's Vault", "Æther Vial", "Jötun Grunt", "Ｓｏｌ Ｒｉｎｇ", "Sol Ring \U0001d4d0\u0301",
              "\U0001f600 Dú", "ﬁre", "Ǆ"]
    for name in names:
        assert normalize_name(name) == _folded_one_character_at_a_time(name), name
    assert normalize_name("Sol Ring \U0001d4d0\u0301") == "sol ring a"
