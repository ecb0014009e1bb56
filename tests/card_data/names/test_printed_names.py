"""card_data/names/printed.py: the keys of a printed name and the rows of a card object (pure)."""

from __future__ import annotations

import json
from pathlib import Path

from card_data.names.printed import EXACT, FOLDED, exact_key, folded_key, mtgjson_rows, rows_of, scryfall_rows

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "names" / "printed-names.jsonl"


def fixture_objects() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def printed(name: str, lang: str) -> dict:
    """The fixture object of one card in one language."""
    return next(o for o in fixture_objects() if o["name"] == name and o["lang"] == lang)


def test_exact_key_keeps_case_and_accents_and_straightens_quotes():
    assert exact_key("Téfeiri, mage  de Zhalfir ") == "Téfeiri, mage de Zhalfir"
    assert exact_key("L\u2019étreinte de Kodama") == "L'étreinte de Kodama"
    assert exact_key("Fuego/Hielo") == "Fuego // Hielo"


def test_folded_key_drops_case_accents_punctuation_and_blanks():
    assert folded_key("Sol-Ring") == folded_key("sol ring") == "solring"
    assert folded_key("Téfeiri, mage de Zhalfir") == "tefeirimagedezhalfir"
    assert folded_key("ÎLE") == "ile"
    assert folded_key("Руины Академии") == "руиныакадемии"


def test_folded_key_keeps_kana_voicing_and_cjk_letters():
    # ガ and カ are different words: the voiced sound mark is part of the letter, never "an accent".
    assert folded_key("ガ") != folded_key("カ")
    assert folded_key("ガ") == "ガ"
    assert folded_key("祖先の幻視") == "祖先の幻視"
    assert folded_key("法務官の声、アトラクサ") == "法務官の声アトラクサ"  # the ideographic comma is punctuation
    assert folded_key("ＳＯＬ") == "sol"  # full-width letters are letters


def test_a_single_faced_printing_gives_its_printed_name_in_both_tiers():
    rows = scryfall_rows(printed("Counterspell", "es"))
    assert rows == [("Contrahechizo", EXACT, "es", "counterspell"), ("contrahechizo", FOLDED, "es", "counterspell")]


def test_english_printings_null_names_and_english_spellings_give_no_rows():
    assert scryfall_rows(printed("Counterspell", "en")) == []
    assert scryfall_rows(printed("Brainstorm", "it")) == []  # printed_name: null
    assert scryfall_rows(printed("Sol Ring", "pt")) == []  # spelled like the English name: English


def test_multi_faced_printings_give_each_face_and_the_join():
    rows = scryfall_rows(printed("Esika, God of the Tree // The Prismatic Bridge", "ja"))
    exact = [key for key, tier, _, _ in rows if tier == EXACT]
    assert exact == ["樹の神、エシカ", "プリズムの橋", "樹の神、エシカ // プリズムの橋"]
    assert {card for *_, card in rows} == {"esika, god of the tree // the prismatic bridge"}
    split = [key for key, tier, _, _ in scryfall_rows(printed("Fire // Ice", "es")) if tier == EXACT]
    assert split == ["Fuego", "Hielo", "Fuego // Hielo"]


def test_english_placeholders_on_faces_and_a_null_face_are_left_out():
    # Some Japanese DFC printings carry the English face names as printed_name.
    assert scryfall_rows(printed("Westvale Abbey // Ormendahl, Profane Prince", "ja")) == []
    # One face named, the other null: the named face only, no join.
    rows = scryfall_rows(printed("Westvale Abbey // Ormendahl, Profane Prince", "de"))
    assert [key for key, tier, _, _ in rows if tier == EXACT] == ["Abtei von Westvale"]


def test_languages_not_wanted_give_no_rows():
    assert scryfall_rows(printed("Counterspell", "ja"), frozenset({"es", "de"})) == []
    assert scryfall_rows(printed("Counterspell", "de"), frozenset({"es", "de"}))[0][0] == "Gegenzauber"


def test_mtgjson_foreign_data_maps_language_words_to_codes():
    card = {"name": "Ancestral Vision", "foreignData": [
        {"language": "Japanese", "name": "祖先の幻視"},
        {"language": "Portuguese (Brazil)", "name": "Visão Ancestral"},
        {"language": "French", "name": "Ancestral Vision"},  # spelled like the English: English
        {"language": "Klingon", "name": "Qapla'"},  # no such language: skipped
        "garbage",
    ]}
    assert [(key, lang) for key, tier, lang, _ in mtgjson_rows(card) if tier == EXACT] == [
        ("祖先の幻視", "ja"), ("Visão Ancestral", "pt")]
    assert list(rows_of(card)) == mtgjson_rows(card)


def test_objects_of_the_wrong_shape_give_no_rows():
    assert scryfall_rows({"object": "card", "name": 3, "lang": "es", "printed_name": "x"}) == []
    assert scryfall_rows({"object": "list", "name": "Sol Ring", "lang": "es", "printed_name": "x"}) == []
    assert scryfall_rows({"object": "card", "name": "Sol Ring", "lang": "es", "printed_name": "x" * 201}) == []
    assert mtgjson_rows({"name": "Sol Ring", "foreignData": "not a list"}) == []


def test_folded_key_keeps_exactly_what_the_character_loop_kept():
    """folded_key's one-pass regex keeps what `ch.isalnum() or ch in kana marks` kept, for
    every code point (surrogates aside: no str holds one here)."""
    import sys
    import unicodedata

    from card_data.convert import clean_name

    kana = "\u3099\u309a"
    points = [chr(p) for p in range(sys.maxunicode + 1) if not 0xD800 <= p < 0xE000]
    for start in range(0, len(points), 4096):
        name = "x" + "".join(points[start:start + 4096])
        text = unicodedata.normalize("NFKD", clean_name(name).casefold())
        kept = unicodedata.normalize("NFC", "".join(ch for ch in text if ch.isalnum() or ch in kana))
        assert folded_key(name) == kept, hex(start)
