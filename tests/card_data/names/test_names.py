"""The names table in the store and the resolve step that reads it (hand-made objects of
tests/fixtures/names/ over the fixture store): import shapes, the order of resolution,
the per-store memos, carry-over, old stores, and the languages setting."""

from __future__ import annotations

import gzip
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from card_data import CardDataError
from card_data.names import sync as names_sync
from card_data.store import names_table
from card_data.repository import open_repository
from card_data.settings import StoreSettings
from card_data.sync import import_file
from validator.deck import Candidates
from tests.support.factories import PRINTED_NAMES, load_card_names

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OBJECTS = FIXTURES / PRINTED_NAMES


@pytest.fixture
def names_db(fixture_db):
    load_card_names(fixture_db)
    return fixture_db


def resolved(db, *names, languages=None):
    repository = open_repository(StoreSettings(db, offline=True, name_languages=languages))
    return repository.resolve(list(names))


def test_import_reads_json_lines_gzip_a_json_list_and_a_list_object(fixture_db, tmp_path):
    objects = [json.loads(line) for line in OBJECTS.read_text(encoding="utf-8").splitlines()]
    shapes = {
        "names.jsonl.gz": gzip.compress(OBJECTS.read_bytes()),
        "names.json": json.dumps(objects, ensure_ascii=False, indent=1).encode(),
        "page.json": json.dumps({"object": "list", "has_more": False, "data": objects}, indent=4).encode(),
    }
    counts = set()
    for name, body in shapes.items():
        (tmp_path / name).write_bytes(body)
        status = names_sync.import_names(fixture_db, tmp_path / name, updated_at="2026-11-29T00:00:00+00:00")
        counts.add((status.names, status.languages))
        assert resolved(fixture_db, "Contrahechizo").cards["Contrahechizo"].name == "Counterspell"
    # it (a null name) and pt (spelled like the English) hold no name of their own
    assert counts == {(26, ("de", "es", "fr", "ja", "ru"))}


def test_import_refuses_a_file_without_names_and_keeps_the_last_table(names_db, tmp_path):
    before = names_table.read_status(names_db)
    english = tmp_path / "english.jsonl"
    english.write_text(json.dumps({"object": "card", "name": "Sol Ring", "lang": "en"}) + "\n")
    with pytest.raises(CardDataError, match="no card names"):
        names_sync.import_names(names_db, english)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(OBJECTS.read_text(encoding="utf-8")[:500])
    with pytest.raises(CardDataError):
        names_sync.import_names(names_db, broken)
    assert names_table.read_status(names_db) == before
    assert resolved(names_db, "Contrahechizo").translated["Contrahechizo"].card == "Counterspell"
    assert list(tmp_path.parent.glob(".*.names")) == []  # no half-built file left behind


def test_exact_then_folded_names_resolve_with_their_language(names_db):
    typed = ["Contrahechizo", "contrahechizo", "CONTRESORT", "Relampago", "Relámpago", "ile", "Isla",
             "L'étreinte de Kodama", "l\u2019etreinte de kodama", "対抗呪文", "отмена", "Fuego // Hielo", "Fuego/Hielo",
             "樹の神、エシカ", "Abtei von Westvale"]
    result = resolved(names_db, *typed)
    assert {name: card.name for name, card in result.cards.items()} == {
        "Contrahechizo": "Counterspell", "contrahechizo": "Counterspell", "CONTRESORT": "Counterspell",
        "Relampago": "Lightning Bolt", "Relámpago": "Lightning Bolt", "ile": "Island", "Isla": "Island",
        "L'étreinte de Kodama": "Kodama's Reach", "l\u2019etreinte de kodama": "Kodama's Reach",
        "対抗呪文": "Counterspell", "отмена": "Counterspell", "Fuego // Hielo": "Fire // Ice",
        "Fuego/Hielo": "Fire // Ice", "樹の神、エシカ": "Esika, God of the Tree // The Prismatic Bridge",
        "Abtei von Westvale": "Westvale Abbey // Ormendahl, Profane Prince",
    }
    assert {name: t.lang for name, t in result.translated.items()} == {
        "Contrahechizo": "es", "contrahechizo": "es", "CONTRESORT": "fr", "Relampago": "es", "Relámpago": "es",
        "ile": "fr", "Isla": "es", "L'étreinte de Kodama": "fr", "l\u2019etreinte de kodama": "fr",
        "対抗呪文": "ja", "отмена": "ru", "Fuego // Hielo": "es", "Fuego/Hielo": "es", "樹の神、エシカ": "ja",
        "Abtei von Westvale": "de",
    }
    assert result.suggestions == {}


def test_english_names_come_first_and_are_never_translated(names_db):
    # English exact, faces, the loose match: none of them is "read in another language".
    result = resolved(names_db, "Counterspell", "sol ring", "Sol-Ring", "Fire", "Atraxa Praetors Voice")
    assert {name: card.name for name, card in result.cards.items()} == {
        "Counterspell": "Counterspell", "sol ring": "Sol Ring", "Sol-Ring": "Sol Ring", "Fire": "Fire // Ice",
        "Atraxa Praetors Voice": "Atraxa, Praetors' Voice"}
    assert result.translated == {}


