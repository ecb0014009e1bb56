"""Names printed in other languages, on the real data of ../shared/carddata/foreign-names/
(MTGJSON's Time Spiral set file: 286 cards in 8 languages; one page of Scryfall's /cards
list: 144 printings in 5 languages) over a store of those cards from the real oracle file.
Skipped when ../shared is absent."""

from __future__ import annotations

import pytest

from card_data.store import names_table
from card_data.repository import open_repository
from card_data.settings import StoreSettings
from tests.support.foreign_names import real_names_store
from validator.deck import Candidates
LANGUAGES = {"German": "de", "Spanish": "es", "French": "fr", "Italian": "it", "Japanese": "ja",
             "Portuguese (Brazil)": "pt", "Russian": "ru", "Chinese Simplified": "zhs"}


@pytest.fixture(scope="module")
def real(shared_dir, tmp_path_factory):
    """(repository, TSP set, Scryfall page): a store of the two files' cards with their names."""
    db, tsp, page = real_names_store(shared_dir, tmp_path_factory.mktemp("real-names"))
    assert names_table.read_status(db).languages == ("de", "es", "fr", "it", "ja", "pt", "ru", "zhs")
    return open_repository(StoreSettings(db, offline=True)), tsp, page


def foreign_entries(tsp):
    """(printed name, language code, English name) of every foreignData entry."""
    return [(entry["name"], LANGUAGES[entry["language"]], card["name"])
            for card in tsp["data"]["cards"] for entry in card["foreignData"]]


def test_every_printed_name_of_time_spiral_resolves_to_its_card(real):
    repository, tsp, _ = real
    entries = foreign_entries(tsp)
    assert len(entries) == 2408 and {lang for _, lang, _ in entries} == set(LANGUAGES.values())
    result = repository.resolve(list(dict.fromkeys(name for name, _, _ in entries)))
    wrong = [(name, card) for name, _, card in entries
             if not (name in result.cards and result.cards[name].name == card)
             and not (isinstance(result.suggestions.get(name), Candidates) and card in result.suggestions[name])]
    assert wrong == []


@pytest.mark.parametrize(("written", "english", "lang"), [
    ("Amrou-Späher", "Amrou Scout", "de"),
    ("Exploradora de Amrou", "Amrou Scout", "es"),
    ("Téfeiri, mage de Zhalfir", "Teferi, Mage of Zhalfir", "fr"),
    ("祖先の幻視", "Ancestral Vision", "ja"),
    ("Руины Академии", "Academy Ruins", "ru"),
    ("先人的预视", "Ancestral Vision", "zhs"),
])
def test_each_script_resolves(real, written, english, lang):
    result = real[0].resolve([written])
    assert result.cards[written].name == english and result.translated[written].lang == lang


def test_each_language_of_the_set_has_names_that_resolve_in_it(real):
    repository, tsp, _ = real
    entries = foreign_entries(tsp)
    result = repository.resolve(list(dict.fromkeys(name for name, _, _ in entries)))
    found = {translation.lang for translation in result.translated.values()}
    assert found == set(LANGUAGES.values())


def test_accents_case_and_punctuation_are_folded(real):
    typed = ["tefeiri mage de zhalfir", "AMROU-SPAHER", "Tefeiri, Mage De Zhalfir", "руины академии"]
    result = real[0].resolve(typed)
    assert [result.cards[name].name for name in typed] == [
        "Teferi, Mage of Zhalfir", "Amrou Scout", "Teferi, Mage of Zhalfir", "Academy Ruins"]


def test_eliminare_is_cancel_or_wipe_away_never_a_guess(real):
    result = real[0].resolve(["Eliminare", "eliminare"])
    assert result.cards == {}
    assert result.suggestions == {"Eliminare": ("Cancel", "Wipe Away"), "eliminare": ("Cancel", "Wipe Away")}


def test_names_spelled_like_the_english_are_english(real):
    repository, tsp, _ = real
    same = sorted({name for name, _, card in foreign_entries(tsp) if name == card})
    assert same == ["Chronosavant", "Ixidron", "Saffi Eriksdotter", "Sangrophage", "Triskelavus", "Vesuva"]
    result = repository.resolve(same)
    assert {name: card.name for name, card in result.cards.items()} == {name: name for name in same}
    assert result.translated == {}


def test_every_printing_of_the_scryfall_page_resolves_in_its_language(real):
    repository, _, page = real
    foreign = [card for card in page["data"] if card["lang"] != "en"]
    assert len(foreign) == 144 and {card["lang"] for card in foreign} == {"de", "es", "fr", "it", "ja"}
    result = repository.resolve(list(dict.fromkeys(card["printed_name"] for card in foreign)))
    for card in foreign:
        name = card["printed_name"]
        assert result.cards[name].name == card["name"], name
        if name != card["name"] and name in result.translated:
            assert result.translated[name].card == card["name"]
    assert {t.lang for t in result.translated.values()} == {"de", "es", "fr", "it", "ja"}