def test_an_unknown_foreign_name_gets_english_suggestions(names_db):
    result = resolved(names_db, "Contrahechizzo", "Counterspel")
    assert result.cards == {}
    assert "Counterspell" in result.suggestions["Counterspel"]
    assert all(isinstance(name, str) and name.isascii() for names in result.suggestions.values() for name in names)


def test_a_name_printed_for_two_cards_is_ambiguous_never_a_guess(names_db, tmp_path):
    # Two hand-made printings sharing one Italian name, as Cancel and Wipe Away do for real.
    extra = tmp_path / "ambiguous.jsonl"
    extra.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in (
        {"object": "card", "name": "Negate", "lang": "it", "printed_name": "Negare"},
        {"object": "card", "name": "Counterspell", "lang": "it", "printed_name": "Negare"},
    )), encoding="utf-8")
    names_sync.import_names(names_db, OBJECTS, extra)
    result = resolved(names_db, "Negare", "negare")
    assert result.cards == {} and result.translated == {}
    assert result.suggestions == {"Negare": ("Counterspell", "Negate"), "negare": ("Counterspell", "Negate")}
    assert all(isinstance(value, Candidates) for value in result.suggestions.values())


def test_the_exact_tier_wins_over_the_folded_one(names_db, tmp_path):
    # "Fuego" exact is Fire // Ice's face; a made-up card printed "fuégo" shares only its folded key.
    extra = tmp_path / "fold.jsonl"
    extra.write_text(json.dumps({"object": "card", "name": "Lightning Bolt", "lang": "pt", "printed_name": "Fuégo"}),
                     encoding="utf-8")
    names_sync.import_names(names_db, OBJECTS, extra)
    result = resolved(names_db, "Fuego", "Fuégo", "fuego")
    assert result.cards["Fuego"].name == "Fire // Ice" and result.cards["Fuégo"].name == "Lightning Bolt"
    assert result.suggestions == {"fuego": ("Fire // Ice", "Lightning Bolt")}  # folded: both, ambiguous


def test_languages_limit_what_resolves_and_empty_turns_it_off(names_db):
    only_spanish = resolved(names_db, "Contrahechizo", "Contresort", languages=("es",))
    assert list(only_spanish.cards) == ["Contrahechizo"]
    off = resolved(names_db, "Contrahechizo", languages=())
    assert off.cards == {} and off.translated == {} and "Contrahechizo" in off.suggestions


def test_a_list_sent_again_resolves_from_memory_with_its_translations(names_db, monkeypatch):
    from card_data.store import names_table as table

    repository = open_repository(StoreSettings(names_db, offline=True))
    first = repository.resolve(["Contrahechizo", "Isla", "Sol Ring"])
    calls = []
    monkeypatch.setattr(table, "lookup", lambda *args, **kwargs: calls.append(args) or [])
    again = repository.resolve(["Contrahechizo", "Isla", "Sol Ring"])
    assert calls == []  # the per-store memo answered
    assert again.cards == first.cards and again.translated == first.translated
    assert {name: t.card for name, t in again.translated.items()} == {"Contrahechizo": "Counterspell",
                                                                       "Isla": "Island"}


def test_a_remembered_name_in_another_language_never_loses_its_translation(names_db, monkeypatch):
    """Its card is remembered with the English names' (one look-up a name when sent again),
    its translation beside it: when the translations' memo starts over, the cards' does too,
    so no name comes back from memory without its translation."""
    from card_data.names import lookup as printed_lookup
    from card_data.store import cards as store

    monkeypatch.setattr(printed_lookup, "MAX_MEMO_NAMES", 3)
    repository = open_repository(StoreSettings(names_db, offline=True))
    generation = repository.store.snapshot().generation
    repository.resolve(["Contrahechizo", "Isla", "Sol Ring"])
    assert set(generation.cards_by_name) == {"Contrahechizo", "Isla", "Sol Ring"}
    assert {name: t.card for name, t in generation.printed_by_name.items()} == {"Contrahechizo": "Counterspell",
                                                                                "Isla": "Island"}
    later = repository.resolve(["Relámpago", "Île"])  # 2 + 2 translations: over 3, both memos start over
    assert set(generation.printed_by_name) == {"Relámpago", "Île"} and set(generation.cards_by_name) == {"Relámpago", "Île"}
    assert {name: t.lang for name, t in later.translated.items()} == {"Relámpago": "es", "Île": "fr"}
    for names in (["Contrahechizo", "Isla", "Sol Ring"], ["Relámpago", "Île"], ["Sol Ring", "Relámpago"]):
        for _ in range(2):  # once from the table or the cards, once from memory
            result = repository.resolve(names)
            assert set(result.cards) == set(names)
            assert set(result.translated) == set(names) - {"Sol Ring"}, names
    assert store.MAX_MEMO_NAMES == 20_000  # the English names' own bound is untouched


def test_the_lookup_is_one_batched_query_per_resolve(names_db, monkeypatch):
    from card_data.store import names_table as table

    real = table.lookup
    calls = []
    monkeypatch.setattr(table, "lookup", lambda conn, keys, *a: calls.append(len(keys)) or real(conn, keys, *a))
    names = ["Contrahechizo", "Isla", "Île", "Relámpago", "Espadas en rejas de arado", "対抗呪文", "Nope Nope"]
    result = open_repository(StoreSettings(names_db, offline=True)).resolve(names)
    assert len(result.translated) == 6
    # One call: the exact and folded key of each of the 7 missing names (対抗呪文's are one key).
    assert calls == [13]


def test_a_new_table_drops_the_memos_of_the_old(names_db, tmp_path):
    repository = open_repository(StoreSettings(names_db, offline=True))
    assert repository.resolve(["Contrahechizo"]).cards["Contrahechizo"].name == "Counterspell"
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"object": "card", "name": "Negate", "lang": "es", "printed_name": "Contrahechizo"}),
                     encoding="utf-8")
    names_sync.import_names(names_db, other)
    assert repository.resolve(["Contrahechizo"]).cards["Contrahechizo"].name == "Negate"


def test_the_table_survives_a_card_data_update(names_db):
    import_file(names_db, FIXTURES / "cards.jsonl", updated_at="2026-12-01T00:00:00+00:00")
    assert names_table.read_status(names_db).names > 20
    assert resolved(names_db, "Contrahechizo").cards["Contrahechizo"].name == "Counterspell"


def test_a_store_from_before_the_table_resolves_and_upgrades_with_its_first_import(fixture_db):
    with closing(sqlite3.connect(fixture_db)) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "printed_names" not in tables
    result = resolved(fixture_db, "Sol Ring", "Contrahechizo")
    assert list(result.cards) == ["Sol Ring"] and "Contrahechizo" in result.suggestions
    assert names_table.read_status(fixture_db) == names_table.NamesStatus()
    load_card_names(fixture_db)  # no manual step: the first import creates the table
    assert resolved(fixture_db, "Contrahechizo").cards["Contrahechizo"].name == "Counterspell"


def test_an_mtgjson_file_with_foreign_data_is_read(fixture_db, tmp_path):
    set_file = tmp_path / "SET.json"
    set_file.write_text(json.dumps({"meta": {"date": "2026-11-01"}, "data": {"code": "XYZ", "cards": [
        {"name": "Counterspell", "foreignData": [{"language": "Spanish", "name": "Contrahechizo"}]},
        {"name": "Sol Ring", "foreignData": [{"language": "Japanese", "name": "太陽の指輪"}]},
    ]}}), encoding="utf-8")
    all_printings = tmp_path / "AllPrintings.json"
    all_printings.write_text(json.dumps({"meta": {}, "data": {"ABC": {"cards": [
        {"name": "Island", "foreignData": [{"language": "German", "name": "Insel"}]}]}}}), encoding="utf-8")
    status = names_sync.import_names(fixture_db, set_file, all_printings)
    assert status.languages == ("de", "es", "ja")
    result = resolved(fixture_db, "Contrahechizo", "太陽の指輪", "insel")
    assert {name: card.name for name, card in result.cards.items()} == {
        "Contrahechizo": "Counterspell", "太陽の指輪": "Sol Ring", "insel": "Island"}


def test_cjk_names_resolve_with_or_without_the_spaces_people_add(names_db):
    typed = ["法務官の声、アトラクサ", "法務官の声 アトラクサ", "法務官の声アトラクサ", "太陽 の 指輪"]
    result = resolved(names_db, *typed)
    assert {name: card.name for name, card in result.cards.items()} == {
        "法務官の声、アトラクサ": "Atraxa, Praetors' Voice", "法務官の声 アトラクサ": "Atraxa, Praetors' Voice",
        "法務官の声アトラクサ": "Atraxa, Praetors' Voice", "太陽 の 指輪": "Sol Ring"}
    assert {t.lang for t in result.translated.values()} == {"ja"}


def test_hostile_names_files_are_refused_by_the_bounded_readers(names_db, tmp_path):
    """issue 19's bounds hold for names files too: nesting, a gzip bomb's output, one huge line."""
    from card_data.names import sources as names_sources

    deep = tmp_path / "deep.json"
    deep.write_text('{"data": {"cards": [' + "[" * 100 + "]" * 100 + "]}}", encoding="utf-8")
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(b"\n" * (64 << 20)))
    long_line = tmp_path / "long.jsonl"
    long_line.write_text('{"object": "card", "name": "' + "x" * (2 << 20) + '"}\n', encoding="utf-8")
    before = names_table.read_status(names_db)
    original = names_sources.MAX_NAMES_FILE_BYTES
    names_sources.MAX_NAMES_FILE_BYTES = 16 << 20
    try:
        # a first line over 1 MiB is no JSON Lines card: read as a document, it holds no card
        for path, bound in ((deep, "deep"), (bomb, "over 16 MiB"), (long_line, "over 1 MiB|no card objects")):
            with pytest.raises(CardDataError, match=bound):
                names_sync.import_names(names_db, path)
    finally:
        names_sources.MAX_NAMES_FILE_BYTES = original
    assert names_table.read_status(names_db) == before
